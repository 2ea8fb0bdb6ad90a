"""Legal move generation: one generator parameterised by what to produce.

Modes: NOISY (captures, en passant, every promotion), QUIET (the rest), ALL (both) and COUNT
(count all legal moves without writing them; perft's bulk counting at the last ply).
Legality comes from a check mask (evasions must capture or block the checker) and pin lines
(a pinned piece stays on the line through its king), with the king's own moves and en passant
tested against the actual attacks. No move is made and taken back to test it.
"""

import numpy as np

from engine.bits import EMPTY, FILE_A, FILE_H, FULL, ONE, RANK_1, RANK_3, RANK_6, RANK_8, bit, lsb, popcount
from engine.bitboard import (between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
                             rook_attacks)
from engine.defs import (BB_ALL, BB_CASTLE_EMPTY, BB_CASTLE_KING_TO, BB_CASTLE_ROOK_TO,
                         BB_CASTLE_SAFE, BB_WHITE, BISHOP, KING, KNIGHT, NO_PIECE, PAWN, QUEEN, ROOK,
                         ST_BOARD, ST_CASTLE_ROOK, ST_CASTLING, ST_EP, ST_SIDE, WHITE)
from engine.kernel import kernel
from engine.move import (CASTLE, DOUBLE_PUSH, EN_PASSANT, NORMAL, PROMO_BISHOP, PROMO_KNIGHT, PROMO_QUEEN,
                         PROMO_ROOK, encode, is_promotion, move_flag, move_from, move_to)
from engine.piece import make_piece, piece_colour, piece_type
from engine.position import (attacked_by, attacks_from, checkers_of, en_passant_legal, king_square, make_move,
                             unmake_move)

NOISY, QUIET, ALL, COUNT = 1, 2, 3, 7



@kernel
def shift(b, d):
    """Shift a board by `d` squares: towards h8 when d > 0, towards a1 when d < 0."""
    if d > 0:
        return b << np.uint64(d)
    return b >> np.uint64(-d)


@kernel
def _emit(moves, n, frm, targets, mode):
    """Append frm->t for every t in targets (or just count them)."""
    if mode == COUNT:
        return n + popcount(targets)
    while targets:
        moves[n] = encode(frm, lsb(targets), NORMAL)
        n += 1
        targets &= targets - ONE
    return n


@kernel
def _emit_pawns(moves, n, targets, delta, flag, mode):
    """Append pawn moves to every square of `targets` from `delta` squares behind it."""
    if mode == COUNT:
        return n + popcount(targets)
    while targets:
        to = lsb(targets)
        moves[n] = encode(to - delta, to, flag)
        n += 1
        targets &= targets - ONE
    return n


@kernel
def _emit_promotions(moves, n, targets, delta, mode):
    if mode == COUNT:
        return n + 4 * popcount(targets)
    while targets:
        to = lsb(targets)
        frm = to - delta
        moves[n] = encode(frm, to, PROMO_QUEEN)
        moves[n + 1] = encode(frm, to, PROMO_KNIGHT)
        moves[n + 2] = encode(frm, to, PROMO_ROOK)
        moves[n + 3] = encode(frm, to, PROMO_BISHOP)
        n += 4
        targets &= targets - ONE
    return n


@kernel
def _pawn_moves(moves, n, us, pawns, allowed, them_occ, occ, mode):
    """Pushes, double pushes, captures and promotions of `pawns`, landing only on `allowed`."""
    if us == WHITE:
        up, left, right, promo_rank, double_rank = 8, 7, 9, RANK_8, RANK_3
    else:
        up, left, right, promo_rank, double_rank = -8, -9, -7, RANK_1, RANK_6
    empty = ~occ
    single = shift(pawns, up) & empty
    cap_left = shift(pawns & ~FILE_A, left) & them_occ & allowed
    cap_right = shift(pawns & ~FILE_H, right) & them_occ & allowed
    if mode & 2:  # quiet pushes
        double = shift(single & double_rank, up) & empty & allowed
        n = _emit_pawns(moves, n, single & allowed & ~promo_rank, up, NORMAL, mode)
        n = _emit_pawns(moves, n, double, 2 * up, DOUBLE_PUSH, mode)
    if mode & 1:  # captures and all promotions
        n = _emit_pawns(moves, n, cap_left & ~promo_rank, left, NORMAL, mode)
        n = _emit_pawns(moves, n, cap_right & ~promo_rank, right, NORMAL, mode)
        n = _emit_promotions(moves, n, single & allowed & promo_rank, up, mode)
        n = _emit_promotions(moves, n, cap_left & promo_rank, left, mode)
        n = _emit_promotions(moves, n, cap_right & promo_rank, right, mode)
    return n


@kernel
def generate(tab, pos, moves, n, mode):
    """Write the legal moves of the side to move selected by `mode` into moves[n:] and return
    the new end index; in COUNT mode write nothing and return n plus the number of legal moves."""
    bb, st = pos
    us = st[ST_SIDE]
    them = us ^ 1
    us_occ = bb[BB_WHITE + us]
    them_occ = bb[BB_WHITE + them]
    occ = bb[BB_ALL]
    king = bb[make_piece(us, KING)]
    ksq = lsb(king)

    if mode == NOISY:
        target = them_occ
    elif mode == QUIET:
        target = ~occ
    else:
        target = ~us_occ

    # King moves, tested against the attacks with the king lifted off the board.
    occ_without_king = occ ^ king
    steps = king_attacks(tab, ksq) & target
    while steps:
        to = lsb(steps)
        if not attacked_by(tab, bb, to, them, occ_without_king):
            if mode == COUNT:
                n += 1
            else:
                moves[n] = encode(ksq, to, NORMAL)
                n += 1
        steps &= steps - ONE

    checkers = checkers_of(tab, bb, us, ksq, occ)
    if checkers & (checkers - ONE):
        return n  # double check: only the king may move
    check_mask = FULL
    if checkers:
        check_mask = between(tab, ksq, lsb(checkers)) | checkers

    # Pinned pieces: ours, alone between our king and an enemy slider aimed at it.
    pinned = EMPTY
    snipers = ((rook_attacks(tab, ksq, them_occ) & (bb[make_piece(them, ROOK)] | bb[make_piece(them, QUEEN)]))
               | (bishop_attacks(tab, ksq, them_occ)
                  & (bb[make_piece(them, BISHOP)] | bb[make_piece(them, QUEEN)])))
    while snipers:
        blockers = between(tab, ksq, lsb(snipers)) & occ
        if blockers and not (blockers & (blockers - ONE)) and (blockers & us_occ):
            pinned |= blockers
        snipers &= snipers - ONE

    mask = target & check_mask
    pieces = bb[make_piece(us, KNIGHT)] & ~pinned  # a pinned knight can never move
    while pieces:
        frm = lsb(pieces)
        n = _emit(moves, n, frm, knight_attacks(tab, frm) & mask, mode)
        pieces &= pieces - ONE
    pieces = bb[make_piece(us, BISHOP)] | bb[make_piece(us, QUEEN)]
    while pieces:
        frm = lsb(pieces)
        t = bishop_attacks(tab, frm, occ) & mask
        if pinned & bit(frm):
            t &= line(tab, ksq, frm)
        n = _emit(moves, n, frm, t, mode)
        pieces &= pieces - ONE
    pieces = bb[make_piece(us, ROOK)] | bb[make_piece(us, QUEEN)]
    while pieces:
        frm = lsb(pieces)
        t = rook_attacks(tab, frm, occ) & mask
        if pinned & bit(frm):
            t &= line(tab, ksq, frm)
        n = _emit(moves, n, frm, t, mode)
        pieces &= pieces - ONE

    pawns = bb[make_piece(us, PAWN)]
    n = _pawn_moves(moves, n, us, pawns & ~pinned, check_mask, them_occ, occ, mode)
    pinned_pawns = pawns & pinned
    while pinned_pawns:
        frm = lsb(pinned_pawns)
        n = _pawn_moves(moves, n, us, bit(frm), check_mask & line(tab, ksq, frm), them_occ, occ, mode)
        pinned_pawns &= pinned_pawns - ONE

    ep = st[ST_EP]
    if ep >= 0 and (mode & 1):
        capturers = pawn_attacks(tab, them, ep) & pawns
        while capturers:
            frm = lsb(capturers)
            if en_passant_legal(tab, bb, us, frm, ep):
                if mode == COUNT:
                    n += 1
                else:
                    moves[n] = encode(frm, ep, EN_PASSANT)
                    n += 1
            capturers &= capturers - ONE

    if (mode & 2) and not checkers:
        for right in range(2 * us, 2 * us + 2):
            if not (st[ST_CASTLING] >> right) & 1:
                continue
            rook_sq = st[ST_CASTLE_ROOK + right]
            if occ & bb[BB_CASTLE_EMPTY + right]:
                continue
            safe = True
            path = bb[BB_CASTLE_SAFE + right]
            while path:
                if attacked_by(tab, bb, lsb(path), them, occ_without_king):
                    safe = False
                    break
                path &= path - ONE
            if not safe:
                continue
            after = (occ ^ king ^ bit(rook_sq)) | bb[BB_CASTLE_ROOK_TO + right]
            if attacked_by(tab, bb, lsb(bb[BB_CASTLE_KING_TO + right]), them, after):
                continue
            if mode == COUNT:
                n += 1
            else:
                moves[n] = encode(ksq, rook_sq, CASTLE)
                n += 1
    return n


@kernel
def is_legal(tab, pos, move):
    """Is `move` (any move code, e.g. from the transposition table) legal in this position?
    Lets the search try a hash move before generating. Castling and en passant always answer
    False: the search only meets them through the generator."""
    bb, st = pos
    us = st[ST_SIDE]
    frm, to, flag = move_from(move), move_to(move), move_flag(move)
    if frm == to or flag == CASTLE or flag == EN_PASSANT or flag > PROMO_QUEEN:
        return False
    piece = st[ST_BOARD + frm]
    if piece == NO_PIECE or piece_colour(piece) != us:
        return False
    target = st[ST_BOARD + to]
    if target != NO_PIECE and (piece_colour(target) == us or piece_type(target) == KING):
        return False
    kind = piece_type(piece)
    occ = bb[BB_ALL]
    target_bit = bit(to)
    if kind == PAWN:
        up = 8 if us == WHITE else -8
        if is_promotion(move) != ((to >> 3) == (7 if us == WHITE else 0)):
            return False
        if flag == DOUBLE_PUSH:
            if (frm >> 3) != (1 if us == WHITE else 6) or to != frm + 2 * up or target != NO_PIECE \
                    or st[ST_BOARD + frm + up] != NO_PIECE:
                return False
        elif to == frm + up:
            if target != NO_PIECE:
                return False
        elif target == NO_PIECE or not (pawn_attacks(tab, us, frm) & target_bit):
            return False
    elif flag != NORMAL:
        return False
    elif kind == KING:
        if not (king_attacks(tab, frm) & target_bit):
            return False
        return not attacked_by(tab, bb, to, us ^ 1, occ ^ bit(frm))
    elif not (attacks_from(tab, kind, us, frm, occ) & target_bit):
        return False
    after = (occ ^ bit(frm)) | target_bit
    return not (checkers_of(tab, bb, us, king_square(bb, us), after) & ~target_bit)


@kernel
def legal_prefix(tab, pos, line, start, count, scratch, scratch_start):
    """How many moves of line[start:start + count], played in order from this position, are
    legal (the position is left as it was). Checks a principal variation in one call."""
    played = 0
    while played < count:
        move = line[start + played]
        end = generate(tab, pos, scratch, scratch_start, ALL)
        found = False
        for i in range(scratch_start, end):
            if scratch[i] == move:
                found = True
                break
        if not found:
            break
        make_move(tab, pos, move)
        played += 1
    for i in range(played - 1, -1, -1):
        unmake_move(tab, pos, line[start + i])
    return played
