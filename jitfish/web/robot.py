"""The robot opponent and the adviser: Jitfish as a UCI subprocess, driven through python-chess's
asyncio `chess.engine` API, so that a long search or a crash never blocks the web server and a
search can be stopped (cancelling the call sends `stop`).

`Robot` plays one game's moves at its level; `Adviser` is one full-strength process shared by all
games for hints and for judging draw offers and claims (kept apart so that its searches never
leak into a level's setting or transposition table). What the robot decides from the adviser's
scores is jitfish/robot_policy.py's, the same as in `jitfish play`.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from typing import Awaitable, Callable, TypeVar

import chess
import chess.engine

from eval.shipped import review_network
from search.levels import FULL_STRENGTH_ELO, MIN_ELO

from jitfish.clock import Clock, engine_limit
from jitfish.i18n import N_
from jitfish.review import Evaluation, engine_score
from jitfish.robot_policy import (HINT_SECONDS, JUDGE_SECONDS, Suggestion, accepts_draw, claims_draw, clip_score,
                                  score_for)

log = logging.getLogger(__name__)
T = TypeVar("T")

ENGINE_COMMAND = [sys.executable, "-m", "jitfish"]   # the same Python, the same package
# The engines run in a process group of their own: Ctrl-C in the terminal reaches only the server,
# which then ends them cleanly (instead of each engine printing its own KeyboardInterrupt).
OWN_GROUP: dict[str, object] = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if sys.platform == "win32"
                                else {"start_new_session": True})
UNTIMED_SECONDS = 1.5          # full strength without a clock thinks this long per move
RESERVE_SECONDS = 0.15         # kept off the robot's clock for the pipe and the server
MOVE_OVERHEAD_MS = 50
START_TIMEOUT = 120.0          # a cold numba cache compiles for about a minute before `readyok`
QUICK_ANSWER = "a quick move"  # the `info string` of a quick search (jitfish/uci.py: before the kernels are in)
QUICK_RETRY_SECONDS = 0.5

# The page's level list: Elo and a name. Any Elo from MIN_ELO to FULL_STRENGTH_ELO is accepted.
LEVEL_CHOICES = [                 # the names are said in the reader's language (N_: extracted)
    (MIN_ELO, N_("Beginner")), (600, N_("Novice")), (800, N_("Casual player")), (1000, N_("Improver")),
    (1200, N_("Club newcomer")), (1400, N_("Club player")), (1600, N_("Strong club player")), (1800, N_("Expert")),
    (2000, N_("Candidate master")), (2200, N_("Master")), (2300, N_("International master")),
    (FULL_STRENGTH_ELO, N_("Full strength")),
]


class RobotError(RuntimeError):
    """The engine process could not be started or stopped answering (the message says why)."""


async def _restarting(owner: Robot | Adviser, start: Callable[[], Awaitable[None]], whose: str,
                      call: Callable[[chess.engine.UciProtocol], Awaitable[T]]) -> T:
    """`call(owner.engine)`, the process started by `start()` when there is none and once more
    if it dies meanwhile; an engine error or a second death is a RobotError."""
    for attempt in (1, 2):
        try:
            if owner.engine is None:
                await start()
            return await call(owner.engine)
        except chess.engine.EngineTerminatedError as exc:
            log.warning("%s engine died (%s); restarting it", whose, exc)
            await close_engine(owner.engine)
            owner.engine = None
            if attempt == 2:
                raise RobotError(f"{whose} engine stopped twice in a row") from None
        except chess.engine.EngineError as exc:
            raise RobotError(f"{whose} engine failed: {exc}") from None
    raise RobotError("unreachable")


def level_name(elo: int) -> str:
    """The name of the nearest level at or below `elo`."""
    name = LEVEL_CHOICES[0][1]
    for value, label in LEVEL_CHOICES:
        if elo >= value:
            name = label
    return name


async def open_engine() -> chess.engine.UciProtocol:
    try:
        _, engine = await asyncio.wait_for(chess.engine.popen_uci(ENGINE_COMMAND, **OWN_GROUP), START_TIMEOUT)
        await engine.configure({"Move Overhead": MOVE_OVERHEAD_MS})
        await asyncio.wait_for(engine.ping(), START_TIMEOUT)
    except (OSError, chess.engine.EngineError, asyncio.TimeoutError) as exc:
        raise RobotError(f"could not start the engine: {exc or type(exc).__name__}") from None
    return engine


async def close_engine(engine: chess.engine.UciProtocol | None) -> None:
    if engine is None:
        return
    try:
        await asyncio.wait_for(engine.quit(), 5.0)
    except (chess.engine.EngineError, asyncio.TimeoutError, OSError):
        pass
    except Exception:                         # a half-dead process: never let closing raise
        log.exception("closing the engine")


def _limit(clock: Clock | None, now: float, reserve: float) -> chess.engine.Limit:
    """The search limit: the clocks as jitfish.clock tells them, or a fixed time without a clock."""
    if clock is None:
        return chess.engine.Limit(time=UNTIMED_SECONDS)
    return engine_limit(clock, now, RESERVE_SECONDS + reserve)


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
            self.engine = await open_engine()
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
            result = await _restarting(self, self._configure, "the robot's",
                                       lambda engine: engine.play(board, _limit(clock, now(), reserve), game=game))
        if result.move is None or result.move not in board.legal_moves:
            raise RobotError(f"the engine answered no legal move ({result.move})")
        return result.move

    async def close(self) -> None:
        engine, self.engine = self.engine, None
        await close_engine(engine)


class Adviser:
    """One full-strength engine shared by all games, with the review network (eval/shipped.py):
    hints, draw judgements and the searches of game reviews, one search at a time (a review takes
    its turn position by position, so a hint waits for one position at most)."""

    def __init__(self) -> None:
        self.engine: chess.engine.UciProtocol | None = None
        self.lock = asyncio.Lock()

    @property
    def name(self) -> str:
        """The engine's name as it gives it (`id name`), for the review's PGN."""
        return (self.engine.id.get("name") if self.engine is not None else None) or "Jitfish"

    async def analyse(self, board: chess.Board, limit: chess.engine.Limit,
                      fresh: bool = False) -> chess.engine.InfoDict:
        """One search of `board` (cancel the call to stop it); the process is started when needed
        and once more if it dies. `fresh`: from an empty table and history (`ucinewgame` first)."""
        game = object() if fresh else None    # python-chess sends `ucinewgame` for a game it has not seen
        async with self.lock:
            info = await _restarting(self, self._start, "the adviser's",
                                     lambda engine: engine.analyse(board, limit, game=game))
        pv = info.get("pv") or []
        if not pv or pv[0] not in board.legal_moves:
            raise RobotError("the adviser found no move")
        return info

    async def _start(self) -> None:
        self.engine = await open_engine()
        await self.engine.configure({"EvalFile": review_network()})     # the judge the review corpus checks

    async def suggest(self, board: chess.Board, seconds: float) -> Suggestion:
        info = await self.analyse(board, chess.engine.Limit(time=seconds))
        score = info.get("score")
        cp = score.pov(board.turn).score(mate_score=10000) if score is not None else 0
        return Suggestion(info["pv"][0], clip_score(cp))

    async def evaluate(self, board: chess.Board, nodes: int) -> Evaluation:
        """A search of `nodes` nodes from an empty table and history, so that a position gets the
        same answer whatever was searched before (a review repeats exactly): the score for the
        side to move, the depth and the line."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_TIMEOUT
        while True:
            info = await self.analyse(board, chess.engine.Limit(nodes=nodes), fresh=True)
            if QUICK_ANSWER not in (info.get("string") or ""):
                break
            if loop.time() > deadline:       # a review must not mix in the quick search's answers
                raise RobotError("the adviser's search did not finish loading")
            await asyncio.sleep(QUICK_RETRY_SECONDS)
        score = info.get("score")
        return Evaluation(engine_score(score.relative) if score is not None else 0, info.get("depth"),
                          tuple(info["pv"]))

    async def hint(self, board: chess.Board) -> Suggestion:
        return await self.suggest(board, HINT_SECONDS)

    async def accept_for(self, board: chess.Board, robot: chess.Color) -> bool:
        """Whether the robot, playing `robot`, accepts a draw offer in `board`."""
        suggestion = await self.suggest(board, JUDGE_SECONDS)
        return accepts_draw(score_for(suggestion, board, robot), board)

    async def claim_for(self, board: chess.Board) -> bool:
        """Whether the robot, to move in `board`, claims the draw it may claim."""
        return claims_draw((await self.suggest(board, JUDGE_SECONDS)).score_cp)

    async def close(self) -> None:
        engine, self.engine = self.engine, None
        await close_engine(engine)
