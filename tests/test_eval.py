"""Pins the evaluation's invariants: colour symmetry, the trace reproducing the score (what tuning
and the `eval` command rely on), and basic endgame knowledge."""

import chess
import pytest

from engine.board import Board
from eval.evaluate import SCALE_NORMAL, TRACE_EXTRA, TRACE_PHASE, TRACE_SCALE
from eval.explain import explain, trace_position
from eval.params import LAYOUT, N_PARAMS, PHASE_MAX, weights
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
    searcher = Searcher(1, network="")
    for _ in range(2):
        for fen in POSITIONS:
            board = Board(fen)
            assert searcher.static_eval(board) == trace_position(board, weights())[0], fen


def term_count(fen: str, name: str, index: int = 0) -> int:
    """White's count of one evaluation term in `fen` (from the trace)."""
    offset = next(o for n, o, _ in LAYOUT if n == name)
    return int(trace_position(Board(fen), weights())[1][offset + index])


@pytest.mark.parametrize("fen, name, index, count", [
    ("6k1/8/8/8/6N1/8/8/4K3 w - - 0 1", "safe check", 0, 2),          # Ng4: Nf6+ and Nh6+
    ("6k1/8/5p2/8/6N1/8/8/4K3 w - - 0 1", "safe check", 0, 2),        # Nxf6+ checks too
    ("6k1/6p1/8/8/6N1/8/8/4K3 w - - 0 1", "safe check", 0, 0),        # g7 guards f6 and h6
    ("6k1/8/8/8/8/8/8/B3K3 w - - 0 1", "safe check", 1, 0),           # Ba1 sees no checking square
    ("6k1/8/8/8/8/8/8/1B2K3 w - - 0 1", "safe check", 1, 1),          # Bb1: Ba2+
    ("6k1/R7/8/8/8/8/8/4K3 w - - 0 1", "rook on seventh", 0, 1),
    ("4k3/8/R7/8/8/8/8/4K3 w - - 0 1", "rook on seventh", 0, 0),
    ("6k1/8/8/8/8/6p1/8/6K1 w - - 0 1", "king pawn storm", 2, 1),     # a pawn on g3 before Kg1
    ("4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", "bishop same-colour pawns", 0, 2),
    ("4k3/8/8/8/8/8/1P1P4/3BK3 w - - 0 1", "bishop same-colour pawns", 0, 0),   # light bishop, dark pawns
    ("4k3/8/8/4p3/4N3/8/8/4K3 w - - 0 1", "minor behind pawn", 0, 1),
    ("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", "threat by king", 0, 1),
    ("4k3/8/8/8/1b6/8/3n4/4K3 w - - 0 1", "threat by king", 0, 0),   # Bb4 guards the knight
    ("4k3/8/8/4n3/8/3P4/8/4K3 w - - 0 1", "threat by pawn push", 0, 1),   # d3-d4 hits e5
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "space", 0, 12),
    ("4k3/8/8/8/3p4/8/8/4K3 w - - 0 1", "space", 0, 10),              # d4 attacks c3 and e3
    ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "passed pawn safe advance", 4, 1),   # d5, d6 unguarded
    ("8/4k3/8/3P4/8/8/8/4K3 w - - 0 1", "passed pawn safe advance", 4, 0),    # Ke7 guards d6
    ("4k3/8/8/3P4/8/8/8/3RK3 w - - 0 1", "rook behind passed pawn", 0, 1),
    ("4k3/8/8/3P4/8/3N4/8/3RK3 w - - 0 1", "rook behind passed pawn", 0, 0),   # Nd3 in between
    ("3R4/7k/8/3P4/8/8/8/4K3 w - - 0 1", "rook behind passed pawn", 0, 0),     # in front of it
    ("4k3/8/2p5/1pB5/1P6/8/8/4K3 w - - 0 1", "bishop outpost", 0, 1),  # Bc5 guarded by b4
    ("4k3/3p4/8/1pB5/1P6/8/8/4K3 w - - 0 1", "bishop outpost", 0, 0),  # d7-d6 can chase it
    ("4k3/8/8/8/8/8/8/B3K3 w - - 0 1", "bishop long diagonal", 0, 1),
    ("4k3/8/8/8/8/2P5/8/B3K3 w - - 0 1", "bishop long diagonal", 0, 0),   # c3 blocks the diagonal
    ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "minor piece king distance", 0, 3),
    ("4k3/8/8/8/8/8/8/KR4r1 w - - 0 1", "rook trapped by king", 0, 0),     # the rook is not in the corner
    ("4k3/8/8/8/8/8/5PPP/5KNR w - - 0 1", "rook trapped by king", 0, 1),   # Rh1 shut in by Kf1
])
def test_term_counts(fen, name, index, count):
    assert term_count(fen, name, index) == count
