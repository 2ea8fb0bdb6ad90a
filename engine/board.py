"""The Python-side board: FEN in and out, legal move lists, UCI move text, game history.

This is the edge the UCI loop, the CLI and the tests use. It owns one set of position arrays and
calls the numba kernels on them; nothing here loops over search nodes.
"""

from __future__ import annotations

import numpy as np

from engine import position as P
from engine.defs import (BB_ALL, BB_CASTLE_EMPTY, BB_CASTLE_KING_TO, BB_CASTLE_ROOK_TO, BB_CASTLE_SAFE,
                         BB_KEYS, BLACK, HISTORY_SIZE, MAX_HISTORY, MAX_MOVES, MAX_PLY, NO_PIECE, PIECE_SYMBOLS,
                         ST_BOARD, ST_CASTLE_MASK, ST_CASTLE_ROOK, ST_CASTLING, ST_CHESS960, ST_EP,
                         ST_FULLMOVE, ST_HALFMOVE, ST_PLY, ST_SIDE, ST_UNDO, UNDO_SIZE, WHITE)
from engine.bitboard import between
from engine.bits import bit
from engine.draw import fifty_move_counter_expired, insufficient_material, repetitions
from engine.fen import STARTING_FEN, FenError, format_fen, parse_fen
from engine.move import CASTLE, move_flag, move_to_uci, square_name
from engine.movegen import ALL, COUNT, NOISY, generate
from engine.tables import tables


class IllegalMoveError(ValueError):
    """A move text that is malformed or not legal in the current position."""


class Board:
    """A chess position with its game history, backed by numba position arrays."""

    def __init__(self, fen: str = STARTING_FEN, chess960: bool = False) -> None:
        self.tab = tables()
        self.arrays = P.new_arrays()
        self._moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self.set_fen(fen, chess960)

    # ---- setting up -----------------------------------------------------------------------------

    def set_fen(self, fen: str, chess960: bool | None = None) -> None:
        """Set the position from FEN (X-FEN and Shredder-FEN castling accepted).

        Raises FenError and leaves the board unchanged when the FEN is invalid.
        """
        if chess960 is None:
            chess960 = self.chess960
        parsed = parse_fen(fen, chess960)
        arrays = P.new_arrays()
        bb, st = arrays
        for sq, piece in enumerate(parsed.board):
            if piece != NO_PIECE:
                P.put_piece(bb, st, sq, piece)
        st[ST_SIDE] = parsed.side
        st[ST_HALFMOVE] = parsed.halfmove
        st[ST_FULLMOVE] = parsed.fullmove
        st[ST_CHESS960] = int(chess960)
        if P.attacked_by(self.tab, bb, P.king_square(bb, parsed.side ^ 1), parsed.side, bb[BB_ALL]):
            raise FenError("the side not to move is in check")
        self._set_castling(arrays, parsed.castling_rooks)
        if parsed.ep >= 0 and P.en_passant_possible(self.tab, bb, parsed.side, parsed.ep):
            st[ST_EP] = parsed.ep
        bb[BB_KEYS] = P.compute_key(self.tab, arrays)
        P.assign_arrays(self.arrays, arrays)
        self.start_fen = self.fen()
        self.history: list[int] = []

    def _set_castling(self, arrays: tuple, castling_rooks: dict[int, int]) -> None:
        """Record each castling right's rook square, the squares it needs empty and safe, and
        which squares lose which rights when a piece leaves or lands on them."""
        bb, st = arrays
        rights = 0
        for right, rook_sq in castling_rooks.items():
            colour = WHITE if right < 2 else BLACK
            ksq = P.king_square(bb, colour)
            king_to, rook_to = P.castle_squares(ksq, rook_sq)
            path = (between(self.tab, ksq, king_to) | bit(king_to)
                    | between(self.tab, rook_sq, rook_to) | bit(rook_to))
            bb[BB_CASTLE_EMPTY + right] = path & ~(bit(ksq) | bit(rook_sq))
            bb[BB_CASTLE_SAFE + right] = between(self.tab, ksq, king_to)
            bb[BB_CASTLE_KING_TO + right] = bit(king_to)
            bb[BB_CASTLE_ROOK_TO + right] = bit(rook_to)
            st[ST_CASTLE_ROOK + right] = rook_sq
            st[ST_CASTLE_MASK + ksq] &= ~(3 << (2 * colour))
            st[ST_CASTLE_MASK + rook_sq] &= ~(1 << right)
            rights |= 1 << right
        st[ST_CASTLING] = rights

    # ---- reading --------------------------------------------------------------------------------

    @property
    def chess960(self) -> bool:
        return bool(self.arrays[1][ST_CHESS960])

    @property
    def turn(self) -> int:
        return int(self.arrays[1][ST_SIDE])

    @property
    def ply(self) -> int:
        return int(self.arrays[1][ST_PLY])

    @property
    def game_ply(self) -> int:
        """Half-moves since the game's start, from the FEN move number (0 before White's first)."""
        st = self.arrays[1]
        return 2 * (int(st[ST_FULLMOVE]) - 1) + int(st[ST_SIDE] != WHITE)

    @property
    def key(self) -> int:
        return int(self.arrays[0][BB_KEYS + self.ply])

    @property
    def halfmove_clock(self) -> int:
        return int(self.arrays[1][ST_HALFMOVE])

    def castling_rooks(self) -> dict[int, int]:
        st = self.arrays[1]
        return {r: int(st[ST_CASTLE_ROOK + r]) for r in range(4) if st[ST_CASTLING] >> r & 1}

    def fen(self, shredder: bool = False) -> str:
        st = self.arrays[1]
        return format_fen([int(p) for p in st[ST_BOARD:ST_BOARD + 64]], int(st[ST_SIDE]), self.castling_rooks(),
                          int(st[ST_EP]), int(st[ST_HALFMOVE]), int(st[ST_FULLMOVE]),
                          self.chess960, shredder)

    def python_chess(self):
        """This position as a python-chess board (without the move history), for SAN, books and
        tablebases."""
        import chess          # here, not at the top: the UCI loop answers `uci` before heavy imports

        return chess.Board(self.fen(), chess960=self.chess960)

    def piece_at(self, sq: int) -> int:
        return int(self.arrays[1][ST_BOARD + sq])

    def legal_moves(self) -> list[int]:
        n = generate(self.tab, self.arrays, self._moves, 0, ALL)
        return [int(m) for m in self._moves[:n]]

    def is_legal(self, move: int) -> bool:
        n = generate(self.tab, self.arrays, self._moves, 0, ALL)
        return bool((self._moves[:n] == move).any())

    def noisy_moves(self) -> list[int]:
        n = generate(self.tab, self.arrays, self._moves, 0, NOISY)
        return [int(m) for m in self._moves[:n]]

    def count_legal_moves(self) -> int:
        return int(generate(self.tab, self.arrays, self._moves, 0, COUNT))

    def is_check(self) -> bool:
        return bool(P.in_check(self.tab, self.arrays))

    def checkers(self) -> list[str]:
        """Names of the squares of the pieces giving check."""
        bb, st = self.arrays
        us = int(st[ST_SIDE])
        found = P.checkers_of(self.tab, bb, us, P.king_square(bb, us), bb[BB_ALL])
        return [square_name(sq) for sq in range(64) if int(found) >> sq & 1]

    def is_checkmate(self) -> bool:
        return self.is_check() and self.count_legal_moves() == 0

    def is_stalemate(self) -> bool:
        return not self.is_check() and self.count_legal_moves() == 0

    def repetitions(self) -> int:
        """Earlier occurrences of this position (2 means a threefold repetition)."""
        return int(repetitions(self.arrays, self.ply, 1 << 20))

    def is_fifty_moves(self) -> bool:
        return bool(fifty_move_counter_expired(self.arrays)) and not self.is_checkmate()

    def is_insufficient_material(self) -> bool:
        return bool(insufficient_material(self.arrays))

    def outcome(self) -> str | None:
        """Why the game is over under FIDE rules ('checkmate', 'stalemate', 'threefold repetition',
        'fifty-move rule', 'insufficient material') or None while it goes on. Repetition and the
        fifty-move rule are the draws a player may claim; an engine treats them as final."""
        if self.count_legal_moves() == 0:
            return "checkmate" if self.is_check() else "stalemate"
        if self.is_insufficient_material():
            return "insufficient material"
        if self.repetitions() >= 2:
            return "threefold repetition"
        if fifty_move_counter_expired(self.arrays):
            return "fifty-move rule"
        return None

    # ---- moves ----------------------------------------------------------------------------------

    def uci(self, move: int) -> str:
        return move_to_uci(move, self.chess960)

    def parse_uci(self, text: str) -> int:
        """The legal move written `text` in UCI notation (castling as e1g1, or king-takes-rook;
        both are accepted in either mode). Raises IllegalMoveError."""
        if not (4 <= len(text) <= 5) or not text.isascii():
            raise IllegalMoveError(f"malformed move {text!r}")
        legal = self.legal_moves()
        for move in legal:
            if move_to_uci(move, self.chess960) == text:
                return move
        for move in legal:  # the other castling notation
            if move_flag(move) == CASTLE and move_to_uci(move, not self.chess960) == text:
                return move
        raise IllegalMoveError(f"illegal move {text} in {self.fen()}")

    def push(self, move: int) -> None:
        """Play a move that must be legal (see parse_uci)."""
        if self.ply >= HISTORY_SIZE - MAX_PLY - 2:
            self._rebase_history()
        P.make_move(self.tab, self.arrays, move)
        self.history.append(move)

    def push_uci(self, text: str) -> int:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def pop(self) -> int:
        """Take back the last move."""
        if not self.history:
            raise IndexError("no move to take back")
        move = self.history.pop()
        if self.ply > 0 and int(P.last_move(self.arrays)) == move:
            P.unmake_move(self.tab, self.arrays, move)
        else:  # the undo record went with a history rebase: replay from the start
            moves = self.history
            self.set_fen(self.start_fen)
            for m in moves:
                self.push(m)
        return move

    def _rebase_history(self) -> None:
        """Drop position records older than the last irreversible move (repetitions cannot reach
        them) so that arbitrarily long games fit the fixed history arrays. Of a longer reversible
        stretch only the last MAX_HISTORY plies are kept for repetition detection."""
        bb, st = self.arrays
        ply = int(st[ST_PLY])
        keep = min(int(st[ST_HALFMOVE]), ply, MAX_HISTORY)
        bb[BB_KEYS:BB_KEYS + keep + 1] = bb[BB_KEYS + ply - keep:BB_KEYS + ply + 1].copy()
        records = st[ST_UNDO + (ply - keep) * UNDO_SIZE:ST_UNDO + ply * UNDO_SIZE].copy()
        st[ST_UNDO:ST_UNDO + keep * UNDO_SIZE] = records
        st[ST_PLY] = keep

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.tab = self.tab
        other.arrays = P.copy_arrays(self.arrays)
        other._moves = np.zeros(MAX_MOVES, dtype=np.int64)
        other.start_fen = self.start_fen
        other.history = list(self.history)
        return other

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            pieces = [self.piece_at(rank * 8 + f) for f in range(8)]
            cells = ["." if piece == NO_PIECE else PIECE_SYMBOLS[piece] for piece in pieces]
            rows.append(f"{rank + 1} " + " ".join(cells))
        rows.append("  a b c d e f g h")
        return "\n".join(rows)
