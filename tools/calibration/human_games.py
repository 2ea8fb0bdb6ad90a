"""The rated human games of ../shared/data/human/, split by game into a training part and a
held-out part, and the positions of both (the move-matching measure and the human model's data).

Every fifth game of each file of FILES (index 4, 9, 14, ... counted from 0 in file order) is held
out: the move-matching tables are measured on it and nothing is ever trained on it. The files of
TRAINING_FILES (the 58k rapid games, issue 71) are training games only, so the held-out part and
its positions are exactly those of FILES; their games dated before 2018 are left out (the
held-out "datasnaek/chess" collection of 2013-2017 cannot overlap them), and so is any game whose
moves are those of a held-out game. A position is the game's moves up to a ply (from MIN_PLY on)
with the move the human played there and the two players' ratings.

Reading the 58k games' SAN with python-chess takes over a minute; the games of each file are kept,
as UCI, in runs/human/games-v1-<file>-<sha256>.npz and read from there while the file is unchanged.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tools import paths

FILES = ("human/lichess-2018-06-10k.pgn", "human/lichess-2026-06-500.pgn")   # split: every fifth game held out
TRAINING_FILES = ("human/lichess-rapid-2020-2022-58k.pgn.gz",)              # training games only
FIRST_TRAINING_YEAR = 2018   # TRAINING_FILES' games of earlier years are left out (the 2013-2017 held-out set)
HELD_OUT_EVERY = 5           # game index % 5 == 4: held out
MIN_PLY = 10                 # positions from ply 10 on (the opening is mostly memorised)
BANDS = (1100, 1300, 1400, 1500, 1700)   # lower ends of the 200-point bands measured
BAND_WIDTH = 200
PER_BAND = 400
CACHE_VERSION = "v1"         # of the games' cache (cache_path): a new one when the reading changes

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
        return self.source not in _TRAINING_ONLY and self.index % HELD_OUT_EVERY == HELD_OUT_EVERY - 1


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


_TRAINING_ONLY = frozenset(Path(name).name for name in TRAINING_FILES)


def read_games(name: str, years: list[int] | None = None) -> list[Game]:
    """Every game of one shared file (plain or gzip), in file order, with both ratings (games
    without are counted in the index but skipped); `years`, when given, gets each game's year
    (from its Date tag, 0 if none) in the same order."""
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
                if years is not None:
                    date = tags.get("Date", "")
                    years.append(int(date[:4]) if date[:4].isdigit() else 0)
            index += 1
        tags, movetext = {}, []

    path = paths.shared_file(name)
    with (gzip.open(path, "rt") if str(path).endswith(".gz") else open(path)) as handle:
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


_PROMOTIONS = "nbrq"


def _encode(move: str) -> int:
    """A UCI move as 16 bits: from square, to square (6 bits each), promotion (0 none, 1..4 nbrq)."""
    frm = (ord(move[0]) - 97) + 8 * (ord(move[1]) - 49)
    to = (ord(move[2]) - 97) + 8 * (ord(move[3]) - 49)
    return frm | to << 6 | (_PROMOTIONS.index(move[4]) + 1 if len(move) > 4 else 0) << 12


_SQUARES = [f"{chr(97 + sq % 8)}{sq // 8 + 1}" for sq in range(64)]
_DECODED = [""] + list(_PROMOTIONS)


def _decode(code: int) -> str:
    return _SQUARES[code & 63] + _SQUARES[code >> 6 & 63] + _DECODED[code >> 12]


def cache_path(name: str) -> Path:
    """Where the games of a shared file are kept once read (runs/, not committed), named by the
    file's content."""
    digest = hashlib.sha256(Path(paths.shared_file(name)).read_bytes()).hexdigest()[:16]
    return paths.ROOT / "runs" / "human" / f"games-{CACHE_VERSION}-{Path(name).name.split('.')[0]}-{digest}.npz"


@functools.lru_cache(maxsize=None)
def cached_games(name: str) -> tuple[tuple[Game, ...], tuple[int, ...]]:
    """The games of one shared file and their years, read once a process and kept on disk
    (cache_path) for the next."""
    cache = cache_path(name)
    if cache.is_file():
        with np.load(cache) as data:
            index, white, black, year = (data[k].tolist() for k in ("index", "white", "black", "year"))
            offsets, codes = data["offsets"].tolist(), data["moves"].tolist()
        source = Path(name).name
        moves = [_decode(code) for code in codes]
        games = tuple(Game(source, index[i], white[i], black[i], tuple(moves[offsets[i]:offsets[i + 1]]))
                      for i in range(len(index)))
        return games, tuple(year)
    years: list[int] = []
    games = read_games(name, years)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, index=np.array([g.index for g in games], dtype=np.int32),
                 white=np.array([g.white_elo for g in games], dtype=np.int32),
                 black=np.array([g.black_elo for g in games], dtype=np.int32),
                 year=np.array(years, dtype=np.int32),
                 offsets=np.concatenate([[0], np.cumsum([len(g.moves) for g in games])]).astype(np.int64),
                 moves=np.array([_encode(m) for g in games for m in g.moves], dtype=np.uint16))
    except OSError:
        pass                          # a read-only checkout reads the file every time
    return tuple(games), tuple(years)


def all_games() -> list[Game]:
    """The games of FILES (both parts) and the training games of TRAINING_FILES."""
    split = [game for name in FILES for game in cached_games(name)[0]]
    return split + training_only_games(split)


def training_only_games(split: list[Game]) -> list[Game]:
    """The games of TRAINING_FILES from FIRST_TRAINING_YEAR on, less any whose moves are those of a
    held-out game of `split` (the games of FILES)."""
    held = {g.moves for g in split if g.held_out}
    return [game for name in TRAINING_FILES if paths.data_file(name).is_file()
            for game, year in zip(*cached_games(name)) if year >= FIRST_TRAINING_YEAR and game.moves not in held]


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


WATCH_EVERY, WATCH_AT = 25, 3   # training games with index % 25 == 3: the board policy never trains on them


def watched(game_index):
    """Whether a training game (by its index in its file) is one the board policy's fit watches
    its loss on and never trains on (tools/calibration/train_policy.py): the choice model is
    fitted on these games' positions, so the policy's logits there are those of unseen games."""
    return game_index % WATCH_EVERY == WATCH_AT


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
