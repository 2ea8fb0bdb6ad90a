"""One game of `jitfish web`: its settings, and what the page may show and do with the game.

The game itself (moves, clock, result, draws, take-backs, PGN) is the shared one of
jitfish/game.py; this module adds the page's settings, drags and state. No I/O: the session
drives it, with `now` read from a monotonic clock.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from typing import Any

import chess
import chess.pgn

from checkers.levels import MAX_LEVEL, MIN_LEVEL
from search.levels import FULL_STRENGTH_ELO, MIN_ELO

from jitfish import game as model
from jitfish.clock import PRESETS, ClockError, TimeControl
from jitfish.game import COLOURS, GameError, colour_name, landing_square, side_name
from jitfish.setup import start_board
from jitfish.web.board import (PROMOTION_PIECES, Targets, check_square, drag_targets, legal_json, material_json,
                               premove_targets, resolve_drag)
from jitfish.robot_policy import robot_name
from jitfish.i18n import N_, Msg

CHECKERS_DEFAULT_LEVEL = 3
MAX_POSITION_TEXT = 20000          # characters of FEN or PGN accepted for a set-up
# A pasted PGN's tags that the record writes itself (the start position) or that say how the
# pasted game ended, kept only while the game is where it ended (`Game.pgn`).
SETUP_TAGS = ("FEN", "SetUp", "Variant")
ENDING_TAGS = ("Result", "Termination", "PlyCount")
STATUS = {                         # the status line by whose turn it is and the state of the game
    ("white", "plain"): N_("White to move"),
    ("white", "check"): N_("White to move (check)"),
    ("white", "waiting"): N_("White to move (the clocks start with the first move)"),
    ("black", "plain"): N_("Black to move"),
    ("black", "check"): N_("Black to move (check)"),
    ("black", "waiting"): N_("Black to move (the clocks start with the first move)"),
    ("you", "plain"): N_("Your move"),
    ("you", "check"): N_("Your move (check)"),
    ("you", "waiting"): N_("Your move (the clocks start with the first move)"),
    ("robot", "plain"): N_("{name} is thinking…"),
    ("robot", "check"): N_("{name} is thinking… (check)"),
    ("robot", "waiting"): N_("{name} is thinking… (the clocks start with the first move)"),
}


@dataclass(frozen=True)
class Settings:
    """What the player chose for a game (validated; `from_json` reads the page's message)."""
    opponent: str = "robot"            # "robot" or "human" (a friend at the same screen)
    game: str = "chess"                # "chess" or "checkers"
    level: int = CHECKERS_DEFAULT_LEVEL    # the checkers robot's level (`elo` is the chess robot's)
    color: str = "white"               # the person's colour against the robot: white, black or random
    elo: int = 1200                    # the robot's level
    clock: TimeControl = TimeControl()
    clock_name: str = "none"           # the preset's name, or "custom"
    takeback: bool = True
    pause: bool = True                 # a weak robot pauses like a person before it moves
    chess960: bool = False
    position: str = ""                 # FEN or PGN to start from ("": the standard or a random 960 start)

    def to_json(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "game": self.game, "level": self.level, "color": self.color, "elo": self.elo, "clock": self.clock_name,
                "clock_spec": self.clock.to_spec(), "clock_label": self.clock.describe(),
                "takeback": self.takeback, "pause": self.pause, "chess960": self.chess960, "position": self.position}

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        if not isinstance(data, dict):
            raise GameError(Msg("the game settings must be an object"))
        opponent = data.get("opponent", "robot")
        if opponent not in ("robot", "human"):
            raise GameError(Msg("opponent must be robot or human"))
        game = data.get("game", "chess")
        if game not in ("chess", "checkers"):
            raise GameError(Msg("game must be chess or checkers"))
        level = data.get("level", CHECKERS_DEFAULT_LEVEL)
        if isinstance(level, str) and level.strip().isdigit():
            level = int(level)
        if isinstance(level, bool) or not isinstance(level, int) or not MIN_LEVEL <= level <= MAX_LEVEL:
            raise GameError(Msg("the checkers level must be from {low} to {high}", low=MIN_LEVEL, high=MAX_LEVEL))
        color = data.get("color", "white")
        if color not in ("white", "black", "random"):
            raise GameError(Msg("colour must be white, black or random"))
        elo = data.get("elo", 1200)
        if isinstance(elo, str) and elo.strip().isdigit():
            elo = int(elo)
        if isinstance(elo, bool) or not isinstance(elo, int) or not MIN_ELO <= elo <= FULL_STRENGTH_ELO:
            raise GameError(Msg("level must be an Elo from {low} to {high}", low=MIN_ELO, high=FULL_STRENGTH_ELO))
        clock_name = data.get("clock", "none")
        try:
            if clock_name == "custom":
                clock = TimeControl.from_spec(data.get("clock_spec"))
            elif isinstance(clock_name, str) and clock_name in PRESETS:
                clock = PRESETS[clock_name]
            else:
                raise GameError(Msg("unknown clock {name}", name=repr(str(clock_name)[:40])))
        except ClockError as exc:
            raise GameError(Msg("clock: {problem}", problem=exc.args[0] if exc.args else str(exc))) from None
        flags = {}
        for name in ("takeback", "pause", "chess960"):
            value = data.get(name, getattr(cls, name))
            if not isinstance(value, bool):
                raise GameError(Msg("{name} must be true or false", name=name))
            flags[name] = value
        position = data.get("position", "")
        if not isinstance(position, str) or len(position) > MAX_POSITION_TEXT:
            raise GameError(Msg("the start position must be FEN or PGN text of at most {count} characters",
                                count=MAX_POSITION_TEXT))
        return cls(opponent, game, level, color, elo, clock, clock_name, position=position.strip(), **flags)

    def human_colour(self, rng: random.Random) -> chess.Color | None:
        """The person's colour against the robot (drawn when random), None between people."""
        if self.opponent != "robot":
            return None
        return COLOURS[self.color if self.color != "random" else rng.choice(("white", "black"))]


def seat_name(human: chess.Color | None, colour: chess.Color, pasted: dict[str, str], robot: Msg | str) -> Msg | str:
    """The name beside the board, in either game: between people White and Black, or the players
    of a pasted PGN or PDN; against the robot You and the robot's name."""
    if human is None:
        return pasted.get(side_name(colour)) or (Msg("White") if colour == chess.WHITE else Msg("Black"))
    return Msg("You") if colour == human else robot


class Game(model.Game):
    """The browser's game: the shared game (jitfish/game.py) with its settings and what the page
    shows and drags."""

    def __init__(self, settings: Settings, rng: random.Random) -> None:
        self.settings = settings
        self.rng = rng
        start = start_board(settings.position, settings.chess960, rng)
        super().__init__(start, settings.human_colour(rng), settings.clock, settings.takeback)
        self.premove: tuple[str, str, str] | None = None      # from, to, promotion piece
        self.pasted_tags = pasted_tags(settings.position)

    def player_name(self, colour: chess.Color) -> Msg | str:
        return seat_name(self.human, colour, self.pasted_tags, robot_name(self.settings.elo))

    # ---- moves as the page makes them ----

    def targets(self) -> Targets:
        return drag_targets(self.board)

    def display_target(self, move: chess.Move) -> int:
        """The square the page shows a legal move going to: a castling king's own destination."""
        return landing_square(move, self.board.is_castling(move))

    def resolve(self, origin: Any, target: Any, promotion: Any = None) -> chess.Move:
        """The legal move from the page's drag (square names and a piece letter for a promotion)."""
        return resolve_drag(self.board, origin, target, promotion)

    # ---- pre-moves: the person's next move, queued while the robot thinks ----

    def premove_targets(self) -> dict[str, list[str]]:
        """Where the person may pre-move now (nothing unless the robot is to move)."""
        if not self.robot_to_move():
            return {}
        return premove_targets(self.board, self.human)

    def set_premove(self, origin: Any, target: Any, promotion: Any = None) -> None:
        """Queue the person's move for when the robot has moved (one at a time; a new one replaces
        it). A promotion without its piece becomes a queen."""
        if not self.robot_to_move():
            raise GameError(Msg("a pre-move is made while the robot thinks"))
        if not isinstance(origin, str) or target not in self.premove_targets().get(origin, []):
            raise GameError(Msg("that piece cannot go there, whatever the robot plays"))
        piece = promotion.lower() if isinstance(promotion, str) and promotion.lower() in PROMOTION_PIECES else "q"
        self.premove = (origin, target, piece)

    def take_premove(self) -> chess.Move | None:
        """The queued move if it is legal now (it is then no longer queued), else None (dropped)."""
        queued, self.premove = self.premove, None
        if queued is None or self.over or self.is_robot(self.board.turn):
            return None
        try:
            return self.resolve(*queued)
        except GameError:
            return None

    # ---- what the page shows ----

    def check_square(self) -> str | None:
        return check_square(self.board)

    def status(self) -> Msg:
        """The status line: the result, or whose turn it is, with check or the clocks' start."""
        if self.over:
            return self.reason
        turn = self.board.turn
        who = "white" if turn == chess.WHITE else "black"
        if self.human is not None:
            who = "you" if turn == self.human else "robot"
        state = "check" if self.board.is_check() else \
            "waiting" if self.clock is not None and self.clock.running is None else "plain"
        return Msg(STATUS[who, state], name=robot_name(self.settings.elo))

    def history(self) -> tuple[list[str], list[str | None], list[dict[str, Any]]]:
        """The FEN after each ply, the start first, the square of a king in check and the material
        each side is up in each (for going through the game on the page)."""
        board = self.root.copy()
        fens, checks, materials = [board.fen()], [check_square(board)], [material_json(board)]
        for ply in self.plies:
            board.push(ply.move)
            fens.append(board.fen())
            checks.append(check_square(board))
            materials.append(material_json(board))
        return fens, checks, materials

    def to_json(self, now: float) -> dict[str, Any]:
        targets, promotions = legal_json(self.board) if not self.over else ({}, [])
        last = self.plies[-1] if self.plies else None
        fens, checks, materials = self.history()
        return {
            "kind": "chess",
            "settings": self.settings.to_json(),
            "chess960": self.chess960_label(),
            "human": None if self.human is None else colour_name(self.human),
            "players": {"white": self.player_name(chess.WHITE), "black": self.player_name(chess.BLACK)},
            "fen": self.board.fen(),
            "turn": colour_name(self.board.turn),
            "positions": fens,
            "checks": checks,
            "materials": materials,
            "moves": [{"san": p.san, "uci": p.move.uci(), "from": chess.square_name(p.move.from_square),
                       "to": chess.square_name(p.target), "clock": p.clock_after} for p in self.plies],
            "last": None if last is None else {"from": chess.square_name(last.move.from_square),
                                               "to": chess.square_name(last.target),
                                               "capture": last.capture, "castle": last.castle},
            "check": self.check_square(),
            "legal": targets,
            "promotions": promotions,
            **self.standing_json(now),
            "premove": None if self.premove is None or self.over else {"from": self.premove[0], "to": self.premove[1]},
            "premove_targets": self.premove_targets(),
            "status": self.status(),
            "pgn": self.pgn(self.pgn_headers()),
        }

    def chess960_label(self) -> str | None:
        """'Chess960 (start 123)' for a game from one of the 960 starts, 'Chess960' from another
        Chess960 position, None for chess: from the start itself, so a start number typed without
        the Chess960 box says so too."""
        if not self.root.chess960:
            return None
        number = self.root.chess960_pos()
        return Msg("Chess960") if number is None else Msg("Chess960 (start {number})", number=number)

    def pgn_headers(self) -> dict[str, str]:
        """The page's PGN tags: event, site, the players and the robot's level; for a game pasted
        as PGN, its own tags where it has them (the players, event, site, date, round, ratings,
        time control, opening...), ours for the rest."""
        headers = {"Event": "Casual game", "Site": "Jitfish web"}
        for colour in (chess.WHITE, chess.BLACK):
            name = side_name(colour)
            headers[name] = "Player" if colour == self.human else str(self.player_name(colour))
            if colour != self.human and self.human is not None and name not in self.pasted_tags:
                headers[f"{name}Elo"] = str(self.settings.elo)     # the robot's level, where it is named
        headers.update({key: value for key, value in self.pasted_tags.items()
                        if key not in SETUP_TAGS + ENDING_TAGS + ("TimeControl", "TimeControlDelay")})
        return headers

    def pgn(self, headers: dict[str, str]) -> str:
        """The shared game's PGN (jitfish/game.py), with a pasted game's time control and, while
        the game is where the pasted one ended (no move played after it, or taken back to it), its
        result and how it ended. The form's clock governed any move played here: their [%clk]."""
        text = super().pgn(headers)
        late = {key: value for key, value in self.pasted_tags.items() if key in ("TimeControl", "TimeControlDelay")}
        ended = self.pasted_tags.get("Result") in ("1-0", "0-1", "1/2-1/2")
        if ended and not self.over and len(self.plies) == self.first_live_ply:
            late.update({key: value for key, value in self.pasted_tags.items() if key in ENDING_TAGS})
        if not late:
            return text
        record = chess.pgn.read_game(io.StringIO(text))
        if "TimeControl" in late:
            record.headers.pop("TimeControlDelay", None)         # the form's delay, not the pasted game's
        record.headers.update(late)
        return str(record.accept(chess.pgn.StringExporter(headers=True, variations=False, comments=True))) + "\n"


def pasted_tags(position: str) -> dict[str, str]:
    """The tags of a game pasted as PGN that say something (not the "?" of an unknown value),
    in their order; {} for a FEN, a start number or moves without tags."""
    if not position.lstrip().startswith("["):
        return {}
    headers = chess.pgn.read_headers(io.StringIO(position))
    if headers is None:
        return {}
    return {key: value.strip() for key, value in headers.items() if value.strip().strip("?.")}
