"""The network trainer (tools/training/train_nnue.py): its input encoding, its gradients and that it
learns what its data says."""

from __future__ import annotations

import random

import chess
import numpy as np
import pytest

from tests.helpers import random_play_fens
from tools.training import train_nnue as nnue

START = chess.STARTING_FEN


def encode(fens: list[str]) -> nnue.Positions:
    data = nnue.Positions.__new__(nnue.Positions)
    encoded = [nnue.fen_pieces(fen) for fen in fens]
    data.pieces = np.array([p for p, _ in encoded], dtype=np.int16)
    data.stm = np.array([s for _, s in encoded], dtype=np.int8)
    data.target = np.full(len(fens), 0.5, dtype=np.float32)
    data.castling = np.array([fen.split()[2] != "-" for fen in fens], dtype=bool)
    return data


def test_pieces_are_encoded_by_colour_type_and_square():
    pieces, black = nnue.fen_pieces(START)
    assert black == 0 and (pieces >= 0).sum() == 32
    assert 0 * 384 + 5 * 64 + chess.E1 in pieces            # white king
    assert 1 * 384 + 4 * 64 + chess.D8 in pieces            # black queen
    assert nnue.fen_pieces("8/8/8/8/8/8/8/K6k b - - 0 1")[1] == 1


def random_fens(count: int, seed: int) -> list[str]:
    return random_play_fens(count, seed, 4, 60)


def test_mirrors_add_the_file_flipped_positions_without_castling_rights():
    fens = [START, "4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1", "4k3/8/8/8/3n4/8/8/4K3 b - - 0 1"]
    data = encode(fens)
    data.target = np.array([0.5, 0.8, 0.3], dtype=np.float32)
    both = data.with_mirrors()
    assert len(both) == 5                                   # the start position keeps its rights
    flipped = [chess.Board(fen).transform(chess.flip_horizontal).fen() for fen in fens[1:]]
    for k, fen in enumerate(flipped):
        pieces, black = nnue.fen_pieces(fen)
        assert sorted(both.pieces[3 + k]) == sorted(pieces) and both.stm[3 + k] == black
    assert list(both.target[3:]) == pytest.approx([0.8, 0.3])


def test_the_output_does_not_depend_on_which_colour_is_to_move():
    """A position and its colour-flipped mirror, the other side to move, get the same output."""
    net = nnue.initial_net(16, seed=3)
    fens = random_fens(30, 5)
    mirrored = [chess.Board(fen).mirror().fen() for fen in fens]
    original, flipped = encode(fens), encode(mirrored)
    a = nnue.forward(original.pieces, original.stm, *net.values())
    b = nnue.forward(flipped.pieces, flipped.stm, *net.values())
    assert np.allclose(a, b, atol=1e-5)
    assert np.std(a) > 1e-3                    # and the outputs are not all alike


def test_gradients_match_finite_differences():
    net = {k: v.astype(np.float32) for k, v in nnue.initial_net(4, seed=7).items()}
    net["w1"] *= 8                              # some neurons saturated, some not
    data = encode(random_fens(12, 9))
    data.target = np.linspace(0.1, 0.9, 12).astype(np.float32)
    rows = np.arange(12, dtype=np.int64)
    _, g1, gb1, g2, gb2 = nnue._gradients(data.pieces, data.stm, data.target, rows, net["w1"], net["b1"],
                                          net["w2"], net["b2"], 2)
    analytic = {"w1": g1, "b1": gb1, "w2": g2, "b2": np.array([gb2])}

    def total_error(candidate):
        out = nnue.forward(data.pieces, data.stm, candidate["w1"], candidate["b1"], candidate["w2"],
                           candidate["b2"]).astype(np.float64)
        return float(np.sum((1 / (1 + np.exp(-out)) - data.target) ** 2))

    checked = 0
    used = np.unique([nnue._feature(int(c), 0) for c in data.pieces[0] if c >= 0])
    probes = [("b2", (0,)), ("w2", (1,)), ("w2", (6,)), ("b1", (2,)), *[("w1", (f, 1)) for f in used[:4]]]
    for name, index in probes:
        step = 1e-2
        up = {k: v.astype(np.float64) for k, v in net.items()}
        down = {k: v.astype(np.float64) for k, v in net.items()}
        up[name][index] += step
        down[name][index] -= step
        numeric = (total_error(up) - total_error(down)) / (2 * step)
        assert analytic[name][index] == pytest.approx(numeric, rel=0.05, abs=1e-4), (name, index)
        checked += abs(numeric) > 1e-4
    assert checked >= 4                         # most of them are not trivially zero


def test_training_learns_material_from_scores():
    """Scores that count material (a pawn 100, a knight 300, ...) teach the net that a queen up is
    good for the side that has it."""
    values = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}
    rng = random.Random(13)
    fens, targets = [], []
    for fen in random_fens(3000, 11):
        board = chess.Board(fen)
        for square in list(board.piece_map()):
            piece = board.piece_at(square)
            if piece.piece_type != chess.KING and rng.random() < 0.3:
                board.remove_piece_at(square)
        if not board.is_valid():
            continue
        material = sum(v * (len(board.pieces(t, board.turn)) - len(board.pieces(t, not board.turn)))
                       for t, v in values.items())
        fens.append(board.fen())
        targets.append(1 / (1 + np.exp(-material / nnue.EVAL_SCALE)))
    data = encode(fens)
    data.target = np.array(targets, dtype=np.float32)
    net = nnue.initial_net(16, seed=1)
    before = nnue.loss(data, net)
    trained = nnue.train(data, data, net, epochs=40, batch=256, rate=0.01, seed=1, threads=2,
                         report=lambda _: None)
    assert nnue.loss(data, trained) < before / 4
    queen_up = encode(["4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"])
    white, black = nnue.forward(queen_up.pieces, queen_up.stm, *trained.values()) * nnue.EVAL_SCALE
    assert white > 300 and black < -300


def test_command_line_trains_and_saves(tmp_path):
    data = tmp_path / "chunk-00000.txt"
    lines = []
    for k, fen in enumerate(random_fens(500, 17)):
        lines.append(f"{fen} | {('1.0', '0.5', '0.0')[k % 3]} | {(k % 7 - 3) * 40}\n")
    data.write_text("".join(lines) + f"{START} | 0.5\n")          # no score: skipped
    out = tmp_path / "net.npz"
    assert nnue.main([str(tmp_path), "--out", str(out), "--hidden", "8", "--epochs", "2",
                      "--batch", "64"]) == 0
    saved = np.load(out)
    assert saved["w1"].shape == (768, 8) and saved["w2"].shape == (16,)
    assert '"hidden": 8' in str(saved["settings"])
