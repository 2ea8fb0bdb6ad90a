"""Where and how a player loses its games, read from the engines' own scores in match PGNs.

    python -m tools.matches.turning_points runs/ladder/ladder-*.pgn [--player jitfish]     (or .pgn.gz)

For every game the player did not win, the turning point is the first reply after which the
opponent's score (from the player's side) is -150 cp or worse and stays at -100 or worse to the
end. It is counted by phase (the opening: the first 30 plies of the game; the endgame: at most 26
points of pieces left, a minor piece 3, a rook 5, a queen 9; else the middlegame) and by whether
the player's own search saw it: its score at that point already -100 or worse, worse within its
next four moves (a tactic beyond its horizon), or not for four moves and more (a misjudgement).
It also counts the draws the player did not convert: those where its own score reached +150 cp
or more, and among them those where the opponent's score agreed (+150 or more for the player).
The opponent's score is only a judge as good as its search, so read the counts as a direction,
not a verdict. Scores are tools.matches.match's PGN comments, `{+0.35/12 0.210s}`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, field

import chess
import chess.pgn

from engine.defs import PIECE_VALUES
from tools.matches.pgn_files import comment_score, read_games

PIECE_POINTS = {kind: PIECE_VALUES[kind - 1] // PIECE_VALUES[0] for kind in (chess.KNIGHT, chess.BISHOP, chess.ROOK,
                                                                     chess.QUEEN)}   # in pawns: 3, 3, 5, 9
LOST_CP, STAYS_LOST_CP = -150, -100
EDGE_CP = 150            # a draw with the player's score this far ahead at some point: an edge not converted
OPENING_PLIES, ENDGAME_POINTS, HORIZON_MOVES = 30, 26, 4


@dataclass
class Report:
    games: int = 0
    not_won: int = 0
    phases: Counter = field(default_factory=Counter)
    seen: Counter = field(default_factory=Counter)
    draws: int = 0
    draws_own_edge: int = 0        # draws where the player's own score reached EDGE_CP
    draws_agreed_edge: int = 0     # ... and the opponent's score agreed
    draws_edge_early: int = 0      # ... which it first reached before the endgame


def score_points(game: chess.pgn.Game, player: str) -> list[tuple[int, float, float, int]]:
    """Per reply of the opponent: (ply, the player's last score, the opponent's score from the
    player's side, the pieces' points left on the board)."""
    white = game.headers.get("White") == player
    board = game.board()
    own = None
    points: list[tuple[int, float, float, int]] = []
    for node in game.mainline():
        mover_is_player = board.turn == (chess.WHITE if white else chess.BLACK)
        board.push(node.move)
        score = comment_score(node.comment)
        if score is None:
            continue
        if mover_is_player:
            own = score
        elif own is not None:
            pieces = sum(len(board.pieces(kind, colour)) * value
                         for kind, value in PIECE_POINTS.items() for colour in chess.COLORS)
            points.append((board.ply(), own, -score, pieces))
    return points


def turning_point(game: chess.pgn.Game, player: str) -> tuple[str, str] | None:
    """(phase, how the player saw it) of the game's turning point, None if there is none."""
    return turn_of(score_points(game, player))


def turn_of(points: list[tuple[int, float, float, int]]) -> tuple[str, str] | None:
    """turning_point from a game's score_points."""
    for index, (ply, own_score, theirs, pieces) in enumerate(points):
        if theirs <= LOST_CP and all(later[2] <= STAYS_LOST_CP for later in points[index:]):
            phase = ("opening" if ply <= OPENING_PLIES
                     else "endgame" if pieces <= ENDGAME_POINTS else "middlegame")
            ahead = [p[1] for p in points[index:index + HORIZON_MOVES + 1]]
            if own_score <= STAYS_LOST_CP:
                seen = "at once"
            elif min(ahead) <= STAYS_LOST_CP:
                seen = "within 4 moves"
            else:
                seen = "not for 4 moves or more"
            return phase, seen
    return None


def read(paths: list[str], player: str) -> Report:
    report = Report()
    for game in read_games(paths):
        if player not in (game.headers.get("White"), game.headers.get("Black")):
            continue
        report.games += 1
        won = "1-0" if game.headers.get("White") == player else "0-1"
        if game.headers.get("Result") == won:
            continue
        report.not_won += 1
        points = score_points(game, player)
        if game.headers.get("Result") == "1/2-1/2":
            report.draws += 1
            edges = [pieces for _, own, _, pieces in points if own >= EDGE_CP]
            if edges:
                report.draws_own_edge += 1
                report.draws_edge_early += edges[0] > ENDGAME_POINTS
                report.draws_agreed_edge += any(own >= EDGE_CP and theirs >= EDGE_CP
                                                for _, own, theirs, _ in points)
        turn = turn_of(points)
        if turn is not None:
            report.phases[turn[0]] += 1
            report.seen[turn[1]] += 1
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.matches.turning_points",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--player", default="jitfish")
    args = parser.parse_args(argv)
    report = read(args.pgn, args.player)
    turns = sum(report.phases.values())
    print(f"{report.games} games of {args.player}, {report.not_won} not won, {turns} with a turning point")
    for title, counts in (("phase", report.phases), ("seen by its own search", report.seen)):
        print(f"{title}: " + ", ".join(f"{name} {count}" for name, count in counts.most_common()))
    print(f"draws {report.draws}: its own score reached +{EDGE_CP / 100:.1f} in {report.draws_own_edge}, "
          f"the opponent's agreed in {report.draws_agreed_edge}; it first did before the endgame in "
          f"{report.draws_edge_early}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
