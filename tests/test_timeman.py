"""Time budgets from `go` limits (the end-to-end clock games are in test_uci_time.py)."""

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
