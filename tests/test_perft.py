"""Pins legal move generation to the shared perft suite, and `divide` to python-chess's per-move counts."""

import chess
import pytest

from engine.board import Board
from perft.perft import count, divide
from perft.suite import read_suite, run_suite
from tests.helpers import shared_file

FAST_NODES = 5_000_000        # `make test` checks every depth whose count is at most this
SUITE = shared_file("perft.epd")
ENTRIES = read_suite(SUITE)

DIVIDE_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
]


def test_suite_is_the_expected_one():
    assert len(ENTRIES) == 127
    assert sum(1 for e in ENTRIES for n in e.counts.values() if n <= FAST_NODES) > 600


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"line{e.line}")
def test_perft(entry):
    board = Board(entry.fen)
    fen, key = board.fen(), board.key
    expected = {d: n for d, n in sorted(entry.counts.items()) if n <= FAST_NODES}
    got = {d: count(board, d) for d in expected}
    assert got == expected, entry.fen
    assert (board.fen(), board.key) == (fen, key), "perft did not leave the position as it found it"


@pytest.mark.slow
def test_full_suite_every_depth():
    assert run_suite(SUITE, progress=False) == 0


@pytest.mark.parametrize("fen", DIVIDE_FENS)
def test_divide_matches_python_chess(fen):
    board, py = Board(fen), chess.Board(fen)
    ours = dict(divide(board, 2))
    reference = {}
    for move in py.legal_moves:
        py.push(move)
        reference[move.uci()] = py.legal_moves.count()
        py.pop()
    assert len(ours) == board.count_legal_moves()
    assert ours == reference
    assert sum(ours.values()) == count(board, 2)
    assert sum(n for _, n in divide(board, 3)) == count(board, 3)
    assert board.fen() == Board(fen).fen()
