"""The move: one int64 (bit layout in checkers.defs). Build and read it only through these
helpers, which are small inlined kernels (also callable from Python).

A move carries its path, not its captures: from, to, the number of jumps, the crowning flag and
the direction of every jump. What it takes is found by walking the path (`captured`), which
make_move does once per capture move; steps, the bulk of the tree, never walk.
"""

from checkers.defs import (MOVE_CROWN, MOVE_JUMPS_SHIFT, MOVE_PATH_SHIFT, MOVE_TO_SHIFT, TAB_LANDING,
                           TAB_NEIGHBOUR)
from checkers.kernel import inlined_kernel


@inlined_kernel
def encode(frm, to, jumps, crowns, path):
    """A move from square index `frm` to `to` with `jumps` jumps (0: a step) whose directions are
    `path` (2 bits each, first lowest; a step's own direction), crowning a man if `crowns`."""
    move = frm | (to << MOVE_TO_SHIFT) | (jumps << MOVE_JUMPS_SHIFT) | (path << MOVE_PATH_SHIFT)
    if crowns:
        move |= MOVE_CROWN
    return move


@inlined_kernel
def move_from(move):
    return move & 31


@inlined_kernel
def move_to(move):
    return (move >> MOVE_TO_SHIFT) & 31


@inlined_kernel
def move_jumps(move):
    """Number of jumps (= pieces taken); 0 for a step."""
    return (move >> MOVE_JUMPS_SHIFT) & 15


@inlined_kernel
def move_crowns(move):
    return (move & MOVE_CROWN) != 0


@inlined_kernel
def move_direction(move, i):
    """Direction of jump i (0 = the first), or of the step."""
    return (move >> (MOVE_PATH_SHIFT + 2 * i)) & 3


@inlined_kernel
def captured(tab, move):
    """The board of the squares a move takes (0 for a step)."""
    sq = move & 31
    taken = 0
    for i in range(move_jumps(move)):
        d = move_direction(move, i)
        taken |= 1 << tab[TAB_NEIGHBOUR + 4 * sq + d]
        sq = tab[TAB_LANDING + 4 * sq + d]
    return taken


@inlined_kernel
def landing_square(tab, move, i):
    """Where jump i (0 = the first) lands: the notation's i-th square after the first."""
    sq = move & 31
    for j in range(i + 1):
        sq = tab[TAB_LANDING + 4 * sq + move_direction(move, j)]
    return sq
