"""The checkers engine at full strength against py-draughts' SimpleEngine (the strength check).

    .venv/bin/python -m tools.checkers.vs_pydraughts [--games 10] [--movetime 200] [--their-time 1.0]
        [--gpl-python /tmp/pydraughts-gpl-venv/bin/python] [--openings-plies 3] [--seed 1]

py-draughts 1.10.1 is GPL-3.0: it is never imported here (nor in checkers/ or jitfish/); it runs
in a subprocess of its own virtualenv (`python3 -m venv /tmp/pydraughts-gpl-venv &&
/tmp/pydraughts-gpl-venv/bin/pip install py-draughts==1.10.1`), which reads a PDN FEN a line
and answers the squares of SimpleEngine's move. Its American board makes captures optional, so
the subprocess subclasses it with jumping compulsory (the library's own core with
captures_optional=False, as tools/checkers/bench.py does). Our Board referees the game (no
legal move, threefold repetition, the 40-move rule; a draw at --max-plies). Games start from
openings of --openings-plies random plies, each played with both colours.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from checkers.board import Board
from checkers.driver import Limits, Searcher
from tools.checkers.match import opening

GPL_PYTHON = Path("/tmp/pydraughts-gpl-venv/bin/python")
THEIR_ENGINE = r"""
import json, sys
from draughts import AmericanBoard, SimpleEngine
from draughts.boards._core import CORE_AMERICAN

class CompulsoryAmericanBoard(AmericanBoard):
    @property
    def legal_moves(self):
        return self._legal_moves_from_core(CORE_AMERICAN, max_capture=False, captures_optional=False)

engine = SimpleEngine(depth_limit=40, time_limit=float(sys.argv[1]))
for line in sys.stdin:
    board = CompulsoryAmericanBoard.from_fen(line.strip())
    move = engine.get_best_move(board)
    print(json.dumps([s + 1 for s in move.square_list]), flush=True)
"""


class Theirs:
    def __init__(self, python: Path, seconds: float) -> None:
        self.process = subprocess.Popen([str(python), "-c", THEIR_ENGINE, str(seconds)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def move(self, board: Board) -> int:
        self.process.stdin.write(board.fen() + "\n")
        self.process.stdin.flush()
        squares = json.loads(self.process.stdout.readline())
        for move in board.legal_moves():
            if board.squares(move) == squares:
                return move
        candidates = [m for m in board.legal_moves()
                      if board.squares(m)[0] == squares[0] and board.squares(m)[-1] == squares[-1]]
        if len(candidates) == 1:
            return candidates[0]
        raise RuntimeError(f"py-draughts played {squares} in {board.fen()}: not one of our legal moves")

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools.checkers.vs_pydraughts")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=int, default=200, help="our ms per move")
    parser.add_argument("--their-time", type=float, default=1.0, help="SimpleEngine's seconds per move")
    parser.add_argument("--gpl-python", type=Path, default=GPL_PYTHON)
    parser.add_argument("--openings-plies", type=int, default=3)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not args.gpl_python.exists():
        print(f"no py-draughts interpreter at {args.gpl_python}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    ours, theirs = Searcher(), Theirs(args.gpl_python, args.their_time)
    wins = draws = losses = 0
    start = time.time()
    try:
        for pair in range((args.games + 1) // 2):
            root = opening(rng, args.openings_plies)
            for our_colour in (0, 1):
                if wins + draws + losses >= args.games:
                    break
                board = root.copy()
                ours.clear()
                for _ in range(args.max_plies):
                    if board.outcome() is not None:
                        break
                    if board.turn == our_colour:
                        board.push(ours.run(board, Limits(movetime=args.movetime)).best)
                    else:
                        board.push(theirs.move(board))
                outcome = board.outcome()
                if outcome is None or outcome.winner is None:
                    draws += 1
                    result = "draw"
                elif outcome.winner == our_colour:
                    wins += 1
                    result = "win"
                else:
                    losses += 1
                    result = "loss"
                print(json.dumps({"game": wins + draws + losses, "we_play": "black" if our_colour == 0 else "white",
                                  "opening": root.fen(), "result": result,
                                  "reason": outcome.reason if outcome else "max plies",
                                  "plies": len(board.moves_played)}), flush=True)
    finally:
        theirs.close()
    n = wins + draws + losses
    print(json.dumps({"games": n, "wins": wins, "draws": draws, "losses": losses,
                      "score": round((wins + 0.5 * draws) / max(n, 1), 3), "our_movetime_ms": args.movetime,
                      "their_seconds": args.their_time, "seconds": round(time.time() - start)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
