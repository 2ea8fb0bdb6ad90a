"""`jitfish checkers` through its pipes: the handshake, positions, perft, every `go` with exactly
one `bestmove`, `stop`, bad input (one error line, nothing changed), and a seeded fuzz of
garbage, truncated commands and go/stop interleavings (as tests/test_uci_fuzz.py does for chess)."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from checkers.board import Board
from tests.helpers import seed

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0


class Engine:
    """The checkers protocol in a subprocess; lines read on a thread into a queue."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "jitfish.cli", "checkers"], cwd=ROOT,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    def _pump(self) -> None:
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str | bytes) -> None:
        data = line if isinstance(line, bytes) else line.encode()
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def read_until(self, predicate, timeout: float = TIMEOUT) -> list[str]:
        """Lines up to and including the first that satisfies `predicate`."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no answer in {timeout} s; got {got[-20:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"the engine exited; got {got[-20:]}; stderr {b''.join(self.stderr)[-2000:]!r}")
            got.append(line)
            if predicate(line):
                return got

    def ask(self, line: str, timeout: float = TIMEOUT) -> list[str]:
        """Send a line then `isready`; the lines before `readyok`."""
        self.send(line)
        self.send("isready")
        return self.read_until(lambda text: text == "readyok", timeout)[:-1]

    def go(self, args: str, timeout: float = TIMEOUT) -> list[str]:
        self.send(f"go {args}")
        return self.read_until(lambda text: text.startswith("bestmove"), timeout)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


@pytest.fixture
def engine():
    e = Engine()
    yield e
    e.close()


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


def test_handshake(engine):
    engine.send("uci")
    lines = engine.read_until(lambda text: text == "uciok")
    assert lines[0] == "id name Jitfish Checkers"
    assert lines[1].startswith("id author ")
    assert "option name Level type spin default 10 min 1 max 10" in lines
    assert engine.ask("ucinewgame") == []
    assert engine.ask("setoption name Level value 3") == []


def test_positions_and_perft(engine):
    engine.send("position startpos")
    engine.send("go perft 3")
    lines = engine.read_until(lambda text: text.startswith("Nodes searched"))
    assert lines[-1] == "Nodes searched: 302" and lines[-2] == ""
    counts = dict(line.split(": ") for line in lines[:-2])
    assert set(counts) == set(Board().legal_notation()) and sum(map(int, counts.values())) == 302
    # a jump with every landing square, and the short form when it names one jump
    engine.send("position fen W:WK30:B25,17,10 moves 30x21x14x7")
    engine.send("go perft 1")
    assert engine.read_until(lambda text: text.startswith("Nodes"))[-1] == "Nodes searched: 0"
    engine.send("position fen W:WK30:B25,17,10 moves 30x7")
    engine.send("go perft 1")
    assert engine.read_until(lambda text: text.startswith("Nodes"))[-1] == "Nodes searched: 0"
    engine.send("position fen B:W18:B14")
    engine.send("go perft 1")
    assert engine.read_until(lambda text: text.startswith("Nodes"))[:-2] == ["14x23: 1"]


def test_every_go_gets_one_bestmove(engine):
    engine.ask("position startpos moves 11-15 23-19")
    legal = set(Board().legal_notation())
    board = Board()
    board.push_notation("11-15")
    board.push_notation("23-19")
    legal = set(board.legal_notation())
    for args in ("depth 6", "nodes 20000", "movetime 100", "wtime 2000 btime 2000 winc 10 binc 10",
                 "btime 500 wtime 500", "wtime 1000 btime 1000 movestogo 5"):
        lines = engine.go(args)
        best = lines[-1].split()[1]
        assert best in legal, (args, lines[-1])
        assert any(line.startswith("info depth") and " score " in line and " pv " in line for line in lines), args
        assert engine.ask("") == []              # nothing more after the bestmove
    start = time.monotonic()
    engine.go("movetime 300")
    assert time.monotonic() - start < 2.0


def test_stop_ends_an_infinite_search(engine):
    engine.ask("position startpos")
    engine.send("go infinite")
    time.sleep(0.3)
    engine.send("isready")
    assert engine.read_until(lambda text: text == "readyok")     # answered during the search
    engine.send("stop")
    lines = engine.read_until(lambda text: text.startswith("bestmove"), 5)
    assert lines[-1].split()[1] in Board().legal_notation()
    assert engine.ask("stop") == []               # a stop with nothing running: nothing
    engine.send("go infinite")
    engine.send("stop")                           # at once, maybe before the search starts
    engine.read_until(lambda text: text.startswith("bestmove"), 5)
    engine.send("go infinite")
    engine.send("go depth 2")                     # a go stops the running one: two bestmoves
    engine.read_until(lambda text: text.startswith("bestmove"), 5)
    engine.read_until(lambda text: text.startswith("bestmove"), 5)


def test_no_legal_move_is_bestmove_none(engine):
    engine.ask("position fen B:W18:B14 moves 14x23")
    assert engine.go("depth 5")[-1] == "bestmove (none)"


@pytest.mark.parametrize("line", [
    "position fen X:W1:B2", "position fen B:W1,2:B3", "position fen", "position startpos moves 11-16 22-18 16x23",
    "position startpos moves 11-15 22-18 15x21", "position fen W:WK30:B25,17,10 moves 30x21x14",   # unfinished jump
    "position startpos moves 11-15 22-18 15-19", "position wrong", "frobnicate", "setoption name Level value 0",
    "setoption name Level value ten", "setoption name Hash value 16", "go perft 99", "go perft x",
])
def test_bad_input_is_one_error_and_changes_nothing(engine, line):
    engine.ask("position startpos moves 11-15")
    answer = engine.ask(line)
    assert len(answer) == 1 and errors(answer) == answer, answer
    engine.send("go perft 1")
    lines = engine.read_until(lambda text: text.startswith("Nodes"))
    assert lines[-1] == "Nodes searched: 7"        # still after 11-15 (White's seven moves)
    assert "22-18: 1" in lines


def test_fuzz(engine):
    """Random garbage, truncated and shuffled commands, go/stop interleavings: the engine answers
    every go with one bestmove and stays alive."""
    rng = random.Random(seed(70, 3))
    valid = ["position startpos", "position startpos moves 11-15 22-18 15x22 25x18",
             "position fen W:WK30:B26,18,11", "position fen B:W18:B14", "position fen B:BK29,K32:WK1",
             "go depth 3", "go nodes 3000", "go movetime 20", "go wtime 300 btime 300", "go infinite", "stop",
             "isready", "ucinewgame", "setoption name Level value 5", "setoption name Level value 10",
             "go perft 2", "uci", "d"]
    words = ["go", "position", "fen", "startpos", "moves", "depth", "nodes", "movetime", "wtime", "btime",
             "infinite", "stop", "perft", "setoption", "name", "Level", "value", "11-15", "15x24x31", "-1", "0",
             "999999999999999999999", "B:W", ":", "x", "K"]
    gos = bestmoves = 0
    lines_sent = 0
    running = False
    for _ in range(300):
        kind = rng.random()
        if kind < 0.45:
            line = rng.choice(valid)
        elif kind < 0.65:
            tokens = rng.choice(valid).split()
            line = " ".join(tokens[:rng.randrange(len(tokens) + 1)])          # truncated
        elif kind < 0.85:
            line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 8)))
        else:
            line = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b" ")
        if isinstance(line, bytes):
            engine.send(line)
            lines_sent += 1
            continue
        tokens = line.split()
        if tokens[:1] == ["go"] and tokens[1:2] != ["perft"]:
            gos += 1
            running = True
        elif tokens[:1] == ["go"] and tokens[1:2] == ["perft"]:
            pass
        engine.send(line)
        lines_sent += 1
        if rng.random() < 0.3 or (running and rng.random() < 0.5):
            engine.send("stop")
            running = False
        if rng.random() < 0.2:
            engine.send("isready")
            seen = engine.read_until(lambda text: text == "readyok")
            bestmoves += sum(text.startswith("bestmove") for text in seen)
    engine.send("stop")
    engine.send("isready")
    seen = engine.read_until(lambda text: text == "readyok")
    bestmoves += sum(text.startswith("bestmove") for text in seen)
    deadline = time.monotonic() + 10
    while bestmoves < gos and time.monotonic() < deadline:       # a bestmove may follow the readyok
        engine.send("stop")
        try:
            line = engine.lines.get(timeout=0.5)
        except queue.Empty:
            continue
        assert line is not None, "the engine exited"
        bestmoves += line.startswith("bestmove")
    assert engine.process.poll() is None
    assert bestmoves == gos, (bestmoves, gos)
    assert b"Traceback" not in b"".join(engine.stderr)
