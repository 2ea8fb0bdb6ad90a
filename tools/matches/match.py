"""Engine-vs-engine match runner built on python-chess's asyncio engine API.

Run from the repo root, e.g.::

    .venv/bin/python -m tools.matches.match \\
        --engine cmd=stockfish name=sf1350 option.UCI_LimitStrength=true option.UCI_Elo=1350 \\
        --engine cmd=sunfish-uci name=sunfish \\
        --each option.Hash=16 --games 4 --tc 5+0.05 --pgn runs/smoke.pgn --json runs/smoke.json

Results are always from the first engine's point of view.  See tools/matches/elo.py
for the statistics and jitfish/clock.py for the time controls and the clock.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import logging
import math
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

import chess
import chess.engine
import chess.pgn

from jitfish.clock import Clock, TimeControl, engine_limit, flag_result
from tools import paths
from tools.matches import elo as elostats
from tools.matches.adjudication import AdjudicationRules, Adjudicator, rules_outcome
from tools.matches.engines import EngineProcess, EngineSpec, parse_engine_spec

MATE_CP = 100_000
INFO = chess.engine.Info.BASIC | chess.engine.Info.SCORE  # no PV parsing: keeps the runner cheap


# ----------------------------------------------------------------------------- openings


def load_openings(path: str, chess960: bool) -> list[str]:
    """Read FENs from an EPD/FEN file (first four fields per line), skipping invalid ones."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 4 or line.lstrip().startswith("#"):
                continue
            fen = " ".join(fields[:4]) + " 0 1"
            try:
                board = chess.Board(fen, chess960=chess960)
            except ValueError:
                continue
            if board.is_valid() and board.outcome() is None:
                fens.append(board.fen(shredder=chess960))
    if not fens:
        raise ValueError(f"no usable positions in {path}")
    return fens


def choose_openings(args: argparse.Namespace, pairs: int, rng: random.Random) -> list[tuple[str, str]]:
    """Pick one (fen, label) per game pair: from the file (random or sequential) or random Chess960."""
    chess960 = args.variant == "chess960"
    if chess960 and args.openings is None:
        if args.opening_order == "sequential":
            ids = [(args.opening_offset + k) % 960 for k in range(pairs)]
        else:
            ids = [rng.randrange(960) for _ in range(pairs)]
        return [(chess.Board.from_chess960_pos(i).fen(shredder=True), f"chess960 #{i}") for i in ids]
    path = args.openings or str(paths.openings())
    fens = load_openings(path, chess960)
    if args.opening_order == "sequential":
        idx = [(args.opening_offset + k) % len(fens) for k in range(pairs)]
    elif pairs <= len(fens):
        idx = rng.sample(range(len(fens)), pairs)
    else:
        idx = [rng.randrange(len(fens)) for _ in range(pairs)]
    name = os.path.basename(path)
    return [(fens[i], f"{name}#{i + 1}") for i in idx]


# ----------------------------------------------------------------------------- limits


def _fmt(seconds: float) -> str:
    """Seconds without a trailing '.0'."""
    return f"{seconds:g}"


@dataclass(frozen=True)
class MatchLimit:
    """What limits each move: a clock (jitfish.clock), a fixed time per move, nodes and/or depth."""

    clock: TimeControl = TimeControl()  # untimed unless --tc
    movetime: float | None = None  # fixed seconds per move (go movetime)
    nodes: int | None = None
    depth: int | None = None

    def pgn(self) -> str:
        """The PGN TimeControl tag value."""
        if self.clock.timed:
            return self.clock.pgn_tag()
        if self.movetime is not None:
            return f"{_fmt(self.movetime)}/move"
        return "-"

    def describe(self) -> str:
        """Human-readable description including node/depth limits."""
        parts = [] if self.pgn() == "-" else [f"tc={self.pgn()}"]
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        return " ".join(parts) or "none"


# ----------------------------------------------------------------------------- bookkeeping


class PreflightError(RuntimeError):
    """An engine cannot be used at all (bad command, unknown option, no Chess960)."""


@dataclass
class EngineStats:
    """Per-engine robustness and timing counters, summed over all its processes."""

    name: str
    moves: int = 0
    think_time: float = 0.0
    illegal_moves: int = 0
    crashes: int = 0
    time_forfeits: int = 0  # clock below -margin after a move (or movetime + margin exceeded)
    timeouts: int = 0  # watchdog: no bestmove within budget + grace; engine killed
    overruns: int = 0  # moves that exceeded the budget at all (incl. within the margin)
    max_overrun_ms: float = 0.0
    restarts: int = 0
    ponder_hits: int = 0  # with ponder=true: the opponent played the predicted move (ponderhit)
    ponder_misses: int = 0  # ... or another one (stop, then a new search)
    protocol_warnings: int = 0  # complaints of python-chess about the engine's output


@dataclass
class GameRecord:
    """Outcome of one finished game."""

    index: int
    pair: int
    white: str
    black: str
    result: str
    termination: str
    reason: str
    plies: int
    opening: str
    score_first: float  # points for the first engine


@dataclass
class MatchState:
    """Everything accumulated while the match runs."""

    names: tuple[str, str]
    total: int
    stats: list[EngineStats]
    games: list[GameRecord] = field(default_factory=list)
    pairs: dict[int, list[float]] = field(default_factory=dict)

    def wdl(self) -> tuple[int, int, int]:
        """Wins, draws, losses of the first engine."""
        c = Counter(g.score_first for g in self.games)
        return c[1.0], c[0.5], c[0.0]

    def pentanomial(self) -> list[int]:
        """Counts of complete game pairs by the first engine's pair score 0, 0.5, 1, 1.5, 2."""
        counts = [0] * 5
        for scores in self.pairs.values():
            if len(scores) == 2:
                counts[elostats.pair_bucket(*scores)] += 1
        return counts

    def estimate(self) -> elostats.EloEstimate:
        """Pentanomial estimate when >= 2 pairs are complete, else trinomial."""
        penta = self.pentanomial()
        if sum(penta) >= 2:
            return elostats.pentanomial(penta)
        return elostats.trinomial(*self.wdl())


# ----------------------------------------------------------------------------- one game


def score_cp(info: dict[str, Any]) -> int | None:
    """The engine's score in centipawns from White's view (mates as +-MATE_CP), or None."""
    pov = info.get("score")
    if pov is None:
        return None
    return pov.white().score(mate_score=MATE_CP)


def move_comment(info: dict[str, Any], elapsed: float) -> str:
    """cutechess-style move comment: '+0.35/12 0.520s' (score from the mover's view/depth time)."""
    parts = []
    pov = info.get("score")
    if pov is not None:
        rel = pov.relative
        if rel.is_mate():
            m = rel.mate()
            text = f"{'+' if m > 0 else '-'}M{abs(m)}"
        else:
            text = f"{rel.score() / 100:+.2f}"
        if "depth" in info:
            text += f"/{info['depth']}"
        parts.append(text)
    parts.append(f"{elapsed:.3f}s")
    return " ".join(parts)


class ProtocolWarnings(logging.Handler):
    """Counts python-chess's warnings and errors about an engine's output (an unexpected line, an
    invalid info or ponder move), by engine process id, keeping the first few for the report."""

    PID = re.compile(r"\(pid=(\d+)\)")

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.by_pid: Counter[int] = Counter()
        self.examples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        match = self.PID.search(text)
        if match:
            self.by_pid[int(match.group(1))] += 1
            if len(self.examples) < 10:
                self.examples.append(text[:300])


def forfeit_result(board: chess.Board, loser: chess.Color, on_time: bool) -> str:
    """Result when `loser` forfeits; on time it is a draw if the opponent cannot possibly mate
    (jitfish.clock.flag_result, FIDE 6.9)."""
    if on_time:
        return flag_result(board, loser)[0]
    return "0-1" if loser == chess.WHITE else "1-0"


class Match:
    """Runs the games of a match over `concurrency` workers, each with its own engine pair."""

    def __init__(self, args: argparse.Namespace, specs: list[EngineSpec], openings: list[tuple[str, str]],
                 tc: MatchLimit, rules: AdjudicationRules, pgn_out: TextIO | None,
                 stderr: TextIO | None) -> None:
        """Set up the match; engines start in run()."""
        self.args = args
        self.specs = specs
        self.openings = openings
        self.tc = tc
        self.rules = rules
        self.pgn_out = pgn_out
        self.chess960 = args.variant == "chess960"
        self.state = MatchState((specs[0].name, specs[1].name), args.games,
                                [EngineStats(s.name) for s in specs])
        self.workers = [[EngineProcess(s, args.startup_timeout, stderr) for s in specs]
                        for _ in range(args.concurrency)]
        self.queue: asyncio.Queue[int] = asyncio.Queue()
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.warnings = ProtocolWarnings()
        self.pid_owner: dict[int, int] = {}  # engine process id -> index into state.stats
        self.sprt_llr = 0.0
        self.sprt_result: str | None = None   # "H1" or "H0" once the SPRT has decided

    async def preflight(self) -> None:
        """Start every engine once; raise PreflightError with a clear message if one cannot be used."""
        for procs in self.workers:
            for proc in procs:
                try:
                    await proc.start()
                except Exception as err:
                    raise PreflightError(f"engine {proc.spec.name!r} ({' '.join(proc.spec.cmd)}) failed to start: "
                                       f"{type(err).__name__}: {err}") from err
                assert proc.protocol is not None
                if self.chess960 and "UCI_Chess960" not in proc.protocol.options:
                    raise PreflightError(f"engine {proc.spec.name!r} has no UCI_Chess960 option")
                self.own(proc)

    def own(self, proc: EngineProcess) -> None:
        """Remember whose process this is, so that protocol warnings are counted for its engine."""
        if proc.pid is not None:
            self.pid_owner[proc.pid] = self.specs.index(proc.spec)

    async def run(self) -> None:
        """Play all games; engines are shut down even on errors or cancellation."""
        for i in range(self.args.games):
            self.queue.put_nowait(i)
        logging.getLogger("chess.engine").addHandler(self.warnings)
        try:
            await self.preflight()
            await asyncio.gather(*(self.worker(w) for w in range(len(self.workers))))
        finally:
            await asyncio.gather(*(p.quit() for procs in self.workers for p in procs),
                                 return_exceptions=True)
            logging.getLogger("chess.engine").removeHandler(self.warnings)
            for procs in self.workers:
                for k, p in enumerate(procs):
                    self.state.stats[k].restarts += max(0, p.starts - 1)
            for pid, count in self.warnings.by_pid.items():
                if pid in self.pid_owner:
                    self.state.stats[self.pid_owner[pid]].protocol_warnings += count

    async def worker(self, w: int) -> None:
        """Take games from the queue and play them with this worker's engines."""
        procs = self.workers[w]
        while not self.queue.empty():
            index = self.queue.get_nowait()
            first_white = index % 2 == 0
            white, black = (0, 1) if first_white else (1, 0)
            record, pgn_game = await self.play_game(index, procs[white], procs[black], white, black)
            record.score_first = {"1-0": 1.0, "0-1": 0.0}.get(record.result, 0.5)
            if not first_white:
                record.score_first = 1.0 - record.score_first
            self.finish_game(record, pgn_game)

    def finish_game(self, record: GameRecord, pgn_game: chess.pgn.Game) -> None:
        """Record a game, write its PGN and print the progress line."""
        st = self.state
        st.games.append(record)
        st.pairs.setdefault(record.pair, []).append(record.score_first)
        if self.pgn_out is not None:
            print(pgn_game, file=self.pgn_out, end="\n\n", flush=True)
        w, d, l = st.wdl()
        n = len(st.games)
        est = st.estimate()
        sprt = ""
        if self.args.sprt:
            sprt = self.sprt_step(len(st.pairs[record.pair]) == 2)
        print(f"[{n:>{len(str(st.total))}}/{st.total}] #{record.index + 1} {record.white} vs {record.black}: "
              f"{record.result} ({_short(record.reason)}) | {st.names[0]}: +{w} ={d} -{l} "
              f"{100 * (w + d / 2) / n:.1f}% | Elo {est.format()} ({est.method[:5]}){sprt}", flush=True)

    def sprt_step(self, pair_complete: bool) -> str:
        """After a game: the LLR over the complete pairs; once it crosses a bound the decision
        is kept and no further game is started (games under way are finished and counted)."""
        if pair_complete and self.sprt_result is None:
            elo0, elo1 = self.args.sprt
            self.sprt_llr = elostats.sprt_llr(self.state.pentanomial(), elo0, elo1)
            lower, upper = elostats.sprt_bounds(self.args.sprt_alpha, self.args.sprt_beta)
            if self.sprt_llr >= upper or self.sprt_llr <= lower:
                self.sprt_result = "H1" if self.sprt_llr >= upper else "H0"
                while not self.queue.empty():
                    self.queue.get_nowait()
        decided = f", {self.sprt_result} accepted" if self.sprt_result else ""
        return f" | LLR {self.sprt_llr:+.2f}{decided}"

    async def play_game(self, index: int, white: EngineProcess, black: EngineProcess,
                        wi: int, bi: int) -> tuple[GameRecord, chess.pgn.Game]:
        """Play one game; every engine failure becomes a result, never an exception."""
        fen, label = self.openings[index // 2]
        board = chess.Board(fen, chess960=self.chess960)
        game = chess.pgn.Game()
        game.setup(board)
        h = game.headers
        h["Event"] = self.args.event
        h["Site"] = "?"
        h["Date"] = self.date
        h["Round"] = str(index + 1)
        h["White"], h["Black"] = white.spec.name, black.spec.name
        h["TimeControl"] = self.tc.pgn()
        node: chess.pgn.GameNode = game
        procs = {chess.WHITE: white, chess.BLACK: black}
        stats = {chess.WHITE: self.state.stats[wi], chess.BLACK: self.state.stats[bi]}
        clock = Clock(self.tc.clock) if self.tc.clock.timed else None
        adjudicator = Adjudicator(self.rules)
        predicted: dict[chess.Color, chess.Move | None] = {chess.WHITE: None, chess.BLACK: None}  # pondered
        pending: tuple[str, str] | None = None
        tag = object()  # new `game` identity => python-chess sends ucinewgame
        result, termination, reason = "*", "unterminated", ""

        # Engines that died in an earlier game are restarted here; failing that, they lose. Then
        # each is told of the new game before any clock runs.
        for color in (chess.WHITE, chess.BLACK):
            try:
                await procs[color].ensure_started()
                self.own(procs[color])
                await asyncio.wait_for(self.new_game(procs[color], tag), self.args.startup_timeout)
            except Exception as err:  # noqa: BLE001 - a broken engine loses the game
                stats[color].crashes += 1
                await procs[color].kill()
                result = forfeit_result(board, color, on_time=False)
                termination = "engine crash"
                reason = f"{procs[color].spec.name} failed to start a game: {err}"
                break

        while result == "*":
            over = rules_outcome(board)
            if over or pending:
                result, reason = over or pending  # type: ignore[misc]
                termination = "normal" if over else "adjudication"
                break
            plies = len(board.move_stack)
            if self.rules.max_plies and plies >= self.rules.max_plies:
                result, termination, reason = "1/2-1/2", "adjudication", f"max plies ({self.rules.max_plies})"
                break

            turn = board.turn
            proc, st = procs[turn], stats[turn]
            t0 = time.monotonic()
            limit, budget = self.limit_for(clock, turn, proc.spec, t0)
            watchdog = budget + self.args.grace
            if predicted[turn] is not None:  # it pondered: python-chess sends ponderhit or stop
                hit = predicted[turn] == board.peek()
                st.ponder_hits += hit
                st.ponder_misses += not hit
                predicted[turn] = None
            fault: str | None = None
            detail = ""
            play: chess.engine.PlayResult | None = None
            try:
                if proc.protocol is None:
                    raise chess.engine.EngineTerminatedError("engine not running")
                # With ponder, play() returns at bestmove and python-chess goes on with `go ponder` on
                # the predicted reply; the next play() sends ponderhit (the reply came) or stop and a
                # new search. Either way the clock runs from this call: the time measured is the
                # engine's, from the opponent's move to its bestmove, as a GUI's clock counts it.
                play = await asyncio.wait_for(
                    proc.protocol.play(board, limit, info=INFO, game=tag, ponder=proc.spec.ponder), watchdog)
            except TimeoutError:
                fault, detail = "timeout", f"no move within {watchdog:.1f}s (watchdog)"
            except chess.engine.EngineTerminatedError as err:
                fault, detail = "crash", str(err)
            except chess.engine.EngineError as err:
                if err.args and isinstance(err.args[0], ValueError):
                    fault, detail = "illegal", str(err)
                else:
                    fault, detail = "crash", f"protocol error: {err}"
            except Exception as err:  # noqa: BLE001 - nothing an engine does may stop the match
                fault, detail = "crash", f"{type(err).__name__}: {err}"
            elapsed = time.monotonic() - t0
            st.moves += 1
            st.think_time += elapsed

            if play is not None and (play.move is None or play.move not in board.legal_moves):
                fault, detail = "illegal", f"bestmove {play.move.uci() if play.move else '(none)'}"

            over_time = "" if fault else self.charge_time(clock, turn, t0, elapsed, st)
            side = "White" if turn == chess.WHITE else "Black"
            if fault == "illegal":
                st.illegal_moves += 1
                result, termination = forfeit_result(board, turn, False), "illegal move"
                reason = f"{side} ({proc.spec.name}) illegal move: {detail}"
            elif fault == "crash":
                st.crashes += 1
                await proc.kill()
                result, termination = forfeit_result(board, turn, False), "engine crash"
                reason = f"{side} ({proc.spec.name}) crashed: {detail}"
            elif fault == "timeout":
                st.timeouts += 1
                await proc.kill()
                result, termination = forfeit_result(board, turn, True), "stalled connection"
                reason = f"{side} ({proc.spec.name}) {detail}"
            elif over_time:
                st.time_forfeits += 1
                result, termination = forfeit_result(board, turn, True), "time forfeit"
                reason = f"{side} ({proc.spec.name}) {over_time}"
            if fault is not None or over_time:
                break

            assert play is not None and play.move is not None
            if proc.spec.ponder:
                predicted[turn] = play.ponder
            info = dict(play.info)
            fullmove = board.fullmove_number
            board.push(play.move)
            node = node.add_variation(play.move, comment=move_comment(info, elapsed))
            pending = adjudicator.update(fullmove, score_cp(info))

        h["Result"] = result
        h["Termination"] = termination
        h["PlyCount"] = str(len(board.move_stack))
        node.comment = f"{node.comment}; {reason}" if node.comment else reason
        record = GameRecord(index, index // 2, white.spec.name, black.spec.name, result, termination, reason,
                            len(board.move_stack), label, 0.0)
        return record, game

    @staticmethod
    async def new_game(proc: EngineProcess, tag: object) -> None:
        """`ucinewgame` and `isready` before the game's clocks start, as cutechess and fastchess
        do (python-chess would send them inside the first `play()`, whose time is charged). The
        first ping ends a search left pondering at the end of the last game; python-chess is then
        told that this game has begun (its `game`, `first_game` and `ponderhit` attributes), so
        that its play() does not send them again."""
        protocol = proc.protocol
        assert protocol is not None
        await protocol.ping()
        protocol.send_line("ucinewgame")
        protocol.game, protocol.first_game, protocol.ponderhit = tag, False, False
        await protocol.ping()

    def limit_for(self, clock: Clock | None, turn: chess.Color, spec: EngineSpec, now: float
                  ) -> tuple[chess.engine.Limit, float]:
        """The UCI go limit for the side to move (its engine's own nodes= before --nodes) and its
        time budget in seconds (for the watchdog). Its clock starts at `now`: only the time from
        the engine's `go` to its bestmove is charged."""
        tc = self.tc
        if clock is not None:
            clock.start(turn, now)
            limit = engine_limit(clock, now)
            limit.nodes, limit.depth = spec.nodes or tc.nodes, tc.depth
            flag_at = clock.flag_at()
            assert flag_at is not None
            return limit, flag_at - now
        limit = chess.engine.Limit(nodes=spec.nodes or tc.nodes, depth=tc.depth)
        if tc.movetime is not None:
            limit.time = tc.movetime
            return limit, tc.movetime
        return limit, self.args.max_think

    def charge_time(self, clock: Clock | None, turn: chess.Color, t0: float, elapsed: float,
                    st: EngineStats) -> str:
        """Charge the move that took `elapsed` seconds from `t0`; update overrun stats; return a
        forfeit description or ''. A move past the flag but within --margin-ms counts (its clock
        goes below zero)."""
        if clock is not None:
            flag_at = clock.flag_at()
            assert flag_at is not None and clock.running == turn
            over = t0 + elapsed - flag_at
            clock.press(turn, t0 + elapsed)
            margin = self.args.margin_ms / 1000
        elif self.tc.movetime is not None:
            over = elapsed - self.tc.movetime
            margin = self.args.st_margin_ms / 1000
        else:
            return ""
        if over > 0:
            st.overruns += 1
            st.max_overrun_ms = max(st.max_overrun_ms, over * 1000)
        if over > margin:
            return f"lost on time: over by {over * 1000:.0f} ms (margin {margin * 1000:.0f} ms)"
        return ""


# ----------------------------------------------------------------------------- summary


def _finite(x: float) -> float | None:
    """JSON-safe float: None for inf/nan."""
    return None if math.isinf(x) or math.isnan(x) else round(x, 2)


def _short(text: str, width: int = 70) -> str:
    """Truncate text for one-line progress output."""
    return text if len(text) <= width else text[: width - 3] + "..."


def ending(g: GameRecord) -> str:
    """Short ending category: the rule (checkmate, ...), the adjudication kind or the fault."""
    if g.termination == "normal":
        return g.reason
    if g.termination == "adjudication":
        return g.reason.split(":")[0].split(" (")[0]
    return g.termination


def summarize(match: Match, seconds: float, interrupted: bool) -> dict[str, Any]:
    """Build the JSON-able summary of the match."""
    st = match.state
    w, d, l = st.wdl()
    n = w + d + l
    penta = st.pentanomial()
    tri = elostats.trinomial(w, d, l)
    pen = elostats.pentanomial(penta)

    def est(e: elostats.EloEstimate) -> dict[str, Any]:
        return {"text": e.format(), "elo": _finite(e.elo), "error95": _finite(e.error), "lo95": _finite(e.lo),
                "hi95": _finite(e.hi), "samples": e.samples}

    return {
        "engines": [match.specs[0].name, match.specs[1].name],
        "commands": [" ".join(s.cmd) for s in match.specs],
        "options": [{k: v for k, v in s.options.items()} for s in match.specs],
        "ponder": [s.ponder for s in match.specs],
        "engine_nodes": [s.nodes for s in match.specs],     # per-engine nodes= (None: the match's limit)
        "variant": match.args.variant,
        "time_control": match.tc.describe(),
        "seed": match.args.seed,
        "concurrency": match.args.concurrency,
        "games_planned": st.total,
        "games": n,
        "interrupted": interrupted,
        "wins": w, "draws": d, "losses": l,
        "score": None if n == 0 else round((w + d / 2) / n, 4),
        "elo_trinomial": est(tri),
        "elo_pentanomial": est(pen),
        "pentanomial": penta,
        "los": round(elostats.los(w, l), 4),
        "terminations": dict(Counter(ending(g) for g in st.games)),
        "engine_stats": [asdict(s) for s in st.stats],
        "protocol_warning_examples": match.warnings.examples,
        "wall_seconds": round(seconds, 1),
        "sprt": None if not match.args.sprt else {
            "elo0": match.args.sprt[0], "elo1": match.args.sprt[1], "alpha": match.args.sprt_alpha,
            "beta": match.args.sprt_beta, "bounds": list(elostats.sprt_bounds(match.args.sprt_alpha,
                                                                              match.args.sprt_beta)),
            "llr": round(elostats.sprt_llr(penta, *match.args.sprt), 3), "result": match.sprt_result},
        "game_list": [asdict(g) for g in sorted(st.games, key=lambda g: g.index)],
    }


def print_summary(s: dict[str, Any]) -> None:
    """Print the final human-readable summary."""
    a, b = s["engines"]
    n = s["games"]
    print(f"\n=== {a} vs {b}: {n}/{s['games_planned']} games, {s['time_control']}, "
          f"{s['variant']}, seed {s['seed']}{' (INTERRUPTED)' if s['interrupted'] else ''} ===")
    if n == 0:
        print("no games finished")
        return
    print(f"{a}: +{s['wins']} ={s['draws']} -{s['losses']}  score {100 * s['score']:.1f}%  "
          f"draw ratio {100 * s['draws'] / n:.1f}%")

    def line(label: str, e: dict[str, Any]) -> str:
        return f"Elo ({label}): {e['text']}"

    print(line(f"pentanomial over {sum(s['pentanomial'])} pairs {s['pentanomial']}", s["elo_pentanomial"]))
    print(line(f"trinomial over {n} games", s["elo_trinomial"]))
    print(f"LOS: {100 * s['los']:.1f}%")
    if s.get("sprt"):
        t = s["sprt"]
        print(f"SPRT [{t['elo0']:g}, {t['elo1']:g}] (alpha {t['alpha']:g}, beta {t['beta']:g}): LLR {t['llr']:+.2f} "
              f"in ({t['bounds'][0]:.2f}, {t['bounds'][1]:.2f}), "
              f"{(t['result'] + ' accepted') if t['result'] else 'undecided'}")
    print("Endings: " + ", ".join(f"{k} {v}" for k, v in sorted(s["terminations"].items(), key=lambda kv: -kv[1])))
    print(f"{'engine':<16}{'moves':>7}{'avg ms':>8}{'illegal':>9}{'crashes':>9}{'time-loss':>11}"
          f"{'timeouts':>10}{'overruns':>10}{'max over ms':>13}{'restarts':>10}")
    for e in s["engine_stats"]:
        avg = 1000 * e["think_time"] / e["moves"] if e["moves"] else 0.0
        print(f"{e['name']:<16}{e['moves']:>7}{avg:>8.0f}{e['illegal_moves']:>9}{e['crashes']:>9}"
              f"{e['time_forfeits']:>11}{e['timeouts']:>10}{e['overruns']:>10}{e['max_overrun_ms']:>13.1f}"
              f"{e['restarts']:>10}")
    for e, ponders in zip(s["engine_stats"], s["ponder"]):
        if ponders:
            print(f"{e['name']} pondered: {e['ponder_hits']} ponderhits, {e['ponder_misses']} misses")
    if any(e["protocol_warnings"] for e in s["engine_stats"]):
        counts = ", ".join(f"{e['name']} {e['protocol_warnings']}" for e in s["engine_stats"])
        print(f"protocol warnings: {counts}")
        for text in s["protocol_warning_examples"]:
            print(f"  {text}")
    print(f"wall time {s['wall_seconds']:.1f}s")


# ----------------------------------------------------------------------------- CLI


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    p = argparse.ArgumentParser(
        prog="python -m tools.matches.match",
        description="Play an engine-vs-engine match (game pairs with colours swapped).",
        epilog="Engine settings: cmd=COMMAND (shell-quoted if it has arguments), name=NAME, proto=uci, "
               "dir=WORKDIR, ponder=true (think on the opponent's time), option.NAME=VALUE (UCI option; "
               "true/false for check options). "
               "Example: --engine cmd=stockfish name=sf1350 option.UCI_LimitStrength=true "
               "option.UCI_Elo=1350")
    p.add_argument("--engine", nargs="+", action="append", required=True, metavar="KEY=VALUE",
                   help="an engine (give exactly two); results are from the first one's view")
    p.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE",
                   help="settings applied to both engines (engine-specific ones win)")
    p.add_argument("--games", type=int, default=2, help="number of games, even (default 2)")
    p.add_argument("--concurrency", type=int, default=1, help="games in parallel (default 1)")
    p.add_argument("--seed", type=int, default=None, help="seed for opening choice (default: random, printed)")
    g = p.add_argument_group("time control (--tc or --st, optionally with --nodes/--depth)")
    g.add_argument("--tc", help="base+inc in seconds (10+0.1, 1:30+1) or moves/base (40/20, repeating)")
    g.add_argument("--st", type=float, help="fixed time per move in seconds (go movetime)")
    g.add_argument("--nodes", type=int, help="go nodes N")
    g.add_argument("--depth", type=int, help="go depth N")
    g.add_argument("--margin-ms", type=float, default=0.0,
                   help="clock may go this far below zero before a time forfeit (default 0)")
    g.add_argument("--st-margin-ms", type=float, default=100.0,
                   help="with --st, allowed excess over movetime before a time forfeit (default 100)")
    g.add_argument("--grace", type=float, default=5.0,
                   help="watchdog: an engine silent for its time budget + GRACE s loses and is restarted")
    g.add_argument("--max-think", type=float, default=60.0,
                   help="time budget per move for --nodes/--depth without a clock (default 60 s)")
    o = p.add_argument_group("openings")
    o.add_argument("--openings", help=f"EPD/FEN file (default {paths.openings()}; "
                                      "with --variant chess960 default is random start positions)")
    o.add_argument("--opening-order", choices=["random", "sequential"], default="random")
    o.add_argument("--opening-offset", type=int, default=0, help="first opening index for sequential order")
    o.add_argument("--variant", choices=["standard", "chess960"], default="standard")
    a = p.add_argument_group("adjudication (movecount 0 disables a rule)")
    d = AdjudicationRules()
    a.add_argument("--draw-movenumber", type=int, default=d.draw_movenumber)
    a.add_argument("--draw-movecount", type=int, default=d.draw_movecount)
    a.add_argument("--draw-score", type=int, default=d.draw_score)
    a.add_argument("--resign-movecount", type=int, default=d.resign_movecount)
    a.add_argument("--resign-score", type=int, default=d.resign_score)
    a.add_argument("--max-plies", type=int, default=d.max_plies, help="draw after this many plies (0 = off)")
    t = p.add_argument_group("sequential test (--games is then the most games played)")
    t.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                   help="stop when the SPRT of logistic Elo ELO0 against ELO1 decides (e.g. 0 5 for a gainer, "
                        "-5 0 for a simplification)")
    t.add_argument("--sprt-alpha", type=float, default=0.05)
    t.add_argument("--sprt-beta", type=float, default=0.05)
    r = p.add_argument_group("output")
    r.add_argument("--pgn", help="write all games to this PGN file")
    r.add_argument("--json", help="write the summary as JSON to this file")
    r.add_argument("--event", default="Jitfish match")
    r.add_argument("--engine-stderr", help="append engines' stderr to this file (default: discarded)")
    r.add_argument("--startup-timeout", type=float, default=60.0, help="seconds for uci/isready at start")
    r.add_argument("--debug", action="store_true", help="log the UCI traffic")
    return p


def time_control_from_args(args: argparse.Namespace) -> MatchLimit:
    """Combine --tc/--st/--nodes/--depth into one MatchLimit (raises ValueError)."""
    if args.tc and args.st:
        raise ValueError("give --tc or --st, not both")
    if not (args.tc or args.st or args.nodes or args.depth):
        raise ValueError("give a limit: --tc, --st, --nodes or --depth")
    clock = TimeControl.parse(args.tc) if args.tc else TimeControl()
    if args.st is not None and args.st <= 0:
        raise ValueError("--st must be positive")
    return MatchLimit(clock, args.st, args.nodes, args.depth)


def _open_output(path: str) -> TextIO:
    """Open an output file for writing, creating its directory."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return open(path, "w", encoding="utf-8")


async def _amain(match: Match) -> bool:
    """Run the match inside the event loop; returns True if it was cancelled."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, ctx: logging.getLogger("tools.matches.match").debug("%s", ctx))
    task = asyncio.current_task()
    if task is not None:  # SIGTERM stops the match like Ctrl-C: engines are shut down, summary printed
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        await match.run()
    except asyncio.CancelledError:
        return True
    return False


@contextlib.contextmanager
def _quiet_loggers(debug: bool):
    """Without --debug: python-chess's complaints about engines are counted (ProtocolWarnings),
    not printed, and asyncio's are dropped. The loggers are restored afterwards (the tests run
    matches in-process and read python-chess's log themselves)."""
    engine_log, asyncio_log = logging.getLogger("chess.engine"), logging.getLogger("asyncio")
    saved = (engine_log.level, engine_log.propagate, asyncio_log.level)
    if not debug:
        engine_log.setLevel(logging.WARNING)
        engine_log.propagate = False
        asyncio_log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        engine_log.setLevel(saved[0])
        engine_log.propagate = saved[1]
        asyncio_log.setLevel(saved[2])


def main(argv: list[str] | None = None) -> int:
    """CLI entry point; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    with _quiet_loggers(args.debug):
        return _run(parser, args)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Check the arguments, play the match, print and write the summary; the exit code."""
    try:
        if len(args.engine) != 2:
            raise ValueError("give exactly two --engine")
        specs = [parse_engine_spec(tokens, args.each) for tokens in args.engine]
        if specs[0].name == specs[1].name:
            specs[1].name += "-2"
        if args.games < 2 or args.games % 2:
            raise ValueError("--games must be even and >= 2 (openings are played in pairs)")
        if args.concurrency < 1:
            raise ValueError("--concurrency must be >= 1")
        tc = time_control_from_args(args)
        if args.seed is None:
            args.seed = random.SystemRandom().randrange(2**31)
        openings = choose_openings(args, args.games // 2, random.Random(args.seed))
    except (ValueError, OSError) as err:
        parser.error(str(err))
    if args.concurrency > (os.cpu_count() or 1):
        print(f"warning: concurrency {args.concurrency} > {os.cpu_count()} cores; time losses likely",
              file=sys.stderr)
    rules = AdjudicationRules(args.draw_movenumber, args.draw_movecount, args.draw_score,
                              args.resign_movecount, args.resign_score, args.max_plies)
    print(f"{specs[0].name} vs {specs[1].name}: {args.games} games, {tc.describe()}, {args.variant}, "
          f"concurrency {args.concurrency}, seed {args.seed}", flush=True)

    start = time.monotonic()
    interrupted = False
    with contextlib.ExitStack() as stack:
        pgn_out = stack.enter_context(_open_output(args.pgn)) if args.pgn else None
        stderr = stack.enter_context(open(args.engine_stderr, "a", encoding="utf-8")) if args.engine_stderr else None
        match = Match(args, specs, openings, tc, rules, pgn_out, stderr)
        try:
            interrupted = asyncio.run(_amain(match))
        except KeyboardInterrupt:
            interrupted = True
        except PreflightError as err:  # an engine could not be started or lacks a feature
            print(f"error: {err}", file=sys.stderr)
            return 2
    summary = summarize(match, time.monotonic() - start, interrupted)
    print_summary(summary)
    if args.json:
        with _open_output(args.json) as f:
            json.dump(summary, f, indent=2)
            f.write("\n")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
