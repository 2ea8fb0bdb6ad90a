"""The classifier shared by `jitfish analyse` and the browser's review (jitfish/review.py), without an
engine: the marks and the second look, scores between UCI and the engine's convention, lichess's
accuracy, and the sentence saying why a move is bad, on positions whose reason is known (the
engine's lines are written out by hand, as the engine would give them)."""

from __future__ import annotations

import chess
import chess.engine
import pytest

from engine.defs import MATE
from jitfish.review import (BLUNDER_CP, INACCURACY_CP, MISTAKE_CP, Capture, Evaluation, Swing, engine_score,
                            first_look, game_accuracy, material_swing, move_accuracy, needs_second_look, pov_score,
                            reason, rules_evaluation, second_look, win_percent)


def line(board: chess.Board, *sans: str) -> tuple[chess.Move, ...]:
    """SAN moves from `board` as the engine's line."""
    board = board.copy()
    moves = []
    for san in sans:
        moves.append(board.push_san(san))
    return tuple(moves)


def judged(fen: str, played: str, before_score: int, best: tuple[str, ...], after_score: int,
           refutation: tuple[str, ...]) -> tuple[chess.Board, chess.Move, object, Evaluation]:
    """The verdict on `played` in `fen`: the engine gave `before_score` and the line `best` before
    it, and `after_score` (for the side to move there) and `refutation` after it."""
    board = chess.Board(fen)
    move = board.parse_san(played)
    before = Evaluation(before_score, 12, line(board, *best))
    child = board.copy()
    child.push(move)
    after = Evaluation(after_score, 12, line(child, *refutation))
    return board, move, first_look(before, move, after), after


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


def test_a_hanging_piece_is_named_with_the_move_that_takes_it():
    board, move, verdict, after = judged("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1", "Nf5", 230, ("Nb5", "Kd7"),
                                         90, ("exf5", "Kd2"))
    assert verdict.judgement.name == "blunder"
    assert reason(board, move, verdict, after) == "loses the knight on f5 to exf5"
    # A knight lost for a pawn is said as such.
    board, move, verdict, after = judged("rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/3P4/PPP2PPP/RNBQK1NR b KQkq - 0 3",
                                         "Nxe4", -20, ("Nc6", "Nf3"), 180, ("dxe4", "Bc5"))
    assert reason(board, move, verdict, after) == "loses the knight on e4 to dxe4 for a pawn"


def test_mates_allowed_and_missed():
    # 3...Nf6?? of the scholar's mate: 4.Qxf7#.
    board, move, verdict, after = judged("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
                                         "Nf6", -30, ("g6", "Qf3"), MATE - 1, ("Qxf7#",))
    assert verdict.judgement.name == "blunder"
    assert reason(board, move, verdict, after) == "allows mate in 1 (Qxf7#)"
    # 4.d3?? instead of the mate (it hangs the queen too: the mate comes first).
    board, move, verdict, after = judged("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                                         "d3", MATE - 1, ("Qxf7#",), 700, ("Nxh5", "Bxf7+"))
    assert reason(board, move, verdict, after) == "misses mate in 1 with Qxf7#"


def test_material_the_better_move_would_have_won():
    board, move, verdict, after = judged("r3k3/8/8/8/8/8/6B1/4K3 w - - 0 1", "Kd2", 640, ("Bxa8", "Kd7", "Bd5"),
                                         160, ("Ra2+", "Kc3"))
    assert verdict.judgement.name == "blunder"
    assert reason(board, move, verdict, after) == "misses winning a rook with Bxa8"


def test_a_quiet_positional_drop_is_said_as_the_evaluation():
    board, move, verdict, after = judged("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Ke2",
                                         40, ("Nf3", "Nc6", "Bb5"), 90, ("Nf6", "d3", "d5"))
    assert verdict.judgement.name == "mistake"
    assert reason(board, move, verdict, after) == "the evaluation drops from +0.4 to \u22120.9 for White"


def test_stalemate_instead_of_the_win():
    board, move, verdict, after = judged("k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "Qb6", MATE - 5, ("Kf2", "Ka7"),
                                         0, ())
    assert reason(board, move, verdict, after) == "stalemates the king: a draw where Kf2 kept the win"


def test_an_exchange_is_counted_to_its_end():
    """Bxf6 gxf6 trades bishop for knight: no material reason, whatever the order."""
    board = chess.Board("rnbqkb1r/pppppppp/5n2/6B1/3P4/8/PPP1PPPP/RN1QKBNR w KQkq - 2 3")
    trade = material_swing(board, line(board, "Bxf6", "gxf6", "e3", "d5", "Nf3", "c6"), chess.WHITE)
    assert trade.change == 0 and [c.by for c in trade.captures] == ["Bxf6", "gxf6"]
    # A bishop for a bishop and a pawn lost on top: the net loss is the pawn.
    swing = Swing(-100, (Capture(chess.BISHOP, chess.E4, "Bxe4", chess.WHITE),
                         Capture(chess.BISHOP, chess.D3, "Bxd3", chess.BLACK),
                         Capture(chess.PAWN, chess.B2, "Qxb2", chess.WHITE)))
    assert [c.by for c in swing.net(chess.WHITE)] == ["Qxb2"] and swing.net(chess.BLACK) == []


def test_a_line_cut_short_on_a_capture_gets_its_recapture():
    """An engine's line may end on Qxf3 with gxf3 left out: no queen is won there."""
    board = chess.Board("r5k1/5ppp/8/8/8/5Q1q/5PPP/6K1 b - - 0 1")
    assert material_swing(board, line(board, "Qxf3"), chess.BLACK).change == 0
    hanging = chess.Board("r5k1/5ppp/8/8/8/5Q1q/7P/6K1 b - - 0 1")           # nothing recaptures
    assert material_swing(hanging, line(hanging, "Qxf3"), chess.BLACK).change == 900
