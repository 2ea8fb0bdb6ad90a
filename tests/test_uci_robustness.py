"""The UCI loop under bad input and at the edges of a search: every malformed command is refused
with exactly one error line and changes nothing, every `go` is answered with exactly one
`bestmove` whatever its arguments and whatever state the engine is in, and `stop`, `isready` and
`quit` are answered at once, also while a search runs. (The fuzzer is tests/test_uci_fuzz.py.)"""

from __future__ import annotations

import random
import statistics
import threading
import time

import chess
import pytest

from search.levels import level_for_elo
from tests.helpers import seed

# ruff: noqa: F811 - the fixtures imported here are test parameters of the same name
from tests.uci_driver import UciEngine, engine, quiet_machine, require_quiet_machine, running_engine, uci  # noqa: F401

MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
BAD_LINES = [
    # position
    "position fen 8/8/8/8 w - - 0 1", "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position fen kK6/8/8/8/8/8/8/8 w - - 0 1", "position fen 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - -5 1", "position fen", "position", "position somewhere",
    "position startpos junk", "position startpos moves e2e4 e7e5 e1e3", "position startpos moves e2e4 zz",
    "position startpos moves e2e4 e7e5 e2e4", "position startpos moves e7e5",
    "position startpos moves " + "g1f3 g8f6 f3g1 f6g8 " * 300 + "e1e2 e1e2",
    # go perft (an extension: a count, not a search)
    "go perft", "go perft 0", "go perft 21", "go perft -1", "go perft 2 3",
    # setoption
    "setoption name Nonsense value 3", "setoption name Hash value 0", "setoption name Hash value 99999999",
    "setoption name MultiPV value 501", "setoption name MultiPV value -1", "setoption name MultiPV value x",
    "setoption name MultiPV value 1 0", "setoption name Ponder value maybe", "setoption name Threads value 0",
    "setoption name UCI_Chess960", "setoption", "setoption value 3", "setoption name", "setoption Hash 32",
    "setoption name Hash value 33554433", "setoption name Threads value 1025", "setoption name UCI_Elo value 3191",
    # others
    "frobnicate", "frobnicate the engine now", "debug", "debug maybe", "bench x", "bench 0", "x" * 100_000,
    b"\xff\xfe\x00garbage\x01\x02", b"\x80\x81\x82 \xc3\x28", "\u00e9t\u00e9",
]
QUIET_LINES = ["", "   ", "\t", "\r", "\x1c\x1d", "stop", "ponderhit"]
MOVE_SQUARES = [f + r for f in "abcdefgh" for r in "12345678"]


def state_is_intact(uci: UciEngine, board: chess.Board) -> None:
    """The position and MultiPV 2 set before the bad line are still there."""
    assert uci.fen() == board.fen()
    assert sorted(i["multipv"] for i in uci.go("depth 3").final()) == [1, 2]


@pytest.mark.parametrize("line", BAD_LINES, ids=lambda line: repr(line)[:40])
def test_bad_input_is_refused_once_and_changes_nothing(uci, line):
    board = uci.position(moves=["e2e4", "e7e5"])
    uci.set_option("MultiPV", 2)
    errors = uci.errors_after(line)
    assert len(errors) == 1, errors
    assert len(errors[0]) < 400 and "internal error" not in errors[0]
    state_is_intact(uci, board)


@pytest.mark.parametrize("line", QUIET_LINES, ids=repr)
def test_empty_lines_and_stray_stop_or_ponderhit_are_ignored(uci, line):
    """No command (only whitespace), or one that is "not supposed to come": no answer at all."""
    uci.send(line)
    assert uci.sync() == []


def test_unknown_tokens_before_a_command(uci):
    """The spec says to skip them and run the command found after them (one warning says so)."""
    uci.send("joho setoption name MultiPV value 2")
    answer = uci.sync()
    assert len(answer) == 1 and answer[0].startswith("info string warning") and "joho" in answer[0], answer
    assert sorted(i["multipv"] for i in uci.go("depth 2").final()) == [1, 2]


# ---- every go is answered -----------------------------------------------------------------------

def warnings_of(search) -> list[str]:
    return [line.text for line in search.lines if line.text.startswith("info string warning")]


def answered_once(uci: UciEngine, args: str, timeout: float = 30.0):
    """`go <args>`: its search, which must end in one bestmove (none more comes before `readyok`)
    and carry no error line."""
    search = uci.go(args, timeout=timeout)
    later = uci.sync()
    assert not [text for text in later if text.startswith("bestmove")], later
    assert not [line.text for line in search.lines if "error" in line.text], search.lines
    return search


# (go arguments, the number of warnings, a check of the search). After 1. e4 e5; MultiPV 2.
LENIENT_GO = [
    ("depth -3", 1, lambda s: s.final()[0]["depth"] == 1),
    ("depth 0", 1, lambda s: s.final()[0]["depth"] == 1),
    ("depth", 1, lambda s: s.final()[0]["depth"] == 1),
    ("depth x", 1, lambda s: s.final()[0]["depth"] == 1),
    ("depth 3.5", 1, lambda s: s.final()[0]["depth"] == 3),
    ("depth 2 depth 4", 1, lambda s: s.final()[0]["depth"] == 4),
    ("nodes 0", 1, lambda s: s.final()[0]["depth"] == 1),
    ("nodes -1", 1, lambda s: s.final()[0]["depth"] == 1),
    ("movetime abc", 1, lambda s: s.seconds < 1.0),
    ("movetime -50", 1, lambda s: s.seconds < 1.0),
    ("wtime abc btime 100000", 1, lambda s: s.seconds < 1.0),
    ("wtime -100 btime 5000", 1, lambda s: s.seconds < 1.0),
    ("wtime 1e3 btime 1e3", 2, lambda s: s.seconds < 1.0),
    ("winc -10 depth 2", 1, lambda s: s.final()[0]["depth"] == 2),
    ("movestogo 0 depth 2", 1, lambda s: s.final()[0]["depth"] == 2),
    ("movestogo depth 2", 1, lambda s: s.final()[0]["depth"] == 2),
    ("depth 2 sideways", 1, lambda s: s.final()[0]["depth"] == 2),
    ("sideways ahead depth 2 0x10 nodes 50000", 2, lambda s: s.final()[0]["nodes"] <= 50000),
    ("searchmoves e2e4 depth 2", 2, lambda s: s.final()[0]["depth"] == 2),            # e2e4 was played
    ("depth 2 searchmoves e2e4 d2d4", 1, lambda s: s.bestmove == "d2d4"),
    ("depth 2 searchmoves g1f3 zz e9e4 g1f3", 1, lambda s: s.bestmove == "g1f3"),
    ("depth 2 searchmoves", 1, lambda s: s.final()[0]["depth"] == 2),
    ("depth 2 " + "junk " * 5000, 1, lambda s: s.final()[0]["depth"] == 2),
    ("depth 2 " + " ".join(f"x{k} depth 2" for k in range(12)), 9, lambda s: s.final()[0]["depth"] == 2),
]


@pytest.mark.parametrize("args, warnings, check", LENIENT_GO, ids=[a[:40] for a, _, _ in LENIENT_GO])
def test_every_go_is_answered(uci, args, warnings, check):
    """A `go` with unusable parts: one warning per part (at most MAX_GO_WARNINGS and a count of the
    rest), a search within what was asked, one legal bestmove, and nothing else changed."""
    board = uci.position(moves=["e2e4", "e7e5"])
    uci.set_option("MultiPV", 2)
    search = answered_once(uci, args)
    assert len(warnings_of(search)) == warnings, warnings_of(search)
    assert check(search), search.lines[-3:]
    state_is_intact(uci, board)


def test_go_mate_zero_searches_for_the_quickest_mate(uci):
    uci.position("6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1")
    search = answered_once(uci, "mate 0")
    assert len(warnings_of(search)) == 1 and search.bestmove == "b1b8"


@pytest.mark.parametrize("fen, score", [("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ("mate", 0)),
                                        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ("cp", 0))])
@pytest.mark.parametrize("args", ["depth -1 searchmoves h8g8", "nodes x", "wtime 100 btime 100 searchmoves a1a2"])
def test_no_legal_move_answers_0000_at_once(uci, fen, score, args):
    """Mate or stalemate: `bestmove 0000` at once after the depth-0 score line, however odd the go."""
    uci.position(fen)
    search = answered_once(uci, args)
    assert search.bestmove == "0000" and search.seconds < 0.5
    assert [(i["depth"], i["score"]) for i in search.infos if "string" not in i] == [(0, score)]


def test_long_game_is_accepted(uci):
    """A thousand moves of shuffling knights: long, legal, and a draw by repetition for the search."""
    uci.position(moves=["g1f3", "g8f6", "f3g1", "f6g8"] * 250 + ["e2e4"])
    search = uci.go("depth 4")
    assert search.final()


@pytest.mark.parametrize("number", ["1" + "0" * 30, str(2 ** 63), str(2 ** 64 + 1)])
@pytest.mark.parametrize("limit", ["movetime", "wtime", "nodes", "depth"])
def test_huge_numbers(uci, limit, number):
    """Clamped, never an overflow (a traceback on stderr fails the fixture): the search runs until
    stopped."""
    uci.interrupt(f"{limit} {number} btime {number}", "stop", after=0.1)


# ---- commands while a search runs, and stop/ponderhit in every state ----------------------------

def test_ucinewgame_is_refused_while_searching(uci):
    """The loop never blocks on a search (so `stop` and `quit` are always read): it refuses what
    would empty the search's table under it."""
    uci.position(MIDDLEGAME)
    sent = uci.send("go depth 60")
    errors = uci.errors_after("ucinewgame")
    assert len(errors) == 1 and "running" in errors[0]
    stop = uci.send("stop")
    search = uci.finish_search(sent)
    assert search.lines[-1].at - stop < 0.5


def test_setoption_while_searching_is_carried_out_after_the_search(uci):
    """As Stockfish: a setoption during a search is taken (bad values are still refused at once) and
    what it changes is done when the search has ended, in order, before the next command. GNOME Chess
    sends its difficulty's options while the engine thinks about its first move (refused until
    2026-11-27: the whole game was played at full strength)."""
    uci.send("debug on")
    uci.position(MIDDLEGAME)
    sent = uci.send("go depth 60")
    for line in ["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 800",
                 "setoption name Hash value 8", "setoption name Clear Hash"]:
        assert not uci.errors_after(line), line
    assert len(uci.errors_after("setoption name UCI_Elo value 100")) == 1      # out of range: refused now
    notes = [line.text for line in uci.pending(0.2)]
    assert not [text for text in notes if text.startswith(("bestmove", "info string strength"))], notes
    uci.send("stop")
    search = uci.finish_search(sent)
    assert search.lines[-1].text.startswith("bestmove")
    strength = [text for text in uci.sync() if text.startswith("info string strength")]
    assert strength and "Elo 800 " in strength[-1], strength
    uci.position()
    nodes = uci.go("wtime 10000 btime 10000").final()[0]["nodes"]
    assert nodes <= 1.05 * level_for_elo(800).nodes, nodes       # the level's node budget holds the search


@pytest.mark.parametrize("first", ["depth 60", "infinite", "ponder wtime 10000 btime 10000", "ponder infinite"])
def test_go_while_searching_stops_the_search_and_answers_both(uci, first):
    """A second `go` before the first one's bestmove (a client bug, or a lost `stop`): the first
    search is stopped and answered, with a warning, then the second searches and is answered."""
    uci.position(MIDDLEGAME)
    sent = uci.send(f"go {first}")
    time.sleep(0.2)
    second = uci.send("go depth 3")
    earlier = uci.finish_search(sent)
    assert earlier.lines[-1].at - second < 0.5
    assert [line.text for line in earlier.lines if line.text.startswith("info string warning")] != []
    assert uci.finish_search(second).final()[0]["depth"] == 3
    assert not [text for text in uci.sync() if text.startswith("bestmove")]


@pytest.mark.parametrize("line", ["go perft 4", "bench 2"])
def test_perft_and_bench_run_beside_a_search(uci, line):
    """They have their own position and searcher: the search goes on and is answered."""
    uci.position(MIDDLEGAME)
    sent = uci.send("go infinite")
    uci.send(line)
    end = "Nodes searched" if "perft" in line else "info string Nodes/second"
    lines = uci.read_until(end, timeout=60)
    assert not [x for x in lines if x.text.startswith("bestmove") or "error" in x.text]
    uci.send("stop")
    uci.finish_search(sent, earlier=[x for x in lines if x.text.startswith("info") and "string" not in x.text])


def test_a_second_perft_beside_a_perft_is_refused(uci):
    uci.send("go perft 5")
    errors = uci.errors_after("go perft 1")
    assert len(errors) == 1 and "perft is running" in errors[0]
    uci.read_until("Nodes searched", timeout=60)


def run_back_to_back(uci: UciEngine, commands: list[str], last: str, timeout: float) -> list[str]:
    """Send each command the moment the previous one's `last` line arrives; those last lines.
    Fails at the first error line (a command refused: a script would wait for ever)."""
    deadline = time.perf_counter() + timeout
    answers = []
    for number, command in enumerate(commands, 1):
        uci.send(command)
        while True:
            text = uci.read(max(0.0, deadline - time.perf_counter())).text
            assert "error" not in text, f"command {number} ({command}): {text}"
            if text.startswith(last):
                answers.append(text)
                break
    return answers


def test_perft_sent_as_the_last_one_ends_waits_for_it(uci):
    """A finished perft's thread may not have exited when its `Nodes searched` line arrives: the
    next `go perft` waits for it instead of being refused."""
    commands = [f"go perft {1 + k % 3}" for k in range(200)]
    answers = run_back_to_back(uci, commands, "Nodes searched", timeout=120)
    assert answers == [f"Nodes searched: {n}" for n in [20, 400, 8902] * 66 + [20, 400]]


def test_bench_sent_as_the_last_one_ends_waits_for_it(uci):
    answers = run_back_to_back(uci, ["bench 1"] * 8, "info string Nodes/second", timeout=120)
    assert len(answers) == 8


def test_a_job_held_after_its_last_line_is_waited_for():
    """The race above made certain, in-process: the perft's thread is held right after it wrote
    `Nodes searched`; the next `go perft` waits for it and runs."""
    from jitfish.uci import UciLoop

    lines: list[str] = []
    written, release = threading.Event(), threading.Event()

    def write(text: str) -> None:
        lines.append(text.strip())
        if text.startswith("Nodes searched") and not written.is_set():
            written.set()
            release.wait(10)              # the finished job's thread has not exited yet

    loop = UciLoop(write=write)
    loop.wait_ready()
    loop.handle("go perft 1")
    assert written.wait(30)
    threading.Timer(0.2, release.set).start()
    loop.handle("go perft 2")
    loop.job.thread.join(30)
    assert [t for t in lines if t.startswith("Nodes") or "error" in t] == ["Nodes searched: 20",
                                                                          "Nodes searched: 400"]
    loop.handle("quit")


# (commands, how many bestmoves they must produce): stop and ponderhit in odd states change
# nothing, and the engine answers the next go with exactly one bestmove.
ODD_STATES = [
    (["stop", "stop"], 0),
    (["ponderhit", "ponderhit"], 0),
    (["go depth 2", "sync", "stop", "stop"], 1),                     # stop after the search ended
    (["go depth 2", "sync", "ponderhit"], 1),                        # ponderhit without ponder
    (["go infinite", "ponderhit", "sleep", "stop", "stop"], 1),      # ponderhit on a non-ponder search
    (["go ponder depth 3", "ponderhit", "ponderhit"], 1),            # ponderhit twice
    (["go ponder infinite", "ponderhit", "sleep", "stop"], 1),       # still infinite after ponderhit
    (["go ponder wtime 60000 btime 60000", "stop", "ponderhit"], 1),  # ponderhit after stop
    (["go ponder wtime 60000 btime 60000", "stop", "go depth 2"], 2),  # a ponder miss, as python-chess does it
    (["go infinite", "stop", "go infinite", "stop"], 2),
    (["go infinite", "go infinite", "go infinite", "stop"], 3),
]


@pytest.mark.parametrize("commands, answers", ODD_STATES, ids=[" / ".join(c) for c, _ in ODD_STATES])
def test_stop_and_ponderhit_in_odd_states(uci, commands, answers):
    uci.position(MIDDLEGAME)
    lines = []
    for command in commands:
        if command == "sync":
            lines += uci.read_until("bestmove")
        elif command == "sleep":
            time.sleep(0.2)
        else:
            uci.send(command)
    missing = answers - sum(x.text.startswith("bestmove") for x in lines)
    lines += [uci.read_until("bestmove")[-1] for _ in range(missing)]
    later = uci.sync() + [line.text for line in uci.pending(0.3)]
    assert sum(x.text.startswith("bestmove") for x in lines) == answers
    assert not [text for text in later if text.startswith("bestmove") or "error" in text], later
    assert answered_once(uci, "depth 2").final()[0]["depth"] == 2


def test_no_legal_move_ponder_waits_for_ponderhit_then_answers_at_once(uci):
    """`go ponder` must not answer before ponderhit or stop (the spec), not even with no move."""
    uci.position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    search, latency = uci.interrupt("ponder wtime 1000 btime 1000", "ponderhit", after=0.2)
    assert search.bestmove == "0000" and latency < 0.5


def test_go_right_after_stop_waits_for_the_stopped_search(uci):
    """`stop` and a new `go` may come before the old bestmove has been read: both searches report."""
    uci.position(MIDDLEGAME)
    first = uci.send("go infinite")
    time.sleep(0.2)
    uci.send("stop")
    second = uci.send("go depth 3")
    uci.finish_search(first)
    assert uci.finish_search(second).final()[0]["depth"] == 3


def test_position_and_display_while_searching(uci):
    """The search has its own copy of the position; `d` and `eval` answer at once."""
    uci.position(KIWIPETE)
    sent = uci.send("go infinite")
    uci.send("position startpos moves d2d4")
    uci.send("eval")
    assert uci.fen() == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    uci.send("stop")
    uci.finish_search(sent)         # checked against the position it started from


# ---- latencies ----------------------------------------------------------------------------------

def test_stop_latency(quiet_machine, uci):
    """`go infinite` on a middlegame, `stop` after 0.5 s: bestmove within 50 ms is the target."""
    uci.position(MIDDLEGAME)
    uci.interrupt("infinite", "stop", after=0.1)       # not measured: the first search may load kernels
    latencies = [uci.interrupt("infinite", "stop", after=0.5)[1] for _ in range(8)]
    print(f"stop latency ms: median {statistics.median(latencies) * 1000:.1f} "
          f"max {max(latencies) * 1000:.1f} all {[round(x * 1000, 1) for x in latencies]}")
    assert statistics.median(latencies) < 0.1 and max(latencies) < 0.5


def test_isready_latency_while_searching(uci):
    uci.position(MIDDLEGAME)
    sent = uci.send("go infinite")
    latencies, earlier = [], []
    for _ in range(10):
        time.sleep(0.1)
        asked = uci.send("isready")
        lines = uci.read_until("readyok")
        latencies.append(lines[-1].at - asked)
        earlier += lines[:-1]
    uci.send("stop")
    uci.finish_search(sent, earlier=earlier)
    print(f"isready latency while searching ms: median {statistics.median(latencies) * 1000:.1f} "
          f"max {max(latencies) * 1000:.1f}")
    require_quiet_machine()
    assert statistics.median(latencies) < 0.1 and max(latencies) < 0.5


# ---- the end of the process ---------------------------------------------------------------------

def exit_seconds(engine: UciEngine, end) -> float:
    """How long the process takes to exit after `end(engine)`."""
    start = time.perf_counter()
    end(engine)
    engine.proc.wait(timeout=10)
    return time.perf_counter() - start


@pytest.mark.parametrize("searching", [False, True], ids=["idle", "go infinite"])
@pytest.mark.parametrize("how", ["quit", "end of input"])
def test_the_process_ends_promptly(searching, how):
    with running_engine() as fresh:
        if searching:
            fresh.position(MIDDLEGAME)
            fresh.send("go infinite")
            time.sleep(0.3)
        end = (lambda e: e.send("quit")) if how == "quit" else (lambda e: e.proc.stdin.close())
        assert exit_seconds(fresh, end) < 2.0
        assert fresh.proc.returncode == 0


# ---- a failing search still answers -----------------------------------------------------------

def test_a_search_that_fails_still_answers_with_a_legal_move(monkeypatch):
    """The loop in-process, its search made to raise (a stand-in for a bug): one error line, then a
    legal bestmove; the next go searches normally."""
    from jitfish.uci import UciLoop
    from search.driver import Searcher

    lines: list[str] = []
    loop = UciLoop(write=lines.append)
    loop.wait_ready()
    real_run = Searcher.run

    def broken(self, *args, **kwargs):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(Searcher, "run", broken)
    for command in ("position startpos moves e2e4", "go depth 3"):
        loop.handle(command)
    loop.search.thread.join(10)
    texts = [line.strip() for line in lines]
    assert [t for t in texts if "error" in t] == ["info string error: internal error RuntimeError: simulated failure"]
    best = [t for t in texts if t.startswith("bestmove")]
    assert len(best) == 1 and best[0].split()[1] in {m.uci() for m in chess.Board(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves}
    monkeypatch.setattr(Searcher, "run", real_run)
    lines.clear()
    loop.handle("go depth 2")
    loop.search.thread.join(10)
    assert sum(line.startswith("bestmove") for line in lines) == 1 and not [t for t in lines if "error" in t]
    loop.handle("quit")
