"""The calibration kit: the floor anchors play legal (and, for greedy, greedy) moves over UCI,
the rating fit recovers known ratings from simulated games, and the comparison of two sets of
games measures how far a rating moved."""

import io
import json
import os
import random
import re
import subprocess
import sys

import chess
import chess.pgn
import pytest

from tools.calibration.calibrate import compare, fit, pairing_done, report
from tools.calibration.humanlike import CLIP, game_losses
from tools.paths import stockfish
from tests.uci_driver import ROOT


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_anchor_engines_speak_uci(kind):
    fen = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3"   # Bxg5 wins the queen
    commands = "uci\nisready\n" + f"position fen {fen}\ngo movetime 10\n" * 5 + "quit\n"
    out = subprocess.run([sys.executable, "-m", "tools.calibration.anchors", kind], input=commands, capture_output=True,
                         text=True, cwd=ROOT, timeout=60).stdout.split("\n")
    assert "uciok" in out and "readyok" in out
    moves = [line.split()[1] for line in out if line.startswith("bestmove")]
    board = chess.Board(fen)
    assert len(moves) == 5 and all(chess.Move.from_uci(m) in board.legal_moves for m in moves)
    if kind == "greedy":
        assert set(moves) == {"c1g5"}


def test_fit_recovers_simulated_ratings():
    """Players at 900 and 1250 chained to an anchor at 1350 through each other."""
    truth = {"sf1350": 1350, "A": 1250, "B": 900}
    rng = random.Random(7)
    pairings = {}
    for a, b in (("A", "sf1350"), ("A", "B")):
        games = []
        expected = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
        for i in range(4000):
            score = 1.0 if rng.random() < expected else 0.0
            games.append((a, b, score) if i % 2 == 0 else (b, a, 1 - score))
        pairings[tuple(sorted((a, b)))] = games
    ratings = fit(pairings)
    assert ratings["sf1350"] == 1350
    assert abs(ratings["A"] - 1250) < 25 and abs(ratings["B"] - 900) < 40


def _summary(path, player, anchor, points, games):
    """A tools.matches.match JSON summary in which `player` scores `points` of `games` against `anchor`."""
    game_list = []
    for i in range(games):
        won = i < points
        white, black = (player, anchor) if i % 2 == 0 else (anchor, player)
        result = "1-0" if won == (white == player) else "0-1"
        game_list.append({"white": white, "black": black, "result": result})
    path.write_text(json.dumps({"game_list": game_list}))
    return str(path)


def test_compare_measures_how_far_a_rating_moves(tmp_path):
    """50% against Stockfish 1800, then 76% (about +200): the move is +200 and its range excludes 0."""
    before = _summary(tmp_path / "fast.json", "L1800", "sf1800", 100, 200)
    after = _summary(tmp_path / "slow.json", "L1800", "sf1800", 152, 200)
    line = compare("L1800", [before], [after], samples=200)
    moved, low, high = (int(x) for x in re.search(r"moved ([-+]\d+) \(95% range ([-+]\d+)\.\.([-+]\d+)\)", line).groups())
    assert line.startswith("L1800: 1800 over 200 games, then ")
    assert 180 <= moved <= 215 and 0 < low < moved < high


@pytest.mark.skipif(not os.path.exists(stockfish()), reason="needs Stockfish (tools/paths.py)")
def test_human_likeness_counts_a_hung_queen_as_a_blunder():
    game = chess.pgn.read_game(io.StringIO('[White "W"]\n[Black "B"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ *'))
    losses = game_losses(game, nodes=3000)
    assert [mover for mover, _ in losses] == ["W", "B", "W", "B", "W"]
    assert losses[4][1] >= 300 and all(0 <= loss <= 2 * CLIP for _, loss in losses)
    assert max(loss for _, loss in losses[:4]) < 150


def test_only_a_finished_pairing_is_skipped_on_a_rerun(tmp_path):
    """`calibrate run` skips a pairing whose summary exists, unless that match was stopped early
    (a killed run writes a summary marked interrupted, possibly of 0 games)."""
    path = tmp_path / "L2170-sf2200-5+0.05.json"
    assert not pairing_done(path)
    path.write_text(json.dumps({"interrupted": True, "games": 0}))
    assert not pairing_done(path)
    path.write_text(json.dumps({"interrupted": False, "games": 40}))
    assert pairing_done(path)
    path.write_text("{not json")
    assert not pairing_done(path)


def test_games_option_replaces_every_pairings_count_and_keeps_the_plan(monkeypatch, tmp_path):
    """`calibrate run --games N` plays the plan's pairings with N games each (the slower clock's
    lighter run); without it each pairing keeps its own count."""
    from tools.calibration import calibrate

    played = []
    monkeypatch.setattr(calibrate, "run", lambda plan, *rest: played.append(plan))
    calibrate.main(["run", "--plan", "humantop", "--out", str(tmp_path), "--games", "30"])
    calibrate.main(["run", "--plan", "humantop", "--out", str(tmp_path)])
    assert played[0] == [(a, b, 30) for a, b, _ in calibrate.PLANS["humantop"]]
    assert played[1] == calibrate.PLANS["humantop"] and played[1][0][2] == 50


def test_same_counts_a_form_s_games_as_the_level_s(tmp_path):
    """`fit --same H1500slip0.14=L1500`: the form's games and the level's are one player's."""
    form = _summary(tmp_path / "form.json", "H1500slip0.14", "sf1600", 60, 100)
    level = _summary(tmp_path / "level.json", "L1500", "sf1600", 60, 100)
    apart = report([form, level], samples=20)
    together = report([form, level], samples=20, same={"H1500slip0.14": "L1500"})
    assert "| H1500slip0.14 | 100 |" in apart and "| L1500 | 100 |" in apart
    assert "H1500slip0.14" not in together and "| L1500 | 200 |" in together


def test_same_without_an_equals_sign_is_a_clear_error(tmp_path, capsys):
    from tools.calibration.calibrate import main

    summary = _summary(tmp_path / "form.json", "H1500slip0.14", "sf1600", 60, 100)
    with pytest.raises(SystemExit) as stopped:
        main(["fit", summary, "--same", "L1500"])
    assert stopped.value.code == 2 and "FORM=PLAYER" in capsys.readouterr().err
