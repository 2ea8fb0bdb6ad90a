"""Board, move generation, protocol and time management of the Jitfish engine."""

from engine.cachedir import configure as _configure_numba_cache

_configure_numba_cache()
