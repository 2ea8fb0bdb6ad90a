"""The top floor: everything a user or another program talks to (the UCI loop and its options,
the command line, the terminal game, game analysis, the opening book, benchmarks, the web game).
It may import every layer below (engine, eval, perft, search); nothing below imports it."""

import engine  # noqa: F401  (sets numba's cache directory before numba loads)
