"""Time budgets from `go` limits (the end-to-end clock games are in test_uci_time.py)."""

import pytest

from engine.defs import BLACK, WHITE
from search.timeman import Limits, node_share_factor, plan


def test_budget_uses_the_side_to_moves_clock():
    limits = Limits(wtime=60000, btime=6000)
    assert plan(limits, WHITE, 20).hard > plan(limits, BLACK, 20).hard


def test_a_missing_own_clock_borrows_the_opponents_instead_of_thinking_forever():
    only_white = plan(Limits(wtime=10000, winc=100), BLACK, 20)
    assert only_white.soft is not None and only_white.hard <= 5000
    assert only_white == plan(Limits(btime=10000, binc=100), BLACK, 20)


def test_no_clock_means_no_time_limit():
    assert plan(Limits(depth=5), WHITE, 20).hard is None


def test_bullet_clock_keeps_a_reserve_for_a_slow_reply():
    """1+0.01, an engine that always thinks to its hard limit and loses 4 ms more per move to
    latency: the clock settles above 100 ms instead of draining to zero, so a reply delayed by
    80 ms (a busy machine) every hundred moves does not lose on time."""
    clock, lowest = 1000.0, 1000.0
    for move in range(300):
        budget = plan(Limits(wtime=int(clock), btime=int(clock), winc=10, binc=10), WHITE, 20)
        spent = budget.hard + 4 + (80 if move % 100 == 99 else 0)
        assert spent < clock, f"flagged at move {move + 1} with {clock:.0f} ms"
        clock += 10 - spent
        lowest = min(lowest, clock) if move > 100 else lowest
    assert lowest > 50


def test_low_clock_rule_leaves_slower_controls_alone():
    """The reserve rule only acts on a clock below ten Move Overheads (100 ms at least)."""
    assert plan(Limits(wtime=5000, btime=5000, winc=100, binc=100), WHITE, 20).soft > 100
    assert plan(Limits(wtime=150, btime=150, winc=100, binc=100), WHITE, 10).hard > 50
    assert plan(Limits(wtime=150, btime=150, winc=100, binc=100), WHITE, 20).hard <= 50


def test_node_share_stretches_thinking_when_the_best_move_took_few_nodes():
    assert node_share_factor(1.0) < 1.0 < node_share_factor(0.5) < node_share_factor(0.1)
    assert node_share_factor(-1.0) == node_share_factor(0.0)
    assert node_share_factor(2.0) == node_share_factor(1.0)


def test_the_share_of_the_clock_grows_with_the_game_ply():
    """The same clock buys more thought at move 20 than at move 1 (the horizon's future
    increments are the same), and a `movestogo` period front-loads the same way."""
    sudden = Limits(wtime=8000, btime=8000, winc=100, binc=100)
    assert plan(sudden, WHITE, 20, 40).soft > 1.5 * plan(sudden, WHITE, 20, 0).soft
    period = Limits(wtime=60000, btime=60000, movestogo=20)
    assert plan(period, WHITE, 20, 60).soft > plan(period, WHITE, 20, 0).soft


def _play_out(limits_for, moves: int, spend) -> list[float]:
    """The clock before each of `moves` moves when every move costs spend(budget)."""
    clock, clocks = None, []
    for move in range(moves):
        limits, clock = limits_for(move, clock)
        clocks.append(clock)
        clock -= spend(plan(limits, WHITE, 20, 2 * move))
        assert clock > 0, f"flagged at move {move + 1}"
    return clocks


def test_increment_clock_front_loads_and_never_flags():
    """10+0.1, thinking 1.5 times the soft limit (a typical overrun of the last iteration) but
    never past the hard one: the first ten moves get more than the moves after 40, and the clock
    settles above 150 ms in a 150-move game instead of flagging."""
    spent = []

    def limits_for(move, clock):
        clock = 10000.0 if clock is None else clock + 100
        return Limits(wtime=int(clock), btime=int(clock), winc=100, binc=100), clock

    def spend(budget):
        spent.append(min(1.5 * budget.soft, budget.hard) + 4)
        return spent[-1]

    clocks = _play_out(limits_for, 150, spend)
    assert sum(spent[:10]) / 10 > 2 * sum(spent[40:50]) / 10
    assert sum(spent[:10]) / 10 > 350
    assert min(clocks[60:]) > 150


def test_moves_to_go_spends_the_period_without_flagging():
    """40 moves in 60 s with carry-over: thinking 1.5 times the soft limit, each period's last
    move still starts with more than a second; thinking to the hard limit every move, no flag."""
    def limits_for(move, clock):
        if clock is None:
            clock = 60000.0
        elif move % 40 == 0:
            clock += 60000
        to_go = 40 - move % 40
        return Limits(wtime=int(clock), btime=int(clock), movestogo=to_go), clock

    clocks = _play_out(limits_for, 120, lambda budget: min(1.5 * budget.soft, budget.hard) + 4)
    assert min(clocks[39::40]) > 1000
    _play_out(limits_for, 120, lambda budget: budget.hard + 4)


def test_any_move_number_gives_a_budget_inside_the_clock():
    """A FEN's move number can be 0 or in the thousands: the budget stays real and on the clock."""
    limits = Limits(wtime=10000, btime=10000, winc=100, binc=100)
    for game_ply in (-2, 0, 5000):
        budget = plan(limits, WHITE, 20, game_ply)
        assert 0 < budget.soft <= budget.hard <= 5000


def test_ponder_option_lengthens_the_soft_limit_only():
    """Stockfish's convention: with Ponder on, a quarter more soft time (a ponder hit counts the
    pondering as the move's own time and leaves the clock untouched), the same hard limit."""
    limits = Limits(wtime=60000, btime=60000, winc=1000, binc=1000)
    base, pondering = plan(limits, WHITE, 20, 20), plan(limits, WHITE, 20, 20, ponder=True)
    assert pondering.soft == pytest.approx(1.25 * base.soft) and pondering.hard == base.hard
