"""The draw rules that need the game's history: threefold repetition and the 40-move rule.

Positions can repeat only while nothing irreversible happens: a man's move or a capture changes
the position for good, so the repetition scan looks back only over POS_QUIET plies (the kings'
steps since), two plies at a time (the same side to move). POS_QUIET is also the 40-move rule's
counter: 80 plies, 40 moves of each player, with no man moved and nothing taken draw the game.
A player who has no legal move has lost even then (checkers.board.Board.outcome checks that
first), as pydraughts rules.

API (kernels): repetitions(pos) -> n, forty_move_draw(pos) -> bool. A search may treat any
repetition (n >= 1) inside its own line as a draw; the game's rule is n >= 2 (threefold).
"""

from checkers.defs import FORTY_MOVE_PLIES, POS_HISTORY, POS_PLY, POS_QUIET
from checkers.kernel import inlined_kernel


@inlined_kernel
def repetitions(pos):
    """How many earlier positions of the history equal the current one (2: threefold)."""
    ply = pos[POS_PLY]
    current = pos[POS_HISTORY + ply]
    oldest = ply - pos[POS_QUIET]
    if oldest < 0:
        oldest = 0
    n = 0
    i = ply - 4                       # two plies back is never the same: the mover's king has moved
    while i >= oldest:
        if pos[POS_HISTORY + i] == current:
            n += 1
        i -= 2
    return n


@inlined_kernel
def forty_move_draw(pos):
    """Whether 40 moves of each player have passed with no man moved and nothing taken."""
    return pos[POS_QUIET] >= FORTY_MOVE_PLIES
