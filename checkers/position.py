"""The position array and make/unmake in place, with the zobrist key and the 40-move counter
kept incrementally.

A position is one int64 array `pos` (layout in checkers.defs): the two colours' boards and the
kings' board, the side to move, the ply, the 40-move counter, then the key of every position
played (the repetition history) and an undo record per ply. Kernels change it in place and
never allocate; `new_position()` makes one.

API (kernels unless marked):
  new_position() -> pos                          Python: an empty board, Black to move
  set_position(tab, pos, black, white, kings, side)  place the pieces; history restarts at ply 0
  make_move(tab, pos, move)                      play a legal move (from checkers.movegen.generate)
  unmake_move(tab, pos, move)                    take back the last move played, which was `move`
  compute_key(tab, pos) -> key                   the zobrist key from scratch (tests; set_position)
  key(pos) -> key                                the current position's key (kept incrementally)
The key covers the pieces and the side to move, nothing else: equal keys are the "same
position" of the repetition rule. Draw rules read the history: checkers.draw.
"""

import numpy as np

from checkers.bits import lsb
from checkers.defs import (POS_HISTORY, POS_KINGS, POS_PIECES, POS_PLY, POS_QUIET,
                           POS_SIDE, POS_SIZE, POS_UNDO, TAB_ZOBRIST, TAB_ZOBRIST_SIDE, UNDO_CAPTURED,
                           UNDO_CAPTURED_KINGS, UNDO_QUIET, UNDO_SIZE, WHITE)
from checkers.kernel import inlined_kernel, kernel
from checkers.move import captured, move_crowns, move_from, move_jumps, move_to


def new_position() -> np.ndarray:
    """An empty position array (no pieces, Black to move); fill it with set_position."""
    return np.zeros(POS_SIZE, dtype=np.int64)


@inlined_kernel
def _piece_key(tab, colour, king, sq):
    return tab[TAB_ZOBRIST + 32 * (2 * colour + king) + sq]


@kernel
def compute_key(tab, pos):
    """The zobrist key of the pieces and the side to move, from scratch."""
    key = 0
    for colour in range(2):
        pieces = pos[POS_PIECES + colour]
        while pieces:
            sq = lsb(pieces)
            pieces &= pieces - 1
            key ^= _piece_key(tab, colour, (pos[POS_KINGS] >> sq) & 1, sq)
    if pos[POS_SIDE] == WHITE:
        key ^= tab[TAB_ZOBRIST_SIDE]
    return key


@kernel
def set_position(tab, pos, black, white, kings, side):
    """Place the pieces (boards of square indices) and the side to move; the game history
    starts here (ply 0, the 40-move counter at 0)."""
    pos[:] = 0
    pos[POS_PIECES] = black
    pos[POS_PIECES + 1] = white
    pos[POS_KINGS] = kings
    pos[POS_SIDE] = side
    pos[POS_HISTORY] = compute_key(tab, pos)


@inlined_kernel
def key(pos):
    """The current position's zobrist key."""
    return pos[POS_HISTORY + pos[POS_PLY]]


@inlined_kernel
def make_move(tab, pos, move):
    """Play `move`, a legal move of the side to move, in place."""
    us = pos[POS_SIDE]
    them = 1 - us
    frm = move_from(move)
    to = move_to(move)
    ply = pos[POS_PLY]
    undo = POS_UNDO + ply * UNDO_SIZE
    h = pos[POS_HISTORY + ply]
    kings = pos[POS_KINGS]
    king = (kings >> frm) & 1
    pos[POS_PIECES + us] = (pos[POS_PIECES + us] & ~(1 << frm)) | (1 << to)   # from == to after a loop
    h ^= _piece_key(tab, us, king, frm)
    if king:
        kings = (kings & ~(1 << frm)) | (1 << to)
        h ^= _piece_key(tab, us, 1, to)
    elif move_crowns(move):
        kings |= 1 << to
        h ^= _piece_key(tab, us, 1, to)
    else:
        h ^= _piece_key(tab, us, 0, to)
    taken = 0
    taken_kings = 0
    if move_jumps(move):
        taken = captured(tab, move)
        taken_kings = taken & kings
        rest = taken
        while rest:
            sq = lsb(rest)
            rest &= rest - 1
            h ^= _piece_key(tab, them, (taken_kings >> sq) & 1, sq)
        pos[POS_PIECES + them] &= ~taken
        kings &= ~taken
    pos[POS_KINGS] = kings
    pos[undo + UNDO_CAPTURED] = taken
    pos[undo + UNDO_CAPTURED_KINGS] = taken_kings
    pos[undo + UNDO_QUIET] = pos[POS_QUIET]
    if king and not taken:
        pos[POS_QUIET] += 1                      # a king's step: the 40-move rule counts on
    else:
        pos[POS_QUIET] = 0                       # a man moved or a piece was taken
    pos[POS_SIDE] = them
    pos[POS_PLY] = ply + 1
    pos[POS_HISTORY + ply + 1] = h ^ tab[TAB_ZOBRIST_SIDE]


@inlined_kernel
def unmake_move(tab, pos, move):
    """Take back `move`, the last move played."""
    ply = pos[POS_PLY] - 1
    us = 1 - pos[POS_SIDE]
    them = 1 - us
    undo = POS_UNDO + ply * UNDO_SIZE
    frm = move_from(move)
    to = move_to(move)
    kings = pos[POS_KINGS]
    pos[POS_PIECES + us] = (pos[POS_PIECES + us] & ~(1 << to)) | (1 << frm)
    if move_crowns(move):
        kings &= ~(1 << to)
    elif (kings >> to) & 1:
        kings = (kings & ~(1 << to)) | (1 << frm)
    taken = pos[undo + UNDO_CAPTURED]
    pos[POS_PIECES + them] |= taken
    pos[POS_KINGS] = kings | pos[undo + UNDO_CAPTURED_KINGS]
    pos[POS_QUIET] = pos[undo + UNDO_QUIET]
    pos[POS_SIDE] = us
    pos[POS_PLY] = ply
