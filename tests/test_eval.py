"""Pins the evaluation's invariants: colour symmetry, the trace reproducing the score (what tuning
and the `eval` command rely on), and basic endgame knowledge."""

import chess
import pytest

from engine.board import Board
from eval.evaluate import SCALE_NORMAL, TRACE_EXTRA, TRACE_PHASE, TRACE_SCALE
from eval.explain import explain, trace_position
from eval.params import N_PARAMS, PHASE_MAX, weights
from search.driver import Searcher
from tests.helpers import shared_file

POSITIONS = [line.split(";")[0].strip() for line in open(shared_file("perft.epd"))][:60] + [
    line.split(" bm ")[0] + " 0 1" for line in open(shared_file("wac.epd"))][:60]


def white_view_score(board: Board) -> int:
    score, _ = trace_position(board, weights())
    return score if board.turn == 0 else -score


def mirrored(fen: str) -> str:
    """The same position with colours swapped (ranks mirrored, the other side to move)."""
    return chess.Board(fen).mirror().fen()


@pytest.mark.parametrize("fen", POSITIONS)
def test_colour_symmetry(fen):
    board = Board(fen)
    flipped = Board(mirrored(fen))
    assert trace_position(board, weights())[0] == trace_position(flipped, weights())[0]


@pytest.mark.parametrize("fen", POSITIONS)
def test_trace_reproduces_score(fen):
    """weights . trace gives the engine's score up to integer rounding."""
    w = weights()
    board = Board(fen)
    score, trace = trace_position(board, w)
    counts = trace[:N_PARAMS] - trace[N_PARAMS:2 * N_PARAMS]
    phase, scale = trace[TRACE_PHASE], trace[TRACE_SCALE]
    mg, eg = counts @ w[:, 0], counts @ w[:, 1]
    model = (mg * phase + eg * scale / SCALE_NORMAL * (PHASE_MAX - phase)) / PHASE_MAX + trace[TRACE_EXTRA]
    assert abs(model - (score if board.turn == 0 else -score)) <= 2


@pytest.mark.parametrize("fen, low, high", [
    ("8/8/8/4k3/8/8/8/4KB2 w - - 0 1", -100, 100),      # a lone bishop cannot win
    ("8/8/8/4k3/8/8/8/2N1KN2 w - - 0 1", -100, 100),    # nor two knights
    ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", 400, 2000),       # a rook does
    ("8/8/4k3/8/8/8/8/3QK3 w - - 0 1", 800, 3000),
])
def test_endgame_knowledge(fen, low, high):
    assert low <= white_view_score(Board(fen)) <= high


def test_mop_up_prefers_the_enemy_king_at_the_edge():
    centre = white_view_score(Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"))
    edge = white_view_score(Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    assert edge > centre


def test_explain_lists_terms_and_total():
    lines = explain(Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"))
    assert lines[0].startswith("term")
    assert any(line.startswith("material") for line in lines)
    assert lines[-1].startswith("total")


def test_pawn_cache_gives_the_scores_of_a_fresh_evaluation():
    """The search's evaluation (pawn terms from the cache) equals the traced one (no cache), on
    first sight and on a second visit that hits the cache."""
    searcher = Searcher(1)
    for _ in range(2):
        for fen in POSITIONS:
            board = Board(fen)
            assert searcher.static_eval(board) == trace_position(board, weights())[0], fen
