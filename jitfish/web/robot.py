"""The robot opponent and the adviser: Jitfish as a UCI subprocess, driven through python-chess's
asyncio `chess.engine` API, so that a long search or a crash never blocks the web server and a
search can be stopped (cancelling the call sends `stop`).

`Robot` plays one game's moves at its level; `Adviser` is one full-strength process shared by all
games for hints and for judging draw offers (kept apart so that its searches never leak into a
level's setting or transposition table). The pure decisions (the human-like pause, whether to
accept a draw) are plain functions so that they can be tested without a process.
"""

from __future__ import annotations

import asyncio
import logging
import random
import subprocess
import sys
from dataclasses import dataclass
from typing import Callable

import chess
import chess.engine

from search.levels import FULL_STRENGTH_ELO, MIN_ELO

from jitfish.web.clock import Clock, engine_times

log = logging.getLogger(__name__)

ENGINE_COMMAND = [sys.executable, "-m", "jitfish"]   # the same Python, the same package
# The engines run in a process group of their own: Ctrl-C in the terminal reaches only the server,
# which then ends them cleanly (instead of each engine printing its own KeyboardInterrupt).
OWN_GROUP: dict[str, object] = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if sys.platform == "win32"
                                else {"start_new_session": True})
UNTIMED_SECONDS = 1.5          # full strength without a clock thinks this long per move
HINT_SECONDS = 1.0
DRAW_JUDGE_SECONDS = 0.4
RESERVE_SECONDS = 0.15         # kept off the robot's clock for the pipe and the server
MOVE_OVERHEAD_MS = 50
CLAIM_BELOW_CP = 30            # the robot claims a repetition or fifty-move draw unless better by more
START_TIMEOUT = 120.0          # a cold numba cache compiles for about a minute before `readyok`

# The page's level list: Elo and a name. Any Elo from MIN_ELO to FULL_STRENGTH_ELO is accepted.
LEVEL_CHOICES = [
    (MIN_ELO, "Beginner"), (600, "Novice"), (800, "Casual player"), (1000, "Improver"),
    (1200, "Club newcomer"), (1400, "Club player"), (1600, "Strong club player"), (1800, "Expert"),
    (FULL_STRENGTH_ELO, "Full strength"),
]


class RobotError(RuntimeError):
    """The engine process could not be started or stopped answering (the message says why)."""


def level_name(elo: int) -> str:
    """The name of the nearest level at or below `elo`."""
    name = LEVEL_CHOICES[0][1]
    for value, label in LEVEL_CHOICES:
        if elo >= value:
            name = label
    return name


def human_pause(elo: int, clock: Clock | None, colour: chess.Color, ply: int, now: float,
                rng: random.Random) -> float:
    """Seconds a weak level waits before it moves, like a person thinking: short in the opening,
    longer later, and never more than a small share of its clock (it is charged to it). Full
    strength uses its clock as it likes and gets no pause."""
    if elo >= FULL_STRENGTH_ELO:
        return 0.0
    pause = rng.uniform(0.4, 1.2) if ply < 10 else rng.uniform(0.8, 2.6)
    if clock is not None and clock.running is not None:
        left = clock.remaining(colour, now) + clock.delay_left(colour, now)
        moves = clock.moves_to_go(colour) or 30
        share = 0.5 * max(0.0, left - 1.0) / max(moves, 10) + 0.5 * clock.increment(colour)
        pause = min(pause, share)
    return max(0.0, pause)


def material_phase(board: chess.Board) -> int:
    """Non-pawn material of both sides in pawns (62 at the start, 0 with kings and pawns)."""
    values = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    return sum(len(board.pieces(piece, colour)) * value for piece, value in values.items() for colour in chess.COLORS)


def accepts_draw(score_cp: int, board: chess.Board) -> bool:
    """Whether the robot takes a draw offer, from its side's score (centipawns, from a short
    full-strength search; mates count as big scores) and the phase of the game: early it plays on
    unless clearly worse, in the middlegame it accepts when somewhat worse, in an endgame when it
    is not clearly better."""
    material = material_phase(board)
    if material <= 20:
        return score_cp <= 25
    if board.fullmove_number <= 15 and material >= 50:
        return score_cp <= -150
    return score_cp <= -50


@dataclass
class Suggestion:
    move: chess.Move
    score_cp: int             # from the side to move's view, mates clipped to +-10000


async def _open_engine() -> chess.engine.UciProtocol:
    try:
        _, engine = await asyncio.wait_for(chess.engine.popen_uci(ENGINE_COMMAND, **OWN_GROUP), START_TIMEOUT)
        await engine.configure({"Move Overhead": MOVE_OVERHEAD_MS})
        await asyncio.wait_for(engine.ping(), START_TIMEOUT)
    except (OSError, chess.engine.EngineError, asyncio.TimeoutError) as exc:
        raise RobotError(f"could not start the engine: {exc or type(exc).__name__}") from None
    return engine


async def _close_engine(engine: chess.engine.UciProtocol | None) -> None:
    if engine is None:
        return
    try:
        await asyncio.wait_for(engine.quit(), 5.0)
    except (chess.engine.EngineError, asyncio.TimeoutError, OSError):
        pass
    except Exception:                         # a half-dead process: never let closing raise
        log.exception("closing the engine")


def _limit(clock: Clock | None, now: float, reserve: float) -> chess.engine.Limit:
    """The search limit: the clocks mapped by `engine_times`, or a fixed time without a clock."""
    if clock is None:
        return chess.engine.Limit(time=UNTIMED_SECONDS)
    times = engine_times(clock, now, RESERVE_SECONDS + reserve)
    return chess.engine.Limit(white_clock=times["wtime"] / 1000, black_clock=times["btime"] / 1000,
                              white_inc=times["winc"] / 1000, black_inc=times["binc"] / 1000,
                              remaining_moves=times["movestogo"])


class Robot:
    """Jitfish at one level, for one game at a time (a process per game, restarted if it dies)."""

    def __init__(self) -> None:
        self.engine: chess.engine.UciProtocol | None = None
        self.elo = FULL_STRENGTH_ELO
        self.lock = asyncio.Lock()

    async def set_level(self, elo: int) -> None:
        """Play at `elo` from now on (starting the process if needed)."""
        async with self.lock:
            self.elo = elo
            await self._configure()

    async def _configure(self) -> None:
        if self.engine is None:
            self.engine = await _open_engine()
        limited = self.elo < FULL_STRENGTH_ELO
        options: dict[str, object] = {"UCI_LimitStrength": limited, "OwnBook": True}
        if limited:
            options["UCI_Elo"] = self.elo
        await self.engine.configure(options)

    async def move(self, board: chess.Board, clock: Clock | None, now: Callable[[], float], reserve: float,
                   game: object) -> chess.Move:
        """The robot's move in `board` (cancel the call to stop the search). With a clock it is
        told its time as it is when the search starts (after any wait for the process), less
        `reserve`; `game` marks a new game for the engine (ucinewgame)."""
        async with self.lock:
            for attempt in (1, 2):
                try:
                    if self.engine is None:
                        await self._configure()
                    result = await self.engine.play(board, _limit(clock, now(), reserve), game=game)
                except chess.engine.EngineTerminatedError as exc:
                    log.warning("the robot's engine died (%s); restarting it", exc)
                    await _close_engine(self.engine)
                    self.engine = None
                    if attempt == 2:
                        raise RobotError("the engine stopped twice in a row") from None
                    continue
                except chess.engine.EngineError as exc:
                    raise RobotError(f"the engine failed: {exc}") from None
                if result.move is None or result.move not in board.legal_moves:
                    raise RobotError(f"the engine answered no legal move ({result.move})")
                return result.move
        raise RobotError("unreachable")

    async def close(self) -> None:
        engine, self.engine = self.engine, None
        await _close_engine(engine)


class Adviser:
    """One full-strength engine shared by all games: hints and draw judgements, one at a time."""

    def __init__(self) -> None:
        self.engine: chess.engine.UciProtocol | None = None
        self.lock = asyncio.Lock()

    async def suggest(self, board: chess.Board, seconds: float) -> Suggestion:
        async with self.lock:
            for attempt in (1, 2):
                try:
                    if self.engine is None:
                        self.engine = await _open_engine()
                    info = await self.engine.analyse(board, chess.engine.Limit(time=seconds))
                except chess.engine.EngineTerminatedError:
                    await _close_engine(self.engine)
                    self.engine = None
                    if attempt == 2:
                        raise RobotError("the adviser's engine stopped twice in a row") from None
                    continue
                except chess.engine.EngineError as exc:
                    raise RobotError(f"the adviser's engine failed: {exc}") from None
                pv = info.get("pv") or []
                if not pv or pv[0] not in board.legal_moves:
                    raise RobotError("the adviser found no move")
                score = info.get("score")
                cp = score.pov(board.turn).score(mate_score=10000) if score is not None else 0
                return Suggestion(pv[0], max(-10000, min(10000, cp)))
        raise RobotError("unreachable")

    async def hint(self, board: chess.Board) -> Suggestion:
        return await self.suggest(board, HINT_SECONDS)

    async def accept_for(self, board: chess.Board, robot: chess.Color) -> bool:
        """Whether the robot, playing `robot`, accepts a draw offer in `board`."""
        suggestion = await self.suggest(board, DRAW_JUDGE_SECONDS)
        score = suggestion.score_cp if board.turn == robot else -suggestion.score_cp
        return accepts_draw(score, board)

    async def claim_for(self, board: chess.Board) -> bool:
        """Whether the robot, to move in `board`, claims the draw it may claim: when it is not better."""
        return (await self.suggest(board, DRAW_JUDGE_SECONDS)).score_cp <= CLAIM_BELOW_CP

    async def close(self) -> None:
        engine, self.engine = self.engine, None
        await _close_engine(engine)
