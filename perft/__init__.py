"""Perft: move-generation correctness and speed by counting the leaves of the legal-move tree."""

import engine  # noqa: F401  (sets numba's cache directory before numba loads)
