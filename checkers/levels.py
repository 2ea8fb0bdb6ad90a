"""The checkers engine's levels, 1 (a beginner) to 10 (full strength).

A level caps the search's depth and nodes and adds noise to the evaluation (checkers.eval: a
pseudo-random number in [-noise, noise] per position, from the position's key and a seed drawn
per move): the weaker levels see less far and misjudge more, so they choose among moves that
look nearly as good. Every level plays legal moves only, jumps included (the move generator
gives nothing else), and even level 1 resolves the jumps of its line before it judges a position,
so it does not leave pieces to be taken for nothing as often as a random mover.

The ladder (each level against the one below, and level 1 against a random mover) is measured by
tools/checkers/match.py; the numbers are in docs/checkers.md, Levels.
"""

from __future__ import annotations

import random
from typing import NamedTuple

MIN_LEVEL = 1
MAX_LEVEL = 10
DEFAULT_LEVEL = MAX_LEVEL


class Level(NamedTuple):
    depth: int | None       # iterations stop here (None: no cap)
    nodes: int | None       # per move (None: no cap)
    noise: int              # evaluation noise amplitude, hundredths of a man


LEVELS = {
    1: Level(1, 2_000, 150),
    2: Level(2, 4_000, 110),
    3: Level(3, 8_000, 80),
    4: Level(4, 15_000, 60),
    5: Level(5, 30_000, 45),
    6: Level(6, 60_000, 32),
    7: Level(8, 120_000, 22),
    8: Level(10, 250_000, 14),
    9: Level(13, 600_000, 7),
    10: Level(None, None, 0),
}


def apply_level(searcher, level: int, rng: random.Random | None = None) -> None:
    """Set a checkers.driver.Searcher to play at `level` (clamped to 1-10); a new noise seed is
    drawn from `rng` (each move may call this again for fresh noise)."""
    level = min(max(int(level), MIN_LEVEL), MAX_LEVEL)
    setting = LEVELS[level]
    searcher.max_depth = setting.depth
    searcher.max_nodes = setting.nodes
    searcher.noise = setting.noise
    if setting.noise:
        searcher.seed = (rng or random).getrandbits(62)
    else:
        searcher.seed = 0
