"""The chess clock: time controls, both players' running clocks, the flag and what an engine is told.

One clock for everything that keeps time: the browser game (`jitfish web`), the match tools
(tools/matches) and the tests. Pure Python, no I/O: times are seconds (floats) and `now` is any
monotonic time the caller reads (time.monotonic() in a server or a match, plain numbers in the
tests), so every rule can be checked without waiting.

Kinds of time control, all built from periods and one increment mode:
- none: no clocks;
- sudden death: one period, no increment;
- Fischer: a fixed increment added after each move;
- Bronstein delay: after each move the time used is given back, up to the delay;
- simple (US) delay: the clock waits the delay before it starts counting down;
- N moves in T: periods of so many moves; completing one adds the next period's time to what is
  left (carry-over); the last period with a move count repeats, one without lasts the game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from typing import Any

import chess
import chess.engine

from jitfish.i18n import N_, NP_, Msg, Plural

MODES = ("none", "fischer", "bronstein", "delay")   # how the per-move seconds of a period count
MAX_PERIODS = 3
MAX_PERIOD_SECONDS = 6 * 3600.0                     # 6 hours for one period is plenty
MAX_INCREMENT = 600.0
MAX_PERIOD_MOVES = 200
MIN_PERIOD_SECONDS = 15.0                           # the shortest period a page may set (lichess's ¼ minute)
MIN_ENGINE_MS = 10                                  # an engine is never told it has no time

# The command line's time controls: [moves/]base[+increment], base in seconds or minutes:seconds.
_TEXT = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?|\d+:\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?$")


class ClockError(ValueError):
    """A time control that cannot be played (what is wrong is in the message)."""


@dataclass(frozen=True)
class Period:
    seconds: float               # added to the clock when the period starts
    moves: int | None = None     # moves to make in the period (None: the rest of the game)
    increment: float = 0.0       # per-move seconds (Fischer increment or delay, by the mode)


@dataclass(frozen=True)
class TimeControl:
    mode: str = "none"
    periods: tuple[Period, ...] = ()

    @property
    def timed(self) -> bool:
        return self.mode != "none"

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """A Fischer (or sudden-death) control from command-line text: '10+0.1', '60', '1:30+1'
        (base[+increment]) or '40/20', '40/20+0.5' (moves/base[+increment], the period repeating).
        ClockError (a ValueError) for anything else."""
        match = _TEXT.match(text.strip())
        if not match:
            raise ClockError(f"bad time control {text!r} (expected e.g. 10+0.1, 40/20 or 1:30+1)")
        moves, base_text, increment = match.groups()
        if ":" in base_text:
            minutes, seconds = base_text.split(":")
            base = int(minutes) * 60 + float(seconds)
        else:
            base = float(base_text)
        if base <= 0:
            raise ClockError(f"time control {text!r} has no time")
        if moves is not None and int(moves) <= 0:
            raise ClockError(f"time control {text!r} has a zero move count")
        return cls("fischer", (Period(base, int(moves) if moves else None, float(increment or 0)),))

    def kind(self) -> str:
        """What players call it: none, sudden death, Fischer, Bronstein, delay, moves."""
        if not self.timed:
            return "none"
        if len(self.periods) > 1 or self.periods[0].moves is not None:
            return "moves"
        if self.mode == "fischer":
            return "fischer" if self.periods[0].increment > 0 else "sudden"
        return self.mode

    def describe(self) -> Msg:
        """A short human label: '5 min + 3 s', '40 moves in 90 min, then 30 min + 30 s', '5 min, 3 s
        delay' (`str()` of it is the English)."""
        if not self.timed:
            return Msg("no clock")
        parts = [self._describe_period(period) for period in self.periods]
        text = parts[-1]
        for part in reversed(parts[:-1]):
            text = Msg("{first}, then {rest}", first=part, rest=text)
        return text

    def _describe_period(self, period: Period) -> Msg:
        time = _minutes(period.seconds)
        kind = self.mode if period.increment else "none"
        if period.moves is None:
            templates = {"none": N_("{time}"), "fischer": N_("{time} + {increment}"),
                         "bronstein": N_("{time}, {increment} Bronstein delay"),
                         "delay": N_("{time}, {increment} delay")}
            return Msg(templates[kind], time=time, increment=_seconds(period.increment))
        counted = {"none": NP_("{moves} move in {time}", "{moves} moves in {time}"),
                   "fischer": NP_("{moves} move in {time} + {increment}", "{moves} moves in {time} + {increment}"),
                   "bronstein": NP_("{moves} move in {time}, {increment} Bronstein delay",
                                 "{moves} moves in {time}, {increment} Bronstein delay"),
                   "delay": NP_("{moves} move in {time}, {increment} delay",
                             "{moves} moves in {time}, {increment} delay")}
        one, many = counted[kind]
        return Plural(one, many, "moves", moves=period.moves, time=time, increment=_seconds(period.increment))

    def pgn_tag(self) -> str:
        """The PGN TimeControl tag ('-' without a clock; '300+2'; '40/5400:1800+30'). The PGN
        standard has no delay: a delay mode writes the base times, and `pgn_delay_tag` the rest."""
        if not self.timed:
            return "-"
        fields = []
        for period in self.periods:
            text = f"{period.moves}/{_whole(period.seconds)}" if period.moves else _whole(period.seconds)
            if period.increment and self.mode == "fischer":
                text += f"+{_whole(period.increment)}"
            fields.append(text)
        return ":".join(fields)

    def pgn_delay_tag(self) -> str | None:
        if self.mode in ("bronstein", "delay") and any(p.increment for p in self.periods):
            name = "Bronstein" if self.mode == "bronstein" else "Simple"
            return f"{name} {_whole(self.periods[0].increment)}"
        return None

    def to_spec(self) -> dict[str, Any]:
        return {"mode": self.mode, "periods": [{"minutes": p.seconds / 60, "moves": p.moves, "increment": p.increment}
                                               for p in self.periods]}

    @classmethod
    def from_spec(cls, spec: Any) -> "TimeControl":
        """A time control from the page's JSON: {"mode": ..., "periods": [{"minutes", "moves",
        "increment"}, ...]}. ClockError for anything malformed or absurd."""
        if not isinstance(spec, dict):
            raise ClockError(Msg("the clock setting must be an object"))
        mode = spec.get("mode")
        if mode not in MODES:
            raise ClockError(f"unknown clock mode {mode!r} (one of {', '.join(MODES)})")
        if mode == "none":
            return cls()
        raw = spec.get("periods")
        if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PERIODS:
            raise ClockError(Msg("a clock needs 1 to {count} periods", count=MAX_PERIODS))
        periods = []
        for index, item in enumerate(raw):
            if not isinstance(item, dict):
                raise ClockError(Msg("each clock period must be an object"))
            seconds = _number(item.get("minutes", 0), 0, MAX_PERIOD_SECONDS / 60,
                              N_("the minutes must be a number"),
                              N_("the minutes must be between {low} and {high}")) * 60
            increment = _number(item.get("increment", 0), 0, MAX_INCREMENT,
                                N_("the increment (seconds) must be a number"),
                                N_("the increment (seconds) must be between {low} and {high}"))
            moves = item.get("moves")
            if moves is not None:
                if isinstance(moves, bool) or not isinstance(moves, int) or not 1 <= moves <= MAX_PERIOD_MOVES:
                    raise ClockError(Msg("moves per period must be a whole number from 1 to {count}",
                                         count=MAX_PERIOD_MOVES))
            elif index < len(raw) - 1:
                raise ClockError(Msg("only the last period may be without a move count"))
            periods.append(Period(round(seconds, 3), moves, round(increment, 3)))
        if periods[0].seconds <= 0 and not (mode == "delay" and periods[0].increment > 0):
            raise ClockError(Msg("the first period needs some time"))
        if any(p.seconds <= 0 and p.increment <= 0 for p in periods):
            raise ClockError(Msg("every period needs some time or an increment"))
        if any(0 < p.seconds < MIN_PERIOD_SECONDS for p in periods):
            raise ClockError(Msg("the minutes must be at least {minutes} ({seconds} seconds)",
                                 minutes=_number_text(MIN_PERIOD_SECONDS / 60), seconds=_number_text(MIN_PERIOD_SECONDS)))
        return cls(mode, tuple(periods))


def _number(value: Any, low: float, high: float, not_number: str, out_of_range: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ClockError(Msg(not_number))
    if not low <= value <= high:
        raise ClockError(Msg(out_of_range, low=_number_text(low), high=_number_text(high)))
    return float(value)


def _whole(seconds: float) -> str:
    return f"{seconds:g}"


def _number_text(value: float) -> str:
    return f"{value:g}"


def _minutes(seconds: float) -> Msg:
    return Msg("{n} min", n=_number_text(seconds / 60)) if seconds >= 60 else _seconds(seconds)


def _seconds(seconds: float) -> Msg:
    return Msg("{n} s", n=_number_text(seconds))


# The common time controls (the browser game's clock list): name -> time control.
PRESETS: dict[str, TimeControl] = {
    "none": TimeControl(),
    "1+0": TimeControl("fischer", (Period(60),)),
    "3+2": TimeControl("fischer", (Period(180, None, 2),)),
    "5+0": TimeControl("fischer", (Period(300),)),
    "10+5": TimeControl("fischer", (Period(600, None, 5),)),
    "15+10": TimeControl("fischer", (Period(900, None, 10),)),
    "40/90+30/30": TimeControl("fischer", (Period(5400, 40), Period(1800, None, 30))),
}
PRESET_LABELS = {                  # said in the reader's language (N_: translated where shown)
    "none": N_("No clock"), "1+0": N_("Bullet 1+0"), "3+2": N_("Blitz 3+2"), "5+0": N_("Blitz 5+0"),
    "10+5": N_("Rapid 10+5"), "15+10": N_("Rapid 15+10"),
    "40/90+30/30": N_("Classical: 40 moves in 90 min, then 30 min + 30 s"),
}


@dataclass(frozen=True)
class SideState:
    remaining: float             # seconds left, as at the last press (the running side's excludes the current move)
    period: int = 0              # index into the time control's periods
    moves_in_period: int = 0     # moves completed in that period


class Clock:
    """Both players' clocks under one time control. At most one runs at a time."""

    def __init__(self, control: TimeControl) -> None:
        if not control.timed:
            raise ClockError("an untimed game has no clock")
        self.control = control
        first = control.periods[0].seconds
        self.sides = {chess.WHITE: SideState(first), chess.BLACK: SideState(first)}
        self.running: chess.Color | None = None
        self.started_at = 0.0

    # ---- reading ----

    def period(self, colour: chess.Color) -> Period:
        return self.control.periods[self.sides[colour].period]

    def increment(self, colour: chess.Color) -> float:
        return self.period(colour).increment

    def moves_to_go(self, colour: chess.Color) -> int | None:
        """Moves left before the colour's next time control (None: none is coming)."""
        side = self.sides[colour]
        moves = self.period(colour).moves
        return None if moves is None else moves - side.moves_in_period

    def elapsed(self, now: float) -> float:
        return max(0.0, now - self.started_at) if self.running is not None else 0.0

    def remaining(self, colour: chess.Color, now: float) -> float:
        """The main time the colour's clock shows at `now` (a simple delay runs down before it)."""
        left = self.sides[colour].remaining
        if colour != self.running:
            return left
        used = self.elapsed(now)
        if self.control.mode == "delay":
            used = max(0.0, used - self.increment(colour))
        return left - used

    def delay_left(self, colour: chess.Color, now: float) -> float:
        """Seconds of simple delay still to run before the colour's main time moves (0 otherwise)."""
        if self.control.mode != "delay" or colour != self.running:
            return 0.0
        return max(0.0, self.increment(colour) - self.elapsed(now))

    def flag_at(self) -> float | None:
        """When the running clock reaches zero if nobody moves (None: no clock runs)."""
        if self.running is None:
            return None
        left = self.sides[self.running].remaining
        if self.control.mode == "delay":
            left += self.increment(self.running)
        return self.started_at + left

    def flagged(self, now: float) -> chess.Color | None:
        """The colour whose time has run out, if any."""
        flag_at = self.flag_at()
        if flag_at is not None and now >= flag_at:
            return self.running
        return None

    # ---- changing ----

    def start(self, colour: chess.Color, now: float) -> None:
        """Start the colour's clock (the game's first move to make, after a take-back, or each move
        when the caller measures only the thinking time, as a match runner does)."""
        self.running, self.started_at = colour, now

    def stop(self, now: float) -> None:
        """Stop the running clock, keeping the time it used (the game is over)."""
        if self.running is not None:
            colour = self.running
            self.sides[colour] = replace(self.sides[colour], remaining=max(0.0, self.remaining(colour, now)))
            self.running = None

    def press(self, colour: chess.Color, now: float) -> float:
        """The colour completed a move at `now`: charge it, add increment or delay and a new period's
        time, and start the opponent's clock. Returns the seconds the move took. The caller checks
        `flagged` first: a move after the flag fell does not count."""
        if self.running != colour:
            raise ClockError("it is not that side's clock that runs")
        used = self.elapsed(now)
        side = self.sides[colour]
        bonus = self.increment(colour)
        if self.control.mode == "fischer":
            left = side.remaining - used + bonus
        elif self.control.mode == "bronstein":
            left = side.remaining - used + min(used, bonus)
        else:                                       # simple delay: only the time beyond the delay counts
            left = side.remaining - max(0.0, used - bonus)
        period, moves = side.period, side.moves_in_period + 1
        limit = self.control.periods[period].moves
        if limit is not None and moves >= limit:    # period complete: the next one's time is added
            period = min(period + 1, len(self.control.periods) - 1)
            left += self.control.periods[period].seconds
            moves = 0
        self.sides[colour] = SideState(left, period, moves)
        self.running, self.started_at = (not colour), now
        return used

    def state(self) -> tuple[SideState, SideState]:
        """A copy of both sides' state, to go back to on a take-back (white's first)."""
        return self.sides[chess.WHITE], self.sides[chess.BLACK]

    def restore(self, state: tuple[SideState, SideState], running: chess.Color, now: float) -> None:
        self.sides = {chess.WHITE: state[0], chess.BLACK: state[1]}
        self.start(running, now)

    def snapshot(self, now: float) -> dict[str, Any]:
        """What the page shows: milliseconds left, which clock runs, a delay still running."""
        return {"white": round(self.remaining(chess.WHITE, now) * 1000),
                "black": round(self.remaining(chess.BLACK, now) * 1000),
                "running": None if self.running is None else ("white" if self.running else "black"),
                "delay": round(self.delay_left(self.running, now) * 1000) if self.running is not None else 0,
                "moves_to_go": {"white": self.moves_to_go(chess.WHITE), "black": self.moves_to_go(chess.BLACK)}}


def engine_times(clock: Clock, now: float, reserve: float = 0.0) -> dict[str, Any]:
    """UCI `go wtime btime winc binc movestogo` (milliseconds) under `clock`, so that an engine
    never flags: the side to move is told its time less `reserve` (a pipe, a server or a pause
    charged to it), never less than MIN_ENGINE_MS. A Fischer increment is told as `winc`/`binc`.
    A delay (simple or Bronstein) is not: it never makes the main time grow (a move costs the time
    beyond the delay, and a quick move banks nothing), so an engine told it as an increment counts
    fifty future delays as time in hand and spends its clock as in a Fischer game (3 min + 2 s
    delay: 18 s left at move 31 in the simulation of tests/test_clock.py, 86 s told as sudden
    death). The main time is told as sudden death, with the simple delay still to run of this move
    counted as time the side has (its flag falls only after it). `movestogo` is the side to
    move's (None: sudden death)."""
    times: dict[str, Any] = {}
    for colour, name in ((chess.WHITE, "w"), (chess.BLACK, "b")):
        left = clock.remaining(colour, now) + clock.delay_left(colour, now)
        if colour == clock.running:
            left -= reserve
        times[f"{name}time"] = max(MIN_ENGINE_MS, int(left * 1000))
        times[f"{name}inc"] = int(clock.increment(colour) * 1000) if clock.control.mode == "fischer" else 0
    mover = clock.running if clock.running is not None else chess.WHITE
    times["movestogo"] = clock.moves_to_go(mover)
    return times


def engine_limit(clock: Clock, now: float, reserve: float = 0.0) -> chess.engine.Limit:
    """`engine_times` as python-chess's search limit."""
    times = engine_times(clock, now, reserve)
    return chess.engine.Limit(white_clock=times["wtime"] / 1000, black_clock=times["btime"] / 1000,
                              white_inc=times["winc"] / 1000, black_inc=times["binc"] / 1000,
                              remaining_moves=times["movestogo"])


def flag_result(board: chess.Board, flagged: chess.Color) -> tuple[str, Msg]:
    """Result and reason when `flagged`'s time ran out in `board`: a loss, unless the opponent
    cannot checkmate by any series of legal moves (FIDE 6.9), then a draw. python-chess's
    insufficient-material test for one side stands in for "cannot checkmate"."""
    white = flagged == chess.WHITE
    if board.has_insufficient_material(not flagged):
        return "1/2-1/2", (Msg("White ran out of time, but Black cannot checkmate: draw") if white
                           else Msg("Black ran out of time, but White cannot checkmate: draw"))
    return ("0-1" if white else "1-0"), (Msg("White ran out of time: Black wins") if white
                                        else Msg("Black ran out of time: White wins"))
