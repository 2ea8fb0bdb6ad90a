"""The network evaluation (eval/nnue.py): quantisation, accumulators kept right move by move,
the trainer's network reproduced, and the engine searching and speaking UCI with it."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from engine.board import Board
from eval import nnue
from search.driver import Limits, Searcher
from tests.uci_driver import engine, uci  # noqa: F401 - the fixtures
from tools.training import train_nnue


def small_net(seed: int, hidden: int = nnue.MAX_HIDDEN) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"w1": (rng.standard_normal((nnue.INPUTS, hidden)) * 0.08).astype(np.float32),
            "b1": (0.3 + rng.standard_normal(hidden) * 0.1).astype(np.float32),
            "w2": (rng.standard_normal((nnue.OUTPUT_BUCKETS, 2 * hidden)) * 0.1).astype(np.float32),
            "b2": (0.05 + rng.standard_normal(nnue.OUTPUT_BUCKETS) * 0.05).astype(np.float32)}


def piece_codes(fens: list[str]) -> np.ndarray:
    """The pieces of FENs as records.Positions has them, written with python-chess: colour * 384 +
    type * 64 + square, -1 padded (here in python-chess's order, not the squares')."""
    pieces = np.full((len(fens), 32), -1, dtype=np.int16)
    for row, fen in enumerate(fens):
        board = chess.Board(fen)
        for k, (square, piece) in enumerate(board.piece_map().items()):
            pieces[row, k] = (not piece.color) * 384 + (piece.piece_type - 1) * 64 + square
    return pieces


def encode(fens: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The trainer's inputs for FENs: (the boards packed, 1 where black is to move)."""
    return train_nnue.pack(piece_codes(fens)), np.array([" b " in fen for fen in fens], dtype=np.int8)


@pytest.fixture(scope="module")
def net_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("net") / "net.npz"
    train_nnue.save(small_net(1), path, {"test": True})
    return str(path)


def test_quantise_refuses_the_wrong_shape_and_overflowing_weights():
    net = small_net(2)
    with pytest.raises(ValueError, match="network .* is needed"):
        nnue.quantise(net["w1"][:, :8], net["b1"][:16], net["w2"][:, :16], net["b2"])
    with pytest.raises(ValueError, match="network .* is needed"):
        nnue.quantise(net["w1"], net["b1"], net["w2"][0], net["b2"][:1])
    with pytest.raises(ValueError, match="multiple of 8"):
        nnue.quantise(**small_net(2, 12))
    with pytest.raises(ValueError, match="too large"):
        nnue.quantise(net["w1"] * 100, net["b1"], net["w2"], net["b2"])
    with pytest.raises(ValueError, match="cannot read"):
        nnue.load("/nonexistent/net.npz")


def random_games(count: int, seed: int, chess960: bool) -> list[list[str]]:
    """UCI move lists of random games (captures, castling, en passant and promotions included)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        start, moves = board.fen(), []
        while not board.is_game_over() and len(moves) < 200:
            legal = list(board.legal_moves)
            special = [m for m in legal if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
            move = rng.choice(special) if special and rng.random() < 0.5 else rng.choice(legal)
            moves.append(move.uci())
            board.push(move)
        games.append([start, *moves])
    return games


@pytest.mark.parametrize("chess960", [False, True])
def test_accumulators_follow_the_moves_as_if_computed_afresh(chess960):
    """Move by move, a side's accumulator is what a fresh computation gives, unless a king move
    across the mirror line made it stale (then it is refreshed when the position is evaluated, as
    the search evaluates some plies and not others); the evaluation is always the fresh one's."""
    region = nnue.quantise(**small_net(3))
    fresh = region.copy()
    rng = random.Random(17)
    crossings = 0
    for start, *moves in random_games(8, 4 if chess960 else 5, chess960):
        moves = moves[:nnue.STACK - 1]          # a line no deeper than the search's
        board = Board(start, chess960=chess960)
        nnue.start(board.arrays, region)
        for text in moves:
            move = board.parse_uci(text)
            nnue.push(board.arrays, region, move)
            board.push(move)
            top = region[nnue.R_TOP]
            fresh[nnue.R_TOP] = top
            nnue.refresh(board.arrays, fresh)
            stale = region[nnue.R_STALE + 2 * top:nnue.R_STALE + 2 * top + 2]
            crossings += int(stale.any())
            ours, theirs = accumulators(region), accumulators(fresh)
            half = len(ours) // 2
            for side in (0, 1):
                if not stale[side]:
                    assert np.array_equal(ours[side * half:(side + 1) * half], theirs[side * half:(side + 1) * half]), text
            if rng.random() < 0.3:
                assert nnue.output(board.arrays, region) == nnue.output(board.arrays, fresh), text
                assert not region[nnue.R_STALE + 2 * top:nnue.R_STALE + 2 * top + 2].any()
                assert np.array_equal(accumulators(region), accumulators(fresh)), text
        for _ in moves:                     # and back: each ply's accumulators are still there
            board.pop()
            nnue.pop(region)
        assert region[nnue.R_TOP] == 0
    assert crossings > 10                   # kings did cross the mirror line


def test_the_network_sees_both_wings_alike():
    """A position and its a<->h mirror (no castling rights) evaluate the same."""
    region = nnue.quantise(**small_net(4))
    for start, *moves in random_games(6, 9, False):
        board = chess.Board(start)
        for text in moves[:40]:
            board.push_uci(text)
        board.set_castling_fen("-")
        ours, mirror = Board(board.fen()), Board(board.transform(chess.flip_horizontal).fen())
        nnue.start(ours.arrays, region)
        left = nnue.output(ours.arrays, region)
        nnue.start(mirror.arrays, region)
        assert nnue.output(mirror.arrays, region) == left


def accumulators(region: np.ndarray) -> np.ndarray:
    """The current ply's two accumulators."""
    words = region[nnue.R_HIDDEN] // 4
    start = nnue.R_ACC + region[nnue.R_TOP] * 2 * words
    return region[start:start + 2 * words].view(np.int16)


def exact_output(region: np.ndarray, us: int, pieces: int) -> float:
    """The network's output before scaling as nnue.output_sum must form it: the hidden layer's
    sum in Python's integers (exact, so in no particular order), then scaled, then the bias."""
    hidden = int(region[nnue.R_HIDDEN])
    acc = accumulators(region)
    bucket = nnue.output_bucket(pieces)
    w2 = region.view(np.int32)[nnue.Q_W2 + bucket * 2 * hidden:nnue.Q_W2 + (bucket + 1) * 2 * hidden]
    total = 0
    for k, perspective in enumerate((us, 1 - us)):
        for j in range(hidden):
            x = min(max(int(acc[perspective * hidden + j]), 0), nnue.QA)
            total += x * x * int(w2[k * hidden + j])
    unit = region[nnue.R_W2_UNIT:nnue.R_W2_UNIT + 1].view(np.float64)[0]
    return total * unit + float(region.view(np.float32)[nnue.F_B2 + bucket])


def test_the_output_is_the_same_in_any_summing_order():
    """Bit for bit the exact sum, not a float sum a compiler may reorder: a reordered sum rounds
    by the processor's vector width, which made a self-play chunk come out differently on another
    machine (3 games of 165 differed when compiled for plain x86-64, 0 of 400 with this sum)."""
    region = nnue.quantise(**small_net(5))
    for start, *moves in random_games(7, 10, False):
        board = chess.Board(start)
        for text in moves[:50]:
            board.push_uci(text)
        ours = Board(board.fen())
        nnue.start(ours.arrays, region)
        us = 0 if board.turn == chess.WHITE else 1
        assert nnue.output_sum(ours.arrays, region) == exact_output(region, us, len(board.piece_map())), \
            board.fen()


@pytest.mark.parametrize("hidden", [nnue.MAX_HIDDEN, 32])
def test_the_engine_evaluates_as_the_trained_network_does(tmp_path, hidden):
    net = small_net(1, hidden)
    net_file = tmp_path / "net.npz"
    train_nnue.save(net, net_file, {"test": True})
    searcher = Searcher(1)
    searcher.load_network(str(net_file))
    fens = [chess.Board(start).fen() for start, *_ in random_games(1, 6, False)]
    for start, *moves in random_games(8, 7, False):
        board = chess.Board(start)
        for text in moves[:40]:
            board.push_uci(text)
        fens.append(board.fen())
    boards, stm = encode(fens)
    engine = np.array([searcher.static_eval(Board(fen)) for fen in fens])
    assert np.std(engine) > 10
    # Exactly the trainer's network once its first layer is rounded to the int16 grid ...
    w1q = np.round(net["w1"] * nnue.QA) / nnue.QA
    b1q = np.round(net["b1"] * nnue.QA) / nnue.QA
    rounded = train_nnue.forward(boards, stm, w1q.astype(np.float32), b1q.astype(np.float32), net["w2"],
                                 net["b2"]) * nnue.EVAL_SCALE
    assert np.abs(engine - rounded).max() <= 1.01                  # float sums, truncated to cp
    # ... which costs a few centipawns against the float network.
    exact = train_nnue.forward(boards, stm, net["w1"], net["b1"], net["w2"], net["b2"]) * nnue.EVAL_SCALE
    assert np.abs(engine - exact).max() <= 10


def test_the_network_sees_both_colours_alike(net_file):
    searcher = Searcher(1)
    searcher.load_network(net_file)
    for start, *moves in random_games(5, 8, False):
        board = chess.Board(start)
        for text in moves[:30]:
            board.push_uci(text)
        assert searcher.static_eval(Board(board.fen())) == searcher.static_eval(Board(board.mirror().fen()))


def test_search_with_a_network_and_back(net_file):
    searcher = Searcher(1, network="")
    board = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    hand_crafted = searcher.static_eval(board)
    searcher.load_network(net_file)
    assert searcher.network and searcher.static_eval(board) != hand_crafted
    first = searcher.run(board, Limits(depth=5), lambda line: None)
    searcher.clear()
    again = searcher.run(board, Limits(depth=5), lambda line: None)
    assert board.is_legal(first.best) and (first.best, first.nodes) == (again.best, again.nodes)
    searcher.load_network("")
    assert not searcher.network and searcher.static_eval(board) == hand_crafted


def test_uci_evalfile_loads_a_network_and_refuses_a_bad_one(uci, net_file):  # noqa: F811
    def nodes() -> int:
        uci.set_option("Clear Hash")
        uci.position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        return uci.go("depth 6").final()[0]["nodes"]

    uci.set_option("EvalFile", "<empty>")
    hand_crafted = nodes()
    errors = uci.errors_after("setoption name EvalFile value /nonexistent/net.npz")
    assert len(errors) == 1 and "evaluation unchanged" in errors[0]
    assert nodes() == hand_crafted
    uci.send(f"setoption name EvalFile value {net_file}")
    assert any("evaluating with the network" in text for text in uci.sync())
    assert nodes() != hand_crafted
    uci.send("eval")
    assert any(text.startswith("the network (EvalFile") for text in uci.sync())
    uci.set_option("EvalFile", "<empty>")
    assert nodes() == hand_crafted
    uci.send("eval")
    assert not any(text.startswith("the network") for text in uci.sync())


def test_the_shipped_network_is_the_default_and_empty_means_hand_crafted(tmp_path, monkeypatch):
    from eval import shipped

    monkeypatch.setattr(shipped, "SHIPPED_NETWORK", tmp_path / "network.npz")
    assert shipped.default_network() == "" and not Searcher(1).network      # nothing shipped
    train_nnue.save(small_net(5, 32), tmp_path / "network.npz", {"test": True})
    assert shipped.default_network() == str(tmp_path / "network.npz")
    board = Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    default, explicit = Searcher(1), Searcher(1, network=str(tmp_path / "network.npz"))
    assert default.network and default.static_eval(board) == explicit.static_eval(board)
    assert not Searcher(1, network="").network


@pytest.mark.parametrize("fen", ["8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/8/3k4/8/8/8/2B1KN2 b - - 0 1",
                                 "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"])
def test_a_bare_king_is_judged_by_the_hand_crafted_evaluation(net_file, fen):
    """The network never saw these endings played out (games were adjudicated before them): the
    hand-crafted evaluation, whose mop-up drives the bare king to mate, judges them."""
    hand_crafted, network = Searcher(1, network=""), Searcher(1, network=net_file)
    board = Board(fen)
    assert network.static_eval(board) == hand_crafted.static_eval(board)
    board = Board("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1")      # a pawn more and the black king alone ...
    assert network.static_eval(board) == hand_crafted.static_eval(board)
    board = Board("4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 1")    # ... but not once it has a pawn
    assert network.static_eval(board) != hand_crafted.static_eval(board)


def test_a_level_plays_with_the_evaluation_its_row_was_calibrated_with(net_file):
    """The levels up to the hand-crafted top row were calibrated with the hand-crafted evaluation:
    with a network loaded they play exactly as without one. The rows above evaluate with the
    network, and full strength goes back to it."""
    from search.levels import LEVELS, level_for_elo

    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    plain, with_net = Searcher(1, network=""), Searcher(1, network=net_file)
    results = []
    for searcher in (plain, with_net):
        searcher.set_level(level_for_elo(1400), 3)
        searcher.prepare()
        results.append(searcher.run(Board(fen), Limits()))
    assert not with_net.network and (results[0].best, results[0].nodes) == (results[1].best, results[1].nodes)
    top_hand_crafted = max(row.elo for row in LEVELS if not row.network)
    with_net.set_level(level_for_elo(top_hand_crafted), 3)
    assert not with_net.network
    with_net.set_level(level_for_elo(top_hand_crafted + 1), 3)     # still the hand-crafted top row
    assert not with_net.network
    first_network_row = min(row.elo for row in LEVELS if row.network)
    with_net.set_level(level_for_elo(first_network_row), 3)
    plain.set_level(level_for_elo(first_network_row), 3)
    assert with_net.network and not plain.network                  # no network file: hand-crafted
    with_net.set_level(None, 0)
    assert with_net.network and with_net.static_eval(Board(fen)) != plain.static_eval(Board(fen))


def test_the_network_score_is_halved_with_opposite_coloured_bishops(net_file):
    """The engine's score is the network's output cut by the endgame scale: half of it with
    opposite-coloured bishops, all of it otherwise."""
    net = small_net(1)
    w1q, b1q = (np.round(net[k] * nnue.QA).astype(np.float32) / nnue.QA for k in ("w1", "b1"))
    searcher = Searcher(1, network=net_file)

    def raw(fen: str) -> float:
        boards, stm = encode([fen])
        return float(train_nnue.forward(boards, stm, w1q, b1q, net["w2"], net["b2"])[0] * nnue.EVAL_SCALE)

    for fen, share in (("4k3/5p2/8/4b3/8/2P5/1P2B3/4K3 w - - 0 1", 0.5),      # light against dark
                       ("4k3/5p2/8/3b4/8/2P5/1P2B3/4K3 w - - 0 1", 1.0)):     # both light
        assert abs(raw(fen)) > 20
        assert abs(searcher.static_eval(Board(fen)) - raw(fen) * share) <= 1.5


def test_the_wrong_bishop_with_rook_pawns_is_a_draw():
    """Rook pawns, a bishop that does not cover the queening square, and the defending king in
    or next to that corner: a draw however many pawns, which the network (and the hand-crafted evaluation
    without it) must know, within a few centipawns; with the right bishop it is a win. Black's
    a-pawn (which the king takes) keeps the scale on: it is off against a bare king."""
    network, hand_crafted = Searcher(1), Searcher(1, network="")
    assert network.network
    for searcher in (network, hand_crafted):
        assert abs(searcher.static_eval(Board("7k/8/7P/7P/8/p7/1K6/3B4 w - - 0 1"))) <= 30
        assert searcher.static_eval(Board("6k1/8/7P/7P/8/p7/1K6/2B5 w - - 0 1")) > 200
        assert abs(searcher.static_eval(Board("4bk2/p7/8/8/8/8/8/K7 b - - 0 1"))) <= 30   # black's a-pawn
        assert abs(searcher.static_eval(Board("6k1/8/7P/7P/8/p7/1K6/3B4 w - - 0 1"))) <= 30  # next to the corner
        assert searcher.static_eval(Board("5k2/8/7P/7P/8/p7/1K6/3B4 w - - 0 1")) > 200  # too far from it
