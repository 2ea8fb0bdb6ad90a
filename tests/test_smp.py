"""Lazy SMP: helper threads share the table, never the decision; limits and levels stay exact."""

from __future__ import annotations

from pathlib import Path

import chess

from engine.board import Board
from search.timeman import Limits
from search.driver import Searcher, mate_moves
from search.levels import level_for_elo
from search.workspace import CTL_NODES, WS_CTL
from tests.helpers import shared_file

MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7"


def two_threads() -> Searcher:
    searcher = Searcher(8)
    searcher.set_threads(2)
    return searcher


def helper_nodes(searcher: Searcher) -> int:
    return int(searcher.helpers[0][WS_CTL + CTL_NODES])


def search(searcher: Searcher, fen: str, limits: Limits):
    board = Board(fen)
    searcher.prepare()
    result = searcher.run(board, limits)
    return board, result


def test_helpers_search_and_their_nodes_are_counted():
    """A helper thread that the scheduler starts late (a loaded machine) may find a short search
    already over: deeper searches give it the time, and one of them must see it work."""
    searcher = two_threads()
    for depth in (8, 10, 12, 14):
        searcher.clear()
        board, result = search(searcher, MIDDLEGAME, Limits(depth=depth))
        assert chess.Move.from_uci(board.uci(result.best)) in chess.Board(MIDDLEGAME).legal_moves
        assert result.depth == depth
        if helper_nodes(searcher):
            break
    assert 0 < helper_nodes(searcher) < result.nodes


def test_two_threads_find_mates_in_two():
    searcher = two_threads()
    for fen in Path(shared_file("mate2.fen")).read_text().splitlines()[:5]:
        board, result = search(searcher, fen, Limits(mate=2, depth=3))
        assert mate_moves(result.score) == 2, fen
        after = chess.Board(fen)
        after.push_uci(board.uci(result.best))
        assert not after.is_checkmate()       # a mate in two, so the first move does not mate yet


def test_node_limits_and_levels_stay_single_threaded():
    searcher = two_threads()
    search(searcher, MIDDLEGAME, Limits(nodes=5000))
    assert helper_nodes(searcher) == 0
    searcher.set_level(level_for_elo(1000), 7)
    search(searcher, MIDDLEGAME, Limits(depth=3))
    assert helper_nodes(searcher) == 0


def test_threads_can_shrink_back():
    searcher = two_threads()
    searcher.set_threads(1)
    assert searcher.helpers == []
    assert search(searcher, MIDDLEGAME, Limits(depth=4))[1].best != 0
