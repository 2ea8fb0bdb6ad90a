"""Time controls and the runner-side chess clock."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TC_RE = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d*)?|\d+:\d+(?:\.\d*)?)(?:\+(\d+(?:\.\d*)?))?$")


@dataclass(frozen=True)
class TimeControl:
    """A per-move search limit: a clock (base/inc/moves), fixed move time, nodes and/or depth."""

    base: float | None = None  # seconds per period; None = no clock
    inc: float = 0.0  # Fischer increment, seconds
    moves: int | None = None  # moves per period (repeating), None = sudden death
    movetime: float | None = None  # fixed seconds per move (go movetime)
    nodes: int | None = None
    depth: int | None = None

    @property
    def uses_clock(self) -> bool:
        """True for clock-based controls (wtime/btime are sent)."""
        return self.base is not None

    def pgn(self) -> str:
        """The PGN TimeControl tag value."""
        if self.base is not None:
            text = _fmt(self.base)
            if self.moves:
                text = f"{self.moves}/{text}"
            if self.inc:
                text += f"+{_fmt(self.inc)}"
            return text
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


def _fmt(seconds: float) -> str:
    """Format seconds without a trailing '.0'."""
    return f"{seconds:g}"


def parse_tc(text: str) -> TimeControl:
    """Parse '10+0.1', '60', '1:30+1' (base[+inc]) or '40/20' / '40/20+0.5' (moves/base[+inc])."""
    m = _TC_RE.match(text.strip())
    if not m:
        raise ValueError(f"bad time control {text!r} (expected e.g. 10+0.1, 40/20 or 1:30+1)")
    moves, base_text, inc = m.groups()
    if ":" in base_text:
        minutes, seconds = base_text.split(":")
        base = int(minutes) * 60 + float(seconds)
    else:
        base = float(base_text)
    if base <= 0:
        raise ValueError(f"time control {text!r} has no time")
    if moves is not None and int(moves) <= 0:
        raise ValueError(f"time control {text!r} has a zero move count")
    return TimeControl(base=base, inc=float(inc or 0), moves=int(moves) if moves else None)


class Clock:
    """One side's clock, kept by the runner: remaining time, increment and movestogo carry-over."""

    def __init__(self, tc: TimeControl) -> None:
        """Start a full clock for the given (clock-based) time control."""
        if tc.base is None:
            raise ValueError("Clock needs a clock-based time control")
        self.tc = tc
        self.remaining: float = tc.base
        self.moves_done = 0

    def movestogo(self) -> int | None:
        """Moves left until the next time control (None for sudden death)."""
        if not self.tc.moves:
            return None
        return self.tc.moves - self.moves_done % self.tc.moves

    def charge(self, elapsed: float) -> float:
        """Subtract a move's thinking time; return the time left before increment (< 0 = flag fell).

        Afterwards the increment is added and, if the move completed a period
        of a moves/time control, a fresh period's base time is added on top of
        what is left (carry-over).
        """
        self.remaining -= elapsed
        left = self.remaining
        self.moves_done += 1
        self.remaining += self.tc.inc
        if self.tc.moves and self.moves_done % self.tc.moves == 0:
            assert self.tc.base is not None
            self.remaining += self.tc.base
        return left
