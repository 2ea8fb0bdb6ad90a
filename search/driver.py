"""Iterative deepening around the numba search: aspiration windows, MultiPV, limits, reporting.

One `Searcher` owns a transposition table and a workspace and runs one search at a time on the
calling thread (the numba search releases the GIL). `stop()` and `ponderhit()` may be called
from any other thread. Progress goes to the `report` callback as records (`IterationReport`,
`CurrMoveReport`, `NoMoveReport`); wording them for a protocol is the front end's business.

With `Threads` above 1 the search is Lazy SMP: helper threads, each with its own workspace and
copy of the position, search the same root independently (every other one a ply deeper) and
share only the transposition table, whose entries are verified against torn writes. The main
thread alone decides the move, the clock and what is reported.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.board import Board
from engine.defs import INFINITE, MATE, MATE_IN_MAX, MAX_MOVES, MAX_PLY
from engine.movegen import legal_prefix
from search.tablebase import TABLEBASES
from search.timeman import Limits, node_share_factor, plan
from eval.params import WDL_A, WDL_B
from eval import nnue
from eval.shipped import default_network
from eval.evaluate import EVAL_REGION, W_NNUE, W_PAWN_CACHE, evaluate
from search import human_model
from search import tt as tt_module
from search.levels import Level, choose, considered_moves
from search.search import qsearch, search
from search.workspace import (CTL_CURRMOVE, CTL_CURRMOVE_NUMBER, CTL_FIRST_MOVE_NODES, CTL_GENERATION,
                              CTL_NODE_LIMIT, CTL_NODES, CTL_PROVE_MATE, CTL_QS_PLIES, CTL_QS_START,
                              CTL_ROOT_COUNT, CTL_ROOT_FIRST, CTL_ROOT_PLY, CTL_SELDEPTH, CTL_STOP,
                              CTL_TB_HITS, CTL_TB_PIECES, PLIES, WS_CTL, WS_MOVES, WS_PV, WS_PV_LEN,
                              WS_ROOT_MOVES, clear_heuristics, ctl_view, new_workspace, set_weakness)

ASPIRATION_DELTA = 20
NODE_SHARE_MIN_DEPTH = 6     # below this the root's node shares say little
HURRY_MS = 250               # a human level whose hard limit is shorter vetoes with the features' search alone
SCRATCH_MOVES = WS_MOVES + (PLIES - 1) * MAX_MOVES   # a move list the search never reaches


def win_draw_loss(score: int) -> tuple[int, int, int]:
    """Expected (win, draw, loss) in permille for the side to move (eval.params WDL model)."""
    if score >= MATE_IN_MAX:
        return 1000, 0, 0
    if score <= -MATE_IN_MAX:
        return 0, 0, 1000
    win = round(1000 / (1 + math.exp((WDL_A - score) / WDL_B)))
    loss = round(1000 / (1 + math.exp((WDL_A + score) / WDL_B)))
    return win, 1000 - win - loss, loss


def mate_moves(score: int) -> int | None:
    """Moves to mate for the side to move (negative: it gets mated), None when not a mate score.
    Zero means the side to move is mated already."""
    if score >= MATE_IN_MAX:
        return (MATE - score + 1) // 2
    if score <= -MATE_IN_MAX:
        return -((MATE + score) // 2)
    return None


class Bound(enum.Enum):
    """How a score relates to the true one: exact, or the side of the aspiration window it fell."""
    EXACT = enum.auto()
    LOWER = enum.auto()      # at least this: the search failed high
    UPPER = enum.auto()      # at most this: the search failed low


@dataclass
class Line:
    """One principal variation of a completed iteration."""
    score: int
    moves: list[int]
    bound: Bound = Bound.EXACT


@dataclass(frozen=True)
class IterationReport:
    """One principal variation of an iteration; after the first second also a score that fell
    outside the aspiration window while the iteration goes on (`bound` not EXACT)."""
    depth: int
    seldepth: int
    multipv: int                     # the line's rank, 1 for the best
    score: int
    bound: Bound
    wdl: tuple[int, int, int]        # win_draw_loss(score)
    nodes: int
    nps: int
    hashfull: int                    # permille of the table used by this search
    tbhits: int | None               # None when no tablebases are in use
    time_ms: int
    pv: tuple[int, ...]              # encoded moves


@dataclass(frozen=True)
class CurrMoveReport:
    """After the first second: the root move being searched and its number in the root order."""
    move: int
    number: int


@dataclass(frozen=True)
class NoMoveReport:
    """The root has no legal move: `score` is -MATE (checkmated) or 0 (stalemate)."""
    score: int


Report = IterationReport | CurrMoveReport | NoMoveReport


def _ignore(report: Report) -> None:
    """The default `report`: nobody listens."""


@dataclass
class Result:
    best: int                # encoded move, 0 when there is no legal move
    ponder: int
    score: int
    depth: int
    nodes: int
    lines: list[Line] = field(default_factory=list)


def _searchmoves(board: Board, moves: list[int], limits: Limits) -> list[int]:
    """The moves a `go searchmoves` keeps (all of them without it, or when none of its moves is legal)."""
    if not limits.searchmoves:
        return moves
    wanted = set(limits.searchmoves)
    return [m for m in moves if board.uci(m) in wanted] or moves


class Searcher:
    def __init__(self, hash_mb: int = 16, network: str | None = None) -> None:
        """A searcher with a `hash_mb` table, evaluating with `network` (a path; "" for the
        hand-crafted evaluation; None for the default, eval.shipped.default_network())."""
        self.tt = tt_module.allocate(hash_mb)
        self.ws = new_workspace()
        self.ctl = ctl_view(self.ws)
        self.generation = 0
        self._ponderhit = threading.Event()
        self._stop = threading.Event()
        self._budget_lock = threading.Lock()
        self._pondering = False
        self._stop_on_ponderhit = False   # the clock ran out while pondering: move at the ponderhit
        self._armed = False
        self._node_limit = 0
        self.level: Level | None = None   # a difficulty level, None for full strength
        self.game_seed = 0                # varies a level's choices and misjudgements per game
        self.helpers: list[np.ndarray] = []   # Lazy SMP: one workspace per extra thread
        self._root_tb_hits = 0
        self._chooser: human_model.Chooser | None = None   # a level that plays the human model's move
        self.load_network(default_network() if network is None else network)

    def set_threads(self, threads: int) -> None:
        """Search with `threads` threads (the main one and threads - 1 Lazy SMP helpers)."""
        while len(self.helpers) < threads - 1:
            helper = new_workspace()
            helper[:EVAL_REGION] = self.ws[:EVAL_REGION]      # the same evaluation weights
            self.helpers.append(helper)
        del self.helpers[max(threads - 1, 0):]

    def set_level(self, level: Level | None, game_seed: int) -> None:
        """Play at a difficulty level (None: full strength) with the given game's randomness.
        The table and the move-ordering history are emptied: they were learnt with the old
        level's eyes, and a seeded level must play the same moves whatever came before."""
        self.level, self.game_seed = level, game_seed
        if level is None:
            set_weakness(self.ws, 0, 0, MAX_PLY)
        else:
            set_weakness(self.ws, level.noise, game_seed, level.quiescence)
        if level is not None and level.human:
            previous = self._chooser       # its searches are emptied before every move: keep them
            self._chooser = human_model.Chooser(
                human_model.shipped(), level.human, share=0.0, slip=level.slip, veto=level.veto,
                veto_nodes=level.veto_nodes, search=previous.search if previous else human_model.FeatureSearch(),
                engine=previous.engine if previous else Searcher(1))
        self._select_evaluation()
        self.clear()

    # ---- control from other threads ------------------------------------------------------------

    def prepare(self) -> None:
        """Reset the stop state; call before handing the search to a worker thread."""
        self._armed = False
        self._stop.clear()
        self._ponderhit.clear()
        self.ctl[CTL_STOP] = 0

    def stop(self) -> None:
        """End the search soon. Depth 1 always finishes first so that the move is never blind."""
        self._stop.set()
        if self._armed:
            self.ctl[CTL_STOP] = 1

    def _arm(self) -> None:
        """From now on stop requests and the node limit interrupt the search (a stop may already be
        pending)."""
        self._armed = True
        self.ctl[CTL_NODE_LIMIT] = self._node_limit
        if self._stop.is_set():
            self.ctl[CTL_STOP] = 1

    def ponderhit(self) -> None:
        """The opponent played the move we ponder on: the search goes on as a timed one whose time
        counts from the `go ponder`, as Stockfish counts it. After a long ponder the move comes at
        once (the hard limit has passed, or an iteration ended past the soft one while pondering);
        after a short one the search gets the rest of its time."""
        with self._budget_lock:
            stop_now = False
            if self._pondering:
                self._pondering = False
                self._deadline = _Deadline(self, self._budget.hard, self._clock_start)
                stop_now = self._stop_on_ponderhit
        self._ponderhit.set()
        if stop_now:
            self.stop()

    def static_eval(self, board: Board) -> int:
        """The evaluation of `board` for the side to move, with this searcher's weights (or
        network)."""
        if self.network:
            nnue.start(board.arrays, self.ws[W_NNUE:W_PAWN_CACHE])
        return int(evaluate(board.tab, board.arrays, self.ws, False))

    @property
    def network(self) -> bool:
        """True when a network evaluates instead of the hand-crafted terms."""
        return bool(self.ws[W_NNUE + nnue.R_ON])

    def load_network(self, path: str) -> None:
        """Evaluate with the network saved at `path` (tools/training/train_nnue.py); an empty path goes
        back to the hand-crafted evaluation. ValueError, with nothing changed, when unusable."""
        self._net_region = nnue.load(path) if path else None
        self._select_evaluation()

    def _select_evaluation(self) -> None:
        """The network evaluates at full strength and at the levels whose row says so; the other
        levels use the hand-crafted terms, with which their settings were calibrated (docs/levels.md)."""
        hand_crafted = self.level is not None and not self.level.network
        for ws in [self.ws, *self.helpers]:
            if self._net_region is None or hand_crafted:
                ws[W_NNUE + nnue.R_ON] = 0
            else:
                ws[W_NNUE:W_PAWN_CACHE] = self._net_region

    def quiescence(self, board: Board) -> int:
        """The quiescence-search score of `board` for the side to move (captures resolved)."""
        self.prepare()
        self.ctl[CTL_NODE_LIMIT] = 0
        self.ctl[CTL_ROOT_PLY] = board.ply
        self.ctl[CTL_QS_START] = 0
        return int(qsearch(board.tab, board.arrays, self.ws, self.tt, -INFINITE, INFINITE, 0))

    def warm_up(self, board: Board) -> None:
        """Run a tiny search so that every kernel is compiled or loaded from the cache."""
        self.prepare()
        self.run(board, Limits(depth=2))
        self.clear()

    def resize(self, megabytes: int) -> None:
        self.tt = tt_module.allocate(megabytes)

    def clear(self) -> None:
        self.tt[:] = 0
        for ws in [self.ws, *self.helpers]:
            clear_heuristics(ws)

    def hashfull(self) -> int:
        return int(tt_module.hashfull(self.tt, self.generation))

    # ---- the search ----------------------------------------------------------------------------

    def run(self, board: Board, limits: Limits, report: Callable[[Report], None] = _ignore,
            multipv: int = 1, overhead_ms: int = 0, ponder: bool = False) -> Result:
        """Search `board` within `limits`, telling `report` how it goes; return the best move found
        (at a difficulty level: the move the level chooses). `ponder`: the Ponder option is on, the
        GUI may let the engine think on the opponent's time (timeman.plan gives a move more)."""
        start = time.perf_counter()
        level = self.level
        if level is not None and level.human:
            return self._human_move(board, limits, report, start, overhead_ms)
        rng = None
        if level is not None:
            rng = random.Random(f"{self.game_seed}:{board.key}:{board.ply}")   # same game, same choices
            limits = dataclasses.replace(limits, depth=min(limits.depth or level.depth, level.depth),
                                         nodes=min(limits.nodes or level.nodes, level.nodes))
            multipv = max(multipv, level.candidates)
        ctl, ws = self.ctl, self.ws
        self.generation = (self.generation + 1) & 63
        ctl[CTL_NODES] = 0
        ctl[CTL_SELDEPTH] = 0
        ctl[CTL_GENERATION] = self.generation
        ctl[CTL_ROOT_PLY] = board.ply
        ctl[CTL_NODE_LIMIT] = 0               # set by _arm(): depth 1 always finishes
        self._node_limit = limits.nodes or 0
        ctl[CTL_PROVE_MATE] = int(limits.mate is not None)

        root_moves = _searchmoves(board, board.legal_moves(), limits)
        if level is not None and root_moves:
            root_moves = considered_moves(root_moves, level, rng)
        # A weak level plays without the tablebases (perfect endgame knowledge is not human).
        ctl[CTL_TB_PIECES] = TABLEBASES.search_limit() if level is None else 0
        ctl[CTL_TB_HITS] = 0
        self._root_tb_hits = 0
        if ctl[CTL_TB_PIECES] and root_moves:
            root_moves = self._tablebase_root_moves(board, root_moves)
        if not root_moves:
            score = -MATE if board.is_check() else 0
            report(NoMoveReport(score))
            self._wait_if_required(limits)
            return Result(0, 0, score, 0, 0)
        multipv = max(1, min(multipv, len(root_moves)))
        ws[WS_ROOT_MOVES:WS_ROOT_MOVES + len(root_moves)] = root_moves
        ctl[CTL_ROOT_COUNT] = len(root_moves)

        with self._budget_lock:
            self._pondering = limits.ponder and not self._ponderhit.is_set()   # it may come before we start
            self._stop_on_ponderhit = False
            self._clock_start = start          # also while pondering: the move's time counts from the `go`
            self._budget = plan(limits, board.turn, overhead_ms, board.game_ply, ponder=ponder)
            self._deadline = _Deadline(self, None if self._pondering else self._budget.hard, start)
        monitor = _CurrMoveReporter(self, report, start)
        max_depth = min(limits.depth or MAX_PLY - 4, MAX_PLY - 4)
        # Helpers only where the node count is not a contract: levels and `go nodes` stay exact.
        helpers = _Helpers(self, board, max_depth) if self.helpers and level is None and not limits.nodes else None
        lines: list[Line] = []
        depth_done = 0
        best_changes = 0.0
        previous_best = previous_score = None
        try:
            for depth in range(1, max_depth + 1):
                iteration_nodes = ctl[CTL_NODES]
                ctl[CTL_FIRST_MOVE_NODES] = 0
                new_lines = []
                for pv_index in range(multipv):
                    line = self._search_line(board, depth, pv_index, lines, report, start)
                    if line is None:
                        break
                    new_lines.append(line)
                if len(new_lines) < multipv and depth > 1:
                    break                     # stopped inside the iteration: keep the last full one
                if new_lines:
                    lines = self._rank(new_lines)
                    depth_done = depth
                    for k, line in enumerate(lines):
                        report(self._report(depth, k + 1, line, start))
                self._arm()
                if ctl[CTL_STOP] or not new_lines:
                    break
                best = lines[0].moves[0]
                if previous_best is not None and best != previous_best:
                    best_changes += 1
                best_changes *= 0.5
                score_drop = previous_score is not None and lines[0].score < previous_score - 30
                previous_best, previous_score = best, lines[0].score
                if limits.mate is not None and lines[0].score >= MATE - 2 * limits.mate + 1:
                    break
                mate_plies = MATE - abs(lines[0].score)
                if mate_plies < MAX_PLY and depth > mate_plies + 8 and not (limits.infinite or limits.ponder) \
                        and limits.depth is None:
                    break                 # a mate found this far inside the horizon will not change
                best_share = ctl[CTL_FIRST_MOVE_NODES] / max(1, ctl[CTL_NODES] - iteration_nodes)
                effort = node_share_factor(best_share) if depth >= NODE_SHARE_MIN_DEPTH else 1.0
                if self._out_of_time(limits, best_changes, score_drop, effort, len(root_moves)):
                    break
        finally:
            if helpers is not None:
                helpers.finish()
            with self._budget_lock:
                self._deadline.cancel()
                self._pondering = False
            monitor.cancel()
        self._wait_if_required(limits)
        if not lines:          # stopped before depth 1 finished: any legal move beats none
            lines = [Line(0, [root_moves[0]])]
        best_line = lines[0] if level is None else lines[choose([line.score for line in lines], level, rng)]
        ponder = best_line.moves[1] if len(best_line.moves) > 1 else self._ponder_from_tt(board, best_line.moves[0])
        return Result(best_line.moves[0], ponder, best_line.score, depth_done, self.nodes(), lines)

    def _human_move(self, board: Board, limits: Limits, report: Callable[[Report], None], start: float,
                    overhead_ms: int) -> Result:
        """A level with a human rating plays the human model's choice (search/human_model.py): its
        searches have a fixed depth and node count, so the move costs the same on every machine
        and at every clock, and repeats for the game's seed; only a veto's deeper search gives way
        to the features' own when the clock allows less than HURRY_MS for the move."""
        chooser = self._chooser
        legal = board.legal_moves()
        kept = _searchmoves(board, legal, limits)
        hard = plan(limits, board.turn, overhead_ms, board.game_ply).hard
        move, score = chooser.choose(board, self.game_seed, set(kept) if len(kept) < len(legal) else None,
                                     hurry=hard is not None and hard < HURRY_MS)
        if not move:
            score = -MATE if board.is_check() else 0
            report(NoMoveReport(score))
            self._wait_if_required(limits)
            return Result(0, 0, score, 0, 0)
        depth, nodes = chooser.model.deep, chooser.nodes()
        elapsed = time.perf_counter() - start
        report(IterationReport(depth=depth, seldepth=depth, multipv=1, score=score, bound=Bound.EXACT,
                               wdl=win_draw_loss(score), nodes=nodes, nps=int(nodes / max(elapsed, 1e-6)),
                               hashfull=0, tbhits=None, time_ms=int(elapsed * 1000), pv=(move,)))
        self._wait_if_required(limits)
        return Result(move, 0, score, depth, nodes, [Line(score, [move])])

    def _tablebase_root_moves(self, board: Board, root_moves: list[int]) -> list[int]:
        """The root moves that keep the tablebase result (all of them when not covered)."""
        ranked = TABLEBASES.rank_root_moves(board.python_chess())
        if ranked is None:
            return root_moves
        self._root_tb_hits = len(root_moves)
        keep = {move.uci() for move in ranked[0]}
        return [m for m in root_moves if board.uci(m) in keep] or root_moves

    def tbhits(self) -> int:
        """Tablebase probes that found their position in this search (root ranking included)."""
        return self._root_tb_hits + sum(int(ws[WS_CTL + CTL_TB_HITS]) for ws in [self.ws, *self.helpers])

    def nodes(self) -> int:
        """Nodes searched so far in this search, by all threads."""
        return int(self.ctl[CTL_NODES]) + sum(int(ws[WS_CTL + CTL_NODES]) for ws in self.helpers)

    def _rank(self, lines: list[Line]) -> list[Line]:
        """The lines best first (each is searched without the moves of those before it, and a
        later one can come back with a higher score) and the root moves in that order."""
        lines = sorted(lines, key=lambda line: line.score, reverse=True)
        self.ws[WS_ROOT_MOVES:WS_ROOT_MOVES + len(lines)] = [line.moves[0] for line in lines]
        return lines

    def _out_of_time(self, limits: Limits, best_changes: float, score_drop: bool, effort: float,
                     root_count: int) -> bool:
        """Should iterative deepening stop before starting another iteration? Longer when the best
        move changes, the score drops or the best move took a small share of the iteration's nodes
        (`effort`, from timeman.node_share_factor). While pondering the search goes on, and the time
        being up means moving as soon as the ponderhit comes."""
        with self._budget_lock:
            if limits.infinite or self._budget.soft is None:
                return False
            if root_count == 1:
                done = True
            elif self.level is not None:
                return False      # a level stops at its depth and node budget, whatever the clock
            else:
                elapsed = (time.perf_counter() - self._clock_start) * 1000
                stretch = (1.0 + best_changes) * (1.25 if score_drop else 1.0) * effort
                done = elapsed > self._budget.soft * stretch
            if done and self._pondering:
                self._stop_on_ponderhit = True
                return False
            return done

    def _search_line(self, board: Board, depth: int, pv_index: int, previous: list[Line],
                     report: Callable[[Report], None], start: float) -> Line | None:
        """Search the root moves from `pv_index` on with an aspiration window; None if stopped."""
        self.ctl[CTL_ROOT_FIRST] = pv_index

        def report_bound(score: int, bound: Bound) -> None:
            if (time.perf_counter() - start) > 1.0 and self.ws[WS_PV_LEN] > 0:
                report(self._report(depth, pv_index + 1, Line(score, self._pv(board), bound), start))

        centre = previous[pv_index].score if pv_index < len(previous) else None
        score, stopped = _aspiration_search(board, self.ws, self.tt, depth, centre, report_bound)
        if stopped and (depth > 1 or self.ws[WS_PV_LEN] == 0):
            return None
        return self._line(board, score, pv_index)

    def _line(self, board: Board, score: int, pv_index: int) -> Line:
        """Record the PV of a finished root search and move its first move to `pv_index`."""
        moves = self._pv(board)
        if not moves:
            return Line(score, [int(self.ws[WS_ROOT_MOVES + pv_index])])
        _promote_root_move(self.ws, moves[0], pv_index)
        return Line(score, moves)

    def _pv(self, board: Board) -> list[int]:
        """The root PV, cut at the first move that is not legal (never expected)."""
        length = int(self.ws[WS_PV_LEN])
        legal = legal_prefix(board.tab, board.arrays, self.ws, WS_PV, length, self.ws, SCRATCH_MOVES)
        return [int(m) for m in self.ws[WS_PV:WS_PV + legal]]

    def _ponder_from_tt(self, board: Board, best: int) -> int:
        probe = board.copy()
        probe.push(best)
        hit, move, *_ = tt_module.probe(self.tt, np.uint64(probe.key))
        return int(move) if hit and probe.is_legal(int(move)) else 0

    def _report(self, depth: int, multipv: int, line: Line, start: float) -> IterationReport:
        elapsed = time.perf_counter() - start
        nodes = self.nodes()
        return IterationReport(
            depth=depth, seldepth=int(self.ctl[CTL_SELDEPTH]), multipv=multipv, score=line.score,
            bound=line.bound, wdl=win_draw_loss(line.score), nodes=nodes,
            nps=int(nodes / max(elapsed, 1e-6)), hashfull=self.hashfull(),
            tbhits=self.tbhits() if self.ctl[CTL_TB_PIECES] else None, time_ms=int(elapsed * 1000),
            pv=tuple(line.moves))

    def _wait_if_required(self, limits: Limits) -> None:
        """In `infinite` mode bestmove waits for `stop`; while pondering, for `stop` or `ponderhit`."""
        while not self._stop.is_set():
            if not limits.infinite and (not limits.ponder or self._ponderhit.is_set()):
                return
            self._stop.wait(0.005)


class _Helpers:
    """Lazy SMP helper threads for one search: each searches the root with its own workspace and
    position copy, deepening on its own until `finish()`; their only output is what they store in
    the shared transposition table."""

    def __init__(self, searcher: Searcher, board: Board, max_depth: int) -> None:
        main = searcher.ctl
        self._workspaces = searcher.helpers
        self._threads = []
        count = int(main[CTL_ROOT_COUNT])
        for index, ws in enumerate(self._workspaces):
            ctl = ctl_view(ws)
            for slot in (CTL_ROOT_PLY, CTL_GENERATION, CTL_PROVE_MATE, CTL_ROOT_COUNT, CTL_QS_PLIES, CTL_TB_PIECES):
                ctl[slot] = main[slot]
            for slot in (CTL_STOP, CTL_NODES, CTL_SELDEPTH, CTL_NODE_LIMIT, CTL_ROOT_FIRST, CTL_TB_HITS):
                ctl[slot] = 0
            ws[WS_ROOT_MOVES:WS_ROOT_MOVES + count] = searcher.ws[WS_ROOT_MOVES:WS_ROOT_MOVES + count]
            thread = threading.Thread(target=_deepen, args=(board.copy(), ws, searcher.tt, 1 + index % 2, max_depth),
                                      name=f"jitfish-helper-{index + 1}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def finish(self) -> None:
        for ws in self._workspaces:
            ws[WS_CTL + CTL_STOP] = 1
        for thread in self._threads:
            thread.join()


def _deepen(board: Board, ws: np.ndarray, tt: np.ndarray, first_depth: int, max_depth: int) -> None:
    """A helper's iterative deepening; its best root move goes first for the next iteration."""
    previous = None
    for depth in range(first_depth, max_depth + 1):
        previous, stopped = _aspiration_search(board, ws, tt, depth, previous)
        if stopped:
            return
        if ws[WS_PV_LEN] > 0:
            _promote_root_move(ws, int(ws[WS_PV]), 0)


def _aspiration_search(board: Board, ws: np.ndarray, tt: np.ndarray, depth: int, centre: int | None,
                       on_bound: Callable[[int, Bound], None] | None = None) -> tuple[int, bool]:
    """Search the root of `ws` to `depth`, from depth 4 in a window around the previous score
    `centre`, widened until the score falls inside; (score, stopped). `on_bound` hears each
    score that fell outside, with its bound."""
    alpha, beta = -INFINITE, INFINITE
    delta = ASPIRATION_DELTA
    if depth >= 4 and centre is not None and abs(centre) < MATE_IN_MAX:
        alpha, beta = max(centre - delta, -INFINITE), min(centre + delta, INFINITE)
    while True:
        score = int(search(board.tab, board.arrays, ws, tt, alpha, beta, depth, 0, False))
        if ws[WS_CTL + CTL_STOP]:
            return score, True
        if score <= alpha:
            beta = (alpha + beta) // 2
            alpha = max(score - delta, -INFINITE)
            bound = Bound.UPPER
        elif score >= beta:
            beta = min(score + delta, INFINITE)
            bound = Bound.LOWER
        else:
            return score, False
        if on_bound is not None:
            on_bound(score, bound)
        delta += delta // 2 + 5


def _promote_root_move(ws: np.ndarray, move: int, index: int) -> None:
    """Move `move` to position `index` of the workspace's root move list, keeping the others' order."""
    count = int(ws[WS_CTL + CTL_ROOT_COUNT])
    order = [int(m) for m in ws[WS_ROOT_MOVES:WS_ROOT_MOVES + count]]
    order.remove(move)
    order.insert(index, move)
    ws[WS_ROOT_MOVES:WS_ROOT_MOVES + count] = order


class _Deadline:
    """Sets the stop flag when the hard time limit passes."""

    def __init__(self, searcher: Searcher, hard_ms: float | None, start: float) -> None:
        self._timer = None
        if hard_ms is not None:
            delay = max(0.0, start + hard_ms / 1000 - time.perf_counter())
            delay = min(delay, threading.TIMEOUT_MAX)      # `go movetime 10^18` must not overflow the wait
            self._timer = threading.Timer(delay, searcher.stop)
            self._timer.daemon = True
            self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class _CurrMoveReporter:
    """After the first second, reports the root move being searched when it changes."""

    def __init__(self, searcher: Searcher, report: Callable[[Report], None], start: float) -> None:
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(searcher, report, start), daemon=True)
        self._thread.start()

    def _run(self, searcher: Searcher, report: Callable[[Report], None], start: float) -> None:
        last = None
        if self._done.wait(1.0):
            return
        while not self._done.wait(0.1):
            current = (int(searcher.ctl[CTL_CURRMOVE]), int(searcher.ctl[CTL_CURRMOVE_NUMBER]))
            if current != last and current[0]:
                report(CurrMoveReport(*current))
                last = current

    def cancel(self) -> None:
        self._done.set()
