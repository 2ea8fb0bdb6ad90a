"""Compile (or load from numba's cache) every kernel by running it once on a small position.

`make install` runs this so that the first real start of the engine is a warm one.
"""

import time


def warm_up() -> None:
    """Call every numba entry point the engine and its tools use once."""
    from engine.board import Board
    from eval.explain import explain
    from perft.perft import count
    from search.driver import Searcher

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


def main() -> None:
    start = time.perf_counter()
    warm_up()
    print(f"numba kernels ready in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
