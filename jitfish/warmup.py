"""Compile (or load from numba's cache) every kernel by running it once on a small position, then
mark the cache complete (engine/cachedir.py).

`make install` runs this so that the first real start of the engine is a warm one; the UCI loop
runs it in a process of its own when it starts on a cold cache (jitfish/kernels.py), and the
wheel's build runs it to ship a compiled cache (tools/packaging/backend.py). Processes that find
another one compiling the same cache wait for it instead of compiling twice.
"""

from __future__ import annotations

import fcntl
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from engine import cachedir

LOCK = ".compiling"


def warm_up() -> None:
    """Call every numba entry point the engine and its tools use once."""
    from engine.board import Board
    from eval.explain import explain
    from perft.perft import count
    from search.driver import Searcher
    from search.human_model import FeatureSearch

    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    count(board, 2)
    for move in board.legal_moves():
        board.push(move)
        board.outcome()
        board.pop()
    board.noisy_moves()
    board.fen()
    explain(board)
    Searcher(1).warm_up(board)
    FeatureSearch().raw(board)          # the human model's kernel (the levels that play like people)
    warm_up_checkers()


def warm_up_checkers() -> None:
    """The checkers kernels: perft (bulk and plain), a search, the draw rules, notation."""
    from checkers.board import Board
    from checkers.driver import Limits, Searcher
    from checkers.perft import count

    board = Board("W:W18,K27,30:B10,14,K19")
    count(board, 3)
    count(board, 2, bulk=False)
    board.legal_notation()
    board.outcome()
    Searcher(1 << 10).run(board, Limits(depth=4))


@contextmanager
def compiling(cache: Path) -> Iterator[None]:
    """Hold the cache's compile lock (waiting while another process holds it)."""
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / LOCK).open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def complete_cache() -> Path:
    """Make the cache in use complete: compile what is missing and write its marker."""
    cache = cachedir.cache_dir()
    with compiling(cache):
        warm_up()                      # loads what another process compiled meanwhile
        cachedir.mark_complete(cache)
    return cache


def main() -> None:
    start = time.perf_counter()
    cache = complete_cache()
    print(f"numba kernels ready in {time.perf_counter() - start:.1f} s ({cache})")


if __name__ == "__main__":
    main()
