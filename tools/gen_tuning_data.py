"""Generate Texel-tuning data from fast Stockfish self-play.

Each game starts from a random line of the openings file plus 0..N random
legal plies, then Stockfish plays both sides with a node (or depth) limit.
Quiet positions are written with the final game result::

    <FEN> | 1.0        (result from White's view: 1.0, 0.5 or 0.0)

A position is kept if it is at least --skip-plies plies past the opening,
the side to move is not in check, and the engine's chosen move (bestmove)
from it is neither a capture nor a promotion.  Games end by the rules, by
resign/draw adjudication on Stockfish's scores, or are drawn at --max-plies.

    .venv/bin/python -m tools.gen_tuning_data --games 10 --out runs/tuning.txt
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import TextIO

import chess
import chess.engine

from tools.adjudication import AdjudicationRules, Adjudicator, rules_outcome
from tools.engines import EngineProcess, EngineSpec
from tools.match import DEFAULT_OPENINGS, load_openings

RESULT_VALUE = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}
INFO = chess.engine.Info.BASIC | chess.engine.Info.SCORE


@dataclass
class Counters:
    """Progress counters shared by the workers."""

    games: int = 0
    positions: int = 0
    failed_games: int = 0


def start_board(fens: list[str], rng: random.Random, random_plies: int) -> chess.Board:
    """A random opening from the list followed by up to `random_plies` random legal plies."""
    while True:
        board = chess.Board(rng.choice(fens))
        for _ in range(rng.randint(0, random_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if rules_outcome(board) is None:
            return chess.Board(board.fen())  # fresh history: the game starts here


def quiet_candidate(board: chess.Board, move: chess.Move, ply: int, skip_plies: int) -> bool:
    """True if the position before `move` qualifies as quiet tuning data."""
    return (ply >= skip_plies and not board.is_check()
            and not board.is_capture(move) and move.promotion is None)


async def self_play(proc: EngineProcess, board: chess.Board, args: argparse.Namespace) -> tuple[str, list[str]]:
    """Play one self-play game; return its result and the quiet FENs seen (raises on engine failure)."""
    await proc.ensure_started()
    assert proc.protocol is not None
    limit = chess.engine.Limit(nodes=args.nodes, depth=args.depth)
    adjudicator = Adjudicator(AdjudicationRules(max_plies=args.max_plies))
    tag = object()
    fens: list[str] = []
    for ply in range(args.max_plies):
        over = rules_outcome(board)
        if over:
            return over[0], fens
        play = await asyncio.wait_for(proc.protocol.play(board, limit, info=INFO, game=tag), args.move_timeout)
        if play.move is None or play.move not in board.legal_moves:
            raise chess.engine.EngineError(f"engine returned no/illegal move {play.move}")
        if quiet_candidate(board, play.move, ply, args.skip_plies):
            fens.append(board.fen())
        fullmove = board.fullmove_number
        board.push(play.move)
        pov = play.info.get("score")
        verdict = adjudicator.update(fullmove, None if pov is None else pov.white().score(mate_score=100_000))
        if verdict and rules_outcome(board) is None:
            return verdict[0], fens
    over = rules_outcome(board)
    return (over[0] if over else "1/2-1/2"), fens


async def worker(proc: EngineProcess, queue: asyncio.Queue[int], fens: list[str], out: TextIO, seen: set[str],
                 counters: Counters, args: argparse.Namespace, t0: float) -> None:
    """Play games from the queue with one engine process, appending positions to `out`."""
    while not queue.empty():
        index = queue.get_nowait()
        rng = random.Random(args.seed * 1_000_003 + index)  # data independent of concurrency
        board = start_board(fens, rng, args.random_plies)
        try:
            result, positions = await self_play(proc, board, args)
        except Exception as err:  # noqa: BLE001 - skip the game, restart the engine, keep going
            counters.failed_games += 1
            print(f"game {index + 1}: engine failure ({type(err).__name__}: {err}); game skipped", file=sys.stderr)
            await proc.kill()
            continue
        value = RESULT_VALUE[result]
        new = [f for f in positions if " ".join(f.split()[:4]) not in seen]
        seen.update(" ".join(f.split()[:4]) for f in new)
        out.writelines(f"{fen} | {value}\n" for fen in new)
        out.flush()
        counters.games += 1
        counters.positions += len(new)
        if counters.games % args.report_every == 0 or counters.games == args.games:
            minutes = (time.monotonic() - t0) / 60
            print(f"games {counters.games}/{args.games}  positions {counters.positions}  "
                  f"{counters.positions / minutes:.0f} pos/min  {counters.games / minutes:.1f} games/min",
                  flush=True)


async def run(args: argparse.Namespace, out: TextIO) -> Counters:
    """Start the engines and the workers; always shut the engines down."""
    fens = load_openings(args.openings, chess960=False)
    spec = EngineSpec(cmd=[args.engine], name="stockfish", options={"Threads": 1, "Hash": args.hash})
    procs = [EngineProcess(spec) for _ in range(args.concurrency)]
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(args.games):
        queue.put_nowait(i)
    counters = Counters()
    seen: set[str] = set()
    t0 = time.monotonic()
    try:
        for p in procs:
            await p.start()
        await asyncio.gather(*(worker(p, queue, fens, out, seen, counters, args, t0) for p in procs))
    finally:
        await asyncio.gather(*(p.quit() for p in procs), return_exceptions=True)
    return counters


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    p = argparse.ArgumentParser(prog="python -m tools.gen_tuning_data", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--out", default="runs/tuning.txt")
    p.add_argument("--append", action="store_true", help="append to --out instead of overwriting")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine", default="/usr/games/stockfish", help="UCI engine command (Stockfish)")
    p.add_argument("--hash", type=int, default=16, help="engine Hash in MB")
    p.add_argument("--nodes", type=int, default=2000, help="go nodes per move (default 2000)")
    p.add_argument("--depth", type=int, default=None, help="go depth per move (with or instead of --nodes)")
    p.add_argument("--openings", default=DEFAULT_OPENINGS)
    p.add_argument("--random-plies", type=int, default=4, help="up to this many random plies after the opening")
    p.add_argument("--skip-plies", type=int, default=8, help="skip this many plies after the start position")
    p.add_argument("--max-plies", type=int, default=400, help="draw after this many plies")
    p.add_argument("--move-timeout", type=float, default=30.0, help="seconds before a move counts as hung")
    p.add_argument("--report-every", type=int, default=10, help="print progress every N games")
    args = p.parse_args(argv)
    if args.nodes is not None and args.nodes <= 0:
        args.nodes = None
    if args.nodes is None and args.depth is None:
        p.error("give --nodes and/or --depth")
    t0 = time.monotonic()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    try:
        with open(args.out, "a" if args.append else "w", encoding="utf-8") as out:
            c = asyncio.run(run(args, out))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    minutes = (time.monotonic() - t0) / 60
    print(f"done: {c.games} games ({c.failed_games} failed), {c.positions} positions -> {args.out} "
          f"in {minutes * 60:.1f}s ({c.positions / minutes:.0f} positions/min, concurrency {args.concurrency})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
