"""Syzygy endgame tablebases through python-chess: the `SyzygyPath` option, WDL probes for the
search and DTZ ranking of the root moves.

The numba search cannot hold Python objects, so the open tables live in the module-level
`TABLEBASES`, which the search's kernel `probe_wdl` calls back into through numba's object mode
(it takes the GIL for the call; the search only probes right after a capture or pawn move with
few pieces left). Castling positions are never probed (the tables have no castling rights).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import chess
import chess.syzygy
import numpy as np
from numba import objmode

from engine.defs import NO_PIECE, PIECES, ST_BOARD, ST_EP, ST_SIDE, WHITE
from engine.kernel import kernel
from engine.piece import piece_colour, piece_type

MAX_PIECES = 7
TB_UNKNOWN = -1000           # probe_wdl: the position is not in the tables
# python-chess's piece of each piece code (its piece types count from PAWN = 1)
CHESS_PIECES = [chess.Piece(piece_type(code) + 1, piece_colour(code) == WHITE) for code in range(PIECES)]


class TablebaseError(ValueError):
    """A SyzygyPath that cannot be used; the message says why."""


class Tablebases:
    """The open Syzygy tables (none at first) and the probe limit the options set."""

    def __init__(self) -> None:
        self._tables: chess.syzygy.Tablebase | None = None
        self._lock = threading.Lock()      # probes come from several search threads
        self.largest = 0                   # most pieces of any table found
        self.probe_limit = MAX_PIECES      # SyzygyProbeLimit

    def open(self, path: str) -> int:
        """Use the tables in the `os.pathsep`-separated folders of `path` ("" or "<empty>":
        none); returns how many WDL tables were found. Raises TablebaseError, keeping the
        tables in use, when a folder does not exist."""
        folders = [folder for folder in path.split(os.pathsep) if folder.strip()]
        for folder in folders:
            if not Path(folder).is_dir():
                raise TablebaseError(f"SyzygyPath folder {folder!r} does not exist; tablebases unchanged")
        tables = chess.syzygy.Tablebase()
        for folder in folders:
            tables.add_directory(folder)
        with self._lock:
            if self._tables is not None:
                self._tables.close()
            self._tables = tables if tables.wdl else None
            self.largest = max((len(name) - 1 for name in tables.wdl), default=0)   # "KQvK": 3 pieces
        return len(tables.wdl)

    def search_limit(self) -> int:
        """Positions with at most this many pieces are probed (0: no tables)."""
        return min(self.largest, self.probe_limit) if self._tables is not None else 0

    def covers(self, board: chess.Board) -> bool:
        return (not board.castling_rights and chess.popcount(board.occupied) <= self.search_limit())

    def probe_wdl(self, board: chess.Board) -> int | None:
        """Win/draw/loss for the side to move (2, 1 cursed win, 0, -1, -2), None if not known."""
        return self._probe("probe_wdl", board)

    def probe_dtz(self, board: chess.Board) -> int | None:
        """Distance to the next zeroing move (signed like WDL), None if not known."""
        return self._probe("probe_dtz", board)

    def _probe(self, method: str, board: chess.Board) -> int | None:
        with self._lock:
            if self._tables is None:
                return None
            try:
                return getattr(self._tables, method)(board)
            except (KeyError, chess.syzygy.MissingTableError):
                return None

    def rank_root_moves(self, board: chess.Board) -> tuple[list[chess.Move], int] | None:
        """The root moves that keep the best tablebase result, quickest to progress first: when
        winning, the moves that reach a zeroing move (capture or pawn move) soonest; when losing,
        those that delay it longest; when drawn, every drawing move (the search chooses). Returns
        (moves, the side to move's WDL), or None when the position is not covered."""
        if not self.covers(board):
            return None
        ranked = []
        for move in board.legal_moves:
            zeroing = board.is_zeroing(move)
            board.push(move)
            try:
                if board.is_checkmate():
                    ranked.append((2, -1, move))
                    continue
                wdl, dtz = self.probe_wdl(board), self.probe_dtz(board)
            finally:
                board.pop()
            if wdl is None or dtz is None:
                return None
            mine = -wdl
            if mine > 0:
                progress = 0 if zeroing else abs(dtz)          # fewer plies to the next zeroing move
            elif mine < 0:
                progress = -abs(dtz)                           # resist as long as possible
            else:
                progress = 0
            ranked.append((mine, progress, move))
        if not ranked:
            return None
        best = max(mine for mine, _, _ in ranked)
        quickest = min(progress for mine, progress, _ in ranked if mine == best)
        keep = [move for mine, progress, move in ranked if mine == best and (best == 0 or progress == quickest)]
        return keep, best


TABLEBASES = Tablebases()


def board_of_arrays(st: np.ndarray) -> chess.Board:
    """A python-chess board of a search position without castling rights (the probe's case),
    placed piece by piece (a fifth of the cost of writing and parsing a FEN, on every probe)."""
    board = chess.Board(None)
    for square, code in enumerate(st[ST_BOARD:ST_BOARD + 64].tolist()):
        if code != NO_PIECE:
            board.set_piece_at(square, CHESS_PIECES[code])
    board.turn = int(st[ST_SIDE]) == WHITE
    board.ep_square = int(st[ST_EP]) if st[ST_EP] >= 0 else None
    return board


def probe_wdl_for_search(st: np.ndarray) -> int:
    """Called from the numba search (object mode): the WDL of its position, or TB_UNKNOWN."""
    try:
        wdl = TABLEBASES.probe_wdl(board_of_arrays(st))
    except Exception:        # a bug here must not take down the search thread
        return TB_UNKNOWN
    return TB_UNKNOWN if wdl is None else wdl



@kernel
def probe_wdl(pos):
    """The search's probe: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss for the side to
    move; TB_UNKNOWN when the tables do not have the position."""
    st = pos[1]
    with objmode(wdl="int64"):
        wdl = probe_wdl_for_search(st)
    return wdl
