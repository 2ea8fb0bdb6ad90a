"""Tune the search's margins (search/tunables.py) by SPSA, in-process self-play at a node count.

    .venv/bin/python -m tools.training.spsa tune runs/spsa.json --pairs 8000 --nodes 6000
    .venv/bin/python -m tools.training.spsa ab runs/spsa.json --pairs 1000 --nodes 6000

`tune`: at every step each tunable is pushed up or down by its current step c_k (a random sign
each), both settings play a pair of games from one opening with colours swapped, and every
tunable moves by a_k / c_k times the pair's score difference (-2..2) in the direction of its
sign (fishtest's SPSA: c_k = c / k^0.101, a_k = a / (A + k)^0.602, A a tenth of the steps, c
chosen so the last step's c_k is the tunable's `step`, and a so that the last step moves a
tunable by `rate` x step per point of the pair's score). Steps run on --concurrency processes
at once; the state is saved to the output file every few seconds and the run resumes from it.
`ab` plays the file's rounded values (or `name=value` settings) against the defaults and
reports the Elo with its 95% error bar.

The games are the engine's own search called from numba (tools/training/selfplay.py's
`play_between`: each side its own workspace and table), openings from openings.epd, both sides
at --nodes a move (a soft limit: no new iteration after it; cut at 8x). Self-play gains here
are not gains against other engines (docs/strength.md): a tuned setting ships only after the
foreign yardstick.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

import numpy as np

from engine.board import Board
from engine.defs import MAX_MOVES
from search import tunables
from search.driver import Searcher
from search.workspace import set_tunables
from tools import paths
from tools.matches import elo
from tools.matches.match import load_openings
from tools.training.selfplay import BLACK_WINS, WHITE_WINS, play_between

TT_MB = 8
MAX_PLIES = 400
HARD_FACTOR = 8
ALPHA, GAMMA = 0.602, 0.101
SAVE_EVERY_S = 10.0

_worker: dict = {}


def _start_worker(network: str | None) -> None:
    """One process's two searchers and scratch, made once."""
    _worker["sides"] = (Searcher(TT_MB, network=network), Searcher(TT_MB, network=network))
    _worker["moves"] = np.zeros(MAX_MOVES, dtype=np.int64)


def play_pair(fen: str, first: dict[str, int], second: dict[str, int], nodes: int) -> tuple[float, float]:
    """`first`'s scores (1, 0.5, 0) in two games from `fen`: with White, then with Black."""
    a, b = _worker["sides"]
    set_tunables(a.ws, first)
    set_tunables(b.ws, second)
    scores = []
    for a_white in (True, False):
        a.clear()
        b.clear()
        board = Board(fen)
        white, black = (a, b) if a_white else (b, a)
        result = play_between(board.tab, board.arrays, white.ws, white.tt, black.ws, black.tt,
                              _worker["moves"], nodes, nodes * HARD_FACTOR, MAX_PLIES)
        white_score = 1.0 if result == WHITE_WINS else 0.0 if result == BLACK_WINS else 0.5
        scores.append(white_score if a_white else 1.0 - white_score)
    return scores[0], scores[1]


def rounded(theta: dict[str, float]) -> dict[str, int]:
    """Values the engine can play: whole numbers within each tunable's range."""
    out = {}
    for t in tunables.TUNABLES:
        out[t.name] = min(max(int(round(theta[t.name])), t.low), t.high)
    return out


class Spsa:
    """The state of a run, as saved: settings, step number, current values and their history."""

    def __init__(self, path: Path, args: argparse.Namespace) -> None:
        self.path = path
        if path.exists():
            state = json.loads(path.read_text())
            self.settings = state["settings"]
            self.k = state["k"]
            self.theta = state["theta"]
            self.counts = state["counts"]
            self.history = state["history"]
        else:
            names = args.params.split(",") if args.params else list(tunables.NAMES)
            for name in names:
                tunables.index(name)
            self.settings = {"pairs": args.pairs, "nodes": args.nodes, "rate": args.rate, "seed": args.seed,
                             "params": names, "network": args.network}
            self.k = 0
            self.theta = {name: float(tunables.DEFAULTS[name]) for name in names}
            self.counts = [0, 0, 0, 0, 0]
            self.history = []
        self.rng = random.Random(self.settings["seed"] * 1_000_003 + self.k)
        pairs = self.settings["pairs"]
        self.big_a = pairs / 10
        steps = {t.name: t.step for t in tunables.TUNABLES}
        self.c = {name: steps[name] * pairs ** GAMMA for name in self.theta}
        self.a = {name: self.settings["rate"] * steps[name] ** 2 * (self.big_a + pairs) ** ALPHA
                  for name in self.theta}

    def perturb(self, k: int) -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, float]]:
        """Step k's signs, the two settings to play and each tunable's c_k."""
        signs = {name: self.rng.choice((-1, 1)) for name in self.theta}
        c_k = {name: self.c[name] / k ** GAMMA for name in self.theta}
        plus = rounded({**tunables.DEFAULTS, **{n: v + c_k[n] * signs[n] for n, v in self.theta.items()}})
        minus = rounded({**tunables.DEFAULTS, **{n: v - c_k[n] * signs[n] for n, v in self.theta.items()}})
        return signs, plus, minus, c_k

    def update(self, k: int, signs: dict[str, int], c_k: dict[str, float], pair: tuple[float, float]) -> None:
        """Move every tunable by the pair's result (plus's points minus minus's: -2..2)."""
        difference = 2 * (pair[0] + pair[1]) - 2
        for name, value in self.theta.items():
            t = tunables.TUNABLES[tunables.index(name)]
            a_k = self.a[name] / (self.big_a + k) ** ALPHA
            self.theta[name] = min(max(value + a_k / c_k[name] * difference * signs[name], t.low), t.high)
        self.counts[elo.pair_bucket(*pair)] += 1

    def save(self) -> None:
        state = {"settings": self.settings, "k": self.k, "theta": self.theta, "counts": self.counts,
                 "history": self.history, "values": rounded({**tunables.DEFAULTS, **self.theta})}
        part = self.path.with_suffix(".part")
        part.write_text(json.dumps(state, indent=1))
        part.replace(self.path)


def tune(args: argparse.Namespace) -> int:
    out = Path(args.file)
    run = Spsa(out, args)
    fens = load_openings(str(paths.openings()), False)
    pairs, nodes = run.settings["pairs"], run.settings["nodes"]
    started, saved = time.perf_counter(), time.perf_counter()
    done_here = 0
    pending: dict[Future, tuple] = {}
    next_k = run.k + 1
    with ProcessPoolExecutor(args.concurrency, initializer=_start_worker,
                             initargs=(run.settings["network"],)) as pool:
        while next_k <= pairs or pending:
            while next_k <= pairs and len(pending) < args.concurrency:
                signs, plus, minus, c_k = run.perturb(next_k)
                fen = fens[run.rng.randrange(len(fens))]
                pending[pool.submit(play_pair, fen, plus, minus, nodes)] = (next_k, signs, c_k)
                next_k += 1
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                k, signs, c_k = pending.pop(future)
                run.update(k, signs, c_k, future.result())
                run.k += 1          # steps finished: a resumed run plays the unfinished ones again
                done_here += 1
                if run.k % 100 == 0:
                    run.history.append({"k": run.k, **{n: round(v, 2) for n, v in run.theta.items()}})
                    rate = done_here / (time.perf_counter() - started) * 3600
                    shown = " ".join(f"{n}={v:.1f}" for n, v in run.theta.items())
                    print(f"step {run.k}/{pairs} ({rate:.0f} pairs/h): {shown}", file=sys.stderr, flush=True)
            if time.perf_counter() - saved > SAVE_EVERY_S:
                run.save()
                saved = time.perf_counter()
    run.save()
    print(json.dumps(rounded({**tunables.DEFAULTS, **run.theta})))
    return 0


def parse_values(text: str) -> dict[str, int]:
    """A saved run's rounded values, or `name=value,name=value`."""
    path = Path(text)
    if path.exists():
        return json.loads(path.read_text())["values"]
    values = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        values[name.strip()] = int(value)
    return values


def ab(args: argparse.Namespace) -> int:
    """The values against the defaults: pentanomial Elo of the values."""
    values = tunables.checked(parse_values(args.file))
    fens = load_openings(str(paths.openings()), False)
    rng = random.Random(args.seed)
    chosen = [fens[rng.randrange(len(fens))] for _ in range(args.pairs)]
    counts = [0, 0, 0, 0, 0]
    points = 0.0
    started = time.perf_counter()
    with ProcessPoolExecutor(args.concurrency, initializer=_start_worker, initargs=(args.network,)) as pool:
        futures = [pool.submit(play_pair, fen, values, dict(tunables.DEFAULTS), args.nodes) for fen in chosen]
        for i, future in enumerate(futures, 1):
            pair = future.result()
            counts[elo.pair_bucket(*pair)] += 1
            points += pair[0] + pair[1]
            if i % 50 == 0 or i == len(futures):
                estimate = elo.pentanomial(counts)
                print(f"{i} pairs: {points / (2 * i):.1%}, {elo.fmt_elo(estimate.elo)} "
                      f"({elo.fmt_elo(estimate.lo)}..{elo.fmt_elo(estimate.hi)}), pairs {counts}, "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    estimate = elo.pentanomial(counts)
    changed = {n: v for n, v in values.items() if v != tunables.DEFAULTS[n]}
    print(json.dumps({"values": changed, "pairs": args.pairs, "nodes": args.nodes, "seed": args.seed,
                      "counts": counts, "score": points / (2 * args.pairs), "elo": round(estimate.elo, 1),
                      "low": round(estimate.lo, 1), "high": round(estimate.hi, 1)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tune", help="run (or resume) SPSA, its state in FILE")
    t.add_argument("file")
    t.add_argument("--pairs", type=int, default=8000, help="SPSA steps, a game pair each")
    t.add_argument("--params", default="", help="comma-separated tunables (default: all)")
    t.add_argument("--rate", type=float, default=0.002,
                   help="the last step's move per point of a pair's score, in steps")
    a = sub.add_parser("ab", help="play FILE's values (or name=value,...) against the defaults")
    a.add_argument("file")
    a.add_argument("--pairs", type=int, default=500)
    for p in (t, a):
        p.add_argument("--nodes", type=int, default=6000, help="soft node limit a move")
        p.add_argument("--concurrency", type=int, default=2)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--network", default=None, help="network file (default: the shipped one)")
    args = parser.parse_args(argv)
    try:
        return tune(args) if args.command == "tune" else ab(args)
    except (ValueError, OSError) as err:
        print(f"spsa: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
