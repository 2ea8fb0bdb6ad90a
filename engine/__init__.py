"""The core of Jitfish: bitboards, position state, move generation, FEN and draw rules (numba
kernels and their Python board), plus `engine.frontend`, the layer users talk to.

Importing the package first points numba's cache at the directory for these sources.
"""

from engine.cachedir import configure as _configure_numba_cache

_configure_numba_cache()
