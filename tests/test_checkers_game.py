"""The checkers game of the browser (jitfish/checkers_game.py, jitfish/web/checkers.py) without a
server: moves by their squares, the compulsory jump, multi-jumps and crowning, the end of the
game, the draws, take-backs, clocks, and the PDN, read back by pydraughts (an independent
implementation) and by our own reader."""

from __future__ import annotations

import random

import chess
import pytest

from jitfish.checkers_game import CheckersGame, read_start
from jitfish.game import GameError
from jitfish.web.checkers import CheckersWebGame
from jitfish.web.game import Settings


def make(**settings) -> CheckersWebGame:
    return CheckersWebGame(Settings.from_json(dict({"game": "checkers", "opponent": "human", "clock": "none"},
                                                   **settings)), random.Random(3))


def play(game: CheckersGame, *paths: list[int], now: float = 0.0) -> None:
    for path in paths:
        game.play(game.resolve(path), now)


def test_settings_choose_the_game_and_the_level():
    settings = Settings.from_json({"game": "checkers", "level": "7", "color": "black"})
    assert settings.game == "checkers" and settings.level == 7
    assert Settings.from_json(settings.to_json()) == settings
    assert Settings.from_json({}).game == "chess"
    for bad, message in (({"game": "go"}, "chess or checkers"), ({"level": 0}, "from 1 to 10"),
                         ({"level": 11}, "from 1 to 10"), ({"level": True}, "from 1 to 10")):
        with pytest.raises(GameError, match=message):
            Settings.from_json(bad)


def test_black_moves_first_and_the_state_names_every_square():
    game = make()
    state = game.to_json(0.0)
    assert state["kind"] == "checkers" and state["turn"] == "black" and not state["jump"]
    assert sorted(state["legal"]) == [[9, 13], [9, 14], [10, 14], [10, 15], [11, 15], [11, 16], [12, 16]]
    assert state["boards"][0] == {**{str(sq): "b" for sq in range(1, 13)}, **{str(sq): "w" for sq in range(21, 33)}}
    assert state["counts"][0] == {"black": {"men": 12, "kings": 0}, "white": {"men": 12, "kings": 0}}
    assert str(state["status"]) == "Black to move"
    robot = CheckersWebGame(Settings.from_json({"game": "checkers", "color": "white", "level": 4}), random.Random(1))
    assert robot.robot_to_move() and str(robot.player_name(chess.BLACK)) == "Jitfish (level 4)"


def test_a_plain_move_is_refused_while_a_jump_is_compulsory():
    game = make()
    play(game, [11, 15], [22, 18])
    state = game.to_json(0.0)
    assert state["jump"] and state["legal"] == [[15, 22]]
    assert str(state["status"]) == "Black to move: a jump is compulsory"
    for path in ([9, 13], [12, 16]):
        with pytest.raises(GameError, match="A jump is compulsory"):
            game.resolve(path)
    with pytest.raises(GameError, match="A jump is compulsory"):
        game.parse_text("9-13")
    assert len(game.plies) == 2                       # nothing changed
    play(game, [15, 22])
    assert game.plies[-1].captures == [18] and game.to_json(0.0)["last"]["capture"]


def test_a_multi_jump_by_every_square_or_its_two_ends_and_crowning_ends_it():
    double = make(position="B:W18,27:B14")
    assert double.legal_paths() == [[14, 23, 32]]
    same = make(position="B:W18,27:B14")
    play(double, [14, 23, 32])
    play(same, [14, 32])
    assert double.board.fen() == same.board.fen() == "W:W:BK32"
    assert double.plies[0].crown and double.plies[0].captures == [18, 27]
    assert double.over and double.result == "1-0" and str(double.reason) == "White has no move left: Black wins"
    with pytest.raises(GameError, match="list of squares"):
        make().resolve([0, 5])
    with pytest.raises(GameError, match="list of squares"):
        make().resolve("11-15")
    with pytest.raises(GameError, match="not a legal move"):
        make().resolve([11, 14])
    # A man crowned on 31 could jump on over 27 as a king: the move ends there all the same.
    crown = make(position="B:W26,27:B22")
    assert crown.legal_paths() == [[22, 31]]
    play(crown, [22, 31])
    assert crown.to_json(0.0)["boards"][-1] == {"31": "B", "27": "w"}
    assert crown.to_json(0.0)["last"]["crown"]


def test_ambiguous_ends_name_the_jumps():
    king = make(position="B:W9,10,17,18:BK6")         # round the loop either way: 6x13x22x15x6, 6x15x22x13x6
    with pytest.raises(GameError, match="more than one jump: 6x13x22x15x6, 6x15x22x13x6"):
        king.resolve([6, 6])
    with pytest.raises(GameError, match="write every landing square"):
        king.parse_text("6x6")
    play(king, [6, 15, 22, 13, 6])
    assert king.plies[0].captures == [9, 10, 17, 18]


def test_claims_take_back_resign_and_offers():
    game = make(position="B:WK32:BK1")
    with pytest.raises(GameError, match="no draw to claim"):
        game.claim_draw()
    for _ in range(2):
        play(game, [1, 5], [32, 28], [5, 1], [28, 32])
    assert game.claimable() == "threefold"
    assert game.to_json(0.0)["claimable"] == "threefold"
    game.claim_draw()
    assert game.result == "1/2-1/2" and str(game.reason) == "Draw by threefold repetition (claimed by Black)"
    forty = make(position="B:WK32,K31:BK1,K2")
    squares = {1: 5, 5: 1, 2: 6, 6: 2, 32: 28, 28: 32, 31: 27, 27: 31}
    pieces = {"black": [1, 2], "white": [31, 32]}
    for ply in range(80):
        side = "black" if ply % 2 == 0 else "white"
        index = (ply // 2) % 2
        frm = pieces[side][index]
        to = squares[frm]
        pieces[side][index] = to
        game_move = forty.resolve([frm, to])
        forty.play(game_move)
    assert forty.claimable() == "forty" and not forty.over
    # Take-backs between people: one move; the clocks as they were.
    timed = make(clock="3+2")
    play(timed, [11, 15], now=0.0)
    play(timed, [22, 18], now=5.0)
    assert timed.clock.running == chess.BLACK and timed.takeback_plies() == 1
    timed.take_back(now=6.0)
    assert len(timed.plies) == 1 and timed.turn == chess.WHITE
    timed.offer_draw(chess.WHITE)
    with pytest.raises(GameError, match="stands"):
        timed.offer_draw(chess.WHITE)
    timed.answer_draw(chess.BLACK, True, now=7.0)
    assert timed.result == "1/2-1/2" and str(timed.reason) == "Draw by agreement"
    resigned = make()
    resigned.resign(chess.BLACK)
    assert resigned.result == "0-1" and str(resigned.reason) == "Black resigns: White wins"


def test_a_flag_loses_whatever_is_left():
    game = make(clock="1+0")
    play(game, [11, 15], now=0.0)                 # the first move starts the clocks
    play(game, [22, 18], now=1.0)
    assert not game.check_flag(30.0)
    assert game.check_flag(62.0)
    assert game.result == "0-1" and str(game.reason) == "Black ran out of time: White wins"
    assert game.termination == "time forfeit"


def test_the_pdn_reads_back_here_and_in_pydraughts():
    from draughts.PDN import PDNReader

    rng = random.Random(11)
    for seed in range(3):
        game = make(clock="5+0")
        now = 0.0
        while not game.over and len(game.plies) < 60:
            now += 1.5
            game.play(game.resolve(rng.choice(game.legal_paths())), now)
        text = game.pdn(game.pdn_headers())
        board, tags = read_start(text)
        assert board.moves_played == [ply.move for ply in game.plies]
        assert tags["Black"] == "Black" and tags["GameType"] == "21"
        games = PDNReader(pdn_text=text).games
        assert len(games) == 1
        theirs = [move.replace("-", "x") if "x" in move else move for move in games[0].moves]
        assert len(theirs) == len(game.plies), (theirs, text)
        for mine, their in zip(game.plies, theirs):
            their_squares = [int(s) for s in their.replace("x", "-").split("-")]
            assert their_squares[0] == mine.path[0] and their_squares[-1] == mine.path[-1], (mine.text, their)
    # A pasted game goes on from its last position, named as pasted.
    pasted = make(position='[Black "Tinsley"]\n[White "Chinook"]\n\n1. 11-15 23-19 2. 8-11 22-17 *')
    assert [p.text for p in pasted.plies] == ["11-15", "23-19", "8-11", "22-17"] and pasted.first_live_ply == 4
    assert str(pasted.player_name(chess.BLACK)) == "Tinsley"
    assert '[FEN "' not in pasted.pdn(pasted.pdn_headers())
    fen = make(position="W:W18,K27:B14,10")
    assert fen.turn == chess.WHITE and '[FEN "W:W18,K27:B10,14"]' in fen.pdn(fen.pdn_headers())
    assert fen.pdn(fen.pdn_headers()).split("\n\n")[1].startswith("*")
    play(fen, [18, 9])
    assert "1... 18x9" in fen.pdn(fen.pdn_headers())


def test_bad_positions_and_games_say_what_is_wrong():
    for text, message in (("B:W18:B14,14", "given twice"), ("X:W18", "not a checkers position"),
                          ("1. 11-15 23-19 2. 11-16", "not a legal move"), ("1. e4 e5", "neither a move"),
                          ('[GameType "20"]\n1. 32-28', "not a game of American checkers")):
        with pytest.raises(GameError, match=message):
            read_start(text)
    assert read_start('[FEN "W:W18:B14"]')[0].fen() == "W:W18:B14"
