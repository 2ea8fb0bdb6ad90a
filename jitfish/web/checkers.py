"""A checkers game in `jitfish web`: the shared checkers game (jitfish/checkers_game.py) with the
page's settings and what the page shows (the state message's `game` for `kind: "checkers"`, as
docs/web.md describes it). No I/O.
"""

from __future__ import annotations

import random
from typing import Any

import chess

from checkers.levels import MAX_LEVEL

from jitfish.checkers_game import CheckersGame, read_start
from jitfish.game import colour_name, side_name
from jitfish.web.game import seat_name
from jitfish.i18n import N_, Msg

# The page's checkers levels: a number and a name (said in the reader's language).
LEVEL_NAMES = {1: N_("Beginner"), 2: N_("Novice"), 3: N_("Casual player"), 4: N_("Improver"),
               5: N_("Club player"), 6: N_("Strong club player"), 7: N_("Expert"), 8: N_("Master"),
               9: N_("Grandmaster"), MAX_LEVEL: N_("Full strength")}
STATUS = {
    ("white", "plain"): N_("White to move"),
    ("black", "plain"): N_("Black to move"),
    ("white", "jump"): N_("White to move: a jump is compulsory"),
    ("black", "jump"): N_("Black to move: a jump is compulsory"),
    ("you", "plain"): N_("Your move"),
    ("you", "jump"): N_("Your move: a jump is compulsory"),
    ("robot", "plain"): N_("{name} is thinking…"),
    ("robot", "jump"): N_("{name} is thinking…"),
}


def robot_name(level: int) -> Msg | str:
    """The checkers robot on screen and (in English) in the PDN: 'Jitfish' at full strength,
    else 'Jitfish (level 3)'."""
    return "Jitfish" if level >= MAX_LEVEL else Msg("Jitfish (level {level})", level=level)


def level_choices() -> list[dict[str, Any]]:
    """The page's level menu for checkers."""
    return [{"level": level, "name": Msg(name)} for level, name in LEVEL_NAMES.items()]


class CheckersWebGame(CheckersGame):
    """The browser's checkers game: the shared game with its settings and what the page shows."""

    kind = "checkers"

    def __init__(self, settings, rng: random.Random) -> None:
        self.settings = settings
        self.rng = rng
        start, self.pasted_tags = read_start(settings.position)
        super().__init__(start, settings.human_colour(rng), settings.clock, settings.takeback)
        self.premove = None                         # no pre-moves in checkers

    def player_name(self, colour: chess.Color) -> Msg | str:
        return seat_name(self.human, colour, self.pasted_tags, robot_name(self.settings.level))

    def status(self) -> Msg:
        if self.over:
            return self.reason
        who = colour_name(self.turn)
        if self.human is not None:
            who = "you" if self.turn == self.human else "robot"
        return Msg(STATUS[who, "jump" if self.jump_compulsory() else "plain"], name=robot_name(self.settings.level))

    def pdn_headers(self) -> dict[str, str]:
        headers = {"Event": "Casual game", "Site": "Jitfish web"}
        for colour in (chess.BLACK, chess.WHITE):
            name = side_name(colour)
            headers[name] = "Player" if colour == self.human else str(self.player_name(colour))
        headers.update({key: value for key, value in self.pasted_tags.items()
                        if key not in ("FEN", "Result", "GameType", "Termination", "TimeControl")})
        return headers

    def history(self) -> tuple[list[str], list[dict[str, str]], list[dict[str, Any]]]:
        """The FEN, the pieces by square and the pieces counted, after each ply (the start first)."""
        from checkers.board import Board

        board = Board(self.root_fen)
        fens, boards, counts = [], [], []
        for index in range(len(self.plies) + 1):
            if index:
                board.push(self.plies[index - 1].move)
            setup = board.setup()
            fens.append(board.fen())
            pieces: dict[str, str] = {}
            for i in range(32):
                bit = 1 << i
                if setup.black & bit:
                    pieces[str(i + 1)] = "B" if setup.kings & bit else "b"
                elif setup.white & bit:
                    pieces[str(i + 1)] = "W" if setup.kings & bit else "w"
            boards.append(pieces)
            counts.append({colour: {"men": sum(1 for p in pieces.values() if p == letter),
                                    "kings": sum(1 for p in pieces.values() if p == letter.upper())}
                           for colour, letter in (("black", "b"), ("white", "w"))})
        return fens, boards, counts

    def to_json(self, now: float) -> dict[str, Any]:
        last = self.plies[-1] if self.plies else None
        fens, boards, counts = self.history()
        return {
            "kind": "checkers",
            "settings": self.settings.to_json(),
            "human": None if self.human is None else colour_name(self.human),
            "players": {"white": self.player_name(chess.WHITE), "black": self.player_name(chess.BLACK)},
            "fen": self.board.fen(),
            "turn": colour_name(self.turn),
            "positions": fens,
            "boards": boards,
            "counts": counts,
            "moves": [{"text": p.text, "path": p.path, "captures": p.captures, "crown": p.crown,
                       "clock": p.clock_after} for p in self.plies],
            "last": None if last is None else {"path": last.path, "captures": last.captures,
                                               "capture": bool(last.captures), "crown": last.crown},
            "legal": [] if self.over else self.legal_paths(),
            "jump": not self.over and self.jump_compulsory(),
            **self.standing_json(now),
            "premove": None,
            "premove_targets": {},
            "status": self.status(),
            "pdn": self.pdn(self.pdn_headers()),
        }
