"""Texel tuning of the evaluation weights on positions labelled with game results and, where
the data has them, the search scores of the engine that played the games.

    python -m tools.training.tune runs/tuning.txt [--epochs 400] [--write]
    python -m tools.training.tune ~/.cache/jitfish/tuning/jitfish-5000 --result-weight 0.5 --write

Each line of the data is `FEN | result` or `FEN | result | score` (result 1.0, 0.5 or 0.0 and
score in centipawns, both from white's side); a folder stands for its `chunk-*.txt` files
(tools/training/gen_tuning_data.py). Positions repeated in the data (first four FEN fields) count once.
The target of a position is `w * result + (1 - w) * sigmoid(K * score / 400)` with w the
`--result-weight` (the result alone where a line has no score). The evaluation is linear in its
weights apart from the endgame scale and the mop-up bonus, so every position is reduced once to
its sparse term counts (engine trace); the tuner then fits all (mg, eg) weights to minimise the
mean squared error between the target and sigmoid(K * eval / 400) with Adam, K being fitted to
the results first. `--write` saves the result to eval/weights.json (run-time data: no
recompilation).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from numba import njit

from engine.board import Board
from engine.fen import FenError
from eval.evaluate import TRACE_EXTRA, TRACE_PHASE, TRACE_SCALE
from eval.explain import trace_position
from eval.params import LAYOUT, N_PARAMS, PHASE_MAX, WEIGHTS_FILE, weights, write_weights
from search.driver import Searcher

FIXED = {"material": [5]}       # king material stays 0
HOLD_OUT_BLOCK = 200            # positions per held-out stretch (a few games)


def data_files(sources: list[str]) -> list[Path]:
    """The data files named: a folder stands for its chunk files in order."""
    files: list[Path] = []
    for source in sources:
        path = Path(source).expanduser()
        files.extend(sorted(path.glob("chunk-*.txt")) if path.is_dir() else [path])
    return files


def read_labels(files: list[Path]) -> Iterator[tuple[str, float, float]]:
    """(FEN, result, score or NaN) of each valid data line, skipping repeats of a position
    (first four FEN fields) and lines that do not parse."""
    seen: set[str] = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = [part.strip() for part in line.split("|")]
                if len(fields) not in (2, 3) or fields[0].startswith("#"):
                    continue
                try:
                    result = float(fields[1])
                    score = float(fields[2]) if len(fields) == 3 else math.nan
                except ValueError:
                    continue
                key = " ".join(fields[0].split()[:4])
                if result not in (0.0, 0.5, 1.0) or key in seen:
                    continue
                seen.add(key)
                yield fields[0], result, score


def split_held_out(count: int, share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows) of `count` positions: whole stretches of HOLD_OUT_BLOCK
    held out (positions of one game are consecutive and alike, so that the held-out loss is not
    flattered by near-copies of training positions), at least one stretch on each side."""
    blocks = np.arange(count) // HOLD_OUT_BLOCK
    chosen = np.random.default_rng(seed).random(blocks.max() + 1) < share
    if chosen.all() or not chosen.any():
        chosen[:] = False
        chosen[-1] = True
    return np.flatnonzero(~chosen[blocks]), np.flatnonzero(chosen[blocks])


def blend(result: np.ndarray, score: np.ndarray, k: float, result_weight: float) -> np.ndarray:
    """The tuning target: the result weighted `result_weight`, the rest the score's expected
    result sigmoid(k * score / 400); the result alone where the score is missing (NaN)."""
    expected = 1.0 / (1.0 + np.power(10.0, -k * np.nan_to_num(score) / 400.0))
    mixed = result_weight * result + (1.0 - result_weight) * expected
    return np.where(np.isnan(score), result, mixed)


class Dataset:
    """Sparse term counts (white minus black) per position, with phase, scale, extra, result,
    score and the target the tuner fits (the result until `blend` sets it). Only quiet positions
    are kept: those where quiescence search agrees with the static evaluation within
    `quiet_margin`, so that the labels judge the evaluation, not tactics."""

    def __init__(self, sources: list[str], limit: int | None = None, quiet_margin: int = 20) -> None:
        w = weights()
        indptr, indices, values = [0], [], []
        phase, scale, extra, result, score = [], [], [], [], []
        board = Board()
        searcher = Searcher(1, network="")
        self.skipped = 0
        start = time.perf_counter()
        for number, (fen, outcome, searched) in enumerate(read_labels(data_files(sources))):
            if limit is not None and len(result) >= limit:
                break
            try:
                board.set_fen(fen, chess960=True)      # X-FEN: standard and Chess960 positions alike
            except FenError:
                continue
            if board.is_check() or \
                    abs(searcher.quiescence(board) - searcher.static_eval(board)) > quiet_margin:
                self.skipped += 1
                continue
            _, trace = trace_position(board, w)
            counts = trace[:N_PARAMS] - trace[N_PARAMS:2 * N_PARAMS]
            nonzero = np.flatnonzero(counts)
            indices.extend(nonzero.tolist())
            values.extend(counts[nonzero].tolist())
            indptr.append(len(indices))
            phase.append(trace[TRACE_PHASE])
            scale.append(trace[TRACE_SCALE])
            extra.append(trace[TRACE_EXTRA])
            result.append(outcome)
            score.append(searched)
            if number % 50000 == 0 and number:
                print(f"  traced {number} positions ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
        self.indptr = np.array(indptr, dtype=np.int64)
        self.indices = np.array(indices, dtype=np.int64)
        self.values = np.array(values, dtype=np.float64)
        self.phase = np.array(phase, dtype=np.float64)
        self.scale = np.array(scale, dtype=np.float64)
        self.extra = np.array(extra, dtype=np.float64)
        self.result = np.array(result, dtype=np.float64)
        self.score = np.array(score, dtype=np.float64)
        self.target = self.result.copy()

    def __len__(self) -> int:
        return len(self.result)

    def subset(self, rows: np.ndarray) -> Dataset:
        """The positions at `rows`, as a new Dataset."""
        part = Dataset.__new__(Dataset)
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        part.indptr = np.concatenate([[0], np.cumsum(ends - starts)])
        take = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)]) if len(rows) else np.zeros(0, int)
        part.indices, part.values = self.indices[take], self.values[take]
        for name in ("phase", "scale", "extra", "result", "score", "target"):
            setattr(part, name, getattr(self, name)[rows])
        return part


@njit(cache=True)
def _model(indptr, indices, values, phase, scale, extra, w, p):
    """The linear model's evaluation (white's side) of position p for weights w (N_PARAMS, 2)."""
    mg = 0.0
    eg = 0.0
    for k in range(indptr[p], indptr[p + 1]):
        mg += values[k] * w[indices[k], 0]
        eg += values[k] * w[indices[k], 1]
    return (mg * phase[p] + eg * scale[p] / 64.0 * (PHASE_MAX - phase[p])) / PHASE_MAX + extra[p]


@njit(cache=True)
def _evals(indptr, indices, values, phase, scale, extra, w):
    out = np.empty(len(phase))
    for p in range(len(phase)):
        out[p] = _model(indptr, indices, values, phase, scale, extra, w, p)
    return out


@njit(cache=True)
def _loss_and_gradient(indptr, indices, values, phase, scale, extra, target, w, k):
    """Mean squared error of sigmoid(k * eval / 400) against the targets, and its gradient."""
    n = len(phase)
    grad = np.zeros_like(w)
    loss = 0.0
    c = k * math.log(10.0) / 400.0
    for p in range(n):
        s = 1.0 / (1.0 + math.exp(-c * _model(indptr, indices, values, phase, scale, extra, w, p)))
        err = s - target[p]
        loss += err * err
        d = 2.0 * err * s * (1.0 - s) * c / n
        dmg = d * phase[p] / PHASE_MAX
        deg = d * scale[p] / 64.0 * (PHASE_MAX - phase[p]) / PHASE_MAX
        for j in range(indptr[p], indptr[p + 1]):
            grad[indices[j], 0] += values[j] * dmg
            grad[indices[j], 1] += values[j] * deg
    return loss / n, grad


def loss(data: Dataset, w: np.ndarray, k: float, against: np.ndarray | None = None) -> float:
    """Mean squared error of sigmoid(k * eval / 400) against the targets (or `against`)."""
    e = _evals(data.indptr, data.indices, data.values, data.phase, data.scale, data.extra, w)
    s = 1.0 / (1.0 + np.power(10.0, -k * e / 400.0))
    return float(np.mean((s - (data.target if against is None else against)) ** 2))


def fit_k(data: Dataset, w: np.ndarray) -> float:
    """The scaling constant K that best maps our centipawns to results (golden-section search)."""
    lo, hi = 0.2, 3.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(data, w, a, data.result) < loss(data, w, b, data.result):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def tune(data: Dataset, check: Dataset, w: np.ndarray, k: float, epochs: int, rate: float,
         l2: float) -> np.ndarray:
    """Adam on all weights except the fixed ones, with an L2 pull of strength `l2` towards the
    starting weights; returns the weights with the lowest held-out loss seen."""
    start = w.astype(np.float64).copy()
    w = start.copy()
    best, best_loss = w.copy(), loss(check, w, k)
    frozen = np.zeros_like(w, dtype=bool)
    for name, offset, _ in LAYOUT:
        for i in FIXED.get(name, []):
            frozen[offset + i] = True
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for epoch in range(1, epochs + 1):
        err, grad = _loss_and_gradient(data.indptr, data.indices, data.values, data.phase, data.scale,
                                       data.extra, data.target, w, k)
        grad += 2.0 * l2 * (w - start)
        grad[frozen] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9 ** epoch)) / (np.sqrt(v / (1 - 0.999 ** epoch)) + 1e-12)
        if epoch % 25 == 0:
            held = loss(check, w, k)
            if held < best_loss:
                best, best_loss = w.copy(), held
            if epoch % 100 == 0:
                print(f"epoch {epoch:5d} training loss {err:.6f} held out {held:.6f}", file=sys.stderr)
    return best


def fit_wdl(data: Dataset, w: np.ndarray) -> tuple[float, float]:
    """(a, b) of the win/draw/loss model P(win) = 1 / (1 + exp((a - eval) / b)),
    P(loss) = 1 / (1 + exp((a + eval) / b)), by maximum likelihood over the game results."""
    e = _evals(data.indptr, data.indices, data.values, data.phase, data.scale, data.extra, w)
    win, draw = data.result == 1.0, data.result == 0.5
    loss_ = ~(win | draw)

    def log_likelihood(a: float, b: float) -> float:
        pw = 1 / (1 + np.exp((a - e) / b))
        pl = 1 / (1 + np.exp((a + e) / b))
        pd = np.clip(1 - pw - pl, 1e-9, 1)
        return float(np.log(pw[win] + 1e-9).sum() + np.log(pd[draw]).sum() + np.log(pl[loss_] + 1e-9).sum())

    best = (float("-inf"), 0.0, 0.0)
    for a in np.arange(0, 601, 10):
        for b in np.arange(20, 401, 10):
            best = max(best, (log_likelihood(a, b), float(a), float(b)))
    return best[1], best[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+",
                        help="files of `FEN | result [| score]` lines, or folders of chunks")
    parser.add_argument("--limit", type=int, help="use at most this many positions")
    parser.add_argument("--epochs", type=int, default=400)
    parser.add_argument("--rate", type=float, default=1.0, help="Adam step size in centipawns")
    parser.add_argument("--validation", type=float, default=0.1, help="share held out to check the fit")
    parser.add_argument("--l2", type=float, default=1e-7, help="pull towards the starting weights")
    parser.add_argument("--quiet-margin", type=int, default=20,
                        help="skip positions where quiescence differs from the static eval by more")
    parser.add_argument("--result-weight", type=float, default=1.0,
                        help="share of the game result in the target, the rest the search score (default 1)")
    parser.add_argument("--write", action="store_true", help="save the result to eval/weights.json")
    parser.add_argument("--wdl", action="store_true", help="also fit the win/draw/loss model")
    args = parser.parse_args(argv)
    if not 0.0 <= args.result_weight <= 1.0:
        parser.error("--result-weight must be between 0 and 1")

    everything = Dataset(args.data, args.limit, args.quiet_margin)
    print(f"{everything.skipped} positions skipped as not quiet", file=sys.stderr)
    if len(everything) < 2 * HOLD_OUT_BLOCK:
        parser.error(f"{len(everything)} quiet positions: too few to tune (at least {2 * HOLD_OUT_BLOCK})")
    training, held_out = split_held_out(len(everything), args.validation, seed=1)
    data, check = everything.subset(training), everything.subset(held_out)
    print(f"{len(data)} training positions, {len(check)} held out", file=sys.stderr)
    w0 = weights().astype(np.float64)
    k = fit_k(data, w0)
    scored = int(np.count_nonzero(~np.isnan(everything.score)))
    print(f"{scored} positions with a search score; result weight {args.result_weight}", file=sys.stderr)
    for part in (data, check):
        part.target = blend(part.result, part.score, k, args.result_weight)
    print(f"K = {k:.3f}; loss with current weights: training {loss(data, w0, k):.6f}, "
          f"held out {loss(check, w0, k):.6f}", file=sys.stderr)
    w = tune(data, check, w0, k, args.epochs, args.rate, args.l2)
    print(f"loss with tuned weights: training {loss(data, w, k):.6f}, held out {loss(check, w, k):.6f}",
          file=sys.stderr)
    if args.wdl:
        a, b = fit_wdl(everything, w)
        print(f"WDL model: a = {a:.0f}, b = {b:.0f} (set WDL_A, WDL_B in eval/params.py)", file=sys.stderr)
    if args.write:
        write_weights(w)
        print(f"wrote {WEIGHTS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
