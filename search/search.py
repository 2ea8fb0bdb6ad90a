"""Alpha-beta search (negamax, principal variation search) with quiescence, in numba.

`search` reads top to bottom as numbered steps. The root is an ordinary node whose move list
comes from the caller (iterative deepening, MultiPV and `searchmoves` live in search/driver.py).
Scores are centipawns from the side to move's view; mates are MATE - plies to mate. All scratch
state is in the workspace array `ws` (see search/workspace.py).

Numba caveat: a recursive call must pass exactly the argument types of the outer call. A literal
(`True`, `3`) is typed as a literal and makes a second specialisation whose recursive link is
not restored from numba's cache, which crashes the next process. Hence `np.bool_(True)` below.
"""

import numpy as np

from engine.bits import popcount
from engine.defs import (BB_ALL, BB_WHITE, DRAW, INFINITE, KING, MATE, MATE_IN_MAX, MAX_MOVES, MAX_PLY, NO_EVAL, PAWN,
                         ST_CASTLING, ST_HALFMOVE, ST_SIDE, TB_WIN)
from engine.draw import fifty_move_counter_expired, insufficient_material, repetitions
from engine.kernel import kernel, threaded_kernel
from engine.move import NULL_MOVE, is_promotion, move_to
from engine.movegen import ALL, COUNT, NOISY, QUIET, generate, is_legal
from engine.piece import PIECE_VALUES, make_piece
from engine.position import (current_key, gives_check, in_check, last_move, make_move, make_null, piece_on,
                             unmake_move, unmake_null)
from eval.evaluate import W_NNUE, W_PAWN_CACHE, evaluate
from eval.nnue import R_ON, pop, push
from eval.nnue import start as start_network
from search.movepick import (SCORE_COUNTER, SCORE_SHIFT, SCORE_TT, capture_slot, captured_type, continuation_row,
                             history_slot, is_noisy, pick_next, piece_square, quiet_history, score_moves,
                             score_quiets, see_ge)
from search.tablebase import TB_UNKNOWN, probe_wdl
from search.tt import (BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, from_tt, prefetch_bucket, probe,
                       store, to_tt)
from search.workspace import (CAPTURES_PER_PLY, CTL_CURRMOVE, CTL_CURRMOVE_NUMBER, CTL_FIRST_MOVE_NODES,
                              CTL_GENERATION, CTL_NODE_LIMIT, CTL_NODES, CTL_PROVE_MATE, CTL_QS_PLIES,
                              CTL_QS_START, CTL_ROOT_COUNT, CTL_ROOT_FIRST, CTL_ROOT_PLY, CTL_SELDEPTH,
                              CTL_STOP, CTL_TB_HITS, CTL_TB_PIECES, PLIES, QUIETS_PER_PLY, WS_CAPTURES,
                              WS_CONT_ROWS, WS_COUNTERS, WS_CTL, WS_EVALS, WS_KILLERS, WS_LMR, WS_MOVES,
                              WS_PV, WS_PV_LEN, WS_QUIETS, WS_ROOT_MOVES, tunable)

HISTORY_MAX = 16384
STAGE_HASH, STAGE_NOISY, STAGE_QUIET, STAGE_PICK = 0, 1, 2, 3   # move-loop stages (Step 9)

# Selectivity margins and limits, one name each. What each feature was worth when it was
# measured is recorded with the change that measured it (CHANGELOG.md), not here. The margins a
# tuner may move are read from the workspace (search/tunables.py has their defaults): the names
# ending in _AT are their workspace slots.
RFP_MAX_DEPTH = 7            # reverse futility pruning: far above beta, a quiet move will hold it
RFP_MARGIN_AT = tunable("rfp_margin")        # ... per ply of depth (one ply less when improving)
NMP_MIN_DEPTH = 3            # null-move pruning: if passing still fails high, a real move will too
NMP_BASE_REDUCTION = 3       # ... R = 3 + depth/4 + min((eval-beta)/divisor, 3)
NMP_DEPTH_DIVISOR = 4
NMP_EVAL_DIVISOR_AT = tunable("nmp_eval_divisor")
RAZOR_MAX_DEPTH = 2          # razoring: hopeless at depth 1-2 unless a capture rescues it
RAZOR_MARGIN_AT = tunable("razor_margin")    # ... per ply of depth
IIR_MIN_DEPTH = 4            # internal iterative reduction: without a table move the node is probably new
LMP_MAX_DEPTH = 8            # late move pruning: quiet moves after (base + depth^2) / (2 unless improving)
LMP_BASE_AT = tunable("lmp_base")
FUTILITY_MAX_DEPTH = 8       # futility pruning at the depth the move gets after its reduction:
FUTILITY_BASE_AT = tunable("futility_base")            # ... static eval + base + per_depth * lmr_depth
FUTILITY_PER_DEPTH_AT = tunable("futility_per_depth")  #     <= alpha skips it and every later quiet move
FUTILITY_HISTORY_GUARD_AT = tunable("futility_history_guard")  # ... unless the move has this much history
SEE_PRUNE_MAX_DEPTH = 8      # SEE pruning: quiet moves losing more than margin * depth^2
SEE_QUIET_MARGIN_AT = tunable("see_quiet_margin")
SEE_NOISY_MARGIN_AT = tunable("see_noisy_margin")     # ... and of losing captures below -margin * depth
LMR_MIN_DEPTH = 3            # late move reductions: later moves searched shallower first
LMR_HISTORY_DIVISOR_AT = tunable("lmr_history_divisor")   # ... one ply less per this much history
HISTORY_PRUNE_MAX_DEPTH = 4  # history pruning: a quiet move whose history is below -margin * depth
HISTORY_PRUNE_MARGIN_AT = tunable("history_prune_margin")
HISTORY_BONUS_AT = tunable("history_bonus")           # a cutoff's history bonus: bonus * depth^2, at most max
HISTORY_BONUS_MAX_AT = tunable("history_bonus_max")
CHECK_EXTENSION_MAX_PLY = 2 * MAX_PLY // 3   # check extension: a checking move a ply deeper, up to here
QS_DELTA_MARGIN_AT = tunable("qs_delta_margin")       # quiescence delta pruning

STOP = WS_CTL + CTL_STOP
NODES = WS_CTL + CTL_NODES
NODE_LIMIT = WS_CTL + CTL_NODE_LIMIT
SELDEPTH = WS_CTL + CTL_SELDEPTH
GENERATION = WS_CTL + CTL_GENERATION
PROVE_MATE = WS_CTL + CTL_PROVE_MATE
QS_PLIES = WS_CTL + CTL_QS_PLIES
QS_START = WS_CTL + CTL_QS_START
TB_PIECES = WS_CTL + CTL_TB_PIECES
TB_HITS = WS_CTL + CTL_TB_HITS


@kernel
def _stopped(ws):
    """Count a node and tell whether the search must unwind (stop flag or node limit); a search
    that is unwinding counts no more nodes, so a node limit is exact."""
    if ws[STOP]:
        return True
    ws[NODES] += 1
    if ws[NODE_LIMIT] and ws[NODES] >= ws[NODE_LIMIT]:
        ws[STOP] = 1
        return True
    return False


@kernel
def _has_pieces(pos):
    """Does the side to move have anything besides king and pawns (null move is unsafe if not)?"""
    bb, side = pos[0], pos[1][ST_SIDE]
    return bb[BB_WHITE + side] != (bb[make_piece(side, KING)] | bb[make_piece(side, PAWN)])


@kernel
def _update_pv(ws, ply, move):
    """The PV of `ply` becomes `move` followed by the PV of `ply + 1`."""
    row, child = WS_PV + ply * PLIES, WS_PV + (ply + 1) * PLIES
    ws[row + ply] = move
    child_len = ws[WS_PV_LEN + ply + 1]
    for j in range(ply + 1, child_len):
        ws[row + j] = ws[child + j]
    ws[WS_PV_LEN + ply] = max(child_len, ply + 1)


@kernel
def _gravity(ws, slot, bonus):
    """The history update of every table: moves towards +-HISTORY_MAX, never past it."""
    ws[slot] += bonus - ws[slot] * abs(bonus) // HISTORY_MAX


@kernel
def _quiet_update(ws, pos, move, bonus, cont1, cont2):
    """Butterfly and continuation histories of a quiet move (by `bonus`, negative for a malus)."""
    _gravity(ws, history_slot(pos[1][ST_SIDE], move), bonus)
    ps = piece_square(pos, move)
    if cont1 >= 0:
        _gravity(ws, cont1 + ps, bonus)
    if cont2 >= 0:
        _gravity(ws, cont2 + ps, bonus)


@kernel
def _previous_move_slot(pos):
    """Countermove slot (piece * 64 + to) of the move that led here, or -1."""
    move = last_move(pos)
    if move == NULL_MOVE:
        return -1
    to = move_to(move)
    return WS_COUNTERS + piece_on(pos, to) * 64 + to


@threaded_kernel
def qsearch(tab, pos, ws, tt, alpha, beta, ply):
    """Quiescence: stand pat, then captures and promotions (all evasions when in check)."""
    ws[WS_PV_LEN + ply] = ply
    network = ws[W_NNUE + R_ON] != 0
    if network and ply == 0:
        start_network(pos, ws[W_NNUE:W_PAWN_CACHE])
    if _stopped(ws):
        return 0
    if ply > ws[SELDEPTH]:
        ws[SELDEPTH] = ply
    if insufficient_material(pos):
        return DRAW
    checked = in_check(tab, pos)
    if ply >= MAX_PLY - 1:
        return DRAW if checked else evaluate(tab, pos, ws, False)
    if ply - ws[QS_START] >= ws[QS_PLIES]:
        return evaluate(tab, pos, ws, False)     # a weak level's horizon, even in check
    pv_node = beta - alpha > 1
    key = current_key(pos)

    hit, tt_move, tt_score, tt_eval, tt_depth, tt_bound = probe(tt, key)
    if hit:
        tt_score = from_tt(tt_score, ply)
        if not pv_node and (tt_bound == BOUND_EXACT or (tt_bound == BOUND_LOWER and tt_score >= beta)
                            or (tt_bound == BOUND_UPPER and tt_score <= alpha)):
            return tt_score

    raw_eval = 0
    if checked:
        best = -INFINITE
        stand_pat = NO_EVAL
    else:
        raw_eval = tt_eval if hit else evaluate(tab, pos, ws, False)
        stand_pat = raw_eval
        # A tighter bound from the table is a better guess, but not at PV nodes: a score that
        # comes from it has no PV behind it.
        if hit and not pv_node and ((tt_bound == BOUND_LOWER and tt_score > stand_pat)
                                    or (tt_bound == BOUND_UPPER and tt_score < stand_pat)):
            stand_pat = tt_score
        if stand_pat >= beta:
            if not hit:
                store(tt, key, 0, to_tt(stand_pat, ply), raw_eval, -1, BOUND_LOWER, ws[GENERATION])
            return stand_pat
        if stand_pat > alpha:
            alpha = stand_pat
        best = stand_pat

    start = WS_MOVES + ply * MAX_MOVES
    end = generate(tab, pos, ws, start, ALL if checked else NOISY)
    if checked and end == start:
        return -MATE + ply
    score_moves(tab, pos, ws, start, end, tt_move, 0, 0, 0, -1, -1)
    best_move = 0
    old_alpha = alpha
    for i in range(start, end):
        move, order = pick_next(ws, i, end)
        if not checked:
            # Delta pruning: even winning the captured piece cannot lift us to alpha.
            if not is_promotion(move) \
                    and stand_pat + PIECE_VALUES[captured_type(pos, move)] + ws[QS_DELTA_MARGIN_AT] <= alpha:
                continue
            # Captures that lose material (ordered last by their exchange value) and
            # under-promotions are not worth looking at here.
            if order < 0:
                continue
        if network:
            push(pos, ws[W_NNUE:W_PAWN_CACHE], move)
        make_move(tab, pos, move)
        prefetch_bucket(tt, current_key(pos))
        score = -qsearch(tab, pos, ws, tt, -beta, -alpha, ply + 1)
        unmake_move(tab, pos, move)
        if network:
            pop(ws[W_NNUE:W_PAWN_CACHE])
        if ws[STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                best_move = move
                if pv_node:
                    _update_pv(ws, ply, move)
                if score >= beta:
                    break
                alpha = score
    bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if pv_node and alpha > old_alpha else BOUND_UPPER)
    store(tt, key, best_move, to_tt(best, ply), raw_eval, 0, bound, ws[GENERATION])
    return best


@threaded_kernel
def search(tab, pos, ws, tt, alpha, beta, depth, ply, cut_node):
    """Negamax alpha-beta with PVS; returns the score of the node within (alpha, beta) bounds."""
    st = pos[1]

    # Step 1. The horizon: resolve captures with quiescence.
    if depth <= 0:
        ws[QS_START] = ply
        return qsearch(tab, pos, ws, tt, alpha, beta, ply)

    ws[WS_PV_LEN + ply] = ply
    root = ply == 0
    pv_node = beta - alpha > 1
    network = ws[W_NNUE + R_ON] != 0
    if network and root:
        start_network(pos, ws[W_NNUE:W_PAWN_CACHE])
    if _stopped(ws):
        return 0
    if ply > ws[SELDEPTH]:
        ws[SELDEPTH] = ply
    checked = in_check(tab, pos)
    start = WS_MOVES + ply * MAX_MOVES

    # Step 2. Draws, the ply limit and mate distance pruning (a shorter mate was already found).
    if not root:
        if repetitions(pos, ws[WS_CTL + CTL_ROOT_PLY], 2) >= 2 or insufficient_material(pos):
            return DRAW
        if fifty_move_counter_expired(pos):
            if not checked or generate(tab, pos, ws, start, COUNT) > start:
                return DRAW
        if ply >= MAX_PLY - 1:
            return DRAW if checked else evaluate(tab, pos, ws, False)
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha

    # Step 3. Transposition table: a deep enough entry decides non-PV nodes outright.
    key = current_key(pos)
    hit, tt_move, tt_score, tt_eval, tt_depth, tt_bound = probe(tt, key)
    if hit:
        tt_score = from_tt(tt_score, ply)
        if not pv_node and tt_depth >= depth and (
                (tt_bound == BOUND_LOWER and tt_score >= beta)
                or (tt_bound == BOUND_UPPER and tt_score <= alpha) or tt_bound == BOUND_EXACT):
            return tt_score

    # Step 3b. Endgame tablebases: right after a capture or pawn move with few pieces left, the
    # tables know the result; a bound that settles the node ends it (wins and losses are bounds,
    # since a mate score may be more exact). In a PV node an unsettled bound still limits the score.
    tb_floor, tb_ceiling = -INFINITE, INFINITE
    if not root and ws[TB_PIECES] and st[ST_HALFMOVE] == 0 and st[ST_CASTLING] == 0 \
            and popcount(pos[0][BB_ALL]) <= ws[TB_PIECES]:
        wdl = probe_wdl(pos)
        if wdl != TB_UNKNOWN:
            ws[TB_HITS] += 1
            score, bound = DRAW, BOUND_EXACT
            if wdl >= 2:
                score, bound = TB_WIN - ply, BOUND_LOWER
            elif wdl <= -2:
                score, bound = -TB_WIN + ply, BOUND_UPPER
            if bound == BOUND_EXACT or (bound == BOUND_LOWER and score >= beta) \
                    or (bound == BOUND_UPPER and score <= alpha):
                store(tt, key, 0, score, evaluate(tab, pos, ws, False), min(depth + 6, MAX_PLY - 1), bound,
                      ws[GENERATION])
                return score
            if pv_node and bound == BOUND_LOWER:
                tb_floor = score
                alpha = max(alpha, score)
            elif pv_node:
                tb_ceiling = score

    if root:
        tt_move = ws[WS_ROOT_MOVES + ws[WS_CTL + CTL_ROOT_FIRST]]

    # Step 4. Static evaluation, refined by the table's bound when it is tighter (the table keeps
    # the raw evaluation: a refined one may be a mate score, which is only valid at its ply).
    raw_eval = 0
    if checked:
        static_eval = NO_EVAL
        improving = False
    else:
        raw_eval = tt_eval if hit else evaluate(tab, pos, ws, False)
        static_eval = raw_eval
        if hit and ((tt_bound == BOUND_LOWER and tt_score > static_eval)
                    or (tt_bound == BOUND_UPPER and tt_score < static_eval)):
            static_eval = tt_score
        improving = ply >= 2 and ws[WS_EVALS + ply - 2] != NO_EVAL and static_eval > ws[WS_EVALS + ply - 2]
    ws[WS_EVALS + ply] = static_eval
    ws[WS_KILLERS + 2 * ply + 2] = 0
    ws[WS_KILLERS + 2 * ply + 3] = 0

    selective = ws[PROVE_MATE] == 0
    if not pv_node and not checked and selective:
        # Step 5. Reverse futility pruning: far above beta at low depth, a quiet move will hold it.
        if depth <= RFP_MAX_DEPTH \
                and static_eval - ws[RFP_MARGIN_AT] * (depth - (1 if improving else 0)) >= beta \
                and abs(beta) < MATE_IN_MAX:
            return static_eval

        # Step 6. Null move pruning: if passing still fails high, a real move will too. Not in
        # check, not with only pawns (zugzwang), not twice in a row.
        if depth >= NMP_MIN_DEPTH and static_eval >= beta and _has_pieces(pos) and beta > -MATE_IN_MAX \
                and last_move(pos) != NULL_MOVE:
            reduction = NMP_BASE_REDUCTION + depth // NMP_DEPTH_DIVISOR \
                + min((static_eval - beta) // ws[NMP_EVAL_DIVISOR_AT], 3)
            ws[WS_CONT_ROWS + ply] = -1
            make_null(tab, pos)
            ws[WS_EVALS + ply + 1] = NO_EVAL
            score = -search(tab, pos, ws, tt, -beta, -beta + 1, depth - reduction, ply + 1, not cut_node)
            unmake_null(tab, pos)
            if ws[STOP]:
                return 0
            if score >= beta:
                return beta if score >= MATE_IN_MAX else score

        # Step 7. Razoring: hopeless at depth 1-2 unless a capture rescues it.
        if depth <= RAZOR_MAX_DEPTH and static_eval + ws[RAZOR_MARGIN_AT] * depth < alpha:
            ws[QS_START] = ply
            score = qsearch(tab, pos, ws, tt, alpha - 1, alpha, ply)
            if score < alpha:
                return score

    # Step 8. Internal iterative reduction: without a table move this node is probably new.
    if depth >= IIR_MIN_DEPTH and tt_move == 0 and (pv_node or cut_node) and selective:
        depth -= 1

    # Step 9. Move ordering in stages, generating as late as possible: the hash move before
    # anything is generated, then captures and promotions, then quiet moves (killers, countermove,
    # history) with the losing captures last. In check all evasions come at once; at the root
    # the driver's list is searched in its order.
    counter_slot = _previous_move_slot(pos)
    counter = ws[counter_slot] if counter_slot >= 0 else 0
    killer1, killer2 = ws[WS_KILLERS + 2 * ply], ws[WS_KILLERS + 2 * ply + 1]
    cont1 = ws[WS_CONT_ROWS + ply - 1] if ply >= 1 else -1     # the rows of the last two moves
    cont2 = ws[WS_CONT_ROWS + ply - 2] if ply >= 2 else -1
    end = start
    hash_move = 0
    if root:
        for i in range(ws[WS_CTL + CTL_ROOT_FIRST], ws[WS_CTL + CTL_ROOT_COUNT]):
            ws[end] = ws[WS_ROOT_MOVES + i]
            ws[end + SCORE_SHIFT] = ws[WS_CTL + CTL_ROOT_COUNT] - i
            end += 1
        stage = STAGE_PICK
    else:
        if tt_move != 0 and is_legal(tab, pos, tt_move):
            hash_move = tt_move
        stage = STAGE_HASH

    # Step 10. The move loop.
    best_score = tb_floor
    best_move = 0
    move_count = 0
    nodes_before = 0
    quiet_count = 0
    capture_count = 0
    skip_quiets = False
    old_alpha = alpha
    i = start
    move, order = 0, 0
    while True:
        if stage == STAGE_HASH:
            stage = STAGE_NOISY
            if hash_move == 0:
                continue
            move, order = hash_move, SCORE_TT
        else:
            if stage == STAGE_NOISY:
                end = generate(tab, pos, ws, start, ALL if checked else NOISY)
                score_moves(tab, pos, ws, start, end, hash_move, killer1, killer2, counter, cont1, cont2)
                stage = STAGE_PICK if checked else STAGE_QUIET
            if i < end:
                if skip_quiets:     # only checks and captures remain of interest: no sorting
                    move, order = ws[i], ws[i + SCORE_SHIFT]
                else:
                    move, order = pick_next(ws, i, end)
            if stage == STAGE_QUIET and (i >= end or order < 0):
                quiet_end = generate(tab, pos, ws, end, QUIET)
                score_quiets(pos, ws, end, quiet_end, hash_move, killer1, killer2, counter, cont1, cont2)
                end = quiet_end
                stage = STAGE_PICK
                if i >= end:
                    break
                move, order = pick_next(ws, i, end)
            if i >= end:
                break
            i += 1
            if move == hash_move:
                continue
        noisy = is_noisy(pos, move)
        checking = gives_check(tab, pos, move)
        if skip_quiets and not noisy and not checking:
            continue
        move_count += 1
        history = 0 if noisy else quiet_history(ws, pos, move, cont1, cont2)
        base_reduction = ws[WS_LMR + 64 * min(depth, 63) + min(move_count, 63)]    # ln d * ln m
        if root:
            ws[WS_CTL + CTL_CURRMOVE] = move
            ws[WS_CTL + CTL_CURRMOVE_NUMBER] = move_count + ws[WS_CTL + CTL_ROOT_FIRST]
            nodes_before = ws[WS_CTL + CTL_NODES]

        # Step 11. Shallow-depth pruning once a move has been found that avoids mate. Checks
        # are kept: they are where mates and perpetuals hide.
        if not root and best_score > -MATE_IN_MAX and _has_pieces(pos) and not checking and selective:
            if not noisy:
                # Late move pruning: the remaining quiet moves are unlikely to matter.
                if depth <= LMP_MAX_DEPTH \
                        and move_count > (ws[LMP_BASE_AT] + depth * depth) // (1 if improving else 2):
                    skip_quiets = True
                    continue
                # Futility pruning: at the depth this move would be searched to after its late-move
                # reduction, even a good quiet move will not reach alpha, nor will any later one.
                lmr_depth = depth - 1 - base_reduction
                if not checked and lmr_depth <= FUTILITY_MAX_DEPTH \
                        and static_eval + ws[FUTILITY_BASE_AT] \
                        + ws[FUTILITY_PER_DEPTH_AT] * max(lmr_depth, 0) <= alpha \
                        and history < ws[FUTILITY_HISTORY_GUARD_AT]:
                    skip_quiets = True
                    continue
                # History pruning: a quiet move that has kept failing here is not worth a look.
                if depth <= HISTORY_PRUNE_MAX_DEPTH and order < SCORE_COUNTER \
                        and history < -ws[HISTORY_PRUNE_MARGIN_AT] * depth:
                    continue
                if depth <= SEE_PRUNE_MAX_DEPTH \
                        and not see_ge(tab, pos, move, -ws[SEE_QUIET_MARGIN_AT] * depth * depth):
                    continue
            elif depth <= SEE_PRUNE_MAX_DEPTH and order < 0 \
                    and not see_ge(tab, pos, move, -ws[SEE_NOISY_MARGIN_AT] * depth):
                continue

        ws[WS_CONT_ROWS + ply] = continuation_row(pos, move)
        if network:
            push(pos, ws[W_NNUE:W_PAWN_CACHE], move)
        make_move(tab, pos, move)
        prefetch_bucket(tt, current_key(pos))

        # Step 12. Check extension.
        new_depth = depth - 1
        if checking and ply < CHECK_EXTENSION_MAX_PLY:
            new_depth += 1

        # Step 13. Late move reductions with a zero-window probe, then PVS re-searches.
        if depth >= LMR_MIN_DEPTH and move_count > 1 + (1 if pv_node else 0) and (not noisy or order < 0) \
                and selective:
            r = base_reduction
            if not pv_node:
                r += 1
            if improving:
                r -= 1
            if cut_node:
                r += 1
            if checking:
                r -= 1
            if not noisy:
                r -= history // ws[LMR_HISTORY_DIVISOR_AT]
                if order >= SCORE_COUNTER:
                    r -= 1
            r = max(0, min(r, new_depth - 1))
            score = -search(tab, pos, ws, tt, -alpha - 1, -alpha, new_depth - r, ply + 1, np.bool_(True))
            if score > alpha and r > 0:
                score = -search(tab, pos, ws, tt, -alpha - 1, -alpha, new_depth, ply + 1, not cut_node)
        elif not pv_node or move_count > 1:
            score = -search(tab, pos, ws, tt, -alpha - 1, -alpha, new_depth, ply + 1, not cut_node)
        else:
            score = alpha + 1     # forces the full-window search below for the first PV move
        if pv_node and score > alpha and (move_count == 1 or score < beta):
            score = -search(tab, pos, ws, tt, -beta, -alpha, new_depth, ply + 1, np.bool_(False))
        unmake_move(tab, pos, move)
        if network:
            pop(ws[W_NNUE:W_PAWN_CACHE])
        if root and move_count == 1:
            ws[WS_CTL + CTL_FIRST_MOVE_NODES] += ws[WS_CTL + CTL_NODES] - nodes_before
        if ws[STOP]:
            return 0

        if score > best_score:
            best_score = score
            if score > alpha:
                best_move = move
                if pv_node:
                    _update_pv(ws, ply, move)
                if score >= beta:
                    break
                alpha = score
        if not noisy and quiet_count < QUIETS_PER_PLY:
            ws[WS_QUIETS + ply * QUIETS_PER_PLY + quiet_count] = move
            quiet_count += 1
        elif noisy and capture_count < CAPTURES_PER_PLY:
            ws[WS_CAPTURES + ply * CAPTURES_PER_PLY + capture_count] = move
            capture_count += 1

    if move_count == 0:
        if end == start and hash_move == 0 and not root:
            return -MATE + ply if checked else DRAW     # no legal move: mate or stalemate
        return alpha                                      # an empty root list

    best_score = min(best_score, tb_ceiling)

    # Step 14. The move that refuted the node teaches the histories: a quiet one its killers,
    # countermove, butterfly and continuation histories (and a malus to the quiet moves tried
    # before it), any one a malus to the captures tried before it, a capture its capture history.
    if best_score >= beta:
        bonus = min(depth * depth * ws[HISTORY_BONUS_AT], ws[HISTORY_BONUS_MAX_AT])
        if not is_noisy(pos, best_move):
            if ws[WS_KILLERS + 2 * ply] != best_move:
                ws[WS_KILLERS + 2 * ply + 1] = ws[WS_KILLERS + 2 * ply]
                ws[WS_KILLERS + 2 * ply] = best_move
            if counter_slot >= 0:
                ws[counter_slot] = best_move
            _quiet_update(ws, pos, best_move, bonus, cont1, cont2)
            for j in range(quiet_count):
                _quiet_update(ws, pos, ws[WS_QUIETS + ply * QUIETS_PER_PLY + j], -bonus, cont1, cont2)
        else:
            _gravity(ws, capture_slot(pos, best_move), bonus)
        for j in range(capture_count):
            _gravity(ws, capture_slot(pos, ws[WS_CAPTURES + ply * CAPTURES_PER_PLY + j]), -bonus)

    # Step 15. Remember the result.
    bound = BOUND_LOWER if best_score >= beta else (BOUND_EXACT if pv_node and best_score > old_alpha
                                                    else BOUND_UPPER)
    store(tt, key, best_move, to_tt(best_score, ply), raw_eval, depth, bound, ws[GENERATION])
    return best_score
