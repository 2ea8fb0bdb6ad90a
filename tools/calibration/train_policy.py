"""Train the board policy of search/human_policy.py on the training part of the rated human games.

    python -m tools.calibration.train_policy extract --out runs/human/policy-train.npz
    python -m tools.calibration.train_policy fit runs/human/policy-train.npz --hidden 64 --epochs 8 --save P.npz
    python -m tools.calibration.train_policy evaluate --policy P.npz
    python -m tools.calibration.train_policy fit runs/human/policy-train.npz --leave-out F 4 --save P-F.npz   (F = 0..3)

    python -m tools.calibration.train_policy extract --sources lichess-rapid-2020-2022-58k.pgn.gz \
        --chunk 6000 --out runs/human/policy-58k.npz          (resumable parts policy-58k.part00.npz, ...)
    python -m tools.calibration.train_policy fit runs/human/policy-train.npz runs/human/policy-58k.part*.npz \
        --checkpoint runs/human/P.checkpoint.npz --save P.npz  (resumes from the last finished epoch)
        (--threads 2: each minibatch in two slices side by side, about twice as fast on 2 cores)

`extract` replays every training game (never a held-out one; tools/calibration/human_games.py),
or those of the files named by `--sources`, and records every position's board inputs, its legal
moves' embedding rows, the move the person played and their rating; with `--chunk` in parts of
that many games, each written when done and skipped when there. The policy shipped on 2026-11-28
was trained on the games of the two split files alone (`--sources lichess-2018-06-10k.pgn
lichess-2026-06-500.pgn`, the training games before issue 71). `fit` trains on one or more
extracts by minibatch Adam on the softmax over the legal moves (a numba kernel; games whose index
in their file is 3 modulo 25 are kept aside to watch the loss, not trained on).
`evaluate` prints the policy's own top-1 match per band on the held-out positions, at the band's
centre rating. The policies that leave out one fold of the games each give the choice model
(train_human fit --folds) the logits of positions they never saw.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from search.human_policy import BOARD_INPUTS, MOVE_INPUTS
from tools.calibration.human_games import (
    BAND_WIDTH,
    BANDS,
    band_name,
    fold,
    game_index,
    held_out_sample,
    policy_inputs,
    training_games,
    watched,
)

HIDDEN = 64


# ---- extraction -----------------------------------------------------------------------------------

def extract(out: Path, limit: int | None = None, sources: list[str] | None = None, chunk: int | None = None) -> None:
    """The training games' positions (of `sources` only when given, the first `limit`) into
    `out`, or with `chunk` into parts out.partNN.npz of that many games, the parts already there
    kept."""
    games = [g for g in training_games() if not sources or g.source in sources][:limit]
    if not games:
        raise SystemExit(f"no training games from {sources}")
    if not chunk:
        _extract_games(games, out)
        return
    for part, first in enumerate(range(0, len(games), chunk)):
        path = part_path(out, part)
        if path.is_file():
            print(f"{path} is there, kept", file=sys.stderr)
            continue
        _extract_games(games[first:first + chunk], path)


def part_path(out: Path, part: int) -> Path:
    return out.with_name(f"{out.stem}.part{part:02d}{out.suffix}")


def _extract_games(games: list, out: Path) -> None:
    from engine.board import Board
    from search.human_policy import MAX_ACTIVE, inputs

    actives, counts, rows, offsets, chosen, ratings, ids, indices = [], [], [], [0], [], [], [], []
    start = time.perf_counter()
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
            indices.append(game.index)
            board.push_uci(text)
        if number % 1000 == 0:
            print(f"{number}/{len(games)} games, {len(chosen)} positions, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
    partial = out.with_name(out.name + ".writing.npz")      # a part is there only when whole
    np.savez(partial, active=np.stack(actives), count=np.array(counts, dtype=np.int8), rows=np.concatenate(rows),
             offsets=np.array(offsets, dtype=np.int64), chosen=np.array(chosen, dtype=np.int32),
             rating=np.array(ratings, dtype=np.int32), ids=np.array(ids), game=np.array(indices, dtype=np.int32))
    partial.replace(out)
    print(f"{out}: {len(games)} games, {len(chosen)} positions in {time.perf_counter() - start:.0f} s", file=sys.stderr)


def load_extracts(paths: list[Path]) -> dict[str, np.ndarray]:
    """One or more extracts as one: the arrays fit trains on, and each position's game index in
    its file (`game`)."""
    parts = []
    for path in paths:
        with np.load(path) as data:
            part = {key: data[key] for key in ("active", "count", "rows", "offsets", "chosen", "rating")}
            part["game"] = data["game"] if "game" in data else np.array([game_index(pid) for pid in data["ids"]])
        parts.append(part)
    joined = {key: np.concatenate([part[key] for part in parts]) for key in ("active", "count", "rows", "chosen", "rating", "game")}
    joined["offsets"] = np.concatenate([[0], np.cumsum(np.concatenate([np.diff(part["offsets"]) for part in parts]))])
    return joined


# ---- training -------------------------------------------------------------------------------------

@njit(cache=True)
def _layout(h):
    """Offsets of w1, emb, b1, wr, bias in the flat parameter vector, and its size (one layout
    for the kernels and for policy_of)."""
    w1, emb = 0, BOARD_INPUTS * h
    b1 = emb + MOVE_INPUTS * h
    wr = b1 + h
    bias = wr + h
    return w1, emb, b1, wr, bias, bias + MOVE_INPUTS


def policy_of(theta: np.ndarray, h: int):
    """The Policy whose weights the flat vector `theta` holds."""
    from search.human_policy import Policy

    w1, emb, b1, wr, bias, _ = _layout(h)
    return Policy(theta[w1:emb].reshape(BOARD_INPUTS, h), theta[b1:wr], theta[wr:bias],
                  theta[emb:b1].reshape(MOVE_INPUTS, h), theta[bias:])


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


@njit(cache=True, parallel=True)
def _epoch(theta, h, order, batch, active, count, rows, offsets, chosen, r, m, v, step, rate, l2, threads):
    """One pass of minibatch Adam over the positions in `order`; returns (mean loss, step). Each
    minibatch is cut into `threads` fixed slices whose gradients are summed in slice order, so a
    run is the same whatever the machine, and with one thread the same as a plain loop."""
    n_params = len(theta)
    grads = np.zeros((threads, n_params))
    pre, hidden, dh = np.zeros((threads, h)), np.zeros((threads, h)), np.zeros((threads, h))
    z = np.zeros((threads, 256))
    totals = np.zeros(threads)
    for start in range(0, len(order), batch):
        end = min(start + batch, len(order))
        for t in prange(threads):
            grads[t, :] = 0.0
            for b in range(start + (end - start) * t // threads, start + (end - start) * (t + 1) // threads):
                nll, _ = _position(theta, grads[t], h, order[b], active, count, rows, offsets, chosen, r,
                                   pre[t], hidden[t], dh[t], z[t], True)
                totals[t] += nll
        step += 1
        scale = 1.0 / (end - start)
        c1, c2 = 1.0 - 0.9 ** step, 1.0 - 0.999 ** step
        for p in prange(n_params):
            total_grad = grads[0, p]
            for t in range(1, threads):
                total_grad += grads[t, p]
            g = total_grad * scale + l2 * theta[p]
            m[p] = 0.9 * m[p] + 0.1 * g
            v[p] = 0.999 * v[p] + 0.001 * g * g
            theta[p] -= rate * (m[p] / c1) / (np.sqrt(v[p] / c2) + 1e-8)
    return totals.sum() / len(order), step


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


def fit(paths: Path | list[Path], hidden: int, epochs: int, rate: float, batch: int, l2: float, seed: int, save: Path,
        leave_out: tuple[int, int] | None = None, checkpoint: Path | None = None, threads: int = 1) -> None:
    """Train and save a policy on one or more extracts; with leave_out (f, n), not on the games
    of fold f of n; with `checkpoint`, the state after each epoch is kept there and a run goes
    on from it (the same result as a run in one go); `threads` slices each minibatch (a run's result
    depends on their number, not on the machine; one thread is the plain loop)."""
    import json

    if threads < 1:
        raise ValueError(f"threads must be 1 or more, not {threads}")

    from search.human_model import scaled_rating

    data = load_extracts(paths if isinstance(paths, list) else [paths])
    games = data["game"]
    watch = watched(games)
    train, held = np.flatnonzero(~watch), np.flatnonzero(watch)
    if leave_out:
        train = train[fold(games[train], leave_out[1]) != leave_out[0]]
    arrays = (data["active"], data["count"], data["rows"], data["offsets"], data["chosen"], scaled_rating(data["rating"]))
    rng = np.random.default_rng(seed)
    w1, emb, b1, _, _, size = _layout(hidden)
    theta = np.zeros(size)
    theta[w1:emb] = rng.normal(0, 1 / np.sqrt(32), BOARD_INPUTS * hidden)
    theta[emb:b1] = rng.normal(0, 1 / np.sqrt(hidden), MOVE_INPUTS * hidden)
    m, v, step, done = np.zeros(size), np.zeros(size), 0, 0
    if checkpoint and checkpoint.is_file():
        with np.load(checkpoint) as state:
            theta, m, v, step, done = state["theta"], state["m"], state["v"], int(state["step"]), int(state["epoch"])
            rng.bit_generator.state = json.loads(str(state["rng"]))
        print(f"going on from {checkpoint} after epoch {done}", file=sys.stderr)
    print(f"{len(train)} training positions, {len(held)} watched; {size} weights", file=sys.stderr)
    for epoch in range(done, epochs):
        began = time.perf_counter()
        order = rng.permutation(train)
        loss, step = _epoch(theta, hidden, order, batch, *arrays, m, v, step, rate * (0.5 ** (epoch // 3)), l2, threads)
        watch_loss, watch_top1 = _score(theta, hidden, held, *arrays)
        print(f"epoch {epoch + 1}: training loss {loss:.4f}, watched loss {watch_loss:.4f}, top-1 {watch_top1:.1%}"
              f" ({time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
        if checkpoint:
            partial = checkpoint.with_name(checkpoint.name + ".writing.npz")
            np.savez(partial, theta=theta, m=m, v=v, step=step, epoch=epoch + 1,
                     rng=json.dumps(rng.bit_generator.state))
            partial.replace(checkpoint)
    policy_of(theta, hidden).save(save)
    print(f"saved {save}", file=sys.stderr)


# ---- measurement ----------------------------------------------------------------------------------

def evaluate(policy_path: Path) -> str:
    """The policy's own top-1 match per band on the held-out positions, at the band's centre,
    and the mean log-likelihood of the person's move; the last row is all bands together."""
    from search.human_model import scaled_rating
    from search.human_policy import load
    from tools.calibration.move_matching import cell

    policy = load(policy_path)
    lines = ["| band | policy rating | top-1 | log-likelihood |", "| --- | --- | --- | --- |"]
    total_hits, total_ll, total = 0, 0.0, 0
    for lo in BANDS:
        sample = held_out_sample(lo)
        found = policy_inputs([p.id for p in sample])
        rating = lo + BAND_WIDTH // 2
        hits, ll = 0, 0.0
        for p in sample:
            active, rows, human = found[p.id]
            logits = policy.logits(active, rows, float(scaled_rating(rating)))
            hits += int(np.argmax(logits)) == human
            top = logits.max()
            ll += logits[human] - top - np.log(np.exp(logits - top).sum())
        lines.append(f"| {band_name(lo)} | {rating} | {cell(hits, len(sample))} | {ll / len(sample):.4f} |")
        total_hits, total_ll, total = total_hits + hits, total_ll + ll, total + len(sample)
    lines.append(f"| all {len(BANDS)} bands | the band's | {cell(total_hits, total)} | {total_ll / total:.4f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.train_policy", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="record every training position's inputs")
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--games", type=int, help="only the first N training games")
    ex.add_argument("--sources", nargs="+", help="only the training games of these files (names in ../shared/data/human/)")
    ex.add_argument("--chunk", type=int, help="in parts of this many games (OUT.partNN.npz), resumable")
    ft = sub.add_parser("fit", help="train the policy")
    ft.add_argument("data", type=Path, nargs="+", help="one or more extracts, trained on as one")
    ft.add_argument("--hidden", type=int, default=HIDDEN)
    ft.add_argument("--epochs", type=int, default=8)
    ft.add_argument("--rate", type=float, default=0.002)
    ft.add_argument("--batch", type=int, default=256)
    ft.add_argument("--l2", type=float, default=1e-6)
    ft.add_argument("--seed", type=int, default=1)
    ft.add_argument("--save", type=Path, required=True)
    ft.add_argument("--leave-out", type=int, nargs=2, metavar=("F", "N"), help="not the games of fold F of N")
    ft.add_argument("--checkpoint", type=Path, help="keep the state after each epoch here, and go on from it")
    ft.add_argument("--threads", type=int, default=1, help="slices of each minibatch trained side by side")
    ev = sub.add_parser("evaluate", help="the policy's own match on the held-out positions")
    ev.add_argument("--policy", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "extract":
        extract(args.out, args.games, args.sources, args.chunk)
    elif args.command == "fit":
        fit(args.data, args.hidden, args.epochs, args.rate, args.batch, args.l2, args.seed, args.save,
            tuple(args.leave_out) if args.leave_out else None, args.checkpoint, args.threads)
    else:
        print(evaluate(args.policy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
