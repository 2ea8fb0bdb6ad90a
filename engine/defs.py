"""Domain constants shared by every layer: colours, pieces, squares and the position array layout.

Scores (values) are centipawns from the side to move's view; the search's special values live here
too, so that every layer reads them from one place. Squares are numbered a1=0, b1=1, ..., h8=63 (as in
python-chess). A piece code stands for a colour's piece type (engine.piece builds and reads them);
`NO_PIECE` marks an empty mailbox square.
"""

WHITE, BLACK = 0, 1

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 0, 1, 2, 3, 4, 5
PIECE_TYPES = 6        # PAWN..KING: the piece codes of one colour
PIECES = 2 * PIECE_TYPES   # the piece codes (white's, then black's): the rows of a table by piece
NO_PIECE = PIECES      # after them: an empty square
PIECE_SYMBOLS = "PNBRQKpnbrqk"
# Centipawns by piece type (PAWN..KING, then "no piece", engine.piece.NO_TYPE): the one material
# scale of exchanges (SEE), game phase and greedy play. The king's value only has to exceed
# everything it could be traded for. Plain numbers here, so that tools read them without numba.
PIECE_VALUES = (100, 300, 300, 500, 900, 20000, 0)

# ---- values --------------------------------------------------------------------------------------
MATE = 32000           # mate in 0 plies; a mate found `n` plies from the root scores MATE - n
MATE_IN_MAX = MATE - 256   # scores beyond this are mates (the search never goes 256 plies deep)
TB_WIN = 20000         # a tablebase win, minus the ply it was found at: below every mate score
INFINITE = MATE + 1    # beyond every score: the widest search window
DRAW = 0
NO_EVAL = -INFINITE    # "no static evaluation" (the side to move is in check)

MAX_PLY = 128          # deepest search line
MAX_MOVES = 336        # above any legal-move count our FEN checks admit (<= 9Q+2R+2B+2N+K: 321)
MAX_HISTORY = 1024     # plies of game history kept for repetition (older ones are irreversible)
HISTORY_SIZE = MAX_HISTORY + MAX_PLY + 8

# Castling rights: bit i of the rights mask; index i also selects the rook square in the state.
WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO = 0, 1, 2, 3
ALL_CASTLING = 15

# A position is two arrays: `bb` (uint64: boards, then the key history) and `st` (int64:
# scalars, the mailbox, then the undo stack). Few arrays keep numba calls cheap.

# ---- bb: uint64 boards ------------------------------------------------------------------------
BB_PIECES = 0          # 12 boards, one per piece code
BB_WHITE = 12          # occupancy of white
BB_BLACK = 13          # occupancy of black (BB_WHITE + colour)
BB_ALL = 14            # all occupied squares
BB_CASTLE_EMPTY = 15   # 4 boards: squares that must be empty to castle (king and rook excluded)
BB_CASTLE_SAFE = 19    # 4 boards: squares the king passes through, excluding its destination
BB_CASTLE_KING_TO = 23 # 4 boards: the king's destination square
BB_CASTLE_ROOK_TO = 27 # 4 boards: the rook's destination square
BB_KEYS = 31           # HISTORY_SIZE zobrist keys: bb[BB_KEYS + ply] is the key of position `ply`
BB_SIZE = BB_KEYS + HISTORY_SIZE

# ---- st: int64 scalars ------------------------------------------------------------------------
ST_SIDE = 0            # colour to move
ST_CASTLING = 1        # rights mask
ST_EP = 2              # en-passant target square when a legal en-passant capture exists, else -1
ST_HALFMOVE = 3        # plies since the last capture or pawn move
ST_FULLMOVE = 4        # FEN move number
ST_PLY = 5             # index of the current position in the history arrays
ST_CHESS960 = 6        # 1 when castling moves are written king-takes-rook
ST_CASTLE_ROOK = 7     # 4 squares: start square of the rook of each castling right
ST_CASTLE_MASK = 11    # 64 masks: rights kept after a move from or to that square
ST_BOARD = 75          # 64 squares: the mailbox, piece code or NO_PIECE
ST_UNDO = 139          # HISTORY_SIZE records of UNDO_SIZE: the move that left position `ply`
UNDO_MOVE = 0
UNDO_CAPTURED = 1
UNDO_CASTLING = 2
UNDO_EP = 3
UNDO_HALFMOVE = 4
UNDO_SIZE = 5
ST_SIZE = ST_UNDO + HISTORY_SIZE * UNDO_SIZE
