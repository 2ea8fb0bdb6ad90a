"""`jitfish play`: a scripted human against the engine, through the same loop a terminal uses."""

import io
import random

import chess
import chess.pgn
import pytest

from engine.fen import STARTING_FEN
from jitfish.game import Game
from jitfish.i18n import Speaker
from jitfish.setup import start_board
from jitfish.play import Session, engine_board, render, run_game


def play(tmp_path, commands: list[str], fen: str = STARTING_FEN, human: chess.Color = chess.WHITE, elo: int = 1000,
         speaker: Speaker | None = None, think_seconds: float = 0.05):
    """Run a game fed `commands` (said by `speaker`, English by default); the printed text and the
    saved PGN (None if nothing was saved)."""
    feed = iter(commands)

    def read() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    path = tmp_path / "game.pgn"
    status = run_game(fen, human, elo, seed=11, think_seconds=think_seconds, pgn_path=str(path), read=read, out=out,
                      colour=False, speaker=speaker)
    assert status == 0
    game = chess.pgn.read_game(io.StringIO(path.read_text())) if path.exists() else None
    return out.getvalue(), game


@pytest.mark.parametrize("fen, move, announcement, result", [
    ("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1", "Rb8#", "Checkmate: White wins", "1-0"),
    ("k7/8/8/1Q6/8/8/8/7K w - - 0 1", "Qb6", "Draw by stalemate", "1/2-1/2"),
    ("k7/8/8/8/8/8/8/Kr6 w - - 0 1", "Kxb1", "Draw by insufficient material", "1/2-1/2"),
    # Fifty moves are a draw to claim (FIDE 9.3): the robot, a rook down, claims it.
    ("k7/8/8/8/8/8/1R6/K7 w - - 99 80", "Rb3", "Draw by the fifty-move rule (claimed by Black)", "1/2-1/2"),
])
def test_the_end_of_the_game_is_announced_and_saved(tmp_path, fen, move, announcement, result):
    text, game = play(tmp_path, [move], fen)
    assert announcement in text
    assert game.headers["Result"] == result and game.headers["FEN"] == fen
    assert game.headers["White"] == "You" and game.headers["Black"] == "Jitfish 1000"
    assert game.headers["BlackElo"] == "1000" and game.headers["Termination"] == "normal"
    assert game.end().comment == announcement
    assert [m.uci() for m in game.mainline_moves()] == [game.board().parse_san(move).uci()]


def session(game: Game, lines: list[str], written: list[str]) -> Session:
    feed = iter(lines)
    return Session(game, 1000, lambda: next(feed), written.append, False, 1, 0.05)


def test_threefold_repetition_is_a_draw_the_person_may_claim():
    game = Game(chess.Board(), chess.WHITE)
    for _ in range(2):
        for text in ("g1f3", "g8f6", "f3g1", "f6g8"):
            assert not game.over
            game.play(chess.Move.from_uci(text))
    assert not game.over and game.claimable() == "threefold"
    written: list[str] = []
    assert not session(game, ["draw"], written).human_turn()
    assert written == ["You may claim a draw by threefold repetition: type draw"]
    assert game.result == "1/2-1/2" and str(game.reason) == "Draw by threefold repetition (claimed by White)"


def test_the_robot_claims_a_repetition_only_when_not_better():
    """Black is a queen up: it plays on instead of claiming. A queen down, it claims."""
    for fen, claims in (("q3k3/8/8/8/8/8/8/4K3 w - - 0 1", False), ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", True)):
        game = Game(chess.Board(fen), chess.WHITE)
        for text in ("e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1"):
            game.play(chess.Move.from_uci(text))
        assert game.claimable() == "threefold"
        written: list[str] = []
        session(game, [], written).robot_turn()
        assert game.over == claims
        if claims:
            assert str(game.reason) == "Draw by threefold repetition (claimed by Black)" and not written
        else:
            assert len(game.plies) == 8 and written[0].startswith("Jitfish plays 4... ")


def test_san_and_uci_input_undo_hint_flip_and_bad_input(tmp_path):
    text, game = play(tmp_path, ["e2e4", "hint", "nonsense", "Nf3", "undo", "d4", "flip", "board", "quit"])
    assert "hint: " in text and "nonsense is not a legal move here (try `help`)" in text
    assert text.count("Jitfish plays") == 3                   # answers to e4, Nf3 (taken back) and d4
    moves = [m.uci() for m in game.mainline_moves()]
    assert moves[0] == "e2e4" and moves[2] == "d2d4" and len(moves) == 4
    assert game.headers["Result"] == "*" and "Termination" not in game.headers
    flipped = text.split("  a  b  c  d  e  f  g  h")[-1]     # after flip the files run h..a
    assert "   h  g  f  e  d  c  b  a" in flipped


def test_undo_needs_a_move_of_ones_own(tmp_path):
    text, game = play(tmp_path, ["undo", "quit"], human=chess.BLACK)
    assert "nothing to take back" in text and len(list(game.mainline_moves())) == 1


def test_resign_and_declined_draw(tmp_path):
    text, game = play(tmp_path, ["e4", "draw", "resign"], human=chess.WHITE,     # Black is a queen up
                      fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1")
    assert "Jitfish declines the draw" in text and "White resigns: Black wins" in text
    assert game.headers["Result"] == "0-1"


def test_engine_moves_first_when_the_human_has_black(tmp_path):
    text, game = play(tmp_path, ["quit"], human=chess.BLACK)
    assert text.index("Jitfish plays 1.") < text.index("game left unfinished")
    assert game.headers["White"].startswith("Jitfish") and game.headers["Black"] == "You"


def test_the_robot_says_when_it_plays_like_people(tmp_path):
    """A level of the human model introduces itself so; a level that weakens the search does not."""
    from search.levels import plays_like

    from jitfish.levels_words import plays_like_words

    text, _ = play(tmp_path, ["quit"], elo=1400)
    assert f"Jitfish 1400 {plays_like(1400)}." in text and "lichess" in plays_like(1400)
    assert str(plays_like_words(1400)) == plays_like(1400) and plays_like_words(2100) is None
    text, _ = play(tmp_path, ["quit"], elo=2100)
    assert "plays like" not in text


def test_accepts_a_draw_when_worse(tmp_path):
    text, game = play(tmp_path, ["draw"], fen="k7/8/8/8/8/8/1Q6/K7 w - - 0 1")
    assert "Draw by agreement" in text and game.headers["Result"] == "1/2-1/2"


def test_the_engine_board_replays_the_game():
    """The search's Board has the game's moves from its start: castling, and the repetition."""
    game = Game(start_board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False, random.Random(1)), chess.WHITE)
    for text in ("e1g1", "a8b8", "g1g2", "b8a8", "g2g1", "a8b8", "g1g2", "b8a8", "g2g1"):
        game.play(chess.Move.from_uci(text))
    board = engine_board(game)
    assert board.fen() == game.board.fen() and board.ply == 9
    assert board.repetitions() == 1 and game.board.is_repetition(2)


def test_render_marks_the_last_move():
    board = chess.Board()
    board.push_uci("e2e4")
    text = render(board, (chess.E2, chess.E4), white_at_bottom=True, colour=False)
    assert text.splitlines()[4] == "4  ·  ·  ·  · [♙] ·  ·  · "
    assert "[·]" in text.splitlines()[6]
    assert render(board, None, white_at_bottom=False, colour=False).splitlines()[0] == "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖ "


@pytest.mark.parametrize("argv", [["play", "--elo", "100"], ["play", "--level", "21"],
                                  ["play", "--level", "3", "--elo", "900"], ["play", "--fen", "8/8/8 w - -"]])
def test_cli_refuses_bad_arguments(argv, capsys, monkeypatch):
    from jitfish.cli import main

    monkeypatch.setattr("builtins.input", lambda: (_ for _ in ()).throw(EOFError))
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "error:" in captured.err + captured.out
