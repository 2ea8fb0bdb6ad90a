"""The checkers core's own machinery: the board geometry, FEN and move notation in and out,
make/unmake restoring every array, the zobrist key kept incrementally, and the Board's history."""

from __future__ import annotations

import random

import numpy as np
import pytest
from draughts import Board as ReferenceBoard

from checkers.board import Board
from checkers.defs import (BLACK, MAX_GAME_PLIES, POS_HISTORY, POS_PLY, POS_UNDO, SQUARES, UNDO_SIZE, WHITE)
from checkers.movegen import step
from checkers.notation import START_FEN, FenError, MoveError, parse_fen
from checkers.position import compute_key
from checkers.tables import landing, neighbour
from tests.helpers import seed

# ---- geometry -------------------------------------------------------------------------------


def test_whole_board_steps_match_the_square_tables():
    """movegen.step (shifts and edge masks) and the neighbour table (built from coordinates)
    are two independent constructions of the same diagonals."""
    for sq in range(SQUARES):
        for d in range(4):
            expected = 1 << neighbour(sq, d) if neighbour(sq, d) >= 0 else 0
            assert step(np.int64(1 << sq), np.int64(d)) == expected, (sq + 1, d)


def test_the_numbering_is_the_books():
    """Facts every checkers book states: the long diagonal runs 29-25-22-18-15-11-8-4 (the
    single corners 4 and 29), the double corners are 1-5 and 28-32, and a black man on 9 moves
    to 13 or 14 while a white man on 22 moves to 17 or 18."""
    def path(squares):
        return all(any(neighbour(a - 1, d) == b - 1 for d in range(4)) for a, b in zip(squares, squares[1:]))
    assert path([29, 25, 22, 18, 15, 11, 8, 4]) and path([1, 5]) and path([28, 32])
    assert sorted(Board("B:W30:B9").legal_notation()) == ["9-13", "9-14"]
    assert sorted(Board("W:W22:B1").legal_notation()) == ["22-17", "22-18"]
    assert landing(8, 3) == 17 and landing(4, 2) == -1     # 9 jumps over 14 to 18; 5 has no room to the left


def test_square_numbers_match_pydraughts_diagram():
    """pydraughts draws the same board: each of our pieces sits where its diagram puts it."""
    fen = "B:W21,K30:B1,K12"
    text = repr(ReferenceBoard(variant="english", fen=fen))
    rows = [line for line in text.splitlines() if "|" in line]
    # pydraughts draws the board from White's side turned round: its top row is our bottom row
    # (29-32), each row mirrored; find every piece's cell and map it to our square number.
    found = {}
    for r, line in enumerate(rows):
        cells = [cell.strip() for cell in line.split("|")]
        for c, cell in enumerate(cells):
            if cell:
                found[cell] = found.get(cell, []) + [(7 - r, 7 - c)]
    ours = Board(fen).setup()
    for symbol, squares in found.items():
        for row, file in squares:
            index = 4 * row + file // 2
            colour_board = ours.black if symbol.lower() == "b" else ours.white
            assert colour_board >> index & 1, (symbol, index + 1)
            assert bool(ours.kings >> index & 1) == symbol.isupper()


# ---- FEN ------------------------------------------------------------------------------------

def test_start_position():
    board = Board()
    assert board.fen() == START_FEN and board.turn == BLACK
    assert parse_fen(START_FEN).black == 0xFFF and parse_fen(START_FEN).white == 0xFFF00000


@pytest.mark.parametrize("text", [
    "B:W21-32:B1-12",
    "B:B1-12:W21-32",
    "B:W21-32:B1-12.",
    '[FEN "B:W21-32:B1-12"]',
    '[FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12."]',
    " b:w32,31,30,29,28,27,26,25,24,23,22,21:b12,11,10,9,8,7,6,5,4,3,2,1 ",
])
def test_fen_forms(text):
    assert Board(text).fen() == START_FEN


def test_fen_kings_and_king_ranges():
    board = Board("W:WK30,21,K1-2:B5,K29")
    assert board.fen() == "W:WK1,K2,21,K30:B5,K29" and board.turn == WHITE
    assert ReferenceBoard(variant="english", fen="W:WK1-2,21,K30:B5,K29").fen.count("K") == 4


@pytest.mark.parametrize("text, says", [
    ("X:W21:B1", "side to move"),
    ("B:W21,21:B1", "twice"),
    ("B:W21:B21", "twice"),
    ("B:W33:B1", "1 to 32"),
    ("B:W5-3:B1", "range upwards"),
    ("B:W21:W22:B1", "white pieces twice"),
    ("B:Q21:B1", "W or B"),
    ("B:W21,a:B1", "not a square"),
    ("B:W1-13:B20", "at most 12"),
    ("B:W21:B30", "crowned"),
    ("B:W2:B10", "crowned"),
])
def test_fen_errors_say_what_is_wrong(text, says):
    with pytest.raises(FenError, match=says):
        Board(text)


def test_fen_round_trips_and_agrees_with_pydraughts():
    """Ours -> text -> ours is the identity; pydraughts reads our FEN as the same position and
    we read its FEN (its own order of squares) back."""
    rng = random.Random(seed(80))
    board = Board()
    for _ in range(300):
        moves = board.legal_moves()
        if not moves:
            board = Board()
            continue
        board.push(rng.choice(moves))
        fen = board.fen()
        assert Board(fen).fen() == fen and Board(fen).key == board.key
        theirs = ReferenceBoard(variant="english", fen=fen)
        assert parse_fen(theirs.fen) == parse_fen(fen)


# ---- moves ----------------------------------------------------------------------------------

LOOP = "W:WK6:B9,10,17,18"      # 6x13x22x15x6 and 6x15x22x13x6


@pytest.mark.parametrize("fen, text, full", [
    ("B:W18,K26:B1,14", "14x30", "14x23x30"),          # landing squares left out: one path fits
    ("B:W18,K26:B1,14", "14x23x30", "14x23x30"),
    (LOOP, "6x15x22x6", "6x15x22x13x6"),               # one landing square picks the way round
    (LOOP, "6x13x22x6", "6x13x22x15x6"),
    (START_FEN, " 11-15 ", "11-15"),
    ("B:W18,19,26,27:B14", "14X23X32", "14x23x32"),
])
def test_moves_are_read(fen, text, full):
    board = Board(fen)
    assert board.notation(board.parse_move(text)) == full


@pytest.mark.parametrize("fen, text, says", [
    (LOOP, "6x6", "ambiguous"),                       # either way round
    (LOOP, "6x22x6", "ambiguous"),
    ("B:W18,19,26,27:B14", "14x23", "illegal"),       # a multi-jump must be finished
    ("B:W18:B1,2,3,11,14", "11-15", "illegal"),       # jumping is compulsory
    (START_FEN, "11x15", "illegal"),
    (START_FEN, "11-16-20", "not a move"),
    (START_FEN, "e3-d4", "not a move"),
    (START_FEN, "11-40", "1 to 32"),
])
def test_bad_moves_are_refused(fen, text, says):
    with pytest.raises(MoveError, match=says):
        Board(fen).parse_move(text)


def test_a_foreign_move_code_is_refused():
    board = Board()
    with pytest.raises(MoveError):
        board.push(Board("W:W22:B1").legal_moves()[0])


# ---- make/unmake and the key ----------------------------------------------------------------

def _state(board: Board) -> np.ndarray:
    """What a position is, without the scratch beyond the current ply."""
    ply = int(board.pos[POS_PLY])
    return np.concatenate([board.pos[:POS_HISTORY + ply + 1], board.pos[POS_UNDO:POS_UNDO + ply * UNDO_SIZE]])


@pytest.mark.parametrize("game", range(6))
def test_make_unmake_restores_and_the_key_follows(game):
    """Along random games (from the start and from crowded king positions): after each move the
    incremental key equals the key computed from scratch, and taking any legal move back leaves
    every array as it was."""
    rng = random.Random(seed(81, game))
    board = Board(START_FEN if game % 2 == 0 else "W:WK25,K26,K27,K28,22,23:BK5,K6,K7,10,11")
    for _ in range(200):
        moves = board.legal_moves()
        if not moves:
            break
        before = _state(board)
        for move in moves:
            board.push(move)
            assert board.key == compute_key(board.tab, board.pos)
            board.pop()
            assert np.array_equal(_state(board), before)
        board.push(rng.choice(moves))


def test_the_key_covers_the_side_to_move_and_the_kings():
    assert Board("B:W21:B1").key != Board("W:W21:B1").key
    assert Board("B:W21:B1").key != Board("B:W21:BK1").key
    assert Board("B:W21:B1").key != Board("B:WK21:B1").key
    assert Board("B:W21:B5").key != Board("B:W5:B21").key


# ---- the Board ------------------------------------------------------------------------------

def test_copy_and_pop_to_the_root():
    board = Board()
    for text in ["11-15", "22-18", "15x22", "25x18"]:
        board.push_notation(text)
    other = board.copy()
    assert other.fen() == board.fen() and other.key == board.key
    while board.moves_played:
        board.pop()
    assert board.fen() == START_FEN
    with pytest.raises(IndexError):
        board.pop()


def test_a_long_game_reroots_the_history_and_keeps_the_draw_rules():
    """Past MAX_GAME_PLIES the history is cut to the positions a repetition can still meet;
    the repetition count stays right, and taking moves back across the cut replays the game."""
    board = Board("B:WK32:BK1")
    shuffle = ["1-5", "32-28", "5-1", "28-32"]
    total = MAX_GAME_PLIES + 60
    for ply in range(total):
        board.push_notation(shuffle[ply % 4])
    assert int(board.pos[POS_PLY]) < MAX_GAME_PLIES
    assert board.repetitions() >= 2 and board.outcome().reason == "40-move rule"
    for _ in range(100):
        board.pop()
    replayed = Board("B:WK32:BK1")
    for ply in range(total - 100):
        replayed.push_notation(shuffle[ply % 4])
    assert board.fen() == replayed.fen() and board.key == replayed.key
    assert board.repetitions() == replayed.repetitions() and board.quiet_plies == total - 100
