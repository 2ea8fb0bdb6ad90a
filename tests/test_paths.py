"""Where the tools and tests find Stockfish and the shared data (tools/paths.py): the environment
first, then the PATH or the folder beside the repository, then the fallbacks; and no tool or
test names a machine's own path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import paths


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.delenv("JITFISH_STOCKFISH", raising=False)
    monkeypatch.delenv("JITFISH_DATA", raising=False)
    return monkeypatch


def test_stockfish_from_the_environment_then_the_path_then_debian(clean_env, tmp_path):
    clean_env.setenv("PATH", str(tmp_path))
    assert paths.stockfish() == "/usr/games/stockfish"            # nothing on the PATH
    fake = tmp_path / "stockfish"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert paths.stockfish() == str(fake)
    clean_env.setenv("JITFISH_STOCKFISH", "/somewhere/sf")
    assert paths.stockfish() == "/somewhere/sf"


def test_data_folder_from_the_environment_then_beside_the_repository(clean_env, tmp_path):
    clean_env.setenv("JITFISH_DATA", str(tmp_path))
    assert paths.data_dir() == tmp_path and paths.openings() == tmp_path / "openings.epd"
    with pytest.raises(FileNotFoundError, match="JITFISH_DATA"):
        paths.shared_file("openings.epd")
    (tmp_path / "openings.epd").write_text("8/8/8/8/8/8/8/8 w - -\n")
    assert paths.shared_file("openings.epd") == str(tmp_path / "openings.epd")
    clean_env.delenv("JITFISH_DATA")
    beside = paths.ROOT.parent / "shared" / "data"
    expected = beside if (beside / "perft.epd").is_file() else paths.ROOT / "tests" / "data" / "shared"
    assert paths.data_dir() == expected
    assert (paths.data_dir() / "perft.epd").is_file()


def test_no_tool_or_test_names_a_machine_path():
    """Stockfish and the data are found through tools/paths.py only, never by an absolute path."""
    machine = re.compile(r"/usr/games/stockfish|/work/shared|/opt/")
    sources = [p for folder in ("tools", "tests", "jitfish") for p in (paths.ROOT / folder).rglob("*.py")]
    offenders = [str(p.relative_to(paths.ROOT)) for p in sources
                 if p != Path(paths.__file__) and p != Path(__file__) and machine.search(p.read_text(encoding="utf-8"))]
    assert not offenders
