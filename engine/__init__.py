"""The core of Jitfish: bitboards, position state, move generation, FEN and draw rules (numba
kernels and their Python board). Every layer above imports it first.

Importing the package first points numba's cache at the directory for these sources.
"""

from engine.cachedir import configure as _configure_numba_cache

_configure_numba_cache()
