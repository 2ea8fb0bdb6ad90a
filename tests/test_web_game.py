"""The game record of `jitfish web` (jitfish/web/game.py) and the robot's pure decisions
(jitfish/web/robot.py), without a server or an engine process."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from jitfish.web.clock import PRESETS
from jitfish.web.game import Game, GameError, Settings
from jitfish.web.robot import FULL_STRENGTH_ELO, accepts_draw, human_pause, level_name


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
                         ({"takeback": "yes"}, "takeback"), ({"position": "x" * 30000}, "at most"), ([], "object")):
        with pytest.raises(GameError, match=message):
            Settings.from_json(bad)


def test_random_colour_and_names():
    colours = {Game(Settings.from_json({"color": "random"}), random.Random(seed)).human for seed in range(20)}
    assert colours == {chess.WHITE, chess.BLACK}
    game = Game(Settings.from_json({"color": "black", "elo": 800}), random.Random(1))
    assert game.player_name(chess.WHITE) == "Jitfish 800" and game.player_name(chess.BLACK) == "You"
    assert game.is_robot(chess.WHITE) and game.robot_to_move()


def test_start_positions_fen_pgn_and_chess960():
    assert make(position="8/8/8/4k3/8/8/3QK3/8 w - - 0 1").board.fen() == "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
    game = make(position='[Event "x"]\n\n1. e4 e5 2. Nf3 *')
    assert [p.san for p in game.plies] == ["e4", "e5", "Nf3"] and game.board.turn == chess.BLACK
    assert game.root.fen() == chess.STARTING_FEN and game.first_live_ply == 3
    assert make(chess960=True, position="518").board.fen() == chess.STARTING_FEN
    assert make(chess960=True).board.chess960
    for bad, message in (("not a fen", "invalid FEN"), ("8/8/8/8/8/8/8/8 w - - 0 1", "cannot occur"),
                         ("1. e4 e5 2. Ke3 *", "PGN"), ("999", "invalid FEN")):
        with pytest.raises(GameError, match=message):
            make(position=bad)
    with pytest.raises(GameError, match="0 to 959"):
        make(chess960=True, position="960")


def test_castling_by_the_king_two_squares_or_onto_its_rook():
    game = make(position="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    targets = game.targets()
    assert targets[(chess.E1, chess.G1)] == targets[(chess.E1, chess.H1)] == [chess.Move.from_uci("e1g1")]
    assert targets[(chess.E1, chess.C1)] == targets[(chess.E1, chess.A1)] == [chess.Move.from_uci("e1c1")]
    # Chess960 with the king on f1 and a rook on g1: g1 is the rook's square, castling goes onto it;
    # e1 stays an ordinary king move, never castling.
    game = make(chess960=True, position="k7/8/8/8/8/8/8/1R3KR1 w GB - 0 1")
    castle = game.resolve("f1", "g1")
    assert game.board.is_castling(castle) and game.board.is_kingside_castling(castle)
    assert not game.board.is_castling(game.resolve("f1", "e1"))
    play(game, "f1g1")
    assert game.plies[-1].san == "O-O" and chess.square_name(game.plies[-1].target) == "g1"


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


def test_automatic_ends_and_claims():
    game = make()
    for _ in range(2):
        play(game, "g1f3", "g8f6", "f3g1", "f6g8")
    assert game.claimable() == "threefold" and not game.over
    for _ in range(2):
        play(game, "g1f3", "g8f6", "f3g1", "f6g8")
    assert game.over and game.reason == "Draw by fivefold repetition" and game.positional_end
    game = make(position="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    play(game, "a1a2")
    assert game.claimable() == "fifty"
    game.claim_draw(0.0)
    assert game.result == "1/2-1/2" and "fifty-move rule (claimed by Black)" in game.reason
    game = make(position="4k3/8/8/8/8/8/8/R3K3 w - - 149 100")
    play(game, "a1a2")
    assert game.reason == "Draw by the 75-move rule"
    game = make(position="4k3/8/8/8/8/8/8/3bK3 w - - 0 1")
    assert game.over and game.reason == "Draw by insufficient material"
    game = make()
    play(game, "f2f3", "e7e5", "g2g4", "d8h4")
    assert game.result == "0-1" and game.reason == "Checkmate: Black wins" and game.check_square() == "e1"


def test_take_backs():
    robot = Game(Settings.from_json({"opponent": "robot", "clock": "3+2"}), random.Random(1))
    assert robot.takeback_plies() == 0
    play(robot, "e2e4", now=1.0)
    assert robot.takeback_plies() == 1                 # the robot is thinking: the person's move
    play(robot, "e7e5", now=3.0)
    play(robot, "g1f3", now=10.0)
    play(robot, "b8c6", now=12.0)
    assert robot.takeback_plies() == 2
    assert robot.take_back(20.0) == 2 and [p.san for p in robot.plies] == ["e4", "e5"]
    # both clocks as they were when this position arose: White to move, Black charged 2 s, +2
    assert robot.clock.running == chess.WHITE and robot.clock.remaining(chess.BLACK, 20.0) == pytest.approx(180.0)
    assert robot.clock.remaining(chess.WHITE, 20.0) == pytest.approx(182.0)
    robot.take_back(21.0)
    assert robot.plies == [] and robot.clock.running is None      # the first move is again untimed
    off = Game(Settings.from_json({"opponent": "human", "takeback": False}), random.Random(1))
    play(off, "e2e4")
    with pytest.raises(GameError, match="off"):
        off.take_back(0.0)
    resigned = make()
    play(resigned, "e2e4")
    resigned.resign(chess.BLACK, 0.0)
    assert resigned.takeback_plies() == 0                   # a resignation is not taken back


def test_draw_offers_between_people():
    game = make()
    game.offer_draw(chess.WHITE)
    with pytest.raises(GameError):
        game.offer_draw(chess.WHITE)
    with pytest.raises(GameError):
        game.answer_draw(chess.WHITE, True, 0.0)          # not one's own offer
    play(game, "e2e4")                                      # White moves: the offer stands
    assert game.draw_offer == chess.WHITE
    play(game, "e7e5")                                      # Black moves instead: declined
    assert game.draw_offer is None
    game.offer_draw(chess.WHITE)
    game.answer_draw(chess.BLACK, True, 0.0)
    assert game.reason == "Draw by agreement" and game.result == "1/2-1/2"


def test_flag_and_pgn_record():
    game = Game(Settings.from_json({"opponent": "robot", "clock": "3+2", "elo": 1000}), random.Random(2))
    play(game, "e2e4", now=0.0)
    play(game, "e7e5", now=4.0)
    assert not game.check_flag(100.0)
    assert game.check_flag(200.0)                            # White's 180 s have gone
    assert game.result == "0-1" and game.termination == "time forfeit"
    record = chess.pgn.read_game(io.StringIO(game.pgn()))
    headers = record.headers
    assert (headers["White"], headers["Black"], headers["BlackElo"]) == ("Player", "Jitfish 1000", "1000")
    assert headers["TimeControl"] == "180+2" and headers["Result"] == "0-1"
    assert headers["Termination"] == "time forfeit"
    clocks = [node.clock() for node in record.mainline()]
    assert clocks == [pytest.approx(182.0), pytest.approx(178.0)]
    assert record.end().comment.endswith("White ran out of time: Black wins")
    chess960 = make(chess960=True, position="100")
    record = chess.pgn.read_game(io.StringIO(chess960.pgn()))
    assert record.headers["Variant"] == "Chess960" and record.board().chess960


def test_robot_decisions():
    start = chess.Board()
    assert not accepts_draw(0, start) and accepts_draw(-200, start)      # early: only when clearly worse
    middlegame = chess.Board("r2q1rk1/pp3ppp/2n1bn2/3p4/3P4/2N1BN2/PP3PPP/R2Q1RK1 w - - 0 20")
    assert not accepts_draw(-20, middlegame) and accepts_draw(-60, middlegame)
    endgame = chess.Board("8/5k2/8/8/8/8/4RK2/8 w - - 0 60")
    assert accepts_draw(0, endgame) and not accepts_draw(300, endgame)
    rng = random.Random(3)
    assert human_pause(FULL_STRENGTH_ELO, None, chess.WHITE, 20, 0.0, rng) == 0.0
    pauses = [human_pause(800, None, chess.WHITE, 30, 0.0, rng) for _ in range(50)]
    assert all(0.8 <= p <= 2.6 for p in pauses)
    game = Game(Settings.from_json({"opponent": "robot", "clock": "1+0"}), random.Random(2))
    play(game, "e2e4", now=0.0)                             # Black's clock runs: 60 s, 30 moves assumed
    assert human_pause(800, game.clock, chess.BLACK, 30, 57.0, rng) <= 0.5 * 2.0 / 10
    assert level_name(400) == "Beginner" and level_name(1250) == "Club newcomer"
    assert level_name(FULL_STRENGTH_ELO) == "Full strength"
