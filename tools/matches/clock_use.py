"""How each player spends its clock over a game, read from the think times in match PGNs.

    python -m tools.matches.clock_use runs/ladder/ladder-2600.pgn [more.pgn.gz ...]

For every player: the mean think time a move over its own moves 1-10, 11-20, 21-30, 31-40 and
41 on (counted from the game's first move, so from the opening position), and the clock left at
the end of its games (base + increments - think times, from the `TimeControl` header), which a
player that front-loads well keeps small. Think times are tools.matches.match's PGN comments,
`{+0.35/12 0.210s}`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

import chess.pgn

from jitfish.clock import ClockError, TimeControl
from tools.matches.pgn_files import read_games, think_seconds

BUCKET_MOVES = 10
BUCKETS = 5            # the last one holds every move from 41 on


@dataclass
class Usage:
    """One player's think times by bucket of own moves, and its clock at the end of each game."""
    by_bucket: list[list[float]] = field(default_factory=lambda: [[] for _ in range(BUCKETS)])
    clock_left: list[float] = field(default_factory=list)

    def mean_ms(self, bucket: int) -> float | None:
        times = self.by_bucket[bucket]
        return 1000 * sum(times) / len(times) if times else None


def time_control(header: str) -> tuple[float, float] | None:
    """(base, increment) in seconds of a `10+0.1` TimeControl header, None for anything else
    (no clock, moves per period)."""
    try:
        control = TimeControl.parse(header)
    except ClockError:
        return None
    if control.kind() not in ("fischer", "sudden"):
        return None
    return control.periods[0].seconds, control.periods[0].increment


def read(paths: list[str]) -> dict[str, Usage]:
    usage: dict[str, Usage] = {}
    for game in read_games(paths):
        add_game(game, usage)
    return usage


def add_game(game: chess.pgn.Game, usage: dict[str, Usage]) -> None:
    """Add one game's think times and end-of-game clocks to `usage` (by player name)."""
    names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
    spent = {chess.WHITE: 0.0, chess.BLACK: 0.0}
    moves = {chess.WHITE: 0, chess.BLACK: 0}
    for node in game.mainline():
        mover = not node.turn()          # node.turn() is the side to move after the move
        seconds = think_seconds(node.comment)
        if seconds is None:
            continue
        bucket = min(moves[mover] // BUCKET_MOVES, BUCKETS - 1)
        usage.setdefault(names[mover], Usage()).by_bucket[bucket].append(seconds)
        spent[mover] += seconds
        moves[mover] += 1
    clock = time_control(game.headers.get("TimeControl", ""))
    if clock is not None:
        base, increment = clock
        for side in chess.COLORS:
            if moves[side]:
                usage[names[side]].clock_left.append(base + increment * moves[side] - spent[side])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.matches.clock_use",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args(argv)
    usage = read(args.pgn)
    labels = [f"{b * BUCKET_MOVES + 1}-{(b + 1) * BUCKET_MOVES}" for b in range(BUCKETS - 1)]
    labels.append(f"{(BUCKETS - 1) * BUCKET_MOVES + 1}+")
    print("ms a move, by own move: " + " | ".join(labels))
    for name, player in sorted(usage.items()):
        cells = [f"{ms:.0f}" if (ms := player.mean_ms(b)) is not None else "-" for b in range(BUCKETS)]
        line = f"{name}: " + " | ".join(cells)
        if player.clock_left:
            left = player.clock_left
            line += f"; clock left at the end: mean {sum(left) / len(left):.2f} s, least {min(left):.2f} s"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
