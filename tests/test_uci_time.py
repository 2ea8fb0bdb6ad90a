"""Time controls end to end: games of the engine against itself through python-chess's
chess.engine with the project's clock (jitfish/clock.py) kept the way a GUI keeps it (no move may
overstep the time left), and a sequence of fixed-time moves. python-chess parses every info line;
any complaint of its parser fails the test, and so does any line the driver's checks reject."""

from __future__ import annotations

import logging
import time

import chess
import chess.engine
import pytest

from jitfish.clock import Clock, TimeControl, engine_limit
# ruff: noqa: F811 - the fixtures imported here are test parameters of the same name
from tests.uci_driver import ENGINE_COMMAND, READY_TIMEOUT, engine, quiet_machine, uci  # noqa: F401

OPENINGS = [["e2e4", "c7c5"], ["d2d4", "g8f6", "c2c4"], ["g1f3", "d7d5", "g2g3"]]
MAX_PLIES = 300


@pytest.fixture
def python_chess_engine(engine, caplog: pytest.LogCaptureFixture):
    """Jitfish through python-chess, ready before any clock runs (`engine` has left every kernel
    compiled in the cache, and the ping waits for it to load)."""
    with chess.engine.SimpleEngine.popen_uci(ENGINE_COMMAND, timeout=READY_TIMEOUT) as player:
        player.ping()
        yield player
    complaints = [r.getMessage() for r in caplog.records
                  if r.name.startswith("chess.engine") and r.levelno >= logging.WARNING]
    assert not complaints


def play_game(player: chess.engine.SimpleEngine, opening: list[str], control: TimeControl) -> chess.Board:
    """The engine against itself from `opening` to the end of the game (or MAX_PLIES), its clock
    running from each `go` to the bestmove."""
    board = chess.Board()
    for move in opening:
        board.push_uci(move)
    game = object()
    clock = Clock(control)
    lowest = control.periods[0].seconds
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        start = time.perf_counter()
        clock.start(side, start)
        left = clock.remaining(side, start)
        result = player.play(board, engine_limit(clock, start), game=game, info=chess.engine.INFO_ALL)
        end = time.perf_counter()
        reported = result.info.get("time", 0.0)
        assert reported <= left, f"the engine reports {reported} s with {left} s left"
        assert clock.flagged(end) is None, f"lost on time: {end - start:.3f} s used, {left:.3f} s left"
        clock.press(side, end)
        lowest = min(lowest, clock.sides[side].remaining)
        board.push(result.move)
    print(f"game from {' '.join(opening)}: {board.ply()} plies, {board.result(claim_draw=True)}, "
          f"lowest clock after a move {lowest * 1000:.0f} ms")
    return board


@pytest.mark.parametrize("opening", OPENINGS, ids=lambda moves: moves[0])
def test_fischer_games_without_time_forfeit(quiet_machine, python_chess_engine, opening):
    """1 second + 10 ms a move: a whole game with no move over the time left."""
    board = play_game(python_chess_engine, opening, TimeControl.parse("1+0.01"))
    assert board.ply() - len(opening) >= 12         # a game, not a few moves (a quick mate may end it early)


def test_moves_per_period_game_without_time_forfeit(quiet_machine, python_chess_engine):
    """10 moves in 1 second, repeating: `movestogo` counts down to the last move of each period."""
    board = play_game(python_chess_engine, OPENINGS[0], TimeControl.parse("10/1"))
    played = board.move_stack[len(OPENINGS[0]):]
    assert len(played) >= 20                        # each side made ten moves: a whole period


def test_movetime_sequence(quiet_machine, uci):
    """`go movetime 50` twenty times along a game: each bestmove within movetime + 60 ms."""
    board = uci.position()
    moves: list[str] = []
    for _ in range(20):
        search = uci.go("movetime 50")
        assert search.seconds < 0.050 + 0.060, f"{search.seconds * 1000:.0f} ms after {moves}"
        moves.append(search.bestmove)
        board.push_uci(search.bestmove)
        if board.is_game_over():
            break
        uci.position(moves=moves)


def test_readme_recipe(python_chess_engine):
    """docs/gui.md's recipe: analyse with a time limit, then play a move."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    info = python_chess_engine.analyse(board, chess.engine.Limit(time=0.2))
    assert info["score"].white().mate() == 1 and info["pv"][0] == chess.Move.from_uci("f3f7")
    result = python_chess_engine.play(board, chess.engine.Limit(time=0.1))
    assert result.move == chess.Move.from_uci("f3f7")
