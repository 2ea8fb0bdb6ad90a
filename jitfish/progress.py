"""A one-line text progress bar (done/total, percent, elapsed time, ETA) redrawn with `\\r`.

Meant for stderr while the real output goes elsewhere; it draws nothing when disabled, so
callers need not check whether the stream is a terminal.
"""

from __future__ import annotations

import shutil
import time
from typing import Callable, TextIO

BAR_WIDTH = 24


def clock_text(seconds: float) -> str:
    """`m:ss`, or `h:mm:ss` from an hour on."""
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class ProgressBar:
    """Shows how many of `total` units are done and when the rest should be, estimated from the
    average time per unit so far."""

    def __init__(self, total: int, stream: TextIO, enabled: bool, unit: str = "moves",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = max(0, total)
        self.stream = stream
        self.enabled = enabled
        self.unit = unit
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.label = ""
        self._shown = 0          # length of the line on screen, to blank it when redrawing

    def line(self) -> str:
        """The text of the bar as it stands."""
        fraction = self.done / self.total if self.total else 1.0
        filled = int(round(fraction * BAR_WIDTH))
        elapsed = self.clock() - self.start
        if self.done and self.done < self.total:
            eta = f"ETA {clock_text(elapsed / self.done * (self.total - self.done))}"
        elif self.done >= self.total:
            eta = "done"
        else:
            eta = "ETA --:--"
        label = f"{self.label} " if self.label else ""
        return (f"{label}[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.done}/{self.total} {self.unit} "
                f"{fraction:4.0%}  {clock_text(elapsed)} elapsed, {eta}")

    def update(self, done: int | None = None, label: str | None = None) -> None:
        """Record progress (and optionally a new label) and redraw."""
        if done is not None:
            self.done = min(done, self.total)
        if label is not None:
            self.label = label
        self._draw(self.line())

    def restart_clock(self) -> None:
        """Time from now on (e.g. once the setup is done, so that it does not skew the ETA)."""
        self.start = self.clock()

    def clear(self) -> None:
        """Blank the bar's line, e.g. before other text goes to the same terminal."""
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * self._shown + "\r")
            self.stream.flush()
            self._shown = 0

    def finish(self) -> None:
        """Leave the last state on screen and move to the next line."""
        if self.enabled and self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = 0

    def _draw(self, text: str) -> None:
        if not self.enabled:
            return
        width = shutil.get_terminal_size((80, 24)).columns - 1
        text = text[:width]
        padding = " " * max(0, self._shown - len(text))
        self.stream.write("\r" + text + padding)
        self.stream.flush()
        self._shown = len(text)
