"""Benchmarks behind `jitfish bench`: fixed work whose speed we track in the README."""

from __future__ import annotations

import time

PERFT_BENCH = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("rook endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
]


def perft_bench() -> tuple[int, float]:
    """Perft of three standard positions, single thread; prints and returns (nodes, seconds)."""
    from engine.board import Board
    from perft.perft import count

    total_nodes, total_time = 0, 0.0
    for name, fen, depth in PERFT_BENCH:
        board = Board(fen)
        start = time.perf_counter()
        nodes = count(board, depth)
        elapsed = time.perf_counter() - start
        total_nodes += nodes
        total_time += elapsed
        print(f"perft {depth} {name:15s} {nodes:>11d} nodes {elapsed:7.3f} s "
              f"{nodes / elapsed / 1e6:7.1f} M nodes/s")
    print(f"perft total {total_nodes} nodes {total_time:.3f} s "
          f"{total_nodes / total_time / 1e6:.1f} M nodes/s")
    return total_nodes, total_time
