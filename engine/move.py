"""Move encoding: a move is an int `from | to << 6 | flag << 12`, and its UCI text.

Castling is encoded king-from -> rook-square (as in Chess960) so that one code path serves both
chess variants; the UCI text converts to `e1g1` style unless Chess960 notation is asked for.
"""

from engine.defs import BISHOP, KNIGHT, QUEEN, ROOK
from engine.kernel import kernel

NORMAL, DOUBLE_PUSH, CASTLE, EN_PASSANT = 0, 1, 2, 3
PROMO_KNIGHT, PROMO_BISHOP, PROMO_ROOK, PROMO_QUEEN = 4, 5, 6, 7
NULL_MOVE = 0   # a1a1 is no legal move; also the "no move" marker

PROMOTION_LETTERS = {KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q"}
SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]


@kernel
def encode(frm, to, flag):
    return frm | (to << 6) | (flag << 12)


@kernel
def move_from(move):
    return move & 63


@kernel
def move_to(move):
    return (move >> 6) & 63


@kernel
def move_flag(move):
    return move >> 12


@kernel
def is_promotion(move):
    return (move >> 12) >= PROMO_KNIGHT


@kernel
def promotion_type(move):
    """Piece type a promotion makes (KNIGHT..QUEEN); only meaningful when is_promotion."""
    return (move >> 12) - 3


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """Square index of a name like 'e4'; ValueError when it is not one."""
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise ValueError(f"not a square: {text!r}")
    return "abcdefgh".index(text[0]) + 8 * "12345678".index(text[1])


def move_to_uci(move: int, chess960: bool) -> str:
    """UCI text of an encoded move: `e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960, `e1h1`."""
    if move == NULL_MOVE:
        return "0000"
    frm, to, flag = move & 63, (move >> 6) & 63, move >> 12
    if flag == CASTLE and not chess960:
        rank = frm & ~7
        to = rank + (6 if to > frm else 2)
    text = SQUARE_NAMES[frm] + SQUARE_NAMES[to]
    if flag >= PROMO_KNIGHT:
        text += PROMOTION_LETTERS[flag - 3]
    return text
