"""Pins the draw primitives against python-chess: repetition counts on games that shuffle pieces back
and forth, the fifty-move counter across the 100-ply mark, and dead material on sparse placements."""

import random
from collections import Counter

import chess
import pytest

from engine.board import Board
from tests.helpers import (
    assert_key_matches,
    check_draw_rules,
    choose,
    describe,
    kind,
    push_both,
    random_board,
    seed,
    shuffle_choice,
    start_position,
)

SHUFFLE_STARTS = [
    None,                                                                          # the start position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/2n5/8/8/8/8/2N1B3/4K3 w - - 0 1",
    "rk5r/ppp3pp/8/3Pp3/8/8/PPP3PP/RK5R w KQkq e6 0 1",                          # Chess960 castling rights
]
SHUFFLE_GAMES = 12
SHUFFLE_PLIES = 90
FIFTY_STARTS = [
    "8/8/3k4/8/8/3K4/8/R6R w - - 80 60",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 85 40",
    "r3k3/8/8/3n4/8/8/5B2/R2QK3 b Q - 90 50",
    "6k1/5q2/8/8/8/8/1Q6/6K1 w - - 95 70",
]
FIFTY_WEIGHTS = {"castling": 1, "en passant": 1, "promotion": 1, "capture": 0.3, "pawn move": 1, "quiet": 10}


def shuffle_move(rng, board, py, moves):
    """Mostly a quiet move, often the one that takes back our previous move (so positions repeat)."""
    quiet = [m for m in moves if kind(board, m) == "quiet"]
    if not quiet or rng.random() < 0.03:
        return rng.choice(moves)
    return shuffle_choice(rng, quiet, py, take_back=0.7)


def shuffle_game(rng, index):
    fen = SHUFFLE_STARTS[index % len(SHUFFLE_STARTS)]
    if fen is None:
        return start_position(rng, chess960=index % 2 == 1)
    chess960 = "rk5r" in fen
    return Board(fen, chess960=chess960), chess.Board(fen, chess960=chess960)


def test_repetitions_match_python_chess():
    rng = random.Random(seed(3))
    tally = Counter()
    for index in range(SHUFFLE_GAMES):
        board, py = shuffle_game(rng, index)
        for _ in range(SHUFFLE_PLIES):
            earlier = board.repetitions()
            for times in (2, 3, 4):
                assert (earlier >= times - 1) == py.is_repetition(times), (times, earlier, describe(py))
            assert_key_matches(board, py)
            moves = board.legal_moves()
            if earlier >= 2 and moves and not board.is_insufficient_material():
                assert board.outcome() == "threefold repetition", describe(py)
            tally["positions"] += 1
            tally["twofold"] += earlier == 1
            tally["threefold or more"] += earlier >= 2
            if not moves:
                break
            push_both(board, py, shuffle_move(rng, board, py, moves))
    assert tally["threefold or more"] >= 50 and tally["twofold"] >= 50, tally
    assert tally["positions"] - tally["twofold"] - tally["threefold or more"] >= 100, tally


def test_fifty_move_counter_matches_python_chess():
    rng = random.Random(seed(5))
    tally = Counter()
    for fen in FIFTY_STARTS:
        for _ in range(3):
            board, py = Board(fen), chess.Board(fen)
            for _ in range(40):
                check_draw_rules(board, py)
                tally["positions"] += 1
                tally["fifty moves"] += board.is_fifty_moves()
                moves = board.legal_moves()
                if not moves:
                    break
                push_both(board, py, choose(rng, board, moves, FIFTY_WEIGHTS))
    assert tally["fifty moves"] >= 100 and tally["positions"] - tally["fifty moves"] >= 100, tally


@pytest.mark.parametrize("fen, fifty, outcome", [
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", False, "checkmate"),     # mate beats the fifty-move rule
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 100 80", True, "stalemate"),      # ours: no checkmate, so it counts
    ("7k/8/5QK1/8/8/8/8/8 b - - 100 80", True, "fifty-move rule"),
    ("7k/8/5QK1/8/8/8/8/8 b - - 99 80", False, None),
])
def test_fifty_moves_and_mate(fen, fifty, outcome):
    board = Board(fen)
    assert (board.is_fifty_moves(), board.outcome()) == (fifty, outcome)
    assert board.halfmove_clock == chess.Board(fen).halfmove_clock


def test_halfmove_clock_reaches_the_fifty_move_mark_and_resets():
    board = Board("7k/8/6K1/8/8/8/8/5Q2 b - - 99 80")
    board.push_uci("h8g8")
    assert board.halfmove_clock == 100 and board.is_fifty_moves()
    board.push_uci("f1f2")
    assert board.halfmove_clock == 101 and board.is_fifty_moves()
    board.pop()
    board.pop()
    assert board.halfmove_clock == 99 and not board.is_fifty_moves()
    board = Board("7k/6p1/5QK1/8/8/8/8/8 w - - 120 80")
    board.push_uci("f6g7")
    assert board.halfmove_clock == 0 and not board.is_fifty_moves()


@pytest.mark.parametrize("fen, dead", [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", True),
    ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", False),
    ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", True),                    # bishops on squares of one colour
    ("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", False),                    # ... and of both colours
    ("4k3/8/8/8/8/8/8/B1B1K1B1 w - - 0 1", True),
    ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", False),
    ("4kn2/8/8/8/8/8/8/3BK3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/8/4KR2 b - - 0 1", False),
])
def test_insufficient_material_table(fen, dead):
    assert Board(fen).is_insufficient_material() == dead == chess.Board(fen).is_insufficient_material()


def test_insufficient_material_on_sparse_random_placements():
    rng = random.Random(seed(9))
    tally = Counter()
    for _ in range(1500):
        py = random_board(rng, extra=rng.randrange(4), pool="NBnbBbBbNBnbPq", castling=0)
        if not py.is_valid():
            continue
        board = Board(py.fen())
        assert board.is_insufficient_material() == py.is_insufficient_material(), py.fen()
        tally[board.is_insufficient_material()] += 1
    assert tally[True] >= 200 and tally[False] >= 200, tally
