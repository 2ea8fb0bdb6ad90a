"""The checkers robot and adviser of `jitfish web`: the checkers search (checkers/driver.py) run
in a worker thread of the server's process. Its kernels release the GIL, so the server keeps
answering while it thinks; cancelling a call stops the search (and waits the moment it takes to
end), so a take-back or a new game never leaves a search running on the same tables.

`CheckersRobot` plays one game's moves at its level (1-10, checkers/levels.py, with fresh noise
each move); `CheckersAdviser` is a full-strength search of the session's own for hints and for
judging draw offers and claims, kept apart so that its searches never leak into a level's tables.
"""

from __future__ import annotations

import asyncio
import random
from typing import Callable

from checkers.board import Board
from checkers.driver import Limits, Result, Searcher
from checkers.levels import MAX_LEVEL, apply_level

from jitfish.clock import Clock, engine_times
from jitfish.robot_policy import HINT_SECONDS, JUDGE_SECONDS

TT_ENTRIES = 1 << 18              # 4 MB of table a searcher (a session may hold two)
UNTIMED_MS = 1500                 # full strength without a clock thinks this long a move
RESERVE_SECONDS = 0.05            # kept off the robot's clock for the server
ACCEPT_MARGIN = 30                # the robot takes a draw when the person is this much better (1/100 man)


class _Search:
    """One searcher used by one search at a time, from a worker thread, stoppable by cancelling."""

    def __init__(self) -> None:
        self.searcher: Searcher | None = None
        self.lock = asyncio.Lock()

    async def run(self, board: Board, limits: Limits, prepare: Callable[[Searcher], None] = lambda s: None) -> Result:
        async with self.lock:
            if self.searcher is None:
                self.searcher = await asyncio.to_thread(Searcher, TT_ENTRIES)
            searcher = self.searcher
            prepare(searcher)
            searcher.prepare()
            work = asyncio.ensure_future(asyncio.to_thread(searcher.run, board, limits, prepared=True))
            try:
                return await asyncio.shield(work)
            except asyncio.CancelledError:
                searcher.stop()
                await asyncio.wait([work])             # the tables are free again before the lock is
                raise

    async def close(self) -> None:
        if self.searcher is not None:
            self.searcher.stop()
        self.searcher = None


class CheckersRobot(_Search):
    """The robot of one checkers game, at its level."""

    def __init__(self, level: int = MAX_LEVEL, rng: random.Random | None = None) -> None:
        super().__init__()
        self.level = level
        self.rng = rng or random.Random()
        self.marker: object | None = None

    async def set_level(self, level: int) -> None:
        self.level = level

    async def move(self, board: Board, clock: Clock | None, now: Callable[[], float], reserve: float,
                   marker: object) -> int:
        """The robot's move in `board` (a copy of the game's board; its history counts for the
        repetitions), thinking within the clock less `reserve` seconds (a pause charged to it)."""
        if marker is not self.marker and self.searcher is not None:
            self.searcher.clear()                     # a new game: nothing learnt carries over
        self.marker = marker
        if clock is not None and clock.running is not None:
            times = engine_times(clock, now(), reserve + RESERVE_SECONDS)
            limits = Limits(wtime=times["wtime"], btime=times["btime"], winc=times["winc"], binc=times["binc"],
                            movestogo=times["movestogo"])
        elif clock is not None:                       # the first move, before the clocks start
            limits = Limits(movetime=min(UNTIMED_MS, max(100, int(clock.control.periods[0].seconds * 1000 / 60))))
        else:
            limits = Limits(movetime=UNTIMED_MS)
        result = await self.run(board, limits, lambda searcher: apply_level(searcher, self.level, self.rng))
        return result.best


class CheckersAdviser(_Search):
    """Full strength, for hints and for judging draws."""

    async def best(self, board: Board, seconds: float = HINT_SECONDS) -> Result:
        def full_strength(searcher: Searcher) -> None:
            apply_level(searcher, MAX_LEVEL)
        return await self.run(board, Limits(movetime=max(50, int(seconds * 1000))), full_strength)

    async def hint(self, board: Board) -> int:
        return (await self.best(board)).best

    async def score_for(self, board: Board, colour: int) -> int:
        """The position's score for the checkers colour `colour`, in hundredths of a man."""
        result = await self.best(board, JUDGE_SECONDS)
        return result.score if board.turn == colour else -result.score

    async def accepts_draw(self, board: Board, robot: int) -> bool:
        """Whether the robot (colour `robot`) takes the person's draw offer: when it stands worse."""
        return await self.score_for(board, robot) < -ACCEPT_MARGIN

    async def claims_draw(self, board: Board) -> bool:
        """Whether the side to move (the robot) claims the draw it may claim: unless it stands better."""
        return await self.score_for(board, board.turn) <= 0

