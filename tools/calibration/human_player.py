"""The human model as a minimal UCI engine, to measure its strength against the anchors before a
level uses it (issue 48).

    python -m tools.calibration.human_player 1500 [--share 0.2] [--sharpen 2] [--seed 1]

It plays search/human_model.py's choice for a player of the given lichess rating: a `--share` of
its moves (1 by default) sampled from its probabilities raised to `--sharpen` (seeded by position,
like a level's `Random Seed`), the others its most likely move (`--share 0`: always that). It
ignores the clock (a move takes a few hundredths of a second).
"""

from __future__ import annotations

import argparse
import sys

from engine.board import Board
from search.human_model import Chooser, load


def run(chooser: Chooser, seed: int) -> None:
    board = Board()
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            print("id name human-model\nid author the Jitfish developers\nuciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            moves_at = tokens.index("moves") if "moves" in tokens else len(tokens)
            board = Board() if tokens[1] == "startpos" else Board(" ".join(tokens[2:moves_at]))
            for text in tokens[moves_at + 1:]:
                board.push_uci(text)
        elif command == "go":
            move = chooser.choose(board, seed)[0]
            print(f"bestmove {board.uci(move) if move else '0000'}", flush=True)
        elif command == "quit":
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.human_player", description=__doc__.split("\n")[0])
    parser.add_argument("rating", type=int, help="the lichess rating whose choice it plays")
    parser.add_argument("--share", type=float, default=1.0, help="share of the moves sampled (0: the most likely move)")
    parser.add_argument("--sharpen", type=float, default=1.0, help="sample from the probabilities to this power")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run(Chooser(load(), args.rating, share=args.share, sharpen=args.sharpen), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
