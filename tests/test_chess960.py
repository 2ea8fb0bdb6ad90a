"""Pins Chess960 move generation (perft counts made with python-chess) and the UCI castling notation."""

import chess
import pytest

from engine.board import Board, IllegalMoveError
from engine.move import CASTLE
from perft.perft import count
from perft.suite import read_suite
from tests.helpers import TESTS_DIR
from tools.generators.make_chess960_perft import pychess_perft

ENTRIES = read_suite(str(TESTS_DIR / "data" / "chess960_perft.epd"))
BOTH_WINGS_FREE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


def castling_texts(board):
    return sorted(board.uci(m) for m in board.legal_moves() if m >> 12 == CASTLE)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"line{e.line}")
def test_chess960_perft(entry):
    board = Board(entry.fen, chess960=True)
    assert {d: count(board, d) for d in entry.counts} == entry.counts, entry.fen


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"line{e.line}")
def test_data_agrees_with_python_chess_at_shallow_depth(entry):
    """The data file still is what python-chess says (a stale or hand-edited count shows here)."""
    py = chess.Board(entry.fen, chess960=True)
    assert [pychess_perft(py, d) for d in (1, 2)] == [entry.counts[1], entry.counts[2]]
    board = Board(entry.fen, chess960=True)
    assert board.fen() == py.fen()
    assert board.fen(shredder=True) == py.fen(shredder=True)


@pytest.mark.parametrize("chess960, expected", [(False, ["e1c1", "e1g1"]), (True, ["e1a1", "e1h1"])])
def test_castling_notation(chess960, expected):
    board = Board(BOTH_WINGS_FREE, chess960=chess960)
    assert castling_texts(board) == expected


@pytest.mark.parametrize("chess960", [False, True])
@pytest.mark.parametrize("standard, king_takes_rook", [("e1g1", "e1h1"), ("e1c1", "e1a1")])
def test_parse_uci_accepts_both_castling_notations(chess960, standard, king_takes_rook):
    board = Board(BOTH_WINGS_FREE, chess960=chess960)
    move = board.parse_uci(standard)
    assert board.parse_uci(king_takes_rook) == move
    assert move >> 12 == CASTLE
    py = chess.Board(BOTH_WINGS_FREE, chess960=chess960)
    py.push_uci(king_takes_rook)
    board.push(move)
    assert board.fen() == py.fen()


def test_chess960_castling_text_when_the_king_stands_next_to_its_rook():
    board = Board("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1", chess960=True)
    assert castling_texts(board) == ["b1a1", "b1g1"]
    board.push_uci("b1a1")   # king b1 to c1, rook a1 to d1
    assert board.fen().startswith("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq ")
    assert castling_texts(board) == ["g8b8", "g8h8"]
    board.push_uci("g8h8")   # the king does not move, the rook jumps to f8
    assert board.fen().startswith("1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 w - ")


def test_chess960_rejects_castling_the_rules_forbid():
    board = Board("4k3/8/8/8/8/8/8/rR3K2 w Q - 0 1", chess960=True)
    assert castling_texts(board) == []
    with pytest.raises(IllegalMoveError):
        board.parse_uci("f1b1")
    with pytest.raises(IllegalMoveError):
        board.parse_uci("f1c1")
