"""Transposition table: 4-entry buckets of (key ^ data, data) uint64 pairs in one numpy array.

Data packs move (16 bits), score and static eval (16 bits each, offset by 32768), depth + 1
(8 bits), bound (2 bits) and generation (6 bits). Storing key ^ data lets a reader detect an
entry torn by a concurrent writer (Lazy SMP), since the pair then fails to verify. Mate scores
are stored relative to the node (see to_tt/from_tt) so they stay right at any ply.
"""

import numpy as np

from engine.bits import prefetch
from engine.defs import MATE_IN_MAX
from engine.kernel import kernel

BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3
ENTRIES_PER_BUCKET = 4
BUCKET_WORDS = 2 * ENTRIES_PER_BUCKET
BUCKET_BYTES = 8 * BUCKET_WORDS

U16 = np.uint64(0xFFFF)


def allocate(megabytes: int) -> np.ndarray:
    """A zeroed table of `megabytes` MB (at least one bucket)."""
    buckets = max(1, megabytes * 1024 * 1024 // BUCKET_BYTES)
    return np.zeros(buckets * BUCKET_WORDS, dtype=np.uint64)


@kernel
def to_tt(score, ply):
    if score >= MATE_IN_MAX:
        return score + ply
    if score <= -MATE_IN_MAX:
        return score - ply
    return score


@kernel
def from_tt(score, ply):
    if score >= MATE_IN_MAX:
        return score - ply
    if score <= -MATE_IN_MAX:
        return score + ply
    return score


@kernel
def _bucket(tt, key):
    buckets = np.uint64(tt.shape[0] // BUCKET_WORDS)
    return np.int64(((key >> np.uint64(32)) * buckets) >> np.uint64(32)) * BUCKET_WORDS


@kernel
def prefetch_bucket(tt, key):
    """Start loading the bucket of `key` (a child position's) while other work goes on."""
    prefetch(tt, _bucket(tt, key))


@kernel
def probe(tt, key):
    """(hit, move, score, eval, depth, bound) for `key`; score is as stored (see from_tt)."""
    base = _bucket(tt, key)
    for i in range(ENTRIES_PER_BUCKET):
        data = tt[base + 2 * i + 1]
        if data and (tt[base + 2 * i] ^ data) == key:
            move = np.int64(data & U16)
            score = np.int64((data >> np.uint64(16)) & U16) - 32768
            ev = np.int64((data >> np.uint64(32)) & U16) - 32768
            depth = np.int64((data >> np.uint64(48)) & np.uint64(0xFF)) - 1
            bound = np.int64((data >> np.uint64(56)) & np.uint64(3))
            return True, move, score, ev, depth, bound
    return False, 0, 0, 0, 0, BOUND_NONE


@kernel
def store(tt, key, move, score, ev, depth, bound, generation):
    """Write an entry, replacing the same position or else the shallowest, oldest entry."""
    base = _bucket(tt, key)
    victim = -1
    victim_worth = 1 << 30
    for i in range(ENTRIES_PER_BUCKET):
        data = tt[base + 2 * i + 1]
        if not data or (tt[base + 2 * i] ^ data) == key:
            victim = i
            if data and move == 0:
                move = np.int64(data & U16)     # keep the move we knew
            if data and bound != BOUND_EXACT and depth + 2 < np.int64((data >> np.uint64(48)) & np.uint64(0xFF)) - 1:
                return                          # keep a much deeper entry of the same position
            break
        age = (generation - np.int64(data >> np.uint64(58))) & 63
        worth = np.int64((data >> np.uint64(48)) & np.uint64(0xFF)) - 8 * age
        if worth < victim_worth:
            victim_worth = worth
            victim = i
    depth = min(max(depth + 1, 0), 255)
    data = (np.uint64(move) & U16) | (np.uint64(score + 32768) << np.uint64(16)) \
        | (np.uint64(ev + 32768) << np.uint64(32)) | (np.uint64(depth) << np.uint64(48)) \
        | (np.uint64(bound) << np.uint64(56)) | (np.uint64(generation & 63) << np.uint64(58))
    tt[base + 2 * victim] = key ^ data
    tt[base + 2 * victim + 1] = data


@kernel
def hashfull(tt, generation):
    """Permille of the first 1000 entries written in the current search."""
    n = min(1000, tt.shape[0] // 2)
    used = 0
    for i in range(n):
        data = tt[2 * i + 1]
        if data and np.int64(data >> np.uint64(58)) == (generation & 63):
            used += 1
    return used * 1000 // max(n, 1)
