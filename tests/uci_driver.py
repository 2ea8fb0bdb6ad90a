"""The real engine executable on pipes, as a GUI drives it, for the UCI protocol tests.

`UciEngine` sends command lines and reads the engine's lines with timeouts (a reader thread stamps
each line with its arrival time, so latencies do not depend on when the test looks). Every line it
reads is checked: `info` lines must be well-formed and their `pv`/`currmove` moves legal from the
position of the last `go`, `bestmove` and `ponder` legal in order (python-chess is the reference).
The position is known when it was set with `position()`; a raw `position` line sent with `send()`
makes it unknown, and then moves are only checked for their form.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess

ENGINE_COMMAND = [str(Path(sys.executable).parent / "jitfish")]
READY_TIMEOUT = 180.0         # a kernel edit makes the first start compile for up to a minute
REPLY_TIMEOUT = 10.0          # for answers that need no compilation and no long search
INT_FIELDS = {"depth", "seldepth", "time", "nodes", "multipv", "currmovenumber", "hashfull", "nps",
              "tbhits", "sbhits", "cpuload"}
MOVE_TEXT = re.compile(r"^([a-h][1-8]){2}[qrbn]?$|^0000$")
OPTION_LINE = re.compile(r"^option name (?P<name>\S.*?) type (?P<type>check|spin|combo|button|string)"
                         r"(?: default (?P<default>.*?))?(?: min (?P<min>-?\d+) max (?P<max>-?\d+))?"
                         r"(?P<vars>(?: var \S.*?)*)$")


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
        """The info lines with a pv of the last depth reported (one per multipv line)."""
        with_pv = [i for i in self.infos if "pv" in i and "bound" not in i]
        last = max((i["depth"] for i in with_pv), default=None)
        return [i for i in with_pv if i["depth"] == last]


def parse_option(text: str) -> dict:
    """The fields of an `option` line; AssertionError when it is malformed."""
    match = OPTION_LINE.match(text)
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
    if kind == "combo":
        assert fields["default"] in choices, text
    return {**fields, "vars": choices}


def check_moves(board: chess.Board | None, moves: list[str], context: str) -> None:
    """Each move is well-formed and, when the board is known, legal in order and written the way
    the board's mode writes it (castling king-takes-rook in Chess960, e1g1 otherwise)."""
    for text in moves:
        assert MOVE_TEXT.match(text) and text != "0000", f"malformed move {text!r} in {context!r}"
    if board is None:
        return
    board = board.copy(stack=False)
    for text in moves:
        move = chess.Move.from_uci(text)
        if not board.is_legal(move):
            move = board.parse_uci(text) if _castling_in_other_notation(board, text) else None
            assert move is not None, f"illegal move {text} at {board.fen()} in {context!r}"
        assert board.uci(move) == text, f"{text} should be written {board.uci(move)} in {context!r}"
        board.push(move)


def _castling_in_other_notation(board: chess.Board, text: str) -> bool:
    try:
        return board.is_castling(board.parse_uci(text))
    except ValueError:
        return False


def parse_info(text: str) -> dict:
    """The fields of an `info` line (numbers as int; score as ("cp"|"mate", n), bound under "bound";
    pv as a list); AssertionError when it is malformed."""
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
        else:
            raise AssertionError(f"unknown info field {key!r} in {text!r}")
    assert info, f"empty info line {text!r}"
    return info


class UciEngine:
    """One engine process. Use as a context manager; `start()` does the handshake."""

    def __init__(self, command: list[str] | None = None) -> None:
        self.proc = subprocess.Popen(command or ENGINE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
        self.started_at = time.perf_counter()
        self._lines: queue.Queue[Line | None] = queue.Queue()
        self._stderr: list[bytes] = []
        self.board: chess.Board | None = chess.Board()     # the position the engine has, if known
        self.searched: chess.Board | None = None            # the position of the last `go`
        self.options: dict[str, dict] = {}
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

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- talking --------------------------------------------------------------------------------

    def send(self, line: str | bytes) -> float:
        """Write one line (a newline is added); returns when it was sent."""
        data = line if isinstance(line, bytes) else line.encode()
        words = data.split()
        if words[:1] == [b"position"]:
            self.board = None
        elif words[:1] == [b"go"]:
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
            raise TimeoutError(f"no line from the engine within {timeout} s") from None
        if line is None:
            self._lines.put(None)
            raise EOFError(f"the engine ended (exit code {self.proc.poll()}); stderr: {self.stderr[-2000:]}")
        self.check(line.text)
        return line

    def read_until(self, prefix: str, timeout: float = REPLY_TIMEOUT) -> list[Line]:
        """Lines up to and including the first whose first word is `prefix`, all within `timeout`."""
        deadline = time.perf_counter() + timeout
        lines = []
        while True:
            lines.append(self.read(max(0.0, deadline - time.perf_counter())))
            if lines[-1].text.split()[:1] == [prefix]:
                return lines

    def pending(self, wait: float = 0.0) -> list[str]:
        """Lines that arrive within `wait` seconds (none awaited beyond that)."""
        texts = []
        try:
            while True:
                texts.append(self.read(wait).text)
        except TimeoutError:
            return texts

    def sync(self, timeout: float = REPLY_TIMEOUT) -> list[str]:
        """Send `isready`; the texts of the lines before `readyok`."""
        self.send("isready")
        return [line.text for line in self.read_until("readyok", timeout)[:-1]]

    def errors_after(self, line: str | bytes) -> list[str]:
        """Send a line, then `isready`: the `info string error` lines answered before `readyok`."""
        self.send(line)
        return [text for text in self.sync() if text.startswith("info string error")]

    def start(self) -> UciEngine:
        """The `uci` handshake (options checked and kept), then `isready` with the compile allowance."""
        sent = self.send("uci")
        lines = self.read_until("uciok")
        self.uciok_seconds = lines[-1].at - sent
        for line in lines[:-1]:
            if line.text.startswith("option "):
                option = parse_option(line.text)
                self.options[option["name"]] = option
        sent = self.send("isready")
        self.readyok_seconds = self.read_until("readyok", READY_TIMEOUT)[-1].at - sent
        return self

    def position(self, fen: str | None = None, moves: tuple[str, ...] | list[str] = (),
                 chess960: bool = False) -> chess.Board:
        """Set a position the engine must accept (checked with `isready`); returns it as python-chess has it."""
        board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
        for move in moves:
            board.push(board.parse_uci(move))
        text = f"position {'fen ' + fen if fen else 'startpos'}" + (f" moves {' '.join(moves)}" if moves else "")
        self.send(text)
        errors = [t for t in self.sync() if t.startswith("info string error")]
        assert not errors, f"{text!r} was refused: {errors}"
        self.board = board
        return board

    def go(self, args: str = "", timeout: float = 60.0) -> Search:
        """Send `go <args>` and read up to `bestmove`."""
        sent = self.send(f"go {args}".strip())
        return self.finish_search(sent, timeout)

    def finish_search(self, sent: float, timeout: float = REPLY_TIMEOUT) -> Search:
        """Read the rest of the search started at `sent` up to `bestmove`."""
        lines = self.read_until("bestmove", timeout)
        words = lines[-1].text.split()
        infos = [parse_info(line.text) for line in lines if line.text.startswith("info")]
        return Search(infos, words[1], words[3] if len(words) > 3 else None, lines, sent)

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
            self._check_bestmove(words, text)

    def _check_bestmove(self, words: list[str], text: str) -> None:
        assert len(words) in (2, 4) and (len(words) == 2 or words[2] == "ponder"), f"malformed {text!r}"
        board = self.searched
        if words[1] == "0000":
            assert len(words) == 2, f"ponder move after a null bestmove: {text!r}"
            assert board is None or not any(board.legal_moves), f"{text!r} with legal moves at {board.fen()}"
            return
        check_moves(board, words[1::2], text)
