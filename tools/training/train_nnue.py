"""Train an evaluation network on self-play data (issue 16, step 4): 768 -> H x 2 -> 1.

    python -m tools.training.train_nnue ~/.cache/jitfish/tuning/jitfish-5000 --out runs/nnue.npz \\
        [--hidden 256] [--epochs 30] [--result-weight 0.3] [--mirror]

The data are tools/training/gen_tuning_data.py lines (`FEN | result | score`, chunk folders or files;
positions without a score are skipped: a network needs the search's judgement, not only the
result). Inputs are the 768 piece-square features seen from each side (own pieces first, the
board mirrored for black); each side's features feed the same first layer, whose two outputs
(side to move first) go through SCReLU, clamp(x, 0, 1)^2, into one output neuron. The output
times 400 is the evaluation in centipawns for the side to move; it is trained so that
sigmoid(output) matches `w * result + (1 - w) * sigmoid(score / 400)` (w = --result-weight,
result and score from the side to move), mean squared error, Adam on mini-batches, a tenth of
the positions (whole chunks' stretches) held out to keep the best epoch.

The saved file (numpy .npz, float32) holds `w1` (768 x H), `b1` (H), `w2` (2H), `b2` (1) and the
training settings; the engine's `EvalFile` option loads it (eval/nnue.py quantises it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from eval.nnue import EVAL_SCALE, HIDDEN, INPUTS, input_index
from tools.training.tune import HOLD_OUT_BLOCK, data_files, read_labels, split_held_out

MAX_PIECES = 32
PIECE_INDEX = {symbol: index for index, symbol in enumerate("PNBRQKpnbrqk")}


def fen_pieces(fen: str) -> tuple[np.ndarray, int]:
    """(piece codes colour * 384 + type * 64 + square, -1 padded to 32; 0 or 1 for the side to
    move) of a FEN, white's point of view."""
    placement, side = fen.split()[:2]
    pieces = np.full(MAX_PIECES, -1, dtype=np.int16)
    count = 0
    for rank_index, row in enumerate(placement.split("/")):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            code = PIECE_INDEX[char]
            square = (7 - rank_index) * 8 + file
            pieces[count] = (code // 6) * 384 + (code % 6) * 64 + square
            count += 1
            file += 1
    return pieces, int(side == "b")


class Positions:
    """Encoded positions with the target each is trained to (side to move's point of view)."""

    def __init__(self, sources: list[str], result_weight: float, limit: int | None = None) -> None:
        pieces, stm, target, castling = [], [], [], []
        for fen, result, score in read_labels(data_files(sources)):
            if math.isnan(score):
                continue
            encoded, black = fen_pieces(fen)
            castling.append(fen.split()[2] != "-")
            expected = 1.0 / (1.0 + math.exp(-score / EVAL_SCALE))
            label = result_weight * result + (1.0 - result_weight) * expected
            pieces.append(encoded)
            stm.append(black)
            target.append(1.0 - label if black else label)
            if limit is not None and len(target) >= limit:
                break
        self.pieces = np.array(pieces, dtype=np.int16).reshape(-1, MAX_PIECES)
        self.stm = np.array(stm, dtype=np.int8)
        self.target = np.array(target, dtype=np.float32)
        self.castling = np.array(castling, dtype=bool)

    def __len__(self) -> int:
        return len(self.target)

    def subset(self, rows: np.ndarray) -> Positions:
        part = Positions.__new__(Positions)
        part.pieces, part.stm, part.target = self.pieces[rows], self.stm[rows], self.target[rows]
        part.castling = self.castling[rows]
        return part

    def with_mirrors(self) -> Positions:
        """These positions and, for those without castling rights, the same position with the files
        mirrored (a <-> h) and the same target: chess is symmetric that way, so a small data set
        counts twice. Castling rights break the symmetry and the inputs do not show them."""
        rows = np.flatnonzero(~self.castling)
        mirrored = self.pieces[rows].copy()
        mirrored[mirrored >= 0] ^= 7                    # the file is the code's low three bits
        both = Positions.__new__(Positions)
        both.pieces = np.concatenate([self.pieces, mirrored])
        both.stm = np.concatenate([self.stm, self.stm[rows]])
        both.target = np.concatenate([self.target, self.target[rows]])
        both.castling = np.concatenate([self.castling, self.castling[rows]])
        return both


@njit(cache=True, inline="always")
def _feature(code, perspective):
    """The input index of a piece (colour * 384 + type * 64 + square) seen from `perspective`."""
    return input_index(code // 384, (code // 64) % 6, code % 64, perspective)


@njit(cache=True, inline="always")
def _accumulate(pieces, row, perspective, w1, b1, acc):
    acc[:] = b1
    for k in range(MAX_PIECES):
        code = pieces[row, k]
        if code < 0:
            break
        acc += w1[_feature(code, perspective)]


@njit(cache=True)
def forward(pieces, stm, w1, b1, w2, b2):
    """The network's output for every position (multiply by EVAL_SCALE for centipawns)."""
    n = pieces.shape[0]
    hidden = b1.shape[0]
    out = np.empty(n, dtype=np.float32)
    acc = np.empty(hidden, dtype=np.float32)
    for row in range(n):
        total = b2[0]
        for side in range(2):
            _accumulate(pieces, row, stm[row] ^ side, w1, b1, acc)
            for j in range(hidden):
                x = min(max(acc[j], 0.0), 1.0)
                total += x * x * w2[side * hidden + j]
        out[row] = total
    return out


@njit(cache=True, parallel=True)
def _gradients(pieces, stm, target, rows, w1, b1, w2, b2, threads):
    """Summed squared error over `rows` and the gradients, each thread its own buffers."""
    hidden = b1.shape[0]
    g1 = np.zeros((threads,) + w1.shape, dtype=np.float32)
    gb1 = np.zeros((threads, hidden), dtype=np.float32)
    g2 = np.zeros((threads, 2 * hidden), dtype=np.float32)
    gb2 = np.zeros(threads, dtype=np.float32)
    losses = np.zeros(threads)
    span = (len(rows) + threads - 1) // threads
    for t in prange(threads):
        acc = np.empty((2, hidden), dtype=np.float32)
        for i in range(t * span, min(len(rows), (t + 1) * span)):
            row = rows[i]
            total = b2[0]
            for side in range(2):
                _accumulate(pieces, row, stm[row] ^ side, w1, b1, acc[side])
                for j in range(hidden):
                    x = min(max(acc[side, j], 0.0), 1.0)
                    total += x * x * w2[side * hidden + j]
            s = 1.0 / (1.0 + math.exp(-total))
            err = s - target[row]
            losses[t] += err * err
            d = 2.0 * err * s * (1.0 - s)
            gb2[t] += d
            for side in range(2):
                for j in range(hidden):
                    a = acc[side, j]
                    x = min(max(a, 0.0), 1.0)
                    g2[t, side * hidden + j] += d * x * x
                    acc[side, j] = d * w2[side * hidden + j] * 2.0 * x if 0.0 < a < 1.0 else 0.0
                gb1[t] += acc[side]
                perspective = stm[row] ^ side
                for k in range(MAX_PIECES):
                    code = pieces[row, k]
                    if code < 0:
                        break
                    g1[t, _feature(code, perspective)] += acc[side]
    return losses.sum(), g1.sum(axis=0), gb1.sum(axis=0), g2.sum(axis=0), gb2.sum()


def loss(data: Positions, net: dict[str, np.ndarray]) -> float:
    """Mean squared error of sigmoid(output) against the targets."""
    out = forward(data.pieces, data.stm, net["w1"], net["b1"], net["w2"], net["b2"])
    return float(np.mean((1.0 / (1.0 + np.exp(-out)) - data.target) ** 2))


def initial_net(hidden: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"w1": (rng.standard_normal((INPUTS, hidden)) * 0.05).astype(np.float32),
            "b1": np.full(hidden, 0.1, dtype=np.float32),
            "w2": (rng.standard_normal(2 * hidden) * 0.05).astype(np.float32),
            "b2": np.zeros(1, dtype=np.float32)}


def train(data: Positions, check: Positions, net: dict[str, np.ndarray], epochs: int, batch: int,
          rate: float, seed: int, threads: int, report=print) -> dict[str, np.ndarray]:
    """Adam on mini-batches (the step size decays by a tenth over the run); returns the net with
    the lowest held-out loss seen at the end of an epoch."""
    rng = np.random.default_rng(seed)
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in net.items()}
    best, best_loss = {k: v.copy() for k, v in net.items()}, loss(check, net)
    step = 0
    steps = epochs * max(1, (len(data) + batch - 1) // batch)
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(len(data)).astype(np.int64)
        total = 0.0
        for first in range(0, len(order), batch):
            rows = order[first:first + batch]
            err, g1, gb1, g2, gb2 = _gradients(data.pieces, data.stm, data.target, rows, net["w1"],
                                               net["b1"], net["w2"], net["b2"], threads)
            total += err
            step += 1
            lr = rate * (1.0 - 0.9 * step / steps)
            grads = {"w1": g1, "b1": gb1, "w2": g2, "b2": np.array([gb2], dtype=np.float32)}
            for name, grad in grads.items():
                m, v = moments[name]
                grad = grad / len(rows)
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                net[name] -= (lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
                              ).astype(np.float32)
        held = loss(check, net)
        if held < best_loss:
            best, best_loss = {k: v.copy() for k, v in net.items()}, held
        seconds = time.perf_counter() - started
        report(f"epoch {epoch:3d}  training loss {total / len(data):.6f}  held out {held:.6f}  "
               f"{len(data) / seconds:,.0f} positions/s")
    return best


def save(net: dict[str, np.ndarray], path: Path, settings: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **net, settings=np.array(json.dumps(settings)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.train_nnue", description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", help="tools/training/gen_tuning_data.py files or chunk folders")
    parser.add_argument("--out", required=True, help="the trained network (.npz)")
    parser.add_argument("--hidden", type=int, default=HIDDEN,
                        help=f"first-layer neurons per side (default {HIDDEN}, what the engine reads)")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=16384)
    parser.add_argument("--rate", type=float, default=0.001, help="Adam step size (default 0.001)")
    parser.add_argument("--result-weight", type=float, default=0.3,
                        help="share of the game result in the target, the rest the search score "
                             "(default 0.3)")
    parser.add_argument("--validation", type=float, default=0.1, help="share held out (default 0.1)")
    parser.add_argument("--limit", type=int, help="use at most this many positions")
    parser.add_argument("--mirror", action="store_true",
                        help="also train on the file-mirrored copy of every position without castling rights")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0.0 <= args.result_weight <= 1.0:
        parser.error("--result-weight must be between 0 and 1")
    started = time.perf_counter()
    everything = Positions(args.data, args.result_weight, args.limit)
    if len(everything) < 2 * HOLD_OUT_BLOCK:
        parser.error(f"{len(everything)} scored positions: too few to train on "
                     f"(at least {2 * HOLD_OUT_BLOCK})")
    training, held_out = split_held_out(len(everything), args.validation, args.seed)
    data, check = everything.subset(training), everything.subset(held_out)
    if args.mirror:
        data = data.with_mirrors()
    print(f"{len(data)} training positions, {len(check)} held out "
          f"(read in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    net = train(data, check, initial_net(args.hidden, args.seed), args.epochs, args.batch, args.rate,
                args.seed, args.threads, report=lambda line: print(line, file=sys.stderr, flush=True))
    settings = {key: value for key, value in vars(args).items() if key not in ("out",)}
    settings.update(positions=len(everything), held_out_loss=loss(check, net), eval_scale=EVAL_SCALE)
    save(net, Path(args.out), settings)
    print(f"held-out loss {settings['held_out_loss']:.6f}; wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
