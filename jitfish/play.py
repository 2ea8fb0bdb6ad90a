"""`jitfish play`: a game against the engine in the terminal, at a chosen level.

Moves are typed in SAN or UCI (`e4`, `Nf3`, `e2e4`, `e7e8q`); `help` lists the other commands.
The engine's Board keeps the game and decides when it is over; python-chess only writes and reads
the notation (SAN) and the PGN saved at the end.
"""

from __future__ import annotations

import datetime
import sys
from dataclasses import dataclass, field
from typing import Callable, TextIO

import chess
import chess.pgn

from engine.board import Board, IllegalMoveError
from engine.defs import BLACK, WHITE
from engine.fen import STARTING_FEN, FenError
from search.timeman import Limits
from search.levels import FULL_STRENGTH_ELO, effective_elo, level_for_elo

PIECE_SYMBOLS = "♙♘♗♖♕♔♟♞♝♜♛♚"
HIGHLIGHT = "\x1b[43m"            # the last move's squares, on a terminal
RESET = "\x1b[0m"
HINT_SECONDS = 1.0
DRAW_ACCEPT_CP = -30                # the engine takes a draw when it thinks it is this much worse
HELP = """commands: a move (e4, Nf3, O-O, e7e8=Q or e2e4, e7e8q), undo (take back your last move),
hint (a suggestion from the full-strength engine), draw (offer a draw), resign, flip (turn the
board), board (show it again), help, quit (leave without a result)"""


@dataclass
class Game:
    """The game in progress: the board, the human's colour and the record for the PGN."""
    board: Board
    human: int
    start_fen: str
    elo: int
    flipped: bool = False
    sans: list[str] = field(default_factory=list)
    result: str = "*"
    termination: str = ""

    @property
    def engine_name(self) -> str:
        return "Jitfish" + ("" if self.elo >= FULL_STRENGTH_ELO else f" (Elo {self.elo})")


def render(board: Board, last_move: str | None, white_at_bottom: bool, colour: bool) -> str:
    """The board in Unicode with coordinates; the last move's squares highlighted (in colour on
    a terminal, in brackets otherwise)."""
    marked = set() if last_move is None else {last_move[0:2], last_move[2:4]}
    ranks = range(7, -1, -1) if white_at_bottom else range(8)
    files = range(8) if white_at_bottom else range(7, -1, -1)
    lines = []
    for rank in ranks:
        cells = []
        for file in files:
            piece = board.piece_at(rank * 8 + file)
            symbol = PIECE_SYMBOLS[piece] if 0 <= piece < 12 else "·"
            name = "abcdefgh"[file] + str(rank + 1)
            if name in marked:
                cells.append(f"{HIGHLIGHT} {symbol} {RESET}" if colour else f"[{symbol}]")
            else:
                cells.append(f" {symbol} ")
        lines.append(f"{rank + 1} {''.join(cells)}")
    lines.append("   " + "  ".join("abcdefgh"[f] for f in files))
    return "\n".join(lines)


def parse_move(board: Board, text: str) -> int:
    """The legal move written in SAN or UCI; IllegalMoveError says why not."""
    reference = board.python_chess()
    try:
        return board.parse_uci(reference.parse_san(text).uci())
    except ValueError:
        pass
    try:
        return board.parse_uci(text.lower() if len(text) == 5 else text)
    except IllegalMoveError:
        raise IllegalMoveError(f"{text!r} is not a legal move here (try `help`)") from None


def san(board: Board, move: int) -> str:
    return board.python_chess().san(chess.Move.from_uci(board.uci(move)))


class Session:
    """One game in the terminal; reads commands with `read` and prints with `write`."""

    def __init__(self, game: Game, read: Callable[[], str], write: Callable[[str], None], colour: bool,
                 seed: int, think_seconds: float) -> None:
        from search.driver import Searcher

        self.game, self.read, self.write, self.colour = game, read, write, colour
        self.think_seconds = think_seconds
        self.engine = Searcher(16)
        self.engine.set_level(level_for_elo(game.elo), seed)
        self.adviser = Searcher(16)       # full strength, for hints and draw offers
        self.last_uci: str | None = None

    def show(self) -> None:
        white_at_bottom = (self.game.human == WHITE) != self.game.flipped
        self.write(render(self.game.board, self.last_uci, white_at_bottom, self.colour))

    def play_move(self, move: int) -> None:
        board = self.game.board
        self.game.sans.append(san(board, move))
        self.last_uci = board.uci(move)
        board.push(move)

    def engine_move(self) -> None:
        self.engine.prepare()
        board = self.game.board
        result = self.engine.run(board, Limits(movetime=int(self.think_seconds * 1000)), lambda line: None)
        number = f"{board.fen().split()[5]}{'.' if board.turn == WHITE else '...'}"
        text = san(board, result.best)
        self.play_move(result.best)
        self.write(f"Jitfish plays {number} {text}")

    def advise(self) -> tuple[int, int]:
        """Best move and score (side to move's view) from a short full-strength search."""
        self.adviser.prepare()
        result = self.adviser.run(self.game.board, Limits(movetime=int(HINT_SECONDS * 1000)), lambda line: None)
        return result.best, result.score

    def finished(self) -> bool:
        """Announce and record the end of the game if the position ends it."""
        board = self.game.board
        reason = board.outcome()
        if reason is None:
            return False
        if reason == "checkmate":
            winner = "White" if board.turn == BLACK else "Black"
            self.end("1-0" if winner == "White" else "0-1", f"checkmate: {winner} wins")
        else:
            self.end("1/2-1/2", f"draw by {reason}")
        return True

    def end(self, result: str, message: str) -> None:
        self.game.result, self.game.termination = result, message
        self.write(message)

    def human_turn(self) -> bool:
        """Handle input until the human has moved; False when the game ended or was left."""
        game = self.game
        while True:
            try:
                text = self.read().strip()
            except EOFError:
                self.end("*", "game left unfinished")
                return False
            if not text:
                continue
            command = text.lower()
            if command == "help":
                self.write(HELP)
            elif command in ("quit", "exit"):
                self.end("*", "game left unfinished")
                return False
            elif command == "resign":
                self.end("0-1" if game.human == WHITE else "1-0", "you resign: Jitfish wins")
                return False
            elif command == "draw":
                _, score = self.advise()
                if -score <= DRAW_ACCEPT_CP:     # the score is the human's; the engine's is its negative
                    self.end("1/2-1/2", "draw agreed")
                    return False
                self.write("Jitfish declines the draw")
            elif command == "flip":
                game.flipped = not game.flipped
                self.show()
            elif command == "board":
                self.show()
            elif command == "hint":
                best, score = self.advise()
                self.write(f"hint: {san(game.board, best)} (score {score / 100:+.2f} for you)")
            elif command == "undo":
                self.undo()
            else:
                try:
                    move = parse_move(game.board, text)
                except IllegalMoveError as exc:
                    self.write(str(exc))
                    continue
                self.play_move(move)
                return True

    def undo(self) -> None:
        """Take back the human's last move (and the engine's answer to it)."""
        board, game = self.game.board, self.game
        plies = 2 if board.turn == game.human else 1
        if len(board.history) < plies:
            self.write("nothing to take back")
            return
        for _ in range(plies):
            board.pop()
            game.sans.pop()
        self.last_uci = board.uci(board.history[-1]) if board.history else None
        self.show()

    def run(self) -> None:
        game = self.game
        self.write(f"You play {'White' if game.human == WHITE else 'Black'} against {game.engine_name}. "
                   "Type a move or `help`.")
        self.show()
        while not self.finished():
            if game.board.turn == game.human:
                if not self.human_turn():
                    return
            else:
                self.engine_move()
                self.show()


def pgn_text(game: Game) -> str:
    record = chess.pgn.Game()
    you, engine = "You", game.engine_name
    record.headers.update({"Event": "Jitfish game", "Site": "jitfish play", "Date": datetime.date.today().strftime("%Y.%m.%d"),
                           "White": you if game.human == WHITE else engine,
                           "Black": engine if game.human == WHITE else you, "Result": game.result})
    if game.termination:
        record.headers["Termination"] = game.termination
    if game.start_fen != STARTING_FEN:
        record.setup(chess.Board(game.start_fen))
    node = record
    replay = chess.Board(game.start_fen)
    for text in game.sans:
        move = replay.parse_san(text)
        node = node.add_variation(move)
        replay.push(move)
    return str(record) + "\n"


def run_game(fen: str, human: int, elo: int, seed: int, think_seconds: float, pgn_path: str | None,
             read: Callable[[], str], out: TextIO, colour: bool) -> int:
    """Play one game; returns the exit status (2 for an invalid FEN)."""
    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        board = Board(fen)
    except FenError as exc:
        write(f"error: invalid FEN: {exc}")
        return 2
    game = Game(board, human, fen, elo)
    session = Session(game, read, write, colour, seed, think_seconds)
    session.run()
    if game.sans or game.result != "*":
        path = pgn_path or datetime.datetime.now().strftime("jitfish-game-%Y%m%d-%H%M%S.pgn")
        with open(path, "a") as handle:
            handle.write(pgn_text(game) + "\n")
        write(f"game saved to {path}")
    return 0


def main(args) -> int:
    """The `jitfish play` subcommand (arguments from jitfish.cli)."""
    import random

    from search.levels import MIN_ELO, SKILL_LEVELS

    if args.level is not None and args.elo is not None:
        print("error: give --level or --elo, not both", file=sys.stderr)
        return 2
    if args.elo is not None and not MIN_ELO <= args.elo <= FULL_STRENGTH_ELO:
        print(f"error: --elo must be within {MIN_ELO}..{FULL_STRENGTH_ELO}", file=sys.stderr)
        return 2
    if args.level is not None and not 0 <= args.level <= SKILL_LEVELS:
        print(f"error: --level must be within 0..{SKILL_LEVELS}", file=sys.stderr)
        return 2
    elo = effective_elo(args.elo is not None, args.elo or 0, SKILL_LEVELS if args.level is None else args.level)
    human = {"white": WHITE, "black": BLACK}.get(args.color) if args.color != "random" else random.choice((WHITE, BLACK))
    seed = args.seed or random.getrandbits(62) + 1
    return run_game(args.fen, human, elo, seed, args.time, args.pgn, input, sys.stdout, sys.stdout.isatty())
