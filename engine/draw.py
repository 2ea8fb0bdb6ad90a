"""Draw primitives for the search and the game: repetition, fifty-move counter, dead material."""


from engine.bits import DARK_SQUARES, LIGHT_SQUARES, popcount
from engine.defs import BB_ALL, BB_KEYS, BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, ST_HALFMOVE, ST_PLY, WHITE
from engine.kernel import kernel
from engine.piece import make_piece



@kernel
def repetitions(pos, since, limit):
    """How many earlier positions since the last irreversible move equal the current one,
    counting at most `limit`. One at a history index after `since` counts as two: for the search
    a repetition inside its own line is already a draw."""
    bb, st = pos
    ply = st[ST_PLY]
    key = bb[BB_KEYS + ply]
    oldest = max(0, ply - st[ST_HALFMOVE])
    count = 0
    for i in range(ply - 4, oldest - 1, -2):
        if bb[BB_KEYS + i] == key:
            count += 2 if i > since else 1
            if count >= limit:
                break
    return count


@kernel
def fifty_move_counter_expired(pos):
    """True once 100 plies passed without capture or pawn move (a draw unless this is mate)."""
    return pos[1][ST_HALFMOVE] >= 100


@kernel
def insufficient_material(pos):
    """Neither side can ever mate: K v K, K+N v K, or only bishops, all on one square colour."""
    bb = pos[0]
    if (bb[make_piece(WHITE, PAWN)] | bb[make_piece(BLACK, PAWN)] | bb[make_piece(WHITE, ROOK)]
            | bb[make_piece(BLACK, ROOK)] | bb[make_piece(WHITE, QUEEN)] | bb[make_piece(BLACK, QUEEN)]):
        return False
    if bb[make_piece(WHITE, KNIGHT)] | bb[make_piece(BLACK, KNIGHT)]:
        return popcount(bb[BB_ALL]) <= 3
    bishops = bb[make_piece(WHITE, BISHOP)] | bb[make_piece(BLACK, BISHOP)]
    return not (bishops & LIGHT_SQUARES) or not (bishops & DARK_SQUARES)
