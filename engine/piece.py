"""Pieces: what a piece code is made of, and the one material scale every layer counts with.

A piece code is `colour * PIECE_TYPES + piece_type` (engine.defs: WHITE/BLACK, PAWN..KING); an
empty mailbox square holds NO_PIECE, and "no piece type" (nothing captured) is NO_TYPE. Only the
helpers below know the arithmetic; everything else builds and reads pieces through them. A
position keeps one board per piece code, so `bb[make_piece(colour, KNIGHT)]` is colour's knights.
"""

import numpy as np

from engine import defs
from engine.defs import BLACK, KING, NO_PIECE, PIECE_TYPES, WHITE
from engine.kernel import kernel

NO_TYPE = KING + 1           # the type of "no piece": what a quiet move captures

PIECE_VALUES = np.array(defs.PIECE_VALUES, dtype=np.int64)     # engine.defs' table, for kernels


@kernel
def make_piece(colour, piece_type):
    """The piece code of `colour`'s piece of `piece_type`."""
    return colour * PIECE_TYPES + piece_type


@kernel
def piece_type(piece):
    """The type of a piece code (NO_TYPE for NO_PIECE)."""
    return piece % PIECE_TYPES if piece != NO_PIECE else NO_TYPE


@kernel
def piece_colour(piece):
    """The colour of a piece code (not of NO_PIECE): black's codes follow white's. (A compare,
    not `piece // PIECE_TYPES`: floor division costs a dozen instructions in make/unmake.)"""
    return BLACK if piece >= PIECE_TYPES else WHITE
