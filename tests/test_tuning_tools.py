"""The evaluation-tuning tools: self-play data in resumable chunks (tools/training/gen_tuning_data.py) and
the Texel tuner's labels, blended from game results and search scores (tools/training/tune.py)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import chess
import numpy as np
import pytest

from eval.params import LAYOUT, weights
from tests.helpers import random_play_fens
from tools.training import gen_tuning_data, tune

JITFISH = f"{shlex.quote(sys.executable)} -m jitfish.cli"


def openings_file(tmp_path: Path) -> str:
    path = tmp_path / "openings.epd"
    path.write_text("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
                    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n")
    return str(path)


def generate(tmp_path: Path, out_dir: Path, chunks: str, *extra: str) -> int:
    return gen_tuning_data.main(["--engine", JITFISH, "--nodes", "400", "--out-dir", str(out_dir),
                                 "--chunks", chunks, "--chunk-games", "1", "--max-plies", "24",
                                 "--skip-plies", "2", "--openings", openings_file(tmp_path), "--seed", "7",
                                 *extra])


def test_chunks_are_complete_resumable_and_deterministic(tmp_path):
    out_dir = tmp_path / "data"
    assert generate(tmp_path, out_dir, "2") == 0
    first, second = (out_dir / "chunk-00000.txt", out_dir / "chunk-00001.txt")
    lines = first.read_text().splitlines() + second.read_text().splitlines()
    assert len(lines) > 10 and not list(out_dir.glob("*.part"))
    for line in lines:
        fen, result, score = (field.strip() for field in line.split("|"))
        board = chess.Board(fen)
        assert board.is_valid() and not board.is_check()
        assert result == "0.5"              # 24 plies end as a draw by --max-plies
        assert abs(int(score)) < 2000
    kept, lost = first.stat().st_mtime_ns, second.read_text()
    second.unlink()
    assert generate(tmp_path, out_dir, "0:2") == 0
    assert first.stat().st_mtime_ns == kept                 # a finished chunk is not played again
    assert second.read_text() == lost                       # a lost one comes back the same


def test_chess960_games_give_positions_the_tuner_reads(tmp_path):
    out_dir = tmp_path / "data960"
    assert generate(tmp_path, out_dir, "1", "--chess960", "1") == 0
    fens = [line.split("|")[0].strip() for line in (out_dir / "chunk-00000.txt").read_text().splitlines()]
    assert fens and all(chess.Board(fen, chess960=True).is_valid() for fen in fens)
    # not from the openings file, whose games all start with 1. e4 or 1. d4
    assert any(chess.Board(fen, chess960=True).piece_at(chess.E1) != chess.Piece(chess.KING, chess.WHITE)
               for fen in fens)
    labels = list(tune.read_labels([out_dir / "chunk-00000.txt"]))
    assert len(labels) == len(fens)
    dataset = tune.Dataset([str(out_dir)], quiet_margin=10_000)
    assert len(dataset) == len(fens)


def test_labels_are_read_once_per_position_and_bad_lines_skipped(tmp_path):
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    data = tmp_path / "chunk-00000.txt"
    data.write_text(f"{start} | 1.0 | 35\n"
                    f"{start.replace(' 0 1', ' 4 9')} | 0.0 | -20\n"    # the same position again
                    "8/8/8/8/8/8/8/K6k w - - 0 1 | 0.5\n"
                    "# a comment | 1.0\n"
                    "not a fen at all\n"
                    "8/8/8/8/8/8/8/K5k1 w - - 0 1 | 0.7 | 3\n"          # not a game result
                    "8/8/8/8/8/8/8/K4k2 w - - 0 1 | 1.0 | many\n")
    labels = list(tune.read_labels(tune.data_files([str(tmp_path)])))
    assert [(fen[:8], result) for fen, result, _ in labels] == [("rnbqkbnr", 1.0), ("8/8/8/8/", 0.5)]
    assert labels[0][2] == 35.0 and np.isnan(labels[1][2])


def test_blend_mixes_result_and_score():
    result = np.array([1.0, 0.0, 0.5])
    score = np.array([0.0, 400.0, np.nan])
    target = tune.blend(result, score, 1.0, 0.25)
    assert target[0] == pytest.approx(0.25 * 1.0 + 0.75 * 0.5)
    assert target[1] == pytest.approx(0.75 * (1 / (1 + 10 ** -1)))
    assert target[2] == 0.5                                   # no score: the result alone
    assert np.array_equal(tune.blend(result, score, 1.0, 1.0), result)


def random_positions(count: int, seed: int) -> list[str]:
    return random_play_fens(count, seed, 6, 40)


def test_tuner_fits_the_weights_the_scores_come_from(tmp_path):
    """Scores made by the evaluation with the tempo bonus raised by 40 cp pull the tuned tempo
    bonus up towards it, with the results given no weight."""
    data = tmp_path / "positions.txt"
    data.write_text("".join(f"{fen} | 0.5\n" for fen in random_positions(400, 11)))
    dataset = tune.Dataset([str(data)], quiet_margin=10_000)
    w0 = weights().astype(np.float64)
    tempo = next(offset for name, offset, _ in LAYOUT if name == "tempo")
    truth = w0.copy()
    truth[tempo] += 40
    dataset.score = tune._evals(dataset.indptr, dataset.indices, dataset.values, dataset.phase, dataset.scale,
                                dataset.extra, truth)
    dataset.target = tune.blend(dataset.result, dataset.score, 1.0, 0.0)
    assert tune.loss(dataset, truth, 1.0) < 1e-12
    fitted = tune.tune(dataset, dataset, w0, 1.0, epochs=300, rate=1.0, l2=0.0)
    assert tune.loss(dataset, fitted, 1.0) < tune.loss(dataset, w0, 1.0) / 4
    assert fitted[tempo].mean() - w0[tempo].mean() > 20


def test_too_little_data_is_a_clear_error(tmp_path, capsys):
    data = tmp_path / "few.txt"
    data.write_text("".join(f"{fen} | 0.5\n" for fen in random_positions(20, 3)))
    with pytest.raises(SystemExit) as exit_info:
        tune.main([str(data)])
    assert exit_info.value.code == 2
    assert "too few to tune" in capsys.readouterr().err
