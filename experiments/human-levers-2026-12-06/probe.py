"""Which interactions would the choice model use? Fit on the watched games' positions of
watched-e0.npz, judge on those of watched-e1.npz (other games), with the shipped policy
(which never trained on either): mean log-likelihood and top-1 of the person's move, at the
person's rating, for the shipped features and for each group of candidate columns added.

    PYTHONPATH=. .venv/bin/python experiments/human-levers-2026-12-06/probe.py \
        runs/human/choice/watched-e0.npz runs/human/choice/watched-e1.npz > probe.md
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from search.human_model import DENSE, N_DENSE, N_SQUARES, scaled_rating
from search.human_policy import ATTACKED
from tools.calibration import train_human as th


def position_values(data: th.Data) -> dict[str, np.ndarray]:
    """Per-move copies of per-position quantities."""
    pieces = np.array([(data.inputs[str(pid)][0] < ATTACKED).sum() for pid in data.ids], dtype=np.float64)
    return {"phase": (pieces / 32.0)[data.group]}


def policy_derived(data: th.Data) -> dict[str, np.ndarray]:
    logit = data.dense[:, DENSE.index("policy")]
    starts = data.offsets[:-1]
    top = np.maximum.reduceat(logit, starts)[data.group]
    e = np.exp(logit - top)
    prob = e / np.add.reduceat(e, starts)[data.group]
    # rank of each move under the policy within its position
    rank = np.empty(len(logit))
    for i in range(len(starts)):
        a, b = data.offsets[i], data.offsets[i + 1]
        order = np.argsort(-logit[a:b], kind="stable")
        rank[a + order] = np.arange(b - a)
    return {"prob": prob, "rank0": (rank == 0).astype(float), "rank1": (rank == 1).astype(float),
            "rank2": (rank == 2).astype(float), "logit": logit}


def candidate_columns(data: th.Data) -> dict[str, np.ndarray]:
    pv, pd = position_values(data), policy_derived(data)
    lossd = data.dense[:, DENSE.index("lossD")]
    log_lossd = data.dense[:, DENSE.index("log_lossD")]
    return {
        "policy_prob": pd["prob"][:, None],
        "policy_ranks": np.stack([pd["rank0"], pd["rank1"], pd["rank2"]], axis=1),
        "policy_x_phase": (pd["logit"] * pv["phase"])[:, None],
        "loss_x_phase": np.stack([lossd * pv["phase"], log_lossd * pv["phase"]], axis=1),
        "policy_x_loss": (pd["logit"] * log_lossd)[:, None],
    }


def with_columns(data: th.Data, extra: np.ndarray) -> th.Data:
    other = th.Data.__new__(th.Data)
    other.__dict__.update(data.__dict__)
    other.dense = np.concatenate([data.dense, extra], axis=1) if extra.size else data.dense
    return other


def judge(fitted: th.Data, judged: th.Data, iterations: int) -> tuple[float, float, float]:
    n_dense = fitted.dense.shape[1]
    theta = th.lbfgs(lambda t: th.objective(t, fitted, n_dense, N_SQUARES), np.zeros(3 * n_dense + 2 * N_SQUARES),
                     iterations)
    dense_w, square_w = th._unpack(theta, n_dense, N_SQUARES)
    u = th.utilities(judged, dense_w, square_w, judged.rating)
    p = th.group_softmax(judged, u)
    nll = -np.log(np.maximum(p[judged.target], 1e-300)).mean()
    starts = judged.offsets[:-1]
    best = np.maximum.reduceat(u, starts)
    top1 = np.mean(u[judged.target] >= best)
    train_nll = th.objective(theta, fitted, n_dense, N_SQUARES)[0]
    return train_nll, nll, top1


def main() -> None:
    e0, e1 = Path(sys.argv[1]), Path(sys.argv[2])
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    policy = th.unseen_policy(Path("search/human_policy.npz"))
    start = time.time()
    fit_data, judge_data = th.Data([e0], policy), th.Data([e1], policy)
    print(f"data: {len(fit_data.chosen)} + {len(judge_data.chosen)} positions, {time.time() - start:.0f} s", file=sys.stderr)
    fit_cols, judge_cols = candidate_columns(fit_data), candidate_columns(judge_data)
    groups = [[]] + [[name] for name in fit_cols] + [list(fit_cols)]
    print("| columns added | fit objective | judged: mean -log p | judged: top-1 |")
    print("| --- | --- | --- | --- |")
    for group in groups:
        t = time.time()
        stack = lambda cols: np.concatenate([cols[g] for g in group], axis=1) if group else np.zeros((0, 0))
        fitted, judged = with_columns(fit_data, stack(fit_cols)), with_columns(judge_data, stack(judge_cols))
        train_nll, nll, top1 = judge(fitted, judged, iterations)
        print(f"| {', '.join(group) or 'none (the shipped features)'} | {train_nll:.5f} | {nll:.5f} | {100 * top1:.2f}% |",
              flush=True)
        print(f"{group}: {time.time() - t:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
