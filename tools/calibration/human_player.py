"""The human model as a minimal UCI engine, to measure its strength against the anchors before a
level uses it (issue 48).

    python -m tools.calibration.human_player 1500 [--share 0.2] [--sharpen 2] [--veto 200 [--veto-nodes 60000]] [--slip 0.5] [--seed 1]

It plays search/human_model.py's choice for a player of the given lichess rating: a `--share` of
its moves (1 by default) sampled from its probabilities raised to `--sharpen` (seeded by position,
like a level's `Random Seed`), the others its most likely move (`--share 0`: always that);
`--slip` gives the Chooser its slip toward likely moves that lose, `--veto` its veto on moves
that lose more than so many centipawns (search/human_model.py). It
ignores the clock (a move takes a few hundredths of a second).
"""

from __future__ import annotations

import argparse
import sys

from engine.board import Board
from search.human_model import ENGINE_NODES, Chooser, load
from tools.calibration.minimal_uci import serve


def run(chooser: Chooser, seed: int) -> None:
    def move_for(fen: str | None, moves: list[str]) -> str | None:
        board = Board() if fen is None else Board(fen)
        for text in moves:
            board.push_uci(text)
        move = chooser.choose(board, seed)[0]
        return board.uci(move) if move else None

    serve("human-model", move_for)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.human_player", description=__doc__.split("\n")[0])
    parser.add_argument("rating", type=int, help="the lichess rating whose choice it plays")
    parser.add_argument("--share", type=float, default=1.0, help="share of the moves sampled (0: the most likely move)")
    parser.add_argument("--sharpen", type=float, default=1.0, help="sample from the probabilities to this power")
    parser.add_argument("--veto", type=int, help="centipawns: a move full strength finds losing more gives way")
    parser.add_argument("--veto-nodes", type=int, default=ENGINE_NODES, help="full strength's nodes for the veto")
    parser.add_argument("--slip", type=float, default=0.0, help="a likely move that loses, this much more often (search/human_model.py)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run(Chooser(load(), args.rating, share=args.share, sharpen=args.sharpen, veto=args.veto,
                slip=args.slip, veto_nodes=args.veto_nodes), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
