"""The robot's judgement, whatever runs its searches: its name, when it takes a draw offer, when it
claims a draw, how long it pauses like a person, and how hints and judgements are searched.

Every decision is a plain function of a score and a position, so that `jitfish play` (in-process
`Searcher`s) and `jitfish web` (UCI subprocesses) decide alike. Scores are centipawns from a short
full-strength search (the adviser), mates clipped to +-SCORE_CLIP_CP. The robot never resigns:
a game against it ends by the rules, a claim, an agreed draw, the person's resignation or a flag.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from engine.defs import BISHOP, KNIGHT, PIECE_VALUES, QUEEN, ROOK
from search.levels import FULL_STRENGTH_ELO

from jitfish.clock import Clock

HINT_SECONDS = 1.0             # the adviser's search for a hint
JUDGE_SECONDS = 0.4            # ... and for judging a draw offer or claim
CLAIM_BELOW_CP = 30            # the robot claims a repetition or fifty-move draw unless better by more
SCORE_CLIP_CP = 10000          # mates count as this much

# Non-pawn material in centipawns (engine.defs.PIECE_VALUES), by python-chess piece type.
PHASE_VALUES = {chess.KNIGHT: int(PIECE_VALUES[KNIGHT]), chess.BISHOP: int(PIECE_VALUES[BISHOP]),
                chess.ROOK: int(PIECE_VALUES[ROOK]), chess.QUEEN: int(PIECE_VALUES[QUEEN])}
ENDGAME_MATERIAL = 2000        # pieces worth 20 pawns or less in all: an endgame
OPENING_MATERIAL = 5000        # of the 62 pawns' worth at the start, little traded yet
OPENING_MOVES = 15


@dataclass(frozen=True)
class Suggestion:
    """The adviser's best move and its score from the side to move's view."""
    move: chess.Move
    score_cp: int


def clip_score(score_cp: int) -> int:
    return max(-SCORE_CLIP_CP, min(SCORE_CLIP_CP, score_cp))


def score_for(suggestion: Suggestion, board: chess.Board, colour: chess.Color) -> int:
    """The suggestion's score (searched in `board`) from `colour`'s view."""
    return suggestion.score_cp if board.turn == colour else -suggestion.score_cp


def robot_name(elo: int) -> str:
    """What the robot is called on screen and in the PGN: 'Jitfish', or 'Jitfish 800' below full strength."""
    return "Jitfish" if elo >= FULL_STRENGTH_ELO else f"Jitfish {elo}"


def material_phase(board: chess.Board) -> int:
    """Non-pawn material of both sides in centipawns (6200 at the start, 0 with kings and pawns)."""
    return sum(len(board.pieces(piece, colour)) * value
               for piece, value in PHASE_VALUES.items() for colour in chess.COLORS)


def accepts_draw(score_cp: int, board: chess.Board) -> bool:
    """Whether the robot takes a draw offer, from its side's score and the phase of the game:
    early it plays on unless clearly worse, in the middlegame it accepts when somewhat worse, in
    an endgame when it is not clearly better."""
    material = material_phase(board)
    if material <= ENDGAME_MATERIAL:
        return score_cp <= 25
    if board.fullmove_number <= OPENING_MOVES and material >= OPENING_MATERIAL:
        return score_cp <= -150
    return score_cp <= -50


def claims_draw(score_cp: int) -> bool:
    """Whether the robot, to move, claims the threefold-repetition or fifty-move draw it may
    claim, from its score: when it is not better."""
    return score_cp <= CLAIM_BELOW_CP


def human_pause(elo: int, clock: Clock | None, colour: chess.Color, ply: int, now: float,
                rng: random.Random) -> float:
    """Seconds a weak level waits before it moves, like a person thinking: short in the opening,
    longer later, and never more than a small share of its clock (it is charged to it). Full
    strength uses its clock as it likes and gets no pause."""
    if elo >= FULL_STRENGTH_ELO:
        return 0.0
    pause = rng.uniform(0.4, 1.2) if ply < 10 else rng.uniform(0.8, 2.6)
    if clock is not None and clock.running is not None:
        left = clock.remaining(colour, now) + clock.delay_left(colour, now)
        moves = clock.moves_to_go(colour) or 30
        share = 0.5 * max(0.0, left - 1.0) / max(moves, 10) + 0.5 * clock.increment(colour)
        pause = min(pause, share)
    return max(0.0, pause)
