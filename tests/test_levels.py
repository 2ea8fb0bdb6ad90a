"""Difficulty levels: the Elo table, the move choice, and how a weakened search behaves (node
budget, determinism per seed, obvious moves seen from the middle levels up)."""

import random

import chess
import pytest

from engine.board import Board
from search import driver
from search.driver import Searcher
from search.levels import (FULL_STRENGTH_ELO, HUMAN_LEVELS, LEVELS, MIN_ELO, NO_VETO, HumanRow, choose,
                           considered_moves, effective_elo, elo_for_skill, level_for_elo)
from search.timeman import Budget, Limits

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1"            # Rb8#
HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3"   # Bxg5
PLAIN_MIDDLEGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.fixture(scope="module")
def searcher():
    yield Searcher(16)


def play(searcher: Searcher, fen: str, elo: int, seed: int, **limits):
    searcher.set_level(level_for_elo(elo), seed)
    searcher.prepare()
    board = Board(fen)
    result = searcher.run(board, Limits(**limits))
    return board.uci(result.best), result


def test_table_weakens_monotonically_toward_the_low_end():
    elos = list(range(MIN_ELO, FULL_STRENGTH_ELO, 50))
    levels = [level_for_elo(e) for e in elos if not level_for_elo(e).human]   # the others: below
    assert levels[0].network is False and levels[-1].network is True
    for weaker, stronger in zip(levels, levels[1:]):
        assert stronger.network or not weaker.network        # the network, once in, stays
        if weaker.network == stronger.network:   # budgets grow within an evaluation (the network needs fewer nodes)
            assert weaker.nodes <= stronger.nodes and weaker.depth <= stronger.depth
        assert weaker.noise >= stronger.noise and weaker.temperature >= stronger.temperature
        assert weaker.oversight >= stronger.oversight and weaker.quiescence <= stronger.quiescence
    assert level_for_elo(FULL_STRENGTH_ELO) is None
    assert level_for_elo(100) == level_for_elo(MIN_ELO)
    served = [row for row in LEVELS if row.elo >= MIN_ELO and not level_for_elo(row.elo).human]
    assert [level_for_elo(row.elo) for row in served] == served


def test_skill_level_and_uci_elo_share_one_scale():
    assert elo_for_skill(0) == MIN_ELO and elo_for_skill(20) == FULL_STRENGTH_ELO
    assert effective_elo(False, 800, 20) == FULL_STRENGTH_ELO          # UCI_Elo only counts when limited
    assert effective_elo(True, 800, 20) == 800
    assert effective_elo(True, 2000, 5) == 2000                       # Skill Level ignored when limited,
    assert effective_elo(True, 1516, 8) == 1516                       # as Stockfish does (PyChess's level 8)
    assert effective_elo(False, 1516, 8) == elo_for_skill(8)


def test_choice_follows_the_scores():
    rng = random.Random(1)
    level = LEVELS[2]            # a row of the search's own weakening (temperature 40)
    picks = [choose([50, 30, -850], level, rng) for _ in range(2000)]
    assert picks.count(2) == 0                      # a queen worse is never chosen
    assert picks.count(0) > picks.count(1) > 100     # the best most often, the close second often
    assert all(choose([10, 40, 0], level_for_elo(FULL_STRENGTH_ELO - 1), rng) == 1 for _ in range(50))


def test_oversight_keeps_at_least_one_move():
    level = level_for_elo(MIN_ELO)
    rng = random.Random(3)
    for _ in range(200):
        assert considered_moves([7], level, rng) == [7]
    seen = [len(considered_moves(list(range(30)), level, rng)) for _ in range(200)]
    assert 0.4 < sum(seen) / (200 * 30) < 0.8        # about 1 - oversight of the moves


def test_level_search_stays_within_its_node_budget(searcher):
    for elo in (MIN_ELO, 1000, 1600, 2000, FULL_STRENGTH_ELO - 100):
        level = level_for_elo(elo)
        if level.human:          # the human model's searches have a fixed depth and node count
            continue
        _, result = play(searcher, PLAIN_MIDDLEGAME, elo, seed=5, wtime=600000, btime=600000)
        # The first iteration always completes; after that the budget is a hard stop.
        assert result.nodes <= max(level.nodes, 3000), (elo, result.nodes)


@pytest.mark.parametrize("elo", [1000, 1800, 2000])
def test_level_plays_the_same_at_both_calibration_clocks(searcher, elo):
    """Strength must not move with the time control: a level's moves and node counts are the
    same at 5+0.05 as at 30+0.3, and still with one second left (only the hard limit, far above
    what a level's budget needs, could cut it short)."""
    board = chess.Board(PLAIN_MIDDLEGAME)
    for ply in range(6):
        fen = board.fen()
        runs = {(wtime, inc): play(searcher, fen, elo, seed=ply, wtime=wtime, btime=wtime, winc=inc, binc=inc)
                for wtime, inc in ((5000, 50), (30000, 300), (1000, 50))}
        assert len({(move, result.nodes) for move, result in runs.values()}) == 1, (fen, runs)
        board.push_uci(next(iter(runs.values()))[0])


@pytest.mark.parametrize("elo", [800, 2050])   # levels that search (the human model's do not: above)
def test_level_ignores_the_soft_time_limit(searcher, monkeypatch, elo):
    """The guard behind the test above, made to bite: with a clock whose soft limit is spent
    before depth 1 ends (a search that reads the clock stops after its first iteration) and whose
    hard limit is a minute away, a level still completes its own depth or node budget and plays
    the same move after the same nodes as without any clock."""
    board = chess.Board(PLAIN_MIDDLEGAME)
    for ply in range(4):
        fen = board.fen()
        free_move, free = play(searcher, fen, elo, seed=ply)
        if board.legal_moves.count() == 1:        # an only move is played at once, level or not
            board.push_uci(free_move)
            continue
        with monkeypatch.context() as patch:
            patch.setattr(driver, "plan", lambda *args, **kwargs: Budget(soft=0.001, hard=60_000))
            clocked_move, clocked = play(searcher, fen, elo, seed=ply, wtime=1000, btime=1000)
            # The premise: at full strength the same clock stops the search after depth 1.
            assert play(searcher, fen, FULL_STRENGTH_ELO, seed=ply, wtime=1000, btime=1000)[1].depth == 1
        assert free.depth > 1
        assert (clocked_move, clocked.nodes, clocked.depth) == (free_move, free.nodes, free.depth), fen
        board.push_uci(free_move)


def test_same_seed_same_moves_other_seeds_vary(searcher):
    first = [play(searcher, PLAIN_MIDDLEGAME, 800, seed)[0] for seed in range(1, 9)]
    again = [play(searcher, PLAIN_MIDDLEGAME, 800, seed)[0] for seed in range(1, 9)]
    assert first == again
    assert len(set(first)) >= 2


def test_weak_moves_are_legal_and_plausible(searcher):
    """The lowest level still makes moves (legal, varied), not a constant shuffle."""
    py = chess.Board(PLAIN_MIDDLEGAME)
    moves = {play(searcher, PLAIN_MIDDLEGAME, MIN_ELO, seed)[0] for seed in range(1, 13)}
    assert all(chess.Move.from_uci(m) in py.legal_moves for m in moves)
    assert len(moves) >= 3


@pytest.mark.parametrize("fen, best", [(MATE_IN_ONE, "b1b8"), (HANGING_QUEEN, "c1g5")])
def test_middle_levels_up_see_mate_in_one_and_free_queens(searcher, fen, best):
    for elo in (1800, FULL_STRENGTH_ELO - 100):
        assert all(play(searcher, fen, elo, seed)[0] == best for seed in range(1, 11)), elo


def test_lowest_level_sometimes_misses_mate_in_one(searcher):
    found = [play(searcher, MATE_IN_ONE, MIN_ELO, seed)[0] == "b1b8" for seed in range(1, 31)]
    assert 0 < sum(found) < 30


def test_full_strength_restores_the_plain_search(searcher):
    searcher.set_level(level_for_elo(600), 9)
    searcher.set_level(None, 0)
    searcher.clear()             # killers and history of earlier searches are not the point here
    searcher.prepare()
    board = Board(PLAIN_MIDDLEGAME)
    weakened_back = searcher.run(board, Limits(depth=6)).nodes
    fresh = Searcher(16)
    fresh.prepare()
    assert fresh.run(Board(PLAIN_MIDDLEGAME), Limits(depth=6)).nodes == weakened_back


def test_evaluation_noise_is_bounded_fixed_per_position_and_per_seed(searcher):
    from engine.defs import MAX_PLY
    from search.workspace import set_weakness

    boards = [Board(PLAIN_MIDDLEGAME), Board(MATE_IN_ONE), Board(HANGING_QUEEN), Board()]
    plain = [searcher.static_eval(b) for b in boards]
    set_weakness(searcher.ws, 50, 1, MAX_PLY)
    noisy = [searcher.static_eval(b) for b in boards]
    assert noisy == [searcher.static_eval(b) for b in boards]
    assert all(abs(n - p) <= 50 for n, p in zip(noisy, plain)) and noisy != plain
    set_weakness(searcher.ws, 50, 2, MAX_PLY)
    assert [searcher.static_eval(b) for b in boards] != noisy
    set_weakness(searcher.ws, 0, 0, MAX_PLY)
    assert [searcher.static_eval(b) for b in boards] == plain


# ---- the levels that play like people (the human model, issue 48) --------------------------------

HUMAN_ELOS = sorted({row.elo for row in HUMAN_LEVELS} | {(a.elo + b.elo) // 2 for a, b in zip(HUMAN_LEVELS, HUMAN_LEVELS[1:])})


def test_the_human_rows_map_elo_monotonically_onto_the_model():
    """A stronger level plays a higher rating's choice, slips less or vetoes more of its losing
    moves by a deeper search; outside the rows the search's own weakening plays, as calibrated
    before; each row plays as written."""
    assert HUMAN_LEVELS, "no level plays the human model"
    ratings = [row.rating for row in HUMAN_LEVELS]
    assert ratings == sorted(set(ratings)), "a higher row imitates a higher rating (issue 71)"
    assert [row.elo for row in HUMAN_LEVELS] == sorted({row.elo for row in HUMAN_LEVELS})
    levels = [level_for_elo(elo) for elo in range(HUMAN_LEVELS[0].elo, HUMAN_LEVELS[-1].elo + 1, 10)]
    assert all(level.human for level in levels)
    def veto(level):
        return NO_VETO if level.veto is None else level.veto

    for weaker, stronger in zip(levels, levels[1:]):
        assert stronger.human >= weaker.human and stronger.slip <= weaker.slip
        assert veto(stronger) <= veto(weaker) and stronger.veto_nodes >= weaker.veto_nodes
    assert not level_for_elo(HUMAN_LEVELS[0].elo - 1).human and not level_for_elo(HUMAN_LEVELS[-1].elo + 1).human
    for row in HUMAN_LEVELS:
        level = level_for_elo(row.elo)
        assert (level.human, level.slip, level.veto, level.veto_nodes) == (row.rating, row.slip, row.veto, row.veto_nodes)


def test_a_veto_searches_the_engine_move_features_nodes_unless_told():
    """search/levels.py keeps its own copy of the veto's default search (it stays light for the
    front ends): it must be the model's engine-move feature's."""
    from search.human_model import ENGINE_NODES
    from search.levels import VETO_NODES

    assert VETO_NODES == ENGINE_NODES


def test_a_human_level_short_of_time_vetoes_with_the_features_search(searcher, monkeypatch):
    """The veto's deeper search gives way when the clock allows less than HURRY_MS for the move
    (a move a few hundredths of a second long must not lose a bullet game), never without a clock."""
    from search.human_model import Chooser

    asked = []
    original = Chooser.choose

    def spy(self, board, seed, allowed=None, hurry=False):
        asked.append(hurry)
        return original(self, board, seed, allowed, hurry)

    monkeypatch.setattr(Chooser, "choose", spy)
    elo = HUMAN_LEVELS[-1].elo
    play(searcher, PLAIN_MIDDLEGAME, elo, 1)
    play(searcher, PLAIN_MIDDLEGAME, elo, 1, wtime=60_000, btime=60_000)
    play(searcher, PLAIN_MIDDLEGAME, elo, 1, wtime=300, btime=300)
    play(searcher, PLAIN_MIDDLEGAME, elo, 1, movetime=100)
    assert asked == [False, False, True, True]


@pytest.mark.parametrize("elo", HUMAN_ELOS)
def test_a_human_level_plays_the_models_choice_for_its_seed(searcher, elo):
    """The level's move is the one the model chooses for its rating, slip and veto;
    the same seed repeats it."""
    from search.human_model import Chooser, shipped

    level = level_for_elo(elo)
    chooser = Chooser(shipped(), level.human, share=0, slip=level.slip, veto=level.veto,
                      veto_nodes=level.veto_nodes)
    board = chess.Board(PLAIN_MIDDLEGAME)
    for ply in range(4):
        fen = board.fen()
        for seed in (1, 2, 3):
            expected = Board(fen).uci(chooser.choose(Board(fen), seed)[0])
            assert play(searcher, fen, elo, seed)[0] == expected == play(searcher, fen, elo, seed)[0], (fen, seed)
        board.push_uci(expected)


def test_human_levels_play_only_legal_moves_in_random_positions(searcher):
    """A sweep of positions from random games (python-chess judges): every move a human level
    plays is legal, and a position without moves gets none."""
    rng = random.Random(48)
    elos = [HUMAN_LEVELS[0].elo, HUMAN_LEVELS[-1].elo]
    for game in range(12):
        board = chess.Board()
        for _ in range(rng.randrange(4, 90)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        searcher.set_level(level_for_elo(elos[game % 2]), game)
        searcher.prepare()
        ours = Board(board.fen())
        best = searcher.run(ours, Limits()).best
        if not any(board.legal_moves):
            assert best == 0
        else:
            assert chess.Move.from_uci(ours.uci(best)) in board.legal_moves, (board.fen(), ours.uci(best))


def test_a_level_says_when_it_plays_like_people():
    """The words `jitfish play`, the browser's level list and the UCI debug line use."""
    from search.levels import plays_like

    for elo in HUMAN_ELOS:
        level, words = level_for_elo(elo), plays_like(elo)
        rating = int(words.split()[4])
        careful = " who blunders less" if level.veto is not None else ""
        assert words == f"plays like a lichess {rating} player{careful}" and abs(rating - level.human) <= 25
    assert plays_like(MIN_ELO) is None and plays_like(FULL_STRENGTH_ELO) is None


def test_a_human_level_keeps_to_the_searchmoves(searcher):
    """`go searchmoves` limits a human level's choice like any search's, whatever its seed."""
    board = chess.Board(PLAIN_MIDDLEGAME)
    elo = HUMAN_LEVELS[0].elo
    usual = {play(searcher, PLAIN_MIDDLEGAME, elo, seed)[0] for seed in range(1, 9)}
    other = next(m.uci() for m in board.legal_moves if m.uci() not in usual)
    for seed in range(1, 9):
        assert play(searcher, PLAIN_MIDDLEGAME, elo, seed, searchmoves=[other])[0] == other


def test_a_veto_tightens_steadily_between_rows(monkeypatch):
    """Between a row without a veto and one with a veto of 200 the veto falls from NO_VETO (none)
    to 200 as its inverse rises linearly; two rows without one give none."""
    from search import levels

    monkeypatch.setattr(levels, "HUMAN_LEVELS", [HumanRow(1000, 800, slip=0.2), HumanRow(1600, 1800),
                                                  HumanRow(1800, 1800, veto=200)])
    assert level_for_elo(1300).veto is None and level_for_elo(1600).veto is None
    assert level_for_elo(1700).veto == round(2 / (1 / NO_VETO + 1 / 200)) and level_for_elo(1800).veto == 200
    assert level_for_elo(1610).veto < NO_VETO
