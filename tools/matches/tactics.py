"""Solve an EPD test suite (`bm`/`am` operations) at a fixed time, depth or node count per position.

    python -m tools.matches.tactics ../shared/data/wac.epd --time 1.0
    python -m tools.matches.tactics ../shared/data/bk.epd --depth 10
    python -m tools.matches.tactics ../shared/data/wac.epd --nodes 2000000

A node count gives the same answer on a busy or a slower machine (about 1 s a position at 2 M
nodes/s), so two versions can be compared while other jobs run.

Prints each failure and the share solved. A position counts as solved when the engine's best
move is one of the `bm` moves (and none of the `am` moves).
"""

from __future__ import annotations

import argparse
import sys
import time

import chess

from engine.board import Board
from search.timeman import Limits
from search.driver import Searcher


def read_epd(path: str) -> list[tuple[chess.Board, dict]]:
    positions = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                board = chess.Board()
                ops = board.set_epd(line.strip())
                positions.append((board, ops))
    return positions


def solve(path: str, seconds: float | None, depth: int | None, hash_mb: int = 64,
          nodes: int | None = None) -> tuple[int, int]:
    """Run the suite; print failures and a summary; return (solved, total)."""
    searcher = Searcher(hash_mb)
    solved = 0
    positions = read_epd(path)
    start = time.perf_counter()
    for number, (py, ops) in enumerate(positions, 1):
        board = Board(py.fen())
        searcher.clear()
        searcher.prepare()
        limits = Limits(movetime=int(seconds * 1000)) if seconds else Limits(depth=depth, nodes=nodes)
        result = searcher.run(board, limits)
        move = py.parse_uci(board.uci(result.best))
        good = ops.get("bm", [])
        bad = ops.get("am", [])
        ok = (not good or move in good) and move not in bad
        solved += ok
        if not ok:
            wanted = ", ".join(py.san(m) for m in good) or "not " + ", ".join(py.san(m) for m in bad)
            print(f"{ops.get('id', number)}: played {py.san(move)}, wanted {wanted} (depth {result.depth})")
    elapsed = time.perf_counter() - start
    print(f"solved {solved}/{len(positions)} ({100 * solved / max(len(positions), 1):.1f}%) "
          f"in {elapsed:.0f} s")
    return solved, len(positions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.matches.tactics", description=__doc__.splitlines()[0])
    parser.add_argument("epd")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--time", type=float, help="seconds per position")
    group.add_argument("--depth", type=int, help="fixed depth per position")
    group.add_argument("--nodes", type=int, help="fixed node count per position")
    parser.add_argument("--hash", type=int, default=64)
    args = parser.parse_args(argv)
    solve(args.epd, args.time, args.depth, args.hash, args.nodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
