"""FEN and X-FEN/Shredder-FEN parsing with validation, and FEN formatting.

`parse_fen` turns text into a `ParsedFen` or raises `FenError` with a message that says what is
wrong. Checks that need attack tables (the side not to move in check, which en-passant captures
are legal) are done by engine.board once the pieces are on arrays.
"""

from dataclasses import dataclass, field

from engine.defs import (BLACK, BLACK_OO, BLACK_OOO, KING, NO_PIECE, PAWN, PIECE_SYMBOLS, PIECE_TYPES, ROOK,
                         WHITE, WHITE_OO, WHITE_OOO)
from engine.move import SQUARE_NAMES
from engine.piece import make_piece, piece_type

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MAX_CLOCK = 1_000_000


class FenError(ValueError):
    """A FEN string that does not describe a valid position; the message says why."""


@dataclass
class ParsedFen:
    board: list[int]                      # 64 piece codes (NO_PIECE for empty)
    side: int
    castling_rooks: dict[int, int] = field(default_factory=dict)   # right -> rook square
    ep: int = -1                          # en-passant target square as written, or -1
    halfmove: int = 0
    fullmove: int = 1


def _parse_placement(text: str) -> list[int]:
    ranks = text.split("/")
    if len(ranks) != 8:
        raise FenError(f"piece placement has {len(ranks)} ranks, expected 8")
    board = [NO_PIECE] * 64
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        file = 0
        previous_digit = False
        for ch in rank_text:
            if ch in "12345678":
                if previous_digit:
                    raise FenError(f"rank {rank + 1} has two empty-square counts in a row")
                file += int(ch)
                previous_digit = True
            elif ch in PIECE_SYMBOLS:
                if file < 8:
                    board[rank * 8 + file] = PIECE_SYMBOLS.index(ch)
                file += 1
                previous_digit = False
            else:
                raise FenError(f"bad character {ch!r} in piece placement")
        if file != 8:
            raise FenError(f"rank {rank + 1} has {file} squares, expected 8")
    return board


def _check_material(board: list[int]) -> None:
    for colour, name in ((WHITE, "white"), (BLACK, "black")):
        counts = [board.count(make_piece(colour, t)) for t in range(PIECE_TYPES)]
        if counts[KING] != 1:
            raise FenError(f"{name} has {counts[KING]} kings, expected exactly 1")
        if sum(counts) > 16:
            raise FenError(f"{name} has {sum(counts)} pieces, at most 16 are possible")
        if counts[PAWN] > 8:
            raise FenError(f"{name} has {counts[PAWN]} pawns, at most 8 are possible")
        promoted = sum(max(0, c - start) for c, start in zip(counts[1:5], (2, 2, 2, 1)))
        if promoted > 8 - counts[PAWN]:
            raise FenError(f"{name} has more promoted pieces than missing pawns")
    for sq in list(range(8)) + list(range(56, 64)):
        if piece_type(board[sq]) == PAWN:
            raise FenError(f"pawn on {SQUARE_NAMES[sq]}: pawns cannot stand on the first or last rank")


def _parse_castling(text: str, board: list[int], chess960: bool) -> dict[int, int]:
    rooks: dict[int, int] = {}
    if text == "-":
        return rooks
    for ch in text:
        colour = WHITE if ch.isupper() else BLACK
        back = 0 if colour == WHITE else 56
        king = make_piece(colour, KING)
        rook = make_piece(colour, ROOK)
        name = "white" if colour == WHITE else "black"
        king_squares = [sq for sq in range(back, back + 8) if board[sq] == king]
        if not king_squares:
            raise FenError(f"castling right {ch!r} but the {name} king is not on its back rank")
        ksq = king_squares[0]
        low = ch.lower()
        if low == "k":
            files = [sq for sq in range(back + 7, ksq, -1) if board[sq] == rook]
        elif low == "q":
            files = [sq for sq in range(back, ksq) if board[sq] == rook]
        elif low in "abcdefgh":
            sq = back + "abcdefgh".index(low)
            files = [sq] if board[sq] == rook and sq != ksq else []
        else:
            raise FenError(f"bad character {ch!r} in castling rights")
        if not files:
            raise FenError(f"castling right {ch!r} but there is no {name} rook for it")
        rook_sq = files[0]
        if not chess960 and (ksq != back + 4 or rook_sq not in (back, back + 7)):
            raise FenError(f"castling right {ch!r} needs the {name} king on e{1 if colour == WHITE else 8} "
                           f"and a rook in the corner (set UCI_Chess960 for Chess960 positions)")
        h_side = rook_sq > ksq
        right = (WHITE_OO if h_side else WHITE_OOO) if colour == WHITE else (BLACK_OO if h_side else BLACK_OOO)
        if right in rooks:
            raise FenError(f"castling rights {text!r} name the same right twice")
        rooks[right] = rook_sq
    return rooks


def _parse_en_passant(text: str, board: list[int], side: int) -> int:
    if text == "-":
        return -1
    if text not in SQUARE_NAMES:
        raise FenError(f"en-passant field {text!r} is not a square")
    ep = SQUARE_NAMES.index(text)
    rank = ep >> 3
    expected = 5 if side == WHITE else 2
    if rank != expected:
        raise FenError(f"en-passant square {text} impossible: with {'white' if side == WHITE else 'black'} "
                       f"to move it must be on rank {expected + 1}")
    forward = -8 if side == WHITE else 8          # from the ep square towards the pawn that moved
    pawn = make_piece(side ^ 1, PAWN)
    if board[ep + forward] != pawn:
        raise FenError(f"en-passant square {text} impossible: no pawn that just advanced two squares")
    if board[ep] != NO_PIECE or board[ep - forward] != NO_PIECE:
        raise FenError(f"en-passant square {text} impossible: the squares the pawn crossed are not empty")
    return ep


def _parse_clock(text: str, name: str, minimum: int) -> int:
    if not text.isdigit():
        raise FenError(f"{name} {text!r} is not a non-negative number")
    value = int(text)
    if value > MAX_CLOCK:
        raise FenError(f"{name} {value} is absurdly large")
    return max(value, minimum)


def parse_fen(fen: str, chess960: bool = False) -> ParsedFen:
    """Parse and validate the text of a FEN (4 to 6 fields; clocks default to `0 1`)."""
    if not isinstance(fen, str) or not fen.isascii():
        raise FenError("FEN must be ASCII text")
    fields = fen.split()
    if not 4 <= len(fields) <= 6:
        raise FenError(f"FEN has {len(fields)} fields, expected 6 (or 4 without the clocks)")
    board = _parse_placement(fields[0])
    _check_material(board)
    if fields[1] not in ("w", "b"):
        raise FenError(f"side to move {fields[1]!r} must be 'w' or 'b'")
    side = WHITE if fields[1] == "w" else BLACK
    rooks = _parse_castling(fields[2], board, chess960)
    ep = _parse_en_passant(fields[3], board, side)
    halfmove = _parse_clock(fields[4], "halfmove clock", 0) if len(fields) > 4 else 0
    fullmove = _parse_clock(fields[5], "fullmove number", 1) if len(fields) > 5 else 1
    return ParsedFen(board, side, rooks, ep, halfmove, fullmove)


def format_fen(board: list[int], side: int, castling_rooks: dict[int, int], ep: int, halfmove: int,
               fullmove: int, chess960: bool, shredder: bool = False) -> str:
    """FEN text; castling as KQkq, or in Chess960 as X-FEN (file letters only when the rook is
    not the outermost one) or Shredder-FEN (always file letters) when `shredder`."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board[rank * 8 + file]
            if piece == NO_PIECE:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += PIECE_SYMBOLS[piece]
        rows.append(row + (str(empty) if empty else ""))
    castling = ""
    for right in (WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO):
        if right not in castling_rooks:
            continue
        rook_sq = castling_rooks[right]
        colour = WHITE if right < BLACK_OO else BLACK
        letter = "kq"[right & 1]
        if chess960:
            back = rook_sq & 56
            king, rook = make_piece(colour, KING), make_piece(colour, ROOK)
            ksq = next(sq for sq in range(back, back + 8) if board[sq] == king)
            beyond = range(rook_sq + 1, back + 8) if rook_sq > ksq else range(back, rook_sq)
            if shredder or any(board[sq] == rook for sq in beyond):
                letter = "abcdefgh"[rook_sq & 7]
        castling += letter.upper() if colour == WHITE else letter
    return " ".join(["/".join(rows), "wb"[side], castling or "-",
                     SQUARE_NAMES[ep] if ep >= 0 else "-", str(halfmove), str(fullmove)])
