"""Write tests/data/chess960_perft.epd: Chess960 perft counts computed with python-chess.

The positions are a fixed sample of the 960 start positions (`chess.Board.from_chess960_pos`)
and hand-made positions that exercise the castling rules Chess960 adds; every count comes from
python-chess's move generator, and the counts python-chess gives for a few published Chess960
perft positions are checked against the published numbers before anything is written.

    python -m tools.generators.make_chess960_perft [output.epd]

Output lines look like the shared perft.epd: `FEN ;D1 n ;D2 n ...`, FENs in X-FEN except the
entries marked Shredder, which are written with Shredder-FEN castling letters.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import chess

OUTPUT = Path(__file__).resolve().parents[2] / "tests" / "data" / "chess960_perft.epd"

# Published Chess960 perft counts: the start of the CPW / Kirill Kryukov `fischer.epd` table, and
# start position 518, which is the standard initial position.
PUBLISHED = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9": (21, 528, 12189, 326672),
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9": (21, 807, 18002, 667366),
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9": (20, 479, 10471, 273318),
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9": (22, 593, 13440, 382958),
    chess.Board.from_chess960_pos(518).fen(): (20, 400, 8902, 197281),
}

# Start positions by their Scharnagl number: both ends, the standard one, and a spread between.
START_POSITIONS = (0, 1, 59, 137, 284, 357, 443, 518, 600, 711, 806, 888, 959)

# (FEN, depth, what it pins). Depths keep python-chess under a few seconds per entry.
HAND_MADE = (
    ("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1", 4,
     ("king next to its rook on both wings; the black king already stands on g8 when castling short; "
      "white castles short onto its own rook's square")),
    ("rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w KQkq - 0 1", 4,
     "castling long is blocked only by the other castling rook, which stands on the king's destination"),
    ("4k3/8/8/8/8/8/8/rR3K2 w Q - 0 1", 5,
     "an enemy rook on a1 attacks c1 through the castling rook's square b1: castling long is illegal"),
    ("r4k2/8/8/8/8/8/8/R1n2K1R w KQ - 0 1", 5,
     "an enemy knight stands on c1, the destination of the king castling long"),
    ("r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w KCfq - 0 1", 4,
     "X-FEN with inner rooks: c1 and f8 castle while a1 and h8 stand outside them"),
    ("1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R b KQkq - 0 1", 4,
     "king c8 castling long stays put while its rook jumps to d8"),
    ("2r1k1r1/8/8/8/8/8/8/2R1K1R1 w KQkq - 0 1", 4,
     "rooks on c1 and g1: both castlings move the rook onto the square next to the king's destination"),
    ("r2k3r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", 4,
     "king on d1: both wings, the king passes e1/f1 or c1 and can be attacked on the way"),
    ("r3k2r/8/7b/8/8/B7/8/RK3R2 w KQkq - 0 1", 4,
     "bishops attack c1 and f8, squares the kings would pass or land on when castling"),
    ("4k3/8/8/8/8/8/6p1/4K2R w K - 0 1", 5,
     "a pawn captures the castling rook on h1 with promotion, and the right must go"),
    ("rk5r/ppp3pp/8/3Pp3/8/8/PPP3PP/RK5R w KQkq e6 0 1", 4,
     "en passant next to castling rights that survive it"),
    ("r5kr/1P6/8/8/8/8/1p6/R5KR w KQkq - 0 1", 4,
     "promotions capture the a-side castling rooks; the kings on g-files castle short with no king move"),
)

# Entries written with Shredder-FEN castling letters (so the parser's file letters get a run too):
# the published ones as they were published, and two more.
SHREDDER = set(PUBLISHED) | {"r3kr1r/ppppppp1/8/8/8/8/1PPPPPPP/R1R1K2R w KCfq - 0 1",
                             chess.Board.from_chess960_pos(0).fen()}

START_DEPTH = 4
PUBLISHED_DEPTH = 4


def pychess_perft(board: chess.Board, depth: int) -> int:
    """Leaf count of the legal-move tree of a python-chess board to `depth`."""
    if depth <= 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += pychess_perft(board, depth - 1)
        board.pop()
    return total


def perft_line(fen: str, depth: int, shredder: bool = False) -> tuple[str, list[int]]:
    """The EPD line of `fen` with python-chess counts for depths 1..depth, and the counts."""
    board = chess.Board(fen, chess960=True)
    if not board.is_valid():
        raise ValueError(f"python-chess rejects {fen}: status {board.status()!r}")
    counts = [pychess_perft(board, d) for d in range(1, depth + 1)]
    text = board.fen(shredder=shredder)
    return text + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1)), counts


def check_published() -> None:
    """python-chess must reproduce the published numbers, or its counts are no reference."""
    for fen, expected in PUBLISHED.items():
        _, counts = perft_line(fen, PUBLISHED_DEPTH)
        if tuple(counts) != expected[:PUBLISHED_DEPTH]:
            raise SystemExit(f"python-chess disagrees with the published perft of {fen}: {counts} != {expected}")


def entries() -> list[tuple[str, int, str]]:
    """(fen, depth, comment) of every entry, published ones first."""
    result = [(fen, PUBLISHED_DEPTH, "published Chess960 perft position") for fen in PUBLISHED]
    for n in START_POSITIONS:
        fen = chess.Board.from_chess960_pos(n).fen()
        if fen not in PUBLISHED:
            result.append((fen, START_DEPTH, f"Chess960 start position {n}"))
    result.extend(HAND_MADE)
    return result


def main(argv: list[str]) -> None:
    output = Path(argv[0]) if argv else OUTPUT
    start = time.perf_counter()
    check_published()
    lines = ["# Chess960 perft counts computed with python-chess by tools/generators/make_chess960_perft.py",
             "# (the published positions first; their counts were checked against the published numbers)"]
    for fen, depth, comment in entries():
        line, _ = perft_line(fen, depth, shredder=fen in SHREDDER)
        lines += [f"# {comment}", line]
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {output} in {time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
