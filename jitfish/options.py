"""UCI options: their declaration (what `uci` advertises), validation of `setoption` values, and
what the machine can give the options that take resources (cores for Threads, memory for Hash).

The ranges are jitfish.ranges', which the command line shares. Threads and Hash advertise wide
ones, so that a client that checks ranges (python-chess does) never refuses a configuration
written for another machine; the UCI loop and the command line clamp them at run time
(`usable_threads()`, `usable_hash_mb()`). Kept free of numba imports so that `uci` can be
answered before the heavy initialisation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from eval.shipped import default_network
from jitfish import ranges
from jitfish.ranges import Range
from search.levels import SKILL_LEVELS


@dataclass(frozen=True)
class Option:
    name: str
    kind: str                      # "check", "spin", "combo", "button" or "string"
    default: object = None
    allowed: Range | None = None   # a spin's values
    choices: tuple[str, ...] = ()

    def uci_line(self) -> str:
        text = f"option name {self.name} type {self.kind}"
        if self.kind == "button":
            return text
        default = self.default
        if self.kind == "check":
            default = "true" if default else "false"
        elif self.kind == "string" and default == "":
            default = "<empty>"
        text += f" default {default}"
        if self.kind == "spin":
            text += f" min {self.allowed.low} max {self.allowed.high}"
        for choice in self.choices:
            text += f" var {choice}"
        return text

    def parse(self, value: str | None) -> object:
        """The typed value of `setoption ... value <value>`; ValueError says what is wrong."""
        if self.kind == "button":
            return True
        if value is None:
            if self.kind == "string":
                return ""
            raise ValueError(f"option {self.name} needs a value")
        if self.kind == "check":
            if value.lower() not in ("true", "false"):
                raise ValueError(f"option {self.name} takes true or false, not {value!r}")
            return value.lower() == "true"
        if self.kind == "spin":
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"option {self.name} takes a whole number, not {value!r}") from None
            if number not in self.allowed:
                raise ValueError(f"option {self.name} value {number} is outside {self.allowed}")
            return number
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == value.lower():
                    return choice
            raise ValueError(f"option {self.name} takes one of {', '.join(self.choices)}, not {value!r}")
        return "" if value == "<empty>" else value


@dataclass
class Options:
    """The current values of a set of options, looked up case-insensitively by name."""
    declared: list[Option]
    values: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_name = {o.name.lower(): o for o in self.declared}
        for o in self.declared:
            if o.kind != "button":
                self.values.setdefault(o.name, o.default)

    def find(self, name: str) -> Option:
        option = self._by_name.get(name.lower())
        if option is None:
            raise ValueError(f"unknown option {name!r}")
        return option

    def set(self, name: str, value: str | None) -> tuple[Option, object]:
        """Validate and store a value; returns the option and its typed value."""
        option = self.find(name)
        typed = option.parse(value)
        if option.kind != "button":
            self.values[option.name] = typed
        return option, typed

    def __getitem__(self, name: str) -> object:
        return self.values[self.find(name).name]


MEMORY_RESERVE_MB = 256               # left free at least, besides a quarter of what is available
SHIPPED_BOOK = str(Path(__file__).resolve().parent / "data" / "jitfish-book.bin")   # tools/book/make_book.py

ENGINE_OPTIONS = [
    Option("Hash", "spin", 16, ranges.HASH_MB),
    Option("Clear Hash", "button"),
    Option("Threads", "spin", 1, ranges.THREADS),
    Option("MultiPV", "spin", 1, ranges.MULTIPV),
    Option("Ponder", "check", False),
    Option("Move Overhead", "spin", 20, ranges.MOVE_OVERHEAD_MS),
    Option("UCI_Chess960", "check", False),
    Option("UCI_ShowWDL", "check", False),
    Option("UCI_LimitStrength", "check", False),
    Option("UCI_Elo", "spin", 1500, ranges.ELO),
    Option("Skill Level", "spin", SKILL_LEVELS, ranges.SKILL_LEVEL),
    Option("Random Seed", "spin", 0, ranges.RANDOM_SEED),
    Option("EvalFile", "string", default_network()),      # <empty>: the hand-crafted evaluation
    Option("SyzygyPath", "string", ""),
    Option("SyzygyProbeLimit", "spin", 7, ranges.SYZYGY_PROBE_LIMIT),
    Option("OwnBook", "check", False),
    Option("Book File", "string", SHIPPED_BOOK),          # <empty>: no book
    Option("Book Best Move", "check", False),            # false: weighted choice among book moves
]
LEVEL_OPTIONS = ("UCI_LimitStrength", "UCI_Elo", "Skill Level", "Random Seed")


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all):
    Lazy SMP threads beyond them only slow the search down."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def available_memory_mb(meminfo: str = "/proc/meminfo") -> int | None:
    """MemAvailable in MB (Linux), None where the system does not say."""
    try:
        with open(meminfo, encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def hash_limit_mb(available_mb: int | None = None) -> int | None:
    """The largest Hash worth allocating now: the available memory less a quarter of it (at
    least MEMORY_RESERVE_MB), never below 1; None when the available memory is unknown. A table
    beyond it would be allocated lazily and filled later, pushing the machine into swap or the
    out-of-memory killer in the middle of a game."""
    if available_mb is None:
        available_mb = available_memory_mb()
        if available_mb is None:
            return None
    return max(1, available_mb - max(available_mb // 4, MEMORY_RESERVE_MB))


def usable_threads(asked: int) -> tuple[int, str | None]:
    """The threads to search with when `asked` are wanted: at most one per usable core (more only
    slow Lazy SMP down); and, when fewer, the note that says so."""
    cores = usable_cores()
    threads = min(asked, cores)
    if threads == asked:
        return threads, None
    return threads, (f"Threads {asked} is more than the {cores} core{'s' if cores > 1 else ''} this engine "
                     f"may use: searching with {threads}")


def usable_hash_mb(asked: int) -> tuple[int, str | None]:
    """The table to allocate when `asked` MB are wanted: at most hash_limit_mb(); and, when
    smaller, the note that says so."""
    limit = hash_limit_mb()
    megabytes = asked if limit is None else min(asked, limit)
    if megabytes == asked:
        return megabytes, None
    return megabytes, (f"Hash {asked} MB is more than this machine can give ({available_memory_mb()} MB "
                       f"available): using {megabytes} MB")
