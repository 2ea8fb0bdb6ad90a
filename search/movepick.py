"""Move ordering: static exchange evaluation and move scores for the search's selection sort.

Order: the transposition-table move, captures that do not lose material (most valuable victim,
least valuable attacker, then their capture history), queen promotions, killers, the
countermove, quiet moves by history (butterfly plus the continuation histories of the moves
one and two plies before), and last the captures that lose material.
"""

import numpy as np

from engine.bits import ONE, lsb
from engine.bitboard import bishop_attacks, rook_attacks
from engine.defs import BB_ALL, BB_WHITE, BISHOP, BLACK, KING, PAWN, QUEEN, ROOK, ST_BOARD, ST_SIDE, WHITE
from engine.kernel import kernel
from engine.move import (CASTLE, EN_PASSANT, PROMO_QUEEN, from_to, is_promotion, move_flag, move_from,
                         move_to, promotion_type)
from engine.piece import NO_TYPE, PIECE_VALUES, make_piece, piece_type
from engine.position import attackers_to
from search.workspace import (CAPTURED_TYPES, PIECE_SQUARES, WS_CAPTURE_HISTORY, WS_CONT_HISTORY, WS_HISTORY,
                              WS_MOVES, WS_SCORES)

SCORE_SHIFT = WS_SCORES - WS_MOVES   # a move's ordering key sits this far after the move

SCORE_TT = 1 << 40
SCORE_GOOD_CAPTURE = 1 << 36
SCORE_KILLER = 1 << 34
SCORE_COUNTER = 1 << 33
SCORE_BAD_CAPTURE = -(1 << 36)
CAPTURE_HISTORY_DIVISOR = 4   # capture history (within +-HISTORY_MAX) weighs against 16 * victim value


@kernel
def captured_type(pos, move):
    """Type of the piece a move captures (PAWN for en passant), or NO_TYPE when it captures nothing."""
    flag = move_flag(move)
    if flag == EN_PASSANT:
        return PAWN
    if flag == CASTLE:
        return NO_TYPE
    return piece_type(pos[1][ST_BOARD + move_to(move)])


@kernel
def is_noisy(pos, move):
    """Captures and promotions: what quiescence searches and history does not score."""
    return is_promotion(move) or captured_type(pos, move) != NO_TYPE


@kernel
def see_ge(tab, pos, move, threshold):
    """Does the exchange sequence started by `move` on its target square gain at least
    `threshold` centipawns for the mover (each side recapturing with its least valuable piece)?"""
    bb, st = pos
    flag = move_flag(move)
    if flag == CASTLE:
        return threshold <= 0
    frm, to = move_from(move), move_to(move)
    gain = PIECE_VALUES[captured_type(pos, move)] - threshold
    if is_promotion(move):
        gain += PIECE_VALUES[promotion_type(move)] - PIECE_VALUES[PAWN]
    if gain < 0:
        return False
    mover = promotion_type(move) if is_promotion(move) else piece_type(st[ST_BOARD + frm])
    gain = PIECE_VALUES[mover] - gain
    if gain <= 0:
        return True
    occ = bb[BB_ALL] ^ (ONE << np.uint64(frm)) ^ (ONE << np.uint64(to))
    if flag == EN_PASSANT:
        occ ^= ONE << np.uint64(to ^ 8)
    attackers = attackers_to(tab, bb, to, occ) & occ
    queens = bb[make_piece(WHITE, QUEEN)] | bb[make_piece(BLACK, QUEEN)]
    diagonal = bb[make_piece(WHITE, BISHOP)] | bb[make_piece(BLACK, BISHOP)] | queens
    straight = bb[make_piece(WHITE, ROOK)] | bb[make_piece(BLACK, ROOK)] | queens
    side = st[ST_SIDE]
    result = 1
    while True:
        side ^= 1
        attackers &= occ
        mine = attackers & bb[BB_WHITE + side]
        if not mine:
            break
        result ^= 1
        kind = PAWN         # the least valuable attacker recaptures
        while kind < KING and not (mine & bb[make_piece(side, kind)]):
            kind += 1
        if kind == KING:    # only the king is left: it may capture only if the square is not defended
            if attackers & ~bb[BB_WHITE + side]:
                result ^= 1
            break
        gain = PIECE_VALUES[kind] - gain
        if gain < result:
            break
        occ ^= ONE << np.uint64(lsb(mine & bb[make_piece(side, kind)]))
        if kind == PAWN or kind == BISHOP or kind == QUEEN:    # x-rays behind it join in
            attackers |= bishop_attacks(tab, to, occ) & diagonal
        if kind == ROOK or kind == QUEEN:
            attackers |= rook_attacks(tab, to, occ) & straight
    return result == 1


@kernel
def history_slot(side, move):
    """Where the history score of a quiet move (by side, from- and to-square) is kept."""
    return WS_HISTORY + side * 4096 + from_to(move)


@kernel
def piece_square(pos, move):
    """The moving piece and the target square of a move not yet made, piece * 64 + to."""
    return pos[1][ST_BOARD + move_from(move)] * 64 + move_to(move)


@kernel
def continuation_row(pos, move):
    """The continuation-history row of a move about to be made: where the replies to it (and
    the replies to the reply) are scored."""
    return WS_CONT_HISTORY + piece_square(pos, move) * PIECE_SQUARES


@kernel
def capture_slot(pos, move):
    """Where the capture history of a capture or promotion (by piece, target, captured type) is."""
    return WS_CAPTURE_HISTORY + piece_square(pos, move) * CAPTURED_TYPES + captured_type(pos, move)


@kernel
def quiet_history(ws, pos, move, cont1, cont2):
    """A quiet move's history: butterfly plus the continuation rows of the moves one and two
    plies before (-1 where there is none)."""
    ps = piece_square(pos, move)
    h = ws[history_slot(pos[1][ST_SIDE], move)]
    if cont1 >= 0:
        h += ws[cont1 + ps]
    if cont2 >= 0:
        h += ws[cont2 + ps]
    return h


@kernel
def _quiet_score(ws, pos, move, killer1, killer2, counter, cont1, cont2):
    if move == killer1:
        return SCORE_KILLER + 1
    if move == killer2:
        return SCORE_KILLER
    if move == counter:
        return SCORE_COUNTER
    return quiet_history(ws, pos, move, cont1, cont2)


@kernel
def score_moves(tab, pos, ws, start, end, tt_move, killer1, killer2, counter, cont1, cont2):
    """Write ordering keys for the moves at ws[start:end] to ws[start + SCORE_SHIFT:...]."""
    st = pos[1]
    for i in range(start, end):
        move = ws[i]
        if move == tt_move:
            ws[i + SCORE_SHIFT] = SCORE_TT
            continue
        flag = move_flag(move)
        victim = captured_type(pos, move)
        if victim != NO_TYPE or flag == PROMO_QUEEN:
            attacker = piece_type(st[ST_BOARD + move_from(move)])
            victim_value = PIECE_VALUES[victim] + (PIECE_VALUES[QUEEN] if flag == PROMO_QUEEN else 0)
            mvv_lva = 16 * victim_value - attacker + ws[capture_slot(pos, move)] // CAPTURE_HISTORY_DIVISOR
            if PIECE_VALUES[victim] >= PIECE_VALUES[attacker] or see_ge(tab, pos, move, 0):
                ws[i + SCORE_SHIFT] = SCORE_GOOD_CAPTURE + mvv_lva
            else:
                ws[i + SCORE_SHIFT] = SCORE_BAD_CAPTURE + mvv_lva
        elif is_promotion(move):
            ws[i + SCORE_SHIFT] = SCORE_BAD_CAPTURE - 1000 + flag   # under-promotions last
        else:
            ws[i + SCORE_SHIFT] = _quiet_score(ws, pos, move, killer1, killer2, counter, cont1, cont2)


@kernel
def score_quiets(pos, ws, start, end, tt_move, killer1, killer2, counter, cont1, cont2):
    """score_moves for a list known to hold only quiet moves (the quiet generation stage)."""
    for i in range(start, end):
        move = ws[i]
        ws[i + SCORE_SHIFT] = SCORE_TT if move == tt_move else _quiet_score(ws, pos, move, killer1, killer2,
                                                                              counter, cont1, cont2)


@kernel
def pick_next(ws, i, end):
    """Swap the best-scored move of ws[i:end] into position i and return it (with its score)."""
    best = i
    best_score = ws[i + SCORE_SHIFT]     # kept in a register: ws writes would force reloads
    for j in range(i + 1, end):
        score = ws[j + SCORE_SHIFT]
        if score > best_score:
            best = j
            best_score = score
    if best != i:
        ws[i], ws[best] = ws[best], ws[i]
        ws[i + SCORE_SHIFT], ws[best + SCORE_SHIFT] = ws[best + SCORE_SHIFT], ws[i + SCORE_SHIFT]
    return ws[i], ws[i + SCORE_SHIFT]
