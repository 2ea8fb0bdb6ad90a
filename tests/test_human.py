"""The human model (search/human.py's kernel, search/human_model.py): what it sees in a move, the
shipped weights, and a level that plays its move."""

import functools

import numpy as np

from engine.board import Board
from eval.shipped import default_network
from search.human import R_CAPTURED, R_CASTLE, R_CHECK, R_DEEP, R_ESCAPE, R_RECAPTURE, R_SHALLOW
from search import human_policy
from search.human_model import (DENSE, N_DENSE, Chooser, FeatureSearch, Model, expected_result, features, load,
                                scaled_rating, slipped)

HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3"   # Bxg5 wins the queen
TWO_KNIGHTS = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5"]                 # ...Nxd5 recaptures


def board_after(moves: list[str]) -> Board:
    board = Board()
    for text in moves:
        board.push_uci(text)
    return board


def raw_by_move(board: Board) -> dict[str, np.ndarray]:
    moves, raw = FeatureSearch().raw(board)
    return {board.uci(m): r for m, r in zip(moves, raw)}


def test_the_kernel_sees_recaptures_checks_captures_and_rescues():
    raw = raw_by_move(board_after(TWO_KNIGHTS))
    assert raw["f6d5"][R_RECAPTURE] == 1 and raw["f6d5"][R_CAPTURED] == 100
    assert raw["c6d4"][R_RECAPTURE] == 0 and raw["c6d4"][R_CAPTURED] == 0
    assert raw["f6d5"][R_ESCAPE] == 0
    castling = raw_by_move(board_after(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]))
    assert castling["e1g1"][R_CASTLE] == 1 and castling["e1f1"][R_CASTLE] == 0
    assert castling["c4f7"][R_CHECK] == 1 and castling["c4f7"][R_CAPTURED] == 100 and castling["c4b5"][R_CHECK] == 0
    queen = raw_by_move(Board(HANGING_QUEEN))
    assert queen["c1g5"][R_CAPTURED] == 900
    best = max(queen, key=lambda move: queen[move][R_DEEP])
    assert best == "c1g5" and queen["c1g5"][R_SHALLOW] == max(r[R_SHALLOW] for r in queen.values())


def test_features_do_not_depend_on_what_was_searched_before():
    search = FeatureSearch()
    first = search.raw(Board(HANGING_QUEEN))[1]
    search.raw(board_after(TWO_KNIGHTS))
    assert np.array_equal(search.raw(Board(HANGING_QUEEN))[1], first)
    dense, squares = features(first, 0, np.zeros(len(first)))
    assert dense.shape == (len(first), N_DENSE) and squares.shape == (len(first), 2)


POSITIONS = [HANGING_QUEEN,
             "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
             "r2qkbnr/ppp2ppp/4p3/3p1b2/2Pn1B2/1QN5/PP2PPPP/R3KBNR w KQkq - 0 6",
             "rnbqr1k1/ppb2ppp/2p1pn2/2Pp4/PP1P4/2N1PN2/5PPP/R1BQKB1R w KQ - 1 9",
             "r1b1kbnr/ppp1p2p/2n3p1/8/8/2Pp4/PP1N1PPP/R1B1KBNR w KQkq - 0 9",
             "4Q3/6pk/5p1p/8/8/1p2B2P/4nPP1/R6K w - - 1 30",
             "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
             "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R1B2RK1 b - - 3 13"]


def test_the_shipped_model_learnt_that_stronger_players_lose_less():
    """Learnt from the games, not set: the winning capture is the likeliest move at every rating,
    and over these positions a player rated 1900 gives away less, on average, than one rated 1100."""
    expected_loss = {}
    for rating in (1100, 1900):
        chooser, losses = Chooser(load(), rating), []
        for fen in POSITIONS:
            board = Board(fen)
            moves, p, scores = chooser.distribution(board)
            if fen == HANGING_QUEEN:
                assert board.uci(moves[int(np.argmax(p))]) == "c1g5"
            losses.append(float(p @ np.minimum(scores.max() - scores, 1000)))
        expected_loss[rating] = np.mean(losses)
    assert expected_loss[1900] < expected_loss[1100]


def test_a_sampled_choice_repeats_for_a_seed_and_varies_between_seeds():
    chooser = Chooser(load(), 1500)
    board = board_after(TWO_KNIGHTS)
    picks = [chooser.choose(board, seed)[0] for seed in range(1, 13)]
    assert picks == [chooser.choose(board, seed)[0] for seed in range(1, 13)]
    assert all(board.is_legal(move) for move in picks)
    assert "f6d5" in {board.uci(move) for move in picks} and len(set(picks)) > 1
    assert Chooser(load(), 1500, share=0).choose(board, 1)[0] == Chooser(load(), 1500, share=0).choose(board, 2)[0]


def test_a_network_scores_the_moves_the_same_whatever_was_scored_before():
    """With a network the moves' scores are its own (not the hand-crafted terms'), its
    accumulators start afresh on each position, and the winning capture still scores best."""
    search = FeatureSearch(network=default_network())
    first = search.raw(Board(HANGING_QUEEN))[1]
    search.raw(board_after(TWO_KNIGHTS))
    again = search.raw(Board(HANGING_QUEEN))[1]
    assert np.array_equal(again, first)
    assert not np.array_equal(first[:, R_DEEP], FeatureSearch().raw(Board(HANGING_QUEEN))[1][:, R_DEEP])
    moves = FeatureSearch().raw(Board(HANGING_QUEEN))[0]
    assert Board(HANGING_QUEEN).uci(moves[int(np.argmax(first[:, R_DEEP]))]) == "c1g5"


def test_the_chooser_gives_the_policy_feature_the_boards_logits_at_its_rating():
    """The policy feature is the board policy's logit of each move at the Chooser's rating: with
    all the weight on it, the choice is the policy's own most likely move, and the probabilities
    are the softmax of its logits."""
    model = load()
    dense = np.zeros_like(model.dense)
    dense[0, DENSE.index("policy")] = 1.0
    only_policy = Model(dense, np.zeros_like(model.squares))
    policy = human_policy.shipped()
    for rating in (1100, 1900):
        for fen in POSITIONS[:4]:
            board = Board(fen)
            moves, p, _ = Chooser(only_policy, rating).distribution(board)
            logits = policy.logits(*human_policy.inputs(board, moves), float(scaled_rating(rating)))
            expected = np.exp(logits - logits.max())
            assert np.allclose(p, expected / expected.sum())


def test_a_veto_keeps_the_style_but_not_the_blunders():
    """A model that loves to lose material: without a veto it gives the queen's capture up for a
    losing move; with a veto of 100 centipawns its move keeps full strength's score within 100
    (full strength's own search of that move alone), and inside a GUI's searchmoves."""
    from search.human_model import engine_search

    model = load()
    dense = np.zeros_like(model.dense)
    dense[0, DENSE.index("lossD")] = 0.05          # utility grows with the move's loss
    reckless = Model(dense, np.zeros_like(model.squares))
    board = Board(HANGING_QUEEN)
    plain = Chooser(reckless, 1500, share=0)
    careful = Chooser(reckless, 1500, share=0, veto=100)
    best = engine_search(_searcher(), board)

    def loss(move: int) -> int:
        return best.score - engine_search(_searcher(), board, only=move).score

    assert loss(plain.choose(board, 1)[0]) > 300
    move = careful.choose(board, 1)[0]
    assert loss(move) <= 100 and careful.nodes() > plain.nodes()
    allowed = {m for m in board.legal_moves() if board.uci(m) in ("a2a3", "h2h3", "b1c3")}
    assert careful.choose(board, 1, allowed)[0] in allowed
    deeper = Chooser(reckless, 1500, share=0, veto=100, veto_nodes=60000)
    assert loss(deeper.choose(board, 1)[0]) <= 100 and deeper.nodes() > careful.nodes()


def test_a_slip_plays_a_nearly_as_likely_move_that_loses():
    """p + slip x (expected result given away): the likeliest move stands against a small slip,
    a losing move nearly as likely wins a larger one, a move outside p (p = 0) never plays, and
    an even score gives nothing away."""
    p = np.array([0.5, 0.4, 0.1, 0.0])
    scores = np.array([0, -300, 0, -900])
    lost = expected_result(np.array([0]))[0] - expected_result(np.array([-300]))[0]
    assert 0.2 < lost < 0.3
    assert slipped(p, scores, 0.2) == 0                    # 0.4 + 0.2 x 0.25 < 0.5
    assert slipped(p, scores, 0.5) == 1                    # 0.4 + 0.5 x 0.25 > 0.5
    assert slipped(p, scores, 100.0) == 1                  # the -900 move has p = 0
    assert slipped(p, np.zeros(4), 100.0) == 0
    assert expected_result(np.array([30000]))[0] == expected_result(np.array([1000]))[0]   # mates clipped


def test_the_chooser_slips_into_the_likely_blunder_only_when_asked():
    """The shipped model at 1500 takes the hanging queen; with a large slip it plays a move that
    gives material away instead, and inside a GUI's searchmoves; a share of 1 (every move a sample)
    leaves no move to slip."""
    board = Board(HANGING_QUEEN)
    steady = Chooser(load(), 1500, share=0)
    assert board.uci(steady.choose(board, 1)[0]) == "c1g5"
    slipping = Chooser(load(), 1500, share=0, slip=5.0)
    move, score = slipping.choose(board, 1)
    assert board.uci(move) != "c1g5" and score < steady.choose(board, 1)[1] - 300
    allowed = {m for m in board.legal_moves() if board.uci(m) in ("c1g5", "a2a3")}
    assert slipping.choose(board, 1, allowed)[0] in allowed
    for seed in range(5):
        assert Chooser(load(), 1500, share=1, slip=5.0).choose(board, seed) == Chooser(load(), 1500, share=1).choose(board, seed)



@functools.cache
def _searcher():
    from search.driver import Searcher

    return Searcher(1)
