"""Where numba caches a project kernel: `NUMBA_CACHE_DIR/<its package folder>`, the same wherever
the package is installed.

Numba's own locator names the cache folder after a hash of the source file's absolute path, so a
cache compiled in one place (the wheel's build tree) is never found in another (site-packages).
Numba stamps a cached kernel with a hash of its source's content, not its path or modification
time, so with a location-free folder a cache made at build time is valid after installation, and
engine/cachedir.py can ship one inside the wheel. Named in NUMBA_CACHE_LOCATOR_CLASSES by
engine/cachedir.py; kernels of other packages fall through to numba's locators.
"""

from __future__ import annotations

import os
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

ROOT = Path(__file__).resolve().parent.parent
OWN_PACKAGES = ("engine", "eval", "perft", "search", "checkers", "jitfish", "tools")


def package_folder(py_file: str) -> tuple[str, ...] | None:
    """The folders of a project source relative to the project root (None: not one of ours)."""
    try:
        parts = Path(py_file).resolve().parent.relative_to(ROOT).parts
    except ValueError:
        return None
    return parts if parts and parts[0] in OWN_PACKAGES else None


class PackageCacheLocator(UserProvidedCacheLocator):
    """numba's NUMBA_CACHE_DIR locator with the package folder as the cache's subfolder."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(config.CACHE_DIR, *package_folder(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or package_folder(py_file) is None:
            return None
        return super().from_function(py_func, py_file)
