"""Time controls end to end: games of the engine against itself through python-chess's
chess.engine with a clock kept the way a GUI keeps it (no move may overstep the time left), and
a sequence of fixed-time moves. python-chess parses every info line; any complaint of its parser
fails the test, and so does any line the driver's checks reject."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import chess
import chess.engine
import pytest

# ruff: noqa: F811 - the fixtures imported here are test parameters of the same name
from tests.uci_driver import ENGINE_COMMAND, READY_TIMEOUT, engine, quiet_machine, uci  # noqa: F401

OPENINGS = [["e2e4", "c7c5"], ["d2d4", "g8f6", "c2c4"], ["g1f3", "d7d5", "g2g3"]]
MAX_PLIES = 300


@dataclass
class Clock:
    """A GUI's chess clock: seconds left per side, the increment, and `moves` per period of `base`
    seconds (repeating) or None for sudden death."""
    base: float
    inc: float = 0.0
    moves: int | None = None
    left: dict[bool, float] = field(default_factory=dict)
    made: dict[bool, int] = field(default_factory=lambda: {chess.WHITE: 0, chess.BLACK: 0})

    def __post_init__(self) -> None:
        self.left = {chess.WHITE: self.base, chess.BLACK: self.base}

    def limit(self, side: bool) -> chess.engine.Limit:
        togo = self.moves - self.made[side] % self.moves if self.moves else None
        return chess.engine.Limit(white_clock=self.left[chess.WHITE], black_clock=self.left[chess.BLACK],
                                  white_inc=self.inc, black_inc=self.inc, remaining_moves=togo)

    def press(self, side: bool, seconds: float) -> None:
        """The side has moved after thinking `seconds`: it must not have lost on time."""
        assert seconds <= self.left[side], f"lost on time: {seconds:.3f} s used, {self.left[side]:.3f} s left"
        self.left[side] += self.inc - seconds
        self.made[side] += 1
        if self.moves and self.made[side] % self.moves == 0:
            self.left[side] += self.base


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


def play_game(player: chess.engine.SimpleEngine, opening: list[str], clock: Clock) -> chess.Board:
    """The engine against itself from `opening` to the end of the game (or MAX_PLIES)."""
    board = chess.Board()
    for move in opening:
        board.push_uci(move)
    game = object()
    lowest = clock.base
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        limit = clock.limit(side)
        start = time.perf_counter()
        result = player.play(board, limit, game=game, info=chess.engine.INFO_ALL)
        spent = time.perf_counter() - start
        reported = result.info.get("time", 0.0)
        assert reported <= clock.left[side], f"the engine reports {reported} s with {clock.left[side]} s left"
        clock.press(side, spent)
        lowest = min(lowest, clock.left[side])
        board.push(result.move)
    print(f"game from {' '.join(opening)}: {board.ply()} plies, {board.result(claim_draw=True)}, "
          f"lowest clock after a move {lowest * 1000:.0f} ms")
    return board


@pytest.mark.parametrize("opening", OPENINGS, ids=lambda moves: moves[0])
def test_fischer_games_without_time_forfeit(quiet_machine, python_chess_engine, opening):
    """1 second + 10 ms a move: a whole game with no move over the time left."""
    board = play_game(python_chess_engine, opening, Clock(base=1.0, inc=0.01))
    assert board.ply() > 20


def test_moves_per_period_game_without_time_forfeit(quiet_machine, python_chess_engine):
    """10 moves in 1 second, repeating: `movestogo` counts down to the last move of each period."""
    clock = Clock(base=1.0, moves=10)
    play_game(python_chess_engine, OPENINGS[0], clock)
    assert min(clock.made.values()) >= 10


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
    """The README's recipe: analyse with a time limit, then play a move."""
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3")
    info = python_chess_engine.analyse(board, chess.engine.Limit(time=0.2))
    assert info["score"].white().mate() == 1 and info["pv"][0] == chess.Move.from_uci("f3f7")
    result = python_chess_engine.play(board, chess.engine.Limit(time=0.1))
    assert result.move == chess.Move.from_uci("f3f7")
