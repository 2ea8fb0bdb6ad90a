"""UCI options: their declaration (what `uci` advertises), validation of `setoption` values, and
what the machine can give the options that take resources (cores for Threads, memory for Hash).

Threads and Hash advertise the ranges engines publish (Stockfish: up to 1024 and 33554432), so
that a configuration written for another machine or engine is never refused by a client that
checks ranges (python-chess does); the UCI loop clamps them at run time to `usable_cores()` and
`hash_limit_mb()`. Kept free of numba imports so that `uci` can be answered before the heavy
initialisation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from search.levels import MIN_ELO, SKILL_LEVELS


@dataclass(frozen=True)
class Option:
    name: str
    kind: str                      # "check", "spin", "combo", "button" or "string"
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
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
            text += f" min {self.minimum} max {self.maximum}"
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
            if not self.minimum <= number <= self.maximum:
                raise ValueError(f"option {self.name} value {number} is outside "
                                 f"{self.minimum}..{self.maximum}")
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


MAX_HASH_MB = 16384                   # the largest table the command-line tools (analyse) accept
ADVERTISED_MAX_HASH_MB = 33554432     # what engines publish; clamped to hash_limit_mb() when set
ADVERTISED_MAX_THREADS = 1024         # the same; clamped to usable_cores()
ADVERTISED_MAX_ELO = 3190             # Stockfish's UCI_Elo maximum, so that its configurations work
MEMORY_RESERVE_MB = 256               # left free at least, besides a quarter of what is available
SHIPPED_BOOK = str(Path(__file__).resolve().parent / "data" / "jitfish-book.bin")   # tools/book/make_book.py

ENGINE_OPTIONS = [
    Option("Hash", "spin", 16, 1, ADVERTISED_MAX_HASH_MB),
    Option("Clear Hash", "button"),
    Option("Threads", "spin", 1, 1, ADVERTISED_MAX_THREADS),
    Option("MultiPV", "spin", 1, 1, 500),
    Option("Ponder", "check", False),
    Option("Move Overhead", "spin", 20, 0, 5000),
    Option("UCI_Chess960", "check", False),
    Option("UCI_ShowWDL", "check", False),
    Option("UCI_LimitStrength", "check", False),
    Option("UCI_Elo", "spin", 1500, MIN_ELO, ADVERTISED_MAX_ELO),   # full strength from FULL_STRENGTH_ELO up
    Option("Skill Level", "spin", SKILL_LEVELS, 0, SKILL_LEVELS),
    Option("Random Seed", "spin", 0, 0, 2**31 - 1),      # 0: different choices every game
    Option("EvalFile", "string", ""),                     # <empty>: the hand-crafted evaluation
    Option("SyzygyPath", "string", ""),
    Option("SyzygyProbeLimit", "spin", 7, 0, 7),
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
