"""UCI options: their declaration (what `uci` advertises) and validation of `setoption` values.

Kept free of numba imports so that `uci` can be answered before the heavy initialisation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from search.levels import FULL_STRENGTH_ELO, MIN_ELO, SKILL_LEVELS


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


MAX_HASH_MB = 16384
MAX_THREADS = os.cpu_count() or 1     # Lazy SMP helpers beyond the cores only slow it down
SHIPPED_BOOK = str(Path(__file__).resolve().parent / "data" / "jitfish-book.bin")   # tools/make_book.py

ENGINE_OPTIONS = [
    Option("Hash", "spin", 16, 1, MAX_HASH_MB),
    Option("Clear Hash", "button"),
    Option("Threads", "spin", 1, 1, MAX_THREADS),
    Option("MultiPV", "spin", 1, 1, 256),
    Option("Ponder", "check", False),
    Option("Move Overhead", "spin", 20, 0, 5000),
    Option("UCI_Chess960", "check", False),
    Option("UCI_ShowWDL", "check", False),
    Option("UCI_LimitStrength", "check", False),
    Option("UCI_Elo", "spin", 1500, MIN_ELO, FULL_STRENGTH_ELO),
    Option("Skill Level", "spin", SKILL_LEVELS, 0, SKILL_LEVELS),
    Option("Random Seed", "spin", 0, 0, 2**31 - 1),      # 0: different choices every game
    Option("SyzygyPath", "string", ""),
    Option("SyzygyProbeLimit", "spin", 7, 0, 7),
    Option("OwnBook", "check", False),
    Option("Book File", "string", SHIPPED_BOOK),          # <empty>: no book
    Option("Book Best Move", "check", False),            # false: weighted choice among book moves
]
LEVEL_OPTIONS = ("UCI_LimitStrength", "UCI_Elo", "Skill Level", "Random Seed")
