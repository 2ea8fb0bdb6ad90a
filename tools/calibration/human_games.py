"""The rated human games of ../shared/data/human/, split by game into a training part and a
held-out part, and the positions of both (the move-matching measure and the human model's data).

Every fifth game of each file (index 4, 9, 14, ... counted from 0 in file order) is held out:
the move-matching tables are measured on it and nothing is ever trained on it. A position is
the game's moves up to a ply (from MIN_PLY on) with the move the human played there and the two
players' ratings.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools import paths

FILES = ("human/lichess-2018-06-10k.pgn", "human/lichess-2026-06-500.pgn")
HELD_OUT_EVERY = 5           # game index % 5 == 4: held out
MIN_PLY = 10                 # positions from ply 10 on (the opening is mostly memorised)
BANDS = (1100, 1300, 1400, 1500, 1700)   # lower ends of the 200-point bands measured
BAND_WIDTH = 200
PER_BAND = 400

_TAG = re.compile(r'\[(\w+) "([^"]*)"\]')
_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnQRBN]?$")


@dataclass(frozen=True)
class Game:
    source: str              # file name
    index: int               # index in its file, from 0
    white_elo: int
    black_elo: int
    moves: tuple[str, ...]   # UCI

    @property
    def held_out(self) -> bool:
        return self.index % HELD_OUT_EVERY == HELD_OUT_EVERY - 1


@dataclass(frozen=True)
class Position:
    game: Game
    ply: int                 # the human's move is game.moves[ply]

    @property
    def history(self) -> tuple[str, ...]:
        return self.game.moves[:self.ply]

    @property
    def human_move(self) -> str:
        return self.game.moves[self.ply]

    @property
    def mover_elo(self) -> int:
        return self.game.white_elo if self.ply % 2 == 0 else self.game.black_elo

    @property
    def id(self) -> str:
        return f"{self.game.source}:{self.game.index}:{self.ply}"


def _movetext_moves(text: str) -> tuple[str, ...]:
    """The UCI moves of a movetext, in UCI (the 10k file: promotions in capitals) or SAN (the
    500 file, with comments); move numbers, comments and the result dropped."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    tokens = [token for token in text.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", token)]
    if all(_MOVE.match(token) for token in tokens):
        return tuple(token.lower() for token in tokens)
    import chess

    board, moves = chess.Board(), []
    for token in tokens:
        moves.append(board.push_san(token.rstrip("?!")).uci())
    return tuple(moves)


def read_games(name: str) -> list[Game]:
    """Every game of one shared file, in file order, with both ratings (games without are
    counted in the index but skipped)."""
    games, tags, movetext = [], {}, []
    index = 0

    def flush() -> None:
        nonlocal index, tags, movetext
        if tags:
            try:
                white, black = int(tags["WhiteElo"]), int(tags["BlackElo"])
            except (KeyError, ValueError):
                white = black = 0
            if white and black:
                games.append(Game(Path(name).name, index, white, black, _movetext_moves(" ".join(movetext))))
            index += 1
        tags, movetext = {}, []

    with open(paths.shared_file(name)) as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("["):
                if movetext:
                    flush()
                match = _TAG.match(line)
                if match:
                    tags[match.group(1)] = match.group(2)
            elif line:
                movetext.append(line)
    flush()
    return games


def all_games() -> list[Game]:
    return [game for name in FILES for game in read_games(name)]


def positions(games: list[Game], lo: int = 0, hi: int = 10_000) -> Iterator[Position]:
    """Every position from MIN_PLY on of the games whose two players are both rated lo..hi."""
    for game in games:
        if lo <= game.white_elo <= hi and lo <= game.black_elo <= hi:
            for ply in range(MIN_PLY, len(game.moves)):
                yield Position(game, ply)


def band_name(lo: int) -> str:
    return f"{lo}-{lo + BAND_WIDTH - 1}"


def held_out_sample(lo: int, count: int = PER_BAND) -> list[Position]:
    """`count` held-out positions of the band lo..lo+199, drawn deterministically (the same
    positions on every machine: Python's seeded Random with a string seed)."""
    pool = list(positions([g for g in all_games() if g.held_out], lo, lo + BAND_WIDTH - 1))
    return random.Random(f"move-matching {band_name(lo)}").sample(pool, min(count, len(pool)))


def training_games() -> list[Game]:
    return [g for g in all_games() if not g.held_out]


def fold(game_index, folds: int):
    """The fold of a training game (its index in its file; every fifth game is held out anyway),
    so that a position's policy logit can come from a policy that never saw its game."""
    return (game_index // HELD_OUT_EVERY) % folds


def game_index(pid: str) -> int:
    """The game's index in its file, from a position id (source:index:ply)."""
    return int(str(pid).rsplit(":", 2)[1])


def policy_inputs(ids) -> dict:
    """id -> (board inputs, move rows, index of the person's move) of search/human_policy.py for
    the positions named by `ids`, replayed from their games."""
    from engine.board import Board
    from search.human_policy import inputs

    games = {(g.source, g.index): g for g in all_games()}
    wanted: dict[tuple[str, int], set[int]] = {}
    for pid in ids:
        name, index, ply = str(pid).rsplit(":", 2)
        wanted.setdefault((name, int(index)), set()).add(int(ply))
    found = {}
    for key, plies in wanted.items():
        board = Board()
        for ply, text in enumerate(games[key].moves[:max(plies) + 1]):
            if ply in plies:
                moves = board.legal_moves()
                found[f"{key[0]}:{key[1]}:{ply}"] = (*inputs(board, moves), moves.index(board.parse_uci(text)))
            board.push_uci(text)
    return found
