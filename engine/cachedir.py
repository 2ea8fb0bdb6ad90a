"""Point numba's on-disk cache at a directory named after a hash of the compiled sources.

Numba invalidates a cached function only when its own file changes, not when a function it
inlines, or a constant it reads, from another module does; an edited `position.py` could run
behind a stale cached search. So the whole cache is keyed on the sources numba compiles: every
module that defines a kernel, and every project module those import (their constants and
inlined helpers are compiled in). The set is found by reading the sources, not kept by hand, so
a module that gains a kernel joins the key by itself. Python-only modules (the protocol, the
front ends, the driver) are left out: editing them keeps the cache.
Must run before numba is imported; every package's __init__ imports `engine` first for this.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "eval", "perft", "search", "jitfish")   # the layers, lowest first
KEEP_OTHER_VERSIONS = 12      # frozen worktrees (matches, A/B tests) may still use older ones
_KEY_DIR = re.compile(r"^[0-9a-f]{16}$")    # what cache_key names; anything else there is not ours to prune

# A module is compiled by numba when it declares a kernel (engine/kernel.py's decorators or
# numba's own) or an intrinsic, or calls back into Python with objmode.
_KERNEL = re.compile(r"^[ \t]*@(?:kernel|threaded_kernel|inlined_kernel|njit|jit|intrinsic)\b|\bobjmode\(", re.M)
# The names of `from a import b, c` end with the line unless they are in parentheses.
_IMPORT = re.compile(r"^[ \t]*(?:from\s+([\w.]+)\s+import[ \t]*(\([\w\s,]*|[\w \t,]*)|import\s+([\w.]+))", re.M)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages by dotted name (packages by their __init__)."""
    modules = {}
    for package in PACKAGES:
        for source in sorted((root / package).rglob("*.py")):
            parts = source.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = source
    return modules


def _imports(text: str, modules: dict[str, Path]) -> set[str]:
    """The project modules a source imports (`from a import b` counts a.b when it is a module)."""
    found = set()
    for match in _IMPORT.finditer(text):
        origin, names, plain = match.groups()
        name = origin or plain
        if name in modules:
            found.add(name)
        for imported in re.split(r"[\s,()]+", names or ""):
            if f"{name}.{imported}" in modules:
                found.add(f"{name}.{imported}")
    return found


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """The sources the numba cache depends on: kernel modules and everything they import."""
    modules = project_modules(root)
    texts = {name: path.read_text(encoding="utf-8") for name, path in modules.items()}
    pending = [name for name, text in texts.items() if _KERNEL.search(text)]
    closure: set[str] = set()
    while pending:
        name = pending.pop()
        if name not in closure:
            closure.add(name)
            pending.extend(_imports(texts[name], modules) - closure)
    return sorted(modules[name] for name in closure)


def cache_key(root: Path = ROOT) -> str:
    digest = hashlib.sha1()
    for source in compiled_sources(root):
        digest.update(source.relative_to(root).as_posix().encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    if "NUMBA_CACHE_DIR" in os.environ:       # the user's choice wins
        return
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "jitfish"
    cache = base / cache_key()
    if not cache.is_dir():
        try:
            cache.mkdir(parents=True, exist_ok=True)
            others = sorted((d for d in base.iterdir() if d.is_dir() and d != cache and _KEY_DIR.match(d.name)),
                            key=lambda d: d.stat().st_mtime, reverse=True)
            for stale in others[KEEP_OTHER_VERSIONS:]:   # caches of old source versions
                shutil.rmtree(stale, ignore_errors=True)
        except OSError:
            return                             # unwritable home: numba falls back to __pycache__
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
