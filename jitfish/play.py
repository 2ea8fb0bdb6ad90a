"""`jitfish play`: a game against the engine in the terminal, at a chosen level.

Moves are typed in SAN, figurines or UCI (`e4`, `Nf3`, `♘f3`, `e2e4`, `e7e8q`); `help` lists the
other commands. The game (its rules, the draws claimed or agreed, take-backs, the PGN) is the one
every front end keeps (jitfish/game.py), and the robot judges draws and gives hints as in the
browser (jitfish/robot_policy.py); its searches run in this process, on the engine's Board.

It speaks the reader's language (`--lang`, else the environment as gettext reads it): every text
is a `Msg` said by a `Speaker` (jitfish/i18n.py), the moves it prints in letters or figurines as
the language's notation asks (`--notation`). The board keeps its Unicode pieces and a-h/1-8
coordinates; the commands are typed as their English words (a translated word the catalogue gives
is understood too); the PGN file stays English, as PGN requires.
"""

from __future__ import annotations

import datetime
import random
import sys
import unicodedata
from typing import Callable, Mapping, TextIO

import chess

from engine.board import Board
from search.levels import effective_elo, level_for_elo
from search.timeman import Limits

from jitfish.game import COLOURS, Game, GameError, side_name
from jitfish.i18n import N_, SOURCE, Moves, Msg, PMsg, Speaker, choose_language
from jitfish.levels_words import plays_like_sentence
from jitfish.setup import start_board
from jitfish.robot_policy import (HINT_SECONDS, JUDGE_SECONDS, Suggestion, accepts_draw, claims_draw, clip_score,
                                  robot_name, score_for)

HIGHLIGHT = "\x1b[43m"            # the last move's squares, on a terminal
RESET = "\x1b[0m"
# The commands, as typed (English words in every language), each with the line `help` says of it:
# a whole message with the command word as its placeholder, so that a translation keeps it.
HELP_LINES = (
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("undo", N_("{command} — take back your last move")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("hint", N_("{command} — a suggestion from the full-strength engine")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("draw", N_("{command} — claim a draw by threefold repetition or the fifty-move rule when you may, "
                "else offer one")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("resign", N_("{command} — resign the game")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("flip", N_("{command} — turn the board")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("board", N_("{command} — show the board again")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("help", N_("{command} — show this list")),
    # Translators: a line of the terminal game's help; {command} is the word typed: keep it
    ("quit", N_("{command} — leave without a result")),
)
COMMANDS = tuple(word for word, _ in HELP_LINES)
# A word the reader may type for a command besides the English one, where the catalogue gives one
# (its translation left as the English word: only the English is understood).
TRANSLATED_COMMANDS = {
    # Translators: a word the player may type for the command "undo" besides "undo" (one
    # word, no spaces); left as "undo", only the English word is understood
    "undo": PMsg("a command typed in the terminal game", "undo"),
    # Translators: a word the player may type for the command "hint" besides "hint" (one
    # word, no spaces); left as "hint", only the English word is understood
    "hint": PMsg("a command typed in the terminal game", "hint"),
    # Translators: a word the player may type for the command "draw" besides "draw" (one
    # word, no spaces); left as "draw", only the English word is understood
    "draw": PMsg("a command typed in the terminal game", "draw"),
    # Translators: a word the player may type for the command "resign" besides "resign" (one
    # word, no spaces); left as "resign", only the English word is understood
    "resign": PMsg("a command typed in the terminal game", "resign"),
    # Translators: a word the player may type for the command "flip" besides "flip" (one
    # word, no spaces); left as "flip", only the English word is understood
    "flip": PMsg("a command typed in the terminal game", "flip"),
    # Translators: a word the player may type for the command "board" besides "board" (one
    # word, no spaces); left as "board", only the English word is understood
    "board": PMsg("a command typed in the terminal game", "board"),
    # Translators: a word the player may type for the command "help" besides "help" (one
    # word, no spaces); left as "help", only the English word is understood
    "help": PMsg("a command typed in the terminal game", "help"),
    # Translators: a word the player may type for the command "quit" besides "quit" (one
    # word, no spaces); left as "quit", only the English word is understood
    "quit": PMsg("a command typed in the terminal game", "quit"),
}


def command_words(speaker: Speaker) -> dict[str, str]:
    """What the reader may type for each command (case aside) -> the command: the English words,
    `exit` for quit, and each translated word the catalogue gives that is one word, differs from
    the English and is no other command's."""
    words = {word: word for word in COMMANDS}
    words["exit"] = "quit"
    for word, message in TRANSLATED_COMMANDS.items():
        said = unicodedata.normalize("NFC", speaker.say(message).strip()).casefold()
        if said and said != word and len(said.split()) == 1 and said not in words:
            words[said] = word
    return words


def help_messages(speaker: Speaker) -> list[Msg]:
    """What `help` says, one message a line: how to type a move, then each command (its word as
    typed, with its translated word where the catalogue gives one)."""
    aliases: dict[str, list[str]] = {}
    for typed, word in command_words(speaker).items():
        if typed not in (word, "exit"):
            aliases.setdefault(word, []).append(typed)
    lines = [Msg("Type a move or a command:"),
             Msg("a move, such as {examples}, or its two squares, such as {squares}",
                 examples=Moves("e4, Nf3, O-O, e7e8=Q"), squares="e2e4, e7e8q")]
    for word, text in HELP_LINES:
        lines.append(Msg(text, command=" / ".join([word, *aliases.get(word, [])])))
    return lines


def make_speaker(lang: str | None, notation: str | None, environ: Mapping[str, str] | None = None) -> Speaker:
    """The speaker of a game: its language (`choose_language`) and its notation (`letters` or
    `figurines`; None: the language's default)."""
    return Speaker(choose_language(lang, environ), None if notation is None else notation == "figurines")


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
                 seed: int, think_seconds: float, speaker: Speaker | None = None) -> None:
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
        self.speaker = speaker or Speaker(SOURCE)
        self.commands = command_words(self.speaker)

    def say(self, message: Msg | str) -> None:
        """Print a message in the reader's language."""
        self.write(self.speaker.say(message))

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
        line = Moves(f"{number} {ply.san}")
        self.say(Msg("Jitfish plays {move}", move=line))

    def offer_draw(self) -> None:
        """The person offers a draw; the robot answers from a short full-strength search."""
        game = self.game
        game.offer_draw(self.human)
        judgement = self.search(self.adviser, JUDGE_SECONDS)
        accept = accepts_draw(score_for(judgement, game.board, not self.human), game.board)
        game.answer_draw(not self.human, accept)
        if not accept:
            self.say(Msg("Jitfish declines the draw"))

    def human_turn(self) -> bool:
        """Handle input until the person has moved; False when the game ended or was left."""
        game = self.game
        kind = game.claimable()
        if kind == "threefold":
            self.say(Msg("You may claim a draw by threefold repetition: type {command}", command="draw"))
        elif kind == "fifty":
            self.say(Msg("You may claim a draw by the fifty-move rule: type {command}", command="draw"))
        while True:
            try:
                text = self.read().strip()
            except EOFError:
                return False
            if not text:
                continue
            command = self.commands.get(unicodedata.normalize("NFC", text).casefold())
            if command == "help":
                heading, *lines = help_messages(self.speaker)
                self.say(heading)
                for line in lines:
                    self.write("  " + self.speaker.say(line))
            elif command == "quit":
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
                score = f"{hint.score_cp / 100:+.2f}"
                self.say(Msg("hint: {move} (score {score} for you)", move=Moves(game.board.san(hint.move)),
                             score=score))
            elif command == "undo":
                try:
                    game.take_back()
                except GameError as exc:
                    self.say(problem(exc))
                    continue
                self.show()
            else:
                try:
                    move = game.parse_text(text)
                except GameError as exc:
                    # Translators: {problem} is why a typed text is no move; {command} is the word typed, help
                    self.say(Msg("{problem} (try `{command}`)", problem=problem(exc), command="help"))
                    continue
                game.play(move)
                return True

    def run(self) -> None:
        game = self.game
        robot = robot_name(self.elo)
        if self.human == chess.WHITE:
            self.say(Msg("You play White against {robot}. Type a move or `{command}`.",
                         robot=robot, command="help"))
        else:
            self.say(Msg("You play Black against {robot}. Type a move or `{command}`.",
                         robot=robot, command="help"))
        person = plays_like_sentence(self.elo, robot)
        if person is not None:
            self.say(person)
        self.show()
        while not game.over:
            if game.board.turn == self.human:
                if not self.human_turn():
                    break
            else:
                self.robot_turn()
                if not game.over:
                    self.show()
        self.say(game.reason if game.over else Msg("game left unfinished"))


def problem(exc: GameError) -> Msg | str:
    """What a GameError says to the player: its message (its English text where it carries none)."""
    message = exc.args[0] if exc.args else None
    return message if isinstance(message, Msg) else str(exc)


def pgn_text(game: Game, elo: int) -> str:
    assert game.human is not None
    headers = {"Event": "Jitfish game", "Site": "jitfish play", side_name(game.human): "You",
               side_name(not game.human): robot_name(elo), f"{side_name(not game.human)}Elo": str(elo)}
    return game.pgn(headers)


def run_game(fen: str, human: chess.Color, elo: int, seed: int, think_seconds: float, pgn_path: str | None,
             read: Callable[[], str], out: TextIO, colour: bool, speaker: Speaker | None = None) -> int:
    """Play one game, said by `speaker` (English in letters by default); returns the exit status
    (2 for a position that cannot be played)."""
    speaker = speaker or Speaker(SOURCE)

    def write(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    try:
        start = start_board(fen, False, random.Random(seed))
    except GameError as exc:
        write(speaker.say(Msg("error: {problem}", problem=problem(exc))))
        return 2
    game = Game(start, human)
    Session(game, elo, read, write, colour, seed, think_seconds, speaker).run()
    if game.plies or game.over:
        path = pgn_path or datetime.datetime.now().strftime("jitfish-game-%Y%m%d-%H%M%S.pgn")
        with open(path, "a") as handle:
            handle.write(pgn_text(game, elo) + "\n")
        write(speaker.say(Msg("game saved to {path}", path=path)))
    return 0


def main(args) -> int:
    """The `jitfish play` subcommand (arguments from jitfish.cli)."""
    from search.levels import SKILL_LEVELS

    speaker = make_speaker(getattr(args, "lang", None), getattr(args, "notation", None))
    if args.level is not None and args.elo is not None:
        print(speaker.say(Msg("error: give {level} or {elo}, not both", level="--level", elo="--elo")),
              file=sys.stderr)
        return 2
    elo = effective_elo(args.elo is not None, args.elo or 0, SKILL_LEVELS if args.level is None else args.level)
    human = COLOURS[args.color] if args.color != "random" else random.choice((chess.WHITE, chess.BLACK))
    seed = args.seed or random.getrandbits(62) + 1
    return run_game(args.fen, human, elo, seed, args.time, args.pgn, input, sys.stdout, sys.stdout.isatty(),
                    speaker)
