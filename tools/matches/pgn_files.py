"""The games of match PGN files, plain or gzipped (`.pgn.gz`), in file order."""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import chess.pgn


def read_games(paths: list[str]) -> Iterator[chess.pgn.Game]:
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                yield game
