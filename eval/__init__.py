"""Static evaluation and its parameters."""

import engine  # noqa: F401  (sets numba's cache directory before numba loads)
