"""One game of checkers for a front end (the browser game): the position and its moves, the
clock, the draws, take-backs, the result and how the game ended, and the record as PDN.

The rules are the checkers package's (American/WCDF: compulsory jumps, multi-jumps finished,
crowning ends the move); this module applies the game's: a player who cannot move has lost; a
draw is agreed, or claimed by the side to move on a threefold repetition or under the 40-move
rule (40 moves of each player with no man moved and nothing taken); a flag loses (there is no
"cannot win" exception in checkers); a resignation ends it too.

Colours are python-chess's booleans (True is White, False is Black) so that the shared clock
(jitfish/clock.py) and the page's words ("white", "black") serve both games; Black moves first.
No I/O: the caller reads `now` from a monotonic clock (an untimed game may leave it at 0).

PDN: the tags (Black first, as American files have them), `[GameType "21"]`, a set-up
position's `[FEN]`, the moves `1. 11-15 23-19 2. 8-11 …` with every landing square of a jump,
each move's clock as `{[%clk 0:04:58]}`, and how the game ended as the last comment. The
result is Black's score first: `1-0` Black won, `0-1` White won, `1/2-1/2` a draw.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import chess

from checkers.board import Board
from checkers.defs import BLACK as CK_BLACK, WHITE as CK_WHITE
from checkers.move import captured, move_crowns
from checkers.notation import START_FEN, FenError, MoveError

from jitfish.clock import SideState, TimeControl
from jitfish.game_base import BaseGame, GameError
from jitfish.i18n import N_, Msg

GAME_TYPE = "21"                   # PDN's number for American checkers / English draughts
FORTY_MOVE_PLIES = 80
CLAIMED = {                        # a claimed draw as the result line says it, by the claimant
    ("forty", chess.WHITE): N_("Draw by the 40-move rule (claimed by White)"),
    ("forty", chess.BLACK): N_("Draw by the 40-move rule (claimed by Black)"),
    ("threefold", chess.WHITE): N_("Draw by threefold repetition (claimed by White)"),
    ("threefold", chess.BLACK): N_("Draw by threefold repetition (claimed by Black)"),
}
CLAIMS = {"forty": "the 40-move rule", "threefold": "threefold repetition"}   # English (PDN, logs)


def colour_of(checkers_colour: int) -> chess.Color:
    """The game's colour (python-chess's boolean) of a checkers package colour."""
    return chess.WHITE if checkers_colour == CK_WHITE else chess.BLACK


def checkers_colour(colour: chess.Color) -> int:
    """The checkers package's colour of the game's colour."""
    return CK_WHITE if colour == chess.WHITE else CK_BLACK


@dataclass
class CheckersPly:
    """One move of the record: its code, notation, squares, what it took, and the clocks."""
    move: int
    text: str                                        # 11-15, 15x24x31
    path: list[int]                                  # from, every landing square (1-32)
    captures: list[int]                              # the squares of the pieces taken
    crown: bool
    clock_after: float | None
    clock_before: tuple[SideState, SideState] | None


class CheckersGame(BaseGame):
    """A checkers game in progress or finished, against the robot (`human` the person's colour)
    or between two people (`human` None); `start` may carry moves already played (a pasted PDN)."""

    def __init__(self, start: Board, human: chess.Color | None, control: TimeControl = TimeControl(),
                 takeback: bool = True) -> None:
        super().__init__(human, control, takeback)
        self.root_fen = start.root_fen
        self.board = Board(self.root_fen)
        self.plies: list[CheckersPly] = []
        for move in start.moves_played:              # a PDN set-up: its moves begin the record
            self._record(move, None, None)
        self.first_live_ply = len(self.plies)       # the first move played here is not timed
        self._check_position_end()

    # ---- who plays ----

    @property
    def turn(self) -> chess.Color:
        return colour_of(self.board.turn)

    # ---- moves ----

    def legal_paths(self) -> list[list[int]]:
        """Every legal move as its squares: from, then every landing square."""
        return [self.board.squares(move) for move in self.board.legal_moves()]

    def jump_compulsory(self) -> bool:
        """The legal moves are jumps (then no plain move may be made)."""
        return any(self._is_jump(move) for move in self.board.legal_moves())

    def _is_jump(self, move: int) -> bool:
        return captured(self.board.tab, move) != 0

    def resolve(self, path: object) -> int:
        """The legal move the page's path names: every square (`[15, 24, 31]`), or only the ends
        of a jump when one legal jump fits. GameError says why not (a jump is compulsory, not
        legal here, or which jumps it could be)."""
        if not isinstance(path, list) or not 2 <= len(path) <= 10 or \
                not all(isinstance(sq, int) and not isinstance(sq, bool) and 1 <= sq <= 32 for sq in path):
            raise GameError(Msg("a move is a list of squares from 1 to 32"))
        legal = self.board.legal_moves()
        exact = [move for move in legal if self.board.squares(move) == path]
        if len(exact) == 1:
            return exact[0]
        ends = [move for move in legal if self._is_jump(move) and len(path) == 2 and
                self.board.squares(move)[0] == path[0] and self.board.squares(move)[-1] == path[-1]]
        if len(ends) == 1:
            return ends[0]
        if len(ends) > 1:
            raise GameError(Msg("{move} could be more than one jump: {moves}", move="x".join(map(str, path)),
                                moves=", ".join(self.board.notation(move) for move in ends)))
        raise self._refusal(path[0], path[-1], len(path) == 2 and not self._is_jump_shape(path))

    @staticmethod
    def _is_jump_shape(path: list[int]) -> bool:
        """Whether two squares are a jump's distance apart (two rows) rather than a step's."""
        row = lambda sq: (sq - 1) // 4                # noqa: E731
        return abs(row(path[0]) - row(path[1])) == 2

    def _refusal(self, origin: int, target: int, plain: bool) -> GameError:
        """Why a move from `origin` to `target` cannot be made: a jump is compulsory (the seed's
        "stuck" game), or it is not legal."""
        if plain and self.jump_compulsory():
            return GameError(Msg("A jump is compulsory: take a piece (the jumps: {moves})",
                                 moves=", ".join(self.board.notation(m) for m in self.board.legal_moves())))
        written = "-".join((str(origin), str(target)))
        return GameError(Msg("{move} is not a legal move here", move=written))

    def parse_text(self, text: object) -> int:
        """A legal move typed as `11-15`, `15x24x31` or `15x31`."""
        if not isinstance(text, str) or not 0 < len(text.strip()) <= 40:
            raise GameError(Msg("type a move such as {examples}", examples="11-15, 15x24"))
        written = text.strip().lower().replace(" ", "")
        try:
            return self.board.parse_move(written)
        except MoveError as exc:
            squares = [int(part) for part in re.split(r"[-x]", written) if part.isdigit()]
            if "ambiguous" in str(exc):
                raise GameError(Msg("{move} could be more than one jump: write every landing square",
                                    move=written)) from None
            if len(squares) >= 2 and re.fullmatch(r"\d{1,2}-\d{1,2}", written):
                raise self._refusal(squares[0], squares[-1], True) from None
            if re.fullmatch(r"\d{1,2}(x\d{1,2})+", written):
                raise GameError(Msg("{move} is not a legal move here", move=written)) from None
            raise GameError(Msg("type a move such as {examples}", examples="11-15, 15x24")) from None

    def play(self, move: int, now: float = 0.0) -> CheckersPly:
        """Make a legal move at `now` (the caller has checked the flag). Ends the game when the
        opponent then has no move."""
        if self.over:
            raise GameError(Msg("the game is over"))
        if move not in self.board.legal_moves():
            raise GameError(Msg("{move} is not a legal move", move=str(move)))
        mover = self.turn
        before, clock_after = self._press_clock(mover, now)
        ply = self._record(move, clock_after, before)
        self._moved(mover, now)
        return ply

    def _record(self, move: int, clock_after: float | None,
                clock_before: tuple[SideState, SideState] | None) -> CheckersPly:
        board = self.board
        taken = int(captured(board.tab, move))
        ply = CheckersPly(move, board.notation(move), board.squares(move),
                          [i + 1 for i in range(32) if taken >> i & 1], bool(move_crowns(move)),
                          clock_after, clock_before)
        board.push(move)
        self.plies.append(ply)
        return ply

    def _check_position_end(self) -> None:
        if self.over or self.board.legal_moves():
            return
        if self.turn == chess.WHITE:
            self._end("1-0", Msg("White has no move left: Black wins"), "normal")
        else:
            self._end("0-1", Msg("Black has no move left: White wins"), "normal")

    # ---- the clock ----

    def check_flag(self, now: float) -> bool:
        """End the game if the side to move has run out of time: a flag loses."""
        flagged = self._flagged(now)
        if flagged is None:
            return False
        if flagged == chess.WHITE:
            self._end("1-0", Msg("White ran out of time: Black wins"), "time forfeit")
        else:
            self._end("0-1", Msg("Black ran out of time: White wins"), "time forfeit")
        return True

    # ---- draws, resignation, take-backs ----

    def claimable(self) -> str | None:
        """The draw the side to move may claim now: 'forty' (40 moves of each player with no man
        moved and nothing taken) or 'threefold' (this position, the same side to move, for the
        third time)."""
        if self.over:
            return None
        if self.board.quiet_plies >= FORTY_MOVE_PLIES:
            return "forty"
        if self.board.repetitions() >= 2:
            return "threefold"
        return None

    def claim_draw(self, now: float = 0.0) -> None:
        kind = self.claimable()
        if kind is None:
            raise GameError(Msg("there is no draw to claim: threefold repetition or the 40-move rule is needed"))
        self._end("1/2-1/2", Msg(CLAIMED[kind, self.turn]), "normal", now)

    def resign(self, colour: chess.Color, now: float = 0.0) -> None:
        if self.over:
            raise GameError(Msg("the game is over"))
        self._end("1-0" if colour == chess.WHITE else "0-1",
                  Msg("White resigns: Black wins") if colour == chess.WHITE else Msg("Black resigns: White wins"),
                  "normal", now)

    # ---- the record ----

    def pdn(self, headers: dict[str, str]) -> str:
        """The game as PDN (see the module's docstring); `headers` from the front end (Event,
        Site, Black, White...)."""
        tags = {"Event": "Casual game", "Site": "?", "Date": self.date.strftime("%Y.%m.%d"), "Round": "-",
                "Black": "?", "White": "?"}
        tags.update(headers)
        tags["Result"] = self.result
        tags["GameType"] = GAME_TYPE
        tags["TimeControl"] = self.control.pgn_tag()
        if self.termination:
            tags["Termination"] = self.termination
        if self.root_fen != START_FEN:
            tags["FEN"] = self.root_fen
        lines = [f'[{key} "{_escape(value)}"]' for key, value in tags.items()]
        tokens: list[str] = []
        black_first = self.root_fen.startswith("B")
        number = 1
        for index, ply in enumerate(self.plies):
            black_move = (index % 2 == 0) == black_first
            if black_move:
                tokens.append(f"{number}.")
            elif index == 0:
                tokens.append(f"{number}...")
            tokens.append(ply.text)
            if ply.clock_after is not None:
                tokens.append("{[%clk " + _clock_text(ply.clock_after) + "]}")
            if not black_move:
                number += 1
        if self.reason:
            tokens.append("{" + str(self.reason).replace("}", ")") + "}")
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def _escape(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _clock_text(seconds: float) -> str:
    whole = int(math.floor(max(0.0, seconds)))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines)


# ---- reading a pasted position or game ----

_TAG = re.compile(r'^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_MOVE = re.compile(r"^\d{1,2}(?:[-x]\d{1,2})+$", re.IGNORECASE)
_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}


def read_start(text: str) -> tuple[Board, dict[str, str]]:
    """The board a pasted text starts the game from, with a pasted PDN's tags: "" is the start;
    a PDN FEN (`B:W21,…:B1,…`, or its [FEN "…"] tag) a position; a PDN game (tags and/or
    moves) its last position with its moves played. GameError says what cannot be read."""
    text = text.strip()
    if not text:
        return Board(), {}
    if re.match(r"[A-Za-z]\s*:", text):
        try:
            return Board(text), {}
        except FenError as exc:
            raise GameError(Msg("not a checkers position: {problem}", problem=str(exc))) from None
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        match = _TAG.match(line)
        if match:
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        else:
            body.append(line)
    if tags.get("GameType") and tags["GameType"].split(",")[0].strip() != GAME_TYPE:
        raise GameError(Msg("that PDN is not a game of American checkers (GameType {number})",
                            number=tags["GameType"]))
    try:
        board = Board(tags["FEN"]) if tags.get("FEN") else Board()
    except FenError as exc:
        raise GameError(Msg("not a checkers position: {problem}", problem=str(exc))) from None
    moves_text = re.sub(r"\{[^}]*\}|\([^)]*\)|;[^\n]*", " ", "\n".join(body))
    for token in moves_text.split():
        if _NUMBER.match(token) or token in _RESULTS:
            continue
        token = re.sub(r"^\d+\.(\.\.)?", "", token).rstrip("!?*")
        if not token:
            continue
        if not _MOVE.match(token):
            raise GameError(Msg("{text} is neither a move nor a part of a PDN game", text=token[:40]))
        try:
            board.push_notation(token.lower())
        except MoveError:
            raise GameError(Msg("{move} is not a legal move here", move=token)) from None
    return board, {key: value for key, value in tags.items() if value.strip().strip("?.")}
