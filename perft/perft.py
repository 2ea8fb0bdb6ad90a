"""Perft kernels: leaf counts with bulk counting at the last ply, and per-root-move divide."""

import numpy as np

from engine.defs import MAX_MOVES, MAX_PLY
from engine.kernel import threaded_kernel
from engine.movegen import ALL, COUNT, generate
from engine.position import make_move, unmake_move


def move_buffer() -> np.ndarray:
    """Scratch space for one move list per remaining depth."""
    return np.zeros((MAX_PLY + 1) * MAX_MOVES, dtype=np.int64)


@threaded_kernel
def perft(tab, pos, moves, depth):
    """Number of legal move sequences of length `depth` from the position (leaves of the tree)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return generate(tab, pos, moves, 0, COUNT)
    start = depth * MAX_MOVES
    end = generate(tab, pos, moves, start, ALL)
    total = 0
    for i in range(start, end):
        make_move(tab, pos, moves[i])
        total += perft(tab, pos, moves, depth - 1)
        unmake_move(tab, pos, moves[i])
    return total


def divide(board, depth: int) -> list[tuple[str, int]]:
    """Leaf count under each root move (what `go perft` prints), in generation order."""
    buffer = move_buffer()
    result = []
    for move in board.legal_moves():
        make_move(board.tab, board.arrays, move)
        result.append((board.uci(move), int(perft(board.tab, board.arrays, buffer, depth - 1))))
        unmake_move(board.tab, board.arrays, move)
    return result


def count(board, depth: int) -> int:
    """Leaf count of the legal-move tree of `board` to `depth`."""
    return int(perft(board.tab, board.arrays, move_buffer(), depth))
