"""Polyglot opening books: open one (checking that it is a book), and choose a move from it.

python-chess reads the file; this module validates it, maps our board to python-chess's for the
lookup, keeps only moves legal on our board and picks one weighted by the entries' weights.
Books are for standard chess: the UCI loop does not consult them in Chess960 mode.
"""

from __future__ import annotations

import os
import random
from typing import TYPE_CHECKING

import chess
import chess.polyglot
import numpy as np

if TYPE_CHECKING:
    from engine.board import Board

ENTRY_SIZE = 16        # key u64, move u16, weight u16, learn u32; big-endian


class BookError(ValueError):
    """A book file that cannot be used; the message says which file and why."""


class OpeningBook:
    """An open Polyglot book. Lookups are binary searches in the memory-mapped file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._check_file(path)
        try:
            self._reader = chess.polyglot.open_reader(path)
        except OSError as exc:
            raise BookError(f"cannot open book {path!r}: {exc.strerror or exc}") from None
        self.entries = len(self._reader)

    @staticmethod
    def _check_file(path: str) -> None:
        """Refuse what is not a Polyglot book: no file, an empty one, a size that is not whole
        16-byte entries, or keys out of order (the lookup's binary search needs them sorted)."""
        if not os.path.isfile(path):
            raise BookError(f"book {path!r} {'is not a file' if os.path.exists(path) else 'not found'}")
        size = os.path.getsize(path)
        if size == 0:
            raise BookError(f"book {path!r} is empty")
        if size % ENTRY_SIZE:
            raise BookError(f"{path!r} is not a Polyglot book: its size ({size} bytes) is not a "
                            f"multiple of {ENTRY_SIZE}")
        try:
            words = np.memmap(path, dtype=">u8", mode="r")
        except OSError as exc:
            raise BookError(f"cannot read book {path!r}: {exc.strerror or exc}") from None
        keys = words[0::2]
        in_order = bool(np.all(keys[1:] >= keys[:-1]))
        del keys, words
        if not in_order:
            raise BookError(f"{path!r} is not a Polyglot book: its keys are not sorted")

    def close(self) -> None:
        self._reader.close()

    def moves(self, board: Board) -> list[tuple[str, int]]:
        """The book's moves in this position that are legal on `board`, as (UCI text in the
        board's notation, weight) in book order; entries of weight 0 are never played."""
        found = []
        for entry in self._reader.find_all(python_chess_board(board)):
            try:
                move = board.parse_uci(entry.move.uci())
            except ValueError:        # cannot happen for a legal python-chess move; never trust a file
                continue
            found.append((board.uci(move), entry.weight))
        return found

    def choose(self, board: Board, rng: random.Random, best_only: bool = False) -> str | None:
        """A book move for `board`, drawn with probability proportional to its weight (the
        heaviest, the first of equals, when `best_only`); None when the book has none."""
        found = self.moves(board)
        if not found:
            return None
        if best_only:
            return max(found, key=lambda item: item[1])[0]
        pick = rng.randrange(sum(weight for _, weight in found))
        for text, weight in found:
            pick -= weight
            if pick < 0:
                return text
        raise AssertionError("unreachable: the pick is below the total weight")


def python_chess_board(board: Board) -> chess.Board:
    """`board` as python-chess has it, for the Polyglot key. Our FEN names an en passant square
    only when the capture is legal; Polyglot hashes it whenever a pawn stands beside the pushed
    one, so after a double push the square is restored."""
    result = board.python_chess()
    if result.ep_square is None and board.history:
        last = chess.Move.from_uci(board.uci(board.history[-1]))
        if (result.piece_type_at(last.to_square) == chess.PAWN
                and abs(last.to_square - last.from_square) == 16):
            result.ep_square = (last.from_square + last.to_square) // 2
    return result


def book_random(seed: int, key: int) -> random.Random:
    """The random source of a book choice: fixed by a non-zero seed and the position, so seeded
    games repeat; seed 0 draws from the system's entropy."""
    return random.Random(f"book:{seed}:{key}") if seed else random.Random()
