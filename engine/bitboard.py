"""Attack tables: leapers, pawn captures, between/line masks and magic-bitboard slider lookups.

All tables live in one uint64 array `tab` built once by `build_tables` and passed to every
kernel (numba would otherwise freeze a captured global array into each compiled function).
The Zobrist keys share the array so that one argument carries every constant.
"""

import numpy as np

from engine.bits import EMPTY, ONE, bit
from engine.defs import NO_PIECE
from engine.kernel import kernel
from engine.magics import BISHOP_MAGICS, ROOK_MAGICS

# Offsets into `tab`.
T_KNIGHT = 0
T_KING = 64
T_PAWN = 128            # colour * 64 + square: squares a pawn of that colour attacks
T_BETWEEN = 256         # a * 64 + b: squares strictly between two aligned squares, else empty
T_LINE = 4352           # a * 64 + b: the whole line through two aligned squares, else empty
T_ROOK_MAGIC = 8448     # square * 4 + (mask, magic, shift, offset)
T_BISHOP_MAGIC = 8704
T_ZOBRIST = 8960        # zobrist block, see below
T_SLIDER = 9984         # the magic attack tables themselves
ROOK_TABLE_SIZE = 102400
BISHOP_TABLE_SIZE = 5248
TAB_SIZE = T_SLIDER + ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE

# Zobrist block (engine.zobrist): piece-square keys, piece code * 64 + square (row NO_PIECE is
# zero), 16 castling-rights combinations, 8 en-passant files, the side key.
Z_PIECE = T_ZOBRIST
Z_CASTLING = T_ZOBRIST + (NO_PIECE + 1) * 64
Z_EP = Z_CASTLING + 16
Z_SIDE = Z_EP + 8

ROOK_DIRECTIONS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1)], dtype=np.int64)
BISHOP_DIRECTIONS = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)], dtype=np.int64)
KNIGHT_STEPS = np.array([(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
                        dtype=np.int64)
KING_STEPS = np.array([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)],
                      dtype=np.int64)


@kernel
def ray_attacks(sq, occ, directions):
    """Slider attacks by walking rays until a blocker; the slow reference the tables are built from."""
    result = EMPTY
    f0, r0 = sq & 7, sq >> 3
    for d in range(directions.shape[0]):
        df, dr = directions[d, 0], directions[d, 1]
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            b = bit(r * 8 + f)
            result |= b
            if occ & b:
                break
            f += df
            r += dr
    return result


@kernel
def relevant_occupancy(sq, directions):
    """Squares whose occupancy changes a slider's attacks from `sq` (rays minus their last square)."""
    result = EMPTY
    f0, r0 = sq & 7, sq >> 3
    for d in range(directions.shape[0]):
        df, dr = directions[d, 0], directions[d, 1]
        f, r = f0 + df, r0 + dr
        while 0 <= f + df < 8 and 0 <= r + dr < 8:
            result |= bit(r * 8 + f)
            f += df
            r += dr
    return result


@kernel
def step_attacks(sq, steps):
    result = EMPTY
    f0, r0 = sq & 7, sq >> 3
    for i in range(steps.shape[0]):
        f, r = f0 + steps[i, 0], r0 + steps[i, 1]
        if 0 <= f < 8 and 0 <= r < 8:
            result |= bit(r * 8 + f)
    return result


@kernel
def nth_subset(mask, index):
    """The `index`-th subset of `mask` (bit k of index selects the k-th set bit of mask)."""
    result = EMPTY
    k = 0
    m = mask
    while m:
        low = m & (~m + ONE)
        if (index >> k) & 1:
            result |= low
        m ^= low
        k += 1
    return result


@kernel
def _fill_magic(tab, header, sq, directions, magic, offset):
    mask = relevant_occupancy(sq, directions)
    bits = 0
    m = mask
    while m:
        m &= m - ONE
        bits += 1
    shift = np.uint64(64 - bits)
    tab[header + sq * 4] = mask
    tab[header + sq * 4 + 1] = magic
    tab[header + sq * 4 + 2] = shift
    tab[header + sq * 4 + 3] = np.uint64(offset)
    for i in range(1 << bits):
        occ = nth_subset(mask, i)
        index = offset + np.int64((occ * magic) >> shift)
        tab[index] = ray_attacks(sq, occ, directions)
    return offset + (1 << bits)


@kernel
def _fill_tables(tab, rook_magics, bishop_magics, zobrist, rook_dirs, bishop_dirs, knight_steps,
                 king_steps):
    for sq in range(64):
        tab[T_KNIGHT + sq] = step_attacks(sq, knight_steps)
        tab[T_KING + sq] = step_attacks(sq, king_steps)
        b = bit(sq)
        f = sq & 7
        if sq < 56:
            if f > 0:
                tab[T_PAWN + sq] |= b << np.uint64(7)
            if f < 7:
                tab[T_PAWN + sq] |= b << np.uint64(9)
        if sq >= 8:
            if f > 0:
                tab[T_PAWN + 64 + sq] |= b >> np.uint64(9)
            if f < 7:
                tab[T_PAWN + 64 + sq] |= b >> np.uint64(7)
    offset = T_SLIDER
    for sq in range(64):
        offset = _fill_magic(tab, T_ROOK_MAGIC, sq, rook_dirs, rook_magics[sq], offset)
    for sq in range(64):
        offset = _fill_magic(tab, T_BISHOP_MAGIC, sq, bishop_dirs, bishop_magics[sq], offset)
    for a in range(64):
        for b in range(64):
            if a == b:
                continue
            for dirs in (rook_dirs, bishop_dirs):
                from_a = ray_attacks(a, EMPTY, dirs)
                if from_a & bit(b):
                    tab[T_LINE + a * 64 + b] = (from_a & ray_attacks(b, EMPTY, dirs)) | bit(a) | bit(b)
                    tab[T_BETWEEN + a * 64 + b] = ray_attacks(a, bit(b), dirs) & ray_attacks(b, bit(a), dirs)
    for i in range(zobrist.shape[0]):
        tab[T_ZOBRIST + i] = zobrist[i]


def build_tables(zobrist: np.ndarray) -> np.ndarray:
    """Create the `tab` array (attack tables plus the given zobrist block)."""
    tab = np.zeros(TAB_SIZE, dtype=np.uint64)
    _fill_tables(tab, np.array(ROOK_MAGICS, dtype=np.uint64), np.array(BISHOP_MAGICS, dtype=np.uint64),
                 zobrist, ROOK_DIRECTIONS, BISHOP_DIRECTIONS, KNIGHT_STEPS, KING_STEPS)
    return tab


@kernel
def rook_attacks(tab, sq, occ):
    h = T_ROOK_MAGIC + sq * 4
    return tab[tab[h + 3] + (((occ & tab[h]) * tab[h + 1]) >> tab[h + 2])]


@kernel
def bishop_attacks(tab, sq, occ):
    h = T_BISHOP_MAGIC + sq * 4
    return tab[tab[h + 3] + (((occ & tab[h]) * tab[h + 1]) >> tab[h + 2])]


@kernel
def knight_attacks(tab, sq):
    return tab[T_KNIGHT + sq]


@kernel
def king_attacks(tab, sq):
    return tab[T_KING + sq]


@kernel
def pawn_attacks(tab, colour, sq):
    return tab[T_PAWN + colour * 64 + sq]


@kernel
def between(tab, a, b):
    return tab[T_BETWEEN + a * 64 + b]


@kernel
def line(tab, a, b):
    return tab[T_LINE + a * 64 + b]
