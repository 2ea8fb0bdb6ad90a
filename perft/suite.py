"""Check every position of an EPD perft suite (`FEN ;D1 n ;D2 n ...`) against our counts."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from engine.board import Board
from perft.perft import count


@dataclass
class SuiteEntry:
    fen: str
    counts: dict[int, int]     # depth -> expected leaf count
    line: int


def read_suite(path: str) -> list[SuiteEntry]:
    """Parse a perft EPD file; raises ValueError naming the line of any malformed entry."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            text = text.strip()
            if not text or text.startswith("#"):
                continue
            fen, *fields = text.split(";")
            counts = {}
            for item in fields:
                parts = item.split()
                if len(parts) != 2 or not parts[0].startswith("D") or not parts[0][1:].isdigit() \
                        or not parts[1].isdigit():
                    raise ValueError(f"{path}:{number}: malformed field {item.strip()!r}")
                counts[int(parts[0][1:])] = int(parts[1])
            entries.append(SuiteEntry(fen.strip(), counts, number))
    return entries


def _progress(done: int, total: int, failures: int, start: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} positions, "
                     f"{failures} failed, {time.perf_counter() - start:.0f} s")
    sys.stderr.flush()


def run_suite(path: str, max_depth: int | None = None, max_nodes: int | None = None,
              chess960: bool = False, progress: bool = True) -> int:
    """Run the suite, print mismatches and a summary; return the number of failed checks."""
    entries = read_suite(path)
    board = Board()
    failures = checks = nodes = 0
    start = time.perf_counter()
    for i, entry in enumerate(entries):
        board.set_fen(entry.fen, chess960)
        for depth, expected in sorted(entry.counts.items()):
            if (max_depth is not None and depth > max_depth) or (max_nodes is not None and expected > max_nodes):
                continue
            got = count(board, depth)
            checks += 1
            nodes += got
            if got != expected:
                failures += 1
                print(f"\nMISMATCH line {entry.line} depth {depth}: expected {expected}, got {got}: {entry.fen}")
        if progress:
            _progress(i + 1, len(entries), failures, start)
    elapsed = time.perf_counter() - start
    if progress:
        sys.stderr.write("\n")
    print(f"{len(entries)} positions, {checks} counts checked, {failures} mismatches, "
          f"{nodes} nodes in {elapsed:.1f} s ({nodes / max(elapsed, 1e-9) / 1e6:.1f} M nodes/s)")
    return failures
