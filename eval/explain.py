"""The `eval` command: the static evaluation broken down by term and colour."""

from __future__ import annotations

import numpy as np

from engine.board import Board
from eval.evaluate import (EVAL_REGION, SCALE_NORMAL, TRACE_EXTRA, TRACE_PHASE, TRACE_SCALE, W_TRACE,
                           evaluate)
from eval.params import LAYOUT, N_PARAMS, PHASE_MAX, weights


def trace_position(board: Board, w: np.ndarray) -> tuple[int, np.ndarray]:
    """(score for the side to move, trace counts) of the evaluation with weights `w`."""
    region = np.zeros(EVAL_REGION, dtype=np.int64)
    region[:2 * N_PARAMS] = w.reshape(-1)
    score = int(evaluate(board.tab, board.arrays, region, True))
    return score, region[W_TRACE:]


def explain(board: Board) -> list[str]:
    """Lines of a table: per term, white's and black's (mg, eg) and the blended difference."""
    w = weights()
    score, trace = trace_position(board, w)
    phase, scale, extra = int(trace[TRACE_PHASE]), int(trace[TRACE_SCALE]), int(trace[TRACE_EXTRA])

    def blend(mg: float, eg: float) -> float:
        return (mg * phase + eg * scale / SCALE_NORMAL * (PHASE_MAX - phase)) / PHASE_MAX

    lines = [f"{'term':32s} | {'white mg':>8s} {'eg':>6s} | {'black mg':>8s} {'eg':>6s} | {'total':>7s}"]
    for name, offset, size in LAYOUT:
        part = slice(offset, offset + size)
        white, black = trace[part], trace[N_PARAMS + offset:N_PARAMS + offset + size]
        if not white.any() and not black.any():
            continue
        wmg, weg = float(white @ w[part, 0]), float(white @ w[part, 1])
        bmg, beg = float(black @ w[part, 0]), float(black @ w[part, 1])
        lines.append(f"{name:32s} | {wmg:8.0f} {weg:6.0f} | {bmg:8.0f} {beg:6.0f} | "
                     f"{blend(wmg - bmg, weg - beg):7.1f}")
    white_view = score if board.turn == 0 else -score
    lines.append(f"phase {phase}/{PHASE_MAX}, endgame scale {scale}/{SCALE_NORMAL}, mop-up {extra}")
    lines.append(f"total {white_view} cp from white's side, {score} cp for the side to move")
    return lines
