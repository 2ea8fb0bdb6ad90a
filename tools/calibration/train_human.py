"""Train the human model of search/human.py on the training part of the rated human games.

    python -m tools.calibration.train_human extract --out runs/human/train.npz [--every 3]
    python -m tools.calibration.train_human extract --held-out --out runs/human/held.npz
    python -m tools.calibration.train_human fit runs/human/train.npz [--save search/human.npz]
    python -m tools.calibration.train_human extract --watched --every 2 --out runs/human/choice/watched.npz
    python -m tools.calibration.train_human fit W-e0.npz W-e1.npz --policy search/human_policy.npz   (since 2026-12-05)
    python -m tools.calibration.train_human evaluate runs/human/held.npz [--model search/human.npz]
    python -m tools.calibration.train_human forms runs/human/held-d3.npz --ratings 800 1500 --shares 0 0.1 --sharpen 2

`extract` replays every training game (tools/calibration/human_games.py: never a held-out one),
or those of the files named by `--sources` (the shipped fit of 2026-11-28 saw the two split files'
games alone, `--sources lichess-2018-06-10k.pgn lichess-2026-06-500.pgn`: the training games before
issue 71 added the 58k rapid games), and records, for the positions from ply 10 on (every
`--every`-th, deterministically), each legal move's raw quantities from search/human.py's kernel,
the move the person played and their rating (`--watched`: only the games the board policy's fit
watches and never trains on, so that one policy, `fit --policy`, gives the choice model the
logits of unseen games, as in play); `--held-out` does the same for the move-matching positions of every band. `fit` finds the
weights of maximum likelihood (conditional logit, a small L2 penalty) by L-BFGS in numpy and
saves them; `evaluate` prints, per band, the model's top-1 match and its expected match when
sampling, at the band's centre rating; `forms` compares the ways a level could play the model
(its most likely move with a share of samples, or a sharpened sample) at fixed ratings: expected
match per band, and the expected loss and blunder rate of the moves it would play by the deeper
search's scores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

from search.human_policy import Policy
from tools.calibration.human_games import (
    BAND_WIDTH,
    BANDS,
    MIN_PLY,
    all_games,
    band_name,
    fold,
    game_index,
    held_out_sample,
    policy_inputs,
    training_games,
    watched,
)

L2 = 1e-5


# ---- extraction -----------------------------------------------------------------------------------

def _record(out: Path, raws: list[np.ndarray], chosen: list[int], ratings: list[int], ids: list[str]) -> None:
    from search.human_model import DEEP

    counts = np.array([len(r) for r in raws], dtype=np.int64)
    np.savez(out, raw=np.concatenate(raws).astype(np.int32), offsets=np.concatenate([[0], np.cumsum(counts)]),
             chosen=np.array(chosen, dtype=np.int32), rating=np.array(ratings, dtype=np.int32), ids=np.array(ids),
             deep=DEEP)


def extract(out: Path, every: int, held_out: bool, limit: int | None, sources: list[str] | None = None,
            only_watched: bool = False) -> None:
    from engine.board import Board
    from search.human_model import FeatureSearch

    features = FeatureSearch()
    raws, chosen, ratings, ids = [], [], [], []
    if held_out:
        wanted = {p.id: p for lo in BANDS for p in held_out_sample(lo)}
        games = sorted({p.game for p in wanted.values()}, key=lambda g: (g.source, g.index))
        plies = {g: {p.ply for p in wanted.values() if p.game == g} for g in games}
    else:
        games = [g for g in training_games() if (not sources or g.source in sources)
                 and (not only_watched or watched(g.index))]
        plies = {g: {ply for ply in range(MIN_PLY, len(g.moves)) if (ply + g.index) % every == 0} for g in games}
    start = time.perf_counter()
    for number, game in enumerate(games, 1):
        board = Board()
        for ply, text in enumerate(game.moves):
            if ply in plies[game]:
                moves, raw = features.raw(board)
                human = board.parse_uci(text)
                raws.append(raw)
                chosen.append(moves.index(human))
                ratings.append(game.white_elo if ply % 2 == 0 else game.black_elo)
                ids.append(f"{game.source}:{game.index}:{ply}")
            board.push_uci(text)
        if number % 200 == 0:
            print(f"{number}/{len(games)} games, {len(chosen)} positions, {time.perf_counter() - start:.0f} s",
                  file=sys.stderr, flush=True)
            _record(out, raws, chosen, ratings, ids)
        if limit and len(chosen) >= limit:
            break
    _record(out, raws, chosen, ratings, ids)
    print(f"{len(chosen)} positions in {time.perf_counter() - start:.0f} s", file=sys.stderr)


def add_engine_move(source: Path, out: Path, nodes: int, stride: int, first: int = 0) -> None:
    """Every `stride`-th position of an extract from the `first`, with the move full strength
    plays at `nodes` nodes (its index among the legal moves) beside the raw quantities."""
    from engine.board import Board
    from search.driver import Searcher
    from search.human_model import engine_move_index

    data = dict(np.load(source))          # read each array once (an npz reads it again at every access)
    games = {(g.source, g.index): g for g in all_games()}
    searcher = Searcher(1)
    keep = np.arange(first, len(data["chosen"]), stride)
    offsets = data["offsets"]
    raws, best = [], []
    start = time.perf_counter()
    for number, i in enumerate(keep, 1):
        name, index, ply = str(data["ids"][i]).rsplit(":", 2)
        game = games[(name, int(index))]
        board = Board()
        for text in game.moves[:int(ply)]:
            board.push_uci(text)
        best.append(engine_move_index(searcher, board, nodes))
        raws.append(data["raw"][offsets[i]:offsets[i + 1]])
        if number % 1000 == 0:
            print(f"{number}/{len(keep)} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    counts = np.array([len(r) for r in raws], dtype=np.int64)
    np.savez(out, raw=np.concatenate(raws), offsets=np.concatenate([[0], np.cumsum(counts)]),
             chosen=data["chosen"][keep], rating=data["rating"][keep], ids=data["ids"][keep],
             engine=np.array(best, dtype=np.int32), engine_nodes=nodes,
             **({"deep": data["deep"]} if "deep" in data else {}))


def reextract(source: Path, out: Path, deep: int, network: str | None = None) -> None:
    """The raw quantities again, with the search of depth `deep` (evaluating with `network`, else
    the hand-crafted terms), for the positions of an extract (its other arrays kept)."""
    from engine.board import Board
    from search.human_model import FeatureSearch

    data = dict(np.load(source))
    games = {(g.source, g.index): g for g in all_games()}
    wanted: dict[tuple[str, int], set[int]] = {}
    for pid in data["ids"]:
        name, index, ply = str(pid).rsplit(":", 2)
        wanted.setdefault((name, int(index)), set()).add(int(ply))
    features, found = FeatureSearch(network=network), {}
    start = time.perf_counter()
    for number, (key, plies) in enumerate(wanted.items(), 1):
        game, board = games[key], Board()
        for ply, text in enumerate(game.moves[:max(plies) + 1]):
            if ply in plies:
                found[f"{key[0]}:{key[1]}:{ply}"] = features.raw(board, deep)[1]
            board.push_uci(text)
        if number % 500 == 0:
            print(f"{number}/{len(wanted)} games in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    raws = [found[str(pid)] for pid in data["ids"]]
    data["raw"] = np.concatenate(raws).astype(np.int32)
    data["deep"] = deep
    data["network"] = network or ""
    np.savez(out, **data)


# ---- the data as the model sees it ----------------------------------------------------------------

def _joined(paths: list[Path]) -> dict[str, np.ndarray]:
    """Several extracts (with the engine's move, at one depth, by one evaluation) as one."""
    parts = [dict(np.load(path)) for path in paths]
    depths = {int(part.get("deep", 4)) for part in parts}
    if len(depths) > 1:
        raise ValueError(f"the extracts were made at different depths {sorted(depths)}")
    scorers = {str(part.get("network", "")) for part in parts}
    if len(scorers) > 1:
        raise ValueError(f"the extracts' moves were scored by different evaluations {sorted(scorers)}")
    joined = {key: np.concatenate([part[key] for part in parts]) for key in ("raw", "chosen", "rating", "ids", "engine")}
    counts = np.concatenate([np.diff(part["offsets"]) for part in parts])
    joined["offsets"] = np.concatenate([[0], np.cumsum(counts)])
    joined["deep"] = depths.pop()
    return joined


PolicyFor = Callable[[str], Policy]


class Data:
    """Features of every move of every position, flattened, with the positions' groups; the
    policy feature's logits come from `policy_for(position id)` (the shipped policy, or for
    fitting the fold's policy that never saw the position's game), at the players' ratings
    until `at_rating` says otherwise."""

    def __init__(self, paths: Path | list[Path], policy_for: PolicyFor) -> None:
        from search.human_model import features

        data = _joined(paths if isinstance(paths, list) else [paths])
        self.offsets, self.chosen, self.rating = data["offsets"], data["chosen"], data["rating"].astype(np.float64)
        self.ids = data["ids"]
        self.deep = int(data["deep"])
        raw = data["raw"].astype(np.int64)
        n = len(self.chosen)
        engine = data["engine"]
        dense, squares = [], []
        for i in range(n):
            d, s = features(raw[self.offsets[i]:self.offsets[i + 1]], int(engine[i]),
                            np.zeros(self.offsets[i + 1] - self.offsets[i]))
            dense.append(d)
            squares.append(s)
        self.dense = np.concatenate(dense).astype(np.float64)
        self.squares = np.concatenate(squares)
        self.group = np.repeat(np.arange(n), np.diff(self.offsets))
        self.target = self.offsets[:-1] + self.chosen
        self.policy_for = policy_for
        self.inputs = policy_inputs(self.ids)
        self.at_rating(self.rating)

    def at_rating(self, ratings: np.ndarray) -> Data:
        """Recompute the policy column at `ratings` (one per position); returns self."""
        from search.human_model import DENSE, scaled_rating

        column = self.dense[:, DENSE.index("policy")]
        for i, pid in enumerate(self.ids):
            active, rows, _ = self.inputs[str(pid)]
            column[self.offsets[i]:self.offsets[i + 1]] = self.policy_for(str(pid)).logits(
                active, rows, float(scaled_rating(ratings[i])))
        return self

    def subset(self, mask: np.ndarray) -> Data:
        """The positions where `mask` holds."""
        other = Data.__new__(Data)
        keep = np.flatnonzero(mask)
        rows = np.concatenate([np.arange(self.offsets[i], self.offsets[i + 1]) for i in keep])
        counts = np.diff(self.offsets)[keep]
        other.offsets = np.concatenate([[0], np.cumsum(counts)])
        other.chosen, other.rating, other.ids = self.chosen[keep], self.rating[keep], self.ids[keep]
        other.dense, other.squares = self.dense[rows], self.squares[rows]
        other.group = np.repeat(np.arange(len(keep)), counts)
        other.target = other.offsets[:-1] + other.chosen
        other.deep, other.policy_for, other.inputs = self.deep, self.policy_for, self.inputs
        return other


def shipped_policy(path: Path | None = None) -> PolicyFor:
    """Every position's logits by one policy (the shipped one unless `path`)."""
    from search import human_policy

    policy = human_policy.load(path) if path else human_policy.shipped()
    return lambda pid: policy


def out_of_fold(paths: list[Path]) -> PolicyFor:
    """Each position's logits by the policy that left its game's fold out (fold k of len(paths))."""
    from search.human_policy import load

    policies = [load(path) for path in paths]
    return lambda pid: policies[fold(game_index(pid), len(policies))]


def _unpack(theta: np.ndarray, n_dense: int, n_squares: int) -> tuple[np.ndarray, np.ndarray]:
    return theta[:3 * n_dense].reshape(3, n_dense), theta[3 * n_dense:].reshape(2, n_squares)


def utilities(data: Data, dense_w: np.ndarray, square_w: np.ndarray, ratings: np.ndarray) -> np.ndarray:
    """The model's utility of every move of `data`, each position at its own rating."""
    from search.human_model import Model

    return Model(dense_w, square_w).utilities(data.dense, data.squares, ratings[data.group])


def group_softmax(data: Data, u: np.ndarray) -> np.ndarray:
    starts = data.offsets[:-1]
    top = np.maximum.reduceat(u, starts)
    e = np.exp(u - top[data.group])
    return e / np.add.reduceat(e, starts)[data.group]


def objective(theta: np.ndarray, data: Data, n_dense: int, n_squares: int) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood plus L2, and its gradient."""
    from search.human_model import scaled_rating

    dense_w, square_w = _unpack(theta, n_dense, n_squares)
    u = utilities(data, dense_w, square_w, data.rating)
    p = group_softmax(data, u)
    n = len(data.chosen)
    nll = -np.log(np.maximum(p[data.target], 1e-300)).sum() / n
    g = p.copy()
    g[data.target] -= 1
    g /= n
    r = scaled_rating(data.rating)[data.group]
    grad_dense = (np.stack([g, g * r, g * r * r], axis=1).T @ data.dense)
    grad_squares = np.zeros((2, n_squares))
    for k in range(2):
        sq = data.squares[:, k]
        grad_squares[0] += np.bincount(sq, weights=g, minlength=n_squares)
        grad_squares[1] += np.bincount(sq, weights=g * r, minlength=n_squares)
    grad = np.concatenate([grad_dense.ravel(), grad_squares.ravel()])
    return nll + L2 * float(theta @ theta), grad + 2 * L2 * theta


def lbfgs(f, x: np.ndarray, iterations: int = 200, memory: int = 10, tolerance: float = 1e-7) -> np.ndarray:
    """Minimise f (returning value and gradient) by L-BFGS with a backtracking line search."""
    value, grad = f(x)
    s_list, y_list = [], []
    for iteration in range(iterations):
        q = grad.copy()
        alphas = []
        for s, y in reversed(list(zip(s_list, y_list))):
            a = (s @ q) / (y @ s)
            alphas.append(a)
            q -= a * y
        if s_list:
            q *= (s_list[-1] @ y_list[-1]) / (y_list[-1] @ y_list[-1])
        for (s, y), a in zip(zip(s_list, y_list), reversed(alphas)):
            q += s * (a - (y @ q) / (y @ s))
        direction = -q
        if direction @ grad >= 0:
            direction, s_list, y_list = -grad, [], []
        step = 1.0
        while True:
            candidate = x + step * direction
            new_value, new_grad = f(candidate)
            if new_value <= value + 1e-4 * step * (direction @ grad) or step < 1e-10:
                break
            step *= 0.5
        s, y = candidate - x, new_grad - grad
        if s @ y > 1e-12:
            s_list.append(s)
            y_list.append(y)
            del s_list[:-memory], y_list[:-memory]
        improvement = value - new_value
        x, value, grad = candidate, new_value, new_grad
        if iteration % 10 == 0:
            print(f"iteration {iteration}: objective {value:.5f}", file=sys.stderr, flush=True)
        if improvement < tolerance:
            break
    return x


def unseen_policy(path: Path) -> PolicyFor:
    """Every position's logits by the policy at `path`, which must never have seen the position's
    game: only the positions of watched games (extract --watched) are allowed."""
    for_all = shipped_policy(path)

    def policy_for(pid: str) -> Policy:
        if not watched(game_index(pid)):
            raise ValueError(f"{pid}: the board policy trained on this game (fit on extract --watched positions)")
        return for_all(pid)
    return policy_for


def fit(paths: list[Path], folds: list[Path] | None, save: Path | None, start: Path | None, iterations: int,
        policy: Path | None = None) -> None:
    """Fit the weights on extracts with the engine's move; the policy feature's logits come from
    the `folds` policies (each position's from the one that left its game out) or from one
    `policy` that never trained on the extracts' games (the watched games)."""
    from search.human_model import N_DENSE, N_SQUARES, Model, load

    if (folds is None) == (policy is None):
        raise ValueError("give either --folds or --policy")
    data = Data(paths, out_of_fold(folds) if folds else unseen_policy(policy))
    print(f"{len(data.chosen)} positions, {len(data.group)} moves", file=sys.stderr)
    theta = np.zeros(3 * N_DENSE + 2 * N_SQUARES)
    if start is not None:            # go on from a saved fit
        model = load(start)
        theta = np.concatenate([model.dense.ravel(), model.squares.ravel()])
    theta = lbfgs(lambda t: objective(t, data, N_DENSE, N_SQUARES), theta, iterations)
    dense_w, square_w = _unpack(theta, N_DENSE, N_SQUARES)
    model = Model(dense_w, square_w, data.deep)
    if save:
        model.save(save)
        print(f"saved {save}", file=sys.stderr)


# ---- evaluation -----------------------------------------------------------------------------------

def evaluate(path: Path, model_path: Path, policy: Path | None, sharpen: list[float]) -> str:
    """Per band: top-1 match and expected sampled match (from p^beta for each beta) at the band's
    centre rating, over the held-out positions of that band."""
    from search.human_model import load
    from tools.calibration.move_matching import cell

    model = load(model_path)
    data = Data(path, shipped_policy(policy))
    index = {pid: i for i, pid in enumerate(data.ids)}
    lines = ["| band | model rating | top-1 | " + " | ".join(f"sampled, beta {b:g}" for b in sharpen) + " |",
             "| --- | --- | --- |" + " --- |" * len(sharpen)]
    for lo in BANDS:
        keep = np.zeros(len(data.chosen), dtype=bool)
        keep[[index[p.id] for p in held_out_sample(lo)]] = True
        rating = lo + BAND_WIDTH // 2
        band = data.subset(keep).at_rating(np.full(int(keep.sum()), float(rating)))
        u = utilities(band, model.dense, model.squares, np.full(len(band.chosen), float(rating)))
        starts = band.offsets[:-1]
        top = np.maximum.reduceat(u, starts)
        best = np.array([np.argmax(u[a:b]) for a, b in zip(starts, band.offsets[1:])])
        hits = int((best == band.chosen).sum())
        sampled = []
        for beta in sharpen:
            e = np.exp(beta * (u - top[band.group]))
            p = e / np.add.reduceat(e, starts)[band.group]
            sampled.append(f"{p[band.target].mean():.1%}")
        lines.append(f"| {band_name(lo)} | {rating} | {cell(hits, len(band.chosen))} | " + " | ".join(sampled) + " |")
    return "\n".join(lines)


def forms(path: Path, model_path: Path, policy: Path | None, ratings: list[float], shares: list[float],
          sharpen: list[float]) -> str:
    """For each rating and form (`s0.1`: the most likely move, a sample at 10% of the moves;
    `b2`: always a sample of p^2): expected match per band over the held-out positions (all at
    that one rating), expected centipawn loss of the move played by the deeper search (clipped
    at 1000) and the share of moves losing 300 or more."""
    from search.human import R_DEEP
    from search.human_model import load

    model = load(model_path)
    data = Data(path, shipped_policy(policy))
    deep = np.clip(np.load(path)["raw"][:, R_DEEP].astype(np.float64), -30000, 30000)
    starts = data.offsets[:-1]
    loss = np.minimum(np.maximum.reduceat(deep, starts)[data.group] - deep, 1000)
    index = {pid: i for i, pid in enumerate(data.ids)}
    bands = {lo: [index[p.id] for p in held_out_sample(lo)] for lo in BANDS}
    lines = ["| rating | form | " + " | ".join(band_name(lo) for lo in BANDS) + " | expected loss | losing 300+ |",
             "| --- | --- |" + " --- |" * (len(BANDS) + 2)]
    for rating in ratings:
        data.at_rating(np.full(len(data.chosen), float(rating)))
        u = utilities(data, model.dense, model.squares, np.full(len(data.chosen), float(rating)))
        top = np.maximum.reduceat(u, starts)[data.group]
        likeliest = (u == top).astype(np.float64)
        likeliest /= np.add.reduceat(likeliest, starts)[data.group]
        for label, beta, share in [(f"s{x:g}", 1.0, x) for x in shares] + [(f"b{b:g}", b, 1.0) for b in sharpen]:
            e = np.exp(beta * (u - top))
            p = share * e / np.add.reduceat(e, starts)[data.group] + (1 - share) * likeliest
            match = p[data.target]
            cells = " | ".join(f"{match[bands[lo]].mean():.1%}" for lo in BANDS)
            lines.append(f"| {rating:g} | {label} | {cells} | {np.add.reduceat(p * loss, starts).mean():.1f} | "
                         f"{np.add.reduceat(p * (loss >= 300), starts).mean():.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.train_human", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="record the moves' raw features of the games' positions")
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--every", type=int, default=3, help="every N-th position of a training game")
    ex.add_argument("--held-out", action="store_true", help="the move-matching positions instead")
    ex.add_argument("--limit", type=int, help="stop after this many positions")
    ex.add_argument("--sources", nargs="+", help="only the training games of these files (names in ../shared/data/human/)")
    ex.add_argument("--watched", action="store_true",
                    help="only the training games the board policy never trains on (index %% 25 == 3)")
    ft = sub.add_parser("fit", help="fit the weights and save them")
    ft.add_argument("data", type=Path, nargs="+", help="one or more extracts with the engine's move")
    ft.add_argument("--folds", type=Path, nargs="+",
                    help="board policies leaving out fold 0, 1, ... of N of the games (train_policy fit --leave-out)")
    ft.add_argument("--policy", type=Path,
                    help="one board policy that never trained on the extracts' games (extract --watched)")
    ft.add_argument("--save", type=Path)
    ft.add_argument("--start", type=Path, help="go on from this saved fit instead of zero weights")
    ft.add_argument("--iterations", type=int, default=200)
    re_ = sub.add_parser("reextract", help="the raw quantities again at another depth, for an extract's positions")
    re_.add_argument("source", type=Path)
    re_.add_argument("--out", type=Path, required=True)
    re_.add_argument("--deep", type=int, required=True)
    re_.add_argument("--network", help="score the moves with this network (.npz) instead of the hand-crafted terms")
    en = sub.add_parser("engine", help="add full strength's move at a node budget to an extract")
    en.add_argument("source", type=Path)
    en.add_argument("--out", type=Path, required=True)
    en.add_argument("--nodes", type=int, default=20000)
    en.add_argument("--stride", type=int, default=1, help="every N-th position only")
    en.add_argument("--first", type=int, default=0, help="the first position taken (default 0)")
    ev = sub.add_parser("evaluate", help="the model's match on the held-out positions")
    ev.add_argument("data", type=Path)
    ev.add_argument("--model", type=Path, default=Path("search/human.npz"))
    ev.add_argument("--policy", type=Path, help="the board policy (default: the shipped one)")
    ev.add_argument("--sharpen", type=float, nargs="*", default=[1.0, 2.0, 4.0])
    fo = sub.add_parser("forms", help="the ways a level could play the model, compared on the held-out positions")
    fo.add_argument("data", type=Path)
    fo.add_argument("--model", type=Path, default=Path("search/human.npz"))
    fo.add_argument("--policy", type=Path, help="the board policy (default: the shipped one)")
    fo.add_argument("--ratings", type=float, nargs="+", default=[800, 1000, 1200, 1500, 1800])
    fo.add_argument("--shares", type=float, nargs="*", default=[0, 0.1, 0.2, 0.35, 0.5, 1])
    fo.add_argument("--sharpen", type=float, nargs="*", default=[2, 4])
    args = parser.parse_args(argv)
    if args.command == "forms":
        print(forms(args.data, args.model, args.policy, args.ratings, args.shares, args.sharpen))
    elif args.command == "extract":
        extract(args.out, args.every, args.held_out, args.limit, args.sources, args.watched)
    elif args.command == "reextract":
        reextract(args.source, args.out, args.deep, args.network)
    elif args.command == "engine":
        add_engine_move(args.source, args.out, args.nodes, args.stride, args.first)
    elif args.command == "fit":
        fit(args.data, args.folds, args.save, args.start, args.iterations, args.policy)
    else:
        print(evaluate(args.data, args.model, args.policy, args.sharpen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
