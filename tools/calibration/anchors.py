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
    board = chess.Board()
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            print(f"id name anchor-{kind}\nid author the Jitfish developers\nuciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            moves_at = tokens.index("moves") if "moves" in tokens else len(tokens)
            board = chess.Board() if tokens[1] == "startpos" else chess.Board(" ".join(tokens[2:moves_at]))
            for text in tokens[moves_at + 1:]:
                board.push_uci(text)
        elif command == "go":
            move = pick(board, rng) if any(board.legal_moves) else None
            print(f"bestmove {move.uci() if move else '0000'}", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("random", "greedy"):
        sys.exit("usage: python -m tools.calibration.anchors random|greedy")
    run(sys.argv[1])
