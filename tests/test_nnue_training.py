"""The network trainer (tools/training/train_nnue.py): its gradients, what it learns, its score
scale, its weight bounds, and a net from self-play chunks that the engine evaluates with on the
search's centipawn scale."""

from __future__ import annotations

import argparse
import json
import random

import chess
import numpy as np
import pytest

from engine.board import Board
from eval.nnue import EVAL_SCALE, QA
from search.driver import Searcher
from tests.helpers import random_play_fens
from tests.test_nnue import encode
from tools.training import records
from tools.training import train_nnue as nnue
from tools.training.datagen import Generator


def dataset(fens: list[str], scores=None, results=None) -> nnue.Dataset:
    boards, stm = encode(fens)
    n = len(fens)
    return nnue.Dataset(boards, stm, np.asarray(scores if scores is not None else np.zeros(n), dtype=np.float32),
                        np.asarray(results if results is not None else np.full(n, 0.5), dtype=np.float32))


def random_fens(count: int, seed: int) -> list[str]:
    return random_play_fens(count, seed, 4, 60)


def test_the_output_does_not_depend_on_which_colour_is_to_move():
    """A position and its colour-flipped mirror, the other side to move, get the same output."""
    net = nnue.initial_net(16, seed=3)
    fens = random_fens(30, 5)
    original, flipped = encode(fens), encode([chess.Board(fen).mirror().fen() for fen in fens])
    a = nnue.forward(*original, *net.values())
    b = nnue.forward(*flipped, *net.values())
    assert np.allclose(a, b, atol=1e-5)
    assert np.std(a) > 1e-3                    # and the outputs are not all alike


def test_gradients_match_finite_differences():
    net = {k: v.astype(np.float32) for k, v in nnue.initial_net(4, seed=7).items()}
    net["w1"] *= 8                              # some neurons saturated, some not
    boards, stm = encode(random_fens(12, 9))
    target = np.linspace(0.1, 0.9, 12).astype(np.float32)
    rows = np.arange(12, dtype=np.int64)
    _, g1, gb1, g2, gb2 = nnue._gradients(boards, stm, target, rows, net["w1"], net["b1"], net["w2"], net["b2"], 2)
    analytic = {"w1": g1, "b1": gb1, "w2": g2, "b2": gb2}

    def total_error(candidate):
        out = nnue.forward(boards, stm, candidate["w1"], candidate["b1"], candidate["w2"],
                           candidate["b2"]).astype(np.float64)
        return float(np.sum((1 / (1 + np.exp(-out)) - target) ** 2))

    checked = 0
    codes = np.empty(32, dtype=np.int64)
    count = nnue._codes(boards, 0, codes)
    white, _, bucket = nnue._view(codes, count)
    used = np.unique([nnue._feature(int(c), 0, white) for c in codes[:count]])
    probes = [("b2", (bucket,)), ("w2", (bucket, 1)), ("w2", (bucket, 6)), ("b1", (2,)),
              *[("w1", (f, 1)) for f in used[:4]]]
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


def material_positions(count: int, seed: int) -> tuple[list[str], list[int]]:
    """Random positions with pieces taken off, and their material balance for the side to move."""
    values = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}
    rng = random.Random(seed)
    fens, scores = [], []
    for fen in random_fens(count, seed):
        board = chess.Board(fen)
        for square in list(board.piece_map()):
            if board.piece_at(square).piece_type != chess.KING and rng.random() < 0.3:
                board.remove_piece_at(square)
        if board.is_valid():
            fens.append(board.fen())
            scores.append(sum(v * (len(board.pieces(t, board.turn)) - len(board.pieces(t, not board.turn)))
                              for t, v in values.items()))
    return fens, scores


def test_training_learns_material_from_scores():
    """Scores that count material teach the net that a queen up is good for the side that has it."""
    fens, scores = material_positions(3000, 11)
    data = dataset(fens, scores)
    target = data.targets(EVAL_SCALE, 0.0)
    net = nnue.initial_net(16, seed=1)
    before = nnue.loss(data, target, net)
    trained = nnue.train(data, target, net, epochs=40, batch=256, rate=0.01, seed=1, threads=2,
                         report=lambda _: None)
    assert nnue.loss(data, target, trained) < before / 4
    queen_up = encode(["r1b1k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R1BQK2R w KQkq - 0 1",   # as many pieces
                       "r1b1k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R1BQK2R b KQkq - 0 1"])  # as the data has
    white, black = nnue.forward(*queen_up, *trained.values()) * EVAL_SCALE
    assert white > 300 and black < -300


def test_an_adamw_step_is_the_textbook_one():
    """_adamw in place against AdamW written out in numpy (bias-corrected moments, decoupled decay)."""
    rng = np.random.default_rng(5)
    weights, grad = rng.normal(0, 1, (2, 64, 8)).astype(np.float32)
    m, v = rng.normal(0, 0.1, (64, 8)).astype(np.float32), rng.random((64, 8)).astype(np.float32) * 0.01
    count, rate, step = 100, 0.05, 7
    g = grad / count
    m_new, v_new = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
    expected = weights * (1 - rate * nnue.WEIGHT_DECAY) - rate * (m_new / (1 - 0.9 ** step)) / (
        np.sqrt(v_new / (1 - 0.999 ** step)) + 1e-8)
    expected = np.clip(expected, -nnue.CLIP, nnue.CLIP)
    assert np.abs(expected).max() == nnue.CLIP                       # the clip is exercised too
    nnue._adamw(weights, grad, m, v, count, rate, step)
    np.testing.assert_allclose(m, m_new, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(v, v_new, rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(weights, expected, rtol=1e-4, atol=1e-6)


def test_training_twice_with_the_same_seed_gives_the_same_network():
    """The threads always split the rows alike, so a committed command trains the same weights again."""
    fens, scores = material_positions(600, 13)
    data = dataset(fens, scores)
    target = data.targets(EVAL_SCALE, 0.0)
    a, b = (nnue.train(data, target, nnue.initial_net(16, seed=4), epochs=3, batch=128, rate=0.01, seed=2,
                       threads=2, report=lambda _: None) for _ in range(2))
    assert all(np.array_equal(a[name], b[name]) for name in a)


class Interrupted(Exception):
    """A run cut off (by StopAfter)."""


class StopAfter(nnue.Checkpoint):
    """A checkpoint saved after every batch whose run is cut off right after its `saves`-th save."""

    def __init__(self, path, identity, saves):
        super().__init__(path, identity, every=0.0)
        self.saves = saves

    def save(self, net, moments, state):
        super().save(net, moments, state)
        self.saves -= 1
        if self.saves == 0:
            raise Interrupted


@pytest.mark.parametrize("cut", [(0, 1), (1, 0), (1, 2), (3, 0)])  # (epochs done, batches of the next one)
def test_a_run_cut_off_goes_on_from_its_checkpoint_to_the_same_network(tmp_path, cut):
    fens, scores = material_positions(600, 13)
    data = dataset(fens, scores)
    target = data.targets(EVAL_SCALE, 0.0)
    settings = dict(epochs=3, batch=128, rate=0.01, seed=2, threads=2, report=lambda _: None)
    per_epoch = -(-len(data) // 128)                    # a save after every batch, the last one's at the end
    saves = cut[0] * per_epoch + cut[1]
    whole = nnue.train(data, target, nnue.initial_net(16, seed=4), **settings)
    path = tmp_path / "run.checkpoint.npz"
    with pytest.raises(Interrupted):
        nnue.train(data, target, nnue.initial_net(16, seed=4), **settings,
                   checkpoint=StopAfter(path, {"run": 1}, saves))
    lines = []
    resumed = nnue.train(data, target, nnue.initial_net(16, seed=99), **{**settings, "report": lines.append},
                         checkpoint=nnue.Checkpoint(path, {"run": 1}))
    assert all(np.array_equal(whole[name], resumed[name]) for name in whole)
    assert lines[0].startswith(f"taken up from {path}")
    assert sum(line.startswith("epoch") for line in lines) == 3 - cut[0]         # the epochs not yet finished


def test_a_checkpoint_of_another_run_is_refused_and_kept(tmp_path):
    path = tmp_path / "run.checkpoint.npz"
    net = nnue.initial_net(8, seed=1)
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in net.items()}
    nnue.Checkpoint(path, {"seed": 1, "hidden": 8}).save(net, moments, {"epoch": 2})
    with pytest.raises(ValueError, match="differs in seed"):
        nnue.Checkpoint(path, {"seed": 2, "hidden": 8}).load()
    assert nnue.Checkpoint(path, {"seed": 1, "hidden": 8}).load()[2] == {"epoch": 2}
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="delete it"):
        nnue.Checkpoint(path, {}).load()


def test_the_score_scale_is_the_one_the_results_follow():
    rng = np.random.default_rng(3)
    score = rng.normal(0, 300, 200_000)
    for scale in (150.0, 400.0):
        wins = rng.random(score.size) < 1 / (1 + np.exp(-score / scale))
        assert nnue.fit_scale(score, wins.astype(float)) == pytest.approx(scale, rel=0.05)


def test_weights_stay_within_what_quantisation_holds():
    fens, scores = material_positions(400, 12)
    data = dataset(fens, np.array(scores) * 10)
    trained = nnue.train(data, data.targets(EVAL_SCALE, 0.0), nnue.initial_net(8, seed=2), epochs=5, batch=64,
                         rate=0.5, seed=1, threads=2, report=lambda _: None)
    assert max(np.abs(w).max() for w in trained.values()) <= nnue.CLIP
    assert np.abs(trained["w1"]).max() == pytest.approx(nnue.CLIP)          # the bound was needed


@pytest.fixture(scope="module")
def chunks(tmp_path_factory):
    """Two small self-play chunks: one to train on, one to test on."""
    folder = tmp_path_factory.mktemp("selfplay")
    args = argparse.Namespace(nodes=300, hard_nodes=2400, random_plies=(8, 9), balanced=400, chess960=0.0,
                              network=None, games=6, seed=3)
    generator = Generator(args)
    for index in range(2):
        generator.chunk(index, folder / f"chunk-{index:05d}.jfsp.xz", {})
    return folder


def test_the_dataset_packs_every_position_training_uses_and_unpacks_to_the_same_pieces(chunks):
    """Dataset.read keeps 24 bytes of board a position (read chunk by chunk) and gives back the
    pieces, side, score and result that records.Positions reads, for the positions trained on."""
    paths = sorted(chunks.glob("chunk-*.jfsp.xz"))
    data = nnue.Dataset.read(paths)
    whole = records.Positions(paths)
    keep = nnue.trained_on(whole)
    assert 0 < len(data) == keep.sum() < len(whole)                     # some positions are left out
    assert data.boards.dtype == np.uint64 and data.boards.shape == (len(data), 3)
    codes = np.empty(32, dtype=np.int64)
    for row, pieces in enumerate(whole.pieces[keep]):
        count = nnue._codes(data.boards, row, codes)
        assert list(codes[:count]) == [c for c in pieces if c >= 0]     # the squares' order, as the replay's
    assert np.array_equal(data.stm, whole.stm[keep]) and np.array_equal(data.score, whole.score[keep])
    assert np.array_equal(data.result * 2, whole.result[keep])
    # Packing does not depend on the order the pieces come in.
    shuffled = np.full((1, 32), -1, dtype=np.int16)
    first = [c for c in whole.pieces[0] if c >= 0]
    shuffled[0, :len(first)] = first[::-1]
    assert np.array_equal(nnue.pack(shuffled), nnue.pack(whole.pieces[:1]))
    # Two reading processes give the same rows in the same order as one.
    both = nnue.Dataset.read(paths, workers=2)
    assert all(np.array_equal(getattr(both, name), getattr(data, name)) for name in ("boards", "stm", "score", "result"))


def test_command_line_trains_on_chunks_and_the_engine_plays_on_the_search_scale(chunks, tmp_path, capsys):
    out = tmp_path / "net.npz"
    test = chunks / "chunk-00000.jfsp.xz"
    assert nnue.main([str(chunks), "--test", str(test), "--out", str(out), "--hidden", "16", "--epochs", "3",
                      "--batch", "64"]) == 0
    saved = np.load(out)
    settings = eval(str(saved["settings"]).replace("null", "None").replace("true", "True").replace("false", "False"))
    assert saved["w1"].shape == (768, 16) and saved["w2"].shape == (8, 32)
    assert settings["hidden"] == 16 and settings["test_loss"] > 0 and 50 < settings["scale"] < 2000
    train = nnue.Dataset.read([chunks / "chunk-00001.jfsp.xz"])
    assert settings["positions"] == len(train)                          # the test chunk was left out
    assert "score scale K" in capsys.readouterr().err
    # The engine's evaluation is the trained output times K, in centipawns.
    searcher = Searcher(1)
    searcher.load_network(str(out))
    fens = random_fens(10, 21)
    boards, stm = encode(fens)
    net = {k: saved[k] for k in ("w1", "b1")}
    w1q, b1q = np.round(net["w1"] * QA) / QA, np.round(net["b1"] * QA) / QA
    expected = nnue.forward(boards, stm, w1q.astype(np.float32), b1q.astype(np.float32), saved["w2"],
                            saved["b2"]) * EVAL_SCALE
    engine = np.array([searcher.static_eval(Board(fen)) for fen in fens])
    assert np.abs(engine - expected).max() <= 1.01


def test_command_line_stopped_and_run_again_writes_the_network_of_an_unbroken_run(chunks, tmp_path, monkeypatch):
    command = [str(chunks), "--test", str(chunks / "chunk-00000.jfsp.xz"), "--hidden", "16", "--epochs", "2",
               "--batch", "64", "--checkpoint-minutes", "0"]
    assert nnue.main([*command, "--out", str(tmp_path / "whole.npz")]) == 0
    out = tmp_path / "net.npz"
    with monkeypatch.context() as patch:
        patch.setattr(nnue, "Checkpoint", lambda path, identity, every: StopAfter(path, identity, 3))
        with pytest.raises(Interrupted):
            nnue.main([*command, "--out", str(out)])
    checkpoint = tmp_path / "net.checkpoint.npz"
    assert checkpoint.exists() and not out.exists()
    # Another run's command does not take it up, nor overwrite it.
    with pytest.raises(SystemExit) as exit_info:
        nnue.main([*command, "--out", str(out), "--seed", "5"])
    assert exit_info.value.code == 2 and checkpoint.exists()
    assert nnue.main([*command, "--out", str(out)]) == 0
    assert not checkpoint.exists() and not (tmp_path / "whole.checkpoint.npz").exists()
    with np.load(out) as resumed, np.load(tmp_path / "whole.npz") as whole:
        assert all(np.array_equal(resumed[name], whole[name]) for name in ("w1", "b1", "w2", "b2"))


def test_command_line_refuses_bad_settings(chunks, tmp_path):
    for bad in (["--hidden", "12"], ["--hidden", "520"], ["--result-weight", "2"], ["--epochs", "0"],
                ["--checkpoint-minutes", "-1"]):
        with pytest.raises(SystemExit) as exit_info:
            nnue.main([str(chunks), "--test", str(chunks / "chunk-00000.jfsp.xz"), "--out", str(tmp_path / "n.npz"),
                       *bad])
        assert exit_info.value.code == 2
    with pytest.raises(SystemExit):
        nnue.main([str(tmp_path / "nowhere"), "--out", str(tmp_path / "n.npz")])


def test_fine_tuning_starts_from_the_saved_network_on_its_centipawn_scale(chunks, tmp_path):
    """--init takes up a saved network: before any step it computes the same centipawns whatever
    K the new data fit, and training goes on from there (the settings say from which)."""
    start = nnue.initial_net(16, seed=4)
    saved_file = tmp_path / "start.npz"
    nnue.save(start, saved_file, {"hidden": 16}, scale=150.0)
    fens = random_fens(20, 23)
    boards, stm = encode(fens)
    with np.load(saved_file) as saved:
        centipawns = nnue.forward(boards, stm, saved["w1"], saved["b1"], saved["w2"], saved["b2"]) * EVAL_SCALE
    for scale in (120.0, 150.0, 300.0):
        taken_up = nnue.trained_form(nnue.read_network(saved_file)[0], scale)
        again = nnue.forward(boards, stm, taken_up["w1"], taken_up["b1"], taken_up["w2"], taken_up["b2"]) * scale
        assert np.allclose(again, centipawns, atol=1e-3)
    out = tmp_path / "tuned.npz"
    assert nnue.main([str(chunks), "--test", str(chunks / "chunk-00000.jfsp.xz"), "--out", str(out),
                      "--init", str(saved_file), "--epochs", "1", "--rate", "0.001", "--batch", "64"]) == 0
    with np.load(out) as tuned:
        settings = json.loads(str(tuned["settings"]))
        assert tuned["w1"].shape == (768, 16) and not np.array_equal(tuned["w1"], start["w1"])
        assert settings["hidden"] == 16 and settings["init"]["file"] == "start.npz"
    for bad in (tmp_path / "nowhere.npz", chunks / "chunk-00000.jfsp.xz"):
        with pytest.raises(SystemExit) as exit_info:
            nnue.main([str(chunks), "--out", str(tmp_path / "n.npz"), "--init", str(bad)])
        assert exit_info.value.code == 2
