"""Pins the core against python-chess on random games and random placements: legal and noisy moves,
check, FEN in and out, zobrist keys, push/pop restoring every array, and dead material / fifty moves."""

import functools
import random
from collections import Counter

import chess
import pytest

from engine.board import Board
from engine.fen import FenError
from engine.move import CASTLE, EN_PASSANT
from engine.movegen import is_legal
from engine.position import compute_key, gives_check
from tests.helpers import (
    assert_key_matches,
    assert_restored,
    assert_same_moves,
    check_draw_rules,
    choose,
    describe,
    kind,
    our_uci,
    push_both,
    random_board,
    reference_legal,
    reference_noisy,
    respects_material_rule,
    seed,
    snapshot,
    start_position,
)

PLAYOUT_CASES = [(chess960, i) for chess960 in (False, True) for i in range(4)]
GAMES_PER_CASE = 5
MAX_PLIES = 150
MIN_POSITIONS = 2000
# Pawn moves and captures lead to promotions and en passant; the special moves are taken when offered.
WEIGHTS = {"castling": 40, "en passant": 60, "promotion": 15, "capture": 10, "pawn move": 8, "quiet": 1}
RANDOM_FENS = 1500
# Checks python-chess finds impossible (no last move could have given them); our parser allows them.
IMPOSSIBLE_CHECKS = chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK


def check_position(board, py):
    """Compare everything the core computes about this position with python-chess; return our moves."""
    moves = board.legal_moves()
    assert_same_moves(our_uci(board, moves), reference_legal(py), py)
    assert_same_moves(our_uci(board, board.noisy_moves()), reference_noisy(py), py)
    assert board.count_legal_moves() == len(moves), describe(py)
    assert (board.is_check(), board.is_checkmate(), board.is_stalemate()) == \
        (py.is_check(), py.is_checkmate(), py.is_stalemate()), describe(py)
    fen = board.fen()
    assert fen == py.fen(), describe(py)
    assert Board(fen, chess960=board.chess960).fen() == fen, describe(py)
    assert_key_matches(board, py)
    check_draw_rules(board, py)
    return moves


def check_push_pop(board, moves, py):
    """Every legal move, played and taken back, leaves all position arrays as they were, the
    incremental key after it equals the key computed from scratch, and gives_check predicted
    whether it checks."""
    before = snapshot(board)
    for move in moves:
        checks = bool(gives_check(board.tab, board.arrays, move))
        board.push(move)
        assert board.key == int(compute_key(board.tab, board.arrays)), f"after {board.uci(move)} {describe(py)}"
        assert checks == board.is_check(), f"gives_check wrong for {board.uci(move)} {describe(py)}"
        board.pop()
        assert_restored(before, board, move, py)


def check_is_legal(board, moves, earlier, rng, py):
    """is_legal (the hash-move test) accepts exactly the generated moves other than castling and en
    passant, tried on this position's moves, the previous position's and random move codes."""
    legal = set(moves)
    mutated = [(m & 0xFFF) | (rng.randrange(16) << 12) for m in moves]   # every flag on real moves
    candidates = moves + earlier + mutated + [rng.randrange(1 << 16) for _ in range(20)]
    for move in candidates:
        expected = move in legal and (move >> 12) not in (CASTLE, EN_PASSANT)
        assert bool(is_legal(board.tab, board.arrays, move)) == expected, \
            f"is_legal wrong for {move} ({board.uci(move) if move in legal else 'not legal'}) {describe(py)}"


@functools.cache
def playout_tally(chess960, index):
    """Play the random games of one case, checking every position; count what was seen."""
    rng = random.Random(seed(int(chess960), index))
    tally = Counter()
    for _ in range(GAMES_PER_CASE):
        board, py = start_position(rng, chess960)
        earlier: list[int] = []
        for _ in range(MAX_PLIES):
            moves = check_position(board, py)
            check_push_pop(board, moves, py)
            check_is_legal(board, moves, earlier, rng, py)
            earlier = moves
            tally["positions"] += 1
            if not moves or board.is_insufficient_material():
                tally["game over"] += 1
                break
            move = choose(rng, board, moves, WEIGHTS)
            tally[kind(board, move)] += 1
            push_both(board, py, move)
    return tally


@pytest.mark.parametrize("chess960, index", PLAYOUT_CASES,
                         ids=[f"{'chess960' if c else 'standard'}-{i}" for c, i in PLAYOUT_CASES])
def test_random_playouts_match_python_chess(chess960, index):
    assert playout_tally(chess960, index)["positions"] > 0


def test_random_playouts_reached_every_special_move():
    """The games above exercised what they are meant to, so they cannot silently miss it."""
    total = sum((playout_tally(*case) for case in PLAYOUT_CASES), Counter())
    assert total["positions"] >= MIN_POSITIONS, total
    for what in ("en passant", "castling", "promotion=q", "promotion=r", "promotion=b", "promotion=n",
                 "capture", "game over"):
        assert total[what] >= 5, (what, total)
    assert sum(playout_tally(True, i)["castling"] for i in range(4)) >= 5, "too few Chess960 castlings"


def test_random_fens_round_trip_and_match_python_chess():
    """Random placements: what python-chess calls valid (and meets our promoted-material rule) we must
    accept; what we accept must be valid for python-chess (bar checks it finds impossible) and then
    agree with it in every respect."""
    rng = random.Random(seed(7))
    tally = Counter()
    for i in range(RANDOM_FENS):
        chess960 = i % 3 == 0
        py = random_board(rng, chess960)
        text = py.fen(en_passant="fen", shredder=chess960 and rng.random() < 0.5)
        try:
            board = Board(text, chess960=chess960)
        except FenError as error:
            assert not (py.is_valid() and respects_material_rule(py)), f"rejected {text}: {error}"
            tally["rejected"] += 1
            continue
        assert py.status() & ~IMPOSSIBLE_CHECKS == 0, f"accepted {text}: python-chess says {py.status()!r}"
        check_position(board, py)
        tally["accepted"] += 1
        tally["castling rights"] += py.castling_rights != 0
        tally["legal en passant"] += py.has_legal_en_passant()
        tally["pseudo-legal en passant only"] += py.has_pseudo_legal_en_passant() != py.has_legal_en_passant()
    for what in ("accepted", "rejected"):
        assert tally[what] >= RANDOM_FENS // 5, tally
    for what in ("castling rights", "legal en passant", "pseudo-legal en passant only"):
        assert tally[what] >= 5, tally
