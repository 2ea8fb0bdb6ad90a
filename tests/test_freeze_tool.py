"""tools/matches/freeze.py: a commit's files in their own folder, with a launcher that runs that copy's
engine (not the checkout's) on a private numba cache."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tools.matches import freeze


def test_freeze_extracts_the_commit_with_its_launcher(tmp_path):
    folder = tmp_path / "copy"
    full = freeze.freeze("HEAD", folder, python="/some/python")
    head = subprocess.run(["git", "-C", str(freeze.ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert full == head and (folder / "COMMIT").read_text().strip() == head
    assert (folder / "jitfish" / "cli.py").is_file() and (folder / "search" / "search.py").is_file()
    launcher = (folder / "run_engine.sh").read_text()
    assert f"cd {folder}" in launcher and f"NUMBA_CACHE_DIR={folder / '.numba'}" in launcher
    assert "exec /some/python -m jitfish.cli" in launcher
    assert (folder / "run_engine.sh").stat().st_mode & 0o111


def test_freeze_refuses_an_existing_folder_and_an_unknown_commit(tmp_path, capsys):
    (tmp_path / "there").mkdir()
    with pytest.raises(SystemExit):
        freeze.main(["HEAD", "x", "--dest", str(tmp_path / "there")])
    assert "exists already" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        freeze.main(["no-such-commit-anywhere", "x", "--dest", str(tmp_path / "new")])
    assert "could not give commit" in capsys.readouterr().err


def test_launcher_runs_the_frozen_copy(tmp_path):
    """The copy's engine answers `uci` through its launcher (python -m from the copy's folder)."""
    folder = tmp_path / "copy"
    freeze.freeze("HEAD", folder, python=sys.executable)
    out = subprocess.run([str(folder / "run_engine.sh")], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=120).stdout
    assert "uciok" in out
