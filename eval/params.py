"""Every evaluation weight, in one place: the parameter layout and the (mg, eg) values.

Each parameter is a pair (middlegame, endgame) in centipawns. `weights()` returns them as an
int32 array of shape (N_PARAMS, 2) indexed by the offsets below, which is what the numba
evaluation reads. The values after the marker are rewritten by tools/tune.py (Texel tuning).
"""

import numpy as np

_layout: list[tuple[str, int, int]] = []   # (name, offset, size)


def _block(name: str, size: int) -> int:
    offset = _layout[-1][1] + _layout[-1][2] if _layout else 0
    _layout.append((name, offset, size))
    return offset


MATERIAL = _block("material", 6)              # by piece type, king unused
PST = _block("pst", 6 * 64)                   # piece type * 64 + square, from white's side
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
THREAT_BY_MINOR = _block("threat by minor", 6)    # by victim type
THREAT_BY_ROOK = _block("threat by rook", 6)      # by victim type
HANGING = _block("hanging piece", 1)
TEMPO = _block("tempo", 1)
N_PARAMS = _layout[-1][1] + _layout[-1][2]

LAYOUT = tuple(_layout)
PHASE_WEIGHTS = (0, 1, 1, 2, 4, 0)     # game phase per piece type; 24 = all pieces on
# Win/draw/loss model for UCI_ShowWDL: P(win) = 1 / (1 + exp((WDL_A - eval) / WDL_B)) and P(loss)
# alike with -eval; fitted by `tools/tune.py --wdl` to the results of the tuning games.
WDL_A = 190
WDL_B = 160
PHASE_MAX = 24
KING_ATTACK_UNITS = (0, 2, 2, 3, 5, 0)  # per attacked king-zone square, by attacker type


def weights() -> np.ndarray:
    """The evaluation weights as an int32 array (N_PARAMS, 2)."""
    w = np.zeros((N_PARAMS, 2), dtype=np.int32)
    for name, offset, size in LAYOUT:
        values = VALUES[name]
        if len(values) != size:
            raise ValueError(f"eval parameter block {name!r} has {len(values)} values, expected {size}")
        w[offset:offset + size] = values
    return w


def _initial_values() -> dict[str, list[tuple[int, int]]]:
    """Hand-set starting values (used until tools/tune.py writes tuned ones)."""
    def centre(sq: int) -> float:
        f, r = sq & 7, sq >> 3
        return max(abs(f - 3.5), abs(r - 3.5))      # 0.5 in the centre .. 3.5 in a corner

    pst = []
    for sq in range(64):                              # pawns
        f, r = sq & 7, sq >> 3
        pst.append((0 if r in (0, 7) else int(4 * (r - 1) + (8 if f in (3, 4) and r in (3, 4) else 0)),
                    0 if r in (0, 7) else 8 * (r - 1)))
    pst += [(int(-12 * centre(sq) + 18), int(-10 * centre(sq) + 15)) for sq in range(64)]
    pst += [(int(-5 * centre(sq) + 8), int(-6 * centre(sq) + 9)) for sq in range(64)]
    pst += [(12 if sq >> 3 == 6 else (4 if (sq & 7) in (3, 4) else 0), 8 if sq >> 3 == 6 else 0)
            for sq in range(64)]
    pst += [(int(-3 * centre(sq) + 4), int(-6 * centre(sq) + 9)) for sq in range(64)]
    king = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        mg = (20 if f in (1, 2, 6) else 0) - 15 * r if r <= 1 else -40 - 5 * r
        king.append((mg, int(-12 * centre(sq) + 20)))
    pst += king

    def linear(n: int, centre_count: int, mg: int, eg: int) -> list[tuple[int, int]]:
        return [((i - centre_count) * mg, (i - centre_count) * eg) for i in range(n)]

    return {
        "material": [(100, 120), (320, 300), (330, 320), (480, 540), (950, 1000), (0, 0)],
        "pst": pst,
        "mobility knight": linear(9, 4, 4, 4),
        "mobility bishop": linear(14, 6, 5, 5),
        "mobility rook": linear(15, 7, 2, 4),
        "mobility queen": linear(28, 13, 1, 2),
        "passed pawn": list(zip([0, 5, 10, 15, 25, 45, 70, 0], [0, 10, 20, 35, 60, 100, 150, 0])),
        "passed pawn free path": list(zip([0] * 8, [0, 0, 5, 10, 20, 35, 60, 0])),
        "passed pawn own king distance": list(zip([0] * 8, [0, 0, -2, -4, -6, -8, -10, 0])),
        "passed pawn enemy king distance": list(zip([0] * 8, [0, 0, 4, 8, 12, 16, 20, 0])),
        "isolated pawn": [(-10, -15)],
        "doubled pawn": [(-10, -20)],
        "backward pawn": [(-8, -10)],
        "connected pawn": list(zip([0, 5, 8, 12, 20, 35, 60, 0], [0, 3, 5, 8, 15, 30, 50, 0])),
        "bishop pair": [(30, 50)],
        "rook open file": [(25, 10)],
        "rook semi-open file": [(12, 8)],
        "knight outpost": [(20, 10)],
        "king pawn shield": [(15, 0), (8, 0), (-15, 0)],
        "king danger": [(-int(i * i * 0.6), -int(i * 1.5)) for i in range(32)],
        "threat by pawn": [(50, 40)],
        "threat by minor": [(5, 15), (25, 30), (25, 30), (40, 50), (40, 60), (0, 0)],
        "threat by rook": [(0, 10), (15, 25), (15, 25), (0, 0), (30, 40), (0, 0)],
        "hanging piece": [(20, 15)],
        "tempo": [(15, 5)],
    }


# ---- values (written by tools/tune.py) ----
VALUES = {
    'material': [(91, 109), (325, 306), (334, 324), (479, 539), (950, 1000), (0, 0)],
    'pst': [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 1), (0, 2), (0, 1), (0, 0), (1, 1), (2, 2), (0, 1), (-1, 1), (3, 7), (4, 8), (3, 8), (5, 8), (4, 8), (3, 8), (4, 7), (4, 8), (8, 16), (7, 15), (7, 15), (15, 15), (15, 15), (7, 15), (7, 15), (7, 14), (12, 24), (12, 23), (12, 24), (18, 22), (19, 22), (12, 23), (12, 24), (13, 24), (16, 32), (16, 32), (16, 32), (16, 31), (16, 32), (16, 32), (16, 32), (16, 32), (20, 40), (20, 40), (20, 40), (20, 40), (20, 40), (20, 40), (20, 40), (20, 40), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-24, -20), (-24, -20), (-12, -10), (0, 1), (0, 0), (0, 0), (0, 0), (-12, -10), (-24, -20), (-23, -20), (-12, -10), (0, 0), (12, 10), (12, 10), (0, 0), (-12, -10), (-24, -20), (-24, -20), (-12, -10), (0, 0), (12, 10), (12, 10), (0, 0), (-12, -10), (-24, -20), (-24, -20), (-12, -10), (0, 0), (0, 0), (0, 0), (0, 0), (-12, -10), (-24, -20), (-24, -20), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-12, -10), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-24, -20), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-3, -6), (-4, -6), (-3, -5), (-4, -6), (-4, -6), (-3, -6), (-9, -12), (-9, -12), (-4, -6), (0, 0), (0, 0), (0, 0), (0, 0), (-4, -6), (-9, -12), (-9, -12), (-4, -6), (0, 0), (5, 6), (5, 6), (0, 0), (-4, -6), (-9, -12), (-9, -12), (-4, -6), (0, 0), (5, 6), (5, 6), (0, 0), (-4, -6), (-9, -12), (-9, -12), (-4, -6), (0, 0), (0, 0), (0, 0), (0, 0), (-4, -6), (-9, -12), (-9, -12), (-4, -6), (-4, -6), (-4, -6), (-4, -6), (-4, -6), (-4, -6), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (-9, -12), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (1, 0), (0, 0), (-1, 0), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (12, 8), (12, 8), (12, 8), (12, 8), (12, 8), (12, 8), (12, 8), (12, 8), (0, 0), (0, 0), (0, 0), (4, 0), (4, 0), (0, 0), (0, 0), (0, 0), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-3, -6), (-3, -6), (-3, -6), (-2, -6), (-3, -6), (-3, -6), (-6, -12), (-6, -12), (-3, -6), (0, 0), (0, 0), (0, 0), (0, 0), (-3, -6), (-6, -12), (-6, -12), (-3, -6), (0, 0), (2, 6), (2, 6), (0, 0), (-3, -6), (-6, -12), (-6, -12), (-3, -6), (0, 0), (2, 6), (2, 6), (0, 0), (-3, -6), (-6, -12), (-6, -12), (-3, -6), (0, 0), (0, 0), (0, 0), (0, 0), (-3, -6), (-6, -12), (-6, -12), (-3, -6), (-3, -6), (-3, -6), (-3, -6), (-3, -6), (-3, -6), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (-6, -12), (0, -22), (20, -22), (20, -22), (0, -22), (-1, -22), (0, -22), (20, -23), (0, -23), (-15, -22), (5, -10), (5, -10), (-15, -10), (-15, -10), (-15, -10), (6, -9), (-15, -22), (-50, -22), (-50, -10), (-50, 2), (-50, 2), (-50, 2), (-50, 2), (-50, -10), (-50, -22), (-55, -22), (-55, -10), (-55, 2), (-55, 14), (-55, 14), (-55, 2), (-55, -10), (-55, -22), (-60, -22), (-60, -10), (-60, 2), (-60, 14), (-60, 14), (-60, 2), (-60, -10), (-60, -22), (-65, -22), (-65, -10), (-65, 2), (-65, 2), (-65, 2), (-65, 2), (-65, -10), (-65, -22), (-70, -22), (-70, -10), (-70, -10), (-70, -10), (-70, -10), (-70, -10), (-70, -10), (-70, -22), (-75, -22), (-75, -22), (-75, -22), (-75, -22), (-75, -22), (-75, -22), (-75, -22), (-75, -22)],
    'mobility knight': [(-16, -16), (-12, -12), (-8, -7), (-4, -3), (1, 1), (5, 5), (9, 9), (12, 13), (16, 16)],
    'mobility bishop': [(-30, -30), (-25, -25), (-20, -20), (-14, -15), (-9, -9), (-4, -4), (0, 1), (5, 6), (10, 11), (15, 15), (20, 20), (25, 25), (30, 30), (35, 35)],
    'mobility rook': [(-14, -28), (-12, -24), (-10, -20), (-8, -16), (-6, -12), (-4, -8), (-1, -4), (0, 0), (2, 4), (4, 8), (6, 12), (8, 16), (10, 20), (12, 24), (14, 26)],
    'mobility queen': [(-13, -26), (-12, -24), (-11, -22), (-10, -20), (-9, -18), (-8, -16), (-7, -14), (-6, -12), (-5, -10), (-4, -8), (-3, -6), (-2, -4), (-1, -2), (0, 0), (1, 2), (2, 4), (3, 6), (4, 8), (5, 10), (6, 12), (7, 14), (8, 16), (9, 18), (10, 20), (11, 22), (12, 24), (13, 26), (14, 28)],
    'passed pawn': [(0, 0), (4, 10), (9, 19), (14, 34), (24, 58), (45, 99), (70, 149), (0, 0)],
    'passed pawn free path': [(0, 0), (0, 0), (0, 4), (0, 10), (0, 19), (0, 34), (0, 60), (0, 0)],
    'passed pawn own king distance': [(0, 0), (-2, 0), (-3, -4), (-4, -8), (-4, -13), (-1, -14), (-1, -15), (0, 0)],
    'passed pawn enemy king distance': [(0, 0), (-3, -1), (-3, 2), (-3, 6), (-1, 11), (0, 16), (0, 20), (0, 0)],
    'isolated pawn': [(-9, -15)],
    'doubled pawn': [(-11, -22)],
    'backward pawn': [(-7, -10)],
    'connected pawn': [(0, 0), (5, 5), (8, 6), (9, 4), (18, 12), (35, 30), (60, 50), (0, 0)],
    'bishop pair': [(33, 51)],
    'rook open file': [(24, 7)],
    'rook semi-open file': [(12, 9)],
    'knight outpost': [(21, 11)],
    'king pawn shield': [(16, -2), (7, -3), (-13, 5)],
    'king danger': [(0, 0), (0, -1), (-2, -3), (-5, -4), (-10, -6), (-15, -7), (-21, -9), (-29, -10), (-38, -12), (-48, -13), (-59, -15), (-72, -16), (-86, -18), (-101, -19), (-117, -21), (-135, -22), (-153, -24), (-173, -25), (-194, -27), (-216, -28), (-240, -30), (-264, -31), (-290, -33), (-317, -34), (-345, -36), (-375, -37), (-405, -39), (-437, -40), (-470, -42), (-504, -43), (-540, -45), (-576, -46)],
    'threat by pawn': [(50, 40)],
    'threat by minor': [(6, 17), (25, 30), (25, 30), (40, 50), (40, 60), (0, 0)],
    'threat by rook': [(-1, 12), (14, 24), (15, 24), (0, 0), (30, 40), (0, 0)],
    'hanging piece': [(20, 15)],
    'tempo': [(12, 2)],
}
