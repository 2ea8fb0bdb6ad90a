"""tools/matches/clock_use.py reads each player's think times by phase and its clock left."""

from __future__ import annotations

import chess.pgn

from tests.helpers import commented_game
from tools.matches import clock_use


def game(white_ms: list[int], black_ms: list[int]) -> chess.pgn.Game:
    """A 10+0.1 game of a (White) against b, with the think times tools.matches.match writes."""
    comments = [f"+0.10/12 {ms / 1000:.3f}s" for pair in zip(white_ms, black_ms) for ms in pair]
    return commented_game({"White": "a", "Black": "b", "TimeControl": "10+0.1"}, comments)


def test_think_times_and_time_controls_are_parsed():
    assert clock_use.think_seconds("+M16/13 0.148s") == 0.148
    assert clock_use.think_seconds("book") is None
    assert clock_use.time_control("10+0.1") == (10.0, 0.1)
    assert clock_use.time_control("40/60") is None


def test_think_times_go_to_their_own_move_buckets_and_the_clock_is_balanced():
    usage = {}
    clock_use.add_game(game([500] * 10 + [100] * 15, [200] * 25), usage)
    a, b = usage["a"], usage["b"]
    assert [round(a.mean_ms(k)) for k in range(3)] == [500, 100, 100] and a.mean_ms(3) is None
    assert round(b.mean_ms(0)) == 200 and len(b.by_bucket[2]) == 5
    # 10 s + 25 increments of 0.1 s, less 10 x 0.5 + 15 x 0.1 (a) and 25 x 0.2 (b).
    assert abs(a.clock_left[0] - 6.0) < 1e-9 and abs(b.clock_left[0] - 7.5) < 1e-9


def test_moves_from_41_on_share_the_last_bucket():
    usage = {}
    clock_use.add_game(game([100] * 60, [100] * 60), usage)
    assert len(usage["a"].by_bucket[-1]) == 20
