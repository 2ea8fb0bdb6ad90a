"""The human model's trainer (tools/calibration/train_human.py): several extracts fit as one."""

import numpy as np
import pytest

from engine.board import Board
from search.human_model import FeatureSearch
from tests.test_human import POSITIONS
from tools.calibration.train_human import Data


def write_extract(path, fens: list[str], deep: int = 3, network: str = "") -> None:
    search, raws = FeatureSearch(), []
    for fen in fens:
        raws.append(search.raw(Board(fen), deep)[1])
    counts = [len(r) for r in raws]
    np.savez(path, raw=np.concatenate(raws).astype(np.int32), offsets=np.concatenate([[0], np.cumsum(counts)]),
             chosen=np.array([c // 2 for c in counts], dtype=np.int32),
             rating=np.array([1200 + 100 * (c % 7) for c in counts], dtype=np.int32),
             ids=np.array([f"test:{i}:{i}" for i in range(len(fens))]),
             engine=np.zeros(len(fens), dtype=np.int32), deep=deep, network=network)


def test_two_extracts_are_the_data_of_one(tmp_path):
    write_extract(tmp_path / "a.npz", POSITIONS[:3])
    write_extract(tmp_path / "b.npz", POSITIONS[3:])
    write_extract(tmp_path / "all.npz", POSITIONS)
    joined, whole = Data([tmp_path / "a.npz", tmp_path / "b.npz"]), Data(tmp_path / "all.npz")
    assert np.array_equal(joined.offsets, whole.offsets) and np.array_equal(joined.target, whole.target)
    assert np.array_equal(joined.dense, whole.dense) and np.array_equal(joined.group, whole.group)
    assert np.array_equal(joined.rating, whole.rating) and np.array_equal(joined.squares, whole.squares)
    assert joined.deep == 3 and len(joined.chosen) == len(POSITIONS)


def test_extracts_of_different_depths_or_evaluations_do_not_mix(tmp_path):
    write_extract(tmp_path / "a.npz", POSITIONS[:2], deep=3)
    write_extract(tmp_path / "b.npz", POSITIONS[2:4], deep=2)
    with pytest.raises(ValueError, match="different depths"):
        Data([tmp_path / "a.npz", tmp_path / "b.npz"])
    write_extract(tmp_path / "c.npz", POSITIONS[4:6], network="net.npz")     # scored as if by a network
    with pytest.raises(ValueError, match="different evaluations"):
        Data([tmp_path / "a.npz", tmp_path / "c.npz"])
