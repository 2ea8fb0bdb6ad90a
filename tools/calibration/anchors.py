"""Floor anchors for level calibration: a uniformly random mover and a one-ply material-greedy
mover, as minimal UCI engines on python-chess.

    python -m tools.calibration.anchors random
    python -m tools.calibration.anchors greedy

The greedy mover plays the move that leaves it the most material (engine.piece's values; mate in
one counts as winning everything), choosing at random among equals; it never looks at the reply.
"""

from __future__ import annotations

import random
import sys

import chess

from engine.defs import PIECE_VALUES
from tools.calibration.minimal_uci import serve

MATE = 1_000_000                     # beyond any material


def material(board: chess.Board, colour: chess.Color) -> int:
    """Material of `colour` minus that of its opponent, in centipawns (the kings, one a side,
    cancel out). python-chess numbers the piece types PAWN..KING from 1, engine.defs from 0."""
    return sum(int(PIECE_VALUES[p.piece_type - 1]) * (1 if p.color == colour else -1)
               for p in board.piece_map().values())


def greedy_move(board: chess.Board, rng: random.Random) -> chess.Move:
    us = board.turn
    best, choices = None, []
    for move in board.legal_moves:
        board.push(move)
        value = MATE if board.is_checkmate() else material(board, us)
        board.pop()
        if best is None or value > best:
            best, choices = value, [move]
        elif value == best:
            choices.append(move)
    return rng.choice(choices)


def random_move(board: chess.Board, rng: random.Random) -> chess.Move:
    return rng.choice(list(board.legal_moves))


def run(kind: str) -> None:
    pick = {"random": random_move, "greedy": greedy_move}[kind]
    rng = random.Random()

    def move_for(fen: str | None, moves: list[str]) -> str | None:
        board = chess.Board() if fen is None else chess.Board(fen)
        for text in moves:
            board.push_uci(text)
        return pick(board, rng).uci() if any(board.legal_moves) else None

    serve(f"anchor-{kind}", move_for)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("random", "greedy"):
        sys.exit("usage: python -m tools.calibration.anchors random|greedy")
    run(sys.argv[1])
