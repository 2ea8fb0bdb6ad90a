"""The numba kernels of a starting engine: loaded on a background thread, compiled first when the
cache is cold, so that the UCI loop answers at once either way.

A warm cache (`make install`, a wheel built with its cache, any earlier start) loads in about a
second. A cold one (the first start after the sources changed, or on another processor) is
compiled by `python -m jitfish.warmup` in a process of its own, which goes on to the end even
if this engine quits, so that the next start is warm; meanwhile the UCI loop answers `go` with
jitfish/quickmove.py. Two engines starting at once share one compilation (warmup's lock).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Callable

LOADING, COMPILING, READY, FAILED = "loading", "compiling", "ready", "failed"


class KernelLoader:
    """Brings the kernels in on a thread, then calls `load` (which builds the board, the searcher
    and runs them once); `ready` is set when that is done, or has failed (`error`)."""

    def __init__(self, load: Callable[[], None]) -> None:
        self._load = load
        self.state = LOADING
        self.error: str | None = None
        self.compile_seconds: float | None = None
        self.ready = threading.Event()
        self.compiler: subprocess.Popen | None = None

    def start(self) -> None:
        """Decide here, before the UCI loop reads a line, whether the cache must be compiled (a
        marker file read, some 40 ms), so that the first `isready` already knows; then go on."""
        try:
            if self._cache_is_cold():
                self.state = COMPILING
        except Exception:  # found again, and said, when the thread loads the kernels
            pass
        threading.Thread(target=self._run, name="jitfish-kernels", daemon=True).start()

    @staticmethod
    def _cache_is_cold() -> bool:
        import os

        from engine import cachedir

        # No cache folder (an unwritable home): numba caches beside the sources, if it can,
        # and the load compiles what it must.
        return "NUMBA_CACHE_DIR" in os.environ and not cachedir.is_complete(cachedir.cache_dir())

    def _run(self) -> None:
        try:
            from engine import cachedir

            if self.state == COMPILING:
                started = time.monotonic()
                # From the folder this package is in, so that `-m` finds these sources and no
                # others in the engine's working folder; the cache folder comes by the environment.
                self.compiler = subprocess.Popen(
                    [sys.executable, "-m", "jitfish.warmup"], cwd=cachedir.ROOT, stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
                self.compiler.wait()           # a failure there is found again, and said, below
                self.compile_seconds = time.monotonic() - started
                self.state = LOADING
            self._load()
            self.state = READY
        except Exception as exc:  # said on isready and go; the loop keeps answering
            self.error = f"{type(exc).__name__}: {exc}"
            self.state = FAILED
        finally:
            self.ready.set()

    @property
    def compiling(self) -> bool:
        return self.state == COMPILING
