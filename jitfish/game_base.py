"""What a game of either board has besides its rules: who plays (a person against the robot, or
two people), the clock pressed by each move, the result and how the game ended, draw offers, and
take-backs with the clocks put back. jitfish/game.py (chess) and jitfish/checkers_game.py
(checkers) add the board, the moves, their rules' endings, claims and records.

A subclass keeps `board` (with `pop()` taking back the last move), `turn` (python-chess's colour,
True for White, in both games), `plies` (records with `clock_before`: both clocks when the position
arose, None for a set-up's moves) and `first_live_ply`, and calls `_press_clock` and `_moved`
around each move it plays. No I/O: the caller reads `now` from a monotonic clock.
"""

from __future__ import annotations

import datetime
from typing import Any

import chess

from jitfish.clock import Clock, SideState, TimeControl
from jitfish.i18n import Msg


def colour_name(colour: chess.Color) -> str:
    return "white" if colour == chess.WHITE else "black"


class GameError(ValueError):
    """A request the game cannot carry out: its argument, a `Msg` (or text), is for the player;
    `str()` is the English."""


class BaseGame:
    """A game in progress or finished, against the robot (`human` is the person's colour) or
    between two people (`human` None)."""

    board: Any
    plies: list[Any]
    first_live_ply: int

    def __init__(self, human: chess.Color | None, control: TimeControl, takeback: bool) -> None:
        self.human = human
        self.control = control
        self.takeback = takeback
        self.clock = Clock(control) if control.timed else None
        self.result = "*"
        self.reason: Msg | str = ""
        self.termination = ""                       # the record's Termination: normal, time forfeit
        self.draw_offer: chess.Color | None = None
        self.date = datetime.date.today()

    # ---- who plays ----

    @property
    def turn(self) -> chess.Color:
        raise NotImplementedError

    def is_robot(self, colour: chess.Color) -> bool:
        return self.human is not None and colour != self.human

    @property
    def over(self) -> bool:
        return self.result != "*"

    def robot_to_move(self) -> bool:
        return not self.over and self.is_robot(self.turn)

    def standing_json(self, now: float) -> dict[str, Any]:
        """What the page shows of where the game stands, in either game: the clocks, the result
        and its reason, a draw offer, the draw the side to move may claim, a take-back."""
        return {"clock": None if self.clock is None else self.clock.snapshot(now),
                "result": self.result, "reason": self.reason, "over": self.over,
                "draw_offer": None if self.draw_offer is None else colour_name(self.draw_offer),
                "claimable": self.claimable(), "can_takeback": self.takeback_plies() > 0}

    def claimable(self) -> str | None:
        raise NotImplementedError

    # ---- around a move ----

    def _press_clock(self, mover: chess.Color, now: float) -> tuple[tuple[SideState, SideState] | None, float | None]:
        """Both clocks before the move, and the mover's time after it (None, None untimed). The
        first move is not timed: the clocks start with it."""
        if self.clock is None:
            return None, None
        before = self.clock.state()
        if self.clock.running is None:
            self.clock.start(mover, now)
        self.clock.press(mover, now)
        return before, self.clock.sides[mover].remaining

    def _moved(self, mover: chess.Color, now: float) -> None:
        """After a move: it declines the opponent's draw offer; the game ends if the position
        ends it (`_check_position_end`), and then the clocks stop."""
        if self.draw_offer is not None and self.draw_offer != mover:
            self.draw_offer = None
        self._check_position_end()
        if self.over and self.clock is not None:
            self.clock.stop(now)

    def _check_position_end(self) -> None:
        raise NotImplementedError

    def _end(self, result: str, reason: Msg, termination: str, now: float | None = None) -> None:
        """Record the end (the reason as the result line says it); with `now`, stop the clock too."""
        self.result, self.reason, self.termination = result, reason, termination
        self.draw_offer = None
        if now is not None and self.clock is not None:
            self.clock.stop(now)

    def _flagged(self, now: float) -> chess.Color | None:
        """The side whose time has run out (the clocks then stop), or None."""
        if self.over or self.clock is None:
            return None
        flagged = self.clock.flagged(now)
        if flagged is not None:
            self.clock.stop(now)
        return flagged

    # ---- draw offers and take-backs ----

    def offer_draw(self, colour: chess.Color) -> None:
        """The colour offers a draw; it stands until the opponent answers or moves."""
        if self.over:
            raise GameError(Msg("the game is over"))
        if self.draw_offer == colour:
            raise GameError(Msg("your draw offer stands: wait for the answer"))
        if self.draw_offer is not None:
            raise GameError(Msg("a draw has been offered to you: accept or decline it"))
        self.draw_offer = colour

    def answer_draw(self, colour: chess.Color, accept: bool, now: float = 0.0) -> None:
        """The opponent of the side that offered accepts or declines."""
        if self.draw_offer is None or self.draw_offer == colour:
            raise GameError(Msg("there is no draw offer to answer"))
        if accept:
            self._end("1/2-1/2", Msg("Draw by agreement"), "normal", now)
        self.draw_offer = None

    def takeback_plies(self) -> int:
        """How many plies a take-back removes now (0: none possible): against the robot, the
        person's last move and the robot's answer (only the person's move while the robot
        thinks); between people, the last move. A finished game is never taken back, however it
        ended: its end stands (its moves can still be replayed and analysed)."""
        if not self.takeback or self.over:
            return 0
        if self.human is None:
            return 1 if self.plies else 0
        plies = 1 if self.turn != self.human else 2
        return plies if len(self.plies) >= plies else 0

    def no_takeback_reason(self) -> Msg:
        if not self.takeback:
            return Msg("take-backs are off in this game")
        if self.over:
            return Msg("the game is over: a finished game is not taken back (review or analyse it instead)")
        return Msg("nothing to take back")

    def take_back(self, now: float = 0.0) -> int:
        """Take back `takeback_plies()` plies, the clocks as they were; the number taken back."""
        plies = self.takeback_plies()
        if plies == 0:
            raise GameError(self.no_takeback_reason())
        state = None
        for _ in range(plies):
            ply = self.plies.pop()
            self.board.pop()
            state = ply.clock_before
        self.result, self.reason, self.termination = "*", "", ""
        self.draw_offer = None
        if self.clock is not None:
            if state is None:                       # a position of the set-up: the clocks as at the start
                first = self.clock.control.periods[0].seconds
                state = (SideState(first), SideState(first))
            self.clock.restore(state, self.turn, now)
            if len(self.plies) <= self.first_live_ply:
                self.clock.running = None           # the first move is again untimed
        return plies
