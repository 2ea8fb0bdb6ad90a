"""The network evaluation (NNUE): 768 piece-square inputs per side -> H x 2 -> 1 of 8 outputs, SCReLU.

Its weights and its accumulators live in the evaluation's part of the search workspace (int64
words viewed as int16, int32 or float32), like the hand-crafted weights, so the search's kernels keep
their arguments. The first layer is quantised to int16 (x QA): an accumulator is that layer's
output for one side's point of view, kept per search ply and updated by the move's few piece
changes (`push` before make_move, `pop` after unmake_move) instead of being summed anew. Each
side sees the board from its own side (mirrored vertically for black) and with its king on the
a-d files (mirrored horizontally when it stands on e-h), so what is learnt on one wing serves the
other; a king move across that line makes the side's accumulator stale, and it is computed afresh
when the position is next evaluated. The output layer has one set of weights per OUTPUT_BUCKETS
stage of material (by the number of pieces on the board), its weights on a fine fixed-point grid
(int32, 30 bits for the largest) so that its sum is exact in whatever order the compiler puts it:
the score, and with it every self-play game, is the same on every processor.
tools/training/train_nnue.py trains the float network this module quantises.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from engine.bits import ONE, lsb, popcount
from engine.defs import BB_ALL, KING, MAX_PLY, NO_PIECE, ST_BOARD, ST_SIDE

from engine.kernel import inlined_kernel, kernel
from engine.move import CASTLE, EN_PASSANT, is_promotion, move_flag, move_from, move_to, promotion_type
from engine.piece import make_piece, piece_colour, piece_type
from engine.position import castle_squares, king_square

INPUTS = 768
MAX_HIDDEN = 512               # first-layer neurons per side that a network may have
OUTPUT_BUCKETS = 8             # output weights by material: (pieces on the board - 1) // 4
QA = 255                       # the first layer's scale: an activation of 1.0 is QA
EVAL_SCALE = 400               # output units to centipawns (as in the trainer)
STACK = MAX_PLY + 8            # accumulators: one per ply of the current line


@kernel
def mirrored(king_sq):
    """Whether a side whose king stands on `king_sq` sees the board mirrored a<->h (e-h files)."""
    return (king_sq & 7) >= 4


@kernel
def input_index(colour, piece_type, square, perspective, flip):
    """The input a piece feeds seen from `perspective`: own pieces first, the board mirrored
    vertically for black and horizontally when `flip` (mirrored(): that side's king on e-h)."""
    if perspective == 1:
        colour ^= 1
        square ^= 56
    if flip:
        square ^= 7
    return colour * 384 + piece_type * 64 + square


@kernel
def output_bucket(pieces):
    """The output weights used with `pieces` pieces on the board (2..32)."""
    return min((pieces - 1) // 4, OUTPUT_BUCKETS - 1)


# The network's region of a workspace, in int64 words from its start, laid out for MAX_HIDDEN
# neurons; a network with fewer uses the first ones (R_HIDDEN says how many).
R_ON = 0                                       # 1 when the network evaluates
R_TOP = 1                                      # the current ply's accumulator
R_HIDDEN = 2                                   # neurons per side of the loaded network
R_W2_UNIT = 3                                  # float64: one step of the output weights, over QA^2
R_STALE = 4                                    # STACK x 2: 1 where a ply's accumulator must be refreshed
R_W1 = R_STALE + 2 * STACK                     # INPUTS x hidden int16
R_B1 = R_W1 + INPUTS * MAX_HIDDEN // 4         # hidden int16
R_W2 = R_B1 + MAX_HIDDEN // 4                  # OUTPUT_BUCKETS x 2 hidden int32, in R_W2_UNIT steps
R_B2 = R_W2 + OUTPUT_BUCKETS * MAX_HIDDEN      # OUTPUT_BUCKETS float32
R_ACC = R_B2 + OUTPUT_BUCKETS // 2             # STACK x 2 x hidden int16
REGION = R_ACC + STACK * 2 * MAX_HIDDEN // 4


def quantise(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """The region words of a float network (w1 INPUTS x H, b1 H, w2 OUTPUT_BUCKETS x 2H, b2
    OUTPUT_BUCKETS; H a multiple of 8 up to MAX_HIDDEN); ValueError if it has another shape or
    weights an int16 accumulator cannot hold."""
    hidden = w1.shape[1] if w1.ndim == 2 else 0
    if w1.shape != (INPUTS, hidden) or not 0 < hidden <= MAX_HIDDEN or hidden % 8 or b1.shape != (hidden,) \
            or w2.shape != (OUTPUT_BUCKETS, 2 * hidden) or b2.shape != (OUTPUT_BUCKETS,):
        raise ValueError(f"a {INPUTS} -> H x 2 -> 1 x {OUTPUT_BUCKETS} network (H a multiple of 8 up to "
                         f"{MAX_HIDDEN}) is needed, not w1 {w1.shape}, b1 {b1.shape}, w2 {w2.shape}, b2 {b2.shape}")
    q1 = np.round(w1 * QA)
    qb = np.round(b1 * QA)
    # The worst accumulator: the bias plus the 32 largest inputs of one neuron.
    worst = np.abs(qb) + np.sort(np.abs(q1), axis=0)[-32:].sum(axis=0)
    if worst.max() > 32767:
        raise ValueError("weights too large for int16 accumulators")
    region = np.zeros(REGION, dtype=np.int64)
    region[R_ON] = 1
    region[R_HIDDEN] = hidden
    region[R_W1:R_B1].view(np.int16)[:INPUTS * hidden] = q1.astype(np.int16).reshape(-1)
    region[R_B1:R_W2].view(np.int16)[:hidden] = qb.astype(np.int16)
    # The output weights on a fixed-point grid, 30 bits for the largest (its rounding moves a
    # score by at most about 1e-4 x that weight in centipawns): the sum is then an integer one, the same
    # in any order.
    largest = float(np.abs(w2).max())
    shift = 30 - (int(np.ceil(np.log2(largest))) if largest > 0 else 0)
    region[R_W2_UNIT:R_W2_UNIT + 1].view(np.float64)[0] = 2.0 ** -shift / (QA * QA)   # once, not per evaluation
    region[R_W2:R_B2].view(np.int32)[:OUTPUT_BUCKETS * 2 * hidden] = \
        np.round(w2.astype(np.float64) * 2.0 ** shift).astype(np.int32).reshape(-1)
    region[R_B2:R_ACC].view(np.float32)[:OUTPUT_BUCKETS] = b2.astype(np.float32)
    return region


def read_saved(path: str | Path) -> tuple[dict[str, np.ndarray], dict]:
    """The float32 layers (w1, b1, w2, b2) of a network saved by tools/training/train_nnue.py and
    its training settings ({} when it has none); ValueError when the file is not such a network."""
    try:
        with np.load(Path(path).expanduser()) as saved:
            layers = {name: saved[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2")}
            settings = json.loads(str(saved["settings"])) if "settings" in saved else {}
    except (OSError, KeyError, EOFError, ValueError) as err:
        raise ValueError(f"cannot read a network from {path}: {err}") from None
    return layers, settings


def load(path: str | Path) -> np.ndarray:
    """The region words of a network saved by tools/training/train_nnue.py (ValueError when unusable)."""
    layers, _ = read_saved(path)
    return quantise(layers["w1"], layers["b1"], layers["w2"], layers["b2"])


# Offsets in int16 units (the region viewed as int16) and in 32-bit units.
A_W1 = 4 * R_W1
A_B1 = 4 * R_B1
A_ACC = 4 * R_ACC
Q_W2 = 2 * R_W2
F_B2 = 2 * R_B2


@kernel
def _accumulator(top, perspective, hidden):
    """Where (int16 units) the accumulator of ply `top` seen from `perspective` begins."""
    return A_ACC + (top * 2 + perspective) * hidden


@kernel
def _refresh_side(pos, net, top, perspective):
    """Compute one side's accumulator of ply `top` from the board."""
    bb = pos[0]
    v = net.view(np.int16)
    hidden = net[R_HIDDEN]
    flip = mirrored(king_square(bb, perspective))
    start = _accumulator(top, perspective, hidden)
    acc = v[start:start + hidden]
    bias = v[A_B1:A_B1 + hidden]
    for j in range(hidden):
        acc[j] = bias[j]
    for piece in range(12):
        b = bb[piece]
        while b:
            sq = lsb(b)
            b &= b - ONE
            row = A_W1 + input_index(piece_colour(piece), piece_type(piece), sq, perspective, flip) * hidden
            weights = v[row:row + hidden]
            for j in range(hidden):
                acc[j] += weights[j]
    net[R_STALE + 2 * top + perspective] = 0


@kernel
def refresh(pos, net):
    """Compute the current ply's two accumulators from the board."""
    for perspective in range(2):
        _refresh_side(pos, net, net[R_TOP], perspective)


@kernel
def _row(piece, square, perspective, flip, hidden):
    """Where (int16 units) the first-layer weights of `piece` on `square` seen from `perspective` begin."""
    return A_W1 + input_index(piece_colour(piece), piece_type(piece), square, perspective, flip) * hidden


@inlined_kernel
def _moved(v, source, target, hidden, add, sub):
    """The accumulator at `target`: the one at `source` with the weights at `add` added and those
    at `sub` taken away, in one pass instead of a copy and a pass for each change."""
    before, after = v[source:source + hidden], v[target:target + hidden]   # slices: the loops vectorise
    plus, minus = v[add:add + hidden], v[sub:sub + hidden]
    for j in range(hidden):
        after[j] = before[j] + plus[j] - minus[j]


@inlined_kernel
def _captured(v, source, target, hidden, add, sub, taken):
    """As _moved, with a second row of weights (the captured piece's) taken away."""
    before, after = v[source:source + hidden], v[target:target + hidden]
    plus, minus, gone = v[add:add + hidden], v[sub:sub + hidden], v[taken:taken + hidden]
    for j in range(hidden):
        after[j] = before[j] + plus[j] - minus[j] - gone[j]


@inlined_kernel
def _castled(v, source, target, hidden, king_add, rook_add, king_sub, rook_sub):
    """As _moved, for two pieces (the king and the rook)."""
    before, after = v[source:source + hidden], v[target:target + hidden]
    plus, plus2 = v[king_add:king_add + hidden], v[rook_add:rook_add + hidden]
    minus, minus2 = v[king_sub:king_sub + hidden], v[rook_sub:rook_sub + hidden]
    for j in range(hidden):
        after[j] = before[j] + plus[j] + plus2[j] - minus[j] - minus2[j]


@kernel
def push(pos, net, move):
    """Before make_move(move): the next ply's accumulators, from this ply's and the move's
    piece changes in one pass each (or marked stale, when the move takes a king across the
    mirror line or this ply's is stale)."""
    bb, st = pos
    v = net.view(np.int16)
    top, hidden = net[R_TOP], net[R_HIDDEN]
    frm, to, flag = move_from(move), move_to(move), move_flag(move)
    piece = st[ST_BOARD + frm]
    stale = net[R_STALE + 2 * top:R_STALE + 2 * top + 2]
    net[R_TOP] = top + 1
    after = net[R_STALE + 2 * top + 2:R_STALE + 2 * top + 4]
    after[0], after[1] = stale[0], stale[1]
    flips = (mirrored(king_square(bb, 0)), mirrored(king_square(bb, 1)))
    king_to, rook_to = to, to
    if flag == CASTLE:
        king_to, rook_to = castle_squares(frm, to)
    if piece_type(piece) == KING:
        mover = piece_colour(piece)
        if mirrored(king_to) != flips[mover]:
            after[mover] = 1
    captured_square = to ^ 8 if flag == EN_PASSANT else to
    captured = st[ST_BOARD + captured_square] if flag != CASTLE else NO_PIECE
    arriving = make_piece(piece_colour(piece), promotion_type(move)) if is_promotion(move) else piece
    for perspective in range(2):
        if after[perspective]:
            continue
        flip = flips[perspective]
        source, target = _accumulator(top, perspective, hidden), _accumulator(top + 1, perspective, hidden)
        sub = _row(piece, frm, perspective, flip, hidden)
        if flag == CASTLE:
            rook = st[ST_BOARD + to]
            _castled(v, source, target, hidden, _row(piece, king_to, perspective, flip, hidden),
                     _row(rook, rook_to, perspective, flip, hidden), sub, _row(rook, to, perspective, flip, hidden))
        elif captured != NO_PIECE:
            _captured(v, source, target, hidden, _row(arriving, to, perspective, flip, hidden), sub,
                      _row(captured, captured_square, perspective, flip, hidden))
        else:
            _moved(v, source, target, hidden, _row(arriving, to, perspective, flip, hidden), sub)


@kernel
def pop(net):
    """After unmake_move: back to the previous ply's accumulators."""
    net[R_TOP] -= 1


@inlined_kernel
def output_sum(pos, net):
    """The network's output before scaling, from the current accumulators (refreshing a stale
    one first). The hidden layer's sum is an integer one, exact in any order: a float sum that
    the compiler reorders rounds by the processor's vector width, and the same self-play games
    came out differently on another machine (docs/training.md)."""
    us = pos[1][ST_SIDE]
    top, hidden = net[R_TOP], net[R_HIDDEN]
    for perspective in range(2):
        if net[R_STALE + 2 * top + perspective]:
            _refresh_side(pos, net, top, perspective)
    v = net.view(np.int16)
    q = net.view(np.int32)
    bucket = output_bucket(popcount(pos[0][BB_ALL]))
    w2 = Q_W2 + bucket * 2 * hidden
    total = np.int64(0)
    for side in range(2):
        start = _accumulator(top, us ^ side, hidden)
        acc = v[start:start + hidden]
        weights = q[w2 + side * hidden:w2 + (side + 1) * hidden]
        for j in range(hidden):
            x = np.int32(min(max(acc[j], 0), QA))
            total += np.int64(x * x) * np.int64(weights[j])      # 32 x 32 -> 64 bits: one vector multiply
    return total * net[R_W2_UNIT:R_W2_UNIT + 1].view(np.float64)[0] + net.view(np.float32)[F_B2 + bucket]


@kernel
def output(pos, net):
    """The network's score in centipawns for the side to move."""
    return np.int64(output_sum(pos, net) * EVAL_SCALE)


@kernel
def start(pos, net):
    """Begin a search (or a lone evaluation) at this position: the first ply's accumulators."""
    net[R_TOP] = 0
    refresh(pos, net)
