"""Pins the `jitfish bench` node signature: the total node count of the search benchmark, which
changes with any change to what the search or the evaluation does and with nothing else."""

from jitfish.bench import BENCH_DEPTH, BENCH_POSITIONS, search_bench

# Update in the same commit as the change that moves it, and state it in the commit message as
# "Bench: N" (docs/performance.md).
BENCH_SIGNATURE = 748622


def test_bench_node_signature():
    """The default benchmark (every position to BENCH_DEPTH from a cleared table, one thread)."""
    lines: list[str] = []
    nodes, _ = search_bench(out=lines.append)
    assert len(lines) == len(BENCH_POSITIONS) + 4          # one line per position, then the totals
    assert nodes == BENCH_SIGNATURE, (
        f"`jitfish bench` (depth {BENCH_DEPTH}) now searches {nodes} nodes, not {BENCH_SIGNATURE}. "
        f"If the search or evaluation was meant to change, set BENCH_SIGNATURE in tests/test_bench.py "
        f"to {nodes} in the same commit and state \"Bench: {nodes}\" in its commit message; "
        f"otherwise the change altered what the engine does by accident.")
