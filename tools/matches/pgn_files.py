"""The games of match PGN files, plain or gzipped (`.pgn.gz`), in file order, and what a move's
comment holds: tools.matches.match writes `{+0.35/12 0.210s}` (score from the mover's side,
depth, think time; `match.move_comment`)."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import chess.pgn

SCORE = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")
THINK = re.compile(r"(\d+(?:\.\d+)?)s\b")


def comment_score(comment: str) -> float | None:
    """The centipawns of a `{+0.35/12 ...}` comment (a mate as +-10000), None without one."""
    match = SCORE.match(comment or "")
    if not match:
        return None
    value = 10_000.0 if match.group(2) else float(match.group(3)) * 100
    return -value if match.group(1) == "-" else value


def think_seconds(comment: str) -> float | None:
    """The think time of a `{+0.35/12 0.210s}` comment, None without one."""
    match = THINK.search(comment or "")
    return float(match.group(1)) if match else None


def read_games(paths: list[str]) -> Iterator[chess.pgn.Game]:
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                yield game
