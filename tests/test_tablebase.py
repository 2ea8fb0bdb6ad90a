"""Syzygy tablebases: the options, root moves that keep the result, and probes in the search,
checked against python-chess's own probes of the same tables."""

from __future__ import annotations

import os
import random

import chess
import chess.syzygy
import pytest

from engine.board import Board
from search.tablebase import TABLEBASES, TablebaseError, board_of_arrays
from search.timeman import Limits
from search.driver import Searcher
from search.levels import level_for_elo
from engine.defs import TB_WIN
from tests.helpers import seed
from tests.syzygy_tables import syzygy_folder
from tests.uci_driver import UciEngine, engine, uci  # noqa: F401

KPK_WIN = "8/8/8/4k3/8/8/3KP3/8 w - - 0 1"
KQK_QUEEN_ATTACKED = "8/8/8/8/3k4/8/2Q5/K7 b - - 0 1"   # black to move cannot take it: a check-free win


@pytest.fixture(scope="module")
def tables():
    folder = syzygy_folder()
    TABLEBASES.open(str(folder))
    yield chess.syzygy.open_tablebase(str(folder))
    TABLEBASES.open("")


def searched(fen: str, limits: Limits, level=None):
    searcher = Searcher(8)
    searcher.set_level(level, 1)
    board = Board(fen)
    searcher.prepare()
    return board, searcher, searcher.run(board, limits)


def random_endgame(rng: random.Random, pieces: str) -> chess.Board:
    """A legal position with the two kings and `pieces` (e.g. "QP"; upper case white), no castling."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(pieces))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, symbol in zip(squares[2:], pieces):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over():
            return board


def test_the_probe_sees_the_search_position_as_python_chess_does():
    rng = random.Random(seed(11))
    fens = ["8/8/8/3pP3/8/2k5/8/K7 w - d6 0 2"]             # en passant counts for the tables
    fens += [random_endgame(rng, rng.choice(["QP", "Rp", "BN", "Pp", "qR"])).fen() for _ in range(200)]
    for fen in fens:
        assert board_of_arrays(Board(fen).arrays[1]).epd(en_passant="fen") \
            == chess.Board(fen).epd(en_passant="fen"), fen


def test_missing_folder_is_an_error_and_changes_nothing():
    before = TABLEBASES.search_limit()
    with pytest.raises(TablebaseError, match="does not exist"):
        TABLEBASES.open("/no/such/folder")
    assert TABLEBASES.search_limit() == before


def test_uci_options_without_tables(uci, tmp_path):
    """A folder that does not exist is accepted with a warning (lichess-bot's default config names
    ./syzygy/), one without tables with a note."""
    uci.send("setoption name SyzygyPath value /no/such/folder")
    notes = uci.sync()
    assert len(notes) == 1 and notes[0].startswith("info string warning") and "/no/such/folder" in notes[0], notes
    uci.send(f"setoption name SyzygyPath value {tmp_path}")
    notes = uci.sync()
    assert any(line.startswith("info string no Syzygy tables") for line in notes), notes
    uci.position(fen=KPK_WIN)
    search = uci.go("depth 6")
    assert "tbhits" not in search.infos[-1]
    assert uci.errors_after("setoption name SyzygyProbeLimit value 8") != []
    uci.set_option("SyzygyPath", "<empty>")


def test_uci_reports_tbhits_with_tables(uci, tables):
    uci.send(f"setoption name SyzygyPath value {syzygy_folder()}")
    assert any("found" in line and "Syzygy tables" in line for line in uci.sync())
    try:
        board = uci.position(fen=KPK_WIN)
        search = uci.go("depth 10")
        assert search.infos[-1]["tbhits"] > 0
        board.push_uci(search.bestmove)
        assert tables.probe_wdl(board) == -2          # the move keeps the win
    finally:
        uci.set_option("SyzygyPath", "<empty>")


def test_uci_missing_folder_keeps_the_tables_in_use(uci, tables):
    """Only missing folders: a warning, and the tables already open stay in use; a path with one
    folder that exists uses that folder's tables."""
    uci.send(f"setoption name SyzygyPath value {syzygy_folder()}")
    uci.sync()
    try:
        uci.send("setoption name SyzygyPath value ./syzygy/")
        notes = uci.sync()
        assert len(notes) == 1 and "warning" in notes[0] and "keeping the tablebases in use" in notes[0], notes
        uci.position(fen=KPK_WIN)
        assert uci.go("depth 8").infos[-1]["tbhits"] > 0
        uci.send(f"setoption name SyzygyPath value /no/such/folder{os.pathsep}{syzygy_folder()}")
        notes = uci.sync()
        assert "warning" in notes[0] and any("found" in line for line in notes[1:]), notes
        assert uci.go("depth 8").infos[-1]["tbhits"] > 0
    finally:
        uci.set_option("SyzygyPath", "<empty>")


def test_root_moves_keep_the_tablebase_result(tables):
    rng = random.Random(seed(61))
    for pieces in ["Q", "R", "P", "p", "Pp", "Rp", "Qr", "Bn", "NN", "PP"]:
        board = random_endgame(rng, pieces)
        expected = tables.probe_wdl(board)
        ours, _, result = searched(board.fen(), Limits(depth=5))
        board.push_uci(ours.uci(result.best))
        assert -tables.probe_wdl(board) == expected, (pieces, board.fen())


def test_search_scores_a_won_ending_as_a_tablebase_win(tables):
    _, searcher, result = searched(KPK_WIN, Limits(depth=12))
    assert result.score > TB_WIN - 100          # a tablebase win (or a mate, higher still)
    assert searcher.tbhits() > 0


def test_losing_side_resists_longest(tables):
    ranked = TABLEBASES.rank_root_moves(chess.Board(KQK_QUEEN_ATTACKED))
    assert ranked is not None and ranked[1] == -2
    board = chess.Board(KQK_QUEEN_ATTACKED)
    longest = max(abs(_dtz_after(tables, board, move)) for move in board.legal_moves)
    assert all(abs(_dtz_after(tables, board, move)) == longest for move in ranked[0])


def _dtz_after(tables, board: chess.Board, move: chess.Move) -> int:
    board.push(move)
    try:
        return tables.probe_dtz(board)
    finally:
        board.pop()


def test_probe_limit_and_levels_turn_the_tables_off(tables):
    TABLEBASES.probe_limit = 2
    try:
        assert searched(KPK_WIN, Limits(depth=8))[1].tbhits() == 0
    finally:
        TABLEBASES.probe_limit = 7
    assert searched(KPK_WIN, Limits(depth=3), level=level_for_elo(1000))[1].tbhits() == 0
