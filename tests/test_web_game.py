"""The browser's game (jitfish/web/game.py) without a server or an engine process: the page's
settings, its moves by drag, the names and the PGN it offers. The game's rules are the shared
ones of jitfish/game.py (tests/test_game.py)."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from jitfish.clock import PRESETS
from jitfish.game import GameError
from jitfish.web.game import Game, Settings
from jitfish.web.robot import level_name
from search.levels import FULL_STRENGTH_ELO


def make(**settings) -> Game:
    return Game(Settings.from_json(dict({"opponent": "human", "clock": "none"}, **settings)), random.Random(5))


def play(game: Game, *moves: str, now: float = 0.0) -> None:
    for uci in moves:
        game.play(game.resolve(uci[:2], uci[2:4], uci[4:] or None), now)


def test_settings_are_read_and_checked():
    settings = Settings.from_json({"opponent": "robot", "color": "random", "elo": "1500", "clock": "3+2"})
    assert settings.elo == 1500 and settings.clock == PRESETS["3+2"] and settings.takeback
    assert Settings.from_json(settings.to_json()) == settings
    for bad, message in (({"opponent": "cat"}, "opponent"), ({"color": "green"}, "colour"),
                         ({"elo": 399}, "level"), ({"elo": FULL_STRENGTH_ELO + 1}, "level"), ({"clock": "2+1"}, "clock"),
                         ({"takeback": "yes"}, "takeback"), ({"position": "x" * 30000}, "at most"), ([], "object"),
                         ({"clock": "custom", "clock_spec": {"mode": "fischer", "periods": [{"minutes": 0.001}]}},
                          r"clock: the minutes must be at least 0\.25 \(15 seconds\)")):
        with pytest.raises(GameError, match=message):
            Settings.from_json(bad)


def test_random_colour_and_names():
    colours = {Game(Settings.from_json({"color": "random"}), random.Random(seed)).human for seed in range(20)}
    assert colours == {chess.WHITE, chess.BLACK}
    game = Game(Settings.from_json({"color": "black", "elo": 800}), random.Random(1))
    assert game.player_name(chess.WHITE) == "Jitfish 800" and str(game.player_name(chess.BLACK)) == "You"
    assert game.is_robot(chess.WHITE) and game.robot_to_move()
    assert str(make().player_name(chess.BLACK)) == "Black" and str(make().status()) == "White to move"
    mated = make()
    play(mated, "f2f3", "e7e5", "g2g4", "d8h4")
    assert mated.check_square() == "e1" and str(mated.status()) == "Checkmate: Black wins"
    assert level_name(400) == "Beginner" and level_name(1250) == "Club newcomer"
    assert level_name(FULL_STRENGTH_ELO) == "Full strength"


def test_the_settings_choose_the_start():
    assert make(position="8/8/8/4k3/8/8/3QK3/8 w - - 0 1").board.fen() == "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
    game = make(position='[Event "x"]\n\n1. e4 e5 2. Nf3 *')
    assert [p.san for p in game.plies] == ["e4", "e5", "Nf3"] and game.first_live_ply == 3
    assert make(chess960=True, position="518").board.fen() == chess.STARTING_FEN
    assert make(chess960=True).board.chess960
    # A start number is a Chess960 game with or without the box, and the page's state says so.
    for ticked in (False, True):
        numbered = make(chess960=ticked, position="123")
        assert numbered.board.chess960 and str(numbered.to_json(0.0)["chess960"]) == "Chess960 (start 123)"
        assert '[Variant "Chess960"]' in numbered.to_json(0.0)["pgn"]
    assert make().to_json(0.0)["chess960"] is None
    assert str(make(chess960=True, position="4k3/8/8/8/8/8/8/4K3 w - - 0 1").to_json(0.0)["chess960"]) == "Chess960"
    with pytest.raises(GameError, match="neither a FEN nor a move"):
        make(position="not a fen")
    untimed = make(takeback=False)
    assert untimed.clock is None and not untimed.takeback
    assert Game(Settings.from_json({"clock": "3+2"}), random.Random(1)).clock.control == PRESETS["3+2"]


def test_castling_by_the_king_two_squares_or_onto_its_rook():
    game = make(position="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    targets = game.targets()
    assert targets[(chess.E1, chess.G1)] == targets[(chess.E1, chess.H1)] == [chess.Move.from_uci("e1g1")]
    assert targets[(chess.E1, chess.C1)] == targets[(chess.E1, chess.A1)] == [chess.Move.from_uci("e1c1")]
    assert chess.square_name(game.display_target(game.resolve("e1", "h1"))) == "g1"
    # Chess960 with the king on f1 and a rook on g1: g1 is the rook's square, castling goes onto it;
    # e1 stays an ordinary king move, never castling.
    game = make(chess960=True, position="k7/8/8/8/8/8/8/1R3KR1 w GB - 0 1")
    castle = game.resolve("f1", "g1")
    assert game.board.is_castling(castle) and game.board.is_kingside_castling(castle)
    assert not game.board.is_castling(game.resolve("f1", "e1"))
    play(game, "f1g1")
    assert game.plies[-1].san == "O-O" and chess.square_name(game.plies[-1].target) == "g1"
    assert game.to_json(0.0)["moves"][-1]["to"] == "g1"


def test_promotion_needs_a_piece_and_illegal_moves_are_refused():
    game = make(position="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    with pytest.raises(GameError, match="promote"):
        game.resolve("b7", "b8")
    assert game.resolve("b7", "b8", "r").promotion == chess.ROOK
    for origin, target in (("b7", "b6"), ("e2", "e4"), ("z9", "e4"), (None, 4)):
        with pytest.raises(GameError):
            game.resolve(origin, target)
    assert game.parse_text("b8=Q").promotion == chess.QUEEN and game.parse_text("b7b8n").promotion == chess.KNIGHT
    with pytest.raises(GameError):
        game.parse_text("Nf3")


def test_the_pages_pgn_names_the_player_and_the_robots_level():
    game = Game(Settings.from_json({"opponent": "robot", "clock": "3+2", "elo": 1000}), random.Random(2))
    play(game, "e2e4", now=0.0)
    play(game, "e7e5", now=4.0)
    assert game.check_flag(200.0)                            # White's 180 s have gone
    state = game.to_json(200.0)
    record = chess.pgn.read_game(io.StringIO(state["pgn"]))
    headers = record.headers
    assert (headers["White"], headers["Black"], headers["BlackElo"]) == ("Player", "Jitfish 1000", "1000")
    assert (headers["Event"], headers["Site"]) == ("Casual game", "Jitfish web")
    assert headers["TimeControl"] == "180+2" and headers["Result"] == "0-1"
    assert headers["Termination"] == "time forfeit"
    assert record.end().comment.endswith("White ran out of time: Black wins")
    assert state["over"] and str(state["reason"]) == "White ran out of time: Black wins" and not state["can_takeback"]
    bronstein = Game(Settings.from_json({"clock": "custom", "clock_spec": {"mode": "bronstein", "periods": [
        {"minutes": 5, "increment": 3}]}}), random.Random(2))
    headers = chess.pgn.read_game(io.StringIO(bronstein.pgn(bronstein.pgn_headers()))).headers
    assert headers["TimeControl"] == "300" and headers["TimeControlDelay"] == "Bronstein 3"


# A game pasted as PGN (the set-up box), ended by a resignation after 3...Bc5 (issue 72, item 8).
PASTED = """[Event "Casual correspondence"]
[Site "Berlin GER"]
[Date "1852.??.??"]
[Round "-"]
[White "Anderssen, Adolf"]
[Black "Dufresne, Jean"]
[Result "1-0"]
[WhiteElo "2600"]
[BlackElo "2450"]
[TimeControl "600+5"]
[ECO "C50"]
[Termination "Normal"]
[PlyCount "6"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 1-0
"""


def _record(game: Game) -> chess.pgn.Game:
    return chess.pgn.read_game(io.StringIO(game.to_json(0.0)["pgn"]))


def test_a_pasted_pgn_keeps_its_headers_and_its_result_until_play_goes_on():
    """The game's own tags stay in the PGN the page saves (and so in the review's): the players,
    the event, the date, the ratings, the time control; its result while no move has been played
    after it (or taken back to it). The moves go on from where it ended; between people the names
    beside the board are the PGN's."""
    game = make(position=PASTED, clock="3+2")
    assert [p.san for p in game.plies][-1] == "Bc5" and not game.over
    assert game.clock.control == PRESETS["3+2"]                      # the form's clock governs play
    state = game.to_json(0.0)
    assert state["players"] == {"white": "Anderssen, Adolf", "black": "Dufresne, Jean"}
    record = _record(game)
    tags = record.headers
    assert (tags["White"], tags["Black"], tags["Event"], tags["Site"]) == \
        ("Anderssen, Adolf", "Dufresne, Jean", "Casual correspondence", "Berlin GER")
    assert (tags["Date"], tags["Round"], tags["WhiteElo"], tags["BlackElo"]) == ("1852.??.??", "-", "2600", "2450")
    assert (tags["TimeControl"], tags["ECO"], tags["Result"], tags["Termination"]) == ("600+5", "C50", "1-0", "Normal")
    assert tags["PlyCount"] == "6" and "FEN" not in tags
    assert game.to_json(0.0)["pgn"].rstrip().endswith("1-0")
    assert [m.uci() for m in record.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]
    play(game, "c2c3")                                               # play goes on: the result is open
    tags = _record(game).headers
    assert tags["Result"] == "*" and "Termination" not in tags and "PlyCount" not in tags
    assert (tags["White"], tags["Black"], tags["TimeControl"]) == ("Anderssen, Adolf", "Dufresne, Jean", "600+5")
    assert game.to_json(0.0)["pgn"].rstrip().endswith("*")
    game.take_back()
    assert _record(game).headers["Result"] == "1-0"                  # back where the pasted game ended
    play(game, "c2c3", "g8f6", "d2d4")
    game.resign(chess.BLACK)
    tags = _record(game).headers
    assert tags["Result"] == "1-0" and tags["Termination"] == "normal"      # this game's own end
    assert _record(game).end().comment.endswith("Black resigns: White wins")


def test_a_pasted_pgn_against_the_robot_and_pgns_without_tags():
    robot = Game(Settings.from_json({"opponent": "robot", "color": "black", "elo": 1000, "clock": "none",
                                     "position": PASTED}), random.Random(1))
    assert str(robot.player_name(chess.BLACK)) == "You" and robot.player_name(chess.WHITE) == "Jitfish 1000"
    tags = _record(robot).headers
    assert (tags["White"], tags["Black"], tags["WhiteElo"], tags["BlackElo"]) == \
        ("Anderssen, Adolf", "Dufresne, Jean", "2600", "2450")
    # Tags a PGN leaves unknown ("?") and moves without tags: the page's own.
    unknown = make(position='[Event "?"]\n[Site "?"]\n[White "?"]\n[Black "Bob"]\n[Result "*"]\n\n1. d4 d5 *')
    tags = _record(unknown).headers
    assert (tags["Event"], tags["Site"], tags["White"], tags["Black"], tags["Result"]) == \
        ("Casual game", "Jitfish web", "White", "Bob", "*")
    assert str(unknown.player_name(chess.WHITE)) == "White" and unknown.player_name(chess.BLACK) == "Bob"
    bare = Game(Settings.from_json({"opponent": "robot", "color": "white", "elo": 1000, "clock": "3+2",
                                    "position": "1. e4 e5"}), random.Random(1))
    tags = _record(bare).headers
    assert (tags["White"], tags["Black"], tags["BlackElo"], tags["TimeControl"]) == \
        ("Player", "Jitfish 1000", "1000", "180+2")
    # A pasted game that ended on the board: its end is this game's end.
    mated = make(position='[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1')
    assert mated.over and _record(mated).headers["Result"] == "0-1"
