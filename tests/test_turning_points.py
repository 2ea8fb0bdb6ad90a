"""tools/matches/turning_points.py finds where a game turned, by phase and by what the loser's search saw."""

from __future__ import annotations

import gzip

import chess.pgn

from tests.helpers import commented_game
from tools.matches import turning_points


def game(own: list[float], theirs: list[float], result: str = "0-1", fen: str | None = None) -> chess.pgn.Game:
    """A game of jitfish (White) against sf; each pair of plies carries the two engines' scores
    (each from its own side), as tools.matches.match writes them."""
    comments = [f"{score / 100:+.2f}/10 0.100s" for pair in zip(own, theirs) for score in pair]
    headers = {"White": "jitfish", "Black": "sf", "Result": result}
    if fen is not None:
        headers.update(FEN=fen, SetUp="1")
    return commented_game(headers, comments)


def test_comment_scores():
    assert turning_points.comment_score("+0.35/12 0.210s") == 35
    assert turning_points.comment_score("-M3/20 0.1s") == -10_000
    assert turning_points.comment_score("book") is None


def test_a_misjudged_middlegame_turn():
    # Stockfish's view (negated: from jitfish's side) turns at jitfish's 20th move; jitfish's own
    # score stays hopeful for the next 4 moves.
    own = [20] * 30
    theirs = [0] * 19 + [200] * 11
    turn = turning_points.turning_point(game(own, theirs), "jitfish")
    assert turn == ("middlegame", "not for 4 moves or more")


def test_a_tactic_seen_late_in_the_opening():
    own = [20] * 5 + [50, 40, -300, -400] + [-500] * 6
    theirs = [0] * 5 + [300] * 10
    assert turning_points.turning_point(game(own, theirs), "jitfish") == ("opening", "within 4 moves")


def test_a_turn_that_comes_back_is_none():
    theirs = [0] * 10 + [300] * 3 + [0] * 5
    assert turning_points.turning_point(game([0] * 18, theirs), "jitfish") is None


def test_read_counts_games_not_won(tmp_path, capsys):
    path = tmp_path / "games.pgn.gz"
    won = game([20] * 30, [0] * 19 + [200] * 11, result="1-0")
    lost = game([20] * 30, [0] * 19 + [200] * 11)
    path.write_bytes(gzip.compress(f"{won}\n\n{lost}\n\n".encode()))
    assert turning_points.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 games of jitfish, 1 not won, 1 with a turning point" in out
    assert "middlegame 1" in out and "not for 4 moves or more 1" in out


def test_draws_with_an_edge_not_converted(tmp_path, capsys):
    path = tmp_path / "games.pgn.gz"
    agreed = game([0] * 10 + [200] * 10, [0] * 10 + [-180] * 10, result="1/2-1/2")   # both saw +1.8
    alone = game([0] * 10 + [300] * 10, [0] * 20, result="1/2-1/2")                 # sf saw 0.00
    apart = game([200] + [0] * 19, [0] + [-200] * 19, result="1/2-1/2")             # never at once
    level = game([40] * 20, [-40] * 20, result="1/2-1/2")
    ending = game([160] * 20, [0] * 20, result="1/2-1/2", fen="r3k3/pppp4/8/8/8/8/PPPPP3/R3K3 w - - 0 1")
    games = (agreed, alone, apart, level, ending)
    path.write_bytes(gzip.compress("\n\n".join(str(g) for g in games).encode()))
    assert turning_points.main([str(path)]) == 0
    assert ("draws 5: its own score reached +1.5 in 4, the opponent's agreed in 1; it first did before "
            "the endgame in 3") in capsys.readouterr().out
