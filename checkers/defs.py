"""Constants of American checkers shared by every checkers module: colours, squares and the
board masks, directions, the move's bit layout and the layout of the position and table arrays.

Squares. The 32 dark squares are numbered 1-32 as in every checkers book and PDN file, Black's
back row 1-4 at the top of the diagram, White's 29-32 at the bottom, each row left to right as
White looks at the board (docs/checkers.md has the diagram). Inside the kernels a square is its
index 0-31 (the number minus one) and a board is an int64 whose bit i is square i + 1: 32 bits
sit in an int64 without a sign bit, and keeping every kernel value int64 avoids numba's uint64
rules (uint64 mixed with int64 is float64). Row r (0 = squares 1-4) holds indices 4r..4r+3;
the even rows (1-4, 9-12, ...) sit on the b, d, f, h files, the odd rows on a, c, e, g.

Colours. BLACK (0) moves first and starts on 1-12, moving down the diagram; WHITE (1) starts on
21-32 and moves up. (The site calls the sides red and white; the books and PDN say black.)

Plain Python numbers, so that the Python edge and the tests read them without numba.
"""

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("black", "white")
SQUARES = 32
FULL = 0xFFFFFFFF                # every square

# Board masks (bit i = square i + 1).
EVEN_ROWS = 0x0F0F0F0F          # rows 1-4, 9-12, 17-20, 25-28 (b, d, f, h files)
ODD_ROWS = 0xF0F0F0F0           # rows 5-8, 13-16, 21-24, 29-32 (a, c, e, g files)
FIRST_IN_ROW = 0x11111111       # 1, 5, 9, ... 29: the leftmost square of each row
LAST_IN_ROW = 0x88888888        # 4, 8, 12, ... 32: the rightmost
EVEN_NOT_LAST = EVEN_ROWS & ~LAST_IN_ROW & FULL    # even rows but h: a neighbour to the right (+5, -3)
ODD_NOT_FIRST = ODD_ROWS & ~FIRST_IN_ROW & FULL    # odd rows but a: a neighbour to the left (+3, -5)
BLACK_CROWN = 0xF0000000        # 29-32: where a black man is crowned
WHITE_CROWN = 0x0000000F        # 1-4: where a white man is crowned
BLACK_START = 0x00000FFF        # 1-12
WHITE_START = 0xFFF00000        # 21-32

# Directions, as the diagram shows them (up = towards square 1). The opposite of d is 3 - d.
# A black man moves DOWN_LEFT/DOWN_RIGHT (2, 3), a white man UP_LEFT/UP_RIGHT (0, 1): the
# directions of colour c's men are range(MEN_FIRST_DIR[c], MEN_FIRST_DIR[c] + 2).
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = 0, 1, 2, 3
DIRECTIONS = 4
MEN_FIRST_DIR = (DOWN_LEFT, UP_LEFT)      # by colour

# ---- moves: one int64 -----------------------------------------------------------------------
# bits 0-4 the from-square index, 5-9 the to-square index, 10-13 the number of jumps (0 for a
# step), 14 set when a man is crowned by the move, 16-39 the direction of each jump (2 bits
# each, first jump lowest; a step keeps its direction in bits 16-17). The directions are the
# path: two jump sequences with the same squares in another order (a king's loop run either
# way round) are two moves, as in the notation. Zero is no move (a step has from != to, a jump
# at least one jump).
MOVE_TO_SHIFT = 5
MOVE_JUMPS_SHIFT = 10
MOVE_CROWN = 1 << 14
MOVE_PATH_SHIFT = 16
MAX_JUMPS = 12                   # each jump takes one of at most 12 pieces
NO_MOVE = 0

# ---- sizes ------------------------------------------------------------------------------------
MAX_MOVES = 256                  # one move list (the most: 48 steps; 34 jump paths found, docs/checkers.md)
MAX_PLY = 128                    # deepest line a search or perft may play on top of the game
MAX_GAME_PLIES = 1024            # game plies kept for repetition (checkers.board.Board re-roots beyond)
HISTORY_SIZE = MAX_GAME_PLIES + MAX_PLY + 8
FORTY_MOVE_PLIES = 80            # the 40-move rule: 40 moves each of kings only, nothing taken

# ---- the position: one int64 array `pos` ------------------------------------------------------
POS_PIECES = 0                   # 2 boards: pos[POS_PIECES + colour] = that colour's men and kings
POS_KINGS = 2                    # the kings of both colours
POS_SIDE = 3                     # the colour to move
POS_PLY = 4                      # index of the current position in the history (0 = the root)
POS_QUIET = 5                    # plies since a man moved or a piece was taken (the 40-move rule)
POS_HISTORY = 8                  # HISTORY_SIZE zobrist keys: pos[POS_HISTORY + ply], position `ply`'s
POS_UNDO = POS_HISTORY + HISTORY_SIZE   # HISTORY_SIZE records of UNDO_SIZE: the move that left position `ply`
UNDO_CAPTURED = 0                # the squares it took
UNDO_CAPTURED_KINGS = 1          # which of them were kings
UNDO_QUIET = 2                   # POS_QUIET before it
UNDO_SIZE = 3
POS_SIZE = POS_UNDO + HISTORY_SIZE * UNDO_SIZE

# ---- the tables: one int64 array `tab` (checkers.tables.build_tables) -------------------------
TAB_NEIGHBOUR = 0                # 32 x 4: tab[TAB_NEIGHBOUR + 4 * sq + d], the next square that way, or -1
TAB_LANDING = 128                # 32 x 4: the square two steps away (where a jump lands), or -1
TAB_ZOBRIST = 256                # 4 x 32: tab[TAB_ZOBRIST + 32 * (2 * colour + king) + sq]
TAB_ZOBRIST_SIDE = 384           # xored into the key when White is to move
TAB_SIZE = 385
