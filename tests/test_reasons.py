"""Why a move is bad, in words (jitfish/reasons.py), without an engine: the engine's lines are written
out by hand, as the engine would give them, on positions whose reason is known, among them the
tester's examples of issue 51 rebuilt (an even trade, a recapture, a piece named where it is not,
a `??` explained by a pawn, a trapped piece cashed in). The same sentences from real engine lines:
tests/test_review_corpus.py."""

from __future__ import annotations

import chess

from engine.defs import MATE
from jitfish.reasons import account, exchange, reason
from jitfish.review import Evaluation, first_look
from tools.review.audit import concrete, faults, names_something


def line(board: chess.Board, *sans: str) -> tuple[chess.Move, ...]:
    """SAN moves from `board` as the engine's line."""
    board = board.copy()
    moves = []
    for san in sans:
        moves.append(board.push_san(san))
    return tuple(moves)


def said(fen: str, played: str, before_score: int, best: tuple[str, ...], after_score: int,
         refutation: tuple[str, ...]) -> str:
    """The reason for `played` in `fen`: the engine gave `before_score` and the line `best` before
    it, and `after_score` (for the side to move there) and `refutation` after it. Every sentence
    is checked for the faults the audit counts on human games."""
    board = chess.Board(fen)
    move = board.parse_san(played)
    before = Evaluation(before_score, 12, line(board, *best))
    child = board.copy()
    child.push(move)
    after = Evaluation(after_score, 12, line(child, *refutation))
    verdict = first_look(before, move, after)
    assert verdict.judgement is not None
    text = str(reason(board, move, verdict, after))
    assert faults(board, move, verdict.judgement.symbol, text, verdict.line) == [], text
    return text


# ---- pieces lost ----------------------------------------------------------------------------------


def test_a_hanging_piece_is_named_where_it_stands_with_the_move_that_takes_it():
    assert said("4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1", "Nf5", 230, ("Nb5", "Kd7"),
                90, ("exf5", "Kd2")) == "loses the knight on f5 to exf5"
    # A knight taken for a pawn is said as such.
    assert said("rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/3P4/PPP2PPP/RNBQK1NR b KQkq - 0 3", "Nxe4", -20, ("Nc6", "Nf3"),
                180, ("dxe4", "Bc5")) == "loses the knight on e4 to dxe4 for a pawn"


def test_a_piece_lost_later_is_named_where_it_stands_now_with_the_line():
    """16...Re8? "loses the knight on f4 to exf4" with the knight on b4: the knight is named on b4."""
    fen = "r5k1/ppp2ppp/8/8/1n2P3/5P2/P1P3PP/R5K1 b - - 0 16"
    text = said(fen, "Re8", 20, ("a5", "a3", "Nc6"), 280, ("a3", "Nd3", "cxd3", "Rd8"))
    assert text == "loses the knight on b4 (17. a3 Nd3 18. cxd3)"


def test_a_queen_left_en_prise_is_lost_though_the_best_move_trades_it():
    fen = "3qk3/8/8/8/8/8/5PPP/3Q2K1 w - - 0 1"
    assert said(fen, "h4", 50, ("Qxd8+", "Kxd8"), 880, ("Qxd1+", "Kh2")) == "loses the queen on d1 to Qxd1+"


def test_pawns_lost_are_named_each_where_it_stands():
    fen = "6k1/5ppp/8/8/8/8/PP1r1PPP/5RK1 w - - 0 1"
    assert said(fen, "h3", 20, ("Rb1", "Kf8"), 190, ("Rxb2", "g4", "Rxa2")) == \
        "loses the pawns on b2 and a2 (1... Rxb2 2. g4 Rxa2)"


# ---- exchanges --------------------------------------------------------------------------------


def test_an_even_trade_is_never_a_loss():
    """8.b3?! "loses the knight on h3 to Bxh3 for a bishop": a bishop for a knight is even, so the
    reason is the better move with its line and the evaluation's drop."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/8/4P2N/PPPP1PPP/RNBQKB1R w KQkq - 1 3"
    text = said(fen, "b3", 30, ("Nf4", "e5", "Nd3"), 40, ("Bxh3", "gxh3", "e5"))
    assert text == "better was Nf4 (3. Nf4 e5 4. Nd3); the evaluation drops from +0.3 to \u22120.4 for White"


def test_the_pawn_an_exchange_uncovers_is_the_loss():
    """17...Ne6?! "loses the knight on f6 to Bxf6 for a bishop": the real loss is the d5 pawn,
    which the knight on f6 defended."""
    fen = "r1b2rk1/ppq1bppp/5n2/3p2B1/8/2N2N2/PPP2PPP/R2Q1RK1 b - - 0 10"
    text = said(fen, "a6", -20, ("Be6", "Bxf6", "Bxf6", "Nxd5"), 110, ("Bxf6", "Bxf6", "Nxd5", "Qd6"))
    assert text == "loses the pawn on d5 (11. Bxf6 Bxf6 12. Nxd5)"


def test_a_recapture_is_never_a_loss():
    """30...Bxc3?? "loses the bishop on c3 to Qxc3 for a pawn": the bishop took a knight, Qxc3 takes
    it back, the rooks come off, and the trade is even; the blunder is no material one."""
    fen = "2r3k1/5ppp/8/8/1b6/2N5/1Q3PPP/2R3K1 b - - 0 30"
    text = said(fen, "Bxc3", 0, ("h6", "Ne4"), 350, ("Qxc3", "Rxc3", "Rxc3"))
    assert text == "better was h6 (30... h6 31. Ne4); the evaluation drops from 0.0 to \u22123.5 for Black"


def test_the_same_recapture_is_no_missed_win():
    """31.Bxc3?? "misses winning a bishop with Qxc3": Bxc3 takes the bishop back as Qxc3 would."""
    fen = "2r3k1/5ppp/8/8/3B4/2b5/5PPP/2R1Q1K1 w - - 0 31"
    text = said(fen, "Bxc3", 40, ("Qxc3", "Rxc3", "Rxc3"), 460, ("Rxc3", "Rxc3"))
    assert text == "better was Qxc3 (31. Qxc3 Rxc3 32. Rxc3); the evaluation drops from +0.4 to \u22124.6 for White"


def test_taking_with_the_piece_that_is_then_lost():
    """Both moves take the knight on d4: the queen that takes it is lost, the bishop would not be."""
    fen = "6k1/q4ppp/5b2/8/3N4/8/5PPP/3R2K1 b - - 0 1"
    assert said(fen, "Qxd4", 300, ("Bxd4", "Kf1"), 100, ("Rxd4", "Bxd4")) == \
        "takes with the queen, which Rxd4 wins for a rook; Bxd4 takes safely"


# ---- what the better move wins ------------------------------------------------------------------


def test_material_the_better_move_would_have_won():
    assert said("r3k3/8/8/8/8/8/6B1/4K3 w - - 0 1", "Kd2", 640, ("Bxa8", "Kd7", "Bd5"),
                160, ("Ra2+", "Kc3")) == "misses Bxa8, winning a rook"


def test_a_trapped_piece_cashed_in_is_the_point():
    """23...Rh7??: the knight on a2 is lost either way; Nxc1 wins a rook for it."""
    fen = "4k2r/5ppp/8/8/8/8/n1P5/1KR5 b - - 0 23"
    fen = "4k2r/5ppp/8/8/8/8/n1P5/1KR5 b - - 0 23"
    text = said(fen, "Rg8", 260, ("Nxc1", "Kxc1"), 200, ("Kxa2", "Kd7"))
    assert text == "misses Nxc1, winning a rook"


def test_forks_allowed_and_missed():
    fen = "r3k3/pp6/8/1N6/8/8/5PPP/6K1 b - - 0 1"
    assert said(fen, "b6", 0, ("Kd7", "Nd4"), 490, ("Nc7+", "Kd7", "Nxa8")) == \
        "allows Nc7+, forking the king and the rook on a8"
    fen = "r3k3/pp6/8/1N6/8/8/5PPP/6K1 w - - 0 1"
    assert said(fen, "h3", 490, ("Nc7+", "Kd7", "Nxa8"), 0, ("Kd7", "Nd4")) == \
        "misses Nc7+, forking the king and the rook on a8"


def test_trapped_pieces_allowed_and_missed():
    """a3 attacks the knight on b4, and every square it has is covered: it is trapped."""
    fen = "5rk1/p4ppp/8/1P6/1n2P3/8/P1P5/R2K4 b - - 0 1"
    assert said(fen, "h6", 0, ("a5", "Ke2"), 290, ("a3", "Kh7", "axb4")) == \
        "allows a3, trapping the knight on b4"
    fen = "5rk1/p4ppp/8/1P6/1n2P3/8/P1P5/R2K4 w - - 0 1"
    assert said(fen, "Ke2", 290, ("a3", "Kh8", "axb4"), 0, ("a5", "Kd2")) == \
        "misses a3, trapping the knight on b4"
    # A rook that cannot move because it is pinned to its king.
    fen = "5k2/5ppp/3r4/8/8/4B3/5PPP/6K1 b - - 0 1"
    assert said(fen, "g6", 0, ("Rd5", "Kf1"), 300, ("Bc5", "Kg7", "Bxd6")) == \
        "allows Bc5, pinning the rook on d6"
    # A knight with a safe square is not trapped: it is lost in the line, and only that is said.
    fen = "r5k1/ppp2ppp/8/8/1n2P3/5P2/P1P3PP/R5K1 b - - 0 16"
    assert "trapping" not in said(fen, "Re8", 20, ("a5", "a3", "Nc6"), 280, ("a3", "Nd3", "cxd3", "Rd8"))


# ---- promotions and mates ---------------------------------------------------------------------


def test_promotions_allowed_and_missed():
    fen = "8/8/8/8/8/1p6/3K4/7k w - - 0 1"
    assert said(fen, "Ke2", 0, ("Kc3", "b2", "Kxb2"), 900, ("b2", "Kd3", "b1=Q+")) == \
        "allows the b-pawn to promote (1... b2 2. Kd3 b1=Q+)"
    fen = "8/2P5/8/8/8/6k1/1r6/5K2 w - - 0 1"
    assert said(fen, "Ke1", 900, ("c8=Q", "Rb1+", "Ke2"), 0, ("Rc2", "Kd1", "Rxc7")) == \
        "misses c8=Q, promoting the pawn"


def test_mates_allowed_and_missed():
    # 3...Nf6?? of the scholar's mate: 4.Qxf7#.
    assert said("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3", "Nf6", -30, ("g6", "Qf3"),
                MATE - 1, ("Qxf7#",)) == "allows mate in 1 (Qxf7#)"
    # 4.d3?? instead of the mate (it hangs the queen too: the mate comes first).
    assert said("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "d3", MATE - 1, ("Qxf7#",),
                700, ("Nxh5", "Bxf7+")) == "misses mate in 1 with Qxf7#"


def test_the_words_agree_with_the_mark_of_a_mate():
    """Issue 72: "26. Qxg5?! is an inaccuracy: allows mate in 1 (Qf3#)" contradicted itself. A mate
    allowed from a position not lost already is a blunder by the numbers (a mate counts as ten
    pawns); marked less because the game was lost anyway, the words say so. A mate missed by a
    move that still wins, marked less than a blunder, says that the position stays won."""
    fen = "6k1/5ppp/8/8/3q4/8/P4PPP/6K1 w - - 0 1"
    assert said(fen, "a3", -920, ("h3", "Qd1+", "Kh2"), MATE - 1, ("Qd1#",)) == \
        "allows mate in 1 (Qd1#), in a position already lost (\u22129.2)"
    assert said(fen, "a3", -920, ("h3", "Qd1+", "Kh2"), MATE - 3, ("Qc4", "h3", "Qf1#")) == \
        "allows mate in 2, starting with Qc4, in a position already lost (\u22129.2)"
    assert said(fen, "a3", -300, ("h3", "Qd1+", "Kh2"), MATE - 1, ("Qd1#",)) == "allows mate in 1 (Qd1#)"
    fen = "k7/8/8/1Q6/8/8/8/6K1 w - - 0 1"
    assert said(fen, "Kh2", MATE - 5, ("Kf2", "Ka7"), -900, ("Ka7",)) == \
        "misses mate in 3 with Kf2, though the position stays won (+9.0)"
    assert said(fen, "Kh2", MATE - 5, ("Kf2", "Ka7"), -300, ("Ka7",)) == "misses mate in 3 with Kf2"


def test_a_loss_the_better_move_suffers_too_is_not_the_reason():
    """Issue 72, from a game of rated players (lichess-2026-06-500.pgn, game 35, the review's own
    lines): 36...Rg8? was "loses the rook on b6", but the best line, 36...Ke8 37.gxf8=Q+, gives up
    the rook on f8 instead and the material ends the same; 37...Ke8?! was "loses the rook on g8
    for two pawns", but the better 37...Rb8 loses that rook too. Neither loss is the reason: the
    better move with its line is."""
    fen = "3k1r2/5pP1/1r2p3/1Pp1P3/2np3p/5R1P/2P3P1/2B1R2K b - - 0 36"
    text = said(fen, "Rg8", -688, ("Ke8", "gxf8=Q+", "Kxf8", "Rb3", "Rb7", "Re4", "Ke8", "Rb1", "Rd7"),
                870, ("Rxf7", "Rb8", "Ref1", "Nb6", "Rf8+", "Kc7", "Rxb8", "Rxg7", "Rff8"))
    assert text.startswith("better was Ke8 (36... Ke8 37. gxf8=Q+ Kxf8 38. Rb3)"), text
    fen = "3k2r1/5RP1/1r2p3/1Pp1P3/2np3p/7P/2P3P1/2B1R2K b - - 0 37"
    text = said(fen, "Ke8", -926, ("Rb8", "Bg5+", "Kc8", "Re4", "Rxg7", "Rxg7", "Rb7", "Re7", "Na3"),
                1290, ("Ref1", "Rxg7", "Rxg7", "Nxe5", "Bg5", "Ng6", "Rg8+", "Kd7", "Rd8+"))
    assert "rook" not in text and text.startswith("better was Rb8"), text


def test_stalemate_instead_of_the_win():
    assert said("k7/8/8/1Q6/8/8/8/6K1 w - - 0 1", "Qb6", MATE - 5, ("Kf2", "Ka7"), 0, ()) == \
        "stalemates the king: a draw where Kf2 kept the win"


# ---- no material reason without certainty ---------------------------------------------------------


def test_a_quiet_positional_drop_is_said_as_the_better_move_with_its_line():
    assert said("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Ke2", 40, ("Nf3", "Nc6", "Bb5"),
                90, ("Nf6", "d3", "d5")) == "better was Nf3 (2. Nf3 Nc6 3. Bb5); the evaluation drops from +0.4 to \u22120.9 for White"


def test_a_blunder_is_never_explained_by_a_pawn():
    """A `??` "loses a pawn to Nxg5": one pawn does not explain three pawns of evaluation; the same
    pawn does explain a `?`."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert said(fen, "Ke2", 40, ("Nf3", "Nc6"), 290, ("Nf6", "h3", "Nxe4")) == \
        "better was Nf3 (2. Nf3 Nc6); the evaluation drops from +0.4 to \u22122.9 for White"
    assert said(fen, "Ke2", 40, ("Nf3", "Nc6"), 90, ("Nf6", "h3", "Nxe4")) == \
        "loses the pawn on e4 (2... Nf6 3. h3 Nxe4)"


# ---- the account ------------------------------------------------------------------------------


def test_an_exchange_is_counted_to_its_end():
    """Bxf6 gxf6 trades bishop for knight: no material changes hands, whatever the order."""
    board = chess.Board("rnbqkb1r/pppppppp/5n2/6B1/3P4/8/PPP1PPPP/RN1QKBNR w KQkq - 2 3")
    trade = account(board, line(board, "Bxf6", "gxf6", "e3", "d5", "Nf3", "c6"), 9)
    assert trade.net(chess.WHITE) == 0 and [trade.san(i) for i in (0, 1)] == ["Bxf6", "gxf6"]


def test_a_line_cut_short_on_a_capture_gets_its_recapture():
    """An engine's line may end on Qxf3 with gxf3 left out: no queen is won there."""
    board = chess.Board("r5k1/5ppp/8/8/8/5Q1q/5PPP/6K1 b - - 0 1")
    assert account(board, line(board, "Qxf3"), 9).net(chess.BLACK) == 0
    hanging = chess.Board("r5k1/5ppp/8/8/8/5Q1q/7P/6K1 b - - 0 1")           # nothing recaptures
    assert account(hanging, line(hanging, "Qxf3"), 9).net(chess.BLACK) == 9
    assert exchange(chess.Board("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")) == [chess.Move.from_uci("e4d5")]


def test_the_audit_tells_a_loss_the_best_line_suffers_too():
    """tools/review/audit.py's independent check (python-chess plays the better line): the old
    36...Rg8? sentence is a fault, today's is not; a concrete reason and one naming a move."""
    board = chess.Board("3k1r2/5pP1/1r2p3/1Pp1P3/2np3p/5R1P/2P3P1/2B1R2K b - - 0 36")
    best = line(board, "Ke8", "gxf8=Q+", "Kxf8", "Rb3", "Rb7")
    move = board.parse_san("Rg8")
    assert faults(board, move, "?", "loses the rook on b6 (37. Rxf7 Rb8 38. Ref1 Nb6)", best) == \
        ["loss-also-in-best-line"]
    assert faults(board, move, "?", "better was Ke8 (36... Ke8 37. gxf8=Q+ Kxf8 38. Rb3)", best) == []
    assert concrete("loses the knight on f5 to exf5") and not concrete("better was Ke8 (36... Ke8)")
    assert names_something("better was Ke8 (36... Ke8)") and \
        not names_something("the evaluation drops from +0.4 to \u22121.3 for White")
