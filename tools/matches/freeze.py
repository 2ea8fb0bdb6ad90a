"""Freeze a commit of Jitfish into its own folder, to play matches and SPRTs against it while the
checkout moves on.

    .venv/bin/python -m tools.matches.freeze HEAD new          # /tmp/jf_new/run_engine.sh
    .venv/bin/python -m tools.matches.freeze main~1 base --warm

The folder holds the commit's files (`git archive`), a private numba cache (so copies of
different sources never share or prune each other's machine code) and `run_engine.sh`, which
starts the UCI engine of that copy with this checkout's Python environment (numba,
python-chess). `--warm` compiles its kernels once, so that the first game does not pay for it.
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _front_end(folder: Path) -> str:
    """The front ends' package of a frozen copy: `jitfish`, or `engine.frontend` before it moved."""
    return "jitfish" if (folder / "jitfish" / "cli.py").is_file() else "engine.frontend"


def run_script(folder: Path, python: str) -> str:
    """The engine launcher of a frozen copy."""
    return ("#!/bin/sh\n"
            f"cd {shlex.quote(str(folder))} || exit 1\n"
            f"NUMBA_CACHE_DIR={shlex.quote(str(folder / '.numba'))} "
            f"exec {shlex.quote(python)} -m {_front_end(folder)}.cli \"$@\"\n")


def freeze(commit: str, folder: Path, python: str = sys.executable) -> str:
    """Extract `commit` into `folder` (which must not exist) with its launcher; the full hash."""
    full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                          capture_output=True, text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", full],
                             capture_output=True, check=True).stdout
    folder.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "COMMIT").write_text(full + "\n", encoding="utf-8")
    launcher = folder / "run_engine.sh"
    launcher.write_text(run_script(folder, python), encoding="utf-8")
    launcher.chmod(0o755)
    return full


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.matches.freeze", description=__doc__.split("\n\n")[0])
    parser.add_argument("commit", help="any commit name git understands (HEAD, main~2, a hash)")
    parser.add_argument("name", help="the copy goes to /tmp/jf_NAME (or --dest)")
    parser.add_argument("--dest", type=Path, help="the folder to create instead of /tmp/jf_NAME")
    parser.add_argument("--warm", action="store_true", help="compile the copy's kernels now")
    args = parser.parse_args(argv)
    folder = args.dest or Path(f"/tmp/jf_{args.name}")
    if folder.exists():
        parser.error(f"{folder} exists already (remove it, or choose another name)")
    try:
        full = freeze(args.commit, folder)
    except subprocess.CalledProcessError as err:
        parser.error(f"git could not give commit {args.commit!r}: {err.stderr.strip() if err.stderr else err}")
    print(f"{folder / 'run_engine.sh'}: commit {full[:12]}")
    if args.warm:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / ".numba")}
        return subprocess.run([sys.executable, "-m", f"{_front_end(folder)}.warmup"], cwd=folder, env=env,
                              check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
