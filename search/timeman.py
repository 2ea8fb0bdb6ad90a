"""Time management: how long to think, from the UCI `go` limits and the Move Overhead option.

The soft limit decides whether to start another iteration (the driver stretches it when the
best move is unstable, the score drops or the best move took a small share of the nodes); the
hard limit stops the search outright and is enforced by a timer. Both leave the Move Overhead
and a safety margin on the clock. Both count from the `go`, also for `go ponder`: after the
ponderhit the time spent pondering is the move's own (Stockfish's convention; docs/uci.md), so a
long ponder means an immediate move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.defs import WHITE

HORIZON = 50                 # moves the clock is shared over when `movestogo` is not given
PONDER_BONUS = 1.25          # the soft limit with the Ponder option on (Stockfish's optimumTime / 4 more)
LOW_CLOCK_OVERHEADS = 10     # below this many Move Overheads on the clock (at least LOW_CLOCK_MIN_MS)
LOW_CLOCK_MIN_MS = 100       # a move with an increment spends less than the increment


@dataclass
class Limits:
    """What `go` asked for (times in milliseconds)."""
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    movetime: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)

    def uses_clock(self) -> bool:
        return self.wtime is not None or self.btime is not None


@dataclass
class Budget:
    """Milliseconds from the start of thinking; None means no limit."""
    soft: float | None
    hard: float | None


def node_share_factor(share: float) -> float:
    """How much to stretch the soft limit when the best move took `share` (0..1) of the last
    iteration's nodes: 0.675 when it took all (the alternatives were refuted at once), 1.35 at
    half, up to 2.0 when nearly none."""
    return (1.5 - min(max(share, 0.0), 1.0)) * 1.35


def plan(limits: Limits, side: int, overhead_ms: int, game_ply: int = 0, ponder: bool = False) -> Budget:
    """The soft and hard time limits for one move, `game_ply` half-moves into the game; `ponder`:
    the Ponder option is on.

    The time is shared over a horizon of HORIZON moves (or `movestogo`), counting the increments
    still to come, and the share grows with the game ply: the moves that decide a game come early,
    and Stockfish at 10+0.1 spends about 0.5 s a move in its first ten where a flat share of the
    clock spent 0.3 s and finished games with a third of the clock unused.

    With Ponder on the soft limit is a quarter longer, the hard one unchanged (as Stockfish does):
    a ponder hit counts the time spent pondering as the move's own and leaves the clock untouched,
    and the bonus spends that saving on the other moves.
    """
    if limits.movetime is not None:     # "search exactly x mseconds": no soft limit to stop earlier
        return Budget(None, max(1.0, limits.movetime - overhead_ms))
    clock = limits.wtime if side == WHITE else limits.btime
    increment = limits.winc if side == WHITE else limits.binc
    if clock is None and limits.uses_clock():
        # Only the opponent's clock was sent (a GUI bug): thinking without limit would hang the
        # game, so assume both clocks show the same.
        clock = limits.btime if side == WHITE else limits.wtime
        increment = limits.binc if side == WHITE else limits.winc
    if clock is None:
        return Budget(None, None)
    moves_to_go = min(limits.movestogo, HORIZON) if limits.movestogo else HORIZON
    game_ply = max(game_ply, 0)        # a FEN may say move 0
    # What we may spend without touching the reserve kept for the overhead of future moves.
    available = max(1.0, clock - overhead_ms - min(clock * 0.05, 50 + overhead_ms))
    # The clock over the horizon: the increments still to come, less each move's overhead.
    time_left = max(1.0, available + increment * (moves_to_go - 1) - overhead_ms * (moves_to_go + 2))
    if limits.movestogo:
        # A period is planned afresh at every move: about 0.6-0.75 of an even share, since the
        # last iteration overruns the soft limit by about half on average.
        share = min(0.6 + game_ply / 400, 0.75) / moves_to_go
        hard_scale = min(6.3, 1.5 + 0.11 * moves_to_go)
    else:
        # Stockfish 15.1's curve (timeman.cpp): 1.8% of the horizon's clock at the first move,
        # 3.3% at move 20, 4.3% at move 50.
        share = 0.012 + (game_ply + 3) ** 0.45 * 0.0039
        hard_scale = min(7.0, 4.0 + game_ply / 12)
    last_move_of_period = moves_to_go == 1
    soft = min(share * time_left, available * (0.5 if last_move_of_period else 0.2))
    hard = min(soft * hard_scale, available * (0.75 if last_move_of_period else 0.5))
    hard = max(hard, soft, 1.0)
    if ponder:
        soft = min(soft * PONDER_BONUS, hard)
    if increment > 0 and clock < max(LOW_CLOCK_OVERHEADS * overhead_ms, LOW_CLOCK_MIN_MS):
        # Low on the clock: think for at most half the increment, so the clock grows back by the
        # other half (less the latency) instead of draining to where one slow reply (a busy
        # machine, a garbage collection) loses on time.
        soft = max(1.0, min(soft, increment / 4))
        hard = max(soft, min(hard, increment / 2))
    return Budget(soft, hard)
