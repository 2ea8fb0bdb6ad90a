"""The UCI loop under bad input and at the edges of a search: every malformed command is refused
with exactly one error line and changes nothing, a seeded fuzz neither kills nor hangs the engine,
and `stop`, `isready` and `quit` are answered at once, also while a search runs."""

from __future__ import annotations

import random
import statistics
import time

import chess
import pytest

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
    # go
    "go depth", "go depth -3", "go depth x", "go depth 3.5", "go nodes -1", "go movetime abc", "go wtime 1e9",
    "go winc -10 depth 1", "go movestogo 0", "go mate 0", "go searchmoves e2e5 depth 2", "go depth 2 sideways",
    "go perft", "go perft 0", "go perft 21", "go perft -1",
    # setoption
    "setoption name Nonsense value 3", "setoption name Hash value 0", "setoption name Hash value 99999999",
    "setoption name MultiPV value 257", "setoption name MultiPV value -1", "setoption name MultiPV value x",
    "setoption name MultiPV value 1 0", "setoption name Ponder value maybe", "setoption name Threads value 0",
    "setoption name UCI_Chess960", "setoption", "setoption value 3", "setoption name", "setoption Hash 32",
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
    """The spec says to skip them and run the command found after them (one error line says so)."""
    errors = uci.errors_after("joho setoption name MultiPV value 2")
    assert len(errors) == 1 and "joho" in errors[0]
    assert sorted(i["multipv"] for i in uci.go("depth 2").final()) == [1, 2]


def test_negative_clock_plays_as_if_it_were_zero(uci):
    uci.position(MIDDLEGAME)
    sent = uci.send("go wtime -100 btime 5000")
    search = uci.finish_search(sent)
    assert sum(line.text.startswith("info string error") for line in search.lines) == 1
    require_quiet_machine()
    assert search.seconds < 0.3


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


# ---- commands while a search runs ---------------------------------------------------------------

@pytest.mark.parametrize("line", ["go depth 1", "setoption name Hash value 8", "ucinewgame", "bench 1",
                                  "go perft 1", "setoption name Clear Hash"])
def test_commands_that_need_an_idle_engine_are_refused_while_searching(uci, line):
    """The loop never blocks on a search (so `stop` and `quit` are always read): it refuses."""
    uci.position(MIDDLEGAME)
    sent = uci.send("go depth 60")
    errors = uci.errors_after(line)
    assert len(errors) == 1 and "running" in errors[0]
    stop = uci.send("stop")
    search = uci.finish_search(sent)
    assert search.lines[-1].at - stop < 0.5


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


# ---- fuzz ---------------------------------------------------------------------------------------

FUZZ_LINES = 10000
FUZZ_SYNC_EVERY = 50
VALID_LINES = [
    "isready", "ucinewgame", "debug on", "debug off", "register later", "d", "eval", "stop", "ponderhit", "uci",
    "position startpos", "position startpos moves e2e4 e7e5 g1f3 b8c6", f"position fen {MIDDLEGAME}",
    f"position fen {KIWIPETE} moves e1g1 a6e2", "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 moves b4b1",
    "go depth 3", "go nodes 2000", "go movetime 20", "go wtime 300 btime 300 winc 5 binc 5",
    "go wtime 200 btime 200 movestogo 2", "go infinite", "go ponder wtime 100 btime 100", "go mate 2",
    "go searchmoves e2e4 d2d4 depth 3", "go depth 2 searchmoves a2a3", "setoption name MultiPV value 2",
    "setoption name MultiPV value 1", "setoption name Hash value 8", "setoption name Clear Hash",
    "setoption name UCI_Chess960 value true", "setoption name UCI_Chess960 value false",
    "setoption name Move Overhead value 10", "setoption name Ponder value true", "setoption name Threads value 1",
]
# Not `quit` (it ends the process), `bench` or `perft` (long computations that `stop` does not end),
# nor Hash sizes in the gigabytes (see random_number).
KEYWORDS = ["go", "position", "startpos", "fen", "moves", "setoption", "name", "value", "depth", "nodes",
            "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate", "infinite", "ponder", "searchmoves",
            "stop", "ponderhit", "isready", "ucinewgame", "debug", "on", "off", "d", "eval", "Hash", "MultiPV"]


def random_number(rng: random.Random) -> str:
    """Small, negative, huge or not quite a number; never 65..99999, which as a Hash size in MB
    could take gigabytes of memory."""
    return rng.choice([str(rng.randint(0, 64)), str(-rng.randint(1, 10 ** 6)), str(10 ** rng.randint(5, 30)),
                       str(2 ** 63), str(2 ** 64), "1e9", "0x10", "3.5", "-0", "+7"])


def random_move(rng: random.Random) -> str:
    return rng.choice(MOVE_SQUARES) + rng.choice(MOVE_SQUARES) + rng.choice(["", "", "", "q", "n", "x"])


def mutate(rng: random.Random, line: str) -> str | bytes:
    """A valid line with its tokens dropped, duplicated, swapped or replaced, or plain garbage."""
    tokens = line.split()
    kind = rng.randrange(10)
    i = rng.randrange(len(tokens))
    if kind == 0:
        del tokens[i]
    elif kind == 1:
        tokens.insert(i, tokens[i])
    elif kind == 2:
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 3:
        tokens[i] = random_number(rng)
    elif kind == 4:
        tokens.insert(i, random_move(rng))
    elif kind == 5:
        tokens.insert(i, rng.choice(KEYWORDS))
    elif kind == 6:
        tokens = tokens[:i] + rng.choice(VALID_LINES).split()
    elif kind == 7:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).replace(b"\n", b" ")
    elif kind == 8:
        return " ".join(rng.choice(KEYWORDS + [random_number(rng), random_move(rng)])
                        for _ in range(rng.randrange(1, 12)))
    else:
        tokens = [t if rng.random() < 0.7 else random_number(rng) for t in tokens]
    return " ".join(tokens)


def fuzz_lines(rng: random.Random, count: int):
    """Mostly mutated lines, some valid ones, a few very long ones; a `stop` now and then, or most
    `go` commands would find the last search still running."""
    for _ in range(count):
        line = rng.choice(VALID_LINES)
        roll = rng.random()
        if roll < 0.55:
            line = mutate(rng, line)
        elif roll < 0.555:
            line = " ".join([line] * 2000)
        elif roll < 0.65:
            line = "stop"
        yield line


def test_fuzz(uci):
    """Random and mutated commands: the engine never dies or hangs (`isready` every 50 lines is
    answered), reports no internal error, and plays normally afterwards."""
    rng = random.Random(seed(2001))
    uci.board = None           # the fuzz sets positions the driver does not follow
    answers = []
    start = time.perf_counter()
    for n, line in enumerate(fuzz_lines(rng, FUZZ_LINES), 1):
        uci.send(line)
        if n % FUZZ_SYNC_EVERY == 0:
            answers += uci.sync(timeout=30)
    uci.send("stop")
    answers += uci.sync(timeout=30) + [line.text for line in uci.pending(0.3)]
    print(f"fuzz: {FUZZ_LINES} lines in {time.perf_counter() - start:.1f} s, "
          f"{sum(a.startswith('info string error') for a in answers)} error lines")
    assert uci.proc.poll() is None
    assert not [a for a in answers if "internal error" in a]
    uci.reset()
    search = uci.go("depth 3")
    assert search.final()[0]["depth"] == 3
