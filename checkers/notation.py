"""Notation at the Python edge: squares 1-32, moves `11-15` and `15x24x31`, and PDN FEN.

Moves are written with every square the piece stands on: the step `11-15`, the jump `15x24x31`
(from, each landing square, the last being where it stops). As input, a jump may leave out
landing squares (`15x31`) when the squares it gives pick one legal move; a step is always
`from-to`.

FEN is PDN's: `B:W21,22,K30:B1,2,3` - the side to move (B or W), then each colour's pieces, a
`K` before a king's square. Input also takes ranges (`W21-32`, `BK1-3`: every square of the range,
kings when the K is there), the pieces in any order, the colours in either order, a trailing
`.`, and the tag form `[FEN "..."]`; it rejects a square given twice, more than 12 pieces a side,
and a man on the row where it would have been crowned. Output lists each colour's squares in
order, White first, as pydraughts does.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from checkers.defs import (BLACK, BLACK_CROWN, MOVE_JUMPS_SHIFT, MOVE_PATH_SHIFT, MOVE_TO_SHIFT, SQUARES,
                           TAB_LANDING, WHITE, WHITE_CROWN)

START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
MAX_PIECES = 12


class FenError(ValueError):
    """A FEN that cannot be read, with the part that is wrong."""


class MoveError(ValueError):
    """A move that cannot be read or is not legal here (illegal, or ambiguous: the message says which)."""


class Setup(NamedTuple):
    """A position as boards of square indices (bit i = square i + 1) and the side to move."""
    black: int
    white: int
    kings: int
    side: int


# ---- moves ------------------------------------------------------------------------------------

def move_squares(tab, move: int) -> list[int]:
    """The squares a move stands on, numbered 1-32: from, then every landing square (or the to-square)."""
    sq = move & 31
    jumps = (move >> MOVE_JUMPS_SHIFT) & 15
    if jumps == 0:
        return [sq + 1, ((move >> MOVE_TO_SHIFT) & 31) + 1]
    squares = [sq + 1]
    for i in range(jumps):
        sq = int(tab[TAB_LANDING + 4 * sq + ((move >> (MOVE_PATH_SHIFT + 2 * i)) & 3)])
        squares.append(sq + 1)
    return squares


def move_text(tab, move: int) -> str:
    """`11-15` for a step, `15x24x31` (every landing square) for a jump."""
    separator = "x" if (move >> MOVE_JUMPS_SHIFT) & 15 else "-"
    return separator.join(str(sq) for sq in move_squares(tab, move))


_STEP = re.compile(r"(\d{1,2})-(\d{1,2})")
_JUMP = re.compile(r"\d{1,2}(?:x\d{1,2})+")


def _is_subsequence(wanted: list[int], path: list[int]) -> bool:
    remaining = iter(path)
    return all(square in remaining for square in wanted)


def parse_move(tab, text: str, legal: list[int]) -> int:
    """The legal move (one of `legal`) that `text` names; MoveError when none or several do."""
    written = text.strip().lower()
    if _STEP.fullmatch(written):
        squares = [int(s) for s in written.split("-")]
        jump = False
    elif _JUMP.fullmatch(written):
        squares = [int(s) for s in written.split("x")]
        jump = True
    else:
        raise MoveError(f"not a move: {text!r} (write a step as 11-15, a jump as 15x24 or 15x24x31)")
    if not all(1 <= sq <= SQUARES for sq in squares):
        raise MoveError(f"{text!r}: squares are numbered 1 to {SQUARES}")
    matches = []
    for move in legal:
        path = move_squares(tab, move)
        is_jump = (move >> MOVE_JUMPS_SHIFT) & 15 != 0
        if is_jump != jump or path[0] != squares[0] or path[-1] != squares[-1]:
            continue
        if _is_subsequence(squares[1:-1], path[1:-1]):
            matches.append(move)
    if len(matches) == 1:
        return matches[0]
    if not matches:
        listed = ", ".join(move_text(tab, m) for m in legal) or "none"
        raise MoveError(f"illegal move {text!r}; the legal moves: {listed}")
    listed = ", ".join(move_text(tab, m) for m in matches)
    raise MoveError(f"ambiguous move {text!r}: it could be {listed}")


# ---- FEN --------------------------------------------------------------------------------------

_TAG = re.compile(r'\[\s*FEN\s+"([^"]*)"\s*\]', re.IGNORECASE)
_ITEM = re.compile(r"(K?)(\d{1,2})(?:-(\d{1,2}))?")


def _squares_of(part: str, field: str) -> tuple[list[int], list[int]]:
    """(men, kings) as square numbers from a colour's list `21,22,K30,5-8`."""
    men: list[int] = []
    kings: list[int] = []
    for item in filter(None, (piece.strip() for piece in part.split(","))):
        match = _ITEM.fullmatch(item.upper())
        if not match:
            raise FenError(f"{item!r} in {field!r} is not a square, K and a square, or a range like 21-32")
        king, first, last = match.group(1), int(match.group(2)), int(match.group(3) or match.group(2))
        if not (1 <= first <= last <= SQUARES):
            raise FenError(f"{item!r} in {field!r}: squares run from 1 to {SQUARES}, a range upwards")
        (kings if king else men).extend(range(first, last + 1))
    return men, kings


def parse_fen(text: str) -> Setup:
    """Read a PDN FEN (or its [FEN "..."] tag); FenError says what is wrong."""
    fen = text.strip()
    tag = _TAG.fullmatch(fen)
    if tag:
        fen = tag.group(1).strip()
    fen = fen.rstrip(".").strip()
    fields = [field.strip() for field in fen.split(":")]
    if not fields[0] or fields[0].upper() not in ("B", "W"):
        raise FenError(f"the FEN {text!r} must start with the side to move, B or W")
    side = BLACK if fields[0].upper() == "B" else WHITE
    boards = {BLACK: [0, 0], WHITE: [0, 0]}        # colour -> [pieces, kings]
    seen: set[str] = set()
    occupied = 0
    for field in fields[1:]:
        colour_letter = field[:1].upper()
        if colour_letter not in ("B", "W"):
            raise FenError(f"the field {field!r} of {text!r} must start with W or B (the colour)")
        if colour_letter in seen:
            raise FenError(f"{text!r} lists the {'black' if colour_letter == 'B' else 'white'} pieces twice")
        seen.add(colour_letter)
        colour = BLACK if colour_letter == "B" else WHITE
        men, kings = _squares_of(field[1:], field)
        for number in men + kings:
            bit = 1 << (number - 1)
            if occupied & bit:
                raise FenError(f"square {number} is given twice in {text!r}")
            occupied |= bit
            boards[colour][0] |= bit
        for number in kings:
            boards[colour][1] |= 1 << (number - 1)
        if len(men) + len(kings) > MAX_PIECES:
            raise FenError(f"{len(men) + len(kings)} {'black' if colour == BLACK else 'white'} pieces in "
                           f"{text!r}: a side has at most {MAX_PIECES}")
    black, white = boards[BLACK][0], boards[WHITE][0]
    kings = boards[BLACK][1] | boards[WHITE][1]
    for colour, crown_row in ((BLACK, BLACK_CROWN), (WHITE, WHITE_CROWN)):
        stuck = boards[colour][0] & ~kings & crown_row
        if stuck:
            squares = [i + 1 for i in range(SQUARES) if stuck >> i & 1]
            name = "black" if colour == BLACK else "white"
            raise FenError(f"a {name} man on {squares} in {text!r} would have been crowned there "
                           f"(write K{squares[0]})")
    return Setup(black, white, kings, side)


def format_fen(setup: Setup) -> str:
    """The PDN FEN of a position: `B:W21,22,K30:B1,2,3`."""
    def listed(pieces: int) -> str:
        return ",".join(("K" if setup.kings >> i & 1 else "") + str(i + 1)
                        for i in range(SQUARES) if pieces >> i & 1)
    return f"{'B' if setup.side == BLACK else 'W'}:W{listed(setup.white)}:B{listed(setup.black)}"


def diagram(setup: Setup) -> str:
    """The board as text, Black at the top: b/w men, B/W kings, . an empty dark square."""
    lines = []
    for row in range(8):
        cells = []
        for file in range(8):
            if (row + file) % 2 == 0:
                cells.append(" ")
                continue
            i = 4 * row + file // 2
            if setup.black >> i & 1:
                cells.append("B" if setup.kings >> i & 1 else "b")
            elif setup.white >> i & 1:
                cells.append("W" if setup.kings >> i & 1 else "w")
            else:
                cells.append(".")
        lines.append(" ".join(cells) + f"   {4 * row + 1:2d}-{4 * row + 4:2d}")
    return "\n".join(lines)
