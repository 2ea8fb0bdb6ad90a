"""The classifier shared by `jitfish analyse` and the browser's review (jitfish/review.py), without an
engine: the marks and the second look, scores between UCI and the engine's convention, lichess's
accuracy. Why a move is bad, in words: tests/test_reasons.py."""

from __future__ import annotations

import chess
import chess.engine
import pytest

from engine.defs import MATE
from jitfish.review import (BLUNDER_CP, INACCURACY_CP, MISTAKE_CP, Evaluation, engine_score, first_look,
                            game_accuracy, move_accuracy, needs_second_look, pov_score, rules_evaluation, second_look,
                            win_percent)


def test_the_marks_and_the_second_look():
    board = chess.Board()
    e4, d4 = chess.Move.from_uci("e2e4"), chess.Move.from_uci("d2d4")
    before = Evaluation(40, 10, (e4,))
    best = first_look(before, e4, Evaluation(-35, 10, ()))
    assert best.loss == 0 and best.judgement is None and not needs_second_look(best)
    for after, name in ((-40 + INACCURACY_CP, "inaccuracy"), (-40 + MISTAKE_CP, "mistake"), (-40 + BLUNDER_CP, "blunder")):
        verdict = first_look(before, d4, Evaluation(after, 10, ()))
        assert verdict.judgement.name == name and verdict.best == e4 and needs_second_look(verdict)
    # The second look measures the best move as deep as the played one: here it was no better.
    verdict = first_look(before, d4, Evaluation(30, 10, ()))
    assert verdict.loss == 70 and verdict.judgement.symbol == "?!"
    again = second_look(verdict, Evaluation(10, 11, (chess.Move.from_uci("e7e5"),)))
    assert again.loss == 20 and again.judgement is None and again.line == (e4, chess.Move.from_uci("e7e5"))
    assert again.best_after.depth == 11 and not needs_second_look(again)
    # A lost position cannot get worse; a mate counts as DECISIVE_CP.
    assert first_look(Evaluation(-MATE + 9, 5, (e4,)), d4, Evaluation(MATE - 3, 5, ())).loss == 0
    assert board.fen() == chess.STARTING_FEN


def test_uci_scores_in_the_engines_convention():
    for mate in (1, 2, 5, -1, -3):
        score = engine_score(chess.engine.Mate(mate))
        assert pov_score(score, chess.WHITE).relative == chess.engine.Mate(mate)
    assert engine_score(chess.engine.Mate(1)) == MATE - 1 and engine_score(chess.engine.Mate(-1)) == -(MATE - 2)
    assert engine_score(chess.engine.Cp(-35)) == -35
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert rules_evaluation(mated, False) == Evaluation(-MATE, None)
    assert rules_evaluation(chess.Board(), True) is None


def test_lichess_accuracy():
    assert win_percent(0) == 50 and win_percent(5000) == win_percent(1000) == pytest.approx(97.5, abs=0.1)
    assert win_percent(-300) == pytest.approx(100 - win_percent(300))
    assert move_accuracy(60, 60) == move_accuracy(40, 70) == 100
    assert move_accuracy(50, 40) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669 + 1, abs=0.01)
    assert move_accuracy(100, 0) == 0
    steady = game_accuracy([20] * 41, chess.WHITE)
    assert steady == {chess.WHITE: 100, chess.BLACK: 100}
    # Black throws a won position away on its 10th move: its accuracy falls, White's stays high.
    accuracy = game_accuracy([20] * 20 + [600] * 21, chess.WHITE)
    assert accuracy[chess.WHITE] == 100 and 30 < accuracy[chess.BLACK] < 80
    assert game_accuracy([0], chess.WHITE) == {chess.WHITE: None, chess.BLACK: None}
    assert game_accuracy([0, 0], chess.BLACK) == {chess.WHITE: None, chess.BLACK: 100}
