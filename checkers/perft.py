"""Perft: the number of legal move sequences of a given length (the leaves of the move tree),
the check of move generation and make/unmake against published counts and other programs.

Each jump path is one move, so a king's loop run either way round counts twice (as the notation
writes two moves); the published counts from the start (OEIS A133046) never meet one.

API: perft(tab, pos, moves, depth) -> leaves (kernel, no GIL; bulk counting at the last ply),
perft_plain (the same without bulk counting: every leaf made and unmade), move_buffer(depth);
Python: count(board, depth), divide(board, depth).
"""

from __future__ import annotations

import numpy as np

from checkers.defs import MAX_MOVES, POS_KINGS, POS_PIECES, POS_SIDE
from checkers.kernel import inlined_kernel, threaded_kernel
from checkers.move import captured, move_crowns, move_from, move_jumps, move_to
from checkers.movegen import count_moves, count_moves_of, generate
from checkers.position import make_move, unmake_move


def move_buffer(depth: int) -> np.ndarray:
    """Scratch for one move list per remaining ply of a perft to `depth`."""
    return np.zeros((max(depth, 1) + 1) * MAX_MOVES, dtype=np.int64)


@inlined_kernel
def _replies_after(tab, pos, move, moves, start):
    """How many legal replies `move` leaves the opponent, from the boards it makes, without
    playing it (no key, no history: perft's last two plies need only the count)."""
    us = pos[POS_SIDE]
    frm = move_from(move)
    to = move_to(move)
    mine = (pos[POS_PIECES + us] & ~(1 << frm)) | (1 << to)
    opp = pos[POS_PIECES + 1 - us]
    kings = pos[POS_KINGS]
    if (kings >> frm) & 1:
        kings = (kings & ~(1 << frm)) | (1 << to)
    elif move_crowns(move):
        kings |= 1 << to
    if move_jumps(move):
        taken = captured(tab, move)
        opp &= ~taken
        kings &= ~taken
    return count_moves_of(tab, 1 - us, opp, mine, kings, moves, start)


@threaded_kernel
def perft(tab, pos, moves, depth):
    """Leaves of the legal-move tree `depth` plies deep; the last ply is counted, not played,
    and the one before it is not played either: each move's replies are counted from the boards
    it would leave (`_replies_after`)."""
    if depth <= 0:
        return 1
    start = depth * MAX_MOVES                  # a variable, never a literal: one compiled _jump_paths
    if depth == 1:
        return count_moves(tab, pos, moves, start)
    end = generate(tab, pos, moves, start)
    total = 0
    if depth == 2:
        for i in range(start, end):
            total += _replies_after(tab, pos, moves[i], moves, start - MAX_MOVES)
        return total
    for i in range(start, end):
        make_move(tab, pos, moves[i])
        total += perft(tab, pos, moves, depth - 1)
        unmake_move(tab, pos, moves[i])
    return total


@threaded_kernel
def perft_plain(tab, pos, moves, depth):
    """perft without bulk counting: every leaf is made and unmade (the speed of make/unmake)."""
    if depth <= 0:
        return 1
    start = depth * MAX_MOVES
    end = generate(tab, pos, moves, start)
    total = 0
    for i in range(start, end):
        make_move(tab, pos, moves[i])
        total += perft_plain(tab, pos, moves, depth - 1)
        unmake_move(tab, pos, moves[i])
    return total


def count(board, depth: int, bulk: bool = True) -> int:
    """Leaves of the legal-move tree of a checkers.board.Board to `depth`."""
    kernel = perft if bulk else perft_plain
    return int(kernel(board.tab, board.pos, move_buffer(depth), np.int64(depth)))


def divide(board, depth: int) -> list[tuple[str, int]]:
    """Leaves under each legal move (in notation), in generation order."""
    buffer = move_buffer(depth)
    result = []
    for move in board.legal_moves():
        text = board.notation(move)
        board.push(move)
        result.append((text, int(perft(board.tab, board.pos, buffer, np.int64(depth - 1)))))
        board.pop()
    return result
