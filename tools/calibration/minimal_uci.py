"""The smallest UCI loop a match runner accepts, shared by the calibration's non-engine players
(the floor anchors, the human model): it answers uci and isready, keeps the position, and asks
its caller for the move at each go."""

from __future__ import annotations

import sys
from collections.abc import Callable

# (FEN or None for the start position, the moves played since) -> the move in UCI, None if none
MoveFor = Callable[[str | None, list[str]], str | None]


def serve(name: str, move_for: MoveFor) -> None:
    """Answer UCI on stdin/stdout as `name` until quit or end of input."""
    fen, moves = None, []
    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            print(f"id name {name}\nid author the Jitfish developers\nuciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position" and len(tokens) > 1:
            moves_at = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen = None if tokens[1] == "startpos" else " ".join(tokens[2:moves_at])
            moves = tokens[moves_at + 1:]
        elif command == "go":
            print(f"bestmove {move_for(fen, moves) or '0000'}", flush=True)
        elif command == "quit":
            return
