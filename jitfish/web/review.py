"""The browser's review of a game: the shared full-strength adviser searches every position with a
fixed node budget (the same work on any machine), jitfish/review.py (the classifier of
`jitfish analyse`) judges each move and says why, and the page gets the evaluation graph, each
side's accuracy and record, the marks, the better moves with their lines, the exercises of "learn
from your mistakes" and the annotated PGN, in the format `jitfish analyse` writes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import chess
import chess.pgn

from jitfish.game import colour_name
from jitfish.i18n import Moves, Msg
from jitfish.reasons import better_move, cause, reason
from jitfish.review import (JUDGEMENTS, MISTAKE_CP, Evaluation, SideSummary, Verdict, first_look, game_accuracy, judge,
                            loss_between, move_accuracy, needs_second_look, parent_score, rules_evaluation, san_line,
                            second_look, set_eval, summary_note, white_cp, white_text, win_percent, write_verdict)
from jitfish.web.board import arrow, legal_json
from search.driver import mate_moves

REVIEW_NODES = 300_000           # per position searched (docs/web.md has what that costs)

Evaluate = Callable[[chess.Board], Awaitable[Evaluation]]
Progress = Callable[[int, int], Awaitable[None]]


@dataclass(frozen=True)
class MoveReview:
    """One move of the game judged: the board before it, the move, the verdict, the position
    after it as the engine saw it, and the concrete cause of a mark (jitfish/reasons.py; None when
    there is no mark or no certain cause)."""
    ply: int
    before: chess.Board
    move: chess.Move
    verdict: Verdict
    after: Evaluation
    cause: str | None

    @property
    def mover(self) -> chess.Color:
        return self.before.turn

    @property
    def why(self) -> str | None:
        """Why a marked move is bad, in words (None for a move that is good enough)."""
        if self.verdict.judgement is None:
            return None
        return self.cause or better_move(self.before, self.verdict)

    @property
    def exercise(self) -> bool:
        """A move "learn from your mistakes" asks to improve on: a mistake or a blunder."""
        return self.verdict.loss >= MISTAKE_CP


@dataclass
class GameReview:
    """A game's review: its start, its moves, the evaluation of every position (the start first)
    and each move's judgement."""
    root: chess.Board
    moves: list[chess.Move]
    evaluations: list[Evaluation]
    reviews: list[MoveReview]
    nodes: int
    engine: str

    def review_of(self, ply: Any) -> MoveReview:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= len(self.reviews):
            raise ValueError(Msg("there is no move {ply} in the review", ply=str(ply)[:10]))
        return self.reviews[ply - 1]

    def summaries(self) -> dict[chess.Color, SideSummary]:
        summary = {chess.WHITE: SideSummary(), chess.BLACK: SideSummary()}
        for review in self.reviews:
            summary[review.mover].add(review.verdict)
        return summary

    def annotated_pgn(self, pgn: str) -> str:
        """The game's PGN (`pgn`, as the page offers it) with `[%eval]` after every move and the
        marks, comments and better lines, as `jitfish analyse` writes them."""
        game = chess.pgn.read_game(io.StringIO(pgn))
        if game is None:
            return pgn
        for node, review in zip(game.mainline(), self.reviews):
            set_eval(node, review.after, not review.mover)
            write_verdict(node, review.before, review.verdict, review.cause)
        if self.reviews:
            game.headers["Annotator"] = self.engine
            note = summary_note(self.engine, f"{self.nodes} nodes", self.summaries())
            game.comment = f"{game.comment} {note}" if game.comment else note
        return str(game) + "\n"                      # as `jitfish analyse` writes it

    def to_json(self, pgn: str) -> dict[str, Any]:
        """What the page shows: the graph, each side's record, each move's judgement, the PGN."""
        boards = [self.root] + [review.before for review in self.reviews[1:]]
        if self.reviews:
            last = self.reviews[-1].before.copy()
            last.push(self.reviews[-1].move)
            boards.append(last)
        cps = [white_cp(e.score, b.turn) for e, b in zip(self.evaluations, boards)]
        accuracy = game_accuracy(cps, self.root.turn)
        summaries = self.summaries()
        sides = {}
        for colour in chess.COLORS:
            summary = summaries[colour]
            sides[colour_name(colour)] = {
                "accuracy": None if accuracy[colour] is None else round(accuracy[colour], 1),
                "acpl": summary.average_loss, "moves": len(summary.losses),
                **{j.name: summary.count(j) for j in JUDGEMENTS}}
        plies = []
        for index, review in enumerate(self.reviews):
            plies.append(self._move_json(review, cps[index], cps[index + 1]))
        graph = [{"ply": ply, "y": chances(e.score, b.turn), "text": _eval_text(e.score, b)}
                 for ply, (e, b) in enumerate(zip(self.evaluations, boards))]
        return {"moves": [m.uci() for m in self.moves], "nodes": self.nodes, "engine": self.engine,
                "graph": graph, "sides": sides, "plies": plies, "pgn": self.annotated_pgn(pgn)}

    @staticmethod
    def _move_json(review: MoveReview, before_cp: int, after_cp: int) -> dict[str, Any]:
        verdict, board = review.verdict, review.before
        mine_before, mine_after = win_percent(before_cp), win_percent(after_cp)
        if review.mover == chess.BLACK:
            mine_before, mine_after = 100 - mine_before, 100 - mine_after
        entry: dict[str, Any] = {
            "ply": review.ply, "san": board.san(review.move), "color": colour_name(review.mover),
            "loss": verdict.loss, "accuracy": round(move_accuracy(mine_before, mine_after), 1),
            "mark": verdict.judgement.name if verdict.judgement else None,
            "symbol": verdict.judgement.symbol if verdict.judgement else "",
            "best": arrow(board, verdict.best) if verdict.best is not None else None,
            "line": san_line(board, verdict.line), "reason": review.why, "exercise": None}
        if review.exercise:
            legal, promotions = legal_json(board)
            entry["exercise"] = {"fen": board.fen(), "legal": legal, "promotions": promotions}
        return entry


def chances(score: int, turn: chess.Color) -> float:
    """White's winning chances from -1 to 1 for the graph and the bar: a mate at the edge."""
    mate = mate_moves(score)
    if mate is not None:
        white_wins = (mate > 0) == (turn == chess.WHITE)
        return 1.0 if white_wins else -1.0
    return round(win_percent(white_cp(score, turn)) / 50 - 1, 4)


def _eval_text(score: int, board: chess.Board) -> Msg | str:
    if board.is_checkmate():
        return Msg("checkmate")
    return white_text(score, board.turn)


async def review_game(root: chess.Board, moves: list[chess.Move], evaluate: Evaluate, progress: Progress,
                      nodes: int = REVIEW_NODES, engine: str = "Jitfish") -> GameReview:
    """Review the game from `root` through `moves`: `evaluate` searches a position (`nodes` is
    only recorded), `progress(done, total)` is awaited after each move. As `jitfish analyse`
    does it: each position once, the best move once more where a move is marked, the rules
    instead of a search where the game is over."""
    board = root.copy()
    last = len(moves)

    async def look(position: chess.Board, final: bool) -> Evaluation:
        return rules_evaluation(position, final) or await evaluate(position)

    current = await look(board, last == 0)
    evaluations, reviews = [current], []
    for index, move in enumerate(moves):
        before_board, before = board.copy(), current
        board.push(move)
        current = await look(board, index == last - 1)
        verdict = first_look(before, move, current)
        if needs_second_look(verdict):
            child = before_board.copy()
            child.push(verdict.best)
            verdict = second_look(verdict, await look(child, True))
        why = cause(before_board, move, verdict, current) if verdict.judgement is not None else None
        evaluations.append(current)
        reviews.append(MoveReview(index + 1, before_board, move, verdict, current, why))
        await progress(index + 1, last)
    return GameReview(root.copy(), list(moves), evaluations, reviews, nodes, engine)


@dataclass(frozen=True)
class Attempt:
    """A move tried in "learn from your mistakes": accepted or not, and what to tell the player."""
    accepted: bool
    message: Msg


async def judge_attempt(review: MoveReview, move: chess.Move, evaluate: Evaluate) -> Attempt:
    """Whether `move`, tried instead of the game's, is good: the engine's best, or a move the
    review would not mark (it loses less than INACCURACY_CP against the best)."""
    board = review.before
    san = Moves(board.san(move))
    if move == review.move:
        if review.why:
            return Attempt(False, Msg("{move} is the move of the game: {reason}.", move=san, reason=review.why))
        return Attempt(False, Msg("{move} is the move of the game: look for a better one.", move=san))
    if move == review.verdict.best:
        return Attempt(True, Msg("{move} is the engine's best move.", move=san))
    child = board.copy()
    child.push(move)
    after = rules_evaluation(child, True) or await evaluate(child)
    tried = parent_score(after.score)
    loss = loss_between(review.verdict.best_score, tried)
    if judge(loss) is None:
        return Attempt(True, Msg("{move} is good too (the engine's best was {best}).", move=san,
                                 best=Moves(board.san(review.verdict.best))))
    verdict = Verdict(loss, judge(loss), review.verdict.best_score, tried, review.verdict.line)
    return Attempt(False, Msg("{move} is not better: {reason}.", move=san, reason=reason(board, move, verdict, after)))
