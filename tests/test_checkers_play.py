"""`jitfish checkers play`: the terminal game against the engine, driven by scripted input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from checkers.board import Board
from checkers.defs import POS_QUIET
from jitfish.checkers_play import BLACK, WHITE, Session, render
from jitfish.i18n import Speaker

ROOT = Path(__file__).resolve().parents[1]


def session(lines: list[str], fen: str | None = None, human: int = BLACK, level: int = 3):
    board = Board(fen) if fen else Board()
    typed = iter(lines)
    out: list[str] = []

    def read() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    return Session(board, human, level, 0.05, read, out.append, Speaker("en"), seed=1), board, out


def test_the_board_shows_every_square_number_and_the_human_at_the_bottom():
    text = render(Board(), BLACK)
    for number in range(1, 33):
        assert f" {number}" in text
    lines = text.splitlines()
    assert "b" in lines[-1] and "w" in lines[0]          # Black (the human) at the bottom
    lines = render(Board(), WHITE).splitlines()
    assert "w" in lines[-1] and "b" in lines[0]


def test_help_bad_input_a_move_the_reply_and_resign():
    game, board, out = session(["help", "hello", "11-14", "11-15", "resign"])
    result = game.run()
    text = "\n".join(out)
    for word in ("undo", "draw", "resign", "board", "help", "quit"):
        assert f"{word} — " in text
    assert "hello is neither a move nor a command" in text
    assert "11-14 is not a legal move here (the legal moves: 9-13, 10-14, 11-15, 12-16, 9-14, 10-15, 11-16)" in text
    assert "Jitfish plays " in text
    assert len(board.moves_played) == 2 and board.notation(board.moves_played[0]) == "11-15"
    assert str(result) == "You resign: Jitfish wins"


def test_jumps_are_typed_with_every_square_or_only_the_ends():
    game, board, out = session(["30x7", "quit"], fen="W:WK30:B25,17,10,1", human=WHITE)
    game.run()
    assert board.notation(board.moves_played[0]) == "30x21x14x7"


def test_undo_takes_back_the_move_and_the_reply():
    game, board, out = session(["undo", "11-15", "undo", "quit"])
    game.run()
    assert "There is no move of yours to take back" in "\n".join(out)
    assert board.moves_played == []


def test_the_engine_starts_when_the_human_plays_white():
    game, board, out = session(["quit"], human=WHITE)
    result = game.run()
    assert len(board.moves_played) == 1 and str(result) == "Game left unfinished"


def test_draw_is_claimed_under_the_40_move_rule_and_otherwise_offered():
    game, board, out = session(["draw"], fen="B:BK29:WK1")
    board.pos[POS_QUIET] = 80
    assert str(game.run()) == "Draw by the 40-move rule"
    game, board, out = session(["draw", "quit"], fen="B:BK29:WK1,K6")
    game.run()
    assert "Jitfish declines the draw" in "\n".join(out)       # it is winning
    game, board, out = session(["draw"], fen="B:BK29,K32:WK1")
    assert str(game.run()) == "Draw agreed"                    # it is losing


def test_a_won_game_ends_by_the_rules():
    game, board, out = session(["14x23"], fen="B:W18:B14")
    assert str(game.run()) == "You win: Jitfish has no legal move"


def test_the_command_line_plays_a_game():
    answer = subprocess.run([sys.executable, "-m", "jitfish.cli", "checkers", "play", "--level", "1", "--time",
                             "0.05", "--lang", "en"], cwd=ROOT, input="11-15\nboard\nquit\n", capture_output=True,
                            text=True, timeout=120)
    assert answer.returncode == 0, answer.stderr
    assert "Jitfish plays" in answer.stdout and "Game left unfinished" in answer.stdout
