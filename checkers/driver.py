"""The Python edge of the checkers search: iterative deepening around the kernel of
checkers.search, the time plan of a `go`, and the level's limits.

    from checkers.board import Board
    from checkers.driver import Limits, Searcher
    searcher = Searcher()
    result = searcher.run(Board(), Limits(movetime=200))
    result.best, result.score, result.depth, result.nodes, result.pv      # move codes; score for the mover

`run` blocks; `stop()` (from another thread) ends it at once, and a timer does the same at the
hard time limit. Each finished iteration is reported to a callback (the protocol's `info` lines).
The search kernel releases the GIL, so a protocol thread stays responsive meanwhile.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from checkers.defs import BLACK, MAX_PLY
from checkers.eval import EVAL_TABLES
from checkers.search import (INFINITE, WIN, WIN_BOUND, WS_KILLERS, WS_NODE_LIMIT, WS_NODES, WS_NOISE, WS_PV,
                             WS_PV_LEN, WS_ROOT_BEST, WS_ROOT_SCORE, WS_SEED, WS_SELDEPTH, WS_STOP, WS_HISTORY,
                             new_workspace, search_root)

MAX_DEPTH = MAX_PLY - 28          # iterations stop here (extensions and jumps go deeper)
HORIZON = 30                      # moves the clock is shared over (a checkers game is ~50 moves a side)
SAFETY_MS = 30                    # kept on the clock against latency
ASPIRATION = 40


@dataclass
class Limits:
    """What `go` asked for (times in milliseconds); nothing set: think until stopped."""
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    infinite: bool = False


@dataclass
class Budget:
    soft: float | None          # ms: no new iteration after this
    hard: float | None          # ms: stop outright


def plan(limits: Limits, side: int) -> Budget:
    """The soft and hard limits for one move: movetime exactly; a clock shared over HORIZON moves
    (or movestogo) with the increment, never more than a fifth (hard: half) of what is left."""
    if limits.infinite:
        return Budget(None, None)
    if limits.movetime is not None:
        return Budget(None, max(1.0, limits.movetime - 5))
    clock = limits.btime if side == BLACK else limits.wtime
    increment = limits.binc if side == BLACK else limits.winc
    if clock is None:
        clock = limits.wtime if side == BLACK else limits.btime
        increment = limits.winc if side == BLACK else limits.binc
    if clock is None:
        return Budget(None, None)
    available = max(1.0, clock - SAFETY_MS)
    togo = min(limits.movestogo, HORIZON) if limits.movestogo else HORIZON
    soft = min(available / togo + increment * 0.8, available * 0.2)
    hard = min(soft * 4, available * 0.5)
    return Budget(max(1.0, soft), max(1.0, hard, soft))


@dataclass
class Iteration:
    depth: int
    seldepth: int
    score: int                  # for the side to move, in hundredths of a man (or a win score)
    nodes: int
    elapsed: float              # seconds
    pv: list[int] = field(default_factory=list)

    @property
    def win_in(self) -> int | None:
        """Moves (of the side to move) to a win, negative to a loss, None when no win is seen."""
        if abs(self.score) <= WIN_BOUND:
            return None
        plies = WIN - abs(self.score)
        return (plies + 1) // 2 if self.score > 0 else -(plies // 2)


@dataclass
class Result:
    best: int                   # 0: no legal move
    score: int
    depth: int
    nodes: int
    pv: list[int]
    elapsed: float


def _ignore(_: Iteration) -> None:
    pass


class Searcher:
    """One search at a time on its own workspace and transposition table."""

    def __init__(self, tt_entries: int = 1 << 20) -> None:
        self.ws, self.tt = new_workspace(tt_entries)
        self.noise = 0
        self.seed = 0
        self.max_depth: int | None = None      # a level's cap
        self.max_nodes: int | None = None
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self.tt[:] = 0
        self.ws[WS_HISTORY:WS_HISTORY + 1024] = 0

    def stop(self) -> None:
        self.ws[WS_STOP] = 1

    def prepare(self) -> None:
        """Clear the stop flag before a search that another thread may stop before it starts
        (then call run with prepared=True, and a `stop` in between is not lost)."""
        self.ws[WS_STOP] = 0

    def run(self, board, limits: Limits, report: Callable[[Iteration], None] = _ignore,
            prepared: bool = False) -> Result:
        """Search the board's position (it is searched in place and left as it was)."""
        ws, tt = self.ws, self.tt
        start = time.perf_counter()
        if not prepared:
            ws[WS_STOP] = 0
        ws[WS_NODES] = 0
        ws[WS_NOISE] = self.noise
        ws[WS_SEED] = self.seed
        ws[WS_KILLERS:WS_KILLERS + 2 * MAX_PLY] = 0
        node_caps = [n for n in (limits.nodes, self.max_nodes) if n]
        ws[WS_NODE_LIMIT] = min(node_caps) if node_caps else 0
        depth_caps = [d for d in (limits.depth, self.max_depth) if d]
        max_depth = max(1, min([MAX_DEPTH, *depth_caps]))
        legal = board.legal_moves()
        if not legal:
            return Result(0, -WIN, 0, 0, [], 0.0)
        budget = plan(limits, board.turn)
        timer = None
        if budget.hard is not None:
            timer = threading.Timer(min(budget.hard / 1000, threading.TIMEOUT_MAX), self.stop)
            timer.daemon = True
            timer.start()
        tab, etab, pos = board.tab, EVAL_TABLES, board.pos
        best, score, pv, done_depth = legal[0], 0, [legal[0]], 0
        try:
            score_guess = 0
            for depth in range(1, max_depth + 1):
                if depth >= 4 and abs(score_guess) < WIN_BOUND:
                    alpha, beta = score_guess - ASPIRATION, score_guess + ASPIRATION
                else:
                    alpha, beta = -INFINITE, INFINITE
                while True:
                    s = int(search_root(tab, etab, pos, ws, tt, np.int64(depth), np.int64(alpha), np.int64(beta)))
                    if ws[WS_STOP] or alpha < s < beta:
                        break
                    alpha, beta = -INFINITE, INFINITE           # failed: the full window
                if ws[WS_STOP]:
                    found = int(ws[WS_ROOT_BEST])
                    if found and found in legal and depth > 1 and int(ws[WS_ROOT_SCORE]) > score:
                        best, score = found, int(ws[WS_ROOT_SCORE])
                        pv = [found]
                    break
                score_guess = s
                n = int(ws[WS_PV_LEN])
                line = [int(m) for m in ws[WS_PV:WS_PV + n]]
                if line and line[0] in legal:
                    best, pv = line[0], line
                elif ws[WS_ROOT_BEST]:
                    best, pv = int(ws[WS_ROOT_BEST]), [int(ws[WS_ROOT_BEST])]
                score, done_depth = s, depth
                elapsed = time.perf_counter() - start
                report(Iteration(depth, int(ws[WS_SELDEPTH]), s, int(ws[WS_NODES]), elapsed, pv))
                if len(legal) == 1 and not limits.infinite and limits.depth is None and limits.nodes is None:
                    break                                    # one legal move: play it
                if abs(s) > WIN_BOUND and WIN - abs(s) <= depth and not limits.infinite:
                    break                                    # a win or loss seen to its end
                if budget.soft is not None and elapsed * 1000 > budget.soft * 0.6:
                    break                                    # the next iteration would not finish
            if limits.infinite:
                while not ws[WS_STOP]:                      # `go infinite` answers only after `stop`
                    time.sleep(0.005)
        finally:
            if timer is not None:
                timer.cancel()
        return Result(best, score, done_depth, int(ws[WS_NODES]), pv, time.perf_counter() - start)
