"""How good each move of a game was: one classifier for `jitfish analyse` and the browser's review.

A move is measured by what it loses against the engine's best move from the same position, both
scores clamped to +-DECISIVE_CP; a loss of INACCURACY_CP, MISTAKE_CP or BLUNDER_CP earns `?!`,
`?` or `??`. Whoever runs the searches (the in-process Searcher of `jitfish analyse`, a UCI
process for `jitfish web`) hands over `Evaluation`s; this module judges, writes the judgement into
a PGN and turns evaluations into lichess's accuracy. Why a move is bad, in words, is
jitfish/reasons.py's.

Scores are centipawns for the side to move, mates in the engine's convention (engine.defs: a
mate n plies away scores MATE - n).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import NamedTuple, Sequence

import chess
import chess.engine
import chess.pgn

from engine.defs import BISHOP, KNIGHT, MATE, MATE_IN_MAX, PAWN, PIECE_VALUES, QUEEN, ROOK
from search.driver import mate_moves

# Centipawns the played move may lose against the engine's best before it is marked. Scores are
# clamped to +-DECISIVE_CP first (a mate counts as DECISIVE_CP), so that a lost position cannot
# get worse and two winning ones differ by at most that much.
INACCURACY_CP, MISTAKE_CP, BLUNDER_CP = 50, 100, 300
DECISIVE_CP = 1000
MOVE_QUALITY_NAGS = frozenset(range(1, 7))       # ! ? !! ?? !? ?!: a move has only one of them
PV_PLIES = 12                                     # longest variation written for a better move


class Judgement(NamedTuple):
    """A mark for a move: its PGN NAG, its word in comments, its name on the page, its symbol."""
    nag: int
    word: str
    name: str
    symbol: str
    threshold: int


JUDGEMENTS = (Judgement(chess.pgn.NAG_BLUNDER, "Blunder", "blunder", "??", BLUNDER_CP),
              Judgement(chess.pgn.NAG_MISTAKE, "Mistake", "mistake", "?", MISTAKE_CP),
              Judgement(chess.pgn.NAG_DUBIOUS_MOVE, "Inaccuracy", "inaccuracy", "?!", INACCURACY_CP))


# ---- scores ------------------------------------------------------------------------------------


def clamp(score: int) -> int:
    """The score limited to +-DECISIVE_CP (mates included), for measuring losses."""
    return max(-DECISIVE_CP, min(DECISIVE_CP, score))


def parent_score(child_score: int) -> int:
    """The score of a move for the side that made it, from the score of the position after it
    (for the side to move there): negated, and a mate is one ply further away."""
    score = -child_score
    if score >= MATE_IN_MAX:
        return score - 1
    if score <= -MATE_IN_MAX:
        return score + 1
    return score


def pov_score(score: int, turn: chess.Color) -> chess.engine.PovScore | None:
    """python-chess's form of a score for the side `turn`; None for a checkmated side (no eval)."""
    mate = mate_moves(score)
    if mate == 0:
        return None
    relative = chess.engine.Cp(score) if mate is None else chess.engine.Mate(mate)
    return chess.engine.PovScore(relative, turn)


def engine_score(score: chess.engine.Score) -> int:
    """A UCI score (python-chess's, for the side to move) in the engine's convention: `mate n`
    (moves) is MATE - (2n - 1) plies, `mate -n` is -(MATE - 2n)."""
    mate = score.mate()
    if mate is None:
        return score.score()
    if mate > 0:
        return MATE - (2 * mate - 1)
    return -(MATE + 2 * mate)


def white_text(score: int, turn: chess.Color) -> str:
    """A score as White sees it, the way [%eval] writes it: `+0.35`, `-2.10`, `#3`, `#-2`."""
    pov = pov_score(score, turn)
    if pov is None:
        return "mated"
    white = pov.white()
    return f"#{white.mate()}" if white.is_mate() else f"{white.score() / 100:+.2f}"


def white_cp(score: int, turn: chess.Color) -> int:
    """The score from White's view, clamped (a mate is +-DECISIVE_CP): what graphs and accuracy use."""
    return clamp(score if turn == chess.WHITE else -score)


def judge(loss: int) -> Judgement | None:
    """The mark for a move losing `loss` centipawns; None when it is good enough."""
    for judgement in JUDGEMENTS:
        if loss >= judgement.threshold:
            return judgement
    return None


def loss_between(best: int, played: int) -> int:
    """Centipawns a move scoring `played` loses against one scoring `best` (both for the mover)."""
    return max(0, clamp(best) - clamp(played))


# ---- the judgement of a move -------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """What is known of a position: its score for the side to move, the search depth (None when
    the rules decide it) and the best line (empty when the game is over)."""
    score: int
    depth: int | None
    pv: tuple[chess.Move, ...] = ()


def rules_evaluation(board: chess.Board, rules_end_game: bool) -> Evaluation | None:
    """The evaluation the rules give without a search: checkmate, stalemate, and (when
    `rules_end_game`) a draw by repetition, the fifty-move rule or insufficient material."""
    if not any(board.generate_legal_moves()):
        return Evaluation(-MATE if board.is_check() else 0, None)
    if rules_end_game and (board.is_repetition(3) or board.is_fifty_moves() or board.is_insufficient_material()
                           or board.outcome() is not None):
        return Evaluation(0, None)
    return None


@dataclass(frozen=True)
class Verdict:
    """A move against the engine's best: the loss, the mark (None: good enough), both scores for
    the mover, the better line (best move first; empty when the move played was the best) and
    the position after the best move when it was searched again."""
    loss: int
    judgement: Judgement | None
    best_score: int
    played_score: int
    line: tuple[chess.Move, ...]
    best_after: Evaluation | None = None

    @property
    def best(self) -> chess.Move | None:
        return self.line[0] if self.line else None


def first_look(before: Evaluation, played: chess.Move, after: Evaluation) -> Verdict:
    """The played move (whose position after it is `after`) against the best move of `before`."""
    played_score = parent_score(after.score)
    if not before.pv or played == before.pv[0]:
        return Verdict(0, None, played_score, played_score, ())
    loss = loss_between(before.score, played_score)
    return Verdict(loss, judge(loss), before.score, played_score, before.pv)


def needs_second_look(verdict: Verdict) -> bool:
    """Whether the best move must be searched again before the move is marked: a search of the
    position after it sees it as deep past the move as the played one was seen (the first look
    went one ply less), so that a mark never comes from a depth difference alone."""
    return verdict.judgement is not None and verdict.best_after is None


def second_look(verdict: Verdict, best_after: Evaluation) -> Verdict:
    """The verdict with the best move measured by `best_after`, the position after it."""
    best_score = parent_score(best_after.score)
    loss = loss_between(best_score, verdict.played_score)
    line = (verdict.line[0],) + tuple(best_after.pv)
    return Verdict(loss, judge(loss), best_score, verdict.played_score, line, best_after)


# ---- the judgement in PGN (what `jitfish analyse` writes) ---------------------------------------


@dataclass
class SideSummary:
    """One player's record in a game: the centipawn loss of each move and the marks given."""
    losses: list[int] = field(default_factory=list)
    marks: dict[int, int] = field(default_factory=dict)

    def add(self, verdict: Verdict) -> None:
        self.losses.append(verdict.loss)
        if verdict.judgement is not None:
            self.marks[verdict.judgement.nag] = self.marks.get(verdict.judgement.nag, 0) + 1

    @property
    def average_loss(self) -> int:
        return round(sum(self.losses) / len(self.losses)) if self.losses else 0

    def count(self, judgement: Judgement) -> int:
        return self.marks.get(judgement.nag, 0)

    def text(self) -> str:
        counts = [count_text(self.count(j), j.word.lower()) for j in reversed(JUDGEMENTS)]
        return f"{', '.join(counts)}, average loss {self.average_loss} cp"


def count_text(n: int, noun: str) -> str:
    """`1 blunder`, `2 inaccuracies`."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


def summary_note(engine: str, limit: str, summary: dict[chess.Color, SideSummary]) -> str:
    """The game comment: who analysed, how deep, and each side's record."""
    return (f"{engine}, {limit} per move. "
            f"White: {summary[chess.WHITE].text()}. Black: {summary[chess.BLACK].text()}.")


def set_eval(node: chess.pgn.ChildNode, evaluation: Evaluation, turn: chess.Color) -> None:
    """`[%eval]` on the node of the position `evaluation` is of (`turn` to move there)."""
    pov = pov_score(evaluation.score, turn)
    if pov is not None:
        node.set_eval(pov, evaluation.depth)


def write_verdict(node: chess.pgn.ChildNode, position: chess.Board, verdict: Verdict, cause: str | None = None) -> None:
    """Mark a move that loses enough: its NAG, a comment with both evaluations, why (`cause`, the
    sentence of jitfish/reasons.py when it has a concrete one) and the better move, and the better
    line as a variation (`position`: the board before the move)."""
    judgement = verdict.judgement
    if judgement is None:
        return
    node.nags -= MOVE_QUALITY_NAGS
    node.nags.add(judgement.nag)
    best, played = verdict.best_score, verdict.played_score
    because = f": {cause}" if cause else ""
    text = (f"{judgement.word} ({white_text(best, position.turn)} -> {white_text(played, position.turn)})"
            f"{because}. Best was {position.san(verdict.best)}.")
    node.comment = f"{node.comment} {text}" if node.comment else text
    first = add_line(node.parent, position, verdict.line)
    if first is not None and verdict.best_after is not None:
        set_eval(first, verdict.best_after, not position.turn)


def add_line(parent: chess.pgn.GameNode, position: chess.Board,
             moves: Sequence[chess.Move]) -> chess.pgn.ChildNode | None:
    """Add the engine line `moves` (at most PV_PLIES) from `parent` as a variation; its first
    node, or None when the parent already has a variation with that move."""
    board = position.copy(stack=False)
    node, first = parent, None
    for move in moves[:PV_PLIES]:
        if not board.is_legal(move):        # never expected: the engines check their lines
            break
        if first is None and parent.has_variation(move):
            return None
        node = node.add_variation(move)
        first = first or node
        board.push(move)
    return first


def san_line(position: chess.Board, moves: Sequence[chess.Move], plies: int = PV_PLIES) -> list[str]:
    """The line in SAN from `position`, up to its first illegal move."""
    board = position.copy(stack=False)
    sans = []
    for move in moves[:plies]:
        if not board.is_legal(move):
            break
        sans.append(board.san(move))
        board.push(move)
    return sans


# ---- accuracy (lichess's, https://lichess.org/page/accuracy) -----------------------------------

WIN_SLOPE = 0.00368208            # lichess's fit of win chances to centipawns (2022)


def win_percent(cp: int) -> float:
    """White's chance to win in percent from White's score (clamped to +-DECISIVE_CP, as lichess
    clamps to 1000; a mate counts as 1000)."""
    cp = clamp(cp)
    return 50 + 50 * (2 / (1 + math.exp(-WIN_SLOPE * cp)) - 1)


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy in percent from the mover's win percent before and after it: lichess's
    103.1668 * exp(-0.04354 * drop) - 3.1669, plus its uncertainty bonus of 1, within 0..100."""
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def game_accuracy(white_cps: Sequence[int], first: chess.Color) -> dict[chess.Color, float | None]:
    """Each side's accuracy over a game, as lichess combines the moves' accuracies: the mean of a
    volatility-weighted mean (each move weighted by the standard deviation of the win percents
    around it, within 0.5..12) and a harmonic mean. `white_cps`: White's score of every position,
    the start first; `first`: who made the first move. None for a side without a move."""
    wins = [win_percent(cp) for cp in white_cps]
    moves = len(wins) - 1
    if moves < 1:
        return {chess.WHITE: None, chess.BLACK: None}
    size = max(2, min(8, moves // 10))
    windows = [wins[:size]] * (min(size, len(wins)) - 2)
    windows += [wins[i:i + size] for i in range(max(1, len(wins) - size + 1))]
    weights = [max(0.5, min(12.0, statistics.pstdev(window))) for window in windows]
    by_side: dict[chess.Color, list[tuple[float, float]]] = {chess.WHITE: [], chess.BLACK: []}
    for index in range(min(moves, len(weights))):
        mover = first if index % 2 == 0 else not first
        before, after = wins[index], wins[index + 1]
        if mover == chess.BLACK:
            before, after = 100 - before, 100 - after
        by_side[mover].append((move_accuracy(before, after), weights[index]))
    result: dict[chess.Color, float | None] = {}
    for side, pairs in by_side.items():
        if not pairs:
            result[side] = None
            continue
        weighted = sum(a * w for a, w in pairs) / sum(w for _, w in pairs)
        harmonic = len(pairs) / sum(1 / max(1.0, a) for a, _ in pairs)
        result[side] = (weighted + harmonic) / 2
    return result


# ---- material and scores in words ----------------------------------------------------------------

PIECE_CP = {chess.PAWN: PIECE_VALUES[PAWN], chess.KNIGHT: PIECE_VALUES[KNIGHT], chess.BISHOP: PIECE_VALUES[BISHOP],
            chess.ROOK: PIECE_VALUES[ROOK], chess.QUEEN: PIECE_VALUES[QUEEN], chess.KING: 0}


def pawns_text(score: int) -> str:
    """A score in pawns with one decimal and a true minus sign: `+0.4`, `−1.3`, `0.0`."""
    pawns = round(score / 100, 1)
    return "0.0" if pawns == 0 else f"{pawns:+.1f}".replace("-", "\u2212")
