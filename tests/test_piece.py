"""Piece codes (engine.piece): every colour and type has one code, read back by the helpers, in the
order of the FEN letters and of a position's boards."""

from engine.board import Board
from engine.defs import BLACK, KING, NO_PIECE, PAWN, PIECE_SYMBOLS, PIECES, ROOK, WHITE
from engine.piece import NO_TYPE, PIECE_VALUES, make_piece, piece_colour, piece_type


def test_every_colour_and_type_has_one_code_that_reads_back():
    codes = {make_piece(colour, kind) for colour in (WHITE, BLACK) for kind in range(PAWN, KING + 1)}
    assert codes == set(range(PIECES)) and NO_PIECE not in codes
    for colour, letters in ((WHITE, "PNBRQK"), (BLACK, "pnbrqk")):
        for kind in range(PAWN, KING + 1):
            piece = make_piece(colour, kind)
            assert (piece_colour(piece), piece_type(piece)) == (colour, kind)
            assert PIECE_SYMBOLS[piece] == letters[kind]


def test_no_piece_has_no_type_and_no_value():
    assert piece_type(NO_PIECE) == NO_TYPE
    assert PIECE_VALUES[NO_TYPE] == 0 and all(PIECE_VALUES[kind] > 0 for kind in range(PAWN, KING + 1))


def test_a_position_keeps_one_board_per_piece_code():
    bb = Board("4k3/8/8/8/8/8/3PP3/4K2R w K - 0 1").arrays[0]
    assert bb[make_piece(WHITE, PAWN)] == (1 << 11) | (1 << 12)          # d2, e2
    assert bb[make_piece(WHITE, ROOK)] == 1 << 7 and bb[make_piece(BLACK, ROOK)] == 0
    assert bb[make_piece(WHITE, KING)] == 1 << 4 and bb[make_piece(BLACK, KING)] == 1 << 60
