"""Legal move generation: every step, or, when any piece can jump, every complete jump path.

Jumping is compulsory and a multi-jump must be finished, but among the jumps the player chooses
freely (no rule of the most pieces), so the moves are: when a jump exists, every maximal jump
path of every piece that can jump; otherwise every step. A path is maximal when its piece can
jump no further, or when a man has just reached the far row (it is crowned and the move ends
there). Captured pieces stay on the board until the move ends: they block a landing square and
cannot be jumped twice. The jumping piece's own square is empty from its first jump on, so a
king may come back to it (a loop).

How: whole-board shifts (`step`) find the pieces that can move or jump and count steps with a
popcount; each jumping piece's tree of paths is walked depth first without recursion or an
array: the path's directions are the move's own bits, the next direction to try at each level
sits in 3 bits of one int64, and a jump is undone by jumping back.

API (all kernels; `tab` from checkers.tables, `pos` a position array, checkers.position):
  generate(tab, pos, moves, start) -> end   write the legal moves into moves[start:end]
  count_moves(tab, pos, moves, start) -> n  how many there are (perft's bulk count; jumps use moves[start:])
  count_moves_of(tab, us, mine, opp, kings, moves, start)   the same from boards, without `pos`
  jumpers(pos) -> board                     the side to move's pieces that can jump (0: no capture)
  jumpers_of(us, mine, opp, kings) -> board the same from boards
  step(board, d) -> board                   every square of `board` moved one step in direction d
"""

from checkers.bits import lsb, popcount
from checkers.defs import (BLACK_CROWN, DOWN_LEFT, EVEN_NOT_LAST, EVEN_ROWS, FULL, MAX_JUMPS, MEN_FIRST_DIR,
                           ODD_NOT_FIRST, ODD_ROWS, POS_KINGS, POS_PIECES, POS_SIDE, TAB_LANDING,
                           TAB_NEIGHBOUR, UP_LEFT, UP_RIGHT, WHITE, WHITE_CROWN)
from checkers.kernel import inlined_kernel, kernel
from checkers.move import encode


@inlined_kernel
def step(b, d):
    """The squares of board `b` moved one step in direction d (off-board steps vanish). A step
    is +-4 on one row parity and +-3 or +-5 on the other (defs: the even rows sit on b-h, the
    odd rows on a-g); the masks drop the squares at the edge that step has no room for."""
    if d == UP_LEFT:
        return ((b & EVEN_ROWS) >> 4) | ((b & ODD_NOT_FIRST) >> 5)
    if d == UP_RIGHT:
        return ((b & EVEN_NOT_LAST) >> 3) | ((b & ODD_ROWS) >> 4)
    if d == DOWN_LEFT:
        return (((b & EVEN_ROWS) << 4) | ((b & ODD_NOT_FIRST) << 3)) & FULL
    return (((b & EVEN_NOT_LAST) << 5) | ((b & ODD_ROWS) << 4)) & FULL


@inlined_kernel
def _movers(men, kings, d, first):
    """The pieces that may go in direction d: kings always, men in their two forward ones."""
    if first <= d < first + 2:
        return men | kings
    return kings


@inlined_kernel
def jumpers_of(us, mine, opp, all_kings):
    """The pieces of colour `us` (board `mine`) that have a jump over `opp`."""
    kings = mine & all_kings
    men = mine ^ kings
    empty = ~(mine | opp) & FULL
    first = MEN_FIRST_DIR[us]
    found = 0
    for d in range(4):
        back = 3 - d
        found |= _movers(men, kings, d, first) & step(step(empty, back) & opp, back)
    return found


@inlined_kernel
def jumpers(pos):
    """The side to move's pieces that have a jump (nonzero: jumping is compulsory)."""
    us = pos[POS_SIDE]
    return jumpers_of(us, pos[POS_PIECES + us], pos[POS_PIECES + 1 - us], pos[POS_KINGS])


@kernel
def _jump_paths(tab, frm, opp, empty, first, last, crown_row, moves, n):
    """Write every maximal jump path of the piece on `frm` from moves[n] on; return the new end.
    The piece jumps in directions first..last-1 (a man's two forward ones, with its crowning
    row; a king's four, with crown_row 0); `empty` holds the piece's own square, `opp` the
    pieces it may jump."""
    sq = frm
    k = 0              # jumps made so far
    path = 0           # their directions, 2 bits each
    taken = 0          # the pieces jumped so far
    tries = 0          # 3 bits per level: the next direction to try there
    extended = 0       # bit k: the path of k jumps went on
    d = first
    while True:
        if d < last:
            dd = d
            d += 1
            victim = tab[TAB_NEIGHBOUR + 4 * sq + dd]
            land = tab[TAB_LANDING + 4 * sq + dd]
            if land < 0 or not (opp >> victim) & 1 or (taken >> victim) & 1 or not (empty >> land) & 1:
                continue
            extended |= 1 << k
            new_path = path | (dd << (2 * k))
            # A man crowned ends the move; so does a 12th jump (no side has a 13th piece to jump).
            crowned = (crown_row >> land) & 1
            if crowned or k + 1 == MAX_JUMPS:
                moves[n] = encode(frm, land, k + 1, crowned, new_path)
                n += 1
                continue
            tries = (tries & ~(7 << (3 * k))) | (d << (3 * k))
            taken |= 1 << victim
            path = new_path
            sq = land
            k += 1
            extended &= ~(1 << k)
            d = first
        else:
            if k == 0:
                return n
            if not (extended >> k) & 1:                    # nowhere further: a complete move
                moves[n] = encode(frm, sq, k, False, path)
                n += 1
            k -= 1                                         # undo the last jump: jump back
            dd = (path >> (2 * k)) & 3
            back = tab[TAB_LANDING + 4 * sq + 3 - dd]
            taken &= ~(1 << tab[TAB_NEIGHBOUR + 4 * back + dd])
            path &= ~(3 << (2 * k))
            sq = back
            d = (tries >> (3 * k)) & 7


@inlined_kernel
def _jumps(tab, us, mine, opp, all_kings, can_jump, moves, n):
    """Write every jump path of every piece in `can_jump` (jumpers of colour `us`)."""
    empty = ~(mine | opp) & FULL
    men_first = MEN_FIRST_DIR[us]
    men_crown = WHITE_CROWN if us == WHITE else BLACK_CROWN
    while can_jump:
        frm = lsb(can_jump)
        can_jump &= can_jump - 1
        first, last, crown_row = men_first, men_first + 2, men_crown
        if (all_kings >> frm) & 1:
            first, last, crown_row = 0, 4, 0
        n = _jump_paths(tab, frm, opp, empty | (1 << frm), first, last, crown_row, moves, n)
    return n


@kernel
def generate(tab, pos, moves, start):
    """Write the legal moves of the side to move into moves[start:]; return the end index.
    An end equal to `start` means the side to move has lost (no legal move)."""
    us = pos[POS_SIDE]
    mine = pos[POS_PIECES + us]
    opp = pos[POS_PIECES + 1 - us]
    can_jump = jumpers_of(us, mine, opp, pos[POS_KINGS])
    if can_jump:
        return _jumps(tab, us, mine, opp, pos[POS_KINGS], can_jump, moves, start)
    kings = mine & pos[POS_KINGS]
    men = mine ^ kings
    empty = ~(mine | opp) & FULL
    first = MEN_FIRST_DIR[us]
    crown_row = WHITE_CROWN if us == WHITE else BLACK_CROWN
    n = start
    for d in range(4):
        movers = _movers(men, kings, d, first)
        targets = step(movers, d) & empty
        crowned = step(movers & men, d) & crown_row
        while targets:
            to = lsb(targets)
            targets &= targets - 1
            frm = tab[TAB_NEIGHBOUR + 4 * to + 3 - d]
            moves[n] = encode(frm, to, 0, (crowned >> to) & 1, d)
            n += 1
    return n


@inlined_kernel
def count_moves_of(tab, us, mine, opp, all_kings, moves, start):
    """The number of legal moves of colour `us` with the pieces `mine` against `opp` (kings of
    both in `all_kings`), without a position array: steps are counted with a popcount, jumps
    are written into moves[start:] as scratch and counted."""
    can_jump = jumpers_of(us, mine, opp, all_kings)
    if can_jump:
        return _jumps(tab, us, mine, opp, all_kings, can_jump, moves, start) - start
    kings = mine & all_kings
    men = mine ^ kings
    empty = ~(mine | opp) & FULL
    first = MEN_FIRST_DIR[us]
    n = 0
    for d in range(4):
        n += popcount(step(_movers(men, kings, d, first), d) & empty)
    return n


@inlined_kernel
def count_moves(tab, pos, moves, start):
    """The number of legal moves of the side to move (perft's bulk count; jumps use moves[start:])."""
    us = pos[POS_SIDE]
    mine, opp = pos[POS_PIECES + us], pos[POS_PIECES + 1 - us]
    return count_moves_of(tab, us, mine, opp, pos[POS_KINGS], moves, start)
