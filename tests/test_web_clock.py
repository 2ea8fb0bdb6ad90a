"""The clock rules of `jitfish web` (jitfish/web/clock.py), with made-up times: every kind
of time control, period changes with carry-over, the flag, FIDE 6.9 and the robot's go times."""

from __future__ import annotations

import math

import chess
import pytest

from jitfish.web.clock import (PRESETS, Clock, ClockError, Period, TimeControl, engine_times,
                                       flag_result)

W, B = chess.WHITE, chess.BLACK


def started(control: TimeControl, at: float = 0.0) -> Clock:
    clock = Clock(control)
    clock.start(W, at)
    return clock


def test_presets_are_the_kinds_players_know():
    assert PRESETS["none"].kind() == "none" and not PRESETS["none"].timed
    assert PRESETS["1+0"].kind() == "sudden" and PRESETS["5+0"].kind() == "sudden"
    assert PRESETS["3+2"].kind() == "fischer" and PRESETS["15+10"].kind() == "fischer"
    classical = PRESETS["40/90+30/30"]
    assert classical.kind() == "moves"
    assert classical.periods == (Period(5400, 40, 0), Period(1800, None, 30))
    assert classical.describe() == "40 moves in 90 min, then 30 min + 30 s"
    assert TimeControl("bronstein", (Period(300, None, 3),)).kind() == "bronstein"
    assert TimeControl("delay", (Period(300, None, 5),)).kind() == "delay"


def test_sudden_death_runs_down_and_flags():
    clock = started(PRESETS["1+0"])
    assert clock.remaining(W, 20.0) == pytest.approx(40.0)
    assert clock.remaining(B, 20.0) == 60.0                 # not running
    assert clock.flag_at() == pytest.approx(60.0)
    assert clock.flagged(59.9) is None
    assert clock.flagged(60.0) == W
    used = clock.press(W, 30.0)
    assert used == pytest.approx(30.0) and clock.sides[W].remaining == pytest.approx(30.0)
    assert clock.running == B and clock.flag_at() == pytest.approx(90.0)


def test_fischer_adds_the_increment_after_each_move():
    clock = started(PRESETS["3+2"])
    clock.press(W, 5.0)
    assert clock.sides[W].remaining == pytest.approx(177.0)
    clock.press(B, 6.0)                                       # black used 1 s
    assert clock.sides[B].remaining == pytest.approx(181.0)
    assert clock.increment(W) == 2.0


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    clock = started(TimeControl("bronstein", (Period(60, None, 3),)))
    clock.press(W, 1.0)                                       # 1 s used, 1 s back
    assert clock.sides[W].remaining == pytest.approx(60.0)
    clock.press(B, 6.0)                                       # 5 s used, 3 s back
    assert clock.sides[B].remaining == pytest.approx(58.0)
    assert clock.remaining(W, 8.0) == pytest.approx(58.0)   # Bronstein counts down at once


def test_simple_delay_waits_before_the_clock_runs():
    clock = started(TimeControl("delay", (Period(60, None, 5),)))
    assert clock.remaining(W, 4.0) == pytest.approx(60.0)
    assert clock.delay_left(W, 4.0) == pytest.approx(1.0)
    assert clock.remaining(W, 7.0) == pytest.approx(58.0)
    assert clock.flag_at() == pytest.approx(65.0)
    assert clock.flagged(64.9) is None and clock.flagged(65.0) == W
    clock.press(W, 3.0)                                       # inside the delay: nothing charged
    assert clock.sides[W].remaining == pytest.approx(60.0)
    clock.press(B, 11.0)                                      # 8 s: 3 beyond the delay
    assert clock.sides[B].remaining == pytest.approx(57.0)


def test_delay_only_control_is_playable():
    control = TimeControl.from_spec({"mode": "delay", "periods": [{"minutes": 0, "increment": 5}]})
    clock = started(control)
    assert clock.flagged(4.9) is None and clock.flagged(5.0) == W
    with pytest.raises(ClockError):
        TimeControl.from_spec({"mode": "fischer", "periods": [{"minutes": 0, "increment": 5}]})


def test_moves_in_period_carry_over_into_the_next():
    clock = Clock(PRESETS["40/90+30/30"])
    now = 0.0
    clock.start(W, now)
    for move in range(40):
        assert clock.moves_to_go(W) == 40 - move
        now += 60.0                                            # white: 60 s a move
        clock.press(W, now)
        now += 1.0
        clock.press(B, now)
    # 40 moves used 2400 s of 5400: 3000 carried over plus the 1800 of the second period.
    assert clock.sides[W].period == 1 and clock.sides[W].remaining == pytest.approx(3000 + 1800)
    assert clock.sides[B].remaining == pytest.approx(5400 - 40 + 1800)
    assert clock.moves_to_go(W) is None and clock.increment(W) == 30
    now += 10.0
    clock.press(W, now)                                        # the second period's increment counts
    assert clock.sides[W].remaining == pytest.approx(4800 - 10 + 30)
    assert clock.sides[W].period == 1


def test_last_period_with_a_move_count_repeats():
    clock = started(TimeControl("fischer", (Period(20, 2),)))
    now = 0.0
    for _ in range(3):
        now += 5.0
        clock.press(W, now)
        clock.press(B, now)
    # after moves 2 the period restarted (+20 s); move 3 is the first of the new period
    assert clock.sides[W].remaining == pytest.approx(20 - 15 + 20)
    assert clock.moves_to_go(W) == 1 and clock.sides[W].period == 0


def test_a_move_of_the_wrong_side_is_refused():
    clock = started(PRESETS["5+0"])
    with pytest.raises(ClockError):
        clock.press(B, 1.0)


def test_stop_keeps_the_time_used_and_never_goes_negative():
    clock = started(PRESETS["1+0"])
    clock.stop(75.0)
    assert clock.running is None and clock.sides[W].remaining == 0.0
    assert clock.flag_at() is None and clock.flagged(100.0) is None


def test_state_and_restore_for_take_backs():
    clock = started(PRESETS["3+2"])
    saved = clock.state()
    clock.press(W, 10.0)
    clock.press(B, 20.0)
    clock.restore(saved, W, 30.0)
    assert clock.sides[W].remaining == 180.0 and clock.running == W
    assert clock.remaining(W, 31.0) == pytest.approx(179.0)


def test_snapshot_for_the_page():
    clock = started(TimeControl("delay", (Period(300, None, 5),)))
    shot = clock.snapshot(2.0)
    assert shot == {"white": 300000, "black": 300000, "running": "white", "delay": 3000,
                    "moves_to_go": {"white": None, "black": None}}


@pytest.mark.parametrize("spec, message", [
    (None, "object"),
    ({"mode": "hourglass"}, "unknown clock mode"),
    ({"mode": "fischer"}, "periods"),
    ({"mode": "fischer", "periods": []}, "periods"),
    ({"mode": "fischer", "periods": [{"minutes": 1}] * 4}, "periods"),
    ({"mode": "fischer", "periods": [{"minutes": -5}]}, "between"),
    ({"mode": "fischer", "periods": [{"minutes": 1e9}]}, "between"),
    ({"mode": "fischer", "periods": [{"minutes": math.nan}]}, "number"),
    ({"mode": "fischer", "periods": [{"minutes": math.inf}]}, "number"),
    ({"mode": "fischer", "periods": [{"minutes": "5"}]}, "number"),
    ({"mode": "fischer", "periods": [{"minutes": True}]}, "number"),
    ({"mode": "fischer", "periods": [{"minutes": 5, "increment": 10_000}]}, "between"),
    ({"mode": "fischer", "periods": [{"minutes": 5, "moves": 0}]}, "moves"),
    ({"mode": "fischer", "periods": [{"minutes": 5, "moves": 2.5}]}, "moves"),
    ({"mode": "fischer", "periods": [{"minutes": 5}, {"minutes": 5}]}, "last period"),
    ({"mode": "fischer", "periods": [{"minutes": 5, "moves": 40}, {"minutes": 0}]}, "some time"),
    ({"mode": "fischer", "periods": ["5"]}, "object"),
])
def test_absurd_time_controls_are_refused(spec, message):
    with pytest.raises(ClockError, match=message):
        TimeControl.from_spec(spec)


def test_spec_round_trip_and_pgn_tags():
    for control in PRESETS.values():
        assert TimeControl.from_spec(control.to_spec()) == control
    assert PRESETS["none"].pgn_tag() == "-"
    assert PRESETS["3+2"].pgn_tag() == "180+2"
    assert PRESETS["5+0"].pgn_tag() == "300"
    assert PRESETS["40/90+30/30"].pgn_tag() == "40/5400:1800+30"
    bronstein = TimeControl("bronstein", (Period(300, None, 3),))
    assert bronstein.pgn_tag() == "300" and bronstein.pgn_delay_tag() == "Bronstein 3"
    assert PRESETS["3+2"].pgn_delay_tag() is None


def test_engine_times_leave_a_reserve_and_count_delays_as_increments():
    clock = started(PRESETS["3+2"])
    clock.press(W, 10.0)                                       # white 172 s, black to move
    times = engine_times(clock, 14.0, reserve=0.5)            # black has used 4 s
    assert times == {"wtime": 172000, "btime": 175500, "winc": 2000, "binc": 2000, "movestogo": None}
    classical = started(PRESETS["40/90+30/30"])
    assert engine_times(classical, 0.0, 0.0)["movestogo"] == 40
    delay = started(TimeControl("delay", (Period(60, None, 5),)))
    times = engine_times(delay, 2.0, reserve=0.2)
    assert times["wtime"] == 60000 + 3000 - 200 and times["winc"] == 5000
    nearly_out = started(PRESETS["1+0"])
    assert engine_times(nearly_out, 59.95, reserve=0.2)["wtime"] == 10      # never zero or negative


def test_flag_loses_unless_the_opponent_cannot_mate():
    # FIDE 6.9: a lone king, or king and knight against a bare king, cannot mate: a draw.
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3QK3/8 w - - 0 1"), W)[0] == "1/2-1/2"   # bare king
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3QK3/8 b - - 0 1"), B)[0] == "1-0"       # the queen mates
    result, reason = flag_result(chess.Board("8/8/8/4k3/8/8/4K3/6n1 w - - 0 1"), W)
    assert result == "1/2-1/2" and "cannot checkmate" in reason
    # A knight can mate when the other side has a pawn to block its own king: a loss.
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3PK3/6n1 w - - 0 1"), W)[0] == "0-1"
    assert flag_result(chess.Board(), B) == ("1-0", "Black ran out of time: White wins")
