"""The per-thread search workspace: one preallocated int64 array the numba search works in.

Everything lives in a single array (regions at the WS_* offsets) because every array a numba
function receives costs reference counting on each call, and the search recurses millions of
times a second. The CTL region is how the Python side and the search talk: the stop flag and
limits go in, node counts and the current root move come out.
"""

import math

import numpy as np

from engine.defs import MAX_MOVES, MAX_PLY, NO_PIECE, PIECES
from eval.evaluate import EVAL_REGION, W_NOISE, W_PAWN_CACHE, W_WEIGHTS
from eval.params import N_PARAMS, weights
from search import tunables

PLIES = MAX_PLY + 4
QUIETS_PER_PLY = 64
CAPTURES_PER_PLY = 32
PIECE_SQUARES = PIECES * 64  # a move's piece and target square, piece * 64 + to: continuation history's index
COUNTER_SLOTS = (NO_PIECE + 1) * 64   # the previous move's piece (NO_PIECE too) and target square
CAPTURED_TYPES = 8           # capture history's captured types, PAWN..NO_TYPE (a promotion's), rounded up

# ctl slots (at WS_CTL)
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
CTL_PROVE_MATE = 10     # 1: `go mate` - no selectivity that can hide a mate (null move, LMR, ...)
CTL_QS_PLIES = 11       # most capture plies a quiescence search may play (a weak level's horizon)
CTL_QS_START = 12       # the ply at which the current quiescence search began
CTL_TB_PIECES = 13      # probe the endgame tablebases with at most this many pieces (0: never)
CTL_TB_HITS = 14        # tablebase probes that found the position
CTL_FIRST_MOVE_NODES = 15   # nodes spent on the root's first move (the last best) in this iteration
CTL_SIZE = 16

_regions: list[tuple[str, int]] = []


def _region(name: str, size: int) -> int:
    offset = sum(s for _, s in _regions)
    _regions.append((name, size))
    return offset


_region("evaluation", EVAL_REGION)                     # weights and trace, first (eval's layout)
WS_CTL = _region("ctl", CTL_SIZE)
WS_MOVES = _region("moves", PLIES * MAX_MOVES)          # one move list per ply
WS_SCORES = _region("scores", PLIES * MAX_MOVES)        # their ordering keys
WS_KILLERS = _region("killers", PLIES * 2)
WS_HISTORY = _region("history", 2 * 64 * 64)            # [side][from][to]
WS_COUNTERS = _region("counters", COUNTER_SLOTS)        # [piece * 64 + to] of the previous move
WS_CONT_HISTORY = _region("continuation history", PIECE_SQUARES * PIECE_SQUARES)   # [earlier move][move]
WS_CAPTURE_HISTORY = _region("capture history", PIECE_SQUARES * CAPTURED_TYPES)  # [piece * 64 + to][type]
WS_CONT_ROWS = _region("continuation rows", PLIES)      # per ply: the row of the move made there, -1 none
WS_CAPTURES = _region("captures tried", PLIES * CAPTURES_PER_PLY)
WS_PV = _region("pv", PLIES * PLIES)                    # triangular PV table
WS_PV_LEN = _region("pv length", PLIES)
WS_EVALS = _region("static evals", PLIES)
WS_LMR = _region("reductions", 64 * 64)                 # [depth][move number]
WS_QUIETS = _region("quiets tried", PLIES * QUIETS_PER_PLY)
WS_ROOT_MOVES = _region("root moves", MAX_MOVES)
WS_TUNABLES = _region("tunables", len(tunables.TUNABLES))   # search/tunables.py, in its order
WS_SIZE = _region("end", 0)


def new_workspace() -> np.ndarray:
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    set_tunables(ws, {})
    set_weights(ws, weights())
    ws[WS_CTL + CTL_QS_PLIES] = MAX_PLY
    return ws


def tunable(name: str) -> int:
    """Where in the workspace the search reads the tunable `name`."""
    return WS_TUNABLES + tunables.index(name)


def set_tunables(ws: np.ndarray, values: dict[str, int]) -> None:
    """Install search tunables (the defaults for any not given; ValueError if out of range) and
    the late-move reduction table made from them, in this workspace only (a Lazy SMP searcher's
    helper threads keep theirs: the tuner searches with one thread)."""
    merged = tunables.checked(values)
    for i, name in enumerate(tunables.NAMES):
        ws[WS_TUNABLES + i] = merged[name]
    base, divisor = merged["lmr_base"] / 100, merged["lmr_divisor"] / 100
    for d in range(1, 64):
        for m in range(1, 64):   # late-move reductions: about ln(d) * ln(m) / 2.1
            ws[WS_LMR + 64 * d + m] = int(base + math.log(d) * math.log(m) / divisor)


def set_weights(ws: np.ndarray, w: np.ndarray) -> None:
    """Install evaluation weights (an (N_PARAMS, 2) array) into a workspace; this empties the
    pawn cache, whose entries were computed with the old weights."""
    ws[W_WEIGHTS:W_WEIGHTS + 2 * N_PARAMS] = w.reshape(-1)
    ws[W_PAWN_CACHE:EVAL_REGION] = 0


def set_weakness(ws: np.ndarray, noise: int, seed: int, quiescence_plies: int) -> None:
    """A weak level's misjudgement (evaluation noise in centipawns, keyed by `seed`) and horizon
    (capture plies in quiescence); (0, 0, MAX_PLY) is full strength."""
    ws[W_NOISE] = noise
    ws[W_NOISE + 1] = seed & 0x7FFFFFFFFFFFFFFF
    ws[WS_CTL + CTL_QS_PLIES] = quiescence_plies


def clear_heuristics(ws: np.ndarray) -> None:
    """Forget killers, countermoves and every history (a new game)."""
    ws[WS_KILLERS:WS_KILLERS + PLIES * 2] = 0
    ws[WS_HISTORY:WS_HISTORY + 2 * 64 * 64] = 0
    ws[WS_COUNTERS:WS_COUNTERS + COUNTER_SLOTS] = 0
    ws[WS_CONT_HISTORY:WS_CONT_HISTORY + PIECE_SQUARES * PIECE_SQUARES] = 0
    ws[WS_CAPTURE_HISTORY:WS_CAPTURE_HISTORY + PIECE_SQUARES * CAPTURED_TYPES] = 0


def ctl_view(ws: np.ndarray) -> np.ndarray:
    """The control slots as a writable view (for the Python side)."""
    return ws[WS_CTL:WS_CTL + CTL_SIZE]

