"""The checkers search: negamax alpha-beta with principal variation search, a transposition table,
and jumps resolved before any position is evaluated. One numba kernel per iteration of the
iterative deepening that checkers.driver runs.

Everything lives in arrays the Python side owns: the position `pos` (the game's, searched in
place on top of its history so that repetitions of the game count), the geometry `tab`, the
evaluation's tables `etab`, the transposition table `tt` and the workspace `ws` (counters, the
stop flag, killers, history, the triangular PV table and one move list with its ordering scores
per ply). No node allocates.

- Jumps first: at depth 0 a position where the side to move must jump is searched on (every jump,
  no stand-pat: a jump is compulsory), so no score comes from a position with a capture pending
  for the mover. A position where only one move is legal is extended a ply (forced lines are
  read to their end).
- Draws: a position that repeats one of the game or of the line (same side to move) scores 0, as
  does the 40-move rule; no legal move is a loss (WIN less the ply, so shorter wins score more).
- Ordering: the TT move, then jumps by the number taken and crowning, killers (two per ply), then
  the history of (from, to).
- Stop: ws[WS_STOP] (set by a timer or `stop` from another thread; the kernel releases the GIL)
  and ws[WS_NODE_LIMIT] are read every node; a stopped search unwinds returning 0, and the
  driver keeps the last completed iteration's move (or the stopped iteration's best so far).
"""

from __future__ import annotations

import numpy as np

from checkers.defs import MAX_MOVES, MAX_PLY, POS_PLY
from checkers.draw import forty_move_draw, repetitions
from checkers.eval import evaluate
from checkers.kernel import inlined_kernel, threaded_kernel
from checkers.move import move_crowns, move_from, move_jumps, move_to
from checkers.movegen import generate
from checkers.position import key, make_move, unmake_move

WIN = 30000                  # a won position (no legal move for the opponent) at the root
WIN_BOUND = WIN - 2 * MAX_PLY   # scores beyond this are wins/losses in so many plies
INFINITE = 32000

# ---- the workspace ws (int64) ----------------------------------------------------------------
WS_NODES = 0
WS_NODE_LIMIT = 1            # 0: none
WS_STOP = 2
WS_SELDEPTH = 3
WS_NOISE = 4                 # evaluation noise amplitude (levels)
WS_SEED = 5
WS_ROOT_BEST = 6             # best root move of the running iteration (0 until one is found)
WS_ROOT_SCORE = 7
WS_TT_MASK = 8               # entries - 1
WS_KILLERS = 16                              # MAX_PLY x 2
WS_HISTORY = WS_KILLERS + 2 * MAX_PLY        # 32 x 32 (from, to)
WS_PV_LEN = WS_HISTORY + 1024                # MAX_PLY
WS_PV = WS_PV_LEN + MAX_PLY                  # MAX_PLY x MAX_PLY
WS_MOVES = WS_PV + MAX_PLY * MAX_PLY         # MAX_PLY x MAX_MOVES move lists
WS_ORDER = WS_MOVES + MAX_PLY * MAX_MOVES    # their ordering scores
WS_SIZE = WS_ORDER + MAX_PLY * MAX_MOVES

# ---- the transposition table tt (int64, TT_ENTRY per entry) ---------------------------------
TT_ENTRY = 4                 # key, move, score, depth | bound << 8
BOUND_EXACT, BOUND_LOWER, BOUND_UPPER = 1, 2, 3

TT_MOVE_ORDER = 1 << 40
JUMP_ORDER = 1 << 36
CROWN_ORDER = 1 << 35
KILLER_ORDER = 1 << 34


def new_workspace(tt_entries: int = 1 << 20) -> tuple[np.ndarray, np.ndarray]:
    """(ws, tt): a workspace and a transposition table of `tt_entries` (a power of two) entries."""
    assert tt_entries & (tt_entries - 1) == 0
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    ws[WS_TT_MASK] = tt_entries - 1
    return ws, np.zeros(TT_ENTRY * tt_entries, dtype=np.int64)


@inlined_kernel
def _score_to_tt(score, ply):
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


@inlined_kernel
def _score_from_tt(score, ply):
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score


@inlined_kernel
def _order(ws, start, end, ply, tt_move):
    """Ordering scores of the moves in ws[start:end]."""
    k0 = ws[WS_KILLERS + 2 * ply]
    k1 = ws[WS_KILLERS + 2 * ply + 1]
    for i in range(start, end):
        m = ws[i]
        if m == tt_move:
            s = TT_MOVE_ORDER
        elif move_jumps(m):
            s = JUMP_ORDER + move_jumps(m) * 16 + (8 if move_crowns(m) else 0)
        elif move_crowns(m):
            s = CROWN_ORDER
        elif m == k0:
            s = KILLER_ORDER + 1
        elif m == k1:
            s = KILLER_ORDER
        else:
            s = ws[WS_HISTORY + 32 * move_from(m) + move_to(m)]
        ws[i - WS_MOVES + WS_ORDER] = s


@inlined_kernel
def _pick(ws, i, end):
    """Bring the best-ordered move of ws[i:end] to i (selection sort, one step)."""
    best = i
    off = WS_ORDER - WS_MOVES
    for j in range(i + 1, end):
        if ws[j + off] > ws[best + off]:
            best = j
    if best != i:
        m = ws[i]
        ws[i] = ws[best]
        ws[best] = m
        s = ws[i + off]
        ws[i + off] = ws[best + off]
        ws[best + off] = s
    return ws[i]


@threaded_kernel
def search(tab, etab, pos, ws, tt, depth, ply, alpha, beta):
    """The score of the position for the side to move, searched `depth` plies (more along forced
    lines and jumps) within (alpha, beta); ply is the distance from the root."""
    ws[WS_PV_LEN + ply] = 0
    ws[WS_NODES] += 1
    if ws[WS_STOP]:
        return 0
    if ws[WS_NODE_LIMIT] > 0 and ws[WS_NODES] >= ws[WS_NODE_LIMIT]:
        ws[WS_STOP] = 1
        return 0
    if ply > ws[WS_SELDEPTH]:
        ws[WS_SELDEPTH] = ply
    start = WS_MOVES + ply * MAX_MOVES
    end = generate(tab, pos, ws, start)
    if end == start:
        return -WIN + ply                             # no legal move: lost
    if ply > 0:
        if repetitions(pos) >= 1 or forty_move_draw(pos):
            return 0
    jumping = move_jumps(ws[start]) > 0
    if ply >= MAX_PLY - 2:
        return evaluate(etab, pos, ws[WS_NOISE], ws[WS_SEED])
    if depth <= 0 and not jumping:
        return evaluate(etab, pos, ws[WS_NOISE], ws[WS_SEED])
    if depth < 0:
        depth = 0
    # transposition table
    h = key(pos)
    slot = TT_ENTRY * (h & ws[WS_TT_MASK])
    tt_move = 0
    pv_node = beta - alpha > 1
    if tt[slot] == h:
        tt_move = tt[slot + 1]
        tt_depth = tt[slot + 3] & 255
        bound = tt[slot + 3] >> 8
        if tt_depth >= depth and ply > 0 and not pv_node:
            s = _score_from_tt(tt[slot + 2], ply)
            if bound == BOUND_EXACT or (bound == BOUND_LOWER and s >= beta) or (bound == BOUND_UPPER and s <= alpha):
                return s
    if end - start == 1 and ply < MAX_PLY - 8:
        depth += 1                                    # a forced move: read on
    _order(ws, start, end, ply, tt_move)
    best = -INFINITE
    best_move = 0
    original_alpha = alpha
    for i in range(start, end):
        m = _pick(ws, i, end)
        make_move(tab, pos, m)
        if i == start:
            s = -search(tab, etab, pos, ws, tt, depth - 1, ply + 1, -beta, -alpha)
        else:
            reduce = 0
            if depth >= 3 and i - start >= 3 and not jumping and not move_crowns(m) and not pv_node:
                reduce = 1
            s = -search(tab, etab, pos, ws, tt, depth - 1 - reduce, ply + 1, -alpha - 1, -alpha)
            if s > alpha and (reduce > 0 or s < beta):
                s = -search(tab, etab, pos, ws, tt, depth - 1, ply + 1, -beta, -alpha)
        unmake_move(tab, pos, m)
        if ws[WS_STOP]:
            return 0
        if s > best:
            best = s
            best_move = m
            if s > alpha:
                alpha = s
                # the PV: this move and the child's line
                row = WS_PV + ply * MAX_PLY
                child = WS_PV + (ply + 1) * MAX_PLY
                n = ws[WS_PV_LEN + ply + 1]
                ws[row] = m
                for j in range(n):
                    ws[row + 1 + j] = ws[child + j]
                ws[WS_PV_LEN + ply] = n + 1
                if ply == 0:
                    ws[WS_ROOT_BEST] = m
                    ws[WS_ROOT_SCORE] = s
                if s >= beta:
                    if not move_jumps(m):
                        if ws[WS_KILLERS + 2 * ply] != m:
                            ws[WS_KILLERS + 2 * ply + 1] = ws[WS_KILLERS + 2 * ply]
                            ws[WS_KILLERS + 2 * ply] = m
                        hi = WS_HISTORY + 32 * move_from(m) + move_to(m)
                        ws[hi] += depth * depth
                        if ws[hi] > (1 << 30):
                            for j in range(1024):
                                ws[WS_HISTORY + j] >>= 1
                    break
    if best >= beta:
        bound = BOUND_LOWER
    elif best > original_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    tt[slot] = h
    tt[slot + 1] = best_move
    tt[slot + 2] = _score_to_tt(best, ply)
    tt[slot + 3] = depth | (bound << 8)
    return best


@threaded_kernel
def search_root(tab, etab, pos, ws, tt, depth, alpha, beta):
    """One iteration at the root (ply 0 of the search, whatever the game's ply)."""
    ws[WS_ROOT_BEST] = 0
    ws[WS_SELDEPTH] = 0
    zero = pos[POS_PLY] * 0
    return search(tab, etab, pos, ws, tt, depth, zero, alpha, beta)
