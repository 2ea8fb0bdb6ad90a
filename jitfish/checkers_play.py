"""`jitfish checkers play`: a game of checkers against the engine in the terminal.

The board is drawn with the square numbers beside it (1-32, Black's home row 1-4), the player's
own pieces at the bottom; moves are typed as in the books: `11-15`, a jump with every landing
square `15x24x31`, or only its ends `15x31` when that names one jump. `help` lists the commands
(`undo`, `draw`, `resign`, `board`, `help`, `quit`). Jumping is compulsory: the game says which
moves are legal when a typed one is not.

Every text is a whole `Msg` said by a `Speaker` in the reader's language (jitfish/i18n.py), as in
the chess terminal game (jitfish/play.py); the commands are typed as their English words.
"""

from __future__ import annotations

import random
import re
import sys
from typing import Callable

from jitfish.i18n import N_, SOURCE, Msg, Speaker, choose_language

BLACK, WHITE = 0, 1                 # checkers.defs (imported with the engine, in the session)
MOVE_SHAPE = re.compile(r"\d{1,2}(?:-\d{1,2}|(?:x\d{1,2})+)")
HELP_LINES = (
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("undo", N_("{command} — take back your last move")),
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("draw", N_("{command} — claim a draw by threefold repetition or the 40-move rule when you may, "
                "else offer one")),
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("resign", N_("{command} — resign the game")),
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("board", N_("{command} — show the board again")),
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("help", N_("{command} — show this list")),
    # Translators: a line of the checkers terminal game's help; {command} is the word typed: keep it
    ("quit", N_("{command} — leave without a result")),
)
COMMANDS = {word: word for word, _ in HELP_LINES} | {"exit": "quit"}
PIECES = {(BLACK, False): "b", (BLACK, True): "B", (WHITE, False): "w", (WHITE, True): "W"}


def render(board, human: int) -> str:
    """The board beside its square numbers, the human's pieces at the bottom: b/w men, B/W kings,
    `.` an empty dark square (letters in every language, as the books print them)."""
    setup = board.setup()
    rows = range(8) if human == WHITE else range(7, -1, -1)
    lines = []
    for row in rows:
        files = range(8) if human == WHITE else range(7, -1, -1)
        cells, numbers = [], []
        for file in files:
            if (row + file) % 2 == 0:
                cells.append("   ")
                numbers.append("   ")
                continue
            i = 4 * row + file // 2
            if setup.black >> i & 1:
                cells.append("  " + PIECES[(BLACK, bool(setup.kings >> i & 1))])
            elif setup.white >> i & 1:
                cells.append("  " + PIECES[(WHITE, bool(setup.kings >> i & 1))])
            else:
                cells.append("  .")
            numbers.append(f"{i + 1:3d}")
        lines.append("".join(cells) + "     " + "".join(numbers))
    return "\n".join(lines)


class Session:
    """One game against the engine; `read` gives a typed line, `write` prints one."""

    def __init__(self, board, human: int, level: int, think_seconds: float, read: Callable[[], str],
                 write: Callable[[str], None], speaker: Speaker | None = None, seed: int | None = None) -> None:
        from checkers.driver import Searcher
        from checkers.levels import apply_level

        self.board, self.human, self.level = board, human, level
        self.think_seconds = think_seconds
        self.read, self.write = read, write
        self.speaker = speaker or Speaker(SOURCE)
        self.rng = random.Random(seed)
        self.engine = Searcher(1 << 18)
        self.adviser = Searcher(1 << 18)            # full strength: judging draws
        self._apply_level = apply_level
        self.result: Msg | None = None

    def say(self, message: Msg) -> None:
        self.write(self.speaker.say(message))

    def show(self) -> None:
        self.write(render(self.board, self.human))

    # ---- the engine --------------------------------------------------------------------------

    def _search(self, searcher, seconds: float):
        from checkers.driver import Limits

        return searcher.run(self.board, Limits(movetime=max(1, int(seconds * 1000))))

    def claimable(self) -> Msg | None:
        """The draw the side to move may claim now, or None."""
        if self.board.quiet_plies >= 80:
            return Msg("Draw by the 40-move rule")
        if self.board.repetitions() >= 2:
            return Msg("Draw by threefold repetition")
        return None

    def engine_turn(self) -> None:
        claim = self.claimable()
        if claim is not None and self._search(self.adviser, 0.2).score <= 0:
            self.say(Msg("Jitfish claims the draw"))
            self.result = claim
            return
        self._apply_level(self.engine, self.level, self.rng)
        move = self._search(self.engine, self.think_seconds).best
        text = self.board.notation(move)
        self.board.push(move)
        self.say(Msg("Jitfish plays {move}", move=text))

    # ---- the person --------------------------------------------------------------------------

    def help(self) -> None:
        self.say(Msg("Type a move or a command:"))
        self.write("  " + self.speaker.say(Msg("a move, such as {step} or {jump} (or only its ends, {short})",
                                               step="11-15", jump="15x24x31", short="15x31")))
        for word, text in HELP_LINES:
            self.write("  " + self.speaker.say(Msg(text, command=word)))

    def undo(self) -> None:
        board = self.board
        moves = board.moves_played
        if not moves or (board.turn == self.human and len(moves) < 2):
            self.say(Msg("There is no move of yours to take back"))
            return
        board.pop()
        if board.turn != self.human:
            board.pop()
        self.show()

    def draw(self) -> bool:
        """The person claims or offers a draw; True when the game ended."""
        claim = self.claimable()
        if claim is not None:
            self.result = claim
            return True
        score = self._search(self.adviser, 0.3).score         # for the person, who is to move
        if score > 30:
            self.say(Msg("Jitfish accepts the draw"))
            self.result = Msg("Draw agreed")
            return True
        self.say(Msg("Jitfish declines the draw"))
        return False

    def human_turn(self) -> bool:
        """Read until the person has moved; False when the game ended or was left."""
        from checkers.notation import MoveError

        claim = self.claimable()
        if claim is not None:
            self.say(Msg("You may claim a draw: type {command}", command="draw"))
        while True:
            try:
                text = self.read().strip()
            except EOFError:
                return False
            if not text:
                continue
            command = COMMANDS.get(text.casefold())
            if command == "help":
                self.help()
            elif command == "quit":
                return False
            elif command == "resign":
                self.result = Msg("You resign: Jitfish wins")
                return False
            elif command == "draw":
                if self.draw():
                    return False
            elif command == "board":
                self.show()
            elif command == "undo":
                self.undo()
            elif not MOVE_SHAPE.fullmatch(text.lower()):
                self.say(Msg("{text} is neither a move nor a command (try `{command}`)", text=text[:40],
                             command="help"))
            else:
                try:
                    self.board.push_notation(text)
                except MoveError as exc:
                    legal = ", ".join(self.board.legal_notation())
                    if "ambiguous" in str(exc):
                        self.say(Msg("{move} could be more than one jump: write every landing square "
                                     "(the legal moves: {moves})", move=text, moves=legal))
                    else:
                        self.say(Msg("{move} is not a legal move here (the legal moves: {moves})",
                                     move=text, moves=legal))
                    continue
                return True

    # ---- the game ----------------------------------------------------------------------------

    def over(self) -> bool:
        if self.result is not None:
            return True
        if not self.board.legal_moves():
            if self.board.turn == self.human:
                self.result = Msg("Jitfish wins: you have no legal move")
            else:
                self.result = Msg("You win: Jitfish has no legal move")
            return True
        return False

    def run(self) -> Msg:
        if self.human == BLACK:
            self.say(Msg("You play Black (you move first) against Jitfish at level {level}. "
                         "Type a move or `{command}`.", level=self.level, command="help"))
        else:
            self.say(Msg("You play White against Jitfish at level {level}. Type a move or `{command}`.",
                         level=self.level, command="help"))
        self.show()
        while not self.over():
            if self.board.turn == self.human:
                if not self.human_turn():
                    break
                if not self.over():
                    self.engine_turn()
            else:
                self.engine_turn()
            if self.result is None:
                self.show()
        result = self.result or Msg("Game left unfinished")
        self.say(result)
        return result


def main(args) -> int:
    """`jitfish checkers play` (arguments from jitfish.cli)."""
    from checkers.board import Board
    from checkers.notation import START_FEN, FenError

    speaker = Speaker(choose_language(getattr(args, "lang", None)))
    try:
        board = Board(getattr(args, "fen", None) or START_FEN)
    except FenError as exc:
        print(speaker.say(Msg("error: invalid FEN: {problem}", problem=str(exc))), file=sys.stderr)
        return 2
    human = BLACK if getattr(args, "color", "black") == "black" else WHITE
    Session(board, human, getattr(args, "level", 10) or 10, getattr(args, "time", 1.0) or 1.0, input,
            lambda text: print(text, flush=True), speaker).run()
    return 0
