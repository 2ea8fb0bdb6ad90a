"""The UCI protocol through the real executable: handshake, every `go` form, MultiPV, Chess960,
options, perft and the `d`/`eval`/`bench` extensions. Every info line and bestmove the engine
sends is checked for legality by the driver (tests/uci_driver.py)."""

from __future__ import annotations

import os
import random
import re

import chess
import pytest

from jitfish.options import available_memory_mb, hash_limit_mb
from tests.helpers import seed, shared_file

# ruff: noqa: F811 - the fixtures imported here are test parameters of the same name
from tests.uci_driver import UciEngine, engine, quiet_machine, require_quiet_machine, running_engine, uci  # noqa: F401
from tools.generators.make_chess960_perft import pychess_perft

MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
BOTH_WINGS_FREE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
MATE_IN_1 = "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1"
MATES_IN_2 = [  # (position, the only first move that mates in 2), found by brute force with python-chess
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6"),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1"),
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6"),
]
NO_LEGAL_MOVE = [(  # (position, the score of the info line before `bestmove 0000`)
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ("mate", 0)), ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ("cp", 0))]
TWO_LEGAL_MOVES = "7k/8/8/8/8/8/6PP/6RK w - - 0 1"     # g2g3, g2g4 (h2 pawn moves too: h2h3, h2h4)
CHESS960_START = "rknqnbbr/pppppppp/8/8/8/8/PPPPPPPP/RKNQNBBR w KQkq - 0 1"      # position 734
CHESS960_CASTLING = ["d2d4", "d7d5", "c1d3", "c8d6", "d1d2", "d8d7", "b1a1", "b8a8"]   # both castle long
CHESS960_AFTER = "2krnbbr/pppqpppp/3n4/3p4/3P4/3N4/PPPQPPPP/2KRNBBR w - - 6 5"
EXPECTED_OPTIONS = {"Hash", "Clear Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960",
                    "UCI_ShowWDL", "UCI_LimitStrength", "UCI_Elo", "Skill Level", "Random Seed",
                    "OwnBook", "Book File", "Book Best Move", "EvalFile", "SyzygyPath", "SyzygyProbeLimit"}


def depths(search) -> list[int]:
    """The depths of the exact-score pv lines, in the order reported."""
    return [i["depth"] for i in search.infos if "pv" in i and "bound" not in i and i.get("multipv", 1) == 1]


def score_value(score: tuple[str, int]) -> int:
    """A UCI score as one comparable number (a quicker mate is better, a later one less bad)."""
    kind, value = score
    if kind == "cp":
        return value
    return 100_000 - value if value > 0 else -100_000 - value


def divide(board: chess.Board, depth: int) -> dict[str, int]:
    """python-chess's leaf count under each root move, by the move's UCI text."""
    counts = {}
    for move in board.legal_moves:
        text = board.uci(move)
        board.push(move)
        counts[text] = pychess_perft(board, depth - 1)
        board.pop()
    return counts


def read_perft(uci: UciEngine, depth: int) -> tuple[dict[str, int], int]:
    """`go perft`: the per-move counts and the `Nodes searched` total."""
    uci.send(f"go perft {depth}")
    lines = [line.text for line in uci.read_until("Nodes", timeout=60)]
    counts = {text: int(n) for text, n in (line.split(": ") for line in lines[:-1] if ": " in line)}
    return counts, int(lines[-1].split(": ")[1])


# ---- handshake --------------------------------------------------------------------------------

def test_handshake_is_quick_and_well_formed():
    """`uci` gives id name/author, well-formed option lines (checked by the driver) and `uciok`
    at once; `isready` gives `readyok` once the kernels are loaded (or compiled)."""
    with running_engine() as fresh:
        assert fresh.ids["name"].startswith("Jitfish") and fresh.ids["author"]
        assert set(fresh.options) == EXPECTED_OPTIONS
        assert fresh.uciok_seconds < 2.0, "the target is 0.5 s; this bound leaves room for slow CI"
        assert fresh.sync() == []


def test_uci_may_be_repeated(uci):
    uci.send("uci")
    texts = [line.text for line in uci.read_until("uciok")]
    assert sum(t.startswith("option ") for t in texts) == len(EXPECTED_OPTIONS)


def test_debug_on_and_off(uci):
    """With debug on, perft also reports its time; `debug off` ends that."""
    for mode, expect_timing in (("on", True), ("off", False)):
        assert uci.errors_after(f"debug {mode}") == []
        uci.send("go perft 1")
        texts = [line.text for line in uci.read_until("Nodes")]
        assert any(t.startswith("info string perft 1 took") for t in texts) == expect_timing


@pytest.mark.parametrize("line", ["register later", "register name Someone code 1234"])
def test_register_gets_a_polite_answer(uci, line):
    uci.send(line)
    answer = uci.sync()
    assert answer == ["info string Jitfish is free software under GPL-3.0-or-later and needs no registration"]


# ---- go -----------------------------------------------------------------------------------------

def test_go_depth(uci):
    uci.position(MIDDLEGAME)
    search = uci.go("depth 7")
    assert depths(search) == list(range(1, 8))
    assert search.bestmove == search.final()[0]["pv"][0]
    assert search.ponder is not None


@pytest.mark.parametrize("nodes", [1, 3000, 30000])
def test_go_nodes(uci, nodes):
    """A completed iteration stays within the node limit; depth 1 always completes."""
    uci.position(MIDDLEGAME)
    search = uci.go(f"nodes {nodes}")
    final = search.final()[0]
    assert final["nodes"] <= nodes or final["depth"] == 1
    assert search.bestmove == final["pv"][0]


def test_go_movetime_uses_the_time(uci):
    """"search exactly x mseconds": not much less (Move Overhead 20 ms), not more."""
    uci.position(MIDDLEGAME)
    search = uci.go("movetime 400")
    assert search.seconds >= 0.3          # a busy machine only makes it later
    require_quiet_machine()
    assert search.seconds <= 0.7


@pytest.mark.parametrize("moves, clocks", [
    ((), "wtime 400 btime 600000"),
    (("e2e4",), "wtime 600000 btime 400"),
    ((), "wtime 300 btime 600000 winc 100 binc 0"),
    (("e2e4",), "wtime 600000 btime 300 winc 0 binc 100"),
])
def test_go_clock_of_the_side_to_move(quiet_machine, uci, moves, clocks):
    """Only the mover's clock counts: ten minutes on the other clock must not slow it down."""
    uci.position(moves=moves)
    search = uci.go(clocks)
    assert search.seconds < 0.4


@pytest.mark.parametrize("movestogo, limit", [(1, 1.0), (5, 0.75), (40, 0.35)])
def test_go_movestogo(quiet_machine, uci, movestogo, limit):
    """One second for `movestogo` moves: never the whole second, less the more moves remain."""
    uci.position(MIDDLEGAME)
    search = uci.go(f"wtime 1000 btime 1000 movestogo {movestogo}")
    assert search.seconds < limit


@pytest.mark.parametrize("fen, first", MATES_IN_2)
def test_go_mate(uci, fen, first):
    uci.position(fen)
    search = uci.go("mate 2", timeout=30)
    assert search.final()[0]["score"] == ("mate", 2)
    assert search.bestmove == first


def test_go_infinite_waits_for_stop(uci):
    """Even with the mate found, `go infinite` sends bestmove only after `stop`."""
    uci.position(MATE_IN_1)
    search, _ = uci.interrupt("infinite", "stop", after=0.5)
    assert search.bestmove == "b1b8" and search.final()[0]["score"] == ("mate", 1)


@pytest.mark.parametrize("delay", [0.0, 0.3])
def test_go_ponder_then_ponderhit(uci, delay):
    """After ponderhit the clock runs: two seconds left means a quick move (also when the ponderhit
    comes before the search has even started)."""
    uci.position(MIDDLEGAME)
    _, latency = uci.interrupt("ponder wtime 2000 btime 2000", "ponderhit", after=delay)
    require_quiet_machine()
    assert latency < 0.5


def test_go_ponder_then_stop(uci):
    uci.position(MIDDLEGAME)
    _, latency = uci.interrupt("ponder wtime 2000 btime 2000 winc 0 binc 0", "stop", after=0.3)
    require_quiet_machine()
    assert latency < 0.5


def test_go_ponder_with_its_depth_done_waits_for_ponderhit(uci):
    uci.position(MIDDLEGAME)
    search, latency = uci.interrupt("ponder depth 3", "ponderhit", after=0.3)
    assert depths(search)[-1] == 3
    require_quiet_machine()
    assert latency < 0.3


# The clock of the ponderhit tests, with the Ponder option on as GUIs that ponder set it: a soft
# limit of about 0.9 s and a hard one of about 1.5 s (search/timeman.py's plan for MIDDLEGAME), so
# that restarting the clock at the ponderhit, which waits at least 0.675 of the soft limit more, is
# told apart from moving at once.
PONDER_CLOCK = "wtime 6000 btime 6000 movestogo 5"
MOVE_OVERHEAD_MS = 20                  # the option's default, which the plan leaves on the clock


def ponder_budget(board: chess.Board) -> tuple[float, float]:
    """The (soft, hard) seconds the engine allots to a move of `board` under PONDER_CLOCK."""
    from search.timeman import Limits, plan

    budget = plan(Limits(wtime=6000, btime=6000, movestogo=5), int(not board.turn), MOVE_OVERHEAD_MS, board.ply(),
                  ponder=True)
    return budget.soft / 1000, budget.hard / 1000


def test_ponderhit_after_a_long_ponder_moves_at_once(uci):
    """Stockfish's convention: the move's time counts from the `go ponder`. Pondered past the hard
    limit, the move comes at the ponderhit (the engine restarted its clock there until 2026-11-27:
    12.9 s of pondering, then 12.8 s more in a PyChess game)."""
    uci.set_option("Ponder", "true")
    board = uci.position(MIDDLEGAME)
    soft, hard = ponder_budget(board)
    search, latency = uci.interrupt(f"ponder {PONDER_CLOCK}", "ponderhit", after=hard + 0.5)
    assert search.final(), "no completed iteration to move from"
    require_quiet_machine()
    assert latency < min(0.3, 0.5 * soft), f"{latency:.3f} s after a ponderhit {hard + 0.5:.1f} s into the move"


def test_ponderhit_after_a_short_ponder_gets_the_rest_of_the_time(uci):
    """Pondered briefly, the move still gets its time, counted from the `go ponder`: at least the
    least the soft limit can shrink to (0.675 of it), at most the hard limit."""
    uci.set_option("Ponder", "true")
    board = uci.position(MIDDLEGAME)
    soft, hard = ponder_budget(board)
    search, latency = uci.interrupt(f"ponder {PONDER_CLOCK}", "ponderhit", after=0.05)
    require_quiet_machine()
    assert 0.6 * soft < search.seconds < hard + 0.3, (search.seconds, soft, hard)
    assert latency > 0.6 * soft - 0.2


@pytest.mark.parametrize("fen, moves, args, allowed", [
    (None, (), "depth 6 searchmoves a2a3 h2h3", {"a2a3", "h2h3"}),
    (MIDDLEGAME, (), "searchmoves h2h3 depth 5", {"h2h3"}),
    (KIWIPETE, (), "depth 4 searchmoves e1h1", {"e1g1"}),     # either castling notation is understood
    (KIWIPETE, (), "depth 4 searchmoves e1a1 a2a3", {"e1c1", "a2a3"}),
])
def test_go_searchmoves(uci, fen, moves, args, allowed):
    uci.position(fen, moves)
    search = uci.go(args)
    assert search.bestmove in allowed
    assert {i["pv"][0] for i in search.infos if "pv" in i} <= allowed


@pytest.mark.parametrize("args, check, seconds", [
    ("depth 4 movetime 20000", lambda s: depths(s)[-1] == 4 and s.seconds < 5, None),
    ("movetime 200 depth 60", lambda s: depths(s)[-1] < 60, 0.5),
    ("nodes 3000 depth 30", lambda s: s.final()[0]["nodes"] <= 3000, None),
    ("searchmoves e2e4 d2d4 wtime 3000 btime 3000", lambda s: s.bestmove in ("e2e4", "d2d4"), None),
    ("wtime 600 btime 600 winc 10 binc 10 movestogo 3 depth 60", lambda s: depths(s)[-1] < 60, 0.6),
    ("depth 3 nodes 100000000 movetime 100000 wtime 100000 btime 100000", lambda s: depths(s)[-1] == 3, None),
])
def test_go_combinations(uci, args, check, seconds):
    """Whichever limit comes first ends the search (a time limit: within `seconds`)."""
    search = uci.go(args)
    assert check(search), (args, search.lines[-3:])
    if seconds is not None:
        require_quiet_machine()
        assert search.seconds < seconds, (args, search.seconds)


def test_go_infinite_with_searchmoves(uci):
    assert uci.interrupt("infinite searchmoves g1f3", "stop", after=0.2)[0].bestmove == "g1f3"


@pytest.mark.parametrize("fen, score", NO_LEGAL_MOVE)
@pytest.mark.parametrize("args", ["depth 5", "movetime 100", "wtime 1000 btime 1000"])
def test_no_legal_move_gives_bestmove_0000(uci, fen, score, args):
    uci.position(fen)
    search = uci.go(args)
    assert search.bestmove == "0000" and search.ponder is None
    assert [(i["depth"], i["score"]) for i in search.infos] == [(0, score)]


@pytest.mark.parametrize("fen, score", NO_LEGAL_MOVE)
def test_no_legal_move_infinite_still_waits_for_stop(uci, fen, score):
    uci.position(fen)
    assert uci.interrupt("infinite", "stop", after=0.2)[0].bestmove == "0000"


@pytest.fixture
def chess960(uci: UciEngine) -> UciEngine:
    """The fresh game in Chess960 mode."""
    uci.set_option("UCI_Chess960", "true")
    return uci


def sweep_positions() -> list[str]:
    """Tactical positions and forced mates from the shared suites (EPD made a FEN with clocks)."""
    fens = []
    for name, count in (("wac.epd", 40), ("mate2.fen", 15), ("mate3.fen", 10), ("mate4.fen", 10)):
        with open(shared_file(name)) as suite:
            lines = [line.split() for line in suite if line.strip()][:count]
        fens += [" ".join(words[:4]) + " 0 1" if name.endswith(".epd") else " ".join(words) for words in lines]
    return fens


def assert_mate_claims_hold(board: chess.Board, search) -> None:
    """A `score mate N` whose pv is as long as the mate ends in checkmate."""
    for info in search.infos:
        kind, n = info.get("score", ("cp", 0))
        plies = 2 * n - 1 if n > 0 else -2 * n
        if kind == "mate" and n and len(info.get("pv", [])) >= plies:
            end = board.copy(stack=False)
            for move in info["pv"][:plies]:
                end.push_uci(move)
            assert end.is_checkmate(), f"{info} does not mate from {board.fen()}"


@pytest.mark.parametrize("multipv", [1, 2])
def test_pv_sweep(uci, multipv):
    """Short searches of 75 tactical and mate positions: every pv legal (the driver checks each
    line), every mate announced with a full pv a mate."""
    uci.set_option("MultiPV", multipv)
    for fen in sweep_positions():
        board = uci.position(fen)
        assert_mate_claims_hold(board, uci.go("nodes 15000"))


def test_chess960_pv_sweep(chess960):
    """Random Chess960 games a few moves in, castling often possible: pvs legal and written
    king-takes-rook."""
    rng = random.Random(seed(960))
    for _ in range(20):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        start = board.fen()
        moves = []
        for _ in range(rng.randrange(4, 12)):
            legal = list(board.legal_moves)
            castling = [m for m in legal if board.is_castling(m)]
            move = rng.choice(castling or legal)
            moves.append(board.uci(move))
            board.push(move)
            if board.is_game_over():
                break
        chess960.position(start, moves, chess960=True)
        chess960.go("nodes 10000")


# ---- MultiPV ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fen", [MIDDLEGAME, KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"])
def test_multipv_3(uci, fen):
    """Three lines per depth, distinct first moves, best first at the final depth."""
    uci.set_option("MultiPV", 3)
    uci.position(fen)
    search = uci.go("depth 8")
    exact = [i for i in search.infos if "pv" in i and "bound" not in i]
    for depth in range(1, 9):
        lines = [i for i in exact if i["depth"] == depth]
        assert sorted(i["multipv"] for i in lines) == [1, 2, 3], f"depth {depth}"
        assert len({i["pv"][0] for i in lines}) == 3, f"depth {depth}"
    final = search.final()
    scores = [score_value(i["score"]) for i in final]
    assert scores == sorted(scores, reverse=True), [(i["pv"][0], i["score"]) for i in final]
    assert search.bestmove == final[0]["pv"][0]


def test_show_wdl(uci):
    """UCI_ShowWDL adds win/draw/loss permille to every scored line, and only then."""
    search = uci.go("depth 5")
    assert not any("wdl" in i for i in search.infos)
    uci.set_option("UCI_ShowWDL", "true")
    search = uci.go("depth 5")
    scored = [i for i in search.infos if "score" in i]
    assert scored and all("wdl" in i for i in scored)
    uci.set_option("UCI_ShowWDL", "false")


def test_info_lines_word_the_search_reports():
    """The search hands records up; only the UCI loop writes them as text. Pins the lines a
    search shows only after its first second (bounds, currmove) and the tablebase field."""
    from engine.board import Board
    from engine.defs import MATE
    from jitfish.uci import info_line
    from search.driver import Bound, CurrMoveReport, IterationReport, NoMoveReport

    board = Board("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    castle = next(m for m in board.legal_moves() if board.uci(m) == "e1b1")     # king takes rook
    pawnless = IterationReport(depth=7, seldepth=11, multipv=2, score=-35, bound=Bound.LOWER,
                               wdl=(10, 900, 90), nodes=5000, nps=25000, hashfull=3, tbhits=None, time_ms=200,
                               pv=(castle,))
    assert info_line(pawnless, True, False) == ("info depth 7 seldepth 11 multipv 2 score cp -35 lowerbound "
                                                "nodes 5000 nps 25000 hashfull 3 time 200 pv e1b1")
    mating = IterationReport(depth=9, seldepth=9, multipv=1, score=MATE - 3, bound=Bound.UPPER,
                             wdl=(1000, 0, 0), nodes=1, nps=2, hashfull=0, tbhits=4, time_ms=0, pv=())
    assert info_line(mating, False, True) == ("info depth 9 seldepth 9 multipv 1 score mate 2 upperbound "
                                              "wdl 1000 0 0 nodes 1 nps 2 hashfull 0 tbhits 4 time 0")
    assert info_line(CurrMoveReport(castle, 3), True, False) == "info currmove e1b1 currmovenumber 3"
    assert info_line(CurrMoveReport(castle, 3), False, False) == "info currmove e1c1 currmovenumber 3"
    assert info_line(NoMoveReport(-MATE), False, True) == "info depth 0 score mate 0"
    assert info_line(NoMoveReport(0), False, False) == "info depth 0 score cp 0"


def test_multipv_larger_than_the_legal_moves(uci):
    uci.set_option("MultiPV", 10)
    board = uci.position(TWO_LEGAL_MOVES)
    search = uci.go("depth 4")
    assert sorted(i["multipv"] for i in search.final()) == list(range(1, board.legal_moves.count() + 1))


def test_multipv_with_searchmoves(uci):
    uci.set_option("MultiPV", 3)
    search = uci.go("depth 4 searchmoves e2e4 d2d4")
    assert sorted(i["pv"][0] for i in search.final()) == ["d2d4", "e2e4"]


# ---- Chess960 ---------------------------------------------------------------------------------

def test_chess960_start_position_and_perft(chess960):
    board = chess960.position(CHESS960_START, chess960=True)
    assert chess960.fen() == board.fen() == CHESS960_START
    assert read_perft(chess960, 3) == (divide(board, 3), pychess_perft(board, 3))
    chess960.go("depth 6")


def test_chess960_castling_king_takes_rook_in_moves(chess960):
    board = chess960.position(CHESS960_START, CHESS960_CASTLING, chess960=True)
    assert chess960.fen() == board.fen() == CHESS960_AFTER
    chess960.go("depth 5")


@pytest.mark.parametrize("asked", ["e1h1", "e1g1"])
def test_chess960_castling_bestmove_is_king_takes_rook(chess960, asked):
    chess960.position(BOTH_WINGS_FREE, chess960=True)
    assert chess960.go(f"depth 4 searchmoves {asked}").bestmove == "e1h1"


def test_standard_castling_bestmove_is_king_two_squares(uci):
    uci.position(BOTH_WINGS_FREE)
    assert uci.go("depth 4 searchmoves e1h1").bestmove == "e1g1"


def test_chess960_off_again_keeps_a_standard_position(chess960):
    board = chess960.position(BOTH_WINGS_FREE, ["e1h1"], chess960=True)
    chess960.set_option("UCI_Chess960", "false")
    assert chess960.fen() == board.fen()


def test_chess960_off_with_castling_rights_only_chess960_has(chess960):
    """They mean nothing in standard chess: the start position is set up, with a note, no error."""
    chess960.position(CHESS960_START, chess960=True)
    chess960.send("setoption name UCI_Chess960 value false")
    texts = chess960.sync()
    assert len(texts) == 1 and texts[0].startswith("info string position reset"), texts
    assert chess960.fen() == chess.STARTING_FEN


# ---- options ----------------------------------------------------------------------------------

@pytest.mark.parametrize("megabytes", [1, 64, 16])
def test_hash_resize(uci, megabytes):
    uci.set_option("Hash", megabytes)
    uci.position(MIDDLEGAME)
    final = uci.go("depth 10").final()[0]
    assert 0 <= final["hashfull"] <= 1000


def test_clear_hash_makes_the_search_repeat_itself(uci):
    """From a cleared table the same search visits the same nodes; a warm table changes that."""
    uci.position(MIDDLEGAME)
    counts = []
    for clear in (True, False, True):
        if clear:
            uci.set_option("Clear Hash")
        counts.append(uci.go("depth 9").final()[0]["nodes"])
    assert counts[0] == counts[2] != counts[1]


@pytest.mark.parametrize("spelling", ["Move Overhead", "move overhead", "MOVE   Overhead"])
def test_move_overhead(quiet_machine, uci, spelling):
    """Option names are case-insensitive and may have spaces: 500 ms overhead of 600 leaves 100."""
    uci.set_option(spelling, 500)
    uci.position(MIDDLEGAME)
    assert uci.go("movetime 600").seconds < 0.45


@pytest.mark.parametrize("line", ["setoption name multipv value 2", "setoption name MULTIPV value 2",
                                  "  setoption \t name   MultiPv  value  2 "])
def test_option_names_ignore_case_and_spacing(uci, line):
    assert uci.errors_after(line) == []
    assert sorted(i["multipv"] for i in uci.go("depth 3").final()) == [1, 2]


@pytest.mark.parametrize("value", ["true", "false", "TRUE"])
def test_ponder_option(uci, value):
    uci.set_option("Ponder", value)
    assert uci.go("depth 3").ponder is not None


def clamp_notes(uci: UciEngine, name: str, value: int) -> list[str]:
    """`setoption name <name> value <value>`, which must be accepted; the notes it gave."""
    uci.send(f"setoption name {name} value {value}")
    notes = uci.sync()
    assert not [n for n in notes if "error" in n], notes
    return notes


@pytest.mark.parametrize("asked", [1024, 4, "cores"])
def test_threads_are_clamped_to_the_cores(uci, asked):
    """Threads is advertised up to 1024 (as engines publish it, so that configurations written for
    bigger machines work); beyond the cores this process may use, one note says what is used."""
    cores = len(os.sched_getaffinity(0))
    asked = cores if asked == "cores" else asked
    assert uci.options["Threads"]["max"] == "1024"
    try:
        notes = clamp_notes(uci, "Threads", asked)
        if asked > cores:
            assert notes == [f"info string Threads {asked} is more than the {cores} core{'s' if cores > 1 else ''} "
                             f"this engine may use: searching with {cores}"]
        else:
            assert notes == []
        uci.position(fen=MIDDLEGAME)
        search = uci.go("movetime 300")          # bestmove and every pv legal (checked by the driver)
        assert search.infos[-1]["nodes"] > 0
        assert uci.go("depth 6").infos[-1]["depth"] == 6
    finally:
        uci.set_option("Threads", 1)


def test_hash_is_clamped_to_the_memory_available(uci):
    """Hash is advertised up to 33554432 MB; more than the memory available (less a reserve) is
    clamped, with one note. The table is not touched before the search fills it, and is given
    back at once here."""
    assert uci.options["Hash"]["max"] == "33554432"
    try:
        notes = clamp_notes(uci, "Hash", 33554432)
        assert len(notes) == 1 and notes[0].startswith("info string Hash 33554432 MB is more than"), notes
        used = int(notes[0].split("using ")[1].split()[0])
        total_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2 ** 20
        assert 1 <= used <= total_mb * 3 // 4            # a quarter of what is available stays free
        uci.set_option("Hash", 16)
        assert clamp_notes(uci, "Hash", 512) == []           # lichess-bot's default
        uci.position(fen=MIDDLEGAME)
        assert uci.go("depth 6").infos[-1]["depth"] == 6
    finally:
        uci.set_option("Hash", 16)


def test_hash_limit_leaves_a_reserve(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24683584 kB\nMemFree:        22000000 kB\nMemAvailable:   8388608 kB\n")
    assert available_memory_mb(str(meminfo)) == 8192
    assert hash_limit_mb(8192) == 8192 - 2048
    assert hash_limit_mb(512) == 256                       # the reserve is at least 256 MB
    assert hash_limit_mb(100) == 1
    assert available_memory_mb(str(tmp_path / "none")) is None
    meminfo.write_text("MemTotal: 100 kB\n")
    assert available_memory_mb(str(meminfo)) is None


def test_uci_elo_above_full_strength_plays_at_full_strength(uci):
    """UCI_Elo goes up to Stockfish's 3190, so that its configurations work; from Jitfish's full
    strength up it is full strength, which one note says."""
    uci.set_option("UCI_LimitStrength", "true")
    notes = clamp_notes(uci, "UCI_Elo", 2800)
    assert len(notes) == 1 and "full strength" in notes[0], notes
    uci.position(fen=MIDDLEGAME)
    search = uci.go("depth 5")
    assert search.final()[0]["depth"] == 5 and search.bestmove == search.final()[0]["pv"][0]


def test_clear_hash_spelled_otherwise(uci):
    assert uci.errors_after("setoption name clear HASH") == []


# ---- perft and the extensions -----------------------------------------------------------------

def test_perft_after_e2e4(uci):
    board = uci.position(moves=["e2e4"])
    assert read_perft(uci, 3) == (divide(board, 3), 13160)


def test_d_shows_the_position(uci):
    board = uci.position(KIWIPETE, ["e1g1", "a6e2"])
    uci.send("d")
    texts = uci.sync()
    diagram = [f"{8 - rank} {row}" for rank, row in enumerate(str(board).splitlines())]
    assert texts[:9] == diagram + ["  a b c d e f g h"]
    assert texts[9] == f"Fen: {board.fen()}"


@pytest.mark.parametrize("moves", [(), ("e1g1",)])
def test_eval_prints_terms_and_a_total(uci, moves):
    """A table of terms (white, black, blended difference) and the total from both points of view,
    then the shipped network's score, which the search uses."""
    board = uci.position(KIWIPETE, moves)
    uci.send("eval")
    texts = uci.sync()
    network = re.fullmatch(r"the network \(EvalFile .+\), which the search uses: (-?\d+) cp from white's side, "
                           r"(-?\d+) cp for the side to move", texts.pop())
    white, mover = int(network.group(1)), int(network.group(2))
    assert mover == (white if board.turn == chess.WHITE else -white)
    assert texts[0].split()[0] == "term" and len(texts) >= 5
    terms = [t for t in texts[1:] if t.count("|") == 3]
    assert len(terms) == len(texts) - 3
    words = texts[-1].split()
    assert words[0] == "total" and words[5:7] == ["side,", words[6]]
    white_view, mover_view = int(words[1]), int(words[6])
    assert mover_view == (white_view if board.turn == chess.WHITE else -white_view)


@pytest.mark.parametrize("line", ["bench", "bench 3"])
def test_bench(uci, line):
    """`bench` searches every bench position and reports node counts as info strings."""
    uci.send(line)
    texts = [line.text for line in uci.read_until("info string Nodes/second", timeout=60)]
    positions = [t for t in texts if t.startswith("info string position")]
    total = [t for t in texts if t.startswith("info string Nodes searched")]
    assert len(positions) >= 20 and len(total) == 1
    assert int(total[0].split(":")[1]) == sum(int(t.split()[4]) for t in positions)


def test_bench_evaluates_as_the_engine_does(uci):
    """`bench` uses the evaluation EvalFile selects, as a search would: with the hand-crafted terms
    its first position searches another tree than with the shipped network."""
    def first_position() -> str:
        uci.send("bench 6")
        texts = [line.text for line in uci.read_until("info string Nodes/second", timeout=60)]
        return next(t for t in texts if t.startswith("info string position"))

    shipped = first_position()
    uci.set_option("EvalFile", "<empty>")
    assert first_position().split()[4] != shipped.split()[4]


# ---- difficulty levels ------------------------------------------------------------------------

def play_game_start(uci: UciEngine, plies: int) -> list[str]:
    """Let the engine play both sides for `plies` plies from a new game; its moves."""
    uci.send("ucinewgame")
    moves: list[str] = []
    for _ in range(plies):
        uci.position(moves=moves)
        moves.append(uci.go("wtime 60000 btime 60000 winc 500 binc 500").bestmove)
    return moves


@pytest.mark.parametrize("options", [{"UCI_LimitStrength": "true", "UCI_Elo": 900}, {"Skill Level": 3}])
def test_levels_repeat_with_a_seed_and_vary_without(uci, options):
    for name, value in options.items():
        uci.set_option(name, value)
    uci.set_option("Random Seed", 1234)
    first = play_game_start(uci, 8)
    assert play_game_start(uci, 8) == first             # ucinewgame restarts the seeded sequence
    uci.set_option("Random Seed", 0)
    games = {tuple(play_game_start(uci, 8)) for _ in range(3)}
    assert len(games | {tuple(first)}) >= 2


def test_limit_strength_off_ignores_uci_elo(uci):
    uci.set_option("UCI_Elo", 400)
    uci.position(MIDDLEGAME)
    search = uci.go("depth 6")
    assert depths(search) == list(range(1, 7)) and search.bestmove == search.final()[0]["pv"][0]


@pytest.mark.parametrize("line", ["setoption name UCI_Elo value 100", "setoption name Skill Level value 21",
                                  "setoption name Random Seed value -1", "setoption name UCI_LimitStrength value 3"])
def test_level_options_out_of_range_are_refused(uci, line):
    assert uci.errors_after(line)
