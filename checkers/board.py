"""The Python edge of the checkers core: a game position with its history, FEN and notation in
and out, legal moves as notation. It owns the arrays the kernels work on (`tab`, `pos`, a move
buffer) and calls the kernels; nothing here loops over a tree.

    from checkers.board import Board
    board = Board()                       # the start, Black to move
    board.legal_notation()                # ['9-13', '9-14', ...]
    board.push_notation("11-15")
    board.fen()                           # 'W:W21,...,32:B1,...,10,12,15'
    board.outcome()                       # None while the game goes on

A search works on `board.tab` and `board.pos` directly with the kernels of checkers.movegen,
checkers.position and checkers.draw (make_move/unmake_move on top of the game's history, so
repetitions of the game count).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from checkers.defs import (BLACK, COLOUR_NAMES, MAX_GAME_PLIES, MAX_MOVES, POS_HISTORY, POS_KINGS, POS_PIECES,
                           POS_PLY, POS_QUIET, POS_SIDE, WHITE)
from checkers.draw import forty_move_draw, repetitions
from checkers.movegen import generate
from checkers.notation import START_FEN, MoveError, Setup, diagram, format_fen, move_squares, move_text, \
    parse_fen, parse_move
from checkers.position import make_move, new_position, set_position, unmake_move
from checkers.tables import TABLES


class Outcome(NamedTuple):
    """How a game ended: the winning colour (None for a draw) and why."""
    winner: int | None
    reason: str          # "no legal move", "threefold repetition" or "40-move rule"


class Board:
    """A checkers game: the position, the moves played since `root_fen`, and the draw history."""

    def __init__(self, fen: str = START_FEN) -> None:
        self.tab = TABLES
        self.pos = new_position()
        self._buffer = np.zeros(MAX_MOVES, dtype=np.int64)
        self.set_fen(fen)

    # ---- setting up and reading -------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Set up a PDN FEN position (FenError when it cannot be read); the game starts there."""
        setup = parse_fen(fen)
        self.root_fen = format_fen(setup)
        self._moves: list[int] = []
        self._floor = 0                     # plies of the array below which unmake cannot go (re-rooting)
        set_position(self.tab, self.pos, np.int64(setup.black), np.int64(setup.white), np.int64(setup.kings),
                     np.int64(setup.side))

    def setup(self) -> Setup:
        """The pieces and the side to move, as boards (checkers.notation.Setup)."""
        pos = self.pos
        return Setup(int(pos[POS_PIECES + BLACK]), int(pos[POS_PIECES + WHITE]), int(pos[POS_KINGS]),
                     int(pos[POS_SIDE]))

    def fen(self) -> str:
        return format_fen(self.setup())

    @property
    def turn(self) -> int:
        """The colour to move (checkers.defs.BLACK or WHITE)."""
        return int(self.pos[POS_SIDE])

    @property
    def key(self) -> int:
        """The zobrist key of the current position (pieces and side to move)."""
        return int(self.pos[POS_HISTORY + self.pos[POS_PLY]])

    @property
    def quiet_plies(self) -> int:
        """Plies since a man moved or a piece was taken (the 40-move rule draws at 80)."""
        return int(self.pos[POS_QUIET])

    @property
    def moves_played(self) -> list[int]:
        return list(self._moves)

    def __str__(self) -> str:
        return diagram(self.setup()) + f"\n{COLOUR_NAMES[self.turn]} to move"

    def copy(self) -> Board:
        """An independent board with the same game (moves replayed from the root)."""
        other = Board(self.root_fen)
        for move in self._moves:
            other.push(move)
        return other

    # ---- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """The legal moves as move codes (checkers.move), in generation order."""
        end = generate(self.tab, self.pos, self._buffer, 0)
        return [int(m) for m in self._buffer[:end]]

    def notation(self, move: int) -> str:
        """`11-15` or `15x24x31` (every landing square)."""
        return move_text(self.tab, move)

    def squares(self, move: int) -> list[int]:
        """The squares a move stands on, 1-32: from, every landing square."""
        return move_squares(self.tab, move)

    def legal_notation(self) -> list[str]:
        return [self.notation(m) for m in self.legal_moves()]

    def parse_move(self, text: str) -> int:
        """The legal move `text` names (`15x31` for `15x24x31` when only one path fits); MoveError."""
        return parse_move(self.tab, text, self.legal_moves())

    def push(self, move: int) -> None:
        """Play a legal move (MoveError for any other number)."""
        if move not in self.legal_moves():
            raise MoveError(f"move code {move} is not legal in {self.fen()}")
        if self.pos[POS_PLY] >= MAX_GAME_PLIES:
            self._reroot()
        make_move(self.tab, self.pos, np.int64(move))
        self._moves.append(move)

    def push_notation(self, text: str) -> int:
        """Play the move written `text`; returns its code."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self) -> int:
        """Take back the last move; returns it (IndexError at the root)."""
        move = self._moves.pop()
        if self.pos[POS_PLY] > self._floor:
            unmake_move(self.tab, self.pos, np.int64(move))
        else:                                # played before a re-rooting: replay the game
            moves = self._moves
            self.set_fen(self.root_fen)
            for earlier in moves:
                self.push(earlier)
        return move

    def _reroot(self) -> None:
        """Keep the history array from overflowing in a long game: keep only the keys that a
        repetition can still meet (those since the last man move or capture, at most half the
        array) at its start; moves before can be taken back only by replaying (pop)."""
        pos = self.pos
        ply = int(pos[POS_PLY])
        keep = min(int(pos[POS_QUIET]), MAX_GAME_PLIES // 2)
        keys = pos[POS_HISTORY + ply - keep:POS_HISTORY + ply + 1].copy()
        pos[POS_HISTORY:POS_HISTORY + keep + 1] = keys
        pos[POS_PLY] = keep
        self._floor = keep

    # ---- the end ----------------------------------------------------------------------------

    def repetitions(self) -> int:
        """How many earlier positions of the game equal this one (2 makes a threefold repetition)."""
        return int(repetitions(self.pos))

    def outcome(self) -> Outcome | None:
        """How the game has ended, or None. A player without a legal move has lost (even when
        the 40-move rule or a repetition would also apply); then the 40-move rule; then threefold
        repetition. Draws by agreement are the players' business."""
        if generate(self.tab, self.pos, self._buffer, 0) == 0:
            return Outcome(1 - self.turn, "no legal move")
        if forty_move_draw(self.pos):
            return Outcome(None, "40-move rule")
        if repetitions(self.pos) >= 2:
            return Outcome(None, "threefold repetition")
        return None
