"""The one chess clock (jitfish/clock.py), with made-up times: every kind of time control and its
text, period changes with carry-over, the flag, FIDE 6.9 and what an engine is told."""

from __future__ import annotations

import math

import chess
import pytest

from jitfish.clock import (PRESETS, Clock, ClockError, Period, TimeControl, engine_limit, engine_times,
                           flag_result)

W, B = chess.WHITE, chess.BLACK


def started(control: TimeControl, at: float = 0.0) -> Clock:
    clock = Clock(control)
    clock.start(W, at)
    return clock


def fischer(base: float, moves: int | None = None, increment: float = 0.0) -> TimeControl:
    return TimeControl("fischer", (Period(base, moves, increment),))


def test_time_control_text():
    """The command line's controls (the match tools' --tc): base[+inc], minutes:seconds, moves/base."""
    assert TimeControl.parse("10+0.1") == fischer(10.0, None, 0.1)
    assert TimeControl.parse("40/20") == fischer(20.0, 40)
    assert TimeControl.parse("40/20+0.5") == fischer(20.0, 40, 0.5)
    assert TimeControl.parse("1:30+1") == fischer(90.0, None, 1.0)
    assert TimeControl.parse(" 60 ") == PRESETS["1+0"]
    assert TimeControl.parse("10+0.1").pgn_tag() == "10+0.1" and TimeControl.parse("40/20").pgn_tag() == "40/20"
    assert TimeControl.parse("1:30+1").pgn_tag() == "90+1" and TimeControl.parse("0.2+0").pgn_tag() == "0.2"
    assert TimeControl.parse("40/20").kind() == "moves" and TimeControl.parse("5+0").kind() == "sudden"
    for bad in ("ten minutes", "0+1", "0/20", "10+", "+1", "40/", "1:30:10"):
        with pytest.raises(ClockError):
            TimeControl.parse(bad)
    with pytest.raises(ValueError, match="expected e.g. 10"):        # a ValueError for the command lines
        TimeControl.parse("5m")


def test_presets_are_the_kinds_players_know():
    assert PRESETS["none"].kind() == "none" and not PRESETS["none"].timed
    assert PRESETS["1+0"].kind() == "sudden" and PRESETS["5+0"].kind() == "sudden"
    assert PRESETS["3+2"].kind() == "fischer" and PRESETS["15+10"].kind() == "fischer"
    classical = PRESETS["40/90+30/30"]
    assert classical.kind() == "moves"
    assert classical.periods == (Period(5400, 40, 0), Period(1800, None, 30))
    assert str(classical.describe()) == "40 moves in 90 min, then 30 min + 30 s"
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


def test_the_flag_falls_whatever_the_increment_would_add():
    """A move that used more than the time left loses even though the increment would cover it:
    the flag is read before the press."""
    clock = started(TimeControl.parse("10+0.1"))
    assert clock.press(W, 1.0) == pytest.approx(1.0)
    assert clock.sides[W].remaining == pytest.approx(9.1) and clock.moves_to_go(W) is None
    clock.press(B, 1.0)
    assert clock.flagged(1.0 + 9.1) == W and clock.flag_at() == pytest.approx(10.1)
    assert clock.flagged(10.0) is None


def test_moves_per_period_text_repeats_with_carry_over():
    """'40/20': movestogo counts down to 1, then a new period adds 20 s to what is left."""
    clock = started(TimeControl.parse("40/20"))
    assert clock.moves_to_go(W) == 40
    now = 0.0
    for _ in range(39):
        now += 0.1
        clock.press(W, now)
        clock.press(B, now)
    assert clock.moves_to_go(W) == 1 and clock.sides[W].remaining == pytest.approx(20 - 3.9)
    now += 0.1
    clock.press(W, now)
    assert clock.moves_to_go(W) == 40                          # a new period
    assert clock.sides[W].remaining == pytest.approx(16.0 + 20.0)   # unused time carries over


def test_a_match_runner_charges_only_the_thinking_time():
    """Started at each `go` and pressed at `bestmove`: the time between moves is not charged."""
    clock = Clock(TimeControl.parse("10+0"))
    clock.start(W, 100.0)
    clock.press(W, 101.0)
    clock.start(B, 250.0)                                      # the runner's own work in between
    clock.press(B, 252.0)
    clock.start(W, 400.0)
    assert clock.remaining(W, 400.5) == pytest.approx(8.5) and clock.sides[B].remaining == pytest.approx(8.0)


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
    ({"mode": "fischer", "periods": [{"minutes": 0.001}]}, r"at least 0\.25 \(15 seconds\)"),
    ({"mode": "fischer", "periods": [{"minutes": 5, "moves": 40}, {"minutes": 0.2}]}, "at least 0.25"),
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


def test_engine_times_leave_a_reserve_and_tell_delays_as_sudden_death():
    clock = started(PRESETS["3+2"])
    clock.press(W, 10.0)                                       # white 172 s, black to move
    times = engine_times(clock, 14.0, reserve=0.5)            # black has used 4 s
    assert times == {"wtime": 172000, "btime": 175500, "winc": 2000, "binc": 2000, "movestogo": None}
    classical = started(PRESETS["40/90+30/30"])
    assert engine_times(classical, 0.0, 0.0)["movestogo"] == 40
    delay = started(TimeControl("delay", (Period(60, None, 5),)))
    times = engine_times(delay, 2.0, reserve=0.2)
    assert times["wtime"] == 60000 + 3000 - 200 and times["winc"] == times["binc"] == 0
    bronstein = started(TimeControl("bronstein", (Period(60, None, 5),)))
    times = engine_times(bronstein, 2.0, reserve=0.2)
    assert times["wtime"] == 60000 - 2000 - 200 and times["winc"] == 0     # its flag falls at 0
    nearly_out = started(PRESETS["1+0"])
    assert engine_times(nearly_out, 59.95, reserve=0.2)["wtime"] == 10      # never zero or negative


def test_engine_limit_is_the_same_times_for_python_chess():
    clock = started(TimeControl.parse("40/20+0.5"))
    clock.press(W, 3.0)                                        # white 17.5 s, black to move
    limit = engine_limit(clock, 4.0)
    assert (limit.white_clock, limit.black_clock) == (pytest.approx(17.5), pytest.approx(19.0))
    assert (limit.white_inc, limit.black_inc, limit.remaining_moves) == (0.5, 0.5, 40)
    assert limit.time is None and limit.nodes is None


def test_flag_loses_unless_the_opponent_cannot_mate():
    # FIDE 6.9: a lone king, or king and knight against a bare king, cannot mate: a draw.
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3QK3/8 w - - 0 1"), W)[0] == "1/2-1/2"   # bare king
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3QK3/8 b - - 0 1"), B)[0] == "1-0"       # the queen mates
    result, reason = flag_result(chess.Board("8/8/8/4k3/8/8/4K3/6n1 w - - 0 1"), W)
    assert result == "1/2-1/2" and "cannot checkmate" in str(reason)
    # A knight can mate when the other side has a pawn to block its own king: a loss.
    assert flag_result(chess.Board("8/8/8/4k3/8/8/3PK3/6n1 w - - 0 1"), W)[0] == "0-1"
    assert [str(part) for part in flag_result(chess.Board(), B)] == ["1-0", "Black ran out of time: White wins"]


def _engine_game(control: TimeControl, plies: int = 160, opponent_seconds: float = 1.5,
                 overrun: float = 1.3) -> list[float]:
    """White's main time after each of its moves when it spends what the time manager plans for
    the times `engine_times` tells it (its soft limit, overrun by `overrun` as the last iteration
    does on average, capped by the hard limit, plus 0.1 s of latency) against an opponent who
    takes `opponent_seconds` a move. Fails if White's flag falls."""
    from search.timeman import Limits, plan

    clock, now, left = Clock(control), 0.0, []
    clock.start(W, now)
    for ply in range(plies):
        if ply % 2 == 0:
            told = engine_times(clock, now, reserve=0.2)
            budget = plan(Limits(wtime=told["wtime"], btime=told["btime"], winc=told["winc"], binc=told["binc"],
                                 movestogo=told["movestogo"]), 0, 50, ply)
            now += min(budget.soft * overrun, budget.hard) / 1000 + 0.1
            assert clock.flagged(now) is None, f"White flagged at move {ply // 2 + 1}"
            clock.press(W, now)
            left.append(clock.sides[W].remaining)
        else:
            now += opponent_seconds
            clock.press(chess.BLACK, now)
    return left


def test_full_strength_keeps_its_time_on_a_delay_clock():
    """Issue 72: on a simple-delay clock full strength spent its clock as in a Fischer game (3 min
    + 2 s delay: 0:20 left at move 31), as if the delay were time it got back every move. A delay
    never makes the main time grow, so it is planned as sudden death: more than a third of the
    main time is left at move 31, and the clock never falls in a long game, at 3 min and 1 min."""
    for mode in ("delay", "bronstein"):
        left = _engine_game(TimeControl(mode, (Period(180, None, 2),)))
        assert left[30] > 60, (mode, round(left[30], 1))
        left = _engine_game(TimeControl(mode, (Period(60, None, 2),)))
        assert left[30] > 20 and min(left) > 5, (mode, round(left[30], 1), round(min(left), 1))
    # A Fischer increment is time in hand: the same clock with +2 s is spent further down, as
    # Stockfish's curve does, and still never falls.
    left = _engine_game(TimeControl("fischer", (Period(180, None, 2),)))
    assert min(left) > 2 and left[30] < 40
