"""The geometry of the 32 squares and the zobrist numbers, built once in Python and handed to
the kernels as one int64 array `tab` (layout in checkers.defs: neighbours, jump landings,
zobrist keys).

The neighbour tables are built from coordinates (row, file), independently of the shift masks
that checkers.movegen steps whole boards with, so the tests can check one against the other.
The zobrist numbers come from a fixed splitmix64 stream: the same keys in every process and
every numpy version (a book or a stored table keyed on them stays valid).
"""

from __future__ import annotations

import numpy as np

from checkers.defs import (DIRECTIONS, SQUARES, TAB_LANDING, TAB_NEIGHBOUR, TAB_SIZE, TAB_ZOBRIST,
                           TAB_ZOBRIST_SIDE)

DELTAS = ((-1, -1), (-1, 1), (1, -1), (1, 1))     # (row, file) steps of the four directions (defs)
ZOBRIST_SEED = 0x6A09E667F3BCC908                   # any fixed number


def coordinates(index: int) -> tuple[int, int]:
    """(row, file) of a square index: row 0 holds squares 1-4 (Black's back row), file 0 is a."""
    row, column = divmod(index, 4)
    return row, 2 * column + (1 if row % 2 == 0 else 0)


def index_at(row: int, file: int) -> int:
    """The square index at (row, file), or -1 off the board or on a light square."""
    if not (0 <= row < 8 and 0 <= file < 8) or (row + file) % 2 == 0:
        return -1
    return 4 * row + file // 2


def neighbour(index: int, direction: int) -> int:
    """The square next to `index` in `direction`, or -1."""
    row, file = coordinates(index)
    dr, df = DELTAS[direction]
    return index_at(row + dr, file + df)


def landing(index: int, direction: int) -> int:
    """Where a jump from `index` in `direction` lands (two steps), or -1."""
    row, file = coordinates(index)
    dr, df = DELTAS[direction]
    return index_at(row + 2 * dr, file + 2 * df)


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def zobrist_numbers(count: int) -> list[int]:
    """`count` pseudo-random 64-bit numbers as signed int64 values (the kernels' key type)."""
    state, numbers = ZOBRIST_SEED, []
    for _ in range(count):
        state, value = _splitmix64(state)
        numbers.append(value - (1 << 64) if value >= 1 << 63 else value)
    return numbers


def build_tables() -> np.ndarray:
    """The `tab` array every kernel takes."""
    tab = np.zeros(TAB_SIZE, dtype=np.int64)
    for index in range(SQUARES):
        for direction in range(DIRECTIONS):
            tab[TAB_NEIGHBOUR + 4 * index + direction] = neighbour(index, direction)
            tab[TAB_LANDING + 4 * index + direction] = landing(index, direction)
    numbers = zobrist_numbers(4 * SQUARES + 1)
    tab[TAB_ZOBRIST:TAB_ZOBRIST + 4 * SQUARES] = numbers[:4 * SQUARES]
    tab[TAB_ZOBRIST_SIDE] = numbers[-1]
    return tab


TABLES = build_tables()     # shared by every Board; the kernels only read it
