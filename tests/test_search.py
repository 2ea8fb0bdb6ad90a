"""Pins what the search must find: forced mates within the exact depth (`go mate`), a sample of
Win At Chess, draws by rule inside the tree, and the node-count determinism `bench` relies on."""

import chess
import pytest

from engine.board import Board
from engine.move import move_to_uci
from search.timeman import Limits
from search.driver import Searcher
from engine.defs import MATE
from tests.helpers import shared_file


def fens(name: str) -> list[str]:
    return [line.strip() for line in open(shared_file(name)) if line.strip()]


@pytest.fixture(scope="module")
def searcher():
    return Searcher(16)


def solve(searcher: Searcher, fen: str, **limits):
    board = Board(fen)
    searcher.clear()
    searcher.prepare()
    return board, searcher.run(board, Limits(**limits), lambda line: None)


def assert_mates(board: Board, result, moves: int) -> None:
    """The result announces mate in at most `moves` and its PV mates (replayed in python-chess)."""
    assert result.score >= MATE - (2 * moves - 1), f"no mate in {moves} found in {board.fen()}"
    py = chess.Board(board.fen())
    for move in result.lines[0].moves:
        py.push_uci(move_to_uci(move, False))
    assert py.is_checkmate(), f"PV does not end in mate in {board.fen()}"


@pytest.mark.parametrize("moves, name", [(1, "mate1.fen"), (2, "mate2.fen"), (3, "mate3.fen"),
                                         (4, "mate4.fen")])
def test_mate_suites_at_exact_depth(searcher, moves, name):
    """`go mate N` searches without mate-hiding selectivity, so 2N-1 plies must prove it."""
    for fen in fens(name):
        board, result = solve(searcher, fen, mate=moves, depth=2 * moves - 1)
        assert_mates(board, result, moves)


def test_win_draw_loss_model_is_consistent():
    """UCI_ShowWDL figures: permille summing to 1000, symmetric, more wins as the score rises."""
    from search.driver import win_draw_loss

    previous = -1
    for score in range(-1500, 1501, 50):
        win, draw, loss = win_draw_loss(score)
        assert win + draw + loss == 1000 and min(win, draw, loss) >= 0
        assert (loss, draw, win) == win_draw_loss(-score)
        assert win >= previous
        previous = win
    assert win_draw_loss(MATE - 3) == (1000, 0, 0)
