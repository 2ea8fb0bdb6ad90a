"""The human model's trainer (tools/calibration/train_human.py): several extracts fit as one."""

from dataclasses import replace
from itertools import islice

import numpy as np
import pytest

from engine.board import Board
from search import human_policy
from search.human_model import DENSE, FeatureSearch, scaled_rating
from tools.calibration import human_games
from tools.calibration.human_games import Game, fold, game_index
from tools.calibration.train_human import Data, extract, shipped_policy, unseen_policy


# Made-up games (the rated games need not be here): the trainer replays a position from its id.
OPENINGS = {0: "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 e1g1 e8g8 b1d2 a7a6 c4b3 c5a7",
            1: "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7 a1c1 c7c6 f1d3 d5c4",
            5: "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 e1g1 f8e7 d2d3 e8g8",
            28: "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7"}   # watched


@pytest.fixture(autouse=True)
def made_up_games(monkeypatch):
    games = [Game("made-up.pgn", index, 1200 + 100 * index, 1500, tuple(moves.split()))
             for index, moves in OPENINGS.items()]
    monkeypatch.setattr(human_games, "all_games", lambda: games)


def training_positions(count: int) -> list:
    """The first `count` positions of the training games (real ids: the trainer replays them)."""
    return list(islice(human_games.positions(human_games.training_games()), count))


def write_extract(path, chosen: list, deep: int = 3, network: str = "") -> None:
    search, raws, picks = FeatureSearch(), [], []
    for position in chosen:
        board = Board()
        for uci in position.history:
            board.push_uci(uci)
        moves, raw = search.raw(board, deep)
        raws.append(raw)
        picks.append(moves.index(board.parse_uci(position.human_move)))
    counts = [len(r) for r in raws]
    np.savez(path, raw=np.concatenate(raws).astype(np.int32), offsets=np.concatenate([[0], np.cumsum(counts)]),
             chosen=np.array(picks, dtype=np.int32), rating=np.array([p.mover_elo for p in chosen], dtype=np.int32),
             ids=np.array([p.id for p in chosen]), engine=np.zeros(len(chosen), dtype=np.int32), deep=deep,
             network=network)


def test_two_extracts_are_the_data_of_one(tmp_path):
    chosen = training_positions(12)
    write_extract(tmp_path / "a.npz", chosen[:3])
    write_extract(tmp_path / "b.npz", chosen[3:])
    write_extract(tmp_path / "all.npz", chosen)
    policy = shipped_policy()
    joined, whole = Data([tmp_path / "a.npz", tmp_path / "b.npz"], policy), Data(tmp_path / "all.npz", policy)
    assert np.array_equal(joined.offsets, whole.offsets) and np.array_equal(joined.target, whole.target)
    assert np.array_equal(joined.dense, whole.dense) and np.array_equal(joined.group, whole.group)
    assert np.array_equal(joined.rating, whole.rating) and np.array_equal(joined.squares, whole.squares)
    assert joined.deep == 3 and len(joined.chosen) == len(chosen)


def test_extracts_of_different_depths_or_evaluations_do_not_mix(tmp_path):
    chosen = training_positions(6)
    write_extract(tmp_path / "a.npz", chosen[:2], deep=3)
    write_extract(tmp_path / "b.npz", chosen[2:4], deep=2)
    with pytest.raises(ValueError, match="different depths"):
        Data([tmp_path / "a.npz", tmp_path / "b.npz"], shipped_policy())
    write_extract(tmp_path / "c.npz", chosen[4:6], network="net.npz")     # scored as if by a network
    with pytest.raises(ValueError, match="different evaluations"):
        Data([tmp_path / "a.npz", tmp_path / "c.npz"], shipped_policy())


def test_the_policy_feature_is_the_folds_policy_at_the_players_rating(tmp_path):
    """Each position's policy column comes from the policy of its game's fold (out of fold: the
    fit never sees a logit of a policy trained on that game), at the mover's rating until
    at_rating moves it; the board inputs are the Chooser's."""
    start = training_positions(100)
    chosen = [p for p in start if p.game.index == 0][:3] + [p for p in start if p.game.index == 5][:3]
    assert [fold(p.game.index, 2) for p in chosen] == [0, 0, 0, 1, 1, 1]
    write_extract(tmp_path / "a.npz", chosen)
    policies = [human_policy.shipped(), replace(human_policy.shipped(), bias=human_policy.shipped().bias + 1.0)]
    data = Data(tmp_path / "a.npz", lambda pid: policies[fold(game_index(pid), 2)])
    for i, position in enumerate(chosen):
        board = Board()
        for uci in position.history:
            board.push_uci(uci)
        policy = policies[fold(position.game.index, 2)]
        column = data.dense[data.offsets[i]:data.offsets[i + 1], DENSE.index("policy")]
        r = float(scaled_rating(position.mover_elo))
        assert np.allclose(column, policy.logits(*human_policy.inputs(board, board.legal_moves()), r))
        data.at_rating(np.full(len(chosen), 2500.0))
        assert np.allclose(data.dense[data.offsets[i]:data.offsets[i + 1], DENSE.index("policy")],
                           policy.logits(*human_policy.inputs(board, board.legal_moves()), float(scaled_rating(2500))))
        data.at_rating(data.rating)


def test_the_watched_games_extract_records_its_depth_and_takes_one_unseen_policy(tmp_path):
    """`extract --watched` takes the positions of the games the board policy never trains on
    (index 28: 28 % 25 == 3), records the depth its moves were searched at, and a fit with one
    policy accepts those positions and refuses any other (a logit of a policy that saw the game)."""
    extract(tmp_path / "w.npz", every=2, held_out=False, limit=None, only_watched=True)
    with np.load(tmp_path / "w.npz") as data:
        ids, deep = [str(pid) for pid in data["ids"]], int(data["deep"])
        arrays = {key: data[key] for key in data.files}
    assert ids and all(game_index(pid) == 28 for pid in ids) and deep == 3
    np.savez(tmp_path / "we.npz", **arrays, engine=np.zeros(len(ids), dtype=np.int32))
    policy = tmp_path / "p.npz"
    human_policy.shipped().save(policy)
    Data(tmp_path / "we.npz", unseen_policy(policy))
    write_extract(tmp_path / "seen.npz", training_positions(2))          # game 0: trained on
    with pytest.raises(ValueError, match="trained on this game"):
        Data(tmp_path / "seen.npz", unseen_policy(policy))
