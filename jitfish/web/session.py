"""A browser tab's game on the server: the page's requests, the robot's turns, the flag timer.

A session outlives its WebSocket: a reload or a lost connection attaches the new socket to the
same session and the game goes on. Requests are JSON objects with a `type`; anything wrong gets
an {"type": "error"} answer and changes nothing. Every change sends the whole state to the page.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import Any, Awaitable, Callable

import chess

from jitfish.game import COLOURS, GameError
from jitfish.robot_policy import human_pause
from jitfish.web.game import Game, Settings
from jitfish.web.robot import Adviser, Robot, RobotError

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Session:
    """One game at a time for one tab, with its own robot process (started when first needed)."""

    def __init__(self, adviser: Adviser, settings: Settings, rng: random.Random | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.id = secrets.token_urlsafe(12)
        self.adviser = adviser
        self.rng = rng or random.Random()
        self.now = now
        self.robot: Robot | None = None
        self.send: Send | None = None
        self.last_seen = now()
        self.robot_task: asyncio.Task | None = None
        self.side_tasks: set[asyncio.Task] = set()
        self.flag_timer: asyncio.TimerHandle | None = None
        self.problem = ""                      # why the robot cannot move (shown in the status)
        self.game = Game(settings, self.rng)
        self.game_marker = object()            # tells the engine when a new game starts
        self.games_started = 1                 # tells the page when a new game starts

    # ---- the connection ----

    def attach(self, send: Send) -> None:
        self.send = send
        self.last_seen = self.now()

    def detach(self, send: Send) -> None:
        if self.send is send:
            self.send = None
            self.last_seen = self.now()

    @property
    def attached(self) -> bool:
        return self.send is not None

    async def emit(self, message: dict[str, Any]) -> None:
        send = self.send
        if send is None:
            return
        try:
            await send(message)
        except (ConnectionError, RuntimeError) as exc:   # the socket went away meanwhile
            log.debug("send failed: %s", exc)

    def state(self) -> dict[str, Any]:
        game = self.game.to_json(self.now())
        thinking = self.robot_task is not None and not self.game.over
        if self.problem and not self.game.over:
            game["status"] = self.problem
        return {"type": "state", "session": self.id, "game_id": self.games_started, "thinking": thinking, "game": game}

    async def push_state(self) -> None:
        await self.emit(self.state())

    # ---- the page's requests ----

    async def handle(self, message: dict[str, Any]) -> None:
        """Carry out one request; GameError for a request that cannot be done now."""
        self.last_seen = self.now()
        kind = message.get("type")
        handler = self.HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise GameError(f"unknown request {str(kind)[:40]!r}")
        await handler(self, message)

    async def _new_game(self, message: dict[str, Any]) -> None:
        settings = Settings.from_json(message.get("settings"))
        game = Game(settings, self.rng)            # raises before anything changes
        self._stop_robot()
        self.game, self.game_marker, self.problem = game, object(), ""
        self.games_started += 1
        await self.start()

    async def start(self) -> None:
        """Begin the current game: the robot's process made ready, its first move if it has it."""
        if self.game.human is not None:
            if self.robot is None:
                self.robot = Robot()
            self._spawn(self._prepare_robot(self.game.settings.elo))
        await self._changed()

    async def _prepare_robot(self, elo: int) -> None:
        try:
            await self.robot.set_level(elo)
        except RobotError as exc:
            self.problem = f"The robot could not start: {exc}"
            await self.push_state()

    async def _move(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise GameError("the game is over: start a new one")
        if game.is_robot(game.board.turn):
            raise GameError("wait for the robot's move")
        if "text" in message:
            move = game.parse_text(message["text"])
        else:
            move = game.resolve(message.get("from"), message.get("to"), message.get("promotion"))
        now = self.now()
        if game.check_flag(now):
            await self._changed()
            raise GameError("too late: your time ran out")
        game.play(move, now)
        await self._changed()

    def _person(self) -> chess.Color:
        """Whose request it is: the person against the robot, the side to move between people."""
        game = self.game
        return game.human if game.human is not None else game.board.turn

    def _offerer(self) -> chess.Color:
        """Who offers a draw: the person against the robot; between people the player who has
        just moved (FIDE 9.1.2.2: a draw is offered after making a move), White before any move."""
        game = self.game
        if game.human is not None:
            return game.human
        return not game.board.turn if game.plies else game.board.turn

    async def _resign(self, message: dict[str, Any]) -> None:
        colour = message.get("color")
        if self.game.human is None and colour in COLOURS:
            who = COLOURS[colour]                  # two people: the page says who resigns
        else:
            who = self._person()
        self.game.resign(who, self.now())
        self._stop_robot()
        await self._changed()

    async def _offer_draw(self, message: dict[str, Any]) -> None:
        game = self.game
        game.offer_draw(self._offerer())
        await self._changed()
        if game.human is not None:
            self._spawn(self._robot_answers_draw(game))

    async def _robot_answers_draw(self, game: Game) -> None:
        """Judge the position of the offer; answer if the offer still stands in the same game."""
        try:
            accept = await self.adviser.accept_for(game.board.copy(), not game.human)
        except RobotError as exc:
            accept = False
            log.warning("draw judgement failed: %s", exc)
        if game is not self.game or game.over or game.draw_offer != game.human:
            return
        game.answer_draw(not game.human, accept, self.now())
        if accept:
            self._stop_robot()
        await self.emit({"type": "notice", "message": "Jitfish accepts the draw" if accept else "Jitfish declines the draw"})
        await self._changed()

    async def _answer_draw(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.human is not None:
            raise GameError("the robot answers draw offers itself")
        accept = message.get("accept")
        if not isinstance(accept, bool):
            raise GameError("answer a draw offer with accept true or false")
        if game.draw_offer is None:
            raise GameError("there is no draw offer to answer")
        game.answer_draw(not game.draw_offer, accept, self.now())
        await self._changed()

    async def _claim_draw(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.is_robot(game.board.turn):
            raise GameError("claim a draw on your own move")
        game.claim_draw(self.now())
        await self._changed()

    async def _takeback(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.takeback_plies() == 0:
            raise GameError(game.no_takeback_reason())
        self._stop_robot()
        game.take_back(self.now())
        self.problem = ""
        await self._changed()

    async def _hint(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise GameError("the game is over")
        if game.is_robot(game.board.turn):
            raise GameError("a hint is for your own move")
        self._spawn(self._give_hint(game, game.board.copy()))

    async def _give_hint(self, game: Game, board: chess.Board) -> None:
        """Ask the adviser (a search of its own, so the page's other requests are not held up)."""
        try:
            suggestion = await self.adviser.hint(board)
        except RobotError as exc:
            await self.emit({"type": "error", "message": f"No hint: {exc}"})
            return
        if game is not self.game or game.board.fen() != board.fen():
            return                                   # the position changed meanwhile
        move = suggestion.move
        await self.emit({"type": "hint", "from": chess.square_name(move.from_square),
                         "to": chess.square_name(game.display_target(move)),
                         "uci": move.uci(), "san": board.san(move)})

    async def _ping(self, message: dict[str, Any]) -> None:
        await self.emit({"type": "pong"})

    async def _state(self, message: dict[str, Any]) -> None:
        await self.push_state()

    HANDLERS = {"new_game": _new_game, "move": _move, "resign": _resign, "offer_draw": _offer_draw,
                "answer_draw": _answer_draw, "claim_draw": _claim_draw, "takeback": _takeback,
                "hint": _hint, "ping": _ping, "state": _state}

    # ---- the robot and the clock ----

    async def _changed(self) -> None:
        """After any change: the flag timer, the robot's turn, and the new state to the page."""
        self._arm_flag_timer()
        if self.game.robot_to_move() and self.robot_task is None and not self.problem:
            self.robot_task = asyncio.create_task(self._robot_turn(self.game))
        await self.push_state()

    def _spawn(self, coroutine: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.side_tasks.add(task)
        task.add_done_callback(self._side_task_done)

    def _side_task_done(self, task: asyncio.Task) -> None:
        self.side_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("session task failed", exc_info=task.exception())

    def _stop_robot(self) -> None:
        if self.robot_task is not None:
            self.robot_task.cancel()               # python-chess sends `stop` to the engine
            self.robot_task = None

    async def _robot_turn(self, game: Game) -> None:
        try:
            await self._robot_moves(game)
        except asyncio.CancelledError:
            raise
        except RobotError as exc:
            if game is self.game:
                self.problem = f"The robot stopped: {exc}. Start a new game to try again."
                log.warning("robot: %s", exc)
        except Exception:
            log.exception("the robot's turn failed")
            if game is self.game:
                self.problem = "The robot stopped after an internal error. Start a new game to try again."
        finally:
            if asyncio.current_task() is self.robot_task:
                self.robot_task = None
        if game is self.game:
            await self._changed()

    async def _robot_moves(self, game: Game) -> None:
        """Claim a draw, or search and (after the human-like pause) play, unless the game moved on."""
        board = game.board.copy()
        if game.claimable() and await self._robot_claims(board):
            if game is self.game and game.board.fen() == board.fen() and not game.over:
                game.claim_draw(self.now())
            return
        start = self.now()
        pause = 0.0
        if game.settings.pause:
            pause = human_pause(game.settings.elo, game.clock, board.turn, len(game.plies), start, self.rng)
        move = await self.robot.move(board, game.clock, self.now, pause, self.game_marker)
        wait = pause - (self.now() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        if game is not self.game or game.over or game.board.fen() != board.fen():
            return
        now = self.now()
        if not game.check_flag(now):
            game.play(move, now)

    async def _robot_claims(self, board: chess.Board) -> bool:
        try:
            return await self.adviser.claim_for(board)
        except RobotError as exc:                  # no judgement: play on
            log.warning("draw claim judgement failed: %s", exc)
            return False

    def _arm_flag_timer(self) -> None:
        if self.flag_timer is not None:
            self.flag_timer.cancel()
            self.flag_timer = None
        clock = self.game.clock
        if self.game.over or clock is None or clock.flag_at() is None:
            return
        delay = max(0.0, clock.flag_at() - self.now()) + 0.005
        self.flag_timer = asyncio.get_running_loop().call_later(delay, self._flag_timer_fired)

    def _flag_timer_fired(self) -> None:
        self.flag_timer = None
        if self.game.check_flag(self.now()):
            self._stop_robot()
            self._spawn(self._changed())
        else:
            self._arm_flag_timer()

    async def rest_robot(self) -> None:
        """End the robot's process while nobody plays (the next robot move starts it again)."""
        if self.robot is not None and self.robot_task is None and not self.robot.lock.locked():
            await self.robot.close()

    async def close(self) -> None:
        """End the session: stop its timers and tasks and its robot's process."""
        self._stop_robot()
        if self.flag_timer is not None:
            self.flag_timer.cancel()
        for task in list(self.side_tasks):
            task.cancel()
        if self.robot is not None:
            await self.robot.close()
            self.robot = None
