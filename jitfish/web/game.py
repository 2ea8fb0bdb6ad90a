"""One game of `jitfish web`: its settings, the position and its history, the clock and the result.

Every rule comes from python-chess (legality, SAN, checkmate and the draws, claims, PGN); this
module only keeps the record and says what the page may show and do. No I/O: the session drives
it, with `now` read from a monotonic clock.
"""

from __future__ import annotations

import datetime
import io
import random
from dataclasses import dataclass
from typing import Any

import chess
import chess.pgn

from search.levels import FULL_STRENGTH_ELO, MIN_ELO

from jitfish.web.clock import PRESETS, Clock, ClockError, SideState, TimeControl, flag_result

MAX_POSITION_TEXT = 20000          # characters of FEN or PGN accepted for a set-up
COLOURS = {"white": chess.WHITE, "black": chess.BLACK}


class GameError(ValueError):
    """A request the game cannot carry out (the message is for the page's status line)."""


def colour_name(colour: chess.Color) -> str:
    return "white" if colour == chess.WHITE else "black"


@dataclass(frozen=True)
class Settings:
    """What the player chose for a game (validated; `from_json` reads the page's message)."""
    opponent: str = "robot"            # "robot" or "human" (a friend at the same screen)
    color: str = "white"               # the person's colour against the robot: white, black or random
    elo: int = 1200                    # the robot's level
    clock: TimeControl = TimeControl()
    clock_name: str = "none"           # the preset's name, or "custom"
    takeback: bool = True
    pause: bool = True                 # a weak robot pauses like a person before it moves
    chess960: bool = False
    position: str = ""                 # FEN or PGN to start from ("": the standard or a random 960 start)

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "color": self.color, "elo": self.elo, "clock": self.clock_name,
                "clock_spec": self.clock.to_spec(), "clock_label": self.clock.describe(),
                "takeback": self.takeback, "pause": self.pause, "chess960": self.chess960, "position": self.position}

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        if not isinstance(data, dict):
            raise GameError("the game settings must be an object")
        opponent = data.get("opponent", "robot")
        if opponent not in ("robot", "human"):
            raise GameError("opponent must be robot or human")
        color = data.get("color", "white")
        if color not in ("white", "black", "random"):
            raise GameError("colour must be white, black or random")
        elo = data.get("elo", 1200)
        if isinstance(elo, str) and elo.strip().isdigit():
            elo = int(elo)
        if isinstance(elo, bool) or not isinstance(elo, int) or not MIN_ELO <= elo <= FULL_STRENGTH_ELO:
            raise GameError(f"level must be an Elo from {MIN_ELO} to {FULL_STRENGTH_ELO}")
        clock_name = data.get("clock", "none")
        try:
            if clock_name == "custom":
                clock = TimeControl.from_spec(data.get("clock_spec"))
            elif isinstance(clock_name, str) and clock_name in PRESETS:
                clock = PRESETS[clock_name]
            else:
                raise GameError(f"unknown clock {str(clock_name)[:40]!r}")
        except ClockError as exc:
            raise GameError(f"clock: {exc}") from None
        flags = {}
        for name in ("takeback", "pause", "chess960"):
            value = data.get(name, getattr(cls, name))
            if not isinstance(value, bool):
                raise GameError(f"{name} must be true or false")
            flags[name] = value
        position = data.get("position", "")
        if not isinstance(position, str) or len(position) > MAX_POSITION_TEXT:
            raise GameError(f"the start position must be FEN or PGN text of at most {MAX_POSITION_TEXT} characters")
        return cls(opponent, color, elo, clock, clock_name, position=position.strip(), **flags)


def start_board(settings: Settings, rng: random.Random) -> chess.Board:
    """The board the game starts from: the set-up FEN or PGN (with its moves), a random Chess960
    start, or the standard one. GameError says what is wrong with a set-up."""
    text = settings.position
    if not text:
        if settings.chess960:
            return chess.Board.from_chess960_pos(rng.randrange(960))
        return chess.Board()
    if text.isdigit() and settings.chess960:
        number = int(text)
        if not 0 <= number <= 959:
            raise GameError("a Chess960 start number is 0 to 959")
        return chess.Board.from_chess960_pos(number)
    if text.startswith("[") or text.startswith("1.") or "\n" in text:
        return _board_from_pgn(text, settings.chess960)
    try:
        board = chess.Board(text, chess960=settings.chess960)
    except ValueError as exc:
        raise GameError(f"invalid FEN: {exc}") from None
    _check_playable(board)
    return board


def _board_from_pgn(text: str, chess960: bool) -> chess.Board:
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise GameError("no game found in the PGN")
    if game.errors:
        raise GameError(f"the PGN does not read: {game.errors[0]}")
    variant = game.headers.get("Variant", "Standard").lower()
    if variant not in ("standard", "chess960", "fischerandom", "chess 960", "from position"):
        raise GameError(f"the PGN is a {game.headers['Variant']} game; only chess and Chess960 are played")
    board = game.board()
    if chess960:
        board.chess960 = True
    _check_playable(board)
    for move in game.mainline_moves():
        if move not in board.legal_moves:
            raise GameError(f"the PGN has an illegal move {move.uci()}")
        board.push(move)
    return board


def _check_playable(board: chess.Board) -> None:
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [name.removeprefix("STATUS_").lower().replace("_", " ") for name, flag in vars(chess).items()
                    if name.startswith("STATUS_") and flag and flag in chess.Status(status)]
        raise GameError("the position cannot occur in a game: " + ", ".join(problems))


@dataclass
class Ply:
    """One move of the record: the move, its SAN and the mover's clock after it (PGN %clk)."""
    move: chess.Move
    san: str
    clock_after: float | None
    clock_before: tuple[SideState, SideState] | None     # both clocks when the position arose
    target: int = 0                                       # where the page shows the piece go (a castling king's square)
    capture: bool = False
    castle: bool = False


class Game:
    """A game in progress or finished. Colours are python-chess's (True is White)."""

    def __init__(self, settings: Settings, rng: random.Random) -> None:
        self.settings = settings
        self.rng = rng
        start = start_board(settings, rng)
        self.root = start.root()
        self.board = self.root.copy()
        self.plies: list[Ply] = []
        for move in start.move_stack:               # a PGN set-up: its moves begin the record
            self.plies.append(Ply(move, self.board.san(move), None, None, self.display_target(move),
                                  self.board.is_capture(move), self.board.is_castling(move)))
            self.board.push(move)
        self.first_live_ply = len(self.plies)       # the first move played here is not timed
        if settings.opponent == "robot":
            choice = settings.color if settings.color != "random" else rng.choice(("white", "black"))
            self.human: chess.Color | None = COLOURS[choice]
        else:
            self.human = None                       # both sides are people
        self.clock = Clock(settings.clock) if settings.clock.timed else None
        self.result = "*"
        self.reason = ""
        self.termination = ""                       # PGN Termination: normal, time forfeit
        self.positional_end = False                 # the position ended it (mate, stalemate, a draw rule)
        self.draw_offer: chess.Color | None = None
        self.date = datetime.date.today()
        self._check_position_end()

    # ---- who plays ----

    def is_robot(self, colour: chess.Color) -> bool:
        return self.human is not None and colour != self.human

    @property
    def over(self) -> bool:
        return self.result != "*"

    def robot_to_move(self) -> bool:
        return not self.over and self.is_robot(self.board.turn)

    def player_name(self, colour: chess.Color) -> str:
        if self.human is None:
            return "White" if colour == chess.WHITE else "Black"
        if colour == self.human:
            return "You"
        elo = self.settings.elo
        return "Jitfish" if elo >= FULL_STRENGTH_ELO else f"Jitfish {elo}"

    # ---- moves ----

    def targets(self) -> dict[tuple[int, int], list[chess.Move]]:
        """Legal moves by (from square, to square) as the page drags them: castling both by the
        king's destination and by moving the king onto its rook (a king move to the same square
        wins over castling there); promotions list one move per piece."""
        board = self.board
        found: dict[tuple[int, int], list[chess.Move]] = {}
        castles = []
        for move in board.legal_moves:
            if board.is_castling(move):
                castles.append(move)
            else:
                found.setdefault((move.from_square, move.to_square), []).append(move)
        for move in castles:
            kingside = board.is_kingside_castling(move)
            rank = chess.square_rank(move.from_square)
            king_to = chess.square(6 if kingside else 2, rank)
            rook = move.to_square if board.chess960 else chess.square(7 if kingside else 0, rank)
            for square in (rook, king_to):
                if square != move.from_square and (move.from_square, square) not in found:
                    found[(move.from_square, square)] = [move]
        return found

    def display_target(self, move: chess.Move) -> int:
        """The square the page shows a move going to: a castling king's own destination."""
        if self.board.is_castling(move):
            rank = chess.square_rank(move.from_square)
            return chess.square(6 if self.board.is_kingside_castling(move) else 2, rank)
        return move.to_square

    def resolve(self, origin: Any, target: Any, promotion: Any = None) -> chess.Move:
        """The legal move from the page's drag (square names and a piece letter for a promotion)."""
        try:
            a, b = chess.parse_square(origin), chess.parse_square(target)
        except (ValueError, TypeError):
            raise GameError("a move needs two squares such as e2 and e4") from None
        moves = self.targets().get((a, b))
        if not moves:
            raise GameError(f"{origin}-{target} is not a legal move")
        if len(moves) == 1 and moves[0].promotion is None:
            return moves[0]
        piece = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT}.get(
            promotion.lower() if isinstance(promotion, str) else "")
        for move in moves:
            if move.promotion == piece:
                return move
        raise GameError("choose the piece to promote to (q, r, b or n)")

    def parse_text(self, text: Any) -> chess.Move:
        """A legal move typed as SAN or UCI (`Nf3`, `O-O`, `e7e8=Q`, `e2e4`, `e7e8q`)."""
        if not isinstance(text, str) or not 0 < len(text.strip()) <= 12:
            raise GameError("type a move such as e4, Nf3, O-O or e2e4")
        text = text.strip()
        for parse in (self.board.parse_san, lambda t: self.board.parse_uci(t.lower())):
            try:
                return parse(text)
            except ValueError:
                continue
        raise GameError(f"{text} is not a legal move here")

    def play(self, move: chess.Move, now: float) -> Ply:
        """Make a legal move at `now` (the caller has checked the flag). Ends the game when the
        position does."""
        if self.over:
            raise GameError("the game is over")
        if move not in self.board.legal_moves:
            raise GameError(f"{move.uci()} is not a legal move")
        mover = self.board.turn
        before = self.clock.state() if self.clock is not None else None
        clock_after = None
        if self.clock is not None:
            if self.clock.running is None:          # the first move is not timed: the clock starts now
                self.clock.start(mover, now)
            self.clock.press(mover, now)
            clock_after = self.clock.sides[mover].remaining
        ply = Ply(move, self.board.san(move), clock_after, before, self.display_target(move),
                  self.board.is_capture(move), self.board.is_castling(move))
        self.board.push(move)
        self.plies.append(ply)
        if self.draw_offer is not None and self.draw_offer != mover:
            self.draw_offer = None                  # moving declines the opponent's offer
        self._check_position_end()
        if self.over and self.clock is not None:
            self.clock.stop(now)
        return ply

    def _check_position_end(self) -> None:
        outcome = self.board.outcome(claim_draw=False)
        if outcome is None:
            return
        reasons = {
            chess.Termination.CHECKMATE: "checkmate",
            chess.Termination.STALEMATE: "stalemate",
            chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
            chess.Termination.SEVENTYFIVE_MOVES: "the 75-move rule",
            chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
        }
        reason = reasons.get(outcome.termination, outcome.termination.name.lower())
        if outcome.winner is not None:
            winner = "White" if outcome.winner == chess.WHITE else "Black"
            self._end(outcome.result(), f"Checkmate: {winner} wins", "normal")
        else:
            self._end("1/2-1/2", f"Draw by {reason}", "normal")
        self.positional_end = True

    def _end(self, result: str, reason: str, termination: str) -> None:
        self.result, self.reason, self.termination = result, reason, termination
        self.draw_offer = None
        self.positional_end = False

    # ---- the clock ----

    def check_flag(self, now: float) -> bool:
        """End the game if the side to move has run out of time (FIDE 6.9 for the result)."""
        if self.over or self.clock is None:
            return False
        flagged = self.clock.flagged(now)
        if flagged is None:
            return False
        self.clock.stop(now)
        result, reason = flag_result(self.board, flagged)
        self._end(result, reason, "time forfeit")
        return True

    # ---- draws, resignation, take-backs ----

    def claimable(self) -> str | None:
        """The draw the side to move may claim now: threefold repetition or the fifty-move rule."""
        if self.over:
            return None
        if self.board.can_claim_fifty_moves():
            return "fifty"
        if self.board.can_claim_threefold_repetition():
            return "threefold"
        return None

    def claim_draw(self, now: float) -> None:
        kind = self.claimable()
        if kind is None:
            raise GameError("there is no draw to claim: threefold repetition or fifty moves are needed")
        name = "White" if self.board.turn == chess.WHITE else "Black"
        text = "the fifty-move rule" if kind == "fifty" else "threefold repetition"
        self._end("1/2-1/2", f"Draw by {text} (claimed by {name})", "normal")
        if self.clock is not None:
            self.clock.stop(now)

    def resign(self, colour: chess.Color, now: float) -> None:
        if self.over:
            raise GameError("the game is over")
        loser = "White" if colour == chess.WHITE else "Black"
        winner = "Black" if colour == chess.WHITE else "White"
        self._end("0-1" if colour == chess.WHITE else "1-0", f"{loser} resigns: {winner} wins", "normal")
        if self.clock is not None:
            self.clock.stop(now)

    def offer_draw(self, colour: chess.Color) -> None:
        if self.over:
            raise GameError("the game is over")
        if self.draw_offer == colour:
            raise GameError("your draw offer stands: wait for the answer")
        if self.draw_offer is not None:
            raise GameError("a draw has been offered to you: accept or decline it")
        self.draw_offer = colour

    def answer_draw(self, colour: chess.Color, accept: bool, now: float) -> None:
        """The opponent of the side that offered accepts or declines."""
        if self.draw_offer is None or self.draw_offer == colour:
            raise GameError("there is no draw offer to answer")
        if accept:
            self._end("1/2-1/2", "Draw by agreement", "normal")
            if self.clock is not None:
                self.clock.stop(now)
        self.draw_offer = None

    def takeback_plies(self) -> int:
        """How many plies a take-back removes now (0: none possible): against the robot, the
        person's last move and the robot's answer; between people, the last move."""
        if not self.settings.takeback or (self.over and not self.positional_end):
            return 0
        if self.human is None:
            return 1 if self.plies else 0
        plies = 1 if self.board.turn != self.human else 2
        if self.board.turn != self.human and self.over:     # the person's move ended the game
            plies = 1
        return plies if len(self.plies) >= plies else 0

    def take_back(self, now: float) -> int:
        plies = self.takeback_plies()
        if plies == 0:
            raise GameError("nothing to take back" if self.settings.takeback else "take-backs are off in this game")
        state = None
        for _ in range(plies):
            ply = self.plies.pop()
            self.board.pop()
            state = ply.clock_before
        self.result, self.reason, self.termination, self.positional_end = "*", "", "", False
        self.draw_offer = None
        if self.clock is not None:
            if state is None:                       # a position of the set-up: the clocks as at the start
                first = self.clock.control.periods[0].seconds
                state = (SideState(first), SideState(first))
            self.clock.restore(state, self.board.turn, now)
            if len(self.plies) <= self.first_live_ply:
                self.clock.running = None           # the first move is again untimed
        return plies

    # ---- what the page shows ----

    def check_square(self) -> str | None:
        if self.board.is_check():
            king = self.board.king(self.board.turn)
            return chess.square_name(king) if king is not None else None
        return None

    def status(self) -> str:
        if self.over:
            return self.reason
        turn = self.board.turn
        if self.human is None:
            text = f"{'White' if turn == chess.WHITE else 'Black'} to move"
        elif turn == self.human:
            text = "Your move"
        else:
            text = f"{self.player_name(turn)} is thinking…"
        return text + (" (check)" if self.board.is_check() else "")

    def history(self) -> tuple[list[str], list[str | None]]:
        """The FEN after each ply, the start first, and the square of a king in check in each (for
        going through the game on the page)."""
        board = self.root.copy()
        fens, checks = [board.fen()], [None]
        for ply in self.plies:
            board.push(ply.move)
            fens.append(board.fen())
            checks.append(chess.square_name(board.king(board.turn)) if board.is_check() else None)
        return fens, checks

    def to_json(self, now: float) -> dict[str, Any]:
        targets: dict[str, list[str]] = {}
        promotions = []
        if not self.over:
            for (a, b), moves in self.targets().items():
                targets.setdefault(chess.square_name(a), []).append(chess.square_name(b))
                if moves[0].promotion is not None:
                    promotions.append(chess.square_name(a) + chess.square_name(b))
        last = self.plies[-1] if self.plies else None
        fens, checks = self.history()
        return {
            "settings": self.settings.to_json(),
            "human": None if self.human is None else colour_name(self.human),
            "players": {"white": self.player_name(chess.WHITE), "black": self.player_name(chess.BLACK)},
            "fen": self.board.fen(),
            "turn": colour_name(self.board.turn),
            "positions": fens,
            "checks": checks,
            "moves": [{"san": p.san, "uci": p.move.uci(), "from": chess.square_name(p.move.from_square),
                       "to": chess.square_name(p.target), "clock": p.clock_after} for p in self.plies],
            "last": None if last is None else {"from": chess.square_name(last.move.from_square),
                                               "to": chess.square_name(last.target),
                                               "capture": last.capture, "castle": last.castle},
            "check": self.check_square(),
            "legal": targets,
            "promotions": promotions,
            "clock": None if self.clock is None else self.clock.snapshot(now),
            "result": self.result,
            "reason": self.reason,
            "over": self.over,
            "draw_offer": None if self.draw_offer is None else colour_name(self.draw_offer),
            "claimable": self.claimable(),
            "can_takeback": self.takeback_plies() > 0,
            "status": self.status(),
            "pgn": self.pgn(),
        }

    def pgn(self) -> str:
        """The game as PGN: players, date, time control, result and termination headers, the
        set-up position, and each move's clock as a [%clk] comment."""
        record = chess.pgn.Game()
        headers = record.headers
        headers["Event"] = "Casual game"
        headers["Site"] = "Jitfish web"
        headers["Date"] = self.date.strftime("%Y.%m.%d")
        headers["Round"] = "-"
        for colour, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black")):
            headers[tag] = "Player" if colour == self.human else self.player_name(colour)
        headers["Result"] = self.result
        if self.human is not None:
            robot = not self.human
            headers["WhiteElo" if robot == chess.WHITE else "BlackElo"] = str(self.settings.elo)
        headers["TimeControl"] = self.settings.clock.pgn_tag()
        delay = self.settings.clock.pgn_delay_tag()
        if delay:
            headers["TimeControlDelay"] = delay
        if self.termination:
            headers["Termination"] = self.termination
        if self.root.fen() != chess.STARTING_FEN or self.root.chess960:
            record.setup(self.root)                 # FEN and SetUp headers; Variant for Chess960
        node: chess.pgn.GameNode = record
        for ply in self.plies:
            node = node.add_variation(ply.move)
            if ply.clock_after is not None:
                node.set_clock(max(0.0, ply.clock_after))
        if self.reason:
            node.comment = (node.comment + " " if node.comment else "") + self.reason
        return str(record.accept(chess.pgn.StringExporter(headers=True, variations=False, comments=True))) + "\n"

