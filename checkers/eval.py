"""The static evaluation of a checkers position, in hundredths of a man, for the side to move.

Terms (each for one colour, Black's minus White's, then from the mover's side):
- material: a man 100, a king KING_VALUE; the side ahead gains more as pieces come off
  (TRADE_DIVISOR), so that it trades down.
- back rank: men on their own home row keep the opponent from crowning; the bridge squares
  (1 and 3 for Black, 30 and 32 for White) count most. Worth less as men come off.
- centre: men on the eight central squares, kings on the centre (kings on the edge are weak).
- tempo: men's advancement, worth nothing in the opening and more as pieces come off.
- mobility: the number of steps each side has.
- runaway men: a man with no enemy piece in the cone ahead of it (every square it could be
  stopped from) and no enemy king is as good as crowned, less the moves it still needs.
- kings' endings: when a side with more material faces only kings, its kings are drawn to the
  enemy kings and it gains for each enemy king outside a double corner (1/5, 28/32), where a
  lone king holds out longest, and for the enemy king's distance from the double corners: two
  kings against one is a win, but only by driving the lone king out of its corner.
- noise (levels below full strength): a pseudo-random number in [-noise, noise] from the
  position's key and a seed, the same for the same position within one search.

All tables (square weights, cones, distances) live in one int64 array `etab` built here once in
Python (`build_eval_tables`, `EVAL_TABLES`) and passed to the kernel, as the chess evaluation's are.
"""

from __future__ import annotations

import numpy as np

from checkers.bits import lsb, popcount
from checkers.defs import (BLACK, DOWN_LEFT, DOWN_RIGHT, FULL, POS_KINGS, POS_PIECES, POS_SIDE, SQUARES,
                           UP_LEFT, UP_RIGHT)
from checkers.kernel import inlined_kernel
from checkers.movegen import step
from checkers.position import key
from checkers.tables import coordinates

MAN_VALUE = 100
KING_VALUE = 140
TRADE_DIVISOR = 60          # material lead times (24 - pieces on the board) / this: trade down when ahead
BACK_RANK = (9, 3, 9, 5)    # Black's home squares 1-4 (White's mirror, 32-29): the bridge 1 and 3 most
CENTRE_MAN = 6              # a man on 10, 11, 14, 15, 18, 19, 22, 23
CENTRE_KING = 10            # a king on the same squares
EDGE_KING = -6              # a king on the side edges (5, 13, 21, 29, 4, 12, 20, 28)
TEMPO = 3                   # per row advanced, times (24 - pieces) / 24
MOBILITY = 2                # per step
RUNAWAY = 55                # an unstoppable man, less RUNAWAY_ROW per row still to go
RUNAWAY_ROW = 5
CHASE = 5                   # per square a strong king is closer to the nearest enemy king (of 7)
OUT_OF_CORNER = 25          # an enemy king outside the double corners, when hunting
CORNER_DISTANCE = 4         # per square the hunted king is from the nearest double corner

# etab layout
ET_BACK = 0                 # 2 x 32: home-row weight by colour and square
ET_CENTRE = 64              # 32: 1 for the centre squares
ET_EDGE = 96                # 32: 1 for the side edges
ET_ROW = 128                # 2 x 32: rows advanced by colour (0 at home, 6 one short of crowning)
ET_CONE = 192               # 2 x 32: the cone ahead of a man, a board
ET_DIST = 256               # 32 x 32: king distance between squares
ET_CORNER_DIST = 1280       # 32: king distance to the nearer double corner square
ET_SIZE = 1312

DOUBLE_CORNERS = (0, 4, 27, 31)     # squares 1, 5, 28, 32
CENTRE_SQUARES = (9, 10, 13, 14, 17, 18, 21, 22)
EDGE_SQUARES = (4, 12, 20, 28, 3, 11, 19, 27)


def _distance(a: int, b: int) -> int:
    (ra, fa), (rb, fb) = coordinates(a), coordinates(b)
    return max(abs(ra - rb), abs(fa - fb))


def build_eval_tables() -> np.ndarray:
    etab = np.zeros(ET_SIZE, dtype=np.int64)
    for sq in range(SQUARES):
        row, file = coordinates(sq)
        if row == 0:
            etab[ET_BACK + sq] = BACK_RANK[sq]
        if row == 7:
            etab[ET_BACK + 32 + sq] = BACK_RANK[31 - sq]
        etab[ET_CENTRE + sq] = sq in CENTRE_SQUARES
        etab[ET_EDGE + sq] = sq in EDGE_SQUARES and sq not in DOUBLE_CORNERS
        etab[ET_ROW + sq] = row                 # Black advances down the rows
        etab[ET_ROW + 32 + sq] = 7 - row        # White up
        for colour, forward in ((0, 1), (1, -1)):
            cone = 0
            for other in range(SQUARES):
                r2, f2 = coordinates(other)
                ahead = (r2 - row) * forward
                if ahead > 0 and abs(f2 - file) <= ahead + 1:
                    cone |= 1 << other
            etab[ET_CONE + 32 * colour + sq] = cone
        for other in range(SQUARES):
            etab[ET_DIST + 32 * sq + other] = _distance(sq, other)
        etab[ET_CORNER_DIST + sq] = min(_distance(sq, c) for c in DOUBLE_CORNERS)
    return etab


EVAL_TABLES = build_eval_tables()


@inlined_kernel
def _side_terms(etab, colour, mine, opp, kings, pieces, opp_kings_count):
    """Everything but material and the kings' ending, for colour `colour`."""
    my_kings = mine & kings
    men = mine ^ my_kings
    score = 0
    phase_men = 24 - pieces              # 0 at the start, 21 with three pieces left
    rest = men
    back = 0
    tempo = 0
    centre = 0
    runaway = 0
    while rest:
        sq = lsb(rest)
        rest &= rest - 1
        back += etab[ET_BACK + 32 * colour + sq]
        row = etab[ET_ROW + 32 * colour + sq]
        tempo += row
        centre += etab[ET_CENTRE + sq]
        if opp_kings_count == 0 and (etab[ET_CONE + 32 * colour + sq] & opp) == 0:
            runaway += RUNAWAY - RUNAWAY_ROW * (7 - row)
    score += back * pieces // 24
    score += TEMPO * tempo * phase_men // 24
    score += CENTRE_MAN * centre + runaway
    rest = my_kings
    while rest:
        sq = lsb(rest)
        rest &= rest - 1
        score += CENTRE_KING * etab[ET_CENTRE + sq] + EDGE_KING * etab[ET_EDGE + sq]
    # mobility: the steps of men forwards and kings every way
    empty = ~(mine | opp) & FULL
    if colour == BLACK:
        forward = popcount(step(mine, DOWN_LEFT) & empty) + popcount(step(mine, DOWN_RIGHT) & empty)
        backward = popcount(step(my_kings, UP_LEFT) & empty) + popcount(step(my_kings, UP_RIGHT) & empty)
    else:
        forward = popcount(step(mine, UP_LEFT) & empty) + popcount(step(mine, UP_RIGHT) & empty)
        backward = popcount(step(my_kings, DOWN_LEFT) & empty) + popcount(step(my_kings, DOWN_RIGHT) & empty)
    score += MOBILITY * (forward + backward)
    return score


@inlined_kernel
def _hunt(etab, strong_kings, weak_kings):
    """The stronger side's bonus against a side of kings only: its kings near theirs, theirs out
    of the double corners and far from them."""
    score = 0
    rest = weak_kings
    while rest:
        sq = lsb(rest)
        rest &= rest - 1
        corner = etab[ET_CORNER_DIST + sq]
        if corner > 0:
            score += OUT_OF_CORNER
        score += CORNER_DISTANCE * corner
    rest = strong_kings
    while rest:
        sq = lsb(rest)
        rest &= rest - 1
        nearest = 7
        others = weak_kings
        while others:
            w = lsb(others)
            others &= others - 1
            d = etab[ET_DIST + 32 * sq + w]
            if d < nearest:
                nearest = d
        score += CHASE * (7 - nearest)
    return score


@inlined_kernel
def evaluate(etab, pos, noise, seed):
    """The position's score for the side to move (no jumps pending: the search resolves them)."""
    black = pos[POS_PIECES]
    white = pos[POS_PIECES + 1]
    kings = pos[POS_KINGS]
    nbk = popcount(black & kings)
    nwk = popcount(white & kings)
    nbm = popcount(black) - nbk
    nwm = popcount(white) - nwk
    pieces = nbk + nwk + nbm + nwm
    mat_b = MAN_VALUE * nbm + KING_VALUE * nbk
    mat_w = MAN_VALUE * nwm + KING_VALUE * nwk
    score = mat_b - mat_w
    score += (mat_b - mat_w) * (24 - pieces) // TRADE_DIVISOR
    score += _side_terms(etab, 0, black, white, kings, pieces, nwk)
    score -= _side_terms(etab, 1, white, black, kings, pieces, nbk)
    if nwm == 0 and nwk > 0 and mat_b > mat_w:
        score += _hunt(etab, black & kings, white & kings)
    elif nbm == 0 and nbk > 0 and mat_w > mat_b:
        score -= _hunt(etab, white & kings, black & kings)
    if pos[POS_SIDE] != BLACK:
        score = -score
    if noise > 0:
        h = (key(pos) ^ seed) * -7046029254386353131        # 0x9E3779B97F4A7C15 as int64
        h ^= (h >> 29) & 0x7FFFFFFFF
        r = h % (2 * noise + 1)
        if r < 0:
            r += 2 * noise + 1
        score += r - noise
    return score
