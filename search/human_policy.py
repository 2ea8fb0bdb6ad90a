"""A small policy over the board: how likely a person of a rating is to play each move, from the
whole position rather than from the engine's view of each move.

The choice model (search/human_model.py) sees a move through its search scores and its kind; it
cannot see what a position looks like to a person. This policy does, in the way Maia does but
small enough for numpy: the side to move's view of the board (each piece on its square, which of
them the other side attacks, and the piece the opponent just moved, to and from where), with the
rating, feed H hidden units, and a move's logit is that hidden layer dotted with an embedding of its piece
on its target and on its origin square, plus a bias for each. Trained on the training games by
tools/calibration/train_policy.py; the choice model takes its logit as one more feature.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.bits import ONE, lsb
from engine.defs import BB_ALL, KING, ST_SIDE
from engine.kernel import kernel
from engine.move import CASTLE, NULL_MOVE, move_flag, move_from, move_to
from engine.piece import make_piece, piece_type
from engine.position import attacked_by, castle_squares, last_move, piece_on

POLICY_FILE = Path(__file__).with_name("human_policy.npz")
# Board inputs, all in the mover's view (squares flipped for black):
PIECES = 0                   # own pieces then the opponent's, by type and square (768)
ATTACKED = PIECES + 2 * 6 * 64   # the same 768 again for each piece the other side attacks
LAST_TO = ATTACKED + 2 * 6 * 64  # the opponent's last move: the piece type on its target square (384)
LAST_FROM = LAST_TO + 6 * 64     # ... and the square it came from (64)
BOARD_INPUTS = LAST_FROM + 64    # 1,984
MOVE_INPUTS = 2 * 6 * 64     # piece type x target square, then piece type x origin square (the mover's view)
MAX_ACTIVE = 66              # 32 pieces, 32 attacked, the last move's two


@kernel
def policy_inputs(tab, pos, moves, n, active, move_index):
    """Fill `active` with the board's input indices (returns how many) and move_index[i] with the
    two embedding rows of each of the n moves; squares are flipped for black, so the mover always
    plays up the board. The move rows are the choice model's square features (human_model)."""
    bb, st = pos
    us = st[ST_SIDE]
    flip = 0 if us == 0 else 56
    occupied = bb[BB_ALL]
    count = 0
    for colour in range(2):
        side = 0 if colour == us else 1
        for t in range(6):
            pieces = bb[make_piece(colour, t)]
            while pieces:
                sq = lsb(pieces)
                pieces &= pieces - ONE
                index = side * 384 + t * 64 + (sq ^ flip)
                active[count] = PIECES + index
                count += 1
                if attacked_by(tab, bb, sq, colour ^ 1, occupied):
                    active[count] = ATTACKED + index
                    count += 1
    previous = last_move(pos)
    if previous != NULL_MOVE:
        frm, to = move_from(previous), move_to(previous)
        if move_flag(previous) == CASTLE:    # encoded king takes rook: the king's own target
            to = castle_squares(frm, to)[0]
            moved = KING
        else:
            moved = piece_type(piece_on(pos, to))
        active[count] = LAST_TO + moved * 64 + (to ^ flip)
        active[count + 1] = LAST_FROM + (frm ^ flip)
        count += 2
    for i in range(n):
        frm = move_from(moves[i])
        t = piece_type(piece_on(pos, frm))
        move_index[i, 0] = t * 64 + (move_to(moves[i]) ^ flip)
        move_index[i, 1] = 384 + t * 64 + (frm ^ flip)
    return count


def inputs(board, moves: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(active board inputs, [n, 2] move rows) of `board` for `moves` (its legal moves)."""
    active = np.zeros(MAX_ACTIVE, dtype=np.int64)
    move_index = np.zeros((len(moves), 2), dtype=np.int64)
    count = policy_inputs(board.tab, board.arrays, np.array(moves, dtype=np.int64), len(moves), active, move_index)
    return active[:count], move_index


@dataclass(frozen=True)
class Policy:
    """logit(move) = relu(sum of w1's active rows + b1 + r wr) . (emb[to row] + emb[from row])
    + bias[to row] + bias[from row], with r = (R - 1500) / 400 (human_model.scaled_rating)."""
    w1: np.ndarray           # [BOARD_INPUTS, H]
    b1: np.ndarray           # [H]
    wr: np.ndarray           # [H]
    emb: np.ndarray          # [MOVE_INPUTS, H]
    bias: np.ndarray         # [MOVE_INPUTS]

    def logits(self, active: np.ndarray, move_index: np.ndarray, r: float) -> np.ndarray:
        h = np.maximum(self.w1[active].sum(axis=0) + self.b1 + r * self.wr, 0.0)
        e = self.emb[move_index[:, 0]] + self.emb[move_index[:, 1]]
        return e @ h + self.bias[move_index[:, 0]] + self.bias[move_index[:, 1]]

    def save(self, path: Path = POLICY_FILE) -> None:
        np.savez(path, w1=self.w1.astype(np.float32), b1=self.b1.astype(np.float32), wr=self.wr.astype(np.float32),
                 emb=self.emb.astype(np.float32), bias=self.bias.astype(np.float32))


@functools.lru_cache(maxsize=1)
def shipped() -> Policy:
    """The shipped policy, read once."""
    return load()


def load(path: Path = POLICY_FILE) -> Policy:
    with np.load(path) as data:
        arrays = {k: data[k].astype(np.float64) for k in ("w1", "b1", "wr", "emb", "bias")}
    if arrays["w1"].shape[0] != BOARD_INPUTS or arrays["emb"].shape[0] != MOVE_INPUTS:
        raise ValueError(f"{path}: made for other inputs than this engine's")
    return Policy(**arrays)
