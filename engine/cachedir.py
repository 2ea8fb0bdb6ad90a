"""Point numba's on-disk cache at a directory named after a hash of our kernel sources.

Numba invalidates a cached function only when its own file changes, not when a function it
inlines from another module does, so an edited `position.py` could run behind a stale cached
search. Keying the whole cache on every kernel source file makes any such edit start a fresh
cache. Files listed in PYTHON_ONLY are never compiled by numba and are left out of the key.
Must run before numba is imported; every package's __init__ imports `engine` first for this.
"""

import hashlib
import os
import pathlib
import shutil

PACKAGES = ("engine", "search", "eval", "perft")
# Modules that only run as Python (no numba code imports them): editing them keeps the cache.
PYTHON_ONLY = {"__init__.py", "cachedir.py", "uci.py", "cli.py", "options.py", "board.py", "fen.py",
               "timeman.py", "bench.py", "warmup.py", "driver.py", "explain.py", "suite.py", "levels.py",
               "play.py", "tablebase.py", "book.py", "analyse.py", "progress.py"}
KEEP_OTHER_VERSIONS = 6       # frozen worktrees (matches, A/B tests) may still use older ones


def configure() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:       # the user's choice wins
        return
    root = pathlib.Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for package in PACKAGES:
        for source in sorted((root / package).glob("*.py")):
            if source.name in PYTHON_ONLY:
                continue
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    base = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache")) / "jitfish"
    cache = base / digest.hexdigest()[:16]
    if not cache.is_dir():
        try:
            cache.mkdir(parents=True, exist_ok=True)
            others = sorted((d for d in base.iterdir() if d.is_dir() and d != cache),
                            key=lambda d: d.stat().st_mtime, reverse=True)
            for stale in others[KEEP_OTHER_VERSIONS:]:   # caches of old source versions
                shutil.rmtree(stale, ignore_errors=True)
        except OSError:
            return                             # unwritable home: numba falls back to __pycache__
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
