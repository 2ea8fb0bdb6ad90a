"""Build a Polyglot opening book (.bin) from Jitfish's own analysis or from PGN games.

    python -m tools.book.make_book analyse --out jitfish/data/jitfish-book.bin \\
        [--plies 6] [--depth 12] [--multipv 3] [--margin 20] [--halving 15] [--hash 16]
    python -m tools.book.make_book pgn GAMES.pgn [MORE.pgn ...] --out my-book.bin [--plies 16] [--min-games 2]

`analyse` grows a tree from the start position: each position (once, however it is reached) is
searched to `--depth` with `--multipv` lines by a fresh searcher; moves within `--margin` cp of
the best are kept with weight 100 halved every `--halving` cp below it, and followed until
`--plies` plies. The result depends only on these options and the engine's code.

`pgn` counts, over games from the standard start position, the moves of their first `--plies`
plies: weight 2 per win and 1 per draw of the side that moved (as polyglot make-book); moves
played fewer than `--min-games` times, or never without losing, are dropped.

The file: 16-byte big-endian entries, key (u64, python-chess's Polyglot Zobrist hash), move
(u16), weight (u16), learn (u32, 0), sorted by key and, within a key, heaviest first.
"""

from __future__ import annotations

import argparse
import struct
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot

ENTRY = struct.Struct(">QHHI")
MAX_WEIGHT = 0xFFFF
TOP_WEIGHT = 100                    # the best move's weight in `analyse`
PROMOTION_CODES = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
RESULT_POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}   # (white's, black's)


@dataclass(frozen=True)
class BookEntry:
    key: int
    move: int          # the Polyglot encoding
    weight: int
    learn: int = 0


def encode_move(board: chess.Board, move: chess.Move) -> int:
    """The Polyglot encoding of a legal standard-chess move: to-square in bits 0-5, from-square
    in bits 6-11, promotion piece in bits 12-14; castling is written king takes own rook."""
    to_square = move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        to_square = chess.square(7 if board.is_kingside_castling(move) else 0, rank)
    promotion = PROMOTION_CODES[move.promotion] if move.promotion else 0
    return to_square | move.from_square << 6 | promotion << 12


def write_book(path: str | Path, entries: Iterable[BookEntry]) -> int:
    """Write a Polyglot book sorted by key (heaviest first, then by move, within a key); returns
    the number of entries. ValueError for a field out of range or a (key, move) given twice."""
    ordered = sorted(entries, key=lambda e: (e.key, -e.weight, e.move))
    seen = set()
    data = bytearray()
    for e in ordered:
        if (e.key, e.move) in seen:
            raise ValueError(f"move {e.move:#06x} given twice for key {e.key:016x}")
        seen.add((e.key, e.move))
        if not (0 <= e.key < 1 << 64 and 0 <= e.move <= 0xFFFF and 0 <= e.weight <= MAX_WEIGHT
                and 0 <= e.learn < 1 << 32):
            raise ValueError(f"entry out of range: {e}")
        data += ENTRY.pack(e.key, e.move, e.weight, e.learn)
    Path(path).write_bytes(bytes(data))
    return len(ordered)


def scaled(weights: dict[int, int]) -> dict[int, int]:
    """One position's weights scaled down to fit 16 bits if needed (each kept at least 1)."""
    top = max(weights.values())
    if top <= MAX_WEIGHT:
        return weights
    return {move: max(1, weight * MAX_WEIGHT // top) for move, weight in weights.items()}


def entries_of(table: dict[int, dict[int, int]]) -> Iterator[BookEntry]:
    """Book entries from {key: {encoded move: weight}}."""
    for key, weights in table.items():
        for move, weight in scaled(weights).items():
            yield BookEntry(key, move, weight)


# ---- from the engine's analysis ------------------------------------------------------------------

def analyse_tree(plies: int, depth: int, multipv: int, margin: int, halving: float, hash_mb: int,
                 log=print) -> dict[int, dict[int, int]]:
    """{key: {encoded move: weight}} for the tree of near-best moves from the start position."""
    from engine.board import Board
    from search.timeman import Limits
    from search.driver import Bound, Searcher

    table: dict[int, dict[int, int]] = {}
    level = [[]]                                  # the move paths (UCI) to this ply's positions
    for ply in range(plies):
        following = []
        for path in level:
            ours, theirs = Board(), chess.Board()
            for text in path:
                ours.push_uci(text)
                theirs.push_uci(text)
            key = chess.polyglot.zobrist_hash(theirs)
            if key in table:                      # a transposition, analysed already
                continue
            result = Searcher(hash_mb).run(ours, Limits(depth=depth), multipv=multipv)
            best = result.lines[0].score if result.lines else None
            weights, kept = {}, []
            for line in result.lines:
                if line.bound is not Bound.EXACT or not line.moves or best - line.score > margin:
                    continue
                move = theirs.parse_uci(ours.uci(line.moves[0]))
                weight = max(1, round(TOP_WEIGHT * 2 ** ((line.score - best) / halving)))
                weights[encode_move(theirs, move)] = weight
                kept.append(f"{theirs.uci(move)} {line.score:+d} w{weight}")
                following.append(path + [theirs.uci(move)])
            if weights:
                table[key] = weights
            log(f"{' '.join(path) or 'start'}: {', '.join(kept) or 'no move'}")
        level = following
    return table


# ---- from games -----------------------------------------------------------------------------------

def count_games(paths: Iterable[str], plies: int, min_games: int, log=print) -> dict[int, dict[int, int]]:
    """{key: {encoded move: weight}} from the first `plies` plies of finished standard games."""
    points: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    played: dict[tuple[int, int], int] = defaultdict(int)
    used = skipped = 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                result = RESULT_POINTS.get(game.headers.get("Result", "*"))
                if (result is None or "FEN" in game.headers or game.errors
                        or game.headers.get("Variant", "Standard").lower() not in ("standard", "")):
                    skipped += 1
                    continue
                used += 1
                board = game.board()
                for move in list(game.mainline_moves())[:plies]:
                    key, code = chess.polyglot.zobrist_hash(board), encode_move(board, move)
                    points[key][code] += result[0] if board.turn == chess.WHITE else result[1]
                    played[key, code] += 1
                    board.push(move)
    log(f"{used} games used, {skipped} skipped (unfinished, not from the start position or not standard)")
    table = {}
    for key, weights in points.items():
        kept = {m: w for m, w in weights.items() if w > 0 and played[key, m] >= min_games}
        if kept:
            table[key] = kept
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="source", required=True)
    analyse = sub.add_parser("analyse", help="a tree of Jitfish's near-best moves from the start position")
    analyse.add_argument("--plies", type=int, default=6)
    analyse.add_argument("--depth", type=int, default=12)
    analyse.add_argument("--multipv", type=int, default=3)
    analyse.add_argument("--margin", type=int, default=20, help="centipawns below the best move")
    analyse.add_argument("--halving", type=float, default=15.0, help="centipawns that halve the weight")
    analyse.add_argument("--hash", type=int, default=16, help="MB")
    games = sub.add_parser("pgn", help="moves of PGN games weighted by their results")
    games.add_argument("pgn", nargs="+")
    games.add_argument("--plies", type=int, default=16)
    games.add_argument("--min-games", type=int, default=2)
    for each in (analyse, games):
        each.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.plies < 1:
        parser.error("--plies must be at least 1")
    if args.source == "analyse":
        if args.depth < 1 or args.multipv < 1 or args.margin < 0 or args.halving <= 0:
            parser.error("--depth and --multipv must be positive, --margin not negative, --halving positive")
        table = analyse_tree(args.plies, args.depth, args.multipv, args.margin, args.halving, args.hash)
    else:
        try:
            table = count_games(args.pgn, args.plies, args.min_games)
        except OSError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    count = write_book(args.out, entries_of(table))
    print(f"{len(table)} positions, {count} entries: {args.out} ({count * ENTRY.size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
