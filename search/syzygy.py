"""The search's door to the endgame tablebases: a WDL probe that leaves nopython mode.

python-chess reads the tables, so the probe runs in numba's object mode (it takes the GIL for
the call); the search only calls it right after a capture or pawn move with few pieces left.
"""

from numba import objmode

from engine.kernel import kernel
from engine.tablebase import UNKNOWN, probe_wdl_for_search

TB_WIN = 20000          # a tablebase win, minus the ply it was found at: below any mate score
TB_UNKNOWN = UNKNOWN


@kernel
def probe_wdl(pos):
    """2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss for the side to move; TB_UNKNOWN
    when the tables do not have the position."""
    st = pos[1]
    with objmode(wdl="int64"):
        wdl = probe_wdl_for_search(st)
    return wdl
