"""Every evaluation weight, in one place: the parameter layout, the fixed constants and the
tuned (mg, eg) values.

Each tuned parameter is a pair (middlegame, endgame) in centipawns. Their values are run-time
data in `weights.json` beside this file (written by tools/training/tune.py): `weights()` loads them as an
int32 array of shape (N_PARAMS, 2) indexed by the offsets below, which the search copies into its
workspace for the numba evaluation to read. Tuning therefore never invalidates compiled code; the
layout and the constants below are compiled in (edit them and the kernels recompile).
"""

import json
from pathlib import Path

import numpy as np

from engine.defs import PIECE_TYPES

WEIGHTS_FILE = Path(__file__).resolve().parent / "weights.json"

_layout: list[tuple[str, int, int]] = []   # (name, offset, size)


def _block(name: str, size: int) -> int:
    offset = _layout[-1][1] + _layout[-1][2] if _layout else 0
    _layout.append((name, offset, size))
    return offset


MATERIAL = _block("material", PIECE_TYPES)    # by piece type, king unused
PST = _block("pst", PIECE_TYPES * 64)         # piece type * 64 + square, from white's side
MOBILITY_KNIGHT = _block("mobility knight", 9)
MOBILITY_BISHOP = _block("mobility bishop", 14)
MOBILITY_ROOK = _block("mobility rook", 15)
MOBILITY_QUEEN = _block("mobility queen", 28)
PASSED = _block("passed pawn", 8)             # by relative rank
PASSED_FREE = _block("passed pawn free path", 8)
PASSED_OWN_KING = _block("passed pawn own king distance", 8)
PASSED_ENEMY_KING = _block("passed pawn enemy king distance", 8)
ISOLATED = _block("isolated pawn", 1)
DOUBLED = _block("doubled pawn", 1)
BACKWARD = _block("backward pawn", 1)
CONNECTED = _block("connected pawn", 8)       # by relative rank
BISHOP_PAIR = _block("bishop pair", 1)
ROOK_OPEN_FILE = _block("rook open file", 1)
ROOK_SEMI_OPEN_FILE = _block("rook semi-open file", 1)
KNIGHT_OUTPOST = _block("knight outpost", 1)
KING_SHIELD = _block("king pawn shield", 3)   # shield pawn one rank ahead, two ranks ahead, open file
KING_DANGER = _block("king danger", 32)       # by attack units on the king zone
THREAT_BY_PAWN = _block("threat by pawn", 1)
THREAT_BY_MINOR = _block("threat by minor", PIECE_TYPES)    # by victim type
THREAT_BY_ROOK = _block("threat by rook", PIECE_TYPES)      # by victim type
HANGING = _block("hanging piece", 1)
TEMPO = _block("tempo", 1)
SAFE_CHECK = _block("safe check", 4)          # by checking piece: knight, bishop, rook, queen
KING_STORM = _block("king pawn storm", 8)     # enemy pawn near our king, by its rank from our side
ROOK_SEVENTH = _block("rook on seventh", 1)
BISHOP_PAWNS = _block("bishop same-colour pawns", 1)   # per own pawn on the bishop's colour
MINOR_BEHIND_PAWN = _block("minor behind pawn", 1)
THREAT_BY_KING = _block("threat by king", 1)
THREAT_PAWN_PUSH = _block("threat by pawn push", 1)
SPACE = _block("space", 1)
PASSED_SAFE = _block("passed pawn safe advance", 8)    # its stop square not attacked, by rank
ROOK_BEHIND_PASSER = _block("rook behind passed pawn", 1)   # own rook on the file behind it
BISHOP_OUTPOST = _block("bishop outpost", 1)
BISHOP_LONG_DIAGONAL = _block("bishop long diagonal", 1)    # seeing two centre squares past pawns
MINOR_KING_DISTANCE = _block("minor piece king distance", 1)  # per square from its own king
TRAPPED_ROOK = _block("rook trapped by king", 1)     # little mobility, shut in by the uncastled king
N_PARAMS = _layout[-1][1] + _layout[-1][2]

LAYOUT = tuple(_layout)

# Fixed (untuned) constants, compiled into the evaluation.
PHASE_WEIGHTS = np.array([0, 1, 1, 2, 4, 0], dtype=np.int64)      # game phase per piece type
PHASE_MAX = 24                                                     # all pieces on the board
KING_ATTACK_UNITS = np.array([0, 2, 2, 3, 5, 0], dtype=np.int64)  # per attacked king-zone square
# Win/draw/loss model for UCI_ShowWDL: P(win) = 1 / (1 + exp((WDL_A - eval) / WDL_B)) and P(loss)
# alike with -eval; fitted by `tools/training/tune.py --wdl` to the results of the tuning games.
WDL_A = 190
WDL_B = 160


def weights(path: Path = WEIGHTS_FILE) -> np.ndarray:
    """The tuned evaluation weights as an int32 array (N_PARAMS, 2); ValueError when the file
    does not match the layout."""
    values = json.loads(path.read_text(encoding="utf-8"))
    w = np.zeros((N_PARAMS, 2), dtype=np.int32)
    for name, offset, size in LAYOUT:
        block = values.get(name)
        if block is None or len(block) != size:
            raise ValueError(f"{path}: eval parameter block {name!r} needs {size} (mg, eg) pairs")
        w[offset:offset + size] = block
    unknown = set(values) - {name for name, _, _ in LAYOUT}
    if unknown:
        raise ValueError(f"{path}: unknown eval parameter blocks {sorted(unknown)}")
    return w


def write_weights(w: np.ndarray, path: Path = WEIGHTS_FILE) -> None:
    """Save weights (an (N_PARAMS, 2) array) in the format `weights()` reads, a block per line."""
    lines = [f"  {json.dumps(name)}: {json.dumps([[int(round(a)), int(round(b))] for a, b in w[o:o + n]])}"
             for name, o, n in LAYOUT]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
