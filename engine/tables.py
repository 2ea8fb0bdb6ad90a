"""The process-wide constant table array (attack tables and zobrist keys), built on first use."""

import numpy as np

from engine.bitboard import build_tables
from engine.zobrist import zobrist_block

_TABLES: np.ndarray | None = None


def tables() -> np.ndarray:
    global _TABLES
    if _TABLES is None:
        _TABLES = build_tables(zobrist_block())
    return _TABLES
