"""Zobrist keys: the Polyglot random numbers, laid out for `tab`.

Using Polyglot's numbers makes our key equal `chess.polyglot.zobrist_hash` (except that we hash an
en-passant file only when the capture is legal), which gives the tests an independent reference.
"""

import numpy as np
from engine.defs import BLACK, KING, PAWN, WHITE
from engine.polyglot_random import POLYGLOT_RANDOM


def zobrist_block() -> np.ndarray:
    """13*64 piece-square keys (empty row last), 16 castling combinations, 8 ep files, side key."""
    rnd = POLYGLOT_RANDOM
    keys = np.zeros(13 * 64 + 16 + 8 + 1, dtype=np.uint64)
    for colour in (WHITE, BLACK):
        for ptype in range(PAWN, KING + 1):
            kind = ptype * 2 + (1 if colour == WHITE else 0)
            for sq in range(64):
                keys[(colour * 6 + ptype) * 64 + sq] = rnd[64 * kind + sq]
    for rights in range(16):
        k = 0
        for i in range(4):
            if rights >> i & 1:
                k ^= rnd[768 + i]
        keys[13 * 64 + rights] = k
    for f in range(8):
        keys[13 * 64 + 16 + f] = rnd[772 + f]
    keys[13 * 64 + 24] = rnd[780]
    return keys
