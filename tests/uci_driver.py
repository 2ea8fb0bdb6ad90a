"""The real engine executable on pipes, driven as a GUI drives it, for the UCI protocol tests.

`UciEngine` sends command lines and reads the engine's lines with timeouts (a reader thread stamps
each line with its arrival time, so latencies do not depend on when the test looks). Every line it
reads is checked: `info` lines must be well-formed and their `pv`/`currmove` moves legal from the
position of the last `go`; `bestmove` and `ponder` must be legal in turn (python-chess is the
reference, castling notation included). That position is `board`, which `position()` sets. Raw
`position` lines sent with `send()` leave it alone (a refused one must not change the engine's
position either); a test that sends accepted ones sets `board` itself, or to None: then moves are
only checked for their form.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import chess
import pytest

ROOT = Path(__file__).resolve().parents[1]
# $JITFISH_ENGINE runs another build (e.g. a worktree's run_engine.sh) through the same tests.
ENGINE_COMMAND = (os.environ.get("JITFISH_ENGINE") or str(Path(sys.executable).parent / "jitfish")).split()
STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8"}  # as under a UTF-8 locale: bytes that are not UTF-8 are an error
READY_TIMEOUT = 180.0         # after a kernel edit the first start compiles for up to a minute
REPLY_TIMEOUT = 60.0          # generous: the first use of a lazily compiled kernel (eval, perft) may compile
WARM_UP_POSITIONS = ["6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1",   # mate in 1: a one-move pv, ponder from the TT
                     "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]          # checkmate: no legal move
INT_FIELDS = {"depth", "seldepth", "time", "nodes", "multipv", "currmovenumber", "hashfull", "nps",
              "tbhits", "sbhits", "cpuload"}
MOVE_TEXT = re.compile(r"([a-h][1-8]){2}[qrbn]?")
OPTION_LINE = re.compile(r"option name (?P<name>\S.*?) type (?P<type>check|spin|combo|button|string)"
                         r"(?: default (?P<default>.*?))?(?: min (?P<min>-?\d+) max (?P<max>-?\d+))?"
                         r"(?P<vars>(?: var \S.*?)*)")


@dataclass
class Line:
    text: str
    at: float                  # time.perf_counter() when the line arrived


@dataclass
class Search:
    """What one `go` produced."""
    infos: list[dict]
    bestmove: str
    ponder: str | None
    lines: list[Line]
    sent_at: float

    @property
    def seconds(self) -> float:
        """From sending `go` to the arrival of `bestmove`."""
        return self.lines[-1].at - self.sent_at

    def final(self) -> list[dict]:
        """The exact-score info lines with a pv of the last depth reported, in multipv order."""
        with_pv = [i for i in self.infos if "pv" in i and "bound" not in i]
        last = max((i["depth"] for i in with_pv), default=None)
        return sorted((i for i in with_pv if i["depth"] == last), key=lambda i: i.get("multipv", 1))


def parse_option(text: str) -> dict:
    """The fields of an `option` line (name, type, default, min, max, vars); AssertionError when it
    is malformed or inconsistent (a default outside min..max, var on a spin, ...)."""
    match = OPTION_LINE.fullmatch(text)
    assert match, f"malformed option line {text!r}"
    fields = match.groupdict()
    kind = fields["type"]
    assert (fields["default"] is None) == (kind == "button"), f"default missing or misplaced: {text!r}"
    assert (fields["min"] is not None) == (kind == "spin"), f"min/max only and always for spin: {text!r}"
    if kind == "spin":
        assert int(fields["min"]) <= int(fields["default"]) <= int(fields["max"]), text
    if kind == "check":
        assert fields["default"] in ("true", "false"), text
    choices = [v for v in fields.pop("vars").split(" var ") if v]
    assert bool(choices) == (kind == "combo"), f"var only and always for combo: {text!r}"
    assert kind != "combo" or fields["default"] in choices, text
    return {**fields, "vars": choices}


def parse_info(text: str) -> dict:
    """The fields of an `info` line: numbers as int, score as ("cp"|"mate", n) with its bound under
    "bound", pv as a list of move texts; AssertionError when it is malformed."""
    tokens = text.split()
    assert tokens[0] == "info", text
    info: dict = {}
    i = 1
    while i < len(tokens):
        key = tokens[i]
        if key == "string":
            info["string"] = " ".join(tokens[i + 1:])
            break
        if key in ("pv", "refutation", "currline"):
            info[key] = tokens[i + 1:]
            assert info[key], f"empty {key} in {text!r}"
            break
        assert i + 1 < len(tokens), f"{key} without a value in {text!r}"
        if key in INT_FIELDS:
            assert re.fullmatch(r"-?\d+", tokens[i + 1]), f"{key} is not a number in {text!r}"
            info[key] = int(tokens[i + 1])
            i += 2
        elif key == "score":
            assert tokens[i + 1] in ("cp", "mate") and i + 2 < len(tokens), f"bad score in {text!r}"
            info["score"] = (tokens[i + 1], int(tokens[i + 2]))
            i += 3
            if i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                info["bound"] = tokens[i]
                i += 1
        elif key == "currmove":
            info["currmove"] = tokens[i + 1]
            i += 2
        elif key == "wdl":
            values = tokens[i + 1:i + 4]
            assert len(values) == 3 and all(v.isdigit() for v in values), f"bad wdl in {text!r}"
            info["wdl"] = tuple(int(v) for v in values)
            assert sum(info["wdl"]) == 1000, f"wdl does not sum to 1000 in {text!r}"
            i += 4
        else:
            raise AssertionError(f"unknown info field {key!r} in {text!r}")
    assert info, f"empty info line {text!r}"
    return info


def check_moves(board: chess.Board | None, moves: list[str], context: str) -> None:
    """Each move is well-formed and, when the board is known, legal in turn and written the way the
    board's mode writes it (castling king-takes-rook in Chess960, e1g1 otherwise)."""
    for text in moves:
        assert MOVE_TEXT.fullmatch(text), f"malformed move {text!r} in {context!r}"
    if board is None:
        return
    board = board.copy(stack=False)
    for text in moves:
        try:
            move = board.parse_uci(text)      # takes either castling notation
        except ValueError:
            raise AssertionError(f"illegal move {text} at {board.fen()} in {context!r}") from None
        assert board.uci(move) == text, f"{text} should be written {board.uci(move)} in {context!r}"
        board.push(move)


class UciEngine:
    """One engine process. `start()` does the handshake; use it as a context manager."""

    def __init__(self, command: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.started_at = time.perf_counter()
        self.proc = subprocess.Popen(command or ENGINE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT, env={**os.environ, **(env or {})})
        self._lines: queue.Queue[Line | None] = queue.Queue()
        self._stderr: list[bytes] = []
        self.board: chess.Board | None = chess.Board()     # the engine's position, if known
        self.searched: chess.Board | None = None            # `board` when the last `go` was sent
        self.options: dict[str, dict] = {}
        self.ids: dict[str, str] = {}
        self.uciok_seconds = self.readyok_seconds = None
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _read_stdout(self) -> None:
        for raw in self.proc.stdout:
            self._lines.put(Line(raw.decode("utf-8", "replace").rstrip("\r\n"), time.perf_counter()))
        self._lines.put(None)

    def _read_stderr(self) -> None:
        for raw in self.proc.stderr:
            self._stderr.append(raw)

    @property
    def stderr(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- talking --------------------------------------------------------------------------------

    def send(self, line: str | bytes) -> float:
        """Write one line (the newline is added); returns when it was sent."""
        data = line if isinstance(line, bytes) else line.encode()
        if data.split()[:1] == [b"go"]:
            self.searched = self.board
        sent = time.perf_counter()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return sent

    def read(self, timeout: float = REPLY_TIMEOUT) -> Line:
        """The next line (checked); TimeoutError when none comes, EOFError when the engine ended."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no line from the engine within {timeout:.1f} s") from None
        if line is None:
            self._lines.put(None)
            raise EOFError(f"the engine ended (exit code {self.proc.poll()}); stderr: {self.stderr[-2000:]}")
        self.check(line.text)
        return line

    def read_until(self, prefix: str, timeout: float = REPLY_TIMEOUT) -> list[Line]:
        """Lines up to and including the first that starts with `prefix`, all within `timeout`."""
        deadline = time.perf_counter() + timeout
        lines = []
        while True:
            lines.append(self.read(max(0.0, deadline - time.perf_counter())))
            if lines[-1].text.startswith(prefix):
                return lines

    def pending(self, wait: float = 0.0) -> list[Line]:
        """The lines that come while no gap between them is longer than `wait` seconds."""
        lines = []
        try:
            while True:
                lines.append(self.read(wait))
        except TimeoutError:
            return lines

    def sync(self, timeout: float = REPLY_TIMEOUT) -> list[str]:
        """Send `isready`; the texts of the lines that came before `readyok`."""
        self.send("isready")
        return [line.text for line in self.read_until("readyok", timeout)[:-1]]

    def errors_after(self, line: str | bytes) -> list[str]:
        """Send a line, then `isready`: the `info string error` lines that came before `readyok`."""
        self.send(line)
        return [text for text in self.sync() if text.startswith("info string error")]

    def start(self) -> UciEngine:
        """The `uci` handshake (option lines checked and kept), then `isready` with the compile
        allowance. Records the seconds to `uciok` (from the start of the process) and to `readyok`."""
        self.send("uci")
        lines = self.read_until("uciok")
        self.uciok_seconds = lines[-1].at - self.started_at
        for line in lines[:-1]:
            if line.text.startswith("option "):
                option = parse_option(line.text)
                self.options[option["name"]] = option
            elif line.text.startswith("id "):
                _, key, value = line.text.split(" ", 2)
                self.ids[key] = value
        sent = self.send("isready")
        self.readyok_seconds = self.read_until("readyok", READY_TIMEOUT)[-1].at - sent
        # `readyok` comes at once, the kernels load a second later (jitfish/kernels.py); `d` waits
        # for them, so that the tests meet a loaded engine, whatever the machine's load
        self.send("d")
        self.read_until("Chess960:", READY_TIMEOUT)
        return self

    def warm_up(self) -> None:
        """Use once each kernel that loads (after a kernel edit: compiles) only when first needed,
        so that later timings measure the engine and not the compiler."""
        for fen in WARM_UP_POSITIONS:
            self.board = chess.Board(fen)
            self.send(f"position fen {fen}")
            self.send("go depth 1")
            self.read_until("bestmove", READY_TIMEOUT)
        for line in ("eval", "d", "go perft 1", "position startpos"):
            self.send(line)
        self.board = chess.Board()
        self.sync(READY_TIMEOUT)

    def position(self, fen: str | None = None, moves: tuple[str, ...] | list[str] = (),
                 chess960: bool = False) -> chess.Board:
        """Set a position the engine must accept; returns it as python-chess has it."""
        board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
        for move in moves:
            board.push(board.parse_uci(move))
        text = f"position {'fen ' + fen if fen else 'startpos'}"
        text += f" moves {' '.join(moves)}" if moves else ""
        errors = self.errors_after(text)
        assert not errors, f"{text!r} was refused: {errors}"
        self.board = board
        return board

    def go(self, args: str = "", timeout: float = 60.0) -> Search:
        """Send `go <args>` and read up to `bestmove`."""
        return self.finish_search(self.send(f"go {args}".strip()), timeout)

    def finish_search(self, sent: float, timeout: float = REPLY_TIMEOUT, earlier: list[Line] = ()) -> Search:
        """Read the rest of the search started at `sent` up to `bestmove`; `earlier` are its lines
        read before."""
        lines = [*earlier, *self.read_until("bestmove", timeout)]
        words = lines[-1].text.split()
        infos = [parse_info(line.text) for line in lines if line.text.startswith("info")]
        return Search(infos, words[1], words[3] if len(words) > 3 else None, lines, sent)

    def interrupt(self, args: str, command: str, after: float = 0.0) -> tuple[Search, float]:
        """`go <args>`, then after `after` seconds, in which its bestmove must not come, `command`
        (`stop`, `ponderhit`). Returns the search and the seconds from `command` to `bestmove`."""
        sent = self.send(f"go {args}")
        time.sleep(after)
        earlier = self.pending()
        assert not [line for line in earlier if line.text.startswith("bestmove")], f"bestmove before {command}"
        at = self.send(command)
        search = self.finish_search(sent, earlier=earlier)
        return search, search.lines[-1].at - at

    def fen(self) -> str:
        """The engine's position as `d` shows it."""
        self.send("d")
        return next(text for text in self.sync() if text.startswith("Fen: "))[5:]

    def set_option(self, name: str, value: object = None) -> None:
        """`setoption`, which must be accepted."""
        text = f"setoption name {name}" + ("" if value is None else f" value {value}")
        errors = self.errors_after(text)
        assert not errors, f"{text!r} was refused: {errors}"

    def reset(self) -> None:
        """Back to a fresh game: any search stopped, every option at its default, the start position."""
        self.send("stop")
        self.sync()
        self.pending(0.05)              # the bestmove of a search a failed test left running
        for name, option in self.options.items():
            if option["type"] != "button":
                self.set_option(name, option["default"])
        self.send("ucinewgame")
        self.position()

    def close(self, timeout: float = 5.0) -> int:
        """Send `quit` (if it can still listen), wait, kill if needed; the exit code."""
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.stdin.close()
            except (BrokenPipeError, ValueError):
                pass
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for thread in self._threads:
            thread.join(timeout)
        return self.proc.returncode

    # ---- checking -------------------------------------------------------------------------------

    def check(self, text: str) -> None:
        """Every `info` and `bestmove` line is well-formed and legal from the searched position."""
        words = text.split()
        if words[:1] == ["info"]:
            info = parse_info(text)
            check_moves(self.searched, info.get("pv", []), text)
            check_moves(self.searched, [info["currmove"]] if "currmove" in info else [], text)
        elif words[:1] == ["bestmove"]:
            assert len(words) in (2, 4) and words[2:3] in ([], ["ponder"]), f"malformed {text!r}"
            if words[1] != "0000":
                check_moves(self.searched, words[1::2], text)
            else:
                assert len(words) == 2, f"a ponder move after a null bestmove: {text!r}"
                board = self.searched
                assert board is None or not any(board.legal_moves), f"{text!r} at {board.fen()}"


@contextmanager
def running_engine(env: dict[str, str] | None = None) -> Iterator[UciEngine]:
    """A started engine, closed afterwards; it must not have written a traceback to stderr."""
    with UciEngine(env=STRICT_UTF8 if env is None else env) as engine:
        engine.start()
        yield engine
    assert "Traceback" not in engine.stderr, engine.stderr[-3000:]


# Fixtures for the test modules, which import them: one engine per module, a fresh game per test.

@pytest.fixture(scope="module")
def engine() -> Iterator[UciEngine]:
    with running_engine() as started:
        started.warm_up()
        yield started


def machine_busy() -> str | None:
    """Why tight time bounds are not reliable now, or None: more work is runnable than there are
    cores (other jobs, a tuner, data generation, starve the engine's threads for 100 ms and
    more). JITFISH_IGNORE_LOAD=1 says the machine is quiet anyway."""
    load, cores = os.getloadavg()[0], os.cpu_count() or 1
    if load > cores + 0.5 and not os.environ.get("JITFISH_IGNORE_LOAD"):
        return (f"machine busy (load average {load:.1f} on {cores} cores): timing not reliable "
                f"(JITFISH_IGNORE_LOAD=1 runs it anyway)")
    return None


def require_quiet_machine() -> None:
    """The guard of every tight wall-clock assertion: skips the rest of the test when the machine
    is busy (machine_busy). Call it after the assertions that do not depend on timing, right
    before those that do."""
    busy = machine_busy()
    if busy:
        pytest.skip(busy)


@pytest.fixture
def quiet_machine() -> None:
    """require_quiet_machine() for a test that is all timing: it skips before it starts."""
    require_quiet_machine()


@pytest.fixture
def uci(engine: UciEngine) -> Iterator[UciEngine]:
    """The module's engine in a fresh game with every option at its default."""
    engine.reset()
    yield engine
    assert "Traceback" not in engine.stderr, engine.stderr[-3000:]
