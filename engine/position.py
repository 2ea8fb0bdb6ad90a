"""Position state kernels: piece placement, attack queries, zobrist key, make/unmake in place.

A position is the tuple `pos = (bb, st)` of two numpy arrays laid out in engine.defs: `bb`
holds the uint64 boards and the key of every position since the last history rebase
(bb[BB_KEYS + st[ST_PLY]] is the current key); `st` holds the int64 scalars, the mailbox and
the undo stack. Make/unmake write these arrays in place; nothing is allocated per move.
"""

import numpy as np

from engine.bits import ONE, bit, lsb
from engine.bitboard import (Z_CASTLING, Z_EP, Z_PIECE, Z_SIDE, bishop_attacks, king_attacks,
                             knight_attacks, line, pawn_attacks, rook_attacks)
from engine.defs import (BB_ALL, BB_KEYS, BB_SIZE, BB_WHITE, BISHOP, BLACK, KING, KNIGHT, NO_PIECE,
                         PAWN, QUEEN, ROOK, ST_BOARD, ST_CASTLE_MASK, ST_CASTLING, ST_EP,
                         ST_FULLMOVE, ST_HALFMOVE, ST_PLY, ST_SIDE, ST_SIZE, ST_UNDO, UNDO_CAPTURED,
                         UNDO_CASTLING, UNDO_EP, UNDO_HALFMOVE, UNDO_MOVE, UNDO_SIZE, WHITE)
from engine.kernel import inlined_kernel, kernel
from engine.move import (CASTLE, DOUBLE_PUSH, EN_PASSANT, NULL_MOVE, is_promotion, move_flag, move_from,
                         move_to, promotion_type)
from engine.piece import make_piece, piece_colour, piece_type


def new_arrays() -> tuple:
    """Fresh, empty position arrays (no pieces, white to move, no history)."""
    bb = np.zeros(BB_SIZE, dtype=np.uint64)
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_EP] = -1
    st[ST_FULLMOVE] = 1
    st[ST_CASTLE_MASK:ST_CASTLE_MASK + 64] = 15
    st[ST_BOARD:ST_BOARD + 64] = NO_PIECE
    return bb, st


def copy_arrays(pos: tuple) -> tuple:
    return tuple(a.copy() for a in pos)


def assign_arrays(dst: tuple, src: tuple) -> None:
    """Overwrite the arrays of `dst` with those of `src` (same shapes), keeping dst's identity."""
    for d, s in zip(dst, src):
        d[...] = s


# ---- placement ---------------------------------------------------------------------------------

@kernel
def put_piece(bb, st, sq, piece):
    b = bit(sq)
    bb[piece] |= b
    bb[BB_WHITE + piece_colour(piece)] |= b
    bb[BB_ALL] |= b
    st[ST_BOARD + sq] = piece


@kernel
def remove_piece(bb, st, sq, piece):
    b = ~bit(sq)
    bb[piece] &= b
    bb[BB_WHITE + piece_colour(piece)] &= b
    bb[BB_ALL] &= b
    st[ST_BOARD + sq] = NO_PIECE


@kernel
def move_piece(bb, st, frm, to, piece):
    b = bit(frm) | bit(to)
    bb[piece] ^= b
    bb[BB_WHITE + piece_colour(piece)] ^= b
    bb[BB_ALL] ^= b
    st[ST_BOARD + frm] = NO_PIECE
    st[ST_BOARD + to] = piece


@kernel
def piece_on(pos, sq):
    """Piece code on `sq` (NO_PIECE when empty)."""
    return pos[1][ST_BOARD + sq]


@kernel
def current_key(pos):
    return pos[0][BB_KEYS + pos[1][ST_PLY]]


@kernel
def last_move(pos):
    """The move that led to this position (NULL_MOVE at the start of the history)."""
    ply = pos[1][ST_PLY]
    return pos[1][ST_UNDO + (ply - 1) * UNDO_SIZE + UNDO_MOVE] if ply > 0 else NULL_MOVE


# ---- attacks -----------------------------------------------------------------------------------

@kernel
def king_square(bb, colour):
    return lsb(bb[make_piece(colour, KING)])


@kernel
def attackers_to(tab, bb, sq, occ):
    """Pieces of both colours that attack `sq` when the occupied squares are `occ`."""
    queens = bb[make_piece(WHITE, QUEEN)] | bb[make_piece(BLACK, QUEEN)]
    diagonal = bb[make_piece(WHITE, BISHOP)] | bb[make_piece(BLACK, BISHOP)] | queens
    straight = bb[make_piece(WHITE, ROOK)] | bb[make_piece(BLACK, ROOK)] | queens
    return ((pawn_attacks(tab, BLACK, sq) & bb[make_piece(WHITE, PAWN)])
            | (pawn_attacks(tab, WHITE, sq) & bb[make_piece(BLACK, PAWN)])
            | (knight_attacks(tab, sq) & (bb[make_piece(WHITE, KNIGHT)] | bb[make_piece(BLACK, KNIGHT)]))
            | (king_attacks(tab, sq) & (bb[make_piece(WHITE, KING)] | bb[make_piece(BLACK, KING)]))
            | (bishop_attacks(tab, sq, occ) & diagonal)
            | (rook_attacks(tab, sq, occ) & straight))


@kernel
def checkers_of(tab, bb, colour, sq, occ):
    """Pieces of the opponent of `colour` that attack square `sq` (usually colour's king)."""
    them = colour ^ 1
    queens = bb[make_piece(them, QUEEN)]
    return ((pawn_attacks(tab, colour, sq) & bb[make_piece(them, PAWN)])
            | (knight_attacks(tab, sq) & bb[make_piece(them, KNIGHT)])
            | (bishop_attacks(tab, sq, occ) & (bb[make_piece(them, BISHOP)] | queens))
            | (rook_attacks(tab, sq, occ) & (bb[make_piece(them, ROOK)] | queens)))


@kernel
def attacked_by(tab, bb, sq, by, occ):
    """True when colour `by` attacks `sq` with occupancy `occ` (pieces taken from bb)."""
    if pawn_attacks(tab, by ^ 1, sq) & bb[make_piece(by, PAWN)]:
        return True
    if knight_attacks(tab, sq) & bb[make_piece(by, KNIGHT)]:
        return True
    if king_attacks(tab, sq) & bb[make_piece(by, KING)]:
        return True
    if bishop_attacks(tab, sq, occ) & (bb[make_piece(by, BISHOP)] | bb[make_piece(by, QUEEN)]):
        return True
    if rook_attacks(tab, sq, occ) & (bb[make_piece(by, ROOK)] | bb[make_piece(by, QUEEN)]):
        return True
    return False


@kernel
def in_check(tab, pos):
    """Is the side to move in check?"""
    bb, st = pos
    us = st[ST_SIDE]
    return attacked_by(tab, bb, king_square(bb, us), us ^ 1, bb[BB_ALL])


@inlined_kernel
def gives_check(tab, pos, move):
    """Does the (legal) move check the opponent? Direct checks by the moved or promoted piece,
    discovered checks by our sliders, the castling rook and en-passant discoveries included."""
    bb, st = pos
    us = st[ST_SIDE]
    king = bb[make_piece(us ^ 1, KING)]
    ksq = lsb(king)
    frm, to, flag = move_from(move), move_to(move), move_flag(move)
    occ = bb[BB_ALL]
    moved = bit(frm)
    if flag == CASTLE:
        king_to, rook_to = castle_squares(frm, to)
        after = (occ ^ bit(frm) ^ bit(to)) | bit(king_to) | bit(rook_to)
        direct = rook_attacks(tab, rook_to, after)
        moved |= bit(to)
    else:
        after = (occ ^ bit(frm)) | bit(to)
        if flag == EN_PASSANT:
            after ^= bit(to ^ 8)
        kind = promotion_type(move) if is_promotion(move) else piece_type(st[ST_BOARD + frm])
        direct = attacks_from(tab, kind, us, to, after)
    if direct & king:
        return True
    bishops, rooks, queens = bb[make_piece(us, BISHOP)], bb[make_piece(us, ROOK)], bb[make_piece(us, QUEEN)]
    # A discovered check needs one of our sliders on a line through the king and the vacated
    # square (castling and en passant vacate a second square: they take the full test).
    if flag != CASTLE and flag != EN_PASSANT \
            and not (line(tab, ksq, frm) & (bishops | rooks | queens) & ~moved):
        return False
    if bishop_attacks(tab, ksq, after) & (bishops | queens) & ~moved:
        return True
    return (rook_attacks(tab, ksq, after) & (rooks | queens) & ~moved) != 0


@kernel
def attacks_from(tab, kind, colour, sq, occ):
    """Squares a piece of type `kind` and `colour` on `sq` attacks (kings: none, for checks)."""
    if kind == PAWN:
        return pawn_attacks(tab, colour, sq)
    if kind == KNIGHT:
        return knight_attacks(tab, sq)
    if kind == BISHOP:
        return bishop_attacks(tab, sq, occ)
    if kind == ROOK:
        return rook_attacks(tab, sq, occ)
    if kind == QUEEN:
        return bishop_attacks(tab, sq, occ) | rook_attacks(tab, sq, occ)
    return ONE ^ ONE


@kernel
def en_passant_legal(tab, bb, us, frm, ep):
    """Does the capture frm x ep (en passant, by colour `us`) leave our king safe?

    Simulated in full because it removes two pieces from one rank and can expose the king
    along it, which the pin logic does not see.
    """
    captured = ep ^ 8                      # the pawn that just advanced two squares
    them = us ^ 1
    occ = (bb[BB_ALL] ^ bit(frm) ^ bit(captured)) | bit(ep)
    ksq = king_square(bb, us)
    if bishop_attacks(tab, ksq, occ) & (bb[make_piece(them, BISHOP)] | bb[make_piece(them, QUEEN)]):
        return False
    if rook_attacks(tab, ksq, occ) & (bb[make_piece(them, ROOK)] | bb[make_piece(them, QUEEN)]):
        return False
    if knight_attacks(tab, ksq) & bb[make_piece(them, KNIGHT)]:
        return False
    if pawn_attacks(tab, us, ksq) & bb[make_piece(them, PAWN)] & ~bit(captured):
        return False
    return True


@kernel
def en_passant_possible(tab, bb, us, ep):
    """Can colour `us` legally capture en passant on `ep` in this placement?"""
    capturers = pawn_attacks(tab, us ^ 1, ep) & bb[make_piece(us, PAWN)]
    while capturers:
        if en_passant_legal(tab, bb, us, lsb(capturers), ep):
            return True
        capturers &= capturers - ONE
    return False


# ---- zobrist ------------------------------------------------------------------------------------

@kernel
def compute_key(tab, pos):
    """The zobrist key of the position computed from scratch (the incremental key must equal it)."""
    st = pos[1]
    key = np.uint64(0)
    for sq in range(64):
        key ^= tab[Z_PIECE + st[ST_BOARD + sq] * 64 + sq]
    key ^= tab[Z_CASTLING + st[ST_CASTLING]]
    if st[ST_EP] >= 0:
        key ^= tab[Z_EP + (st[ST_EP] & 7)]
    if st[ST_SIDE] == WHITE:
        key ^= tab[Z_SIDE]
    return key


# ---- make / unmake ------------------------------------------------------------------------------

@kernel
def castle_squares(king_from, rook_from):
    """Destinations (king_to, rook_to) of a castling move given the king's and rook's squares."""
    rank = king_from & 56
    if rook_from > king_from:
        return rank + 6, rank + 5
    return rank + 2, rank + 3


@inlined_kernel
def make_move(tab, pos, move):
    """Play a legal move in place, pushing what unmake_move needs on the undo stack."""
    bb, st = pos
    ply = st[ST_PLY]
    key = bb[BB_KEYS + ply]
    us = st[ST_SIDE]
    frm = move_from(move)
    to = move_to(move)
    flag = move_flag(move)
    piece = st[ST_BOARD + frm]

    record = ST_UNDO + ply * UNDO_SIZE
    st[record + UNDO_MOVE] = move
    st[record + UNDO_CASTLING] = st[ST_CASTLING]
    st[record + UNDO_EP] = st[ST_EP]
    st[record + UNDO_HALFMOVE] = st[ST_HALFMOVE]
    if st[ST_EP] >= 0:
        key ^= tab[Z_EP + (st[ST_EP] & 7)]
        st[ST_EP] = -1
    st[ST_HALFMOVE] += 1

    captured = NO_PIECE
    if flag == CASTLE:
        rook = st[ST_BOARD + to]
        king_to, rook_to = castle_squares(frm, to)
        remove_piece(bb, st, frm, piece)
        remove_piece(bb, st, to, rook)
        put_piece(bb, st, king_to, piece)
        put_piece(bb, st, rook_to, rook)
        key ^= (tab[Z_PIECE + piece * 64 + frm] ^ tab[Z_PIECE + piece * 64 + king_to]
                ^ tab[Z_PIECE + rook * 64 + to] ^ tab[Z_PIECE + rook * 64 + rook_to])
    else:
        cap_sq = to ^ 8 if flag == EN_PASSANT else to
        captured = st[ST_BOARD + cap_sq]
        if captured != NO_PIECE:
            remove_piece(bb, st, cap_sq, captured)
            key ^= tab[Z_PIECE + captured * 64 + cap_sq]
            st[ST_HALFMOVE] = 0
        move_piece(bb, st, frm, to, piece)
        key ^= tab[Z_PIECE + piece * 64 + frm] ^ tab[Z_PIECE + piece * 64 + to]
        if piece == make_piece(us, PAWN):
            st[ST_HALFMOVE] = 0
            if is_promotion(move):
                promoted = make_piece(us, promotion_type(move))
                remove_piece(bb, st, to, piece)
                put_piece(bb, st, to, promoted)
                key ^= tab[Z_PIECE + piece * 64 + to] ^ tab[Z_PIECE + promoted * 64 + to]
            elif flag == DOUBLE_PUSH:
                ep = (frm + to) >> 1
                if en_passant_possible(tab, bb, us ^ 1, ep):
                    st[ST_EP] = ep
                    key ^= tab[Z_EP + (ep & 7)]
    st[record + UNDO_CAPTURED] = captured

    rights = st[ST_CASTLING]
    if rights:
        kept = rights & st[ST_CASTLE_MASK + frm] & st[ST_CASTLE_MASK + to]
        if kept != rights:
            key ^= tab[Z_CASTLING + rights] ^ tab[Z_CASTLING + kept]
            st[ST_CASTLING] = kept

    key ^= tab[Z_SIDE]
    st[ST_SIDE] = us ^ 1
    st[ST_FULLMOVE] += us
    st[ST_PLY] = ply + 1
    bb[BB_KEYS + ply + 1] = key


@inlined_kernel
def unmake_move(tab, pos, move):
    """Take back `move`, which must be the last move made."""
    bb, st = pos
    ply = st[ST_PLY] - 1
    st[ST_PLY] = ply
    us = st[ST_SIDE] ^ 1
    st[ST_SIDE] = us
    st[ST_FULLMOVE] -= us
    record = ST_UNDO + ply * UNDO_SIZE
    st[ST_CASTLING] = st[record + UNDO_CASTLING]
    st[ST_EP] = st[record + UNDO_EP]
    st[ST_HALFMOVE] = st[record + UNDO_HALFMOVE]

    frm = move_from(move)
    to = move_to(move)
    flag = move_flag(move)
    if flag == CASTLE:
        king_to, rook_to = castle_squares(frm, to)
        king = st[ST_BOARD + king_to]
        rook = st[ST_BOARD + rook_to]
        remove_piece(bb, st, king_to, king)
        remove_piece(bb, st, rook_to, rook)
        put_piece(bb, st, frm, king)
        put_piece(bb, st, to, rook)
        return
    piece = st[ST_BOARD + to]
    if is_promotion(move):
        remove_piece(bb, st, to, piece)
        put_piece(bb, st, frm, make_piece(us, PAWN))
    else:
        move_piece(bb, st, to, frm, piece)
    captured = st[record + UNDO_CAPTURED]
    if captured != NO_PIECE:
        put_piece(bb, st, to ^ 8 if flag == EN_PASSANT else to, captured)


@kernel
def make_null(tab, pos):
    """Pass the move (for null-move pruning). Resets the halfmove clock so that repetition
    detection never looks across a null move."""
    bb, st = pos
    ply = st[ST_PLY]
    key = bb[BB_KEYS + ply]
    record = ST_UNDO + ply * UNDO_SIZE
    st[record + UNDO_MOVE] = NULL_MOVE
    st[record + UNDO_CASTLING] = st[ST_CASTLING]
    st[record + UNDO_EP] = st[ST_EP]
    st[record + UNDO_HALFMOVE] = st[ST_HALFMOVE]
    st[record + UNDO_CAPTURED] = NO_PIECE
    if st[ST_EP] >= 0:
        key ^= tab[Z_EP + (st[ST_EP] & 7)]
        st[ST_EP] = -1
    st[ST_HALFMOVE] = 0
    st[ST_SIDE] ^= 1
    st[ST_PLY] = ply + 1
    bb[BB_KEYS + ply + 1] = key ^ tab[Z_SIDE]


@kernel
def unmake_null(tab, pos):
    st = pos[1]
    ply = st[ST_PLY] - 1
    st[ST_PLY] = ply
    st[ST_SIDE] ^= 1
    record = ST_UNDO + ply * UNDO_SIZE
    st[ST_EP] = st[record + UNDO_EP]
    st[ST_HALFMOVE] = st[record + UNDO_HALFMOVE]
