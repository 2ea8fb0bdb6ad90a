"""The build backend (pyproject.toml): setuptools', plus the numba cache compiled into the wheel.

`pip install .` builds a wheel and installs it; without a cache in it, the first start of the
installed engine would compile every kernel for a minute or more while a GUI waits. So after
setuptools has built the wheel, jitfish/warmup.py compiles every kernel of the source tree into
a temporary cache, and the cache goes into the wheel as engine/compiled/, where
engine/cachedir.py finds it at the first start and copies it into the user's cache (numba checks
each kernel against its source's content, and the marker against the sources, numba's version
and the processor: a wheel used on another machine compiles at its first start instead).
Editable installs (`make install`) are left to `make install`'s own warm-up.
Set JITFISH_NO_PRECOMPILE=1 to build a wheel without the cache.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from setuptools import build_meta
from setuptools.build_meta import (build_editable, build_sdist, get_requires_for_build_editable,  # noqa: F401
                                   get_requires_for_build_sdist, get_requires_for_build_wheel,
                                   prepare_metadata_for_build_editable, prepare_metadata_for_build_wheel)

SOURCE = Path(__file__).resolve().parents[2]
SHIPPED = "engine/compiled"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)
    if os.environ.get("JITFISH_NO_PRECOMPILE"):
        return name
    with tempfile.TemporaryDirectory(prefix="jitfish-kernels-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        print("compiling the numba kernels into the wheel (about a minute)", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "jitfish.warmup"], cwd=SOURCE, env=env, check=True)
        add_files(Path(wheel_directory) / name, Path(cache), SHIPPED)
    return name


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def add_files(wheel: Path, folder: Path, prefix: str) -> int:
    """Add the cache files under `folder` to `wheel` at `prefix`, listed in its RECORD; their count."""
    files = sorted(path for path in folder.rglob("*") if path.is_file() and not path.name.startswith("."))
    rebuilt = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as old, zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_DEFLATED) as new:
        record_name = next(name for name in old.namelist() if name.endswith(".dist-info/RECORD"))
        record = old.read(record_name).decode().splitlines()
        for item in old.infolist():
            if item.filename != record_name:
                new.writestr(item, old.read(item.filename))
        for path in files:
            data = path.read_bytes()
            arcname = f"{prefix}/{path.relative_to(folder).as_posix()}"
            new.writestr(arcname, data)
            record.append(f"{arcname},{_record_hash(data)},{len(data)}")
        new.writestr(record_name, "\n".join(record) + "\n")
    rebuilt.replace(wheel)
    return len(files)
