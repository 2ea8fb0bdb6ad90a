"""`jitfish play`: a scripted human against the engine, through the same loop a terminal uses."""

import io

import chess.pgn
import pytest

from engine.board import Board
from engine.defs import BLACK, WHITE
from engine.fen import STARTING_FEN
from jitfish.play import Game, Session, parse_move, render, run_game


def play(tmp_path, commands: list[str], fen: str = STARTING_FEN, human: int = WHITE, elo: int = 1000):
    """Run a game fed `commands`; the printed text and the saved PGN (None if nothing was saved)."""
    feed = iter(commands)

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    path = tmp_path / "game.pgn"
    status = run_game(fen, human, elo, seed=11, think_seconds=0.05, pgn_path=str(path), read=read, out=out,
                      colour=False)
    assert status == 0
    game = chess.pgn.read_game(io.StringIO(path.read_text())) if path.exists() else None
    return out.getvalue(), game


@pytest.mark.parametrize("fen, move, announcement, result", [
    ("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1", "Rb8#", "checkmate: White wins", "1-0"),
    ("k7/8/8/1Q6/8/8/8/7K w - - 0 1", "Qb6", "draw by stalemate", "1/2-1/2"),
    ("k7/8/8/8/8/8/8/Kr6 w - - 0 1", "Kxb1", "draw by insufficient material", "1/2-1/2"),
    ("k7/8/8/8/8/8/1R6/K7 w - - 99 80", "Rb3", "draw by fifty-move rule", "1/2-1/2"),
])
def test_the_end_of_the_game_is_announced_and_saved(tmp_path, fen, move, announcement, result):
    text, game = play(tmp_path, [move], fen)
    assert announcement in text
    assert game.headers["Result"] == result and game.headers["FEN"] == fen
    assert game.headers["White"] == "You" and game.headers["Black"].startswith("Jitfish (Elo 1000)")
    assert [m.uci() for m in game.mainline_moves()] == [game.board().parse_san(move).uci()]


def test_threefold_repetition_is_announced():
    board = Board()
    session = Session(Game(board, WHITE, STARTING_FEN, 1000), lambda: "", lambda text: None, False, 1, 0.05)
    announced = []
    session.write = announced.append
    for _ in range(2):
        for text in ("g1f3", "g8f6", "f3g1", "f6g8"):
            assert not session.finished()
            session.play_move(board.parse_uci(text))
    assert session.finished() and announced == ["draw by threefold repetition"]
    assert session.game.result == "1/2-1/2"


def test_san_and_uci_input_undo_hint_flip_and_bad_input(tmp_path):
    text, game = play(tmp_path, ["e2e4", "hint", "nonsense", "Nf3", "undo", "d4", "flip", "board", "quit"])
    assert "hint: " in text and "'nonsense' is not a legal move here" in text
    assert text.count("Jitfish plays") == 3                   # answers to e4, Nf3 (taken back) and d4
    moves = [m.uci() for m in game.mainline_moves()]
    assert moves[0] == "e2e4" and moves[2] == "d2d4" and len(moves) == 4
    assert game.headers["Result"] == "*"
    flipped = text.split("  a  b  c  d  e  f  g  h")[-1]     # after flip the files run h..a
    assert "   h  g  f  e  d  c  b  a" in flipped


def test_resign_and_declined_draw(tmp_path):
    text, game = play(tmp_path, ["e4", "draw", "resign"], human=WHITE,     # Black is a queen up
                      fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
    assert "Jitfish declines the draw" in text and "you resign" in text
    assert game.headers["Result"] == "0-1"


def test_engine_moves_first_when_the_human_has_black(tmp_path):
    text, game = play(tmp_path, ["quit"], human=BLACK)
    assert text.index("Jitfish plays 1.") < text.index("game left unfinished")
    assert game.headers["White"].startswith("Jitfish") and game.headers["Black"] == "You"


def test_accepts_a_draw_when_worse(tmp_path):
    text, game = play(tmp_path, ["draw"], fen="k7/8/8/8/8/8/1Q6/K7 w - - 0 1")
    assert "draw agreed" in text and game.headers["Result"] == "1/2-1/2"


def test_move_parsing_accepts_both_notations():
    board = Board("r3k2r/8/8/8/8/8/1p6/R3K2R b KQkq - 0 1")
    assert board.uci(parse_move(board, "O-O")) == "e8g8"
    assert board.uci(parse_move(board, "b1=N")) == "b2b1n"
    assert board.uci(parse_move(board, "b2a1q")) == "b2a1q"
    assert board.uci(parse_move(board, "bxa1=Q")) == "b2a1q"


def test_render_marks_the_last_move():
    board = Board()
    board.push_uci("e2e4")
    text = render(board, "e2e4", white_at_bottom=True, colour=False)
    assert text.splitlines()[4] == "4  ·  ·  ·  · [♙] ·  ·  · "
    assert "[·]" in text.splitlines()[6]


@pytest.mark.parametrize("argv", [["play", "--elo", "100"], ["play", "--level", "21"],
                                  ["play", "--level", "3", "--elo", "900"], ["play", "--fen", "8/8/8 w - -"]])
def test_cli_refuses_bad_arguments(argv, capsys, monkeypatch):
    from jitfish.cli import main

    monkeypatch.setattr("builtins.input", lambda: (_ for _ in ()).throw(EOFError))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "error:" in captured.err + captured.out
