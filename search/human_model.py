"""The human model: P(move | position, rating), the move a lichess player of a rating plays.

A conditional-logit choice over the legal moves (issue 48). Each move is described by what a
person's choice depends on (search/human.py's kernel): the score it keeps after a shallow and
after a deeper search (as loss against the best), its rank at each, capture, recapture of the
last-moved piece, check, castling, promotion, the piece moved, how far and which way,
development, whether it rescues a piece that was en prise or leaves one there, which piece
goes to and comes from which square, and the logit of a small policy over the whole board
(search/human_policy.py: what the position looks like to a person). Every weight has a rating
slope, so how the choice changes with rating is learnt from the games
(tools/calibration/train_human.py), not set by hand. The weights ship as search/human.npz.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.defs import KING, MATE_IN_MAX, NO_EVAL, PAWN
from eval import nnue
from eval.evaluate import W_NNUE, W_PAWN_CACHE
from search import human_policy
from search import tt as tt_module
from search.human import (
    R_CAPTURED,
    R_CASTLE,
    R_CHECK,
    R_DEEP,
    R_DEVELOP,
    R_DISTANCE,
    R_DOUBLE,
    R_ESCAPE,
    R_FORWARD,
    R_FROM,
    R_LEFT_EN_PRISE,
    R_PIECE,
    R_PROMOTION,
    R_RECAPTURE,
    R_SHALLOW,
    R_TO,
    RAW_COLUMNS,
    move_raw,
)
from search.workspace import (
    CTL_NODE_LIMIT,
    CTL_NODES,
    CTL_PROVE_MATE,
    CTL_ROOT_PLY,
    CTL_STOP,
    PLIES,
    WS_CONT_ROWS,
    WS_EVALS,
    clear_heuristics,
    ctl_view,
    new_workspace,
)

MODEL_FILE = Path(__file__).with_name("human.npz")
LOSS_CLIP = 1000             # centipawns: a loss beyond this is as bad as this (mates too)
RATING_CENTRE, RATING_SCALE = 1500.0, 400.0
DEEP = 3                     # each move's deeper score: the move, then a full-width search of depth 2
ENGINE_NODES = 20000         # full strength's move at this many nodes is one of the features
VETO_TRIES = 3               # a Chooser's veto checks this many of its likeliest moves at most
WIN_SCALE = 1 / 0.00368208   # centipawns: a score's expected result is 1 / (1 + exp(-cp / WIN_SCALE)) (lichess's curve)

# The dense features of a move (features()), each with a weight and two rating slopes.
DENSE = ("loss1", "log_loss1", "best1", "lossD", "log_lossD", "bestD", "nearD", "rank1_2", "rank1_3",
         "rank1_45", "rankD_2", "rankD_3", "capture", "captured_value", "recapture", "check", "castle",
         "promotion", "pawn_push", "double_push", "distance", "forward", "develop", "king_move", "escape",
         "ignores_threat", "engine_move", "bias", "policy")
N_DENSE = len(DENSE)
N_SQUARES = 2 * 6 * 64       # piece type x target square, then piece type x origin square (own side's view)



class FeatureSearch:
    """A small workspace and table of its own for the features' searches (the hand-crafted
    evaluation, or `network`'s: the model ships with the former), emptied before every position
    so that a position's features do not depend on what was searched before."""

    def __init__(self, table_mb: int = 1, network: str | None = None) -> None:
        self.ws = new_workspace()
        self.tt = tt_module.allocate(table_mb)
        self.ctl = ctl_view(self.ws)
        if network:                                  # the scores by a network instead (eval/nnue.py)
            self.ws[W_NNUE:W_PAWN_CACHE] = nnue.load(network)

    def raw(self, board, deep: int = DEEP) -> tuple[list[int], np.ndarray]:
        """The legal moves of `board` and their raw quantities (move_raw)."""
        moves = board.legal_moves()
        raw = np.zeros((len(moves), RAW_COLUMNS), dtype=np.int64)
        if moves:
            self.tt[:] = 0
            clear_heuristics(self.ws)
            # The moves are searched from ply 1: what the search reads of ply 0 (the move made
            # there, its static evaluation) must not be left over from an earlier search.
            self.ws[WS_CONT_ROWS:WS_CONT_ROWS + PLIES] = -1
            self.ws[WS_EVALS:WS_EVALS + PLIES] = NO_EVAL
            ctl = self.ctl
            ctl[CTL_STOP] = 0
            ctl[CTL_NODES] = 0
            ctl[CTL_NODE_LIMIT] = 0
            ctl[CTL_ROOT_PLY] = board.ply
            # Full width: the moves are searched without move-ordering history, so the search's
            # pruning of late quiet moves would cut the very replies that refute them (3.Nc3
            # read as winning the queen of 1.e4 e5 2.d3 Qg5 because no queen move was tried).
            ctl[CTL_PROVE_MATE] = 1
            if self.ws[W_NNUE + nnue.R_ON]:
                nnue.start(board.arrays, self.ws[W_NNUE:W_PAWN_CACHE])
            move_raw(board.tab, board.arrays, self.ws, self.tt, np.array(moves, dtype=np.int64),
                     len(moves), deep, raw)
        return moves, raw


def _loss(scores: np.ndarray) -> np.ndarray:
    """Centipawns below the best move, clipped at LOSS_CLIP (a mate counts as LOSS_CLIP)."""
    clipped = np.clip(scores, -MATE_IN_MAX, MATE_IN_MAX).astype(np.float64)
    return np.minimum(clipped.max() - clipped, LOSS_CLIP)


def _rank(scores: np.ndarray) -> np.ndarray:
    """0 for the best move, 1 for the next distinct score, ... (ties share a rank)."""
    distinct = np.unique(-scores)
    return np.searchsorted(distinct, -scores)


def engine_search(searcher, board, nodes: int = ENGINE_NODES, only: int | None = None):
    """Full strength's search of `board` at `nodes` nodes (a fresh table, so that it does not
    depend on what was searched before), of the move `only` alone if given: its Result."""
    from search.timeman import Limits

    searcher.clear()
    searcher.prepare()
    return searcher.run(board, Limits(nodes=nodes, searchmoves=[board.uci(only)] if only else []))


def engine_move_index(searcher, board, nodes: int = ENGINE_NODES) -> int:
    """Index in board.legal_moves() of the move full strength plays at `nodes` nodes."""
    return board.legal_moves().index(engine_search(searcher, board, nodes).best)


def features(raw: np.ndarray, engine: int, policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dense [n, N_DENSE] float32, square indices [n, 2] int32) of the moves of one position;
    `engine` is the index of full strength's move among them, `policy` the moves' logits by the
    board policy (at the rating the model is asked about)."""
    n = len(raw)
    loss1, lossd = _loss(raw[:, R_SHALLOW]) / 100, _loss(raw[:, R_DEEP]) / 100
    rank1, rankd = _rank(raw[:, R_SHALLOW]), _rank(raw[:, R_DEEP])
    piece = raw[:, R_PIECE]
    capture = raw[:, R_CAPTURED] > 0
    dense = np.empty((n, N_DENSE), dtype=np.float32)
    columns = (loss1, np.log1p(loss1), loss1 == 0, lossd, np.log1p(lossd), lossd == 0, lossd <= 0.3,
               rank1 == 1, rank1 == 2, (rank1 >= 3) & (rank1 <= 4), rankd == 1, rankd == 2,
               capture, raw[:, R_CAPTURED] / 900, raw[:, R_RECAPTURE], raw[:, R_CHECK], raw[:, R_CASTLE],
               raw[:, R_PROMOTION], (piece == PAWN) & (raw[:, R_DOUBLE] == 0), raw[:, R_DOUBLE],
               raw[:, R_DISTANCE] / 7, raw[:, R_FORWARD] / 7, raw[:, R_DEVELOP],
               (piece == KING) & (raw[:, R_CASTLE] == 0), raw[:, R_ESCAPE], raw[:, R_LEFT_EN_PRISE],
               np.arange(n) == engine, np.ones(n), policy)
    for k, column in enumerate(columns):
        dense[:, k] = column
    squares = np.empty((n, 2), dtype=np.int32)
    squares[:, 0] = piece * 64 + raw[:, R_TO]
    squares[:, 1] = 6 * 64 + piece * 64 + raw[:, R_FROM]
    return dense, squares


# ---- the model ------------------------------------------------------------------------------------

def scaled_rating(rating: float | np.ndarray) -> float | np.ndarray:
    """r = (R - 1500) / 400, the variable of the weights' rating slopes."""
    return (np.asarray(rating, dtype=np.float64) - RATING_CENTRE) / RATING_SCALE


@dataclass(frozen=True)
class Model:
    """Utility of a move at rating R: sum over features of (a + b r + c r^2) x feature, plus
    (a + b r) for its two squares, with r = (R - 1500) / 400."""
    dense: np.ndarray        # [3, N_DENSE]
    squares: np.ndarray      # [2, N_SQUARES]
    deep: int = DEEP

    def utilities(self, dense: np.ndarray, squares: np.ndarray, rating: float | np.ndarray) -> np.ndarray:
        """Each move's utility at `rating` (one number, or one per move: the trainer's positions
        come from players of many ratings)."""
        r = scaled_rating(rating)
        x = dense.astype(np.float64) @ self.dense.T
        u = x[:, 0] + r * x[:, 1] + r * r * x[:, 2]
        for k in range(2):
            u = u + self.squares[0][squares[:, k]] + r * self.squares[1][squares[:, k]]
        return u

    def probabilities(self, dense: np.ndarray, squares: np.ndarray, rating: float) -> np.ndarray:
        u = self.utilities(dense, squares, rating)
        p = np.exp(u - u.max())
        return p / p.sum()

    def save(self, path: Path = MODEL_FILE) -> None:
        np.savez(path, dense=self.dense, squares=self.squares, deep=self.deep, names=np.array(DENSE))


@functools.lru_cache(maxsize=1)
def shipped() -> Model:
    """The shipped weights, read once."""
    return load()


def load(path: Path = MODEL_FILE) -> Model:
    with np.load(path) as data:
        if tuple(str(name) for name in data["names"]) != DENSE:
            raise ValueError(f"{path}: made for other features than this engine's")
        return Model(data["dense"].copy(), data["squares"].copy(), int(data["deep"]))


@dataclass
class Chooser:
    """Chooses a move as the model says a player of `rating` would: a `share` of the moves
    (decided per position by the seed) sampled from its probabilities raised to `sharpen`, the
    others its most likely move (share 1: always a sample; share 0: always the most likely move).
    With a `slip` the most likely move gives way to a move nearly as likely that loses: the move
    played where none is sampled is the one of highest p + slip x (expected result it gives away
    by the deeper search), the way to weaken the model's choice that costs the least of its
    likelihood (a player of the rating, who makes the mistakes such a player makes, more often).
    With a `veto` (centipawns), a chosen move that full strength's search finds losing more than
    that against full strength's own move gives way to the model's next most likely move that does
    not (VETO_TRIES at most), else to full strength's move: a player of that style who blunders
    less. Full strength searches `veto_nodes` nodes for the veto (the engine-move feature's count
    by default; more make a stronger veto). `engine` is the full-strength Searcher of the
    engine-move feature (made when needed), `policy` the board policy of the policy feature."""
    model: Model
    rating: float
    share: float = 1.0
    sharpen: float = 1.0
    veto: int | None = None
    slip: float = 0.0
    veto_nodes: int = ENGINE_NODES
    search: FeatureSearch = field(default_factory=FeatureSearch)
    engine: object = None
    policy: human_policy.Policy = field(default_factory=human_policy.shipped)
    _engine: object = field(default=None, init=False, repr=False)    # full strength's Result at this position
    _engine_nodes: int = field(default=0, init=False, repr=False)

    def distribution(self, board) -> tuple[list[int], np.ndarray, np.ndarray]:
        """The legal moves, their probabilities (sharpened) and their deeper-search scores."""
        moves, raw = self.search.raw(board, self.model.deep)
        self._engine_nodes = 0
        if not moves:
            return moves, np.zeros(0), np.zeros(0, dtype=np.int64)
        if self.engine is None:
            from search.driver import Searcher

            self.engine = Searcher(1)
        logits = self.policy.logits(*human_policy.inputs(board, moves), float(scaled_rating(self.rating)))
        self._engine = engine_search(self.engine, board)
        self._engine_nodes = self._engine.nodes
        u = self.model.utilities(*features(raw, moves.index(self._engine.best), logits), self.rating) * self.sharpen
        p = np.exp(u - u.max())
        return moves, p / p.sum(), raw[:, R_DEEP]

    def nodes(self) -> int:
        """Nodes the last choice searched (the features' searches and full strength's)."""
        return int(self.search.ctl[CTL_NODES]) + self._engine_nodes

    def choose(self, board, seed: int, allowed: set[int] | None = None, hurry: bool = False) -> tuple[int, int]:
        """(move, its deeper-search score); move 0 when there is none. The choice repeats for a
        given seed and position; `allowed` (a GUI's searchmoves) keeps the choice among those moves;
        `hurry` (little time on the clock): the veto searches ENGINE_NODES nodes, not veto_nodes."""
        moves, p, scores = self.distribution(board)
        if not moves:
            return 0, 0
        if allowed and any(move in allowed for move in moves):
            mask = np.array([move in allowed for move in moves])
            p = np.where(mask, p, 0.0) if p[mask].sum() > 0 else mask.astype(np.float64)
            p = p / p.sum()
        index = pick(p, self.share, random.Random(f"{seed}:{board.key}:{board.ply}"), slipped(p, scores, self.slip))
        if self.veto is not None:
            index = self._vetted(board, moves, p, index, ENGINE_NODES if hurry else self.veto_nodes)
        return moves[index], int(scores[index])

    def _vetted(self, board, moves: list[int], p: np.ndarray, index: int, nodes: int) -> int:
        """`index`, or the model's next most likely move if full strength's search of `nodes` nodes
        finds it losing more than `veto` (VETO_TRIES moves at most), or full strength's move (if
        `p` allows it: a move of probability 0 is outside a GUI's searchmoves)."""
        best = self._engine
        if nodes != ENGINE_NODES:
            best = engine_search(self.engine, board, nodes)
            self._engine_nodes += best.nodes
        tried = [index] + [int(i) for i in np.argsort(-p, kind="stable") if i != index and p[i] > 0]
        for i in tried[:VETO_TRIES]:
            if moves[i] == best.best:
                return i
            own = engine_search(self.engine, board, nodes, only=moves[i])
            self._engine_nodes += own.nodes
            if _clip(best.score) - _clip(own.score) <= self.veto:
                return i
        engine = moves.index(best.best)
        return engine if p[engine] > 0 else index


def _clip(score: int) -> int:
    return max(-LOSS_CLIP, min(LOSS_CLIP, score))


def expected_result(cp: np.ndarray) -> np.ndarray:
    """The expected result (0..1) of scores in centipawns, mates as LOSS_CLIP."""
    clipped = np.clip(np.asarray(cp, dtype=np.float64), -LOSS_CLIP, LOSS_CLIP)
    return 1 / (1 + np.exp(-clipped / WIN_SCALE))


def slipped(p: np.ndarray, scores: np.ndarray, slip: float) -> int:
    """Index of the move of highest p + slip x (the expected result it gives away against the
    best of `scores`): the likeliest move unless a losing one is nearly as likely. Among the moves
    `p` allows (p > 0)."""
    result = expected_result(scores)
    value = np.where(p > 0, p + slip * (result.max() - result), -1.0)
    return int(np.argmax(value))


def pick(p: np.ndarray, share: float, rng: random.Random, likeliest: int) -> int:
    """Index of the move played: with probability `share` a sample from `p`, else `likeliest`
    (no draw is spent on the share when it is 0 or 1)."""
    if share <= 0 or (share < 1 and rng.random() >= share):
        return likeliest
    return min(int(np.searchsorted(np.cumsum(p), rng.random(), side="right")), len(p) - 1)
