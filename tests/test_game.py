"""The game every front end keeps (jitfish/game.py) and the robot's judgement (jitfish/robot_policy.py),
without a front end or an engine process: start positions, the ends by the rules and the draws
claimed (FIDE), resignation, draw offers, take-backs with their clocks, the flag and the PGN."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from engine.defs import BISHOP, KNIGHT, QUEEN, ROOK
from engine.defs import PIECE_VALUES
from jitfish.clock import PRESETS, TimeControl
from jitfish.game import Game, GameError
from jitfish.setup import start_board
from jitfish.robot_policy import accepts_draw, claims_draw, human_pause, material_phase, robot_name
from search.levels import FULL_STRENGTH_ELO


def make(position: str = "", chess960: bool = False, human: chess.Color | None = None,
         control: TimeControl = TimeControl(), takeback: bool = True) -> Game:
    return Game(start_board(position, chess960, random.Random(5)), human, control, takeback)


def play(game: Game, *moves: str, now: float = 0.0) -> None:
    for uci in moves:
        game.play(chess.Move.from_uci(uci), now)


def test_start_positions_fen_pgn_and_chess960():
    assert make("8/8/8/4k3/8/8/3QK3/8 w - - 0 1").board.fen() == "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
    game = make('[Event "x"]\n\n1. e4 e5 2. Nf3 *')
    assert [p.san for p in game.plies] == ["e4", "e5", "Nf3"] and game.board.turn == chess.BLACK
    assert game.root.fen() == chess.STARTING_FEN and game.first_live_ply == 3
    assert make("518", chess960=True).board.fen() == chess.STARTING_FEN
    assert make(chess960=True).board.chess960
    # A start number is a Chess960 start, ticked or not; bare moves and comments read as a PGN.
    numbered = make("100")
    assert numbered.board.chess960 and numbered.board.fen() == chess.Board.from_chess960_pos(100).fen()
    assert [p.san for p in make("e4 e5 Nf3").plies] == ["e4", "e5", "Nf3"]
    assert [p.san for p in make("1.e4 c5 (1... e5 2. Nf3) 2. Nf3 {good} d6! $1 *").plies] == ["e4", "c5", "Nf3", "d6"]
    with pytest.raises(GameError, match="0 to 959"):
        make("960", chess960=True)
    with pytest.raises(GameError, match="0 to 959"):
        make("999")


@pytest.mark.parametrize("text, message", [
    ("1. e4 zz5", "move 1 (Black): 'zz5' is not a legal move"),            # python-chess skips it silently
    ("e4 e5 Nf3 hello", "move 2 (Black): 'hello'"),
    ("1. e4 e5 2. Ke3 *", "move 2 (White): 'Ke3' is not a legal move"),
    ("not a fen", "'not' is neither a FEN nor a move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "whose turn it is, w or b, not 'x'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 ('RNBQKBN') has 7 squares instead of 8"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks separated by '/', not 7"),
    ("rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'X' in rank 7 is neither a piece"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en-passant square"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "move number must be a whole number"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "cannot occur in a game: the board is empty"),
    ("k7/8/8/8/8/8/8/K6Q w - - 0 1", "the side that has just moved is in check"),
    ('[FEN "junk"]\n\n*', "FEN does not read"),
])
def test_a_set_up_that_does_not_read_says_why_in_a_players_words(text, message):
    with pytest.raises(GameError) as refused:
        make(text)
    assert message in str(refused.value)
    for python_chess_wording in ("expected", "illegal san", "part of fen", "while parsing"):
        assert python_chess_wording not in str(refused.value)


def test_typed_moves_san_or_uci():
    game = make("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert game.parse_text("b8=Q").promotion == chess.QUEEN and game.parse_text("b7b8n").promotion == chess.KNIGHT
    assert game.parse_text(" B7B8R ").promotion == chess.ROOK and game.parse_text("b8=q").promotion == chess.QUEEN
    for bad in ("Nf3", "", "x" * 13, None):
        with pytest.raises(GameError):
            game.parse_text(bad)
    for missing, advice in (("b7b8", "add the piece, b7b8q, b7b8r, b7b8b or b7b8n"),
                            ("b8", "add the piece, b8=Q, b8=R, b8=B or b8=N")):
        with pytest.raises(GameError, match=advice):
            game.parse_text(missing)
    castles = make("r3k2r/8/8/8/8/8/1p6/R3K2R b KQkq - 0 1")
    assert castles.parse_text("O-O") == chess.Move.from_uci("e8g8")
    assert castles.parse_text("bxa1=Q") == castles.parse_text("b2a1q")
    # Case slips, a space or dash between the squares and castling with zeros are understood.
    start = make()
    for text, uci in (("nf3", "g1f3"), ("E4", "e2e4"), ("e2 e4", "e2e4"), ("E2-E4", "e2e4"), ("NF3", "g1f3")):
        assert start.parse_text(text) == chess.Move.from_uci(uci), text
    assert make("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").parse_text("0-0-0") == chess.Move.from_uci("e1c1")
    # Marks a player writes after a move are not part of it.
    for text in ("Nf3!?", "Nf3?!", "Nf3!!", "nf3 ?", "Nf3+!?"):
        assert start.parse_text(text) == chess.Move.from_uci("g1f3"), text
    passant = make("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    for text in ("exf6 e.p.", "exf6e.p.", "exf6 ep", "e5f6 e.p.", "exf6 e.p.!"):
        assert passant.parse_text(text) == chess.Move.from_uci("e5f6"), text
    # ...but a text that could mean two moves is not guessed.
    both = make("4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1")
    assert both.parse_text("bxc3") == chess.Move.from_uci("b2c3") and both.parse_text("Bxc3") == chess.Move.from_uci("d2c3")
    with pytest.raises(GameError, match="could be Bxc3 or bxc3"):
        both.parse_text("BXC3")


def test_automatic_ends_and_claims():
    game = make()
    for _ in range(2):
        play(game, "g1f3", "g8f6", "f3g1", "f6g8")
    assert game.claimable() == "threefold" and not game.over
    for _ in range(2):
        play(game, "g1f3", "g8f6", "f3g1", "f6g8")
    assert game.over and str(game.reason) == "Draw by fivefold repetition"
    game = make("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    play(game, "a1a2")
    assert game.claimable() == "fifty"
    game.claim_draw(0.0)
    assert game.result == "1/2-1/2" and "fifty-move rule (claimed by Black)" in str(game.reason)
    game = make("4k3/8/8/8/8/8/8/R3K3 w - - 149 100")
    play(game, "a1a2")
    assert str(game.reason) == "Draw by the 75-move rule"
    game = make("4k3/8/8/8/8/8/8/3bK3 w - - 0 1")
    assert game.over and str(game.reason) == "Draw by insufficient material"
    game = make("k7/8/8/1Q6/8/8/8/7K w - - 0 1")
    play(game, "b5b6")
    assert str(game.reason) == "Draw by stalemate" and game.termination == "normal"
    game = make()
    play(game, "f2f3", "e7e5", "g2g4", "d8h4")
    assert game.result == "0-1" and str(game.reason) == "Checkmate: Black wins"
    with pytest.raises(GameError, match="over"):
        play(game, "e2e4")


def test_a_claim_needs_the_rule():
    game = make()
    play(game, "e2e4")
    assert game.claimable() is None
    with pytest.raises(GameError, match="no draw to claim"):
        game.claim_draw(0.0)
    # The claim may be made before the move that repeats the position (FIDE 9.2.1).
    game = make()
    play(game, "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1")
    assert game.claimable() == "threefold"
    game.claim_draw(0.0)
    assert str(game.reason) == "Draw by threefold repetition (claimed by Black)" and game.over


def test_resignation():
    game = make()
    play(game, "e2e4")
    game.resign(chess.WHITE, 0.0)
    assert game.result == "0-1" and str(game.reason) == "White resigns: Black wins" and game.termination == "normal"
    with pytest.raises(GameError, match="over"):
        game.resign(chess.BLACK, 0.0)
    assert game.takeback_plies() == 0                   # a resignation is not taken back


def test_take_backs():
    robot = make(human=chess.WHITE, control=PRESETS["3+2"])
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
    off = make(takeback=False)
    play(off, "e2e4")
    with pytest.raises(GameError, match="off"):
        off.take_back(0.0)
    mated = make(human=chess.BLACK)           # one rule for every ending: a finished game stays finished
    play(mated, "f2f3", "e7e5", "g2g4", "d8h4")
    assert mated.over and mated.takeback_plies() == 0
    with pytest.raises(GameError, match="the game is over"):
        mated.take_back()


def test_draw_offers_between_people():
    game = make()
    game.offer_draw(chess.WHITE)
    with pytest.raises(GameError):
        game.offer_draw(chess.WHITE)
    with pytest.raises(GameError):
        game.offer_draw(chess.BLACK)                      # answer the offer instead
    with pytest.raises(GameError):
        game.answer_draw(chess.WHITE, True, 0.0)          # not one's own offer
    play(game, "e2e4")                                      # White moves: the offer stands
    assert game.draw_offer == chess.WHITE
    play(game, "e7e5")                                      # Black moves instead: declined
    assert game.draw_offer is None
    game.offer_draw(chess.WHITE)
    game.answer_draw(chess.BLACK, False, 0.0)
    assert game.draw_offer is None and not game.over
    game.offer_draw(chess.WHITE)
    game.answer_draw(chess.BLACK, True, 0.0)
    assert str(game.reason) == "Draw by agreement" and game.result == "1/2-1/2"


def test_flag_and_pgn_record():
    game = make(human=chess.WHITE, control=PRESETS["3+2"])
    play(game, "e2e4", now=0.0)
    play(game, "e7e5", now=4.0)
    assert not game.check_flag(100.0)
    assert game.check_flag(200.0)                            # White's 180 s have gone
    assert game.result == "0-1" and game.termination == "time forfeit"
    record = chess.pgn.read_game(io.StringIO(game.pgn({"Event": "E", "White": "Player", "Black": "Jitfish 1000"})))
    headers = record.headers
    assert (headers["Event"], headers["White"], headers["Black"]) == ("E", "Player", "Jitfish 1000")
    assert headers["TimeControl"] == "180+2" and headers["Result"] == "0-1"
    assert headers["Termination"] == "time forfeit"
    clocks = [node.clock() for node in record.mainline()]
    assert clocks == [pytest.approx(182.0), pytest.approx(178.0)]
    assert record.end().comment.endswith("White ran out of time: Black wins")
    # The clocks in whole seconds, as lichess writes them (not [%clk 0:02:57.579]).
    fractions = make(human=chess.WHITE, control=PRESETS["3+2"])
    play(fractions, "e2e4", now=0.0)
    play(fractions, "e7e5", now=4.421)
    assert "{ [%clk 0:03:02] }" in fractions.pgn({}) and "{ [%clk 0:02:57] }" in fractions.pgn({})
    chess960 = make("100", chess960=True)
    record = chess.pgn.read_game(io.StringIO(chess960.pgn({})))
    assert record.headers["Variant"] == "Chess960" and record.board().chess960
    assert record.headers["TimeControl"] == "-" and "Termination" not in record.headers


def test_castling_lands_on_the_kings_square():
    game = make("k7/8/8/8/8/8/8/1R3KR1 w GB - 0 1", chess960=True)
    play(game, "f1g1")                                      # Chess960: the king takes its rook
    assert game.plies[-1].san == "O-O" and chess.square_name(game.plies[-1].target) == "g1"
    game = make("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    play(game, "e1c1")
    assert game.plies[-1].castle and chess.square_name(game.plies[-1].target) == "c1"


def test_robot_decisions():
    start = chess.Board()
    assert not accepts_draw(0, start) and accepts_draw(-200, start)      # early: only when clearly worse
    middlegame = chess.Board("r2q1rk1/pp3ppp/2n1bn2/3p4/3P4/2N1BN2/PP3PPP/R2Q1RK1 w - - 0 20")
    assert not accepts_draw(-20, middlegame) and accepts_draw(-60, middlegame)
    endgame = chess.Board("8/5k2/8/8/8/8/4RK2/8 w - - 0 60")
    assert accepts_draw(0, endgame) and not accepts_draw(300, endgame)
    assert claims_draw(30) and claims_draw(-500) and not claims_draw(31)
    rng = random.Random(3)
    assert human_pause(FULL_STRENGTH_ELO, None, chess.WHITE, 20, 0.0, rng) == 0.0
    pauses = [human_pause(800, None, chess.WHITE, 30, 0.0, rng) for _ in range(50)]
    assert all(0.8 <= p <= 2.6 for p in pauses)
    game = make(human=chess.WHITE, control=PRESETS["1+0"])
    play(game, "e2e4", now=0.0)                             # Black's clock runs: 60 s, 30 moves assumed
    assert human_pause(800, game.clock, chess.BLACK, 30, 57.0, rng) <= 0.5 * 2.0 / 10
    assert robot_name(800) == "Jitfish 800" and robot_name(FULL_STRENGTH_ELO) == "Jitfish"


def test_the_phase_counts_the_engines_piece_values():
    """Material phase in engine.piece's centipawns: all pieces at the start, none with kings and pawns."""
    pieces = 2 * int(2 * PIECE_VALUES[KNIGHT] + 2 * PIECE_VALUES[BISHOP] + 2 * PIECE_VALUES[ROOK] + PIECE_VALUES[QUEEN])
    assert material_phase(chess.Board()) == pieces
    assert material_phase(chess.Board("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")) == 0
    assert material_phase(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")) == int(PIECE_VALUES[QUEEN])
