"""Every number a user gives Jitfish, with its range: one definition each, read by the UCI options,
`go`, `go perft` and `bench` (jitfish.uci) and the command line (jitfish.cli). Each applies it its
own way: a UCI option refuses a value outside, `go` clamps it (a `go` is always answered), the
command line refuses it with one error line.

Hash and Threads advertise the ranges engines publish (Stockfish: up to 33554432 and 1024), so
that a configuration written for another machine or engine is never refused; what a run really
uses is clamped to the memory and cores there are (jitfish.options.usable_hash_mb and
usable_threads). Free of numba imports: `uci` is answered before the heavy initialisation.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.defs import MAX_PLY
from search.levels import MIN_ELO, SKILL_LEVELS

NUMBER_LIMIT = 1 << 60                # the end of the ranges that have no natural one


@dataclass(frozen=True)
class Range:
    """The whole numbers from `low` to `high`, both included."""
    low: int
    high: int

    def __contains__(self, value: int) -> bool:
        return self.low <= value <= self.high

    def __str__(self) -> str:
        """`1..30`, or `1 or more` when only NUMBER_LIMIT ends it."""
        return f"{self.low} or more" if self.high >= NUMBER_LIMIT else f"{self.low}..{self.high}"

# UCI options
HASH_MB = Range(1, 33554432)
THREADS = Range(1, 1024)
MULTIPV = Range(1, 500)
MOVE_OVERHEAD_MS = Range(0, 5000)
ELO = Range(MIN_ELO, 3190)            # Stockfish's UCI_Elo maximum; full strength from FULL_STRENGTH_ELO up
SKILL_LEVEL = Range(0, SKILL_LEVELS)
RANDOM_SEED = Range(0, 2**31 - 1)     # 0: different choices every game
SYZYGY_PROBE_LIMIT = Range(0, 7)

# the limits of a search: `go`, and `analyse` and `play` on the command line
TIME_MS = Range(0, NUMBER_LIMIT)      # wtime, btime, winc, binc, movetime; --time in seconds
MOVES_TO_GO = Range(1, NUMBER_LIMIT)
SEARCH_DEPTH = Range(1, MAX_PLY - 4)  # the deepest the driver iterates
NODES = Range(1, NUMBER_LIMIT)
MATE_MOVES = Range(1, NUMBER_LIMIT)

# the extensions and the other commands
PERFT_DEPTH = Range(1, 20)
BENCH_DEPTH = Range(1, 30)
GAME_NUMBER = Range(1, NUMBER_LIMIT)  # which game of a PGN file
PORT = Range(0, 65535)                # 0: any free port
