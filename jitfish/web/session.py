"""A browser tab's game on the server: the page's requests, the robot's turns, the flag timer, the
game's review and its exercises, and the tab's analysis board with its engine.

A session outlives its WebSocket: a reload or a lost connection attaches the new socket to the
same session and the game goes on (the analysis engine does not: it is the tab's, and ends with
its socket). Requests are JSON objects with a `type`; anything wrong gets an {"type": "error"}
answer and changes nothing. Every change of the game sends its whole state to the page.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import Any, Awaitable, Callable

import chess

from checkers.levels import MAX_LEVEL as CHECKERS_MAX_LEVEL
from search.levels import MIN_ELO

from jitfish.checkers_game import checkers_colour
from jitfish.game import COLOURS, GameError
from jitfish.i18n import Msg
from jitfish.robot_policy import human_pause
from jitfish.setup import start_board
from jitfish.web.analysis import AnalysisBoard, Analyst
from jitfish.web.checkers import CheckersWebGame
from jitfish.web.checkers_robot import CheckersAdviser, CheckersRobot
from jitfish.web.board import drag_squares, resolve_drag
from jitfish.web.game import MAX_POSITION_TEXT, Game, Settings
from jitfish.web.review import REVIEW_NODES, GameReview, judge_attempt, review_game
from jitfish.web.robot import Adviser, Robot, RobotError

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]
AnyGame = Game | CheckersWebGame


def make_game(settings: Settings, rng: random.Random) -> AnyGame:
    """The game the settings ask for: chess (jitfish/web/game.py) or checkers (jitfish/web/checkers.py)."""
    return CheckersWebGame(settings, rng) if settings.game == "checkers" else Game(settings, rng)


def chess_only(handler):
    """A request that only a chess game has (the review, its exercises, the analysis board,
    pre-moves): refused in a checkers game."""
    async def refuse_in_checkers(self, message: dict[str, Any]) -> None:
        if isinstance(self.game, CheckersWebGame) and message.get("cancel") is not True and message.get("on") is not False:
            raise GameError(Msg("that is for chess games only"))
        await handler(self, message)
    return refuse_in_checkers


class Session:
    """One game at a time for one tab, with its own robot process (started when first needed)."""

    def __init__(self, adviser: Adviser, settings: Settings, rng: random.Random | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.id = secrets.token_urlsafe(12)
        self.adviser = adviser
        self.rng = rng or random.Random()
        self.now = now
        self.robot: Robot | None = None                         # the chess robot's process
        self.checkers_robot: CheckersRobot | None = None        # the checkers robot (a thread's search)
        self.checkers_adviser: CheckersAdviser | None = None    # hints and draws in checkers
        self.send: Send | None = None
        self.last_seen = now()
        self.robot_task: asyncio.Task | None = None
        self.side_tasks: set[asyncio.Task] = set()
        self.flag_timer: asyncio.TimerHandle | None = None
        self.problem = ""                      # why the robot cannot move (shown in the status)
        self.game: AnyGame = make_game(settings, self.rng)
        self.game_marker = object()            # tells the engine when a new game starts
        self.games_started = 1                 # tells the page when a new game starts
        self.review: GameReview | None = None  # the last review of this game
        self.review_message: dict[str, Any] | None = None
        self.review_task: asyncio.Task | None = None
        self.review_progress = (0, 0)
        self.attempt_pending = False           # a move tried in "learn from your mistakes" is being judged
        self.analysis: AnalysisBoard | None = None
        self.analyst: Analyst | None = None

    # ---- the connection ----

    def attach(self, send: Send) -> None:
        self.send = send
        self.last_seen = self.now()

    def detach(self, send: Send) -> None:
        """The tab's socket has gone: the game stays, the tab's analysis engine ends."""
        if self.send is send:
            self.send = None
            self.last_seen = self.now()
            self.analysis = None
            self._spawn(self._close_analyst())

    async def greet(self) -> None:
        """What a newly attached page needs besides the state: the review, done or under way."""
        if self.review_message is not None:
            await self.emit(self.review_message)
        if self.review_task is not None:
            done, total = self.review_progress
            await self.emit({"type": "review_progress", "done": done, "total": total})

    async def speak_again(self) -> None:
        """Everything the page shows from the server once more: the reader changed the language or
        the notation (the socket says each message in them as it sends it)."""
        await self.push_state()
        await self.greet()
        if self.analysis is not None:
            await self.emit({"type": "analysis", "board": self.analysis.to_json(), "engine": self.analyst is not None})

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
            raise GameError(Msg("unknown request {name}", name=repr(str(kind)[:40])))
        await handler(self, message)

    async def _new_game(self, message: dict[str, Any]) -> None:
        settings = Settings.from_json(message.get("settings"))
        game = make_game(settings, self.rng)       # raises before anything changes
        self._stop_robot()
        self._cancel_review()
        self.review = self.review_message = None
        self.game, self.game_marker, self.problem = game, object(), ""
        self.games_started += 1
        await self.start()

    async def start(self) -> None:
        """Begin the current game: the robot's process made ready, its first move if it has it."""
        if self.game.human is not None and isinstance(self.game, CheckersWebGame):
            if self.checkers_robot is None:
                self.checkers_robot = CheckersRobot(rng=self.rng)
            await self.checkers_robot.set_level(self.game.settings.level)
        elif self.game.human is not None:
            if self.robot is None:
                self.robot = Robot()
            self._spawn(self._prepare_robot(self.game.settings.elo))
        await self._changed()

    async def _prepare_robot(self, elo: int) -> None:
        try:
            await self.robot.set_level(elo)
        except RobotError as exc:
            self.problem = Msg("The robot could not start: {problem}", problem=str(exc))
            await self.push_state()

    async def _move(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise GameError(Msg("the game is over: start a new one"))
        if game.is_robot(game.turn):
            if "text" in message:
                raise GameError(Msg("wait for the robot's move"))
            # The page had not heard yet that the person's last move was taken (a quick second
            # move): what they meant is a pre-move (checkers has none).
            if isinstance(game, CheckersWebGame):
                raise GameError(Msg("wait for the robot's move"))
            game.set_premove(message.get("from"), message.get("to"), message.get("promotion"))
            await self.push_state()
            return
        if "text" in message:
            move = game.parse_text(message["text"])
        elif isinstance(game, CheckersWebGame):
            move = game.resolve(message.get("path"))
        else:
            move = game.resolve(message.get("from"), message.get("to"), message.get("promotion"))
        await self._play_persons_move(game, move)

    async def _play_persons_move(self, game: AnyGame, move: chess.Move | int) -> None:
        """Play the person's legal move now, unless their clock has already run out."""
        now = self.now()
        if game.check_flag(now):
            await self._changed()
            raise GameError(Msg("too late: your time ran out"))
        game.play(move, now)
        await self._changed()

    def _person(self) -> chess.Color:
        """Whose request it is: the person against the robot, the side to move between people."""
        game = self.game
        return game.human if game.human is not None else game.turn

    def _offerer(self) -> chess.Color:
        """Who offers a draw: the person against the robot; between people the player who has
        just moved (FIDE 9.1.2.2: a draw is offered after making a move), White before any move."""
        game = self.game
        if game.human is not None:
            return game.human
        return not game.turn if game.plies else game.turn

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
            if isinstance(game, CheckersWebGame):
                accept = await self._checkers_adviser().accepts_draw(game.board.copy(), checkers_colour(not game.human))
            else:
                accept = await self.adviser.accept_for(game.board.copy(), not game.human)
        except RobotError as exc:
            accept = False
            log.warning("draw judgement failed: %s", exc)
        if game is not self.game or game.over or game.draw_offer != game.human:
            return
        game.answer_draw(not game.human, accept, self.now())
        if accept:
            self._stop_robot()
        await self.emit({"type": "notice", "message": Msg("Jitfish accepts the draw") if accept
                         else Msg("Jitfish declines the draw")})
        await self._changed()

    async def _answer_draw(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.human is not None:
            raise GameError(Msg("the robot answers draw offers itself"))
        accept = message.get("accept")
        if not isinstance(accept, bool):
            raise GameError(Msg("answer a draw offer with accept true or false"))
        if game.draw_offer is None:
            raise GameError(Msg("there is no draw offer to answer"))
        game.answer_draw(not game.draw_offer, accept, self.now())
        await self._changed()

    async def _claim_draw(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.is_robot(game.turn):
            raise GameError(Msg("claim a draw on your own move"))
        game.claim_draw(self.now())
        await self._changed()

    async def _takeback(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.takeback_plies() == 0:
            raise GameError(game.no_takeback_reason())
        self._stop_robot()
        game.take_back(self.now())
        game.premove = None
        self.problem = ""
        await self._changed()

    async def _hint(self, message: dict[str, Any]) -> None:
        game = self.game
        if game.over:
            raise GameError(Msg("the game is over"))
        if game.is_robot(game.turn):
            raise GameError(Msg("a hint is for your own move"))
        if isinstance(game, CheckersWebGame):
            self._spawn(self._give_checkers_hint(game, game.board.copy()))
        else:
            self._spawn(self._give_hint(game, game.board.copy()))

    def _checkers_adviser(self) -> CheckersAdviser:
        if self.checkers_adviser is None:
            self.checkers_adviser = CheckersAdviser()
        return self.checkers_adviser

    async def _give_checkers_hint(self, game: CheckersWebGame, board) -> None:
        move = await self._checkers_adviser().hint(board)
        if game is not self.game or game.board.fen() != board.fen() or not move:
            return                                   # the position changed meanwhile
        await self.emit({"type": "hint", "path": board.squares(move), "text": board.notation(move)})

    async def _give_hint(self, game: Game, board: chess.Board) -> None:
        """Ask the adviser (a search of its own, so the page's other requests are not held up)."""
        try:
            suggestion = await self.adviser.hint(board)
        except RobotError as exc:
            await self.emit({"type": "error", "message": Msg("No hint: {problem}", problem=str(exc))})
            return
        if game is not self.game or game.board.fen() != board.fen():
            return                                   # the position changed meanwhile
        move = suggestion.move
        await self.emit({"type": "hint", "from": chess.square_name(move.from_square),
                         "to": chess.square_name(game.display_target(move)),
                         "uci": move.uci(), "san": board.san(move)})

    async def _premove(self, message: dict[str, Any]) -> None:
        """Queue the person's move while the robot thinks (or drop it: `cancel`). One that arrives
        just after the robot has moved (the page had not heard yet) is what a queued pre-move would
        have been: played now if legal, else dropped with a notice."""
        game = self.game
        if message.get("cancel") is True:
            game.premove = None
        elif game.human is not None and not game.over and game.turn == game.human:
            await self._late_premove(game, message)
            return
        else:
            game.set_premove(message.get("from"), message.get("to"), message.get("promotion"))
        await self.push_state()

    async def _late_premove(self, game: Game, message: dict[str, Any]) -> None:
        origin, target, promotion = message.get("from"), message.get("to"), message.get("promotion")
        drag_squares(origin, target)                   # not even squares: an error, not a dropped pre-move
        try:
            move = game.resolve(origin, target, promotion if promotion else "q")
        except GameError:
            await self.emit({"type": "notice", "message": Msg("Pre-move cancelled: not legal after that move")})
            await self.push_state()
            return
        await self._play_persons_move(game, move)

    # ---- the review and its exercises ----

    async def _review(self, message: dict[str, Any]) -> None:
        """Review the game as it stands (its moves so far), on the shared adviser."""
        game = self.game
        if not game.plies:
            raise GameError(Msg("there is no move to review yet"))
        if self.review_task is not None:
            raise GameError(Msg("the review is under way"))
        moves = [ply.move for ply in game.plies]
        if self.review is not None and self.review.moves == moves and self.review_message is not None:
            await self.emit(self.review_message)          # already reviewed as it stands
            return
        self.review_progress = (0, len(moves))
        await self.emit({"type": "review_progress", "done": 0, "total": len(moves)})
        self.review_task = asyncio.create_task(self._run_review(game, moves))

    async def _run_review(self, game: Game, moves: list[chess.Move]) -> None:
        async def progress(done: int, total: int) -> None:
            self.review_progress = (done, total)
            await self.emit({"type": "review_progress", "done": done, "total": total})

        async def evaluate(board: chess.Board):
            return await self.adviser.evaluate(board, REVIEW_NODES)

        try:
            review = await review_game(game.root, moves, evaluate, progress, REVIEW_NODES)
        except RobotError as exc:
            if game is self.game:
                await self.emit({"type": "review_stopped", "message": Msg("The review stopped: {problem}",
                                                                          problem=str(exc))})
            return
        except Exception:
            log.exception("the review failed")
            await self.emit({"type": "review_stopped",
                             "message": Msg("The review stopped after an internal error.")})
            return
        finally:
            if asyncio.current_task() is self.review_task:
                self.review_task = None
        if game is not self.game:
            return
        review.engine = self.adviser.name                 # as the engine names itself (`id name`)
        self.review = review
        self.review_message = {"type": "review", "game_id": self.games_started,
                               "review": review.to_json(game.pgn(game.pgn_headers()))}
        await self.emit(self.review_message)

    def _cancel_review(self) -> bool:
        task, self.review_task = self.review_task, None
        if task is None:
            return False
        task.cancel()                                  # python-chess sends `stop` to the adviser
        return True

    async def _review_cancel(self, message: dict[str, Any]) -> None:
        if not self._cancel_review():
            raise GameError(Msg("no review is under way"))
        await self.emit({"type": "review_stopped", "message": Msg("Review cancelled"), "cancelled": True})

    async def _learn_try(self, message: dict[str, Any]) -> None:
        """A move tried instead of a mistake of the game: judged by the adviser (in a task of its
        own, so that the page's other requests are not held up)."""
        if self.review is None:
            raise GameError(Msg("review the game first"))
        try:
            review = self.review.review_of(message.get("ply"))
        except ValueError as exc:
            raise GameError(exc.args[0] if exc.args else str(exc)) from None
        if not review.exercise:
            raise GameError(Msg("that move was not a mistake"))
        move = resolve_drag(review.before, message.get("from"), message.get("to"), message.get("promotion"))
        if self.attempt_pending:
            raise GameError(Msg("wait for the answer to your last try"))
        self.attempt_pending = True
        self._spawn(self._judge_attempt(self.review, review, move))

    async def _judge_attempt(self, game_review: GameReview, review, move: chess.Move) -> None:
        try:
            attempt = await judge_attempt(review, move, lambda board: self.adviser.evaluate(board, REVIEW_NODES))
        except RobotError as exc:
            await self.emit({"type": "error", "message": Msg("No judgement: {problem}", problem=str(exc))})
            return
        finally:
            self.attempt_pending = False
        if game_review is not self.review:
            return
        await self.emit({"type": "learn_result", "ply": review.ply, "uci": move.uci(),
                         "san": review.before.san(move), "accepted": attempt.accepted, "message": attempt.message})

    # ---- the analysis board ----

    async def _analysis(self, message: dict[str, Any]) -> None:
        """Open the analysis board at a position of the game (`ply`, the current one without it)
        or close it (`on` false)."""
        if message.get("on") is False:
            self.analysis = None
            await self._close_analyst()
            await self.emit({"type": "analysis", "board": None, "engine": False})
            return
        game = self.game
        ply = message.get("ply", len(game.plies))
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(game.plies):
            raise GameError(Msg("no such position in the game"))
        board = game.root.copy()
        for record in game.plies[:ply]:
            board.push(record.move)
        self.analysis = AnalysisBoard(board, Msg("the game, move {number}, White to move", number=board.fullmove_number)
                                      if board.turn == chess.WHITE else
                                      Msg("the game, move {number}, Black to move", number=board.fullmove_number))
        await self._analysis_changed()

    async def _analysis_position(self, message: dict[str, Any]) -> None:
        """Open the analysis board at a pasted FEN or PGN (a PGN's last position)."""
        text = message.get("position")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_POSITION_TEXT:
            raise GameError(Msg("paste a FEN or a PGN of at most {count} characters", count=MAX_POSITION_TEXT))
        board = start_board(text, self.game.settings.chess960, self.rng)
        self.analysis = AnalysisBoard(board, Msg("a pasted position"))
        await self._analysis_changed()

    def _explored(self) -> AnalysisBoard:
        if self.analysis is None:
            raise GameError(Msg("open the analysis board first"))
        return self.analysis

    async def _analysis_move(self, message: dict[str, Any]) -> None:
        self._explored().play(message.get("from"), message.get("to"), message.get("promotion"))
        await self._analysis_changed()

    async def _analysis_goto(self, message: dict[str, Any]) -> None:
        self._explored().go(message.get("index"))
        await self._analysis_changed()

    async def _engine(self, message: dict[str, Any]) -> None:
        """Switch the analysis engine on (a process of this tab's) or off (the process ends)."""
        on = message.get("on")
        if not isinstance(on, bool):
            raise GameError(Msg("switch the engine with on true or false"))
        if on:
            self._explored()
            if self.analyst is None:
                self.analyst = Analyst(self.emit)
        else:
            await self._close_analyst()
        await self._analysis_changed()

    async def _analysis_changed(self) -> None:
        """The analysis board to the page, and its engine (if on) restarted on the new position."""
        analysis = self.analysis
        await self.emit({"type": "analysis", "board": analysis.to_json() if analysis else None,
                         "engine": self.analyst is not None})
        if analysis is not None and self.analyst is not None:
            self._spawn(self._analyse(self.analyst, analysis.board))

    async def _analyse(self, analyst: Analyst, board: chess.Board) -> None:
        """Restart the tab's engine on `board` (a task: a process may take a while to start)."""
        try:
            await analyst.show(board)
        except RobotError as exc:
            if analyst is self.analyst:
                await self._close_analyst()
                await self.emit({"type": "error", "message": Msg("The analysis engine could not start: {problem}",
                                                                 problem=str(exc))})
                await self.emit({"type": "analysis", "board": self.analysis.to_json() if self.analysis else None,
                                 "engine": False})

    async def _close_analyst(self) -> None:
        analyst, self.analyst = self.analyst, None
        if analyst is not None:
            await analyst.close()

    async def _ping(self, message: dict[str, Any]) -> None:
        await self.emit({"type": "pong"})

    async def _state(self, message: dict[str, Any]) -> None:
        await self.push_state()

    HANDLERS = {"new_game": _new_game, "move": _move, "resign": _resign, "offer_draw": _offer_draw,
                "answer_draw": _answer_draw, "claim_draw": _claim_draw, "takeback": _takeback,
                "hint": _hint, "premove": chess_only(_premove), "review": chess_only(_review),
                "review_cancel": _review_cancel, "learn_try": chess_only(_learn_try),
                "analysis": chess_only(_analysis), "analysis_position": chess_only(_analysis_position),
                "analysis_move": chess_only(_analysis_move), "analysis_goto": chess_only(_analysis_goto),
                "engine": chess_only(_engine), "ping": _ping, "state": _state}

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
                self.problem = Msg("The robot stopped: {problem}. Start a new game to try again.", problem=str(exc))
                log.warning("robot: %s", exc)
        except Exception:
            log.exception("the robot's turn failed")
            if game is self.game:
                self.problem = Msg("The robot stopped after an internal error. Start a new game to try again.")
        finally:
            if asyncio.current_task() is self.robot_task:
                self.robot_task = None
        if game is self.game:
            await self._changed()

    async def _robot_moves(self, game: AnyGame) -> None:
        """Claim a draw, or search and (after the human-like pause) play, unless the game moved on."""
        if isinstance(game, CheckersWebGame):
            await self._checkers_robot_moves(game)
            return
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
            self._play_premove(game, now)

    async def _checkers_robot_moves(self, game: CheckersWebGame) -> None:
        """The checkers robot's turn: claim a draw it may claim unless it stands better, else
        search (a thread) and, after the pause of a level below full strength, play."""
        board = game.board.copy()
        if game.claimable() and await self._checkers_adviser().claims_draw(board.copy()):
            if game is self.game and game.board.fen() == board.fen() and not game.over:
                game.claim_draw(self.now())
            return
        start = self.now()
        pause = 0.0
        if game.settings.pause and game.settings.level < CHECKERS_MAX_LEVEL:
            pause = human_pause(MIN_ELO, game.clock, game.turn, len(game.plies), start, self.rng)
        move = await self.checkers_robot.move(board, game.clock, self.now, pause, self.game_marker)
        wait = pause - (self.now() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        if game is not self.game or game.over or game.board.fen() != board.fen() or not move:
            return
        now = self.now()
        if not game.check_flag(now):
            game.play(move, now)

    def _play_premove(self, game: Game, now: float) -> None:
        """The person's pre-move, played at once (at the same moment) if it is legal now."""
        queued = game.premove
        move = game.take_premove()
        if move is not None:
            game.play(move, now)
        elif queued is not None and not game.over:
            self._spawn(self.emit({"type": "notice", "message": Msg("Pre-move cancelled: not legal after that move")}))

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
        for search in (self.checkers_robot, self.checkers_adviser):
            if search is not None and self.robot_task is None and not search.lock.locked():
                await search.close()

    async def close(self) -> None:
        """End the session: stop its timers and tasks, its robot's and its analysis engine's processes."""
        self._stop_robot()
        self._cancel_review()
        await self._close_analyst()
        if self.flag_timer is not None:
            self.flag_timer.cancel()
        for task in list(self.side_tasks):
            task.cancel()
        if self.robot is not None:
            await self.robot.close()
            self.robot = None
        for search in (self.checkers_robot, self.checkers_adviser):
            if search is not None:
                await search.close()
        self.checkers_robot = self.checkers_adviser = None
