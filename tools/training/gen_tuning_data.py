"""Generate evaluation-tuning data from an engine's self-play (Jitfish's own, or Stockfish's).

Each game starts from a random line of the openings file plus 0..N random
legal plies, then the engine plays both sides with a node (or depth) limit.
Quiet positions are written with the final game result and the engine's own
search score of the position::

    <FEN> | 1.0 | 35       (result from White's view: 1.0, 0.5 or 0.0; score in cp for White)

A position is kept if it is at least --skip-plies plies past the opening,
the side to move is not in check, and the engine's chosen move (bestmove)
from it is neither a capture nor a promotion; a position whose score is a
mate is written without a score.  Games end by the rules, by resign/draw
adjudication on the engine's scores, or are drawn at --max-plies.

    .venv/bin/python -m tools.training.gen_tuning_data --games 10 --out runs/tuning.txt
    .venv/bin/python -m tools.training.gen_tuning_data --engine .venv/bin/jitfish --nodes 5000 \\
        --out-dir ~/.cache/jitfish/tuning/jitfish-5000 --chunks 0:100 --concurrency 2

With --out-dir the games are played in chunks of --chunk-games (200), each written to
`chunk-NNNNN.txt` only once complete (through a `.part` file) and skipped when it exists, so an
interrupted run resumes and a lost chunk is played again. A game's randomness depends only on
--seed and its index, and a chunk's lines are written in game order, so with an engine that is
deterministic at a node limit (Jitfish is) a chunk comes out the same every time it is played.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import chess
import chess.engine

from tools import paths
from tools.matches.adjudication import AdjudicationRules, Adjudicator, rules_outcome
from tools.matches.engines import EngineProcess, EngineSpec
from tools.matches.match import load_openings

RESULT_VALUE = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}
INFO = chess.engine.Info.BASIC | chess.engine.Info.SCORE
Position = tuple[str, int | None]          # FEN, the engine's score for White (None: a mate score)


@dataclass
class Counters:
    """Progress counters shared by the workers."""

    games: int = 0
    positions: int = 0
    failed_games: int = 0


def start_board(fens: list[str], rng: random.Random, random_plies: int, chess960: float = 0.0) -> chess.Board:
    """A random opening from the list (or, with probability `chess960`, a random Chess960 start
    position) followed by up to `random_plies` random legal plies."""
    while True:
        if chess960 and rng.random() < chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board(rng.choice(fens))
        for _ in range(rng.randint(0, random_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if rules_outcome(board) is None:
            return chess.Board(board.fen(), chess960=board.chess960)  # fresh history: the game starts here


def quiet_candidate(board: chess.Board, move: chess.Move, ply: int, skip_plies: int) -> bool:
    """True if the position before `move` qualifies as quiet tuning data."""
    return (ply >= skip_plies and not board.is_check()
            and not board.is_capture(move) and move.promotion is None)


async def self_play(proc: EngineProcess, board: chess.Board,
                    args: argparse.Namespace) -> tuple[str, list[Position]]:
    """Play one self-play game; return its result and the quiet positions seen with the engine's
    scores (raises on engine failure)."""
    await proc.ensure_started()
    assert proc.protocol is not None
    limit = chess.engine.Limit(nodes=args.nodes, depth=args.depth)
    adjudicator = Adjudicator(AdjudicationRules(max_plies=args.max_plies))
    tag = object()
    positions: list[Position] = []
    for ply in range(args.max_plies):
        over = rules_outcome(board)
        if over:
            return over[0], positions
        play = await asyncio.wait_for(proc.protocol.play(board, limit, info=INFO, game=tag),
                                      args.move_timeout)
        if play.move is None or play.move not in board.legal_moves:
            raise chess.engine.EngineError(f"engine returned no/illegal move {play.move}")
        pov = play.info.get("score")
        if quiet_candidate(board, play.move, ply, args.skip_plies):
            positions.append((board.fen(), None if pov is None else pov.white().score()))
        fullmove = board.fullmove_number
        board.push(play.move)
        verdict = adjudicator.update(fullmove, None if pov is None else pov.white().score(mate_score=100_000))
        if verdict and rules_outcome(board) is None:
            return verdict[0], positions
    over = rules_outcome(board)
    return (over[0] if over else "1/2-1/2"), positions


def game_lines(result: str, positions: list[Position], seen: set[str]) -> list[str]:
    """The data lines of one game, skipping positions already in `seen` (first four FEN fields),
    which it updates."""
    value = RESULT_VALUE[result]
    lines = []
    for fen, score in positions:
        key = " ".join(fen.split()[:4])
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"{fen} | {value}\n" if score is None else f"{fen} | {value} | {score}\n")
    return lines


async def worker(proc: EngineProcess, queue: asyncio.Queue[int], fens: list[str],
                 finished: dict[int, tuple[str, list[Position]]], counters: Counters,
                 args: argparse.Namespace, t0: float, total: int) -> None:
    """Play games from the queue with one engine process, collecting each game's positions."""
    while not queue.empty():
        index = queue.get_nowait()
        rng = random.Random(args.seed * 1_000_003 + index)  # data independent of concurrency
        board = start_board(fens, rng, args.random_plies, args.chess960)
        try:
            finished[index] = await self_play(proc, board, args)
        except Exception as err:  # noqa: BLE001 - skip the game, restart the engine, keep going
            counters.failed_games += 1
            print(f"game {index + 1}: engine failure ({type(err).__name__}: {err}); game skipped",
                  file=sys.stderr)
            await proc.kill()
            continue
        counters.games += 1
        counters.positions += len(finished[index][1])
        if counters.games % args.report_every == 0 or counters.games == total:
            minutes = (time.monotonic() - t0) / 60
            print(f"games {counters.games}/{total}  positions {counters.positions}  "
                  f"{counters.positions / minutes:.0f} pos/min  {counters.games / minutes:.1f} games/min",
                  flush=True)


async def play_games(args: argparse.Namespace, indices: range) -> tuple[dict[int, tuple[str, list[Position]]],
                                                                       Counters]:
    """Play the games of `indices` with --concurrency engines; always shut the engines down."""
    fens = load_openings(args.openings, chess960=False)
    spec = EngineSpec(cmd=shlex.split(args.engine), name="engine", options={"Threads": 1, "Hash": args.hash})
    procs = [EngineProcess(spec) for _ in range(min(args.concurrency, len(indices)))]
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in indices:
        queue.put_nowait(i)
    finished: dict[int, tuple[str, list[Position]]] = {}
    counters = Counters()
    t0 = time.monotonic()
    try:
        for p in procs:
            await p.start()
        await asyncio.gather(*(worker(p, queue, fens, finished, counters, args, t0, len(indices))
                               for p in procs))
    finally:
        await asyncio.gather(*(p.quit() for p in procs), return_exceptions=True)
    return finished, counters


def write_games(finished: dict[int, tuple[str, list[Position]]], out: TextIO) -> int:
    """Write the games in index order (duplicates skipped); the number of lines written."""
    seen: set[str] = set()
    written = 0
    for index in sorted(finished):
        lines = game_lines(*finished[index], seen)
        out.writelines(lines)
        written += len(lines)
    return written


def parse_chunks(text: str) -> range:
    """`A:B` (chunks A to B - 1) or `N` (chunks 0 to N - 1)."""
    first, sep, last = text.partition(":")
    chunks = range(int(first), int(last)) if sep else range(int(first))
    if not chunks or chunks.start < 0:
        raise argparse.ArgumentTypeError(f"no chunks in {text!r}")
    return chunks


def chunk_path(out_dir: Path, chunk: int) -> Path:
    return out_dir / f"chunk-{chunk:05d}.txt"


def run_chunks(args: argparse.Namespace) -> Counters:
    """Play and write each missing chunk of --chunks; the totals of what was played."""
    out_dir = Path(os.path.expanduser(args.out_dir))
    out_dir.mkdir(parents=True, exist_ok=True)
    total = Counters()
    for chunk in args.chunks:
        path = chunk_path(out_dir, chunk)
        if path.exists():
            print(f"{path.name}: done already", flush=True)
            continue
        first = chunk * args.chunk_games
        print(f"{path.name}: games {first + 1}..{first + args.chunk_games}", flush=True)
        finished, counters = asyncio.run(play_games(args, range(first, first + args.chunk_games)))
        if counters.failed_games:
            print(f"{path.name}: {counters.failed_games} games failed; not written (run again to retry)",
                  file=sys.stderr, flush=True)
        else:
            part = path.with_suffix(".part")
            with open(part, "w", encoding="utf-8") as out:
                counters.positions = write_games(finished, out)
            part.replace(path)
        total.games += counters.games
        total.positions += counters.positions
        total.failed_games += counters.failed_games
    return total


def main(argv: list[str] | None = None) -> int:
    """CLI entry point."""
    p = argparse.ArgumentParser(prog="python -m tools.training.gen_tuning_data", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100, help="games to play into --out")
    p.add_argument("--out", default="runs/tuning.txt", help="one file of data (without --out-dir)")
    p.add_argument("--append", action="store_true", help="append to --out instead of overwriting")
    p.add_argument("--out-dir", help="play resumable chunks into this folder instead of --out")
    p.add_argument("--chunks", type=parse_chunks, default=range(1),
                   help="with --out-dir: the chunks to play, A:B or N (default 1)")
    p.add_argument("--chunk-games", type=int, default=200, help="games per chunk (default 200)")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--engine", default=paths.stockfish(), help="UCI engine command (default Stockfish)")
    p.add_argument("--hash", type=int, default=16, help="engine Hash in MB")
    p.add_argument("--nodes", type=int, default=2000, help="go nodes per move (default 2000)")
    p.add_argument("--depth", type=int, default=None, help="go depth per move (with or instead of --nodes)")
    p.add_argument("--openings", default=str(paths.openings()))
    p.add_argument("--random-plies", type=int, default=4,
                   help="up to this many random plies after the opening")
    p.add_argument("--chess960", type=float, default=0.0,
                   help="share of the games from a random Chess960 start position (default 0)")
    p.add_argument("--skip-plies", type=int, default=8, help="skip this many plies after the start position")
    p.add_argument("--max-plies", type=int, default=400, help="draw after this many plies")
    p.add_argument("--move-timeout", type=float, default=30.0, help="seconds before a move counts as hung")
    p.add_argument("--report-every", type=int, default=10, help="print progress every N games")
    args = p.parse_args(argv)
    if args.nodes is not None and args.nodes <= 0:
        args.nodes = None
    if args.nodes is None and args.depth is None:
        p.error("give --nodes and/or --depth")
    if not 0.0 <= args.chess960 <= 1.0:
        p.error("--chess960 must be between 0 and 1")
    if args.chunk_games <= 0:
        p.error("--chunk-games must be positive")
    t0 = time.monotonic()
    target = args.out_dir or args.out
    try:
        if args.out_dir:
            c = run_chunks(args)
        else:
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            finished, c = asyncio.run(play_games(args, range(args.games)))
            with open(args.out, "a" if args.append else "w", encoding="utf-8") as out:
                c.positions = write_games(finished, out)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    minutes = max((time.monotonic() - t0) / 60, 1e-9)
    print(f"done: {c.games} games ({c.failed_games} failed), {c.positions} positions -> {target} "
          f"in {minutes * 60:.1f}s ({c.positions / minutes:.0f} positions/min, "
          f"concurrency {args.concurrency})")
    return 1 if c.failed_games else 0


if __name__ == "__main__":
    sys.exit(main())
