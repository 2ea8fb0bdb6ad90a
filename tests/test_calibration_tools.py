"""The calibration kit: the floor anchors play legal (and, for greedy, greedy) moves over UCI,
and the rating fit recovers known ratings from simulated games."""

import io
import os
import random
import subprocess
import sys

import chess
import chess.pgn
import pytest

from tools.calibrate import fit
from tools.humanlike import CLIP, STOCKFISH, game_losses
from tests.uci_driver import ROOT


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_anchor_engines_speak_uci(kind):
    fen = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3"   # Bxg5 wins the queen
    commands = "uci\nisready\n" + f"position fen {fen}\ngo movetime 10\n" * 5 + "quit\n"
    out = subprocess.run([sys.executable, "-m", "tools.anchors", kind], input=commands, capture_output=True,
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


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="needs Debian's stockfish")
def test_human_likeness_counts_a_hung_queen_as_a_blunder():
    game = chess.pgn.read_game(io.StringIO('[White "W"]\n[Black "B"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ *'))
    losses = game_losses(game, nodes=3000)
    assert [mover for mover, _ in losses] == ["W", "B", "W", "B", "W"]
    assert losses[4][1] >= 300 and all(0 <= loss <= 2 * CLIP for _, loss in losses)
    assert max(loss for _, loss in losses[:4]) < 150
