"""Game-end rules (FIDE, as a GUI applies them) and score-based draw/resign adjudication."""

from __future__ import annotations

from dataclasses import dataclass

import chess


@dataclass(frozen=True)
class AdjudicationRules:
    """Thresholds; a movecount of 0 disables that rule, max_plies 0 disables the cap."""

    draw_movenumber: int = 40  # draw rule active from this full-move number on
    draw_movecount: int = 8  # consecutive moves by *each* side with |score| <= draw_score
    draw_score: int = 10  # centipawns
    resign_movecount: int = 5  # consecutive moves by each side agreeing on the loser
    resign_score: int = 1000  # centipawns
    max_plies: int = 300  # game drawn by adjudication after this many plies (0 = no cap)


class Adjudicator:
    """Tracks engine scores ply by ply and decides draw/resign adjudications.

    Every ply the engine that just moved reports its score, converted to
    White's point of view (None if it sent none, which resets both counters).
    Because the plies alternate between the two engines, N consecutive moves
    "by both engines" means 2N consecutive qualifying plies.
    """

    def __init__(self, rules: AdjudicationRules) -> None:
        """Start with empty counters."""
        self.rules = rules
        self.draw_run = 0
        self.resign_run = 0
        self.resign_loser: str | None = None  # "white" or "black"

    def update(self, fullmove: int, white_cp: int | None) -> tuple[str, str] | None:
        """Feed one ply (full-move number of the move played, score in cp for White).

        Returns (result, reason) such as ("1/2-1/2", "draw adjudication") or
        ("0-1", "resign adjudication: white is losing"), or None to play on.
        """
        r = self.rules
        if white_cp is None:
            self.draw_run = self.resign_run = 0
            self.resign_loser = None
            return None

        if fullmove >= r.draw_movenumber and abs(white_cp) <= r.draw_score:
            self.draw_run += 1
        else:
            self.draw_run = 0

        loser = "white" if white_cp <= -r.resign_score else "black" if white_cp >= r.resign_score else None
        if loser is not None and loser == self.resign_loser:
            self.resign_run += 1
        else:
            self.resign_run = 1 if loser else 0
        self.resign_loser = loser

        if r.resign_movecount > 0 and loser and self.resign_run >= 2 * r.resign_movecount:
            return ("0-1" if loser == "white" else "1-0", f"resign adjudication: {loser} is losing")
        if r.draw_movecount > 0 and self.draw_run >= 2 * r.draw_movecount:
            return ("1/2-1/2", "draw adjudication")
        return None


def rules_outcome(board: chess.Board) -> tuple[str, str] | None:
    """(result, reason) if the game is over by the rules, else None.

    Checkmate, stalemate, insufficient material, 75-move and fivefold come
    from board.outcome(); threefold repetition and the fifty-move rule are
    applied as soon as they have actually *occurred* (as cutechess does),
    not when the side to move merely could claim them with its next move.
    """
    outcome = board.outcome()
    if outcome is not None:
        return outcome.result(), outcome.termination.name.lower().replace("_", " ")
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "fifty-move rule"
    return None
