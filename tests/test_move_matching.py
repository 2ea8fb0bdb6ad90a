"""The move-matching harness (tools/calibration/move_matching.py): what it counts as a match, its
intervals and its table, on a handful of made-up positions (the rated games need not be here)."""

from pathlib import Path

import pytest

from tools.calibration import move_matching
from tools.calibration.human_games import BANDS, Game, Position


@pytest.fixture
def bands(monkeypatch):
    """Two positions a band: the human played e2e4 at the start and e7e5 after it."""
    game = Game("made-up.pgn", 4, 1500, 1500, ("e2e4", "e7e5"))
    sample = {lo: [Position(game, 0), Position(game, 1)] for lo in BANDS}
    monkeypatch.setattr(move_matching, "band_positions", lambda count=400: sample)
    return sample


def test_a_match_is_the_humans_move_and_a_record_of_another_folder_reads_too(tmp_path: Path, bands):
    move_matching.write_record(tmp_path / "a" / "moves-P.tsv", "P", 1,
                               {"made-up.pgn:4:0": "e2e4", "made-up.pgn:4:1": "d7d5"})
    move_matching.write_record(tmp_path / "b" / "moves-Q.tsv", "Q", 1, {"made-up.pgn:4:0": "e2e4"})
    assert move_matching.scores("P", tmp_path / "a") == {lo: (1, 2) for lo in BANDS}
    assert move_matching.scores(f"{tmp_path / 'b'}/Q", tmp_path / "a") == {lo: (1, 1) for lo in BANDS}
    text = move_matching.table(["P", f"{tmp_path / 'b'}/Q"], tmp_path / "a")
    assert "| 1100-1299 | 50.0% (" in text and "100.0% (" in text


def test_wilson_interval_holds_the_proportion_and_narrows_with_more_positions():
    low, high = move_matching.wilson(40, 100)
    assert low < 0.40 < high and round(low, 3) == 0.309 and round(high, 3) == 0.498
    assert move_matching.wilson(400, 1000)[1] - move_matching.wilson(400, 1000)[0] < high - low
    assert move_matching.wilson(0, 0) == (0.0, 1.0)


def test_the_standard_sample_is_the_start_of_a_larger_one(monkeypatch):
    """The 400 positions a band of the standard table are the first 400 of the 1,200 sample, so one
    record serves both tables (Python's sample draws both the same way: up to 1,365 of over 4,117)."""
    from tools.calibration import human_games

    games = [Game("made-up.pgn", 5 * i + 4, 1710, 1750, ("e2e4",) * 110) for i in range(50)]
    monkeypatch.setattr(human_games, "all_games", lambda: games)
    small, large = human_games.held_out_sample(1700, 400), human_games.held_out_sample(1700, 1200)
    assert len({p.id for p in large}) == 1200
    assert [p.id for p in large[:400]] == [p.id for p in small]
