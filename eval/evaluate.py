"""Static evaluation: a tapered middlegame/endgame score from the side to move's point of view.

Every weighted term goes through `_add`, which adds `count` times the (mg, eg) weight of one
parameter for one colour and, when a trace array is given, records the count there (white's in
trace[i], black's in trace[N_PARAMS + i]). The trace is what the `eval` command prints per term
and what Texel tuning fits: the score is linear in the weights apart from the endgame scale
factor and the mop-up bonus, which the trace records separately.
"""

import numpy as np

from engine.bits import DARK_SQUARES, FILE_A, FILE_H, LIGHT_SQUARES, ONE, RANK_1, RANK_8, lsb, popcount
from engine.bitboard import bishop_attacks, king_attacks, knight_attacks, rook_attacks
from engine.defs import (BB_ALL, BB_WHITE, BISHOP, BLACK, KING, KNIGHT, PAWN, PIECE_TYPES, QUEEN, ROOK,
                         ST_SIDE, WHITE)
from engine.kernel import kernel
from engine.piece import PIECE_VALUES, make_piece
from engine.position import current_key
from eval.nnue import REGION as NNUE_REGION
from eval.nnue import R_ON, output
from eval.params import (BACKWARD, BISHOP_PAIR, BISHOP_PAWNS, CONNECTED, DOUBLED, HANGING, ISOLATED,
                         KING_ATTACK_UNITS, KING_DANGER, KING_SHIELD, KING_STORM, KNIGHT_OUTPOST, MATERIAL,
                         MINOR_BEHIND_PAWN, MOBILITY_BISHOP, MOBILITY_KNIGHT, MOBILITY_QUEEN, MOBILITY_ROOK,
                         N_PARAMS, PASSED, PASSED_ENEMY_KING, PASSED_FREE, PASSED_OWN_KING, PHASE_MAX,
                         PHASE_WEIGHTS, PST, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE, ROOK_SEVENTH, SAFE_CHECK,
                         SPACE, TEMPO, THREAT_BY_KING, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
                         THREAT_PAWN_PUSH, PASSED_SAFE, ROOK_BEHIND_PASSER, BISHOP_OUTPOST,
                         BISHOP_LONG_DIAGONAL, MINOR_KING_DISTANCE, TRAPPED_ROOK)

# The evaluation's part of the search workspace (an int64 array): the weights, then the trace.
# Trace slots after the two colours' counts: the game phase, the endgame scale (of 64) and the
# untuned extra score (mop-up, white's point of view).
TRACE_PHASE = 2 * N_PARAMS
TRACE_SCALE = 2 * N_PARAMS + 1
TRACE_EXTRA = 2 * N_PARAMS + 2
TRACE_SIZE = 2 * N_PARAMS + 3
W_WEIGHTS = 0                      # (mg, eg) of parameter i at 2i, 2i + 1
W_TRACE = 2 * N_PARAMS
W_NOISE = W_TRACE + TRACE_SIZE         # a weak level's noise: amplitude (0 = none), then its seed
W_NNUE = W_NOISE + 2                   # the network and its accumulators (eval/nnue.py), when loaded
W_PAWN_CACHE = W_NNUE + NNUE_REGION    # entries: white pawns, black pawns, mg, eg, passers w, b
PAWN_CACHE_BITS = 11
PAWN_ENTRY = 6
EVAL_REGION = W_PAWN_CACHE + (PAWN_ENTRY << PAWN_CACHE_BITS)
PAWN_MIX_W = np.uint64(0x9E3779B97F4A7C15)   # multiplicative hashing of the two pawn boards
PAWN_MIX_B = np.uint64(0xC2B2AE3D27D4EB4F)
NOISE_MIX = np.uint64(0xD6E8FEB86659FD93)
SCALE_NORMAL = 64
MATERIAL_UNITS = PIECE_VALUES // PIECE_VALUES[PAWN]   # the endgame rules' material, in pawns
CENTRE_FILES = ((FILE_A << np.uint64(2)) | (FILE_A << np.uint64(3)) | (FILE_A << np.uint64(4))
                | (FILE_A << np.uint64(5)))                  # files c to f
WHITE_SPACE_RANKS = (RANK_1 << np.uint64(8)) | (RANK_1 << np.uint64(16)) | (RANK_1 << np.uint64(24))
BLACK_SPACE_RANKS = (RANK_8 >> np.uint64(8)) | (RANK_8 >> np.uint64(16)) | (RANK_8 >> np.uint64(24))
CENTRE_SQUARES = ((ONE << np.uint64(27)) | (ONE << np.uint64(28)) | (ONE << np.uint64(35))
                  | (ONE << np.uint64(36)))                  # d4, e4, d5, e5



@kernel
def _add(ws, trace, mg, eg, index, colour, count):
    """(mg, eg) plus `count` times parameter `index` for `colour` (negated for black)."""
    signed = count if colour == WHITE else -count
    if trace:
        ws[W_TRACE + colour * N_PARAMS + index] += count
    return mg + ws[W_WEIGHTS + 2 * index] * signed, eg + ws[W_WEIGHTS + 2 * index + 1] * signed


@kernel
def _forward(b, colour):
    """Squares one rank ahead of `b` from `colour`'s side."""
    return b << np.uint64(8) if colour == WHITE else b >> np.uint64(8)


@kernel
def _forward_fill(b, colour):
    """`b` and every square ahead of it (towards the opponent)."""
    if colour == WHITE:
        b |= b << np.uint64(8)
        b |= b << np.uint64(16)
        b |= b << np.uint64(32)
    else:
        b |= b >> np.uint64(8)
        b |= b >> np.uint64(16)
        b |= b >> np.uint64(32)
    return b


@kernel
def _file_fill(b):
    return _forward_fill(b, WHITE) | _forward_fill(b, BLACK)


@kernel
def _sideways(b):
    """Squares next to `b` on the same rank."""
    return ((b << ONE) & ~FILE_A) | ((b >> ONE) & ~FILE_H)


@kernel
def _distance(a, b):
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


@kernel
def _relative_rank(sq, colour):
    return (sq >> 3) if colour == WHITE else 7 - (sq >> 3)


@kernel
def _pawn_structure(ws, trace, bb, colour, own_pawn_attacks, enemy_pawn_attacks):
    """(mg, eg, passed pawns) of one colour's pawn structure: terms that depend on pawns only."""
    mg = eg = 0
    them = colour ^ 1
    pawns, enemy_pawns = bb[make_piece(colour, PAWN)], bb[make_piece(them, PAWN)]
    enemy_control = _forward_fill(_forward(enemy_pawns, them) | enemy_pawn_attacks, them)
    passed = pawns & ~enemy_control
    doubled = pawns & _forward_fill(_forward(pawns, colour), colour)   # an own pawn behind it
    isolated = pawns & ~_sideways(_file_fill(pawns))
    support_span = _forward_fill(own_pawn_attacks, colour)
    backward = pawns & ~isolated & _forward(enemy_pawn_attacks & ~support_span, them)
    connected = pawns & (own_pawn_attacks | _sideways(pawns))

    mg, eg = _add(ws, trace, mg, eg, DOUBLED, colour, popcount(doubled))
    mg, eg = _add(ws, trace, mg, eg, ISOLATED, colour, popcount(isolated))
    mg, eg = _add(ws, trace, mg, eg, BACKWARD, colour, popcount(backward))
    while connected:
        mg, eg = _add(ws, trace, mg, eg, CONNECTED + _relative_rank(lsb(connected), colour), colour, 1)
        connected &= connected - ONE
    b = passed
    while b:
        mg, eg = _add(ws, trace, mg, eg, PASSED + _relative_rank(lsb(b), colour), colour, 1)
        b &= b - ONE
    return mg, eg, passed


@kernel
def _pawn_entry(ws, trace, bb, white_pawn_attacks, black_pawn_attacks):
    """(mg, eg, white passers, black passers) of both pawn structures, from the pawn cache
    unless tracing (a pure function of the two pawn boards and the weights)."""
    white, black = bb[make_piece(WHITE, PAWN)], bb[make_piece(BLACK, PAWN)]
    slot = W_PAWN_CACHE + PAWN_ENTRY * np.int64(((white * PAWN_MIX_W) ^ (black * PAWN_MIX_B))
                                                 >> np.uint64(64 - PAWN_CACHE_BITS))
    if not trace and ws[slot] == np.int64(white) and ws[slot + 1] == np.int64(black):
        return ws[slot + 2], ws[slot + 3], np.uint64(ws[slot + 4]), np.uint64(ws[slot + 5])
    mg, eg, white_passed = _pawn_structure(ws, trace, bb, WHITE, white_pawn_attacks, black_pawn_attacks)
    mg2, eg2, black_passed = _pawn_structure(ws, trace, bb, BLACK, black_pawn_attacks, white_pawn_attacks)
    mg += mg2
    eg += eg2
    if not trace:
        ws[slot] = np.int64(white)
        ws[slot + 1] = np.int64(black)
        ws[slot + 2] = mg
        ws[slot + 3] = eg
        ws[slot + 4] = np.int64(white_passed)
        ws[slot + 5] = np.int64(black_passed)
    return mg, eg, white_passed, black_passed


@kernel
def _passed_pawns(ws, trace, tab, bb, colour, passed, enemy_attacks):
    """(mg, eg) of what passed pawns gain from king proximity, a free path, a stop square the
    opponent does not attack and a rook behind them."""
    mg = eg = 0
    them = colour ^ 1
    own_king, enemy_king = lsb(bb[make_piece(colour, KING)]), lsb(bb[make_piece(them, KING)])
    occ = bb[BB_ALL]
    rooks = bb[make_piece(colour, ROOK)]
    while passed:
        sq = lsb(passed)
        square = ONE << np.uint64(sq)
        rank = _relative_rank(sq, colour)
        stop = sq + 8 if colour == WHITE else sq - 8
        mg, eg = _add(ws, trace, mg, eg, PASSED_OWN_KING + rank, colour, _distance(own_king, stop))
        mg, eg = _add(ws, trace, mg, eg, PASSED_ENEMY_KING + rank, colour, _distance(enemy_king, stop))
        if not (_forward_fill(_forward(square, colour), colour) & occ):
            mg, eg = _add(ws, trace, mg, eg, PASSED_FREE + rank, colour, 1)
        if not (enemy_attacks & (ONE << np.uint64(stop))):
            mg, eg = _add(ws, trace, mg, eg, PASSED_SAFE + rank, colour, 1)
        behind = _forward_fill(_forward(square, them), them)
        if rook_attacks(tab, sq, occ) & behind & rooks:      # the first piece behind it is our rook
            mg, eg = _add(ws, trace, mg, eg, ROOK_BEHIND_PASSER, colour, 1)
        passed &= passed - ONE
    return mg, eg


@kernel
def _pieces(ws, trace, tab, bb, colour, own_pawn_attacks, enemy_pawn_attacks):
    """(mg, eg, attacked squares, then those of its knights, bishops, rooks and queens) of one
    colour's material, placement, mobility, files, outposts, threats and king safety."""
    mg = eg = 0
    them = colour ^ 1
    flip = 0 if colour == WHITE else 56
    occ = bb[BB_ALL]
    all_pawns = bb[make_piece(WHITE, PAWN)] | bb[make_piece(BLACK, PAWN)]
    own_pawns = bb[make_piece(colour, PAWN)]
    own_king = lsb(bb[make_piece(colour, KING)])
    enemy_king = lsb(bb[make_piece(them, KING)])
    king_zone = king_attacks(tab, enemy_king) | (ONE << np.uint64(enemy_king))
    mobility_area = ~(own_pawns | bb[make_piece(colour, KING)] | enemy_pawn_attacks)
    enemy_pawn_span = _forward_fill(enemy_pawn_attacks, them)
    minor_attacks = own_pawn_attacks & ~own_pawn_attacks
    rook_attacks_all = minor_attacks
    knight_attacks_all = minor_attacks
    bishop_attacks_all = minor_attacks
    queen_attacks_all = minor_attacks
    all_attacks = own_pawn_attacks | king_attacks(tab, own_king)
    attack_units = 0
    attackers = 0

    for piece in range(PIECE_TYPES):
        b = bb[make_piece(colour, piece)]
        mg, eg = _add(ws, trace, mg, eg, MATERIAL + piece, colour, popcount(b))
        while b:
            sq = lsb(b)
            b &= b - ONE
            mg, eg = _add(ws, trace, mg, eg, PST + piece * 64 + (sq ^ flip), colour, 1)
            if piece == PAWN or piece == KING:
                continue
            square = ONE << np.uint64(sq)
            if piece == KNIGHT or piece == BISHOP:
                # What both minor pieces are scored for: a pawn in front, an outpost, their king.
                if _forward(square, colour) & all_pawns:
                    mg, eg = _add(ws, trace, mg, eg, MINOR_BEHIND_PAWN, colour, 1)
                if 3 <= _relative_rank(sq, colour) <= 5 and (own_pawn_attacks & square) \
                        and not (enemy_pawn_span & square):
                    mg, eg = _add(ws, trace, mg, eg, KNIGHT_OUTPOST if piece == KNIGHT else BISHOP_OUTPOST,
                                  colour, 1)
                mg, eg = _add(ws, trace, mg, eg, MINOR_KING_DISTANCE, colour, _distance(sq, own_king))
            if piece == KNIGHT:
                att = knight_attacks(tab, sq)
                mg, eg = _add(ws, trace, mg, eg, MOBILITY_KNIGHT + popcount(att & mobility_area), colour, 1)
                minor_attacks |= att
                knight_attacks_all |= att
            elif piece == BISHOP:
                att = bishop_attacks(tab, sq, occ)
                mg, eg = _add(ws, trace, mg, eg, MOBILITY_BISHOP + popcount(att & mobility_area), colour, 1)
                minor_attacks |= att
                bishop_attacks_all |= att
                same_colour = LIGHT_SQUARES if square & LIGHT_SQUARES else DARK_SQUARES
                mg, eg = _add(ws, trace, mg, eg, BISHOP_PAWNS, colour, popcount(own_pawns & same_colour))
                if popcount(bishop_attacks(tab, sq, all_pawns) & CENTRE_SQUARES) >= 2:
                    mg, eg = _add(ws, trace, mg, eg, BISHOP_LONG_DIAGONAL, colour, 1)
            elif piece == ROOK:
                att = rook_attacks(tab, sq, occ)
                mobility = popcount(att & mobility_area)
                mg, eg = _add(ws, trace, mg, eg, MOBILITY_ROOK + mobility, colour, 1)
                king_file, rook_file = own_king & 7, sq & 7
                if mobility <= 3 and _relative_rank(own_king, colour) == 0 \
                        and _relative_rank(sq, colour) == 0 and (king_file < 4) == (rook_file < king_file):
                    mg, eg = _add(ws, trace, mg, eg, TRAPPED_ROOK, colour, 1)
                rook_attacks_all |= att
                file_mask = FILE_A << np.uint64(sq & 7)
                if not (file_mask & all_pawns):
                    mg, eg = _add(ws, trace, mg, eg, ROOK_OPEN_FILE, colour, 1)
                elif not (file_mask & own_pawns):
                    mg, eg = _add(ws, trace, mg, eg, ROOK_SEMI_OPEN_FILE, colour, 1)
                seventh = RANK_1 << np.uint64(sq & 56)        # the rook's rank
                if _relative_rank(sq, colour) == 6 and (_relative_rank(enemy_king, colour) == 7
                                                        or bb[make_piece(them, PAWN)] & seventh):
                    mg, eg = _add(ws, trace, mg, eg, ROOK_SEVENTH, colour, 1)
            else:
                att = bishop_attacks(tab, sq, occ) | rook_attacks(tab, sq, occ)
                mg, eg = _add(ws, trace, mg, eg, MOBILITY_QUEEN + popcount(att & mobility_area), colour, 1)
                queen_attacks_all |= att
            all_attacks |= att
            zone_hits = popcount(att & king_zone)
            if zone_hits:
                attackers += 1
                attack_units += zone_hits * KING_ATTACK_UNITS[piece]

    if popcount(bb[make_piece(colour, BISHOP)]) >= 2:
        mg, eg = _add(ws, trace, mg, eg, BISHOP_PAIR, colour, 1)

    # Threats against the opponent's pieces.
    enemy_pieces = bb[BB_WHITE + them] & ~bb[make_piece(them, PAWN)] & ~bb[make_piece(them, KING)]
    mg, eg = _add(ws, trace, mg, eg, THREAT_BY_PAWN, colour, popcount(own_pawn_attacks & enemy_pieces))
    for victim in range(PAWN, KING):
        targets = bb[make_piece(them, victim)]
        hits = popcount(minor_attacks & targets)
        if hits:
            mg, eg = _add(ws, trace, mg, eg, THREAT_BY_MINOR + victim, colour, hits)
        hits = popcount(rook_attacks_all & targets)
        if hits:
            mg, eg = _add(ws, trace, mg, eg, THREAT_BY_ROOK + victim, colour, hits)

    # Danger to the opponent's king: a penalty scored for the opponent.
    if attackers >= 2 or (attackers == 1 and bb[make_piece(colour, QUEEN)]):
        mg, eg = _add(ws, trace, mg, eg, KING_DANGER + min(attack_units, 31), them, 1)

    # Our king's pawn shield: pawns one and two ranks ahead, open files next to it.
    shield_files = _sideways(ONE << np.uint64(own_king)) | (ONE << np.uint64(own_king))
    one_ahead = _forward(shield_files, colour)
    two_ahead = _forward(one_ahead, colour)
    back_rank = RANK_1 if colour == WHITE else RANK_8
    open_files = _file_fill(shield_files) & ~_file_fill(own_pawns) & back_rank
    mg, eg = _add(ws, trace, mg, eg, KING_SHIELD, colour, popcount(one_ahead & own_pawns))
    mg, eg = _add(ws, trace, mg, eg, KING_SHIELD + 1, colour, popcount(two_ahead & own_pawns))
    mg, eg = _add(ws, trace, mg, eg, KING_SHIELD + 2, colour, popcount(open_files))
    storm = _file_fill(shield_files) & bb[make_piece(them, PAWN)]
    while storm:
        mg, eg = _add(ws, trace, mg, eg, KING_STORM + _relative_rank(lsb(storm), colour), colour, 1)
        storm &= storm - ONE
    return mg, eg, all_attacks, knight_attacks_all, bishop_attacks_all, rook_attacks_all, queen_attacks_all


@kernel
def _pressure(ws, trace, tab, bb, colour, knights, bishops, rooks, queens, own_attacks, enemy_attacks,
              enemy_pawn_attacks):
    """(mg, eg) of one colour's safe checks, king and pawn-push threats and space: terms that
    need both sides' attacks."""
    mg = eg = 0
    them = colour ^ 1
    occ = bb[BB_ALL]
    own_pawns = bb[make_piece(colour, PAWN)]
    enemy_king = lsb(bb[make_piece(them, KING)])
    safe = ~bb[BB_WHITE + colour] & ~enemy_attacks
    diagonal_checks = bishop_attacks(tab, enemy_king, occ) & safe
    straight_checks = rook_attacks(tab, enemy_king, occ) & safe
    knight_checks = knight_attacks(tab, enemy_king) & safe
    mg, eg = _add(ws, trace, mg, eg, SAFE_CHECK, colour, popcount(knight_checks & knights))
    mg, eg = _add(ws, trace, mg, eg, SAFE_CHECK + 1, colour, popcount(diagonal_checks & bishops))
    mg, eg = _add(ws, trace, mg, eg, SAFE_CHECK + 2, colour, popcount(straight_checks & rooks))
    mg, eg = _add(ws, trace, mg, eg, SAFE_CHECK + 3, colour,
                  popcount((diagonal_checks | straight_checks) & queens))

    enemy = bb[BB_WHITE + them] & ~bb[make_piece(them, KING)]
    near_king = king_attacks(tab, lsb(bb[make_piece(colour, KING)]))
    mg, eg = _add(ws, trace, mg, eg, THREAT_BY_KING, colour, popcount(near_king & enemy & ~enemy_attacks))

    third_rank = RANK_1 << np.uint64(16) if colour == WHITE else RANK_8 >> np.uint64(16)
    pushes = _forward(own_pawns, colour) & ~occ
    pushes |= _forward(pushes & third_rank, colour) & ~occ
    pushes &= ~enemy_pawn_attacks & (own_attacks | ~enemy_attacks)
    targets = enemy & ~bb[make_piece(them, PAWN)]
    mg, eg = _add(ws, trace, mg, eg, THREAT_PAWN_PUSH, colour,
                  popcount(_sideways(_forward(pushes, colour)) & targets))

    ranks = WHITE_SPACE_RANKS if colour == WHITE else BLACK_SPACE_RANKS
    mg, eg = _add(ws, trace, mg, eg, SPACE, colour,
                  popcount(CENTRE_FILES & ranks & ~own_pawns & ~enemy_pawn_attacks))
    return mg, eg


@kernel
def _non_pawn_units(bb, colour):
    """Colour's knights, bishops, rooks and queens in pawn units (MATERIAL_UNITS: 3, 3, 5, 9)."""
    units = 0
    for kind in range(KNIGHT, KING):
        units += MATERIAL_UNITS[kind] * popcount(bb[make_piece(colour, kind)])
    return units


@kernel
def _wrong_bishop(bb, strong, strong_units):
    """Does the stronger side have only a bishop and pawns on one rook file, whose queening square
    the bishop does not cover and the defending king stands next to? A draw however many pawns."""
    bishop = bb[make_piece(strong, BISHOP)]
    pawns = bb[make_piece(strong, PAWN)]
    if strong_units != 3 or not bishop or not pawns:
        return False
    if pawns & ~FILE_A == 0:
        corner = 56 if strong == WHITE else 0
    elif pawns & ~FILE_H == 0:
        corner = 63 if strong == WHITE else 7
    else:
        return False
    corner_light = (ONE << np.uint64(corner)) & LIGHT_SQUARES != 0
    if ((bishop & LIGHT_SQUARES) != 0) == corner_light:
        return False
    king = lsb(bb[make_piece(strong ^ 1, KING)])
    return max(abs((king & 7) - (corner & 7)), abs((king >> 3) - (corner >> 3))) <= 1


@kernel
def _endgame_scale(bb, eg):
    """How much of the endgame score the stronger side can realise (of SCALE_NORMAL)."""
    strong = WHITE if eg > 0 else BLACK
    weak = strong ^ 1
    strong_pawns = bb[make_piece(strong, PAWN)]
    if strong_pawns and popcount(bb[BB_WHITE + strong] & ~strong_pawns) != 2:
        return SCALE_NORMAL     # with pawns, every rule below needs a lone minor piece (and the king)
    strong_units = _non_pawn_units(bb, strong)
    weak_units = _non_pawn_units(bb, weak)
    if not strong_pawns:
        if strong_units - weak_units <= 3:
            return 8        # a minor piece up or less without pawns: hardly ever a win
        if strong_units == 6 and popcount(bb[make_piece(strong, KNIGHT)]) == 2 and weak_units == 0:
            return 4        # two knights cannot force mate
    if _wrong_bishop(bb, strong, strong_units):
        return 0            # rook pawns and a bishop that does not cover the corner the king holds
    white_bishops, black_bishops = bb[make_piece(WHITE, BISHOP)], bb[make_piece(BLACK, BISHOP)]
    bishops = white_bishops | black_bishops
    if (strong_units == 3 and weak_units == 3 and popcount(white_bishops) == 1
            and popcount(black_bishops) == 1 and (bishops & LIGHT_SQUARES) and (bishops & DARK_SQUARES)):
        return 32           # opposite-coloured bishops
    return SCALE_NORMAL


@kernel
def _divide(a, b):
    """a / b rounded towards zero, so that a position and its colour mirror score alike."""
    return a // b if a >= 0 else -((-a) // b)


@kernel
def _centre_distance(sq):
    f, r = sq & 7, sq >> 3
    return (3 - f if f < 4 else f - 4) + (3 - r if r < 4 else r - 4)


@kernel
def _mop_up(bb, eg):
    """Bonus (white's view) for driving a bare king to the edge, to the right corner with B+N."""
    strong = WHITE if eg > 0 else BLACK
    weak = strong ^ 1
    if bb[BB_WHITE + weak] != bb[make_piece(weak, KING)]:
        return 0
    bishops = popcount(bb[make_piece(strong, BISHOP)])
    knights = popcount(bb[make_piece(strong, KNIGHT)])
    if not (bb[make_piece(strong, ROOK)] | bb[make_piece(strong, QUEEN)]) and not (bishops and knights) \
            and bishops < 2:
        return 0                            # no material that can force mate
    units = _non_pawn_units(bb, strong)
    weak_king = lsb(bb[make_piece(weak, KING)])
    strong_king = lsb(bb[make_piece(strong, KING)])
    kings_apart = abs((weak_king & 7) - (strong_king & 7)) + abs((weak_king >> 3) - (strong_king >> 3))
    bonus = 20 * _centre_distance(weak_king) + 5 * (14 - kings_apart)
    if units == 6 and bishops == 1 and knights == 1:
        corners = (0, 63) if bb[make_piece(strong, BISHOP)] & DARK_SQUARES else (7, 56)
        nearest = min(_distance(weak_king, corners[0]), _distance(weak_king, corners[1]))
        bonus += 30 * (7 - nearest)
    return bonus if strong == WHITE else -bonus


@kernel
def _noise(key, amplitude, seed):
    """A misjudgement in [-amplitude, amplitude] (triangular, most of them small) that is a
    fixed function of the position and the game's seed, so that the search stays consistent."""
    h = (key ^ np.uint64(seed)) * NOISE_MIX
    h ^= h >> np.uint64(29)
    h *= NOISE_MIX
    span = np.uint64(amplitude + 1)
    first = (h >> np.uint64(40)) % span
    second = ((h >> np.uint64(8)) & np.uint64(0xFFFFFFFF)) % span
    return np.int64(first) + np.int64(second) - amplitude


@kernel
def _bare_king(bb):
    """Has either side nothing left but its king?"""
    return bb[BB_WHITE + WHITE] == bb[make_piece(WHITE, KING)] or bb[BB_WHITE + BLACK] == bb[make_piece(BLACK, KING)]


@kernel
def _realisable(bb, st, score):
    """The network's score (side to move) cut to what the stronger side can realise in the
    endings the endgame scale knows to be drawish: the network learnt from games adjudicated long
    before such endings were played out, and claimed +0.4 to +6 in drawn ones."""
    white = score if st[ST_SIDE] == WHITE else -score
    return _divide(score * _endgame_scale(bb, white), SCALE_NORMAL)


@kernel
def evaluate(tab, pos, ws, trace):
    """Score in centipawns for the side to move, with weights from the workspace `ws`: the
    network's when one is loaded, cut by the endgame scale (not when tracing, nor against a bare
    king: the network learnt from games that were adjudicated before such endings, and the
    hand-crafted mop-up mates), else the hand-crafted terms'. When `trace` is true, the term
    counts are added to the (zeroed) trace region of `ws`."""
    bb, st = pos
    if ws[W_NNUE + R_ON] and not trace and not _bare_king(bb):
        score = _realisable(bb, st, output(pos, ws[W_NNUE:W_PAWN_CACHE]))
        if ws[W_NOISE] != 0:
            score += _noise(current_key(pos), ws[W_NOISE], ws[W_NOISE + 1])
        return score
    phase = 0
    for piece in range(KNIGHT, KING):
        phase += PHASE_WEIGHTS[piece] * popcount(bb[make_piece(WHITE, piece)] | bb[make_piece(BLACK, piece)])
    phase = min(phase, PHASE_MAX)

    white_pawn_attacks = _sideways(_forward(bb[make_piece(WHITE, PAWN)], WHITE))
    black_pawn_attacks = _sideways(_forward(bb[make_piece(BLACK, PAWN)], BLACK))
    mg, eg, white_attacks, wn, wb, wr, wq = _pieces(ws, trace, tab, bb, WHITE, white_pawn_attacks,
                                                    black_pawn_attacks)
    mg2, eg2, black_attacks, bn, bbi, br, bq = _pieces(ws, trace, tab, bb, BLACK, black_pawn_attacks,
                                                       white_pawn_attacks)
    mg += mg2
    eg += eg2
    mg2, eg2 = _pressure(ws, trace, tab, bb, WHITE, wn, wb, wr, wq, white_attacks, black_attacks,
                         black_pawn_attacks)
    mg += mg2
    eg += eg2
    mg2, eg2 = _pressure(ws, trace, tab, bb, BLACK, bn, bbi, br, bq, black_attacks, white_attacks,
                         white_pawn_attacks)
    mg += mg2
    eg += eg2
    mg2, eg2, white_passed, black_passed = _pawn_entry(ws, trace, bb, white_pawn_attacks, black_pawn_attacks)
    mg += mg2
    eg += eg2
    mg2, eg2 = _passed_pawns(ws, trace, tab, bb, WHITE, white_passed, black_attacks)
    mg += mg2
    eg += eg2
    mg2, eg2 = _passed_pawns(ws, trace, tab, bb, BLACK, black_passed, white_attacks)
    mg += mg2
    eg += eg2

    # Hanging pieces: attacked and not defended.
    black_pieces = bb[BB_WHITE + BLACK] & ~bb[make_piece(BLACK, PAWN)] & ~bb[make_piece(BLACK, KING)]
    white_pieces = bb[BB_WHITE + WHITE] & ~bb[make_piece(WHITE, PAWN)] & ~bb[make_piece(WHITE, KING)]
    mg, eg = _add(ws, trace, mg, eg, HANGING, WHITE, popcount(black_pieces & white_attacks & ~black_attacks))
    mg, eg = _add(ws, trace, mg, eg, HANGING, BLACK, popcount(white_pieces & black_attacks & ~white_attacks))

    side = st[ST_SIDE]
    mg, eg = _add(ws, trace, mg, eg, TEMPO, side, 1)

    scale = _endgame_scale(bb, eg)
    extra = _mop_up(bb, eg)
    score = _divide(mg * phase + _divide(eg * scale, SCALE_NORMAL) * (PHASE_MAX - phase), PHASE_MAX) + extra
    if trace:
        ws[W_TRACE + TRACE_PHASE] = phase
        ws[W_TRACE + TRACE_SCALE] = scale
        ws[W_TRACE + TRACE_EXTRA] = extra
    elif ws[W_NOISE] != 0:
        score += _noise(current_key(pos), ws[W_NOISE], ws[W_NOISE + 1])
    return score if side == WHITE else -score
