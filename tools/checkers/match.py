"""Matches between checkers levels (checkers/levels.py), or a level and a random mover, in one
process: the level ladder's measurement.

    .venv/bin/python -m tools.checkers.match --a 2 --b 1 [--games 40] [--nodes 1000000]
        [--movetime MS] [--openings-plies 3] [--seed 1]
    .venv/bin/python -m tools.checkers.match --ladder [--games 40] ...   # 1 v random, 2 v 1, ... 10 v 9

A player is a level 1-10 or `random`. Games start from openings of --openings-plies random
plies (checkers' own ballots), each played twice with the colours swapped. A game ends by the
rules (no legal move, threefold repetition, the 40-move rule) or is a draw at --max-plies. A
player's per-move budget is its level's caps and, for every level, --nodes or --movetime.
Prints one JSON line per pairing: wins, draws, losses of A and A's score.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from checkers.board import Board
from checkers.driver import Limits, Searcher
from checkers.levels import MAX_LEVEL, apply_level


class Player:
    def __init__(self, spec: str, rng: random.Random, nodes: int | None, movetime: int | None) -> None:
        self.spec, self.rng, self.nodes, self.movetime = spec, rng, nodes, movetime
        self.searcher = None if spec == "random" else Searcher(1 << 18)

    def new_game(self) -> None:
        if self.searcher is not None:
            self.searcher.clear()

    def move(self, board: Board) -> int:
        legal = board.legal_moves()
        if self.searcher is None:
            return self.rng.choice(legal)
        apply_level(self.searcher, int(self.spec), self.rng)
        return self.searcher.run(board, Limits(nodes=self.nodes, movetime=self.movetime)).best


def opening(rng: random.Random, plies: int) -> Board:
    """A position after `plies` random moves from the start, with both sides still to play."""
    while True:
        board = Board()
        for _ in range(plies):
            board.push(rng.choice(board.legal_moves()))
        if board.outcome() is None:
            return board


def play(board: Board, black: Player, white: Player, max_plies: int) -> float:
    """Black's score (1, 0.5, 0) of the game from `board`."""
    players = (black, white)
    black.new_game()
    white.new_game()
    for _ in range(max_plies):
        outcome = board.outcome()
        if outcome is not None:
            return 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
        board.push(players[board.turn].move(board))
    outcome = board.outcome()
    if outcome is not None and outcome.winner is not None:
        return 1.0 if outcome.winner == 0 else 0.0
    return 0.5


def match(a: str, b: str, games: int, nodes: int | None, movetime: int | None, plies: int, seed: int,
          max_plies: int) -> dict:
    rng = random.Random(seed)
    pa, pb = Player(a, random.Random(seed + 1), nodes, movetime), Player(b, random.Random(seed + 2), nodes, movetime)
    wins = draws = losses = 0
    start = time.time()
    for pair in range((games + 1) // 2):
        root = opening(rng, plies)
        for swap in (False, True):
            if wins + draws + losses >= games:
                break
            board = root.copy()
            score = play(board, pb, pa, max_plies) if swap else play(board, pa, pb, max_plies)
            mine = 1.0 - score if swap else score
            wins += mine == 1.0
            draws += mine == 0.5
            losses += mine == 0.0
    n = wins + draws + losses
    return {"a": a, "b": b, "games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": round((wins + 0.5 * draws) / max(n, 1), 3), "nodes": nodes, "movetime": movetime,
            "seconds": round(time.time() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools.checkers.match", description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default=str(MAX_LEVEL))
    parser.add_argument("--b", default="random")
    parser.add_argument("--ladder", action="store_true", help="1 v random, 2 v 1, ..., 10 v 9")
    parser.add_argument("--from-level", type=int, default=1, help="with --ladder: the first pairing's A")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=1_000_000, help="per move, every level (0: none)")
    parser.add_argument("--movetime", type=int, default=None, help="ms per move, every level")
    parser.add_argument("--openings-plies", type=int, default=3)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    nodes = args.nodes or None
    pairs = [(args.a, args.b)]
    if args.ladder:
        pairs = [(str(level), "random" if level == 1 else str(level - 1))
                 for level in range(args.from_level, MAX_LEVEL + 1)]
    for a, b in pairs:
        print(json.dumps(match(a, b, args.games, nodes, args.movetime, args.openings_plies, args.seed,
                               args.max_plies)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
