"""What a lower node limit costs the training labels: scores at several soft node limits against a
much deeper reference search, on quiet positions of a self-play chunk.

    python -m tools.training.label_quality data/selfplay/gen1/chunk-00001.jfsp.xz \\
        --limits 1000,3000,5000,10000 --reference 200000 --positions 300

For each limit: the nodes a search really used (iterations overshoot the soft limit), and the
mean absolute error of its score against the reference in centipawns (both clipped to +-1000)
and in expected result (sigmoid(score / K), K as the trainer fits it). Every search starts from
an empty table, as the generator's first move of a game does not.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from engine.board import Board
from engine.defs import MAX_MOVES
from search.driver import Searcher
from tools.training import records
from tools.training.selfplay import evaluate_start
from tools.training.train_nnue import fit_scale

CLIP_CP = 1000


def quiet_fens(path: str, count: int, seed: int) -> tuple[list[tuple[str, bool]], float]:
    """`count` random quiet positions of a chunk (FEN, Chess960) and the chunk's fitted score scale."""
    fens = []
    for game in records.games(path):
        board = Board(game.fen, game.chess960)
        for text in game.moves:
            move = board.parse_uci(text)
            if not board.is_check() and move not in board.noisy_moves():
                fens.append((board.fen(shredder=game.chess960), game.chess960))
            board.push(move)
    data = records.Positions([path])
    keep = np.abs(data.score) <= 3000
    scale = fit_scale(data.score[keep].astype(float), data.result[keep] / 2)
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(fens), size=min(count, len(fens)), replace=False)
    return [fens[i] for i in picks], scale


def scores_at(fens: list[tuple[str, bool]], soft: int, hard: int) -> tuple[np.ndarray, float]:
    """Each position's score at a node limit, and the mean nodes a search used."""
    searcher = Searcher(8, network="")
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    scores, nodes = [], 0
    for fen, chess960 in fens:
        board = Board(fen, chess960)
        searcher.clear()
        scores.append(evaluate_start(board.tab, board.arrays, searcher.ws, searcher.tt, moves, soft, hard))
        nodes += searcher.nodes()
    return np.array(scores, dtype=float), nodes / len(fens)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.label_quality", description=__doc__.split("\n\n")[0])
    parser.add_argument("chunk", help="a self-play chunk file")
    parser.add_argument("--limits", default="1000,3000,5000,10000", help="soft node limits, comma-separated")
    parser.add_argument("--reference", type=int, default=200_000, help="the reference search's soft limit")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        limits = [int(text) for text in args.limits.split(",")]
        fens, scale = quiet_fens(args.chunk, args.positions, args.seed)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    if min(limits) < 1 or args.reference < 1 or args.positions < 1:
        parser.error("node limits and --positions must be positive")
    reference, used = scores_at(fens, args.reference, 8 * args.reference)
    print(f"{len(fens)} quiet positions of {args.chunk}; K = {scale:.1f}; reference {args.reference} "
          f"({used:,.0f} nodes a search)")
    clipped = np.clip(reference, -CLIP_CP, CLIP_CP)
    expected = 1 / (1 + np.exp(-reference / scale))
    print("soft limit | nodes used | mean |error| cp | mean |error| expected result")
    for limit in limits:
        scores, used = scores_at(fens, limit, 8 * limit)
        cp = np.mean(np.abs(np.clip(scores, -CLIP_CP, CLIP_CP) - clipped))
        wdl = np.mean(np.abs(1 / (1 + np.exp(-scores / scale)) - expected))
        print(f"{limit:10d} | {used:10,.0f} | {cp:16.1f} | {wdl:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
