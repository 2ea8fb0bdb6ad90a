"""Perft speed of the checkers core (checkers/) against two Python draughts libraries.

    .venv/bin/python -m tools.checkers.bench [--depth 9] [--repeat 5] [--deep 11]
        [--mit-depth 4] [--gpl-python /tmp/pydraughts-gpl-venv/bin/python]

What is compared: leaves per second of perft from the start position of American checkers,
every program counting the last ply in bulk (the length of its legal-move list, not made):

* ours: checkers.perft.perft (numba, one thread), the best of --repeat runs at --depth after a
  warm-up call (so no compile time), and once at --deep; also perft_plain (every leaf made and
  unmade) at --depth, for the cost of make/unmake.
* py-draughts 1.10.1 (GPL-3.0, pure Python, `draughts.AmericanBoard`): its American board makes
  captures optional, so the benchmark subclasses it with `legal_moves` built by the library's
  own core with `captures_optional=False, max_capture=False` (jumping compulsory, free choice
  among jumps: the rules here); perft walks `legal_moves` / `push` / `pop` at --depth. It is
  GPL, so it is never imported here: it runs in a subprocess of its own virtualenv
  (`python3 -m venv /tmp/pydraughts-gpl-venv && /tmp/pydraughts-gpl-venv/bin/pip install
  py-draughts==1.10.1`), skipped when that interpreter is missing.
* pydraughts 0.6 (MIT, `draughts.Board(variant="english")`, the test suite's reference): the
  same walk at --mit-depth (it is slow), in this process.

Every count is checked against the published ones (OEIS A133046) before a speed is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import engine  # noqa: F401  (points numba's cache at the keyed directory before numba loads)

START_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673]
GPL_PYTHON = Path("/tmp/pydraughts-gpl-venv/bin/python")

PY_DRAUGHTS_PERFT = r"""
import json, sys, time
import draughts
from draughts import AmericanBoard
from draughts.boards._core import CORE_AMERICAN

class CompulsoryAmericanBoard(AmericanBoard):
    '''py-draughts' American board with jumping compulsory (its own core, its own flags).'''
    @property
    def legal_moves(self):
        return self._legal_moves_from_core(CORE_AMERICAN, max_capture=False, captures_optional=False)

def perft(board, depth):
    moves = board.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total

depth = int(sys.argv[1])
board = CompulsoryAmericanBoard()
perft(board, 3)
start = time.perf_counter()
leaves = perft(board, depth)
print(json.dumps({"version": draughts.__version__, "leaves": leaves, "seconds": time.perf_counter() - start}))
"""


def machine() -> str:
    """The processor's model and the number of cores, as `lscpu` and `nproc` say."""
    model = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores (nproc), Python {platform.python_version()}"


def row(name: str, depth: int, leaves: int, seconds: float) -> dict:
    if leaves != START_PERFT[depth - 1]:
        raise SystemExit(f"{name}: perft({depth}) = {leaves}, published {START_PERFT[depth - 1]}")
    return {"program": name, "depth": depth, "leaves": leaves, "seconds": seconds, "rate": leaves / seconds}


def ours(depth: int, repeat: int, bulk: bool = True) -> dict:
    """Best of `repeat` runs of our perft (after a warm-up call that loads or compiles it)."""
    import numpy as np

    from checkers.board import Board
    from checkers.perft import move_buffer, perft, perft_plain

    kernel = perft if bulk else perft_plain
    board = Board()
    buffer = move_buffer(depth)
    kernel(board.tab, board.pos, buffer, np.int64(2))
    best, leaves = float("inf"), 0
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = int(kernel(board.tab, board.pos, buffer, np.int64(depth)))
        best = min(best, time.perf_counter() - start)
    name = "jitfish checkers perft" + ("" if bulk else "_plain (no bulk counting)")
    return row(name, depth, leaves, best)


def py_draughts(depth: int, python: Path) -> dict | None:
    """py-draughts 1.10.1 (GPL) in its own virtualenv, or None when it is not installed."""
    if not python.exists():
        return None
    done = subprocess.run([str(python), "-c", PY_DRAUGHTS_PERFT, str(depth)], capture_output=True, text=True,
                          check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return row(f"py-draughts {result['version']} (compulsory-capture subclass)", depth, result["leaves"],
               result["seconds"])


def pydraughts(depth: int) -> dict:
    """pydraughts (MIT), the tests' reference, in this process."""
    from importlib import metadata

    from draughts import Board as ReferenceBoard

    def perft(board, d):
        moves = board.legal_moves()
        if d == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += perft(board, d - 1)
            board.pop()
        return total

    board = ReferenceBoard(variant="english")
    start = time.perf_counter()
    leaves = perft(board, depth)
    return row(f"pydraughts {metadata.version('pydraughts')}", depth, leaves, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=9, help="perft depth of the compared runs (default 9)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of ours at --depth, the best kept")
    parser.add_argument("--deep", type=int, default=11, help="one more run of ours at this depth (0: none)")
    parser.add_argument("--mit-depth", type=int, default=4, help="pydraughts' depth (0: skip it)")
    parser.add_argument("--gpl-python", type=Path, default=GPL_PYTHON,
                        help="the py-draughts virtualenv's python")
    args = parser.parse_args(argv)

    rows = [ours(args.depth, args.repeat), ours(args.depth, max(1, args.repeat // 2), bulk=False)]
    if args.deep:
        rows.append(ours(args.deep, 1))
    gpl = py_draughts(args.depth, args.gpl_python)
    if gpl:
        rows.append(gpl)
    else:
        print(f"(py-draughts skipped: no {args.gpl_python})", file=sys.stderr)
    if args.mit_depth:
        rows.append(pydraughts(args.mit_depth))

    print(f"machine: {machine()}")
    print(f"{'program':58} {'depth':>5} {'leaves':>11} {'seconds':>9} {'leaves/s':>13}")
    for r in rows:
        print(f"{r['program']:58} {r['depth']:5d} {r['leaves']:11d} {r['seconds']:9.3f} {r['rate']:13,.0f}")
    base = rows[0]["rate"]
    for r in rows[3 if args.deep else 2:]:
        print(f"ours at depth {args.depth} / {r['program']}: {base / r['rate']:,.0f}x")


if __name__ == "__main__":
    main()
