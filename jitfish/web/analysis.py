"""The analysis board of a tab: a position from the game (or a FEN or PGN) where both sides' moves
may be tried, and the tab's own engine on it: a Jitfish process started when switched on, a
search that runs until stopped (`go infinite`, MultiPV 3), restarted on every move, its depth
and three best lines sent to the page as they come. The process is the tab's: it is ended when
the engine is switched off, when the analysis board closes and when the tab's socket goes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Awaitable, Callable

import chess
import chess.engine

from jitfish.game import ENDINGS, GameError, colour_name
from jitfish.i18n import N_, Msg
from jitfish.review import engine_score, san_line, white_text
from jitfish.web.board import arrow, check_square, legal_json, material_json, resolve_drag
from jitfish.web.review import chances
from jitfish.web.robot import RobotError, close_engine, open_engine

log = logging.getLogger(__name__)

LINES = 3                         # MultiPV: the best lines shown
SEND_EVERY = 0.25                 # seconds between two updates of the lines to the page
LINE_PLIES = 10                   # moves of each line shown
MAX_LINE = 200                    # moves an analysis line may grow to

Emit = Callable[[dict[str, Any]], Awaitable[None]]


class AnalysisBoard:
    """A position to explore and the line of moves tried from it (`index` of them shown)."""

    def __init__(self, start: chess.Board, origin: Msg) -> None:
        self.start = start
        self.origin = origin                      # what the page says it started from
        self.line: list[chess.Move] = []
        self.index = 0

    @property
    def board(self) -> chess.Board:
        board = self.start.copy()
        for move in self.line[:self.index]:
            board.push(move)
        return board

    def play(self, origin: Any, target: Any, promotion: Any = None) -> None:
        """A move from the page's drag on the position shown; the moves after it are dropped."""
        board = self.board
        if board.is_game_over(claim_draw=False):
            raise GameError(Msg("the game is over in this position: go back a move"))
        if self.index >= MAX_LINE:
            raise GameError(Msg("an analysis line holds at most {count} moves", count=MAX_LINE))
        move = resolve_drag(board, origin, target, promotion)
        del self.line[self.index:]
        self.line.append(move)
        self.index += 1

    def go(self, index: Any) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= len(self.line):
            raise GameError(Msg("no such move in the analysis line"))
        self.index = index

    def to_json(self) -> dict[str, Any]:
        board = self.board
        over = board.outcome(claim_draw=False)
        legal, promotions = legal_json(board) if over is None else ({}, [])
        sans = san_line(self.start, self.line, len(self.line))
        last = self.line[self.index - 1] if self.index else None
        before = self.start.copy()
        for move in self.line[:self.index - 1]:
            before.push(move)
        return {"fen": board.fen(), "turn": colour_name(board.turn), "legal": legal, "promotions": promotions,
                "start_fen": self.start.fen(), "origin": self.origin, "line": sans, "index": self.index,
                "last": None if last is None else arrow(before, last), "check": check_square(board),
                "material": material_json(board),
                "over": None if over is None else _ending(over)}


def _ending(outcome: chess.Outcome) -> Msg:
    if outcome.winner is not None:
        return Msg("Checkmate: White wins") if outcome.winner == chess.WHITE else Msg("Checkmate: Black wins")
    return Msg(ENDINGS.get(outcome.termination, N_("Draw")))


class Analyst:
    """The tab's engine: one process, one search at a time, its lines sent through `emit`."""

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.engine: chess.engine.UciProtocol | None = None
        self.task: asyncio.Task | None = None
        self.lock = asyncio.Lock()
        self.board: chess.Board | None = None

    @property
    def pid(self) -> int | None:
        """The process's id (for the tests that check it is gone)."""
        return self.engine.transport.get_pid() if self.engine is not None else None

    async def show(self, board: chess.Board) -> None:
        """Search `board` until told otherwise (the search before is stopped first)."""
        async with self.lock:
            await self._stop()
            self.board = board.copy()
            if board.is_game_over(claim_draw=False):
                await self.emit({"type": "engine", "fen": board.fen(), "depth": 0, "lines": [], "bar": None})
                return
            if self.engine is None:
                self.engine = await open_engine()
            try:
                analysis = await self.engine.analysis(board, multipv=LINES)
            except chess.engine.EngineError as exc:      # the process died: the next show starts another
                engine, self.engine = self.engine, None
                await close_engine(engine)
                raise RobotError(f"the analysis engine failed: {exc}") from None
            self.task = asyncio.create_task(self._follow(board.copy(), analysis))

    async def _follow(self, board: chess.Board, analysis: chess.engine.AnalysisResult) -> None:
        """Send the lines as the search deepens: each set once all its lines have reached the same
        depth (so the three never mix two iterations), at most every SEND_EVERY seconds. A bound
        (an aspiration search failing high or low, reported after a second) is no line: its PV is
        often the one move tried, and it showed as a third line of a single move at +0.00."""
        wanted = min(LINES, board.legal_moves.count())
        pending: dict[int, dict[int, dict[str, Any]]] = {}
        complete: dict[int, dict[str, Any]] = {}
        sent = 0.0
        try:
            async for info in analysis:
                if not info.get("pv") or "score" not in info or "depth" not in info \
                        or info.get("lowerbound") or info.get("upperbound"):
                    continue
                depth = info["depth"]
                pending.setdefault(depth, {})[info.get("multipv", 1)] = info
                if len(pending[depth]) < wanted:
                    continue
                complete = pending.pop(depth)
                for older in [d for d in pending if d <= depth]:
                    del pending[older]
                now = time.monotonic()
                if now - sent >= SEND_EVERY:
                    sent = now
                    await self.emit(self._message(board, complete))
            if complete:
                await self.emit(self._message(board, complete))
        except chess.engine.EngineTerminatedError:
            log.warning("the analysis engine stopped")
            self.engine = None
        finally:
            analysis.stop()

    @staticmethod
    def _message(board: chess.Board, lines: dict[int, dict[str, Any]]) -> dict[str, Any]:
        shown = []
        for number in sorted(lines)[:LINES]:
            info = lines[number]
            score = engine_score(info["score"].relative)
            move = info["pv"][0]
            if not board.is_legal(move):
                continue
            shown.append({**arrow(board, move), "multipv": number, "score": white_text(score, board.turn),
                          "depth": info.get("depth"), "san": " ".join(san_line(board, info["pv"], LINE_PLIES)),
                          "bar": chances(score, board.turn)})
        best = lines[min(lines)]
        return {"type": "engine", "fen": board.fen(), "depth": best.get("depth", 0), "nodes": best.get("nodes"),
                "lines": shown, "bar": shown[0]["bar"] if shown else None}

    async def _stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()                          # python-chess sends `stop`
            try:
                await task
            except (asyncio.CancelledError, chess.engine.EngineError):
                pass

    async def stop(self) -> None:
        async with self.lock:
            await self._stop()

    async def close(self) -> None:
        """Stop the search and end the process."""
        async with self.lock:
            await self._stop()
            engine, self.engine = self.engine, None
            await close_engine(engine)
