"""Audit the review's reasons on rated human games: count the sentences that are provably wrong.

Each sampled game is reviewed the way the browser reviews it (jitfish.web.review.review_game),
with the engine in this process, node-limited, one thread and the table cleared before every
position, so that a run repeats exactly. Every reason given to a marked move is then checked
against the board, and each fault that the board alone proves is counted:

- `piece-not-there`: a piece named on a square where it does not stand (a loss or an allowed
  move names the mover's pieces as they stand after the move; a missed win the opponent's, as
  they stand before it);
- `move-not-playable`: "loses X to M" or "allows M" where M is no legal move after the move
  played, or "misses M"/"with M" where M is no legal move before it;
- `even-trade-called-loss`: "loses X ... for Y" where Y is worth as much as X (a bishop for a
  knight is even);
- `recapture-called-loss`: the move captured on a square a piece worth at least as much as the
  piece the reason says it loses there; or the better move takes the same piece on the same
  square the move played took, and that piece is what it is said to win;
- `blunder-by-a-pawn`: a `??` whose reason is one pawn lost or missed.

    .venv/bin/python -m tools.review.audit [--games 40] [--stride 250] [--nodes 300000] [--out FILE]

The report lists every marked move with its reason and faults, then the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import chess

from engine.board import Board
from engine.move import move_to_uci
from eval.shipped import review_network
from jitfish.review import Evaluation
from jitfish.web.review import GameReview, review_game
from search.driver import Searcher
from search.timeman import Limits
from tools import paths

SAMPLE_FILE = "human/lichess-2018-06-10k.pgn"
VALUES = {"pawn": 1, "knight": 3, "bishop": 3, "rook": 5, "queen": 9, "king": 0,
          "pawns": 1, "knights": 3, "bishops": 3, "rooks": 5}
PIECE_TYPES = {"pawn": chess.PAWN, "knight": chess.KNIGHT, "bishop": chess.BISHOP, "rook": chess.ROOK,
               "queen": chess.QUEEN, "king": chess.KING}
_NAMED = re.compile(r"\bthe (pawn|knight|bishop|rook|queen|king) on ([a-h][1-8])\b")
_SAN = r"((?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)[+#]?)"
_LOSES_TO = re.compile(r"^loses (?:the|a|an|two|three|four|\d+) \w+(?: on ([a-h][1-8]))? to " + _SAN)
_ALLOWS = re.compile(r"^allows " + _SAN)
_MISSES = re.compile(r"(?:^misses |with )" + _SAN)
_LOSES_FOR = re.compile(r"^loses (?:the|a|an) (pawn|knight|bishop|rook|queen)\b.* for (?:a|an|the) "
                        r"(pawn|knight|bishop|rook|queen)\b")
_LOSES_ON = re.compile(r"^loses the (pawn|knight|bishop|rook|queen) on ([a-h][1-8])")
_MISSES_WINNING = re.compile(r"^misses (?:winning (?:the|a|an) (\w+)(?: on [a-h][1-8])? with " + _SAN
                             + r"|" + _SAN + r", winning (?:the|a|an) (\w+))")
_ONE_PAWN = re.compile(r"\b(?:loses|losing|winning|wins) (?:a|the) pawn\b")
_MORE = re.compile(r"\b(knight|bishop|rook|queen|exchange|mate|two|three|four|pieces?)\b")


def _legal_san(board: chess.Board, san: str) -> chess.Move | None:
    try:
        return board.parse_san(san)
    except ValueError:
        return None


def faults(before: chess.Board, move: chess.Move, symbol: str, reason: str) -> list[str]:
    """The faults the board proves in `reason`, said of `move` played in `before` and marked `symbol`."""
    after = before.copy(stack=False)
    after.push(move)
    mover = before.turn
    found: list[str] = []
    missed = reason.startswith("misses")
    board, owner = (before, not mover) if missed else (after, mover)
    for name, square in _NAMED.findall(reason):
        piece = board.piece_at(chess.parse_square(square))
        if piece is None or piece.piece_type != PIECE_TYPES[name] or piece.color != owner:
            found.append("piece-not-there")
            break
    loses_to = _LOSES_TO.match(reason)
    allows = _ALLOWS.match(reason)
    if loses_to and _legal_san(after, loses_to.group(2)) is None:
        found.append("move-not-playable")
    elif allows and _legal_san(after, allows.group(1)) is None:
        found.append("move-not-playable")
    elif missed:
        for san in _MISSES.findall(reason)[:1]:
            if _legal_san(before, san) is None:
                found.append("move-not-playable")
    trade = _LOSES_FOR.match(reason)
    if trade and VALUES[trade.group(2)] >= VALUES[trade.group(1)]:
        found.append("even-trade-called-loss")
    lost_on = _LOSES_ON.match(reason)
    if before.is_capture(move) and lost_on and chess.parse_square(lost_on.group(2)) == move.to_square:
        taken = before.piece_type_at(move.to_square) or chess.PAWN
        if VALUES[chess.piece_name(taken)] >= VALUES[lost_on.group(1)]:
            found.append("recapture-called-loss")
    win = _MISSES_WINNING.match(reason)
    if win and before.is_capture(move):
        san, won = (win.group(2), win.group(1)) if win.group(2) else (win.group(3), win.group(4))
        best = _legal_san(before, san) if san else None
        taken = before.piece_type_at(move.to_square)
        if best is not None and best.to_square == move.to_square and taken and won == chess.piece_name(taken):
            found.append("recapture-called-loss")
    if symbol == "??" and _ONE_PAWN.search(reason) and not _MORE.search(reason):
        found.append("blunder-by-a-pawn")
    return found


# ---- the sample -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleGame:
    index: int               # in the file, from 0
    elos: str
    moves: tuple[str, ...]   # UCI


def sample(path: Path, games: int, stride: int, min_plies: int = 20) -> Iterator[SampleGame]:
    """`games` games of the file: from each multiple of `stride` on (game index from 0), the first
    with at least `min_plies` plies, all legal (a few games of the file are not)."""
    index, wanted, tags = -1, 0, {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("["):
                if line.startswith("[Event"):
                    index += 1
                    tags = {}
                key, _, value = line[1:-1].partition(" ")
                tags[key] = value.strip('"')
            elif line and index >= wanted * stride:
                moves = tuple(m for m in line.split() if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", m))
                if len(moves) >= min_plies and _legal(moves):
                    yield SampleGame(index, f"{tags.get('WhiteElo', '?')}-{tags.get('BlackElo', '?')}", moves)
                    wanted += 1
                    if wanted == games:
                        return


def _legal(moves: tuple[str, ...]) -> bool:
    """Whether every move is legal (a few games of the file are not)."""
    board = chess.Board()
    for uci in moves:
        move = chess.Move.from_uci(uci)
        if not board.is_legal(move):
            return False
        board.push(move)
    return True


class Engine:
    """The engine in this process: each position searched from a cleared table, `nodes` nodes, so
    that an evaluation depends only on the position and its moves; `cache` keeps them (a pickle
    file, for runs that change only how the reasons are written)."""

    def __init__(self, nodes: int, hash_mb: int = 16, cache: str | None = None) -> None:
        self.searcher = Searcher(hash_mb, review_network())
        self.nodes = nodes
        self.cache_path = cache
        self.cache: dict = {}
        if cache and Path(cache).is_file():
            self.cache = pickle.loads(Path(cache).read_bytes())

    def save(self) -> None:
        if self.cache_path:
            Path(self.cache_path).write_bytes(pickle.dumps(self.cache))

    async def evaluate(self, position: chess.Board) -> Evaluation:
        key = (self.nodes, position.root().fen(), tuple(m.uci() for m in position.move_stack))
        if key not in self.cache:
            self.cache[key] = self._search(position)
        return self.cache[key]

    def _search(self, position: chess.Board) -> Evaluation:
        root = position.root()
        board = Board(root.fen())
        for move in position.move_stack:
            board.push_uci(move.uci())
        self.searcher.clear()
        self.searcher.prepare()
        result = self.searcher.run(board, Limits(nodes=self.nodes))
        moves = list(result.lines[0].moves) if result.lines else [result.best]
        return Evaluation(result.score, result.depth,
                          tuple(chess.Move.from_uci(move_to_uci(m, False)) for m in moves))


async def _review(engine: Engine, game: SampleGame) -> GameReview:
    async def progress(done: int, total: int) -> None:
        return None

    moves = [chess.Move.from_uci(m) for m in game.moves]
    return await review_game(chess.Board(), moves, engine.evaluate, progress, engine.nodes)


def move_label(ply: int, san: str) -> str:
    number = (ply + 1) // 2
    return f"{number}. {san}" if ply % 2 == 1 else f"{number}... {san}"


@dataclass(frozen=True)
class Record:
    """A marked move as reviewed: enough to check its reason again without the engine."""
    game: str                # the game's index in the file and its players' ratings
    ply: int
    fen: str                 # before the move
    move: str                # UCI
    symbol: str
    best: str                # UCI
    reason: str

    def line(self) -> str:
        return "\t".join([self.game, str(self.ply), self.fen, self.move, self.symbol, self.best, self.reason])

    @staticmethod
    def parse(line: str) -> Record:
        game, ply, fen, move, symbol, best, reason = line.rstrip("\n").split("\t")
        return Record(game, int(ply), fen, move, symbol, best, reason)


FAULTS = ("piece-not-there", "move-not-playable", "even-trade-called-loss", "recapture-called-loss",
          "blunder-by-a-pawn")


def report(records: list[Record], header: list[str]) -> str:
    """Every marked move with its reason and faults, the counts first."""
    counts: Counter[str] = Counter()
    lines, wrong, game = [], 0, None
    for record in records:
        before = chess.Board(record.fen)
        move = chess.Move.from_uci(record.move)
        found = faults(before, move, record.symbol, record.reason)
        counts.update(found)
        wrong += bool(found)
        if record.game != game:
            game = record.game
            lines.append(f"game {game}")
        flag = f"   <-- {', '.join(found)}" if found else ""
        lines.append(f"  {move_label(record.ply, before.san(move))}{record.symbol} {record.reason}{flag}")
    summary = header + [f"marked moves {len(records)}, reasons with a fault {wrong}",
                        *(f"  {name}: {counts[name]}" for name in FAULTS)]
    return "\n".join(summary + [""] + lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--stride", type=int, default=250, help="a game from every N-th of the file on")
    parser.add_argument("--nodes", type=int, default=300_000,
                        help="nodes a position (the browser's review: 300000)")
    parser.add_argument("--out", help="write the report here as well")
    parser.add_argument("--records", help="write the marked moves here (tab-separated), for --recheck")
    parser.add_argument("--recheck", metavar="RECORDS",
                        help="check the reasons of a records file again, no engine")
    parser.add_argument("--cache",
                        help="keep the evaluations in this file and reuse them (same engine, same nodes)")
    args = parser.parse_args(argv)
    if args.recheck:
        lines = Path(args.recheck).read_text(encoding="utf-8").splitlines()
        records = [Record.parse(line) for line in lines if line.strip()]
        text = report(records, [f"rechecked {args.recheck}"])
    else:
        engine = Engine(args.nodes, cache=args.cache)
        records = []
        plies = 0
        started = time.monotonic()
        for game in sample(Path(paths.shared_file(SAMPLE_FILE)), args.games, args.stride):
            began = time.monotonic()
            review = asyncio.run(_review(engine, game))
            plies += len(review.reviews)
            for move in review.reviews:
                if move.verdict.judgement is not None:
                    records.append(Record(f"{game.index} ({game.elos})", move.ply, move.before.fen(),
                                          move.move.uci(), move.verdict.judgement.symbol,
                                          move.verdict.best.uci(), str(move.why) if move.why else ""))
            print(f"game {game.index}: {len(review.reviews)} plies in {time.monotonic() - began:.1f} s",
                  file=sys.stderr, flush=True)
        seconds = time.monotonic() - started
        engine.save()
        if args.records:
            Path(args.records).write_text("".join(r.line() + "\n" for r in records), encoding="utf-8")
        header = (f"games {args.games} (from every {args.stride}th of {SAMPLE_FILE}, 20+ legal plies), "
                  f"{plies} plies, {args.nodes} nodes a position, {seconds:.0f} s "
                  f"({seconds / max(1, plies):.3f} s a ply)")
        text = report(records, [header])
    print(text.split("\n\n")[0])
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
