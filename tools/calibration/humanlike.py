"""How human are a level's mistakes? Stockfish judges every move of the calibration games.

    python -m tools.calibration.humanlike runs/calib/*.pgn [--nodes 20000] [--workers 2] [--per-file N]

For each player: the average centipawn loss per move and the share of moves losing 300 or more
centipawns. Each position is analysed once; a move's loss is the evaluation before it minus
the evaluation after it, both from the mover's side and clipped to +-1000 (mates count as
1000, as lichess does), so that a lost-anyway position does not dominate the average.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator

import chess
import chess.engine
import chess.pgn

from tools import paths

CLIP = 1000
BLUNDER = 300


def read_games(paths: list[str], per_file: int | None = None) -> Iterator[chess.pgn.Game]:
    """The games of each file (its first `per_file` of them when given)."""
    for path in paths:
        with open(path) as handle:
            count = 0
            while (per_file is None or count < per_file) and (game := chess.pgn.read_game(handle)) is not None:
                count += 1
                yield game


def game_losses(game: chess.pgn.Game, nodes: int) -> list[tuple[str, int]]:
    """(mover, centipawn loss) for every move of one game."""
    players = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
    board = game.board()
    evaluations, movers = [], []
    with chess.engine.SimpleEngine.popen_uci(paths.stockfish()) as engine:
        engine.configure({"Hash": 16, "Threads": 1})
        for move in [*game.mainline_moves(), None]:
            if board.is_game_over():
                outcome = board.outcome()
                white_cp = 0 if outcome.winner is None else (CLIP if outcome.winner == chess.WHITE else -CLIP)
            else:
                info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
                white_cp = info["score"].white().score(mate_score=100000)
            evaluations.append(max(-CLIP, min(CLIP, white_cp)))
            if move is None:
                break
            movers.append(board.turn)
            board.push(move)
    losses = []
    for i, mover in enumerate(movers):
        sign = 1 if mover == chess.WHITE else -1
        losses.append((players[mover], max(0, sign * (evaluations[i] - evaluations[i + 1]))))
    return losses


def _analyse(args: tuple[str, int]) -> list[tuple[str, int]]:
    pgn_text, nodes = args
    return game_losses(chess.pgn.read_game(io.StringIO(pgn_text)), nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.humanlike", description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--nodes", type=int, default=20000, help="Stockfish nodes per position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", nargs="*", help="only these players (default: all)")
    parser.add_argument("--per-file", type=int, help="analyse only the first N games of each file")
    args = parser.parse_args(argv)
    jobs = [(str(game), args.nodes) for game in read_games(args.pgn, args.per_file)]
    totals: dict[str, list[int]] = defaultdict(list)
    with ProcessPoolExecutor(args.workers) as pool:
        for done, losses in enumerate(pool.map(_analyse, jobs), 1):
            for player, loss in losses:
                totals[player].append(loss)
            print(f"\ranalysed {done}/{len(jobs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print("| player | moves | average centipawn loss | moves losing 300+ |")
    print("| --- | --- | --- | --- |")
    for player in sorted(totals, key=lambda p: -sum(totals[p]) / len(totals[p])):
        if args.players and player not in args.players:
            continue
        losses = totals[player]
        blunders = sum(1 for loss in losses if loss >= BLUNDER)
        print(f"| {player} | {len(losses)} | {sum(losses) / len(losses):.0f} | {blunders / len(losses):.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
