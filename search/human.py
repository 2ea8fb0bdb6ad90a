"""The human model's kernel: what every legal move of a position is, as a person would weigh it.

For each move: the score it keeps after quiescence and after a deeper search (by the evaluation
the workspace holds: the hand-crafted terms, or a network), the piece, its squares, capture,
recapture of the last-moved piece, check, castling, promotion, whether it rescues a piece that
was en prise or leaves one there.
search/human_model.py turns these into the model's features and its choice. (Kept apart from it
because numba's cache is keyed on the sources of the modules with kernels: editing the model
must not recompile the engine.)
"""

from __future__ import annotations

import numpy as np

from engine.bits import ONE, lsb
from engine.defs import (
    BB_ALL,
    BB_WHITE,
    BISHOP,
    INFINITE,
    KING,
    KNIGHT,
    ST_SIDE,
)
from engine.kernel import kernel
from engine.move import CASTLE, DOUBLE_PUSH, is_promotion, move_flag, move_from, move_to
from engine.piece import PIECE_VALUES, make_piece, piece_type
from engine.position import attackers_to, gives_check, last_move, make_move, piece_on, unmake_move
from eval.evaluate import W_NNUE, W_PAWN_CACHE
from eval.nnue import R_ON, pop, push
from search.movepick import captured_type
from search.search import qsearch, search
from search.workspace import CTL_QS_START, WS_CTL

# The raw per-move quantities the kernel fills (columns of `raw`).
R_SHALLOW, R_DEEP, R_PIECE, R_FROM, R_TO, R_CAPTURED, R_RECAPTURE, R_CHECK, R_CASTLE, R_PROMOTION, \
    R_DOUBLE, R_ESCAPE, R_LEFT_EN_PRISE, R_FORWARD, R_DISTANCE, R_DEVELOP = range(16)
RAW_COLUMNS = 16

# ---- the kernel: raw quantities of every legal move ----------------------------------------------

@kernel
def _en_prise(tab, pos, sq, colour):
    """Is the piece of `colour` on `sq` attacked by the opponent and either undefended or attacked
    by a less valuable piece?"""
    bb = pos[0]
    attackers = attackers_to(tab, bb, sq, bb[BB_ALL])
    theirs = attackers & bb[BB_WHITE + (colour ^ 1)]
    if theirs == 0:
        return False
    if attackers & bb[BB_WHITE + colour] == 0:
        return True
    value = PIECE_VALUES[piece_type(piece_on(pos, sq))]
    for t in range(6):
        if theirs & bb[make_piece(colour ^ 1, t)]:
            return PIECE_VALUES[t] < value
    return False


@kernel
def _any_en_prise(tab, pos, colour, skip):
    """Is any piece of `colour` but its king (and not the one on `skip`) en prise?"""
    bb = pos[0]
    pieces = bb[BB_WHITE + colour] & ~bb[make_piece(colour, KING)]
    while pieces:
        sq = lsb(pieces)
        pieces &= pieces - ONE
        if sq != skip and _en_prise(tab, pos, sq, colour):
            return True
    return False


@kernel
def move_raw(tab, pos, ws, tt, moves, n, deep, raw):
    """Fill raw[i] for each of the n legal moves: its scores after quiescence and after a search of
    depth `deep` (the reply at deep - 1), from the mover's view, and what kind of move it is. With a
    network in `ws`, its accumulators must have been started on `pos` (eval.nnue.start)."""
    us = pos[1][ST_SIDE]
    network = ws[W_NNUE + R_ON] != 0
    previous = last_move(pos)
    previous_to = move_to(previous) if previous != 0 else -1
    threatened = _any_en_prise(tab, pos, us, -1)
    # Typed, not literal, arguments for the search kernels: a literal makes a specialisation
    # whose recursive link numba's cache does not restore (search/search.py's caveat).
    low, high, ply = np.int64(-INFINITE), np.int64(INFINITE), np.int64(1)
    for i in range(n):
        move = moves[i]
        frm, to, flag = move_from(move), move_to(move), move_flag(move)
        piece = piece_type(piece_on(pos, frm))
        captured = captured_type(pos, move)
        rel_from = frm if us == 0 else frm ^ 56
        rel_to = to if us == 0 else to ^ 56
        raw[i, R_PIECE] = piece
        raw[i, R_FROM] = rel_from
        raw[i, R_TO] = rel_to
        raw[i, R_CAPTURED] = PIECE_VALUES[captured] if captured < 6 else 0
        raw[i, R_RECAPTURE] = 1 if captured < 6 and to == previous_to else 0
        raw[i, R_CHECK] = 1 if gives_check(tab, pos, move) else 0
        raw[i, R_CASTLE] = 1 if flag == CASTLE else 0
        raw[i, R_PROMOTION] = 1 if is_promotion(move) else 0
        raw[i, R_DOUBLE] = 1 if flag == DOUBLE_PUSH else 0
        raw[i, R_ESCAPE] = 1 if _en_prise(tab, pos, frm, us) and piece != KING else 0
        raw[i, R_FORWARD] = (rel_to >> 3) - (rel_from >> 3)
        raw[i, R_DISTANCE] = max(abs((to >> 3) - (frm >> 3)), abs((to & 7) - (frm & 7)))
        raw[i, R_DEVELOP] = 1 if (piece == KNIGHT or piece == BISHOP) and (rel_from >> 3) == 0 else 0
        if network:
            push(pos, ws[W_NNUE:W_PAWN_CACHE], move)
        make_move(tab, pos, move)
        after_to = to if flag != CASTLE else -1
        raw[i, R_LEFT_EN_PRISE] = 1 if threatened and captured >= 6 and raw[i, R_ESCAPE] == 0 \
            and _any_en_prise(tab, pos, us, after_to) else 0
        ws[WS_CTL + CTL_QS_START] = 1
        raw[i, R_SHALLOW] = -qsearch(tab, pos, ws, tt, low, high, ply)
        raw[i, R_DEEP] = -search(tab, pos, ws, tt, low, high, deep - ply, ply, np.bool_(False))
        unmake_move(tab, pos, move)
        if network:
            pop(ws[W_NNUE:W_PAWN_CACHE])
