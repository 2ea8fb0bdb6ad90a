"""Zobrist keys: the Polyglot random numbers, laid out for `tab`.

Using Polyglot's numbers makes our key equal `chess.polyglot.zobrist_hash` (except that we hash an
en-passant file only when the capture is legal), which gives the tests an independent reference.
"""

import numpy as np
from engine.defs import BLACK, KING, NO_PIECE, PAWN, WHITE
from engine.piece import make_piece
from engine.polyglot_random import POLYGLOT_RANDOM

PIECE_SQUARE_KEYS = (NO_PIECE + 1) * 64    # 64 per piece code, then NO_PIECE's zeros (as engine.bitboard)


def zobrist_block() -> np.ndarray:
    """The piece-square keys (PIECE_SQUARE_KEYS), 16 castling combinations, 8 ep files, side key."""
    rnd = POLYGLOT_RANDOM
    keys = np.zeros(PIECE_SQUARE_KEYS + 16 + 8 + 1, dtype=np.uint64)
    for colour in (WHITE, BLACK):
        for ptype in range(PAWN, KING + 1):
            kind = ptype * 2 + (1 if colour == WHITE else 0)
            row = make_piece(colour, ptype) * 64
            for sq in range(64):
                keys[row + sq] = rnd[64 * kind + sq]
    for rights in range(16):
        k = 0
        for i in range(4):
            if rights >> i & 1:
                k ^= rnd[768 + i]
        keys[PIECE_SQUARE_KEYS + rights] = k
    for f in range(8):
        keys[PIECE_SQUARE_KEYS + 16 + f] = rnd[772 + f]
    keys[PIECE_SQUARE_KEYS + 24] = rnd[780]
    return keys
