"""The per-thread search workspace: preallocated arrays the numba search works in.

`ws` is a tuple indexed by the WS_* constants; `ctl` (int64) is how the Python side and the
search talk: the stop flag and limits go in, node counts and the current root move come out.
"""

import math

import numpy as np

from engine.defs import MAX_MOVES, MAX_PLY
from eval.evaluate import TRACE_SIZE
from eval.params import weights

# ctl slots
CTL_STOP = 0            # set to 1 (by anyone) to end the search as soon as possible
CTL_NODES = 1
CTL_NODE_LIMIT = 2      # 0 = no limit
CTL_SELDEPTH = 3
CTL_ROOT_PLY = 4        # history index of the root position (repetitions before it need 3-fold)
CTL_GENERATION = 5      # transposition-table age of this search
CTL_CURRMOVE = 6
CTL_CURRMOVE_NUMBER = 7
CTL_ROOT_FIRST = 8      # MultiPV: root moves before this index are already reported
CTL_ROOT_COUNT = 9      # number of root moves
CTL_SIZE = 16

(WS_MOVES, WS_SCORES, WS_KILLERS, WS_HISTORY, WS_COUNTERS, WS_PV, WS_PV_LEN, WS_EVALS, WS_ACC,
 WS_CTL, WS_WEIGHTS, WS_NO_TRACE, WS_LMR, WS_QUIETS, WS_ROOT_MOVES) = range(15)

QUIETS_PER_PLY = 64


def lmr_table() -> np.ndarray:
    """Late-move reductions by [depth][move number]: about ln(d) * ln(m) / 2.1."""
    table = np.zeros((64, 64), dtype=np.int64)
    for d in range(1, 64):
        for m in range(1, 64):
            table[d, m] = int(0.75 + math.log(d) * math.log(m) / 2.1)
    return table


def new_workspace() -> tuple:
    plies = MAX_PLY + 4
    return (
        np.zeros(plies * MAX_MOVES, dtype=np.int64),         # WS_MOVES: one move list per ply
        np.zeros(plies * MAX_MOVES, dtype=np.int64),         # WS_SCORES: their ordering keys
        np.zeros((plies, 2), dtype=np.int64),                # WS_KILLERS
        np.zeros((2, 64, 64), dtype=np.int64),               # WS_HISTORY: [side][from][to]
        np.zeros(13 * 64, dtype=np.int64),                   # WS_COUNTERS: [piece * 64 + to] of the previous move
        np.zeros((plies, plies), dtype=np.int64),            # WS_PV: triangular PV table
        np.zeros(plies, dtype=np.int64),                     # WS_PV_LEN
        np.zeros(plies, dtype=np.int64),                     # WS_EVALS: static eval by ply
        np.zeros(2, dtype=np.int64),                         # WS_ACC: evaluation scratch
        np.zeros(CTL_SIZE, dtype=np.int64),                  # WS_CTL
        weights(),                                           # WS_WEIGHTS
        np.zeros(0, dtype=np.float64),                       # WS_NO_TRACE
        lmr_table(),                                         # WS_LMR
        np.zeros(plies * QUIETS_PER_PLY, dtype=np.int64),    # WS_QUIETS: quiet moves tried per ply
        np.zeros(MAX_MOVES, dtype=np.int64),                 # WS_ROOT_MOVES
    )


def clear_heuristics(ws: tuple) -> None:
    """Forget killers, history and countermoves (a new game)."""
    for index in (WS_KILLERS, WS_HISTORY, WS_COUNTERS):
        ws[index][...] = 0


def trace_array() -> np.ndarray:
    return np.zeros(TRACE_SIZE, dtype=np.float64)
