"""Move encoding: a move is an int `from | to << 6 | flag << 12`, and its UCI text.

This module is the only place that knows the bit layout; everything else builds and reads moves
through the helpers below (small kernels that LLVM inlines into their callers, so they cost
nothing). Castling is encoded king-from -> rook-square (as in Chess960) so that one code path
serves both chess variants; the UCI text converts to `e1g1` style unless Chess960 notation is
asked for.
"""

from engine.defs import BISHOP, KNIGHT, QUEEN, ROOK
from engine.kernel import kernel

NORMAL, DOUBLE_PUSH, CASTLE, EN_PASSANT = 0, 1, 2, 3
PROMO_KNIGHT, PROMO_BISHOP, PROMO_ROOK, PROMO_QUEEN = 4, 5, 6, 7
NULL_MOVE = 0   # a1a1 is no legal move; also the "no move" marker

TO_SHIFT = 6
FLAG_SHIFT = 12
SQUARE_MASK = 63
FROM_TO_MASK = 4095          # from and to together: 4096 butterfly slots

PROMOTION_LETTERS = {KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q"}
SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]


@kernel
def encode(frm, to, flag):
    return frm | (to << TO_SHIFT) | (flag << FLAG_SHIFT)


@kernel
def move_from(move):
    return move & SQUARE_MASK


@kernel
def move_to(move):
    return (move >> TO_SHIFT) & SQUARE_MASK


@kernel
def move_flag(move):
    return move >> FLAG_SHIFT


@kernel
def from_to(move):
    """The move's from and to squares as one index 0..4095 (history tables are indexed by it)."""
    return move & FROM_TO_MASK


@kernel
def is_promotion(move):
    return (move >> FLAG_SHIFT) >= PROMO_KNIGHT


@kernel
def promotion_type(move):
    """Piece type a promotion makes (KNIGHT..QUEEN); only meaningful when is_promotion."""
    return (move >> FLAG_SHIFT) - (PROMO_KNIGHT - KNIGHT)


@kernel
def promotion_flag(piece_type):
    """The flag of a promotion to `piece_type` (KNIGHT..QUEEN)."""
    return piece_type + (PROMO_KNIGHT - KNIGHT)


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def move_to_uci(move: int, chess960: bool) -> str:
    """UCI text of an encoded move: `e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960, `e1h1`.
    (Plain Python on purpose: called per legal move from Python, where a kernel call costs more
    than the arithmetic.)"""
    if move == NULL_MOVE:
        return "0000"
    frm, to, flag = move & SQUARE_MASK, (move >> TO_SHIFT) & SQUARE_MASK, move >> FLAG_SHIFT
    if flag == CASTLE and not chess960:
        rank = frm & ~7
        to = rank + (6 if to > frm else 2)
    text = SQUARE_NAMES[frm] + SQUARE_NAMES[to]
    if flag >= PROMO_KNIGHT:
        text += PROMOTION_LETTERS[flag - (PROMO_KNIGHT - KNIGHT)]
    return text


@kernel
def move_key(move):
    """A move's place in the canonical order of a position's legal moves: by from square, to
    square (a castling king's is its rook's square), promotion piece. Any move generator can
    rebuild the order, so a move is stored as its index in it (the self-play data of tools/training/records.py)."""
    promotion = promotion_type(move) if is_promotion(move) else 0
    return (move_from(move) << 9) | (move_to(move) << 3) | promotion


@kernel
def sort_moves(moves, n):
    """Sort moves[:n] into the canonical order (insertion sort: n is small)."""
    for i in range(1, n):
        move = moves[i]
        key = move_key(move)
        j = i - 1
        while j >= 0 and move_key(moves[j]) > key:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = move
