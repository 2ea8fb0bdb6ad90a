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
- `blunder-by-a-pawn`: a `??` whose reason is one pawn lost or missed;
- `loss-also-in-best-line`: "loses the X ..." where the better move's line (played out with
  python-chess, as far as the record has it) costs the mover a piece of X's kind or a heavier one
  too: a loss the better move suffers as well is not the reason (issue 72).

Besides the faults, the share of the marked moves whose reason is concrete (a mate, a stalemate,
material: not only the better move with its line) and of those whose reason names a move or a
square at all.

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


def faults(before: chess.Board, move: chess.Move, symbol: str, reason: str,
           best_line: tuple[chess.Move, ...] = ()) -> list[str]:
    """The faults the board proves in `reason`, said of `move` played in `before` and marked `symbol`
    (`best_line`: the better move's line from `before`, when known)."""
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
    if lost_on and best_line and _line_costs(before, best_line, PIECE_TYPES[lost_on.group(1)]):
        found.append("loss-also-in-best-line")
    return found


def _line_costs(before: chess.Board, line: tuple[chess.Move, ...], kind: chess.PieceType) -> bool:
    """Whether `line` (played from `before` while legal, then its captures resolved) costs the mover
    at least the worth of a piece of `kind` less a pawn (a pawn: at least a pawn), counting both
    sides' material: a trade is no cost, a piece lost for a pawn is."""
    mover, board = before.turn, before.copy(stack=False)
    for move in line:
        if not board.is_legal(move):
            break
        board.push(move)
    net = _balance(board, mover) + _resolve(board, mover, 6) - _balance(before, mover)
    worth = VALUES[chess.piece_name(kind)]
    return net <= -(worth - 1 if kind != chess.PAWN else 1)


def _balance(board: chess.Board, side: chess.Color) -> int:
    """`side`'s material less its opponent's, in pawns (the king counts nothing)."""
    total = 0
    for kind in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        total += VALUES[chess.piece_name(kind)] * (len(board.pieces(kind, side)) - len(board.pieces(kind, not side)))
    return total


def _resolve(board: chess.Board, side: chess.Color, depth: int) -> int:
    """What `side` gains in material (negative: loses) once the captures on the board are played
    out, each side taking only when it gains (a capture-only minimax with standing pat)."""
    if depth == 0:
        return 0
    mover_is_side = board.turn == side
    best = 0                                       # standing pat
    for move in board.generate_legal_captures():
        taken = board.piece_type_at(move.to_square) or chess.PAWN        # en passant takes a pawn
        gain = VALUES[chess.piece_name(taken)] + (VALUES[chess.piece_name(move.promotion)] - 1 if move.promotion else 0)
        board.push(move)
        value = gain - _resolve(board, board.turn, depth - 1)
        board.pop()
        best = max(best, value)
    return best if mover_is_side else -best


_CONCRETE = re.compile(r"^(?!better was |the evaluation drops)")
_NAMES = re.compile(r"\b[a-h][1-8]\b|" + _SAN)


def concrete(reason: str) -> bool:
    """Whether a reason says something concrete (a mate, a stalemate, material), not only the
    better move with its line or the evaluation's drop."""
    return bool(reason) and _CONCRETE.match(reason) is not None


def names_something(reason: str) -> bool:
    """Whether a reason names a move or a square (the evaluation's drop alone names neither)."""
    return _NAMES.search(reason) is not None


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
    best: str                # UCI: the better move, or its whole line (moves separated by spaces)
    reason: str

    def line(self) -> str:
        return "\t".join([self.game, str(self.ply), self.fen, self.move, self.symbol, self.best, self.reason])

    @staticmethod
    def parse(line: str) -> Record:
        game, ply, fen, move, symbol, best, reason = line.rstrip("\n").split("\t")
        return Record(game, int(ply), fen, move, symbol, best, reason)

    def best_line(self) -> tuple[chess.Move, ...]:
        return tuple(chess.Move.from_uci(uci) for uci in self.best.split())


FAULTS = ("piece-not-there", "move-not-playable", "even-trade-called-loss", "recapture-called-loss",
          "blunder-by-a-pawn", "loss-also-in-best-line")


def report(records: list[Record], header: list[str]) -> str:
    """Every marked move with its reason and faults, the counts first."""
    counts: Counter[str] = Counter()
    lines, wrong, game = [], 0, None
    for record in records:
        before = chess.Board(record.fen)
        move = chess.Move.from_uci(record.move)
        found = faults(before, move, record.symbol, record.reason, record.best_line())
        counts.update(found)
        wrong += bool(found)
        if record.game != game:
            game = record.game
            lines.append(f"game {game}")
        flag = f"   <-- {', '.join(found)}" if found else ""
        lines.append(f"  {move_label(record.ply, before.san(move))}{record.symbol} {record.reason}{flag}")
    marked = max(1, len(records))
    specific = sum(concrete(r.reason) for r in records)
    naming = sum(names_something(r.reason) for r in records)
    summary = header + [f"marked moves {len(records)}, reasons with a fault {wrong}",
                        *(f"  {name}: {counts[name]}" for name in FAULTS),
                        f"concrete reasons (a mate, a stalemate, material) {specific} ({100 * specific / marked:.1f}%), "
                        f"naming a move or a square {naming} ({100 * naming / marked:.1f}%)"]
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
                                          " ".join(m.uci() for m in move.verdict.line), str(move.why) if move.why else ""))
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
