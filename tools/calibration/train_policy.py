"""Train the board policy of search/human_policy.py on the training part of the rated human games.

    python -m tools.calibration.train_policy extract --out runs/human/policy-train.npz
    python -m tools.calibration.train_policy fit runs/human/policy-train.npz --hidden 64 --epochs 8 --save P.npz
    python -m tools.calibration.train_policy evaluate --policy P.npz
    python -m tools.calibration.train_policy fit runs/human/policy-train.npz --leave-out F 2 --save P-F.npz   (F = 0, 1)
    python -m tools.calibration.train_policy combine runs/human/train-d3.npz --held runs/human/held-d3.npz \
        --policy P.npz --folds P-0.npz P-1.npz

`extract` replays every training game (never a held-out one; tools/calibration/human_games.py)
and records every position's board inputs, its legal moves' embedding rows, the move the person
played and their rating. `fit` trains by minibatch Adam on the softmax over the legal moves (a
numba kernel; games whose index is 3 modulo 25 are kept aside to watch the loss, not trained on).
`evaluate` prints the policy's own top-1 match per band on the held-out positions, at the band's
centre rating. `combine` fits the choice model (train_human) with the policy's logit as one more
feature, with its rating slopes, and prints the same table for it: whether the policy adds to
what the engine's features already see.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from tools.calibration.human_games import (
    BAND_WIDTH,
    BANDS,
    all_games,
    band_name,
    held_out_sample,
    training_games,
)

WATCH_EVERY, WATCH_AT = 25, 3        # games with index % 25 == 3: the loss watched while training


def fold(game_index: int | np.ndarray, folds: int) -> int | np.ndarray:
    """The fold of a training game (its index in the file; every fifth game is held out anyway),
    so that a position's policy logit can come from a policy that never saw its game."""
    return (game_index // 5) % folds


def _game_index(pid: str) -> int:
    """The game's index in its file, from a position id (source:index:ply)."""
    return int(pid.rsplit(":", 2)[1])
HIDDEN = 64


# ---- extraction -----------------------------------------------------------------------------------

def extract(out: Path, limit: int | None = None) -> None:
    from engine.board import Board
    from search.human_policy import MAX_ACTIVE, inputs

    actives, counts, rows, offsets, chosen, ratings, ids = [], [], [], [0], [], [], []
    start = time.perf_counter()
    games = training_games()[:limit]
    for number, game in enumerate(games, 1):
        board = Board()
        for ply, text in enumerate(game.moves):
            moves = board.legal_moves()
            active, move_index = inputs(board, moves)
            padded = np.zeros(MAX_ACTIVE, dtype=np.int16)
            padded[:len(active)] = active
            actives.append(padded)
            counts.append(len(active))
            rows.append(move_index.astype(np.int16))
            offsets.append(offsets[-1] + len(moves))
            chosen.append(moves.index(board.parse_uci(text)))
            ratings.append(game.white_elo if ply % 2 == 0 else game.black_elo)
            ids.append(f"{game.source}:{game.index}:{ply}")
            board.push_uci(text)
        if number % 1000 == 0:
            print(f"{number}/{len(games)} games, {len(chosen)} positions, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    np.savez(out, active=np.stack(actives), count=np.array(counts, dtype=np.int8), rows=np.concatenate(rows),
             offsets=np.array(offsets, dtype=np.int64), chosen=np.array(chosen, dtype=np.int32),
             rating=np.array(ratings, dtype=np.int32), ids=np.array(ids))
    print(f"{len(chosen)} positions in {time.perf_counter() - start:.0f} s", file=sys.stderr)


# ---- training -------------------------------------------------------------------------------------

@njit(cache=True)
def _layout(h):
    """Offsets of w1, emb, b1, wr, bias in the flat parameter vector, and its size (one layout
    for the kernels and for policy_of)."""
    w1, emb = 0, 768 * h
    b1 = emb + 768 * h
    wr = b1 + h
    bias = wr + h
    return w1, emb, b1, wr, bias, bias + 768


def policy_of(theta: np.ndarray, h: int):
    """The Policy whose weights the flat vector `theta` holds."""
    from search.human_policy import Policy

    w1, emb, b1, wr, bias, _ = _layout(h)
    return Policy(theta[w1:emb].reshape(768, h), theta[b1:wr], theta[wr:bias], theta[emb:b1].reshape(768, h),
                  theta[bias:])


@njit(cache=True)
def _position(theta, grad, h, i, active, count, rows, offsets, chosen, r, pre, hidden, dh, z, learn):
    """Negative log-likelihood of position i's move and whether it is the top move; adds the
    gradient to `grad` when `learn`."""
    w1, emb, b1, wr, bias, _ = _layout(h)
    for k in range(h):
        pre[k] = theta[b1 + k] + r[i] * theta[wr + k]
    for a in range(count[i]):
        base = w1 + active[i, a] * h
        for k in range(h):
            pre[k] += theta[base + k]
    for k in range(h):
        hidden[k] = pre[k] if pre[k] > 0 else 0.0
    lo, hi = offsets[i], offsets[i + 1]
    top = -1e300
    for j in range(lo, hi):
        e0, e1 = emb + rows[j, 0] * h, emb + rows[j, 1] * h
        s = theta[bias + rows[j, 0]] + theta[bias + rows[j, 1]]
        for k in range(h):
            s += (theta[e0 + k] + theta[e1 + k]) * hidden[k]
        z[j - lo] = s
        top = max(top, s)
    total = 0.0
    for j in range(hi - lo):
        total += np.exp(z[j] - top)
    target = chosen[i]
    nll = np.log(total) - (z[target] - top)
    best = True
    for j in range(hi - lo):
        if z[j] > z[target]:
            best = False
    if learn:
        for k in range(h):
            dh[k] = 0.0
        for j in range(lo, hi):
            g = np.exp(z[j - lo] - top) / total - (1.0 if j - lo == target else 0.0)
            e0, e1 = emb + rows[j, 0] * h, emb + rows[j, 1] * h
            grad[bias + rows[j, 0]] += g
            grad[bias + rows[j, 1]] += g
            for k in range(h):
                dh[k] += g * (theta[e0 + k] + theta[e1 + k])
                grad[e0 + k] += g * hidden[k]
                grad[e1 + k] += g * hidden[k]
        for k in range(h):
            d = dh[k] if pre[k] > 0 else 0.0
            grad[b1 + k] += d
            grad[wr + k] += d * r[i]
            for a in range(count[i]):
                grad[w1 + active[i, a] * h + k] += d
    return nll, best


@njit(cache=True)
def _epoch(theta, h, order, batch, active, count, rows, offsets, chosen, r, m, v, step, rate, l2):
    """One pass of minibatch Adam over the positions in `order`; returns (mean loss, step)."""
    n_params = len(theta)
    grad = np.zeros(n_params)
    pre, hidden, dh = np.zeros(h), np.zeros(h), np.zeros(h)
    z = np.zeros(256)
    total = 0.0
    for start in range(0, len(order), batch):
        grad[:] = 0.0
        end = min(start + batch, len(order))
        for b in range(start, end):
            nll, _ = _position(theta, grad, h, order[b], active, count, rows, offsets, chosen, r, pre, hidden, dh, z, True)
            total += nll
        step += 1
        scale = 1.0 / (end - start)
        c1, c2 = 1.0 - 0.9 ** step, 1.0 - 0.999 ** step
        for p in range(n_params):
            g = grad[p] * scale + l2 * theta[p]
            m[p] = 0.9 * m[p] + 0.1 * g
            v[p] = 0.999 * v[p] + 0.001 * g * g
            theta[p] -= rate * (m[p] / c1) / (np.sqrt(v[p] / c2) + 1e-8)
    return total / len(order), step


@njit(cache=True)
def _score(theta, h, positions, active, count, rows, offsets, chosen, r):
    """(mean loss, top-1 share) over `positions`, without learning."""
    grad = np.zeros(1)
    pre, hidden, dh = np.zeros(h), np.zeros(h), np.zeros(h)
    z = np.zeros(256)
    total, hits = 0.0, 0
    for i in positions:
        nll, best = _position(theta, grad, h, i, active, count, rows, offsets, chosen, r, pre, hidden, dh, z, False)
        total += nll
        hits += best
    return total / max(len(positions), 1), hits / max(len(positions), 1)


def fit(path: Path, hidden: int, epochs: int, rate: float, batch: int, l2: float, seed: int, save: Path,
        leave_out: tuple[int, int] | None = None) -> None:
    """Train and save a policy; with leave_out (f, n), not on the games of fold f of n."""
    from search.human_model import scaled_rating

    data = dict(np.load(path))
    game_index = np.array([_game_index(str(pid)) for pid in data["ids"]])
    watch = game_index % WATCH_EVERY == WATCH_AT
    train, held = np.flatnonzero(~watch), np.flatnonzero(watch)
    if leave_out:
        train = train[fold(game_index[train], leave_out[1]) != leave_out[0]]
    arrays = (data["active"].astype(np.int64), data["count"].astype(np.int64), data["rows"].astype(np.int64),
              data["offsets"], data["chosen"].astype(np.int64), scaled_rating(data["rating"]))
    rng = np.random.default_rng(seed)
    w1, emb, b1, _, _, size = _layout(hidden)
    theta = np.zeros(size)
    theta[w1:emb] = rng.normal(0, 1 / np.sqrt(32), 768 * hidden)
    theta[emb:b1] = rng.normal(0, 1 / np.sqrt(hidden), 768 * hidden)
    m, v, step = np.zeros(size), np.zeros(size), 0
    print(f"{len(train)} training positions, {len(held)} watched; {size} weights", file=sys.stderr)
    for epoch in range(epochs):
        began = time.perf_counter()
        order = rng.permutation(train)
        loss, step = _epoch(theta, hidden, order, batch, *arrays, m, v, step, rate * (0.5 ** (epoch // 3)), l2)
        watch_loss, watch_top1 = _score(theta, hidden, held, *arrays)
        print(f"epoch {epoch + 1}: training loss {loss:.4f}, watched loss {watch_loss:.4f}, top-1 {watch_top1:.1%}"
              f" ({time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
    policy_of(theta, hidden).save(save)
    print(f"saved {save}", file=sys.stderr)


# ---- measurement ----------------------------------------------------------------------------------

def _replay(ids) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
    """id -> (board inputs, move rows, index of the person's move) for the positions named by `ids`."""
    from engine.board import Board
    from search.human_policy import inputs

    games = {(g.source, g.index): g for g in all_games()}
    wanted: dict[tuple[str, int], set[int]] = {}
    for pid in ids:
        name, index, ply = str(pid).rsplit(":", 2)
        wanted.setdefault((name, int(index)), set()).add(int(ply))
    found = {}
    for key, plies in wanted.items():
        board = Board()
        for ply, text in enumerate(games[key].moves[:max(plies) + 1]):
            if ply in plies:
                moves = board.legal_moves()
                found[f"{key[0]}:{key[1]}:{ply}"] = (*inputs(board, moves), moves.index(board.parse_uci(text)))
            board.push_uci(text)
    return found


def evaluate(policy_path: Path) -> str:
    """The policy's own top-1 match per band on the held-out positions, at the band's centre."""
    from search.human_model import scaled_rating
    from search.human_policy import load
    from tools.calibration.move_matching import cell

    policy = load(policy_path)
    lines = ["| band | policy rating | top-1 |", "| --- | --- | --- |"]
    for lo in BANDS:
        sample = held_out_sample(lo)
        found = _replay([p.id for p in sample])
        rating = lo + BAND_WIDTH // 2
        hits = 0
        for p in sample:
            active, rows, human = found[p.id]
            hits += int(np.argmax(policy.logits(active, rows, float(scaled_rating(rating))))) == human
        lines.append(f"| {band_name(lo)} | {rating} | {cell(hits, len(sample))} |")
    return "\n".join(lines)


def _with_logits(data, found: dict, ratings: np.ndarray, policy_for):
    """`data` (train_human.Data) with a last dense column: each move's logit by the policy
    `policy_for(position id)`, at `ratings` (one per position)."""
    from search.human_model import scaled_rating

    column = np.empty(len(data.group))
    for i, pid in enumerate(data.ids):
        active, rows, _ = found[str(pid)]
        column[data.offsets[i]:data.offsets[i + 1]] = policy_for(str(pid)).logits(active, rows,
                                                                                float(scaled_rating(ratings[i])))
    data.dense = np.hstack([data.dense, column[:, None]])
    return data


def combine(paths: list[Path], held: Path, policy_path: Path, fold_paths: list[Path], iterations: int,
            save: Path | None = None) -> str:
    """Fit the choice model with the policy's logit as a feature (on the training positions, each
    with the logit of the fold policy that did not train on its game); its held-out table, with
    the policy trained on all the training games."""
    from search.human_model import DENSE, N_DENSE, N_SQUARES, Model
    from search.human_policy import load
    from tools.calibration import train_human as th
    from tools.calibration.move_matching import cell

    policy = load(policy_path)
    data = th.Data(paths)
    folds = [load(p) for p in fold_paths]       # out of fold: the policy that never saw the position's game
    data = _with_logits(data, _replay(data.ids), data.rating, lambda pid: folds[fold(_game_index(pid), len(folds))])
    n_dense = N_DENSE + 1
    theta = th.lbfgs(lambda t: th.objective(t, data, n_dense, N_SQUARES), np.zeros(3 * n_dense + 2 * N_SQUARES),
                     iterations)
    dense_w, square_w = th._unpack(theta, n_dense, N_SQUARES)
    print("policy weight (a, b, c):", dense_w[:, -1], file=sys.stderr)
    if save:                         # the choice model's weights with the policy column last
        np.savez(save, dense=dense_w, squares=square_w, names=np.array(list(DENSE) + ["policy"]))
    model = Model(dense_w, square_w)
    full = th.Data(held)
    found = _replay(full.ids)
    index = {pid: i for i, pid in enumerate(full.ids)}
    lines = ["| band | model rating | top-1 |", "| --- | --- | --- |"]
    for lo in BANDS:
        keep = np.zeros(len(full.chosen), dtype=bool)
        keep[[index[p.id] for p in held_out_sample(lo)]] = True
        band = full.subset(keep)
        rating = lo + BAND_WIDTH // 2
        band = _with_logits(band, found, np.full(len(band.chosen), float(rating)), lambda pid: policy)
        u = model.utilities(band.dense, band.squares, np.full(len(band.group), float(rating)))
        best = np.array([np.argmax(u[a:b]) for a, b in zip(band.offsets[:-1], band.offsets[1:])])
        lines.append(f"| {band_name(lo)} | {rating} | {cell(int((best == band.chosen).sum()), len(band.chosen))} |")
    whole = _with_logits(full, found, full.rating, lambda pid: policy)
    p = th.group_softmax(whole, model.utilities(whole.dense, whole.squares, whole.rating[whole.group]))
    lines.append(f"\nlog-likelihood on all held-out positions at the player's rating: {np.log(p[whole.target]).mean():.4f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.train_policy", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="record every training position's inputs")
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--games", type=int, help="only the first N training games")
    ft = sub.add_parser("fit", help="train the policy")
    ft.add_argument("data", type=Path)
    ft.add_argument("--hidden", type=int, default=HIDDEN)
    ft.add_argument("--epochs", type=int, default=8)
    ft.add_argument("--rate", type=float, default=0.002)
    ft.add_argument("--batch", type=int, default=256)
    ft.add_argument("--l2", type=float, default=1e-6)
    ft.add_argument("--seed", type=int, default=1)
    ft.add_argument("--save", type=Path, required=True)
    ft.add_argument("--leave-out", type=int, nargs=2, metavar=("F", "N"), help="not the games of fold F of N")
    ev = sub.add_parser("evaluate", help="the policy's own match on the held-out positions")
    ev.add_argument("--policy", type=Path, required=True)
    co = sub.add_parser("combine", help="the choice model with the policy's logit as a feature")
    co.add_argument("data", type=Path, nargs="+", help="choice-model extracts (train_human) with the engine's move")
    co.add_argument("--held", type=Path, required=True)
    co.add_argument("--policy", type=Path, required=True, help="trained on all the training games: for the held-out table")
    co.add_argument("--folds", type=Path, nargs="+", required=True, help="the policies leaving out fold 0, 1, ... of N")
    co.add_argument("--iterations", type=int, default=250)
    co.add_argument("--save", type=Path, help="save the choice model's weights (the policy's column last)")
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.out, args.games)
    elif args.command == "fit":
        fit(args.data, args.hidden, args.epochs, args.rate, args.batch, args.l2, args.seed, args.save,
            tuple(args.leave_out) if args.leave_out else None)
    elif args.command == "evaluate":
        print(evaluate(args.policy))
    else:
        print(combine(args.data, args.held, args.policy, args.folds, args.iterations, args.save))
    return 0


if __name__ == "__main__":
    sys.exit(main())
