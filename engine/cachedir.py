"""Point numba's on-disk cache at a directory named after a hash of the compiled sources.

Numba invalidates a cached function only when its own file changes, not when a function it
inlines, or a constant it reads, from another module does; an edited `position.py` could run
behind a stale cached search. So the whole cache is keyed on the sources numba compiles: every
module that defines a kernel, and every project module those import (their constants and
inlined helpers are compiled in). The set is found by reading the sources, not kept by hand, so
a module that gains a kernel joins the key by itself. Python-only modules (the protocol, the
front ends, the driver) are left out: editing them keeps the cache.

Inside that directory each package's kernels are cached under the package's own folder
(engine/kernel_locator.py), not under a hash of where it is installed, so a cache compiled when
the wheel was built (tools/packaging/backend.py ships it as engine/compiled/) is valid after
installation: a first start copies it into place instead of compiling for a minute. A cache is
complete once jitfish/warmup.py has compiled every kernel into it and written its marker, which
names the sources' key, numba's version and the processor: what the machine code depends on.
Must run before numba is imported; every package's __init__ imports `engine` first for this.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "eval", "perft", "search", "checkers", "jitfish")   # the layers, lowest first
KEEP_OTHER_VERSIONS = 12      # frozen worktrees (matches, A/B tests) may still use older ones
SHIPPED = ROOT / "engine" / "compiled"      # the cache a wheel carries, made when it was built
MARKER = "complete.json"                     # written by jitfish/warmup.py once every kernel is in
LOCATORS = ("engine.kernel_locator.PackageCacheLocator", "UserProvidedCacheLocator", "InTreeCacheLocator",
            "UserWideCacheLocator", "IPythonCacheLocator", "ZipCacheLocator")   # numba's own after ours
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


@functools.lru_cache(maxsize=None)
def cache_key(root: Path = ROOT) -> str:
    """A hash of the compiled sources' names and contents (remembered per file state in
    KEYS_FILE, so that a start reads the sources only after they changed)."""
    state = _source_state(root)
    known = _known_keys()
    if state in known:
        return known[state]
    digest = hashlib.sha1()
    for source in compiled_sources(root):
        digest.update(source.relative_to(root).as_posix().encode())
        digest.update(source.read_bytes())
    key = digest.hexdigest()[:16]
    _remember_key(state, key, known)
    return key


def _source_state(root: Path) -> str:
    """The names, sizes and modification times of every project source: what the key depends on."""
    digest = hashlib.sha1(str(root).encode())
    for package in PACKAGES:
        for source in sorted((root / package).rglob("*.py")):
            stat = source.stat()
            digest.update(f"{source.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()


def _keys_file() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "jitfish" / "keys.json"


def _known_keys() -> dict[str, str]:
    try:
        return json.loads(_keys_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _remember_key(state: str, key: str, known: dict[str, str]) -> None:
    """Keep the key of this source state (and of the last few others) for the next start."""
    kept = dict(list(known.items())[-31:])
    kept[state] = key
    try:
        path = _keys_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_text(json.dumps(kept), encoding="utf-8")
        part.replace(path)
    except OSError:
        pass


def _processor() -> str:
    """What the compiled machine code was made for: the CPU's model and feature flags."""
    import platform

    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines()
        wanted = [line for line in lines if line.startswith(("model name", "flags", "Features", "CPU part"))]
        text = "\n".join(dict.fromkeys(wanted))
    except OSError:
        text = platform.processor()
    return f"{platform.machine()}-{hashlib.sha1(text.encode()).hexdigest()[:12]}"


@functools.lru_cache(maxsize=1)
def fingerprint() -> dict[str, str]:
    """What a complete cache must have been made with to serve this process."""
    from importlib import metadata

    return {"key": cache_key(), "numba": metadata.version("numba"), "processor": _processor()}


def is_complete(cache: Path) -> bool:
    """Whether `cache` holds every kernel compiled for these sources, this numba and this processor."""
    try:
        return json.loads((cache / MARKER).read_text(encoding="utf-8")) == fingerprint()
    except (OSError, ValueError):
        return False


def mark_complete(cache: Path) -> None:
    (cache / MARKER).write_text(json.dumps(fingerprint(), sort_keys=True), encoding="utf-8")


def cache_dir() -> Path:
    """The cache in use (configure() has set it)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


def _install_shipped(cache: Path) -> None:
    """Copy the cache the package was built with into `cache` when it fits these sources."""
    if not SHIPPED.is_dir() or is_complete(cache) or not is_complete(SHIPPED):
        return
    try:
        shutil.copytree(SHIPPED, cache, dirs_exist_ok=True, ignore=shutil.ignore_patterns(MARKER))
        shutil.copy2(SHIPPED / MARKER, cache / MARKER)           # last: the copy is whole
    except OSError:
        pass                                                  # compiled at start, as without one


def configure() -> None:
    """Point numba at the cache of these sources (the user's NUMBA_CACHE_DIR wins) with the
    location-free locator, seeded from the wheel's cache when it has one."""
    os.environ.setdefault("NUMBA_CACHE_LOCATOR_CLASSES", ",".join(LOCATORS))
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
    _install_shipped(cache)
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
