"""Train the evaluation network on self-play chunks: 768 -> H x 2 -> 1 of 8, SCReLU, in numba on the CPU.

    python -m tools.training.train_nnue data/selfplay/gen1 --out eval/networks/candidate.npz \\
        [--hidden 64] [--epochs 20] [--result-weight 0.2] [--rate 0.002] [--init eval/network.npz]

Data: the chunks (tools/training/records.py) of the folders or files given; positions in check,
whose best move captured or promoted, or whose score is beyond +-MAX_SCORE are left out. The
test set is fixed (--test, by default chunk 0 of gen1), never trained on, so runs compare. The
positions are read a chunk at a time and held packed, 37 bytes each with their target (200 M
positions in about 7.5 GB).

Inputs are the 768 piece-square features seen from each side (own pieces first, the board
mirrored vertically for black and horizontally when that side's king is on the e-h files: eval/nnue.py);
both sides' features feed the same first layer, whose two outputs (side to move first) go through
SCReLU, clamp(x, 0, 1)^2, into one output o, with one set of output weights per stage of material
(OUTPUT_BUCKETS, by the number of pieces on the board). The target is
`w * result + (1 - w) * sigmoid(score / K)` (w = --result-weight, both from the side to move), the
loss the mean squared error of sigmoid(o); K is fitted so that sigmoid(score / K) predicts the
results best, and the saved output layer is scaled so that the engine's o x 400 (eval/nnue.py's
EVAL_SCALE) is o x K: centipawns on the search's own scale, so its margins keep their meaning.
AdamW on shuffled mini-batches, the step size on a cosine from --rate down to a hundredth, every
weight clipped to +-CLIP after each step (what int16 quantisation can hold). A run can be cut off
at any moment: its state is checkpointed (--checkpoint) every ten minutes and at each epoch's end,
and the same command run again goes on from there to the same network it would have trained.

The saved file (numpy .npz, float32) holds `w1` (768 x H), `b1` (H), `w2` (8 x 2H), `b2` (8) and
the training settings; the engine's `EvalFile` option loads it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from engine.bits import ONE, lsb
from engine.defs import KING
from eval.nnue import (EVAL_SCALE, INPUTS, MAX_HIDDEN, OUTPUT_BUCKETS, input_index, mirrored, output_bucket,
                       read_saved)
from tools.training import records
from tools.training.store import chunk_files

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_TEST = ROOT / "data" / "selfplay" / "gen1" / "chunk-00000.jfsp.xz"
MAX_PIECES = records.MAX_PIECES
MAX_SCORE = 3000             # positions scored beyond this (decided, or a mate) teach little
CLIP = 1.98                  # weight bound: 32 inputs of 1.98 x 255 still fit an int16 accumulator
WEIGHT_DECAY = 0.01
FINAL_RATE = 0.01            # the cosine schedule ends at this share of --rate


class Dataset:
    """Positions ready for training: the board packed (pack()), side to move, search score and
    result (0 loss, 1 draw, 2 win, halved) from the side to move's view."""

    def __init__(self, boards: np.ndarray, stm: np.ndarray, score: np.ndarray, result: np.ndarray) -> None:
        self.boards, self.stm, self.score, self.result = boards, stm, score, result

    @classmethod
    def read(cls, paths: list[Path], workers: int = 1) -> Dataset:
        """The positions training uses from `paths`, read a chunk at a time (by `workers`
        processes, in order) so that only the packed rows (33 bytes a position) of the whole set
        are ever held."""
        if workers > 1 and len(paths) > 1:
            with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                parts = list(pool.map(_read_chunk, paths))
        else:
            parts = [_read_chunk(path) for path in paths]
        columns = [list(column) for column in zip(*parts)]
        del parts
        if not columns:
            columns = [[np.empty((0, 3), np.uint64)], [np.empty(0, np.int8)], [np.empty(0, np.float32)],
                       [np.empty(0, np.float32)]]
        whole = []
        for column in columns:                 # one column at a time: the parts go as they are copied
            whole.append(np.concatenate(column))
            column.clear()
        return cls(*whole)

    def __len__(self) -> int:
        return len(self.stm)

    def targets(self, scale: float, result_weight: float) -> np.ndarray:
        expected = 1.0 / (1.0 + np.exp(-self.score / scale))
        return (result_weight * self.result + (1.0 - result_weight) * expected).astype(np.float32)


def _read_chunk(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One chunk's positions that training uses: packed boards, side to move, score, result / 2."""
    data = records.Positions([path])
    keep = trained_on(data)
    return (pack(data.pieces[keep]), data.stm[keep], data.score[keep].astype(np.float32),
            data.result[keep].astype(np.float32) / 2)


@njit(cache=True)
def pack(pieces):
    """Rows of piece codes (colour * 384 + type * 64 + square, -1 padded; records.Positions) as
    three words each: the occupied squares, then the pieces (colour * 6 + type) four bits each in
    the order of their squares, so 24 bytes a position instead of 64."""
    boards = np.zeros((pieces.shape[0], 3), dtype=np.uint64)
    kinds = np.empty(64, dtype=np.int64)
    for row in range(pieces.shape[0]):
        occupied = np.uint64(0)
        for k in range(pieces.shape[1]):
            code = pieces[row, k]
            if code < 0:
                break
            square = code % 64
            occupied |= np.uint64(1) << np.uint64(square)
            kinds[square] = (code // 384) * 6 + (code // 64) % 6
        boards[row, 0] = occupied
        k = 0
        for square in range(64):
            if occupied >> np.uint64(square) & np.uint64(1):
                boards[row, 1 + k // 16] |= np.uint64(kinds[square]) << np.uint64(4 * (k % 16))
                k += 1
    return boards


@njit(cache=True, inline="always")
def _codes(boards, row, out):
    """Unpack a row of pack() into `out` (codes in the order of their squares); returns how many."""
    occupied = boards[row, 0]
    k = 0
    while occupied:
        square = lsb(occupied)
        occupied &= occupied - ONE
        kind = np.int64((boards[row, 1 + k // 16] >> np.uint64(4 * (k % 16))) & np.uint64(15))
        out[k] = (kind // 6) * 384 + (kind % 6) * 64 + square
        k += 1
    return k


def trained_on(data: records.Positions) -> np.ndarray:
    """Which positions training uses: not in check, a quiet best move, a score within MAX_SCORE."""
    return ((data.flags & (records.IN_CHECK | records.NOISY_BEST)) == 0) & (np.abs(data.score) <= MAX_SCORE)


def hand_crafted_loss(path: Path, target: np.ndarray, scale: float) -> float:
    """The loss of the hand-crafted evaluation (sigmoid(eval / K)) against `target`, the targets of
    the first positions of chunk `path` that training would use: the mark a network has to beat."""
    from engine.board import Board
    from search.driver import Searcher

    keep = trained_on(records.Positions([path]))
    searcher, evals, row = Searcher(1, network=""), [], 0
    for game in records.games(path):
        board = Board(game.fen, game.chess960)
        for text in game.moves:
            if keep[row]:
                evals.append(searcher.static_eval(board))
                if len(evals) == len(target):
                    break
            board.push(board.parse_uci(text))
            row += 1
        if len(evals) == len(target):
            break
    predicted = 1.0 / (1.0 + np.exp(-np.array(evals, dtype=np.float64) / scale))
    return float(np.mean((predicted - target[:len(evals)]) ** 2))


def first(data: Dataset, count: int) -> Dataset:
    """The first `count` positions of `data` (--limit; the test sample)."""
    return Dataset(data.boards[:count], data.stm[:count], data.score[:count], data.result[:count])


def fit_scale(score: np.ndarray, result: np.ndarray) -> float:
    """K minimising the squared error of sigmoid(score / K) against the results (golden section)."""
    def error(k: float) -> float:
        return float(np.mean((1.0 / (1.0 + np.exp(-score / k)) - result) ** 2))
    low, high = 50.0, 2000.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if error(a) < error(b):
            high = b
        else:
            low = a
    return (low + high) / 2


@njit(cache=True, inline="always")
def _feature(code, perspective, flip):
    """The input index of a piece (colour * 384 + type * 64 + square) seen from `perspective`."""
    return input_index(code // 384, (code // 64) % 6, code % 64, perspective, flip)


@njit(cache=True, inline="always")
def _view(codes, count):
    """(whether white's view is mirrored a<->h, whether black's is, the output bucket) of a position
    whose first `count` codes are `codes`."""
    white = black = False
    for k in range(count):
        code = codes[k]
        if (code // 64) % 6 == KING:
            if code // 384 == 0:
                white = mirrored(code % 64)
            else:
                black = mirrored(code % 64)
    return white, black, output_bucket(count)


@njit(cache=True, inline="always")
def _accumulate(codes, count, perspective, flip, w1, b1, acc, features):
    """One side's first layer before activation into `acc`, its input indices into `features`
    (written out as loops over the neurons: numba vectorises those, not `acc += w1[f]`)."""
    hidden = acc.shape[0]
    for j in range(hidden):
        acc[j] = b1[j]
    for k in range(count):
        f = _feature(codes[k], perspective, flip)
        features[k] = f
        weights = w1[f]
        for j in range(hidden):
            acc[j] += weights[j]


@njit(cache=True)
def forward(boards, stm, w1, b1, w2, b2):
    """The network's output for every position of pack()ed `boards` (multiply by EVAL_SCALE for
    centipawns)."""
    n = boards.shape[0]
    hidden = b1.shape[0]
    out = np.empty(n, dtype=np.float32)
    acc = np.empty(hidden, dtype=np.float32)
    codes = np.empty(MAX_PIECES, dtype=np.int64)
    features = np.empty(MAX_PIECES, dtype=np.int64)
    for row in range(n):
        count = _codes(boards, row, codes)
        white, black, bucket = _view(codes, count)
        total = b2[bucket]
        for side in range(2):
            perspective = stm[row] ^ side
            _accumulate(codes, count, perspective, black if perspective else white, w1, b1, acc, features)
            for j in range(hidden):
                x = min(max(acc[j], 0.0), 1.0)
                total += x * x * w2[bucket, side * hidden + j]
        out[row] = total
    return out


@njit(cache=True, parallel=True, fastmath=True)
def _gradients(boards, stm, target, rows, w1, b1, w2, b2, threads):
    """Summed squared error over `rows` and the gradients, each thread its own buffers and rows
    (the same split every time: a run is repeatable). fastmath lets the sums over neurons run in
    vector lanes: about twice the positions a second of `acc += w1[f]` at 256 neurons."""
    hidden = b1.shape[0]
    g1 = np.zeros((threads,) + w1.shape, dtype=np.float32)
    gb1 = np.zeros((threads, hidden), dtype=np.float32)
    g2 = np.zeros((threads,) + w2.shape, dtype=np.float32)
    gb2 = np.zeros((threads,) + b2.shape, dtype=np.float32)
    losses = np.zeros(threads)
    span = (len(rows) + threads - 1) // threads
    zero, one, two = np.float32(0.0), np.float32(1.0), np.float32(2.0)
    for t in prange(threads):
        acc = np.empty((2, hidden), dtype=np.float32)
        codes = np.empty(MAX_PIECES, dtype=np.int64)
        features = np.empty((2, MAX_PIECES), dtype=np.int64)
        for i in range(t * span, min(len(rows), (t + 1) * span)):
            row = rows[i]
            count = _codes(boards, row, codes)
            white, black, bucket = _view(codes, count)
            total = np.float32(b2[bucket])
            for side in range(2):
                perspective = stm[row] ^ side
                a = acc[side]
                _accumulate(codes, count, perspective, black if perspective else white, w1, b1, a, features[side])
                out = w2[bucket, side * hidden:(side + 1) * hidden]
                part = zero
                for j in range(hidden):
                    x = min(max(a[j], zero), one)
                    part += x * x * out[j]
                total += part
            s = 1.0 / (1.0 + math.exp(-total))
            err = s - target[row]
            losses[t] += err * err
            d = np.float32(2.0 * err * s * (1.0 - s))
            gb2[t, bucket] += d
            for side in range(2):
                a = acc[side]                           # becomes the gradient at the first layer
                out = w2[bucket, side * hidden:(side + 1) * hidden]
                g_out = g2[t, bucket, side * hidden:(side + 1) * hidden]
                g_bias = gb1[t]
                for j in range(hidden):
                    v = a[j]
                    x = min(max(v, zero), one)
                    g_out[j] += d * x * x
                    g = d * out[j] * two * x if zero < v < one else zero
                    a[j] = g
                    g_bias[j] += g
                for k in range(count):
                    g_row = g1[t, features[side, k]]
                    for j in range(hidden):
                        g_row[j] += a[j]
    return losses.sum(), g1.sum(axis=0), gb1.sum(axis=0), g2.sum(axis=0), gb2.sum(axis=0)


@njit(cache=True, fastmath=True)
def _adamw(weights, grad, m, v, count, rate, step):
    """One AdamW step in place (moments 0.9 and 0.999) on the gradient summed over `count`
    positions, then the weights clipped to +-CLIP: one pass in float32, no temporaries."""
    f32 = np.float32
    decay = f32(1 - rate * WEIGHT_DECAY)
    scale, step_size = f32(1 / count), f32(rate / (1 - 0.9 ** step))
    fix2 = f32(1 / (1 - 0.999 ** step))
    w, g, mf, vf = weights.ravel(), grad.ravel(), m.ravel(), v.ravel()
    for i in range(w.size):
        gi = g[i] * scale
        mf[i] = f32(0.9) * mf[i] + f32(0.1) * gi
        vf[i] = f32(0.999) * vf[i] + f32(0.001) * gi * gi
        x = w[i] * decay - step_size * mf[i] / (np.sqrt(vf[i] * fix2) + f32(1e-8))
        w[i] = min(max(x, f32(-CLIP)), f32(CLIP))


def loss(data: Dataset, target: np.ndarray, net: dict[str, np.ndarray]) -> float:
    """Mean squared error of sigmoid(output) against the targets."""
    out = forward(data.boards, data.stm, net["w1"], net["b1"], net["w2"], net["b2"])
    return float(np.mean((1.0 / (1.0 + np.exp(-out)) - target) ** 2))


def initial_net(hidden: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {"w1": (rng.standard_normal((INPUTS, hidden)) * 0.05).astype(np.float32),
            "b1": np.full(hidden, 0.1, dtype=np.float32),
            "w2": (rng.standard_normal((OUTPUT_BUCKETS, 2 * hidden)) * 0.05).astype(np.float32),
            "b2": np.zeros(OUTPUT_BUCKETS, dtype=np.float32)}


def read_network(path: Path) -> tuple[dict[str, np.ndarray], dict]:
    """A network saved by save() and its settings (ValueError when it is not one)."""
    net, settings = read_saved(path)
    if net["w1"].shape[0] != INPUTS:
        raise ValueError(f"{path} is not a {INPUTS}-input network")
    return net, settings


def trained_form(net: dict[str, np.ndarray], scale: float) -> dict[str, np.ndarray]:
    """A saved network as the trainer computes with it for score scale K = `scale` (its output
    layer divided by what save() multiplied it by), to go on training it: fine-tuning."""
    factor = np.float32(EVAL_SCALE / scale)
    return {**net, "w2": net["w2"] * factor, "b2": net["b2"] * factor}


class Checkpoint:
    """A training run's whole state (weights, AdamW moments, step, place in the epoch's shuffle,
    the shuffle's generator) written to `path` every `every` seconds and at each epoch's end, so a
    run cut off at any moment goes on from there, to the same network, when the same command runs
    again. `identity` (the settings and data that determine the weights) is kept with it; a
    checkpoint of another run is refused, never taken up nor overwritten."""

    def __init__(self, path: Path, identity: dict, every: float = 600.0) -> None:
        self.path, self.identity, self.every = path, identity, every
        self.last = time.monotonic()

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.every

    def load(self) -> tuple[dict[str, np.ndarray], dict[str, tuple[np.ndarray, np.ndarray]], dict] | None:
        """(net, moments, state) of the saved run, None when there is none; ValueError when the
        file is another run's or unreadable."""
        if not self.path.exists():
            return None
        try:
            with np.load(self.path) as saved:
                identity = json.loads(str(saved["identity"]))
                state = json.loads(str(saved["state"]))
                net = {key[4:]: saved[key] for key in saved.files if key.startswith("net_")}
                moments = {name: (saved[f"m_{name}"], saved[f"v_{name}"]) for name in net}
        except (OSError, KeyError, EOFError, ValueError) as err:
            raise ValueError(f"cannot read the checkpoint {self.path}: {err}; delete it to start afresh") from None
        if identity != self.identity:
            differ = sorted(key for key in set(identity) | set(self.identity)
                            if identity.get(key) != self.identity.get(key))
            raise ValueError(f"the checkpoint {self.path} is another run's (it differs in {', '.join(differ)}): "
                             f"run that command again to finish it, or delete the file to start afresh")
        return net, moments, state

    def save(self, net: dict[str, np.ndarray], moments: dict[str, tuple[np.ndarray, np.ndarray]], state: dict) -> None:
        """Write the state atomically (a cut-off write leaves the previous checkpoint)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        arrays = {f"net_{name}": weights for name, weights in net.items()}
        for name, (m, v) in moments.items():
            arrays[f"m_{name}"], arrays[f"v_{name}"] = m, v
        with open(part, "wb") as out:
            np.savez(out, identity=np.array(json.dumps(self.identity)), state=np.array(json.dumps(state)), **arrays)
        os.replace(part, self.path)
        self.last = time.monotonic()

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def train(data: Dataset, target: np.ndarray, net: dict[str, np.ndarray], epochs: int, batch: int, rate: float,
          seed: int, threads: int, report=print, test: tuple[Dataset, np.ndarray] | None = None,
          checkpoint: Checkpoint | None = None) -> dict[str, np.ndarray]:
    """AdamW on shuffled mini-batches, the step size on a cosine from `rate` to FINAL_RATE x `rate`,
    weights clipped to +-CLIP; returns the net after the last epoch. With a `checkpoint`, a saved
    state of this run is taken up first (`net` is then ignored) and the state is saved as it goes."""
    rng = np.random.default_rng(seed)
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in net.items()}
    step, first_epoch, first_row, total = 0, 1, 0, 0.0
    saved = checkpoint.load() if checkpoint is not None else None
    if saved is not None:
        net, moments, state = saved
        step, first_epoch, first_row, total = state["step"], state["epoch"], state["row"], state["total"]
        rng.bit_generator.state = state["shuffle"]
        report(f"taken up from {checkpoint.path}: epoch {first_epoch}, {first_row:,} positions into it")
    steps = epochs * max(1, (len(data) + batch - 1) // batch)
    for epoch in range(first_epoch, epochs + 1):
        started = time.perf_counter()
        shuffle = rng.bit_generator.state              # the state this epoch's order is drawn from
        order = rng.permutation(len(data)).astype(np.int64)
        start_row = first_row if epoch == first_epoch else 0
        if start_row == 0:
            total = 0.0
        for first in range(start_row, len(order), batch):
            rows = order[first:first + batch]
            err, g1, gb1, g2, gb2 = _gradients(data.boards, data.stm, target, rows, net["w1"], net["b1"],
                                               net["w2"], net["b2"], threads)
            total += err
            step += 1
            lr = rate * (FINAL_RATE + (1 - FINAL_RATE) * 0.5 * (1 + math.cos(math.pi * step / steps)))
            for name, grad in (("w1", g1), ("b1", gb1), ("w2", g2), ("b2", gb2)):
                m, v = moments[name]
                _adamw(net[name], grad, m, v, len(rows), lr, step)
            if checkpoint is not None and first + batch < len(order) and checkpoint.due():
                checkpoint.save(net, moments, {"epoch": epoch, "row": first + batch, "step": step, "total": total,
                                               "shuffle": shuffle})
        if checkpoint is not None:
            checkpoint.save(net, moments, {"epoch": epoch + 1, "row": 0, "step": step, "total": 0.0,
                                           "shuffle": rng.bit_generator.state})
        seconds = time.perf_counter() - started
        held = f"  test {loss(test[0], test[1], net):.6f}" if test is not None else ""
        report(f"epoch {epoch:3d}  training loss {total / len(data):.6f}{held}  "
               f"{(len(data) - start_row) / seconds:,.0f} positions/s")
    return net


def save(net: dict[str, np.ndarray], path: Path, settings: dict, scale: float = EVAL_SCALE) -> None:
    """Write the net with its output layer scaled so that the engine's output x EVAL_SCALE is the
    trained output x `scale`."""
    factor = np.float32(scale / EVAL_SCALE)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, w1=net["w1"], b1=net["b1"], w2=net["w2"] * factor, b2=net["b2"] * factor,
             settings=np.array(json.dumps(settings)))


def digest(paths: list[Path]) -> str:
    """A short hash of the data files' contents (which data a net was trained on)."""
    total = hashlib.sha256()
    for path in paths:
        total.update(hashlib.sha256(path.read_bytes()).digest())
    return total.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.train_nnue", description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="+", help="chunk folders or files (the test chunk is left out)")
    parser.add_argument("--out", required=True, help="the trained network (.npz)")
    parser.add_argument("--test", default=str(DEFAULT_TEST), help="the held-out chunk(s), comma-separated "
                        "(default data/selfplay/gen1/chunk-00000.jfsp.xz)")
    parser.add_argument("--hidden", type=int, default=128, help="first-layer neurons per side (default 128)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=16384)
    parser.add_argument("--rate", type=float, default=0.004, help="AdamW step size at the start (default 0.004)")
    parser.add_argument("--result-weight", type=float, default=0.2,
                        help="share of the game result in the target, the rest the search score (default 0.2)")
    parser.add_argument("--limit", type=int, help="train on at most this many positions (the first ones)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init", type=Path, help="go on training this network (.npz) instead of random weights "
                        "(its hidden size is kept): fine-tuning")
    parser.add_argument("--checkpoint", type=Path, help="where the run's state is kept while it trains, taken up "
                        "when the same command runs again after a stop (default: beside --out, "
                        "NAME.checkpoint.npz; removed when the network is written)")
    parser.add_argument("--checkpoint-minutes", type=float, default=10.0,
                        help="minutes between checkpoints within an epoch (default 10; one at every epoch's end)")
    args = parser.parse_args(argv)
    if not 0.0 <= args.result_weight <= 1.0:
        parser.error("--result-weight must be between 0 and 1")
    if not 8 <= args.hidden <= MAX_HIDDEN or args.hidden % 8:
        parser.error(f"--hidden must be a multiple of 8 from 8 to {MAX_HIDDEN} (what the engine loads)")
    if args.epochs < 1 or args.batch < 1 or args.rate <= 0 or args.threads < 1 or args.checkpoint_minutes < 0:
        parser.error("--epochs, --batch, --rate and --threads must be positive, --checkpoint-minutes not negative")
    try:
        init = read_network(args.init) if args.init else None
    except ValueError as err:
        parser.error(f"--init: {err}")
    started = time.perf_counter()
    try:
        test_files = [Path(name) for name in args.test.split(",")]
        held = {path.resolve() for path in test_files}
        train_files = [path for path in chunk_files(args.data) if path.resolve() not in held]
        if not train_files:
            parser.error("every chunk given is a test chunk")
        data, test = Dataset.read(train_files, args.threads), Dataset.read(test_files)
    except (OSError, ValueError) as err:
        parser.error(str(err))
    if args.limit is not None:
        data = first(data, args.limit)
    if len(data) < args.batch:
        parser.error(f"{len(data)} training positions: fewer than one batch")
    scale = fit_scale(data.score, data.result)
    target, test_target = data.targets(scale, args.result_weight), test.targets(scale, args.result_weight)
    print(f"{len(data):,} training positions from {len(train_files)} chunks, {len(test):,} test positions "
          f"(read in {time.perf_counter() - started:.0f} s); score scale K = {scale:.1f}", file=sys.stderr)
    start = trained_form(init[0], scale) if init else initial_net(args.hidden, args.seed)
    args.hidden = start["b1"].shape[0]
    data_digest = digest(train_files)
    out = Path(args.out)
    identity = {key: getattr(args, key) for key in ("hidden", "epochs", "batch", "rate", "result_weight", "limit",
                                                    "threads", "seed")}
    identity.update(data=data_digest, positions=len(data), init=digest([args.init]) if args.init else None)
    checkpoint = Checkpoint(args.checkpoint or out.with_name(out.stem + ".checkpoint.npz"), identity,
                            args.checkpoint_minutes * 60)
    try:
        net = train(data, target, start, args.epochs, args.batch, args.rate, args.seed,
                    args.threads, report=lambda line: print(line, file=sys.stderr, flush=True),
                    test=(test, test_target), checkpoint=checkpoint)
    except ValueError as err:
        parser.error(str(err))
    settings = {key: value for key, value in vars(args).items()
                if key not in ("out", "data", "test", "init", "checkpoint", "checkpoint_minutes")}
    if init:
        settings["init"] = {"file": args.init.name, "settings": init[1]}
    settings.update(data_files=[f"{path.parent.name}/{path.name}" for path in train_files],
                    test_files=[f"{path.parent.name}/{path.name}" for path in test_files])
    sample = first(test, 50_000)
    settings["hand_crafted_sample_loss"] = hand_crafted_loss(test_files[0], test_target[:len(sample)], scale)
    settings["sample_loss"] = loss(sample, test_target[:len(sample)], net)
    print(f"on the first {len(sample):,} test positions: the network {settings['sample_loss']:.6f}, "
          f"the hand-crafted evaluation {settings['hand_crafted_sample_loss']:.6f}", file=sys.stderr)
    settings.update(positions=len(data), test_positions=len(test), test_loss=loss(test, test_target, net),
                    scale=scale, eval_scale=EVAL_SCALE, data=data_digest, test_data=digest(test_files),
                    seconds=round(time.perf_counter() - started))
    save(net, out, settings, scale)
    checkpoint.remove()
    print(f"test loss {settings['test_loss']:.6f}; wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
