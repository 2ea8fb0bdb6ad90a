"""How long a new user waits for the engine: a fresh `pip install` of the checkout into a new
environment with an empty cache, a start after the sources changed (a cold cache), and a warm
start; then whether the installed engine searches at full speed.

    .venv/bin/python -m tools.packaging.first_start [--runs 5] [--keep /tmp/jf-first-start]

Each start is the engine on a pipe, timed from the process start to `uciok`, to `readyok`, and
to the `bestmove` of a GUI's first `go wtime 30000 btime 30000` (GNOME Chess's), with whether
that move came from the real search or the quick search of jitfish/quickmove.py. The cold
start also reports when its background compilation finished. Speed: `jitfish bench` of the
fresh install and of this checkout's .venv, interleaved. The figures go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tools.paths import ROOT

FIRST_GO = "go wtime 30000 btime 30000"


@dataclass
class Start:
    uciok: float
    readyok: float
    bestmove: float
    quick: bool


def time_start(command: list[str], env: dict[str, str]) -> Start:
    """Start an engine, ask `uci`, `isready`, then a first move; seconds from the start to each."""
    started = time.perf_counter()
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    seen: list[str] = []

    def ask(line: str, answer: str) -> float:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        while True:
            text = engine.stdout.readline()
            if not text:
                raise RuntimeError(f"the engine ended before {answer!r}")
            seen.append(text)
            if text.startswith(answer):
                return time.perf_counter() - started
    try:
        uciok = ask("uci", "uciok")
        readyok = ask("isready", "readyok")
        bestmove = ask(f"position startpos moves e2e4\n{FIRST_GO}", "bestmove")
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        engine.wait(timeout=30)
    finally:
        engine.kill()
    return Start(uciok, readyok, bestmove, any("quick move" in line for line in seen))


def environment(cache_home: Path) -> dict[str, str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def wait_for_marker(cache_home: Path, limit: float = 900.0) -> float:
    """Seconds until a complete cache appears under `cache_home` (the background compilation)."""
    started = time.perf_counter()
    while not list(cache_home.glob("jitfish/*/complete.json")):
        if time.perf_counter() - started > limit:
            return float("nan")
        time.sleep(0.5)
    return time.perf_counter() - started


def bench_nps(jitfish: str) -> int:
    out = subprocess.run([jitfish, "bench"], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Nodes/second\s*:\s*(\d+)", out).group(1))


def row(name: str, start: Start, extra: str = "") -> str:
    return (f"| {name} | {start.uciok:.2f} s | {start.readyok:.2f} s | {start.bestmove:.2f} s "
            f"({'quick search' if start.quick else 'the search'}) | {extra} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.packaging.first_start", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="warm starts and bench runs (default 5)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="jf-first-start-"))
    work.mkdir(parents=True, exist_ok=True)
    lines = ["| start | `uciok` | `readyok` | first `bestmove` | note |", "| --- | --- | --- | --- | --- |"]
    try:
        source, venv = work / "source", work / "venv"
        shutil.rmtree(source, ignore_errors=True)
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(source)], check=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        started = time.perf_counter()
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(source)], check=True,
                       stderr=subprocess.DEVNULL)
        install = time.perf_counter() - started
        jitfish = str(venv / "bin" / "jitfish")
        fresh = time_start([jitfish], environment(work / "cache-fresh"))
        lines.append(row("fresh `pip install` of the checkout, empty cache", fresh,
                         f"the install took {install:.0f} s (it compiles the kernels into the wheel)"))

        cold_home = work / "cache-cold"
        shutil.rmtree(cold_home, ignore_errors=True)
        cold = time_start([sys.executable, "-m", "jitfish"], {**environment(cold_home), "PYTHONPATH": str(ROOT)})
        compiled = cold.bestmove + wait_for_marker(cold_home)
        lines.append(row("the checkout after a source change (cold cache: compiles in the background)", cold,
                         f"full search from {compiled:.0f} s on"))

        warm = [time_start([jitfish], environment(work / "cache-fresh")) for _ in range(args.runs)]
        median = Start(*(statistics.median(getattr(s, field) for s in warm) for field in ("uciok", "readyok", "bestmove")),
                       any(s.quick for s in warm))
        spread = f"readyok {min(s.readyok for s in warm):.2f}–{max(s.readyok for s in warm):.2f} s over {args.runs} starts"
        lines.append(row("warm (median)", median, spread))

        ours, theirs = [], []
        for _ in range(args.runs):
            theirs.append(bench_nps(jitfish))
            ours.append(bench_nps(str(ROOT / ".venv" / "bin" / "jitfish")))
        lines.append("")
        lines.append(f"`jitfish bench` nodes/s, interleaved, {args.runs} runs each: fresh install median "
                     f"{statistics.median(theirs) / 1e6:.2f} M ({min(theirs) / 1e6:.2f}–{max(theirs) / 1e6:.2f}), "
                     f"this checkout's .venv {statistics.median(ours) / 1e6:.2f} M "
                     f"({min(ours) / 1e6:.2f}–{max(ours) / 1e6:.2f})")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
