"""Time budgets from `go` limits (the end-to-end clock games are in test_uci_time.py)."""

from engine.defs import BLACK, WHITE
from search.timeman import Limits, plan


def test_budget_uses_the_side_to_moves_clock():
    limits = Limits(wtime=60000, btime=6000)
    assert plan(limits, WHITE, 20).hard > plan(limits, BLACK, 20).hard


def test_a_missing_own_clock_borrows_the_opponents_instead_of_thinking_forever():
    only_white = plan(Limits(wtime=10000, winc=100), BLACK, 20)
    assert only_white.soft is not None and only_white.hard <= 5000
    assert only_white == plan(Limits(btime=10000, binc=100), BLACK, 20)


def test_no_clock_means_no_time_limit():
    assert plan(Limits(depth=5), WHITE, 20).hard is None
