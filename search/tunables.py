"""The search's margins that can change at run time: one table of names, defaults and ranges.

The search reads them from its workspace (search/workspace.py installs the defaults), so a tuner
(tools/training/spsa.py) can play two settings against each other in one process without
recompiling anything. The defaults are what the engine plays with; `step` is the perturbation a
tuner starts from, about the smallest change expected to matter.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tunable:
    name: str
    default: int
    low: int
    high: int
    step: float
    meaning: str


TUNABLES: tuple[Tunable, ...] = (
    Tunable("rfp_margin", 80, 30, 200, 8, "reverse futility pruning margin per ply of depth"),
    Tunable("nmp_eval_divisor", 200, 80, 400, 20, "null move: a ply more reduction per this eval over beta"),
    Tunable("razor_margin", 250, 100, 500, 25, "razoring margin per ply of depth"),
    Tunable("lmp_base", 3, 1, 8, 0.6, "late move pruning: (base + d^2) / 2 quiet moves, not improving"),
    Tunable("futility_base", 80, 20, 250, 10, "futility pruning margin at depth 0 after reduction"),
    Tunable("futility_per_depth", 70, 30, 200, 8, "futility pruning margin per ply of reduced depth"),
    Tunable("futility_history_guard", 6000, 1000, 16000, 700, "futility spares a move with this history"),
    Tunable("history_prune_margin", 4000, 1000, 12000, 500, "history pruning below -margin * depth"),
    Tunable("see_quiet_margin", 25, 5, 80, 4, "SEE pruning of quiet moves losing more than margin * depth^2"),
    Tunable("see_noisy_margin", 100, 30, 250, 12, "SEE pruning of captures losing more than margin * depth"),
    Tunable("lmr_base", 75, 0, 150, 8, "late move reductions: (base + 100 ln d ln m / divisor) / 100"),
    Tunable("lmr_divisor", 210, 150, 350, 12, "late move reductions: divisor of ln d ln m, hundredths"),
    Tunable("lmr_history_divisor", 8000, 3000, 20000, 800, "reductions: a ply less per this much history"),
    Tunable("qs_delta_margin", 200, 50, 500, 20, "quiescence delta pruning margin"),
    Tunable("history_bonus", 16, 4, 40, 2, "history bonus per depth^2 of a cutoff"),
    Tunable("history_bonus_max", 1600, 400, 4000, 150, "history bonus at most"),
)

NAMES: tuple[str, ...] = tuple(t.name for t in TUNABLES)
DEFAULTS: dict[str, int] = {t.name: t.default for t in TUNABLES}


def index(name: str) -> int:
    """The tunable's slot in the workspace's region; ValueError for an unknown name."""
    if name not in NAMES:
        raise ValueError(f"no search tunable named {name!r}")
    return NAMES.index(name)


def checked(values: dict[str, int]) -> dict[str, int]:
    """`values` completed with the defaults; ValueError for an unknown name or a value out of range."""
    merged = dict(DEFAULTS)
    for name, value in values.items():
        tunable = TUNABLES[index(name)]
        if not tunable.low <= int(value) <= tunable.high:
            raise ValueError(f"{name} = {value} is outside {tunable.low}..{tunable.high}")
        merged[name] = int(value)
    return merged
