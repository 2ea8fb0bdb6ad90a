"""The rated games' split with training-only files (tools/calibration/human_games.py, issue 71)
and the board policy's trainer on several extracts, resumed (tools/calibration/train_policy.py):
on made-up games, so the shared games need not be here."""

import gzip

import numpy as np
import pytest

from tools.calibration import human_games, train_policy
from tools.calibration.human_games import Game

RAPID = "lichess-rapid-2020-2022-58k.pgn.gz"
OPENING = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "e1g1", "e8g8")


def test_moves_are_kept_as_sixteen_bits_and_read_back():
    for move in ("e2e4", "a1h8", "h8a1", "g7g8q", "b2a1n", "c7c8r", "f2f1b", "e1g1"):
        assert human_games._decode(human_games._encode(move)) == move


def test_a_game_of_a_training_only_file_is_never_held_out():
    assert Game("lichess-2018-06-10k.pgn", 4, 1500, 1500, ()).held_out
    assert not Game("lichess-2018-06-10k.pgn", 3, 1500, 1500, ()).held_out
    assert not Game(RAPID, 4, 1500, 1500, ()).held_out


def test_the_training_only_games_leave_out_old_ones_and_copies_of_held_out_games(monkeypatch, tmp_path):
    held = Game("lichess-2018-06-10k.pgn", 4, 1500, 1500, OPENING)
    split = [Game("lichess-2018-06-10k.pgn", 3, 1500, 1500, OPENING[:10]), held]
    rapid = [Game(RAPID, 0, 1500, 1500, OPENING[:10]),     # the moves of a training game: kept
             Game(RAPID, 1, 1500, 1500, OPENING),          # a held-out game's moves: left out
             Game(RAPID, 2, 1500, 1500, OPENING[:8]),      # 2017: left out
             Game(RAPID, 4, 1500, 1500, OPENING[:6])]      # index 4: a training game all the same
    (tmp_path / RAPID).write_bytes(b"")
    monkeypatch.setattr(human_games.paths, "data_file", lambda name: tmp_path / name.split("/")[-1])
    monkeypatch.setattr(human_games, "cached_games", lambda name: (rapid, (2022, 2021, 2017, 2019)))
    assert [g.index for g in human_games.training_only_games(split)] == [0, 4]


def test_a_gzip_file_in_san_is_read_and_its_cache_gives_the_same_games(monkeypatch, tmp_path):
    pgn = ('[Event "Rated rapid game"]\n[Site "https://lichess.org/aaaaaaaa"]\n[Date "2021.03.04"]\n'
           '[WhiteElo "1400"]\n[BlackElo "1500"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O 1-0\n\n'
           '[Event "Rated rapid game"]\n[Date "2022.01.02"]\n[WhiteElo "?"]\n[BlackElo "1500"]\n\n1. d4 1-0\n\n'
           '[Event "Rated rapid game"]\n[Date "2020.05.06"]\n[WhiteElo "1600"]\n[BlackElo "1700"]\n\n'
           '1. a4 b5 2. axb5 a6 3. bxa6 Bb7 4. axb7 Nc6 5. bxa8=N 0-1\n')
    (tmp_path / "human").mkdir()
    with gzip.open(tmp_path / "human" / "games.pgn.gz", "wt") as handle:
        handle.write(pgn)
    monkeypatch.setenv("JITFISH_DATA", str(tmp_path))
    monkeypatch.setattr(human_games.paths, "ROOT", tmp_path)
    human_games.cached_games.cache_clear()
    try:
        games, years = human_games.cached_games("human/games.pgn.gz")
        assert human_games.cache_path("human/games.pgn.gz").is_file()
        human_games.cached_games.cache_clear()
        again = human_games.cached_games("human/games.pgn.gz")
    finally:
        human_games.cached_games.cache_clear()
    assert [g.index for g in games] == [0, 2] and years == (2021, 2020)
    assert games[0].moves == ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1")
    assert games[1].moves[-1] == "b7a8n" and (games[1].white_elo, games[1].black_elo) == (1600, 1700)
    assert again == (games, years)


@pytest.fixture
def made_up_training_games(monkeypatch):
    games = [Game("a.pgn", index, 1200 + 50 * index, 1500, OPENING[:8 + index % 5]) for index in range(30)]
    games += [Game(RAPID, index, 1800, 1700, OPENING[:6 + index % 7]) for index in range(30)]
    monkeypatch.setattr(human_games, "all_games", lambda: games)
    monkeypatch.setattr(train_policy, "training_games", human_games.training_games)


def test_parts_fit_as_one_extract_and_a_resumed_fit_is_the_fit_in_one_go(made_up_training_games, tmp_path):
    train_policy.extract(tmp_path / "all.npz")
    train_policy.extract(tmp_path / "p.npz", chunk=20)
    train_policy.extract(tmp_path / "p.npz", chunk=20)                 # the parts there are kept
    parts = sorted(tmp_path.glob("p.part*.npz"))
    assert [p.name for p in parts] == ["p.part00.npz", "p.part01.npz", "p.part02.npz"]
    train_policy.extract(tmp_path / "rapid.npz", sources=[RAPID])
    with np.load(tmp_path / "rapid.npz") as rapid:
        assert set(rapid["game"].tolist()) == set(range(30)) and all(str(i).startswith(RAPID) for i in rapid["ids"])

    def weights(path):
        with np.load(path) as data:
            return {key: data[key] for key in data.files}

    train_policy.fit(tmp_path / "all.npz", 8, 3, 0.01, 16, 0.0, 1, tmp_path / "one.npz")
    train_policy.fit(parts, 8, 2, 0.01, 16, 0.0, 1, tmp_path / "two.npz", checkpoint=tmp_path / "c.checkpoint.npz")
    train_policy.fit(parts, 8, 3, 0.01, 16, 0.0, 1, tmp_path / "three.npz", checkpoint=tmp_path / "c.checkpoint.npz")
    one, three = weights(tmp_path / "one.npz"), weights(tmp_path / "three.npz")
    assert all(np.array_equal(one[key], three[key]) for key in one)
    assert not np.array_equal(one["w1"], weights(tmp_path / "two.npz")["w1"])


def test_a_fit_in_slices_is_the_same_fit_up_to_rounding_and_repeats_exactly(made_up_training_games, tmp_path):
    train_policy.extract(tmp_path / "all.npz")

    def fitted(name, threads):
        train_policy.fit(tmp_path / "all.npz", 8, 3, 0.01, 16, 0.0, 1, tmp_path / name, threads=threads)
        with np.load(tmp_path / name) as data:
            return {key: data[key].astype(np.float64) for key in data.files}

    one, two, again, three = fitted("1.npz", 1), fitted("2.npz", 2), fitted("2b.npz", 2), fitted("3.npz", 3)
    for key in one:
        assert np.array_equal(two[key], again[key])
        assert np.allclose(one[key], two[key], atol=1e-5) and np.allclose(one[key], three[key], atol=1e-5)
    assert np.abs(one["w1"]).max() > 0.01                              # it did learn something to compare
