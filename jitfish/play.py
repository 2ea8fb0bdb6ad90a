"""`jitfish play`: a game against the engine in the terminal, at a chosen level.

Moves are typed in SAN or UCI (`e4`, `Nf3`, `e2e4`, `e7e8q`); `help` lists the other commands.
The game (its rules, the draws claimed or agreed, take-backs, the PGN) is the one every front end
keeps (jitfish/game.py), and the robot judges draws and gives hints as in the browser
(jitfish/robot_policy.py); its searches run in this process, on the engine's Board.
"""

from __future__ import annotations

import datetime
import random
import sys
from typing import Callable, TextIO

import chess

from engine.board import Board
from search.levels import effective_elo, level_for_elo, plays_like
from search.timeman import Limits

from jitfish.game import CLAIMS, COLOURS, Game, GameError, side_name
from jitfish.setup import start_board
from jitfish.robot_policy import (HINT_SECONDS, JUDGE_SECONDS, Suggestion, accepts_draw, claims_draw, clip_score,
                                  robot_name, score_for)

HIGHLIGHT = "\x1b[43m"            # the last move's squares, on a terminal
RESET = "\x1b[0m"
HELP = """commands: a move (e4, Nf3, O-O, e7e8=Q or e2e4, e7e8q), undo (take back your last move),
hint (a suggestion from the full-strength engine), draw (claim a draw by threefold repetition or
the fifty-move rule when you may, else offer one), resign, flip (turn the board), board (show it
again), help, quit (leave without a result)"""


def render(board: chess.Board, last_move: tuple[int, int] | None, white_at_bottom: bool, colour: bool) -> str:
    """The board in Unicode with coordinates; the last move's squares (from, to) highlighted (in
    colour on a terminal, in brackets otherwise)."""
    marked = set(last_move or ())
    ranks = range(7, -1, -1) if white_at_bottom else range(8)
    files = range(8) if white_at_bottom else range(7, -1, -1)
    lines = []
    for rank in ranks:
        cells = []
        for file in files:
            piece = board.piece_at(chess.square(file, rank))
            symbol = piece.unicode_symbol() if piece is not None else "·"
            if chess.square(file, rank) in marked:
                cells.append(f"{HIGHLIGHT} {symbol} {RESET}" if colour else f"[{symbol}]")
            else:
                cells.append(f" {symbol} ")
        lines.append(f"{rank + 1} {''.join(cells)}")
    lines.append("   " + "  ".join("abcdefgh"[f] for f in files))
    return "\n".join(lines)


def engine_board(game: Game) -> Board:
    """The game on the engine's Board, played from its start so that the search sees repetitions."""
    board = Board(game.root.fen(), chess960=game.root.chess960)
    for ply in game.plies:
        board.push_uci(ply.move.uci())
    return board


class Session:
    """One game in the terminal against the robot; reads commands with `read` and prints with `write`."""

    def __init__(self, game: Game, elo: int, read: Callable[[], str], write: Callable[[str], None], colour: bool,
                 seed: int, think_seconds: float) -> None:
        from eval.shipped import review_network
        from search.driver import Searcher

        assert game.human is not None, "the terminal game is against the robot"
        self.game, self.elo, self.read, self.write, self.colour = game, elo, read, write, colour
        self.human: chess.Color = game.human
        self.think_seconds = think_seconds
        self.engine = Searcher(16)
        self.engine.set_level(level_for_elo(elo), seed)
        self.adviser = Searcher(16, review_network())   # full strength: hints and draw judgements, as the browser's
        self.flipped = False

    def show(self) -> None:
        white_at_bottom = (self.human == chess.WHITE) != self.flipped
        last = self.game.plies[-1] if self.game.plies else None
        marked = None if last is None else (last.move.from_square, last.target)
        self.write(render(self.game.board, marked, white_at_bottom, self.colour))

    def search(self, searcher, seconds: float) -> Suggestion:
        """The searcher's move in the game's position and its score for the side to move."""
        searcher.prepare()
        board = engine_board(self.game)
        result = searcher.run(board, Limits(movetime=int(seconds * 1000)))
        return Suggestion(self.game.board.parse_uci(board.uci(result.best)), clip_score(result.score))

    def robot_turn(self) -> None:
        """Claim a draw the robot may claim and wants, or search and play."""
        game = self.game
        if game.claimable() and claims_draw(self.search(self.adviser, JUDGE_SECONDS).score_cp):
            game.claim_draw()
            return
        board = game.board
        number = f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"
        ply = game.play(self.search(self.engine, self.think_seconds).move)
        self.write(f"Jitfish plays {number} {ply.san}")

    def offer_draw(self) -> None:
        """The person offers a draw; the robot answers from a short full-strength search."""
        game = self.game
        game.offer_draw(self.human)
        judgement = self.search(self.adviser, JUDGE_SECONDS)
        accept = accepts_draw(score_for(judgement, game.board, not self.human), game.board)
        game.answer_draw(not self.human, accept)
        if not accept:
            self.write("Jitfish declines the draw")

    def human_turn(self) -> bool:
        """Handle input until the person has moved; False when the game ended or was left."""
        game = self.game
        kind = game.claimable()
        if kind is not None:
            self.write(f"You may claim a draw by {CLAIMS[kind]}: type draw")
        while True:
            try:
                text = self.read().strip()
            except EOFError:
                return False
            if not text:
                continue
            command = text.lower()
            if command == "help":
                self.write(HELP)
            elif command in ("quit", "exit"):
                return False
            elif command == "resign":
                game.resign(self.human)
                return False
            elif command == "draw":
                if game.claimable():
                    game.claim_draw()
                else:
                    self.offer_draw()
                if game.over:
                    return False
            elif command == "flip":
                self.flipped = not self.flipped
                self.show()
            elif command == "board":
                self.show()
            elif command == "hint":
                hint = self.search(self.adviser, HINT_SECONDS)
                self.write(f"hint: {game.board.san(hint.move)} (score {hint.score_cp / 100:+.2f} for you)")
            elif command == "undo":
                try:
                    game.take_back()
                except GameError as exc:
                    self.write(str(exc))
                    continue
                self.show()
            else:
                try:
                    move = game.parse_text(text)
                except GameError as exc:
                    self.write(f"{exc} (try `help`)")
                    continue
                game.play(move)
                return True

    def run(self) -> None:
        game = self.game
        self.write(f"You play {side_name(self.human)} against {robot_name(self.elo)}. Type a move or `help`.")
        person = plays_like(self.elo)
        if person:
            self.write(f"{robot_name(self.elo)} {person}.")
        self.show()
        while not game.over:
            if game.board.turn == self.human:
                if not self.human_turn():
                    break
            else:
                self.robot_turn()
                if not game.over:
                    self.show()
        self.write(game.reason if game.over else "game left unfinished")


def pgn_text(game: Game, elo: int) -> str:
    assert game.human is not None
    headers = {"Event": "Jitfish game", "Site": "jitfish play", side_name(game.human): "You",
               side_name(not game.human): robot_name(elo), f"{side_name(not game.human)}Elo": str(elo)}
    return game.pgn(headers)


def run_game(fen: str, human: chess.Color, elo: int, seed: int, think_seconds: float, pgn_path: str | None,
             read: Callable[[], str], out: TextIO, colour: bool) -> int:
    """Play one game; returns the exit status (2 for a position that cannot be played)."""
    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        start = start_board(fen, False, random.Random(seed))
    except GameError as exc:
        write(f"error: {exc}")
        return 2
    game = Game(start, human)
    Session(game, elo, read, write, colour, seed, think_seconds).run()
    if game.plies or game.over:
        path = pgn_path or datetime.datetime.now().strftime("jitfish-game-%Y%m%d-%H%M%S.pgn")
        with open(path, "a") as handle:
            handle.write(pgn_text(game, elo) + "\n")
        write(f"game saved to {path}")
    return 0


def main(args) -> int:
    """The `jitfish play` subcommand (arguments from jitfish.cli)."""
    from search.levels import SKILL_LEVELS

    if args.level is not None and args.elo is not None:
        print("error: give --level or --elo, not both", file=sys.stderr)
        return 2
    elo = effective_elo(args.elo is not None, args.elo or 0, SKILL_LEVELS if args.level is None else args.level)
    human = COLOURS[args.color] if args.color != "random" else random.choice((chess.WHITE, chess.BLACK))
    seed = args.seed or random.getrandbits(62) + 1
    return run_game(args.fen, human, elo, seed, args.time, args.pgn, input, sys.stdout, sys.stdout.isatty())
