"""Real Syzygy tables for the tests: the 3- and 4-piece tables that python-chess's source
distribution carries for its own tests (4.4 MB), fetched once into the user's cache.

$JITFISH_SYZYGY names a folder with tables instead. Without either (no network), the tests that
need tables are skipped with the reason; the option tests that need none still run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import chess
import pytest

# Beside, not inside, ~/.cache/jitfish: engine.cachedir rotates the folders there.
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "jitfish-syzygy-test"


def syzygy_folder() -> Path:
    """A folder with KQvK, KRvK, KPvK... tables, or pytest.skip."""
    override = os.environ.get("JITFISH_SYZYGY")
    if override:
        return Path(override)
    if (CACHE / "KPvK.rtbw").is_file():
        return CACHE
    with tempfile.TemporaryDirectory() as download:
        try:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary",
                            ":all:", "-d", download, f"chess=={chess.__version__}"],
                           check=True, capture_output=True, timeout=180)
            archive = next(Path(download).glob("chess-*.tar.gz"))
            CACHE.mkdir(parents=True, exist_ok=True)
            with tarfile.open(archive) as tar:
                for member in tar.getmembers():
                    if "/data/syzygy/regular/" in member.name and member.name.endswith((".rtbw", ".rtbz")):
                        member.name = Path(member.name).name
                        tar.extract(member, CACHE, filter="data")
        except (subprocess.SubprocessError, StopIteration, OSError, tarfile.TarError) as exc:
            pytest.skip(f"no Syzygy tables (set JITFISH_SYZYGY, or allow pip to download "
                        f"python-chess's sources): {exc}")
    if not (CACHE / "KPvK.rtbw").is_file():
        pytest.skip("python-chess's sources had no Syzygy tables")
    return CACHE
