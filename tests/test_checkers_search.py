"""The checkers search (checkers/search.py, checkers/driver.py, checkers/eval.py, checkers/levels.py):
forced wins found and checked by an independent brute-force solver, two kings beating one,
jumps resolved before a position is judged, the draw rules inside the search, determinism, the
time and node limits, and the levels."""

from __future__ import annotations

import random
import threading
import time

import numpy as np
import pytest

from checkers.board import Board
from checkers.defs import POS_QUIET
from checkers.driver import Limits, Searcher, plan
from checkers.eval import EVAL_TABLES, evaluate
from checkers.levels import LEVELS, MAX_LEVEL, apply_level
from checkers.search import WIN_BOUND
from tests.helpers import seed


# ---- an independent solver: plain minimax on the Board, no evaluation -----------------------

def wins_within(board: Board, plies: int) -> bool:
    """The side to move forces the opponent out of legal moves within `plies` plies."""
    if plies <= 0:
        return False
    for move in board.legal_moves():
        board.push(move)
        won = loses_within(board, plies - 1)
        board.pop()
        if won:
            return True
    return False


def loses_within(board: Board, plies: int) -> bool:
    """The side to move has no legal move now, or every move loses within `plies` plies."""
    moves = board.legal_moves()
    if not moves:
        return True
    if plies <= 0:
        return False
    for move in moves:
        board.push(move)
        saved = not wins_within(board, plies - 1)
        board.pop()
        if saved:
            return False
    return True


# Positions found by a random search and checked below by the solver: Black to move wins in 7
# plies, with exactly one winning move among 5 or 6 (the others do not win so fast).
SHOTS = [
    "B:W30,K26,K9:B27,14,K29",
    "B:W23,14,9:B1,15,K2",
    "B:W29,K18,28:B19,21,K17",
    "B:WK6,23,17:BK30,10,20",
]


@pytest.mark.parametrize("fen", SHOTS)
def test_the_search_finds_the_only_forced_win(fen):
    board = Board(fen)
    assert wins_within(board, 7) and not wins_within(board, 5)
    winning = []
    for move in board.legal_moves():
        board.push(move)
        if loses_within(board, 6):
            winning.append(move)
        board.pop()
    assert len(winning) == 1 < len(board.legal_moves())
    result = Searcher(1 << 16).run(board, Limits(depth=12))
    assert result.best == winning[0], (board.notation(result.best), board.notation(winning[0]))
    assert result.score > WIN_BOUND


def random_two_kings_against_one(rng: random.Random) -> str:
    """Two kings against one anywhere, the stronger side to move, no jump for either side."""
    while True:
        squares = rng.sample(range(1, 33), 3)
        strong = rng.choice("BW")
        weak = "W" if strong == "B" else "B"
        pieces = f"{strong}K{squares[0]},K{squares[1]}:{weak}K{squares[2]}"
        if any("x" in m for m in Board(f"{strong}:{pieces}").legal_notation()):
            continue
        if any("x" in m for m in Board(f"{weak}:{pieces}").legal_notation()):
            continue
        return f"{strong}:{pieces}"


@pytest.mark.parametrize("game", range(10))
def test_two_kings_beat_one_within_80_plies(game):
    """The engine plays both sides (the defender with the same full search, its best defence):
    the stronger side wins before the 40-move rule, from random positions."""
    rng = random.Random(seed(70, game))
    fen = random_two_kings_against_one(rng)
    board = Board(fen)
    strong = board.turn
    attacker, defender = Searcher(1 << 18), Searcher(1 << 18)
    for _ in range(80):
        if board.outcome() is not None:
            break
        player = attacker if board.turn == strong else defender
        board.push(player.run(board, Limits(nodes=300_000)).best)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == strong, (fen, board.fen(), outcome)


# Black to move; every move gives White a jump that Black cannot answer: a search that judged the
# position after its move without resolving the jump would see no loss.
HORIZON = ["B:W24,20,23:B15,28,16", "B:W21,13,25:B20,17,15", "B:W13,18,24:B9,19,28"]


@pytest.mark.parametrize("fen", HORIZON)
def test_jumps_are_resolved_before_a_position_is_judged(fen):
    board = Board(fen)
    naive = []
    for move in board.legal_moves():
        board.push(move)
        assert any("x" in m for m in board.legal_notation())      # White must jump
        naive.append(-int(evaluate(EVAL_TABLES, board.pos, np.int64(0), np.int64(0))))
        board.pop()
    result = Searcher(1 << 16).run(board, Limits(depth=1))
    assert max(naive) > -40                      # the static view: nothing lost
    assert result.score < -80                    # the search: a man lost


def test_no_stand_pat_while_a_jump_is_pending():
    """A position with a jump to make is never scored statically: depth 1 from a position where
    Black must jump into a recapture sees the recapture."""
    board = Board("B:W18,27,32:B14,1")           # 14x23 forced (32 is taken: no second jump), then 27x18
    assert board.legal_notation() == ["14x23"]
    result = Searcher(1 << 16).run(board, Limits(depth=1))
    board.push(result.best)
    assert board.legal_notation() == ["27x18"]   # White must take back
    static = -int(evaluate(EVAL_TABLES, board.pos, np.int64(0), np.int64(0)))
    assert static > -60                          # two men each after 14x23: even, statically
    assert result.score < -100                   # but the recapture leaves Black a man down


def test_the_forty_move_rule_is_a_draw_in_the_search():
    """Two kings against one is won, but not in the two plies the 40-move rule leaves."""
    fen = "B:BK29,K32:WK1"                       # too far apart for a capture in two plies
    board = Board(fen)
    fresh = Searcher(1 << 16).run(board, Limits(depth=10))
    assert fresh.score > 100
    board.pos[POS_QUIET] = 78
    late = Searcher(1 << 16).run(board, Limits(depth=10))
    assert late.score == 0


def test_a_repetition_is_a_draw_in_the_search():
    """Black, a man down, can step back into a position of the game: the search takes the draw."""
    board = Board("B:WK32,K30,24:BK1")
    alone = Searcher(1 << 16).run(board.copy(), Limits(depth=6))
    assert alone.score < -100
    for text in ("1-6", "32-28", "6-1", "28-32"):
        board.push_notation(text)
    assert board.repetitions() == 1
    again = Searcher(1 << 16).run(board, Limits(depth=6))
    assert again.score == 0 and board.notation(again.best) == "1-6"


def test_the_search_is_deterministic_at_a_fixed_depth():
    board = Board()
    board.push_notation("11-15")
    runs = [Searcher(1 << 18).run(board, Limits(depth=11)) for _ in range(2)]
    first, second = ((r.best, r.score, r.nodes, r.pv) for r in runs)
    assert first == second
    assert board.fen() == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"   # left as it was


def test_limits_nodes_movetime_and_stop():
    board = Board()
    searcher = Searcher(1 << 18)
    result = searcher.run(board, Limits(nodes=20_000))
    assert result.nodes <= 20_000 + 200 and result.best in board.legal_moves()
    start = time.perf_counter()
    result = searcher.run(board, Limits(movetime=150))
    assert 0.1 < time.perf_counter() - start < 1.0 and result.best in board.legal_moves()
    threading.Timer(0.2, searcher.stop).start()
    start = time.perf_counter()
    result = searcher.run(board, Limits(infinite=True))
    assert 0.15 < time.perf_counter() - start < 2.0 and result.best in board.legal_moves()


def test_the_clock_plan_leaves_time_on_the_clock():
    budget = plan(Limits(btime=10_000, wtime=10_000, binc=100), 0)
    assert 100 < budget.soft <= 2_000 and budget.soft <= budget.hard <= 5_000
    tiny = plan(Limits(btime=50, wtime=50), 0)
    assert tiny.hard <= 25
    assert plan(Limits(movetime=300), 1).hard == 295
    assert plan(Limits(depth=3), 1).hard is None


def test_no_legal_move_is_reported_as_lost():
    board = Board("B:W18:B14")
    board.push_notation("14x23")
    result = Searcher(1 << 16).run(board, Limits(depth=3))
    assert result.best == 0 and result.score < -WIN_BOUND


@pytest.mark.parametrize("level", range(1, MAX_LEVEL + 1))
def test_every_level_plays_a_legal_move_and_takes_its_jumps(level):
    board = Board("B:W18,27,32:B14,1,2")
    searcher = Searcher(1 << 16)
    apply_level(searcher, level, random.Random(level))
    result = searcher.run(board, Limits(movetime=200))
    assert board.notation(result.best) == "14x23"
    assert LEVELS[level].noise >= LEVELS[min(level + 1, MAX_LEVEL)].noise
