"""One game for every front end (`jitfish play` in the terminal, `jitfish web` in the browser): the
position and its moves, the clock, the result and how the game ended.

Every rule comes from python-chess (legality, SAN, checkmate and the draws, claims, PGN), applied
as FIDE does: checkmate, stalemate, insufficient material, fivefold repetition and the 75-move
rule end the game by themselves; threefold repetition and the fifty-move rule are draws the side
to move may claim (FIDE 9.2, 9.3); a flag loses unless the opponent cannot mate (FIDE 6.9); a
resignation or an accepted draw offer ends it too. No I/O: the caller reads `now` from a
monotonic clock (an untimed game may leave it at 0).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import chess
import chess.pgn

from jitfish.clock import SideState, TimeControl, flag_result
from jitfish.game_base import BaseGame, GameError, colour_name
from jitfish.i18n import N_, Moves, Msg, letters

COLOURS = {"white": chess.WHITE, "black": chess.BLACK}
ENDINGS = {                        # how the position ends a drawn game, as the result line says it
    chess.Termination.STALEMATE: N_("Draw by stalemate"),
    chess.Termination.INSUFFICIENT_MATERIAL: N_("Draw by insufficient material"),
    chess.Termination.SEVENTYFIVE_MOVES: N_("Draw by the 75-move rule"),
    chess.Termination.FIVEFOLD_REPETITION: N_("Draw by fivefold repetition"),
}
CLAIMS = {"fifty": "the fifty-move rule", "threefold": "threefold repetition"}   # English (PGN, logs)
CLAIMED = {                        # a claimed draw as the result line says it, by the claimant
    ("fifty", chess.WHITE): N_("Draw by the fifty-move rule (claimed by White)"),
    ("fifty", chess.BLACK): N_("Draw by the fifty-move rule (claimed by Black)"),
    ("threefold", chess.WHITE): N_("Draw by threefold repetition (claimed by White)"),
    ("threefold", chess.BLACK): N_("Draw by threefold repetition (claimed by Black)"),
}


def side_name(colour: chess.Color) -> str:
    return "White" if colour == chess.WHITE else "Black"


# ---- the game ----

def landing_square(move: chess.Move, castle: bool) -> int:
    """Where the moving piece lands: for castling the king's own square (python-chess may write
    castling as the king taking its rook)."""
    if castle:
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        return chess.square(6 if kingside else 2, chess.square_rank(move.from_square))
    return move.to_square


def _typed_moves(board: chess.Board, text: str) -> set[chess.Move]:
    """The legal moves `text` can mean: UCI (any case, a space or dash allowed between the two
    squares), else SAN as typed, then with its case mended (the piece letter upper case, files
    lower case) and castling written with zeros or small o's."""
    squashed = re.sub(r"^([a-hA-H][1-8])[\s-]+([a-hA-H][1-8])", r"\1\2", text)
    if _UCI.fullmatch(squashed.lower()):
        try:
            return {board.parse_uci(squashed.lower())}
        except ValueError:
            return set()
    spellings = [text, text.lower()]
    if text[:1].lower() in "nbrqk" and len(text) > 1:
        spellings.append(text[0].upper() + text[1:].lower())
    if "=" in text:
        head, _, piece = text.lower().partition("=")
        spellings.append(f"{head}={piece.upper()}")
    if _CASTLE.fullmatch(text):
        spellings.append(re.sub(r"[0o]", "O", text.upper()))
    found: set[chess.Move] = set()
    for spelling in spellings:
        try:
            found.add(board.parse_san(spelling))
        except ValueError:
            continue
    exact = [move for move in found if board.san(move) == text]
    return set(exact) if len(found) > 1 and exact else found


def _missing_promotion(board: chess.Board, text: str) -> str:
    """`a8=Q, a8=R, a8=B, a8=N` when `text` names a promotion without its piece, else ''."""
    squares = re.findall(r"[a-h][1-8]", text.lower())
    if not squares:
        return ""
    target = chess.parse_square(squares[-1])
    origin = chess.parse_square(squares[0]) if len(squares) > 1 else None
    moves = [m for m in board.legal_moves if m.promotion and m.to_square == target
             and (origin is None or m.from_square == origin)]
    if not moves:
        return ""
    queen = next(m for m in moves if m.promotion == chess.QUEEN)
    stem = re.sub(r"=Q[+#]?$", "", board.san(queen))
    if origin is not None:
        stem = queen.uci()[:4]
        return ", ".join(stem + p for p in "qrbn")
    return ", ".join(f"{stem}={p}" for p in "QRBN")


# What a player may write after a move and the rules do not need: `!?`-style marks, `e.p.`.
_NOTES = re.compile(r"(?:\s*(?:[!?]+|e\.\s?p\.?|ep))+$", re.IGNORECASE)
_CASTLE = re.compile(r"[0oO]-[0oO](-[0oO])?[+#]?")
_UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


@dataclass
class Ply:
    """One move of the record: the move, its SAN and the mover's clock after it (PGN %clk)."""
    move: chess.Move
    san: str
    clock_after: float | None
    clock_before: tuple[SideState, SideState] | None     # both clocks when the position arose
    capture: bool = False
    castle: bool = False

    @property
    def target(self) -> int:
        """Where the moving piece landed (a castling king's own square)."""
        return landing_square(self.move, self.castle)


class Game(BaseGame):
    """A chess game in progress or finished, against the robot (`human` is the person's colour)
    or between two people (`human` None). Colours are python-chess's (True is White)."""

    def __init__(self, start: chess.Board, human: chess.Color | None, control: TimeControl = TimeControl(),
                 takeback: bool = True) -> None:
        super().__init__(human, control, takeback)
        self.root = start.root()
        self.board = self.root.copy()
        self.plies: list[Ply] = []
        for move in start.move_stack:               # a PGN set-up: its moves begin the record
            self._record(move, None, None)
        self.first_live_ply = len(self.plies)       # the first move played here is not timed
        self._check_position_end()

    # ---- who plays ----

    @property
    def turn(self) -> chess.Color:
        return self.board.turn

    # ---- moves ----

    def parse_text(self, text: object) -> chess.Move:
        """A legal move typed as SAN or UCI (`Nf3`, `O-O`, `e7e8=Q`, `e2e4`, `e7e8q`), forgiving
        what cannot be misread: letter case (`nf3`, `E4`), a space or dash between two squares
        (`e2 e4`), zeros for castling, marks after the move (`Nf3!?`, `exd6 e.p.`). GameError says why a text is no move here: a promotion
        without its piece, or two moves it could mean (`bxc3`: the pawn or the bishop?)."""
        if not isinstance(text, str) or not 0 < len(text.strip()) <= 12:
            raise GameError(Msg("type a move such as {examples}", examples=Moves("e4, Nf3, O-O, e2e4")))
        text = letters(text.strip())
        found = _typed_moves(self.board, _NOTES.sub("", text) or text)
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            names = sorted(self.board.san(move) for move in found)
            if len(names) == 2:
                raise GameError(Msg("{text} could be {first} or {second}: type the one you mean", text=Moves(text),
                                    first=Moves(names[0]), second=Moves(names[1])))
            raise GameError(Msg("{text} could be any of {moves}: type the one you mean", text=Moves(text),
                                moves=Moves(", ".join(names))))
        promotion = _missing_promotion(self.board, text)
        if promotion:
            q, r, b, n = (Moves(spelling) for spelling in promotion.split(", "))
            raise GameError(Msg("{text} promotes: add the piece, {queen}, {rook}, {bishop} or {knight}",
                                text=Moves(text), queen=q, rook=r, bishop=b, knight=n))
        raise GameError(Msg("{text} is not a legal move here", text=Moves(text)))

    def play(self, move: chess.Move, now: float = 0.0) -> Ply:
        """Make a legal move at `now` (the caller has checked the flag). Ends the game when the
        position does."""
        if self.over:
            raise GameError(Msg("the game is over"))
        if move not in self.board.legal_moves:
            raise GameError(Msg("{move} is not a legal move", move=move.uci()))
        mover = self.board.turn
        before, clock_after = self._press_clock(mover, now)
        ply = self._record(move, clock_after, before)
        self._moved(mover, now)
        return ply

    def _record(self, move: chess.Move, clock_after: float | None,
                clock_before: tuple[SideState, SideState] | None) -> Ply:
        ply = Ply(move, self.board.san(move), clock_after, clock_before, self.board.is_capture(move),
                  self.board.is_castling(move))
        self.board.push(move)
        self.plies.append(ply)
        return ply

    def _check_position_end(self) -> None:
        outcome = self.board.outcome(claim_draw=False)
        if outcome is None:
            return
        if outcome.winner is not None:
            self._end(outcome.result(), Msg("Checkmate: White wins") if outcome.winner == chess.WHITE
                      else Msg("Checkmate: Black wins"), "normal")
        else:
            self._end("1/2-1/2", Msg(ENDINGS.get(outcome.termination, N_("Draw"))), "normal")

    # ---- the clock ----

    def check_flag(self, now: float) -> bool:
        """End the game if the side to move has run out of time (FIDE 6.9 for the result)."""
        flagged = self._flagged(now)
        if flagged is None:
            return False
        result, reason = flag_result(self.board, flagged)
        self._end(result, reason, "time forfeit")
        return True

    # ---- draws, resignation, take-backs ----

    def claimable(self) -> str | None:
        """The draw the side to move may claim now ('fifty' or 'threefold'): the position has
        occurred three times or fifty moves passed without a capture or pawn move, or one of its
        legal moves makes it so (FIDE 9.2, 9.3)."""
        if self.over:
            return None
        if self.board.can_claim_fifty_moves():
            return "fifty"
        if self.board.can_claim_threefold_repetition():
            return "threefold"
        return None

    def claim_draw(self, now: float = 0.0) -> None:
        """The side to move claims the draw it may claim."""
        kind = self.claimable()
        if kind is None:
            raise GameError(Msg("there is no draw to claim: threefold repetition or fifty moves are needed"))
        self._end("1/2-1/2", Msg(CLAIMED[kind, self.board.turn]), "normal", now)

    def resign(self, colour: chess.Color, now: float = 0.0) -> None:
        if self.over:
            raise GameError(Msg("the game is over"))
        self._end("0-1" if colour == chess.WHITE else "1-0",
                  Msg("White resigns: Black wins") if colour == chess.WHITE else Msg("Black resigns: White wins"),
                  "normal", now)

    # ---- the record ----

    def pgn(self, headers: dict[str, str]) -> str:
        """The game as PGN: the front end's `headers` (Event, Site, White, Black, Elo tags), the
        date, result, time control and termination, the set-up position, each move's clock as a
        [%clk] comment and how the game ended as the last comment."""
        record = chess.pgn.Game()
        tags = record.headers
        tags["Date"] = self.date.strftime("%Y.%m.%d")
        tags["Round"] = "-"
        tags.update(headers)
        tags["Result"] = self.result
        tags["TimeControl"] = self.control.pgn_tag()
        delay = self.control.pgn_delay_tag()
        if delay:
            tags["TimeControlDelay"] = delay
        if self.termination:
            tags["Termination"] = self.termination
        if self.root.fen() != chess.STARTING_FEN or self.root.chess960:
            record.setup(self.root)                 # FEN and SetUp headers; Variant for Chess960
        node: chess.pgn.GameNode = record
        for ply in self.plies:
            node = node.add_variation(ply.move)
            if ply.clock_after is not None:          # whole seconds, as lichess writes them
                node.set_clock(float(math.floor(max(0.0, ply.clock_after))))
        if self.reason:
            node.comment = (node.comment + " " if node.comment else "") + str(self.reason)
        return str(record.accept(chess.pgn.StringExporter(headers=True, variations=False, comments=True))) + "\n"
