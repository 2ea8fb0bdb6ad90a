"""Search: iterative deepening alpha-beta, transposition table, move ordering, levels."""

import engine  # noqa: F401  (sets numba's cache directory before numba loads)
