"""A move in pure Python while the numba kernels compile: a small alpha-beta search on python-chess.

The first start after an install on another machine, or after the sources changed, compiles the
kernels for a minute or two (jitfish/kernels.py). A GUI does not wait that long for a move (GNOME
Chess gives up after 30 s), so until the kernels are in, `go` is answered by this search within
the move's time: iterative deepening with quiescence on captures, material and a few
positional terms. It plays sound but weak chess (a few thousand nodes a second); it is a
bridge of a minute, not the engine.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

if TYPE_CHECKING:
    from search.timeman import Limits

VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
MATE = 30000
CENTRE = [0, 1, 2, 3, 3, 2, 1, 0]


@dataclass
class Budget:
    """How long to think: `seconds` (None: until stopped) and at most `depth` plies."""

    seconds: float | None
    depth: int = 64


def budget_for(limits: Limits, white: bool, overhead_ms: int) -> Budget:
    """The time of one move from a `go`'s limits (search.timeman.Limits), kept well inside the
    clock: a thirtieth of it (or of the moves to go) and most of the increment."""
    depth = limits.depth or 64
    if limits.infinite or limits.ponder:
        return Budget(None, depth)
    if limits.movetime is not None:
        return Budget(max(0.01, (limits.movetime - overhead_ms) / 1000), depth)
    left = limits.wtime if white else limits.btime
    if left is not None:
        increment = limits.winc if white else limits.binc
        share = left / max(limits.movestogo or 30, 1) + 0.75 * increment
        return Budget(max(0.01, (min(share, left / 10) - overhead_ms) / 1000), depth)
    return Budget(1.0, depth)       # depth, nodes or mate alone: a second of this search


def evaluate(board: chess.Board) -> int:
    """Material, central and advanced pieces, for the side to move."""
    score = 0
    for square, piece in board.piece_map().items():
        file, rank = chess.square_file(square), chess.square_rank(square)
        value = VALUES[piece.piece_type]
        if piece.piece_type in (chess.KNIGHT, chess.BISHOP):
            value += 4 * (CENTRE[file] + CENTRE[rank])
        elif piece.piece_type == chess.PAWN:
            value += 6 * (rank if piece.color == chess.WHITE else 7 - rank) + 2 * CENTRE[file]
        score += value if piece.color == chess.WHITE else -value
    return score if board.turn == chess.WHITE else -score


def score_text(score: int) -> str:
    """UCI's `cp N` or `mate N` (in moves; negative when the side to move is mated)."""
    if abs(score) < MATE - 200:
        return f"cp {score}"
    plies = MATE - abs(score)
    return f"mate {(plies + 1) // 2 if score > 0 else -(plies // 2)}"


class _Stopped(Exception):
    pass


class QuickSearch:
    """Alpha-beta on python-chess that stops at its deadline or when `stop` is set."""

    def __init__(self, board: chess.Board, budget: Budget, stop: threading.Event) -> None:
        self.board = board.copy()
        self.budget = budget
        self.stop = stop
        self.nodes = 0
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds

    def _check(self) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0 and (self.stop.is_set() or
                                      (self.deadline is not None and time.monotonic() > self.deadline)):
            raise _Stopped

    def _ordered(self, moves) -> list[chess.Move]:
        board = self.board

        def key(move: chess.Move) -> int:
            victim = board.piece_type_at(move.to_square)
            gain = VALUES[victim] * 10 - VALUES[board.piece_type_at(move.from_square)] if victim else 0
            return -(gain + (800 if move.promotion else 0))
        return sorted(moves, key=key)

    def _quiesce(self, alpha: int, beta: int) -> int:
        self._check()
        stand = evaluate(self.board)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        for move in self._ordered(self.board.generate_legal_captures()):
            self.board.push(move)
            score = -self._quiesce(-beta, -alpha)
            self.board.pop()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._check()
        board = self.board
        if board.is_checkmate():
            return -MATE + ply
        if board.is_stalemate() or board.is_insufficient_material() or board.is_repetition(2) \
                or board.halfmove_clock >= 100:
            return 0
        if depth <= 0:
            return self._quiesce(alpha, beta)
        best = -MATE
        for move in self._ordered(board.legal_moves):
            board.push(move)
            score = -self._search(depth - 1, -beta, -alpha, ply + 1)
            board.pop()
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def run(self, report=None) -> chess.Move | None:
        """The best move of the deepest finished iteration (the first legal move at worst)."""
        moves = self._ordered(self.board.legal_moves)
        if not moves:
            return None
        best, started = moves[0], time.monotonic()
        for depth in range(1, self.budget.depth + 1):
            try:
                scored = []
                alpha = -MATE
                for move in moves:
                    self.board.push(move)
                    score = -self._search(depth - 1, -MATE, -alpha, 1)
                    self.board.pop()
                    scored.append((score, move))
                    alpha = max(alpha, score)
            except _Stopped:
                break
            scored.sort(key=lambda pair: -pair[0])
            moves = [move for _, move in scored]
            best = moves[0]
            if report is not None:
                report(depth, scored[0][0], self.nodes, time.monotonic() - started, best)
            if abs(scored[0][0]) > MATE - 100 or len(moves) == 1:
                break
        return best
