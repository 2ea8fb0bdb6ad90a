"""`jitfish checkers`: the checkers engine on stdin/stdout, in a UCI-like line protocol.

    uci                        -> id name, id author, option lines, uciok
    isready                    -> readyok (once the kernels are loaded)
    ucinewgame                 the start position, the transposition table cleared
    setoption name Level value N     1 (beginner) to 10 (full strength, the default)
    position startpos | fen F [moves m1 m2 ...]     moves `11-15`, `15x24x31` (or `15x31` when unambiguous)
    go movetime N | depth N | nodes N | wtime N btime N [winc N binc N movestogo N] | infinite
    go perft N                 one line per legal move with its count, a blank line, `Nodes searched: N`
    stop, quit, d (the board, its FEN and the legal moves: an extension)

Rules that keep every client going (as the chess loop's, jitfish/uci.py):
- bad input (a malformed FEN, an illegal or unfinished jump, an unknown command or option, a
  value out of range) gets ONE `info string error: ...` line and changes nothing;
- every `go` gets exactly one `bestmove`: the search runs on a thread of its own (on a copy of
  the position), `stop` ends it, a second `go` stops the first before it starts; an unusable part
  of a `go` is one error line and the part is taken at its smallest; `bestmove (none)` when the
  side to move has no legal move (it has lost).
The checkers kernels load on a background thread at the start, so `uci` is answered at once.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from typing import Callable

ENGINE_NAME = "Jitfish Checkers"
ENGINE_AUTHOR = "the Jitfish developers"
MAX_MESSAGE_LENGTH = 200
PERFT_MAX_DEPTH = 12
GO_NUMBERS = {            # key -> (smallest, largest)
    "movetime": (0, 10 ** 9), "depth": (1, 100), "nodes": (1, 10 ** 12), "wtime": (0, 10 ** 9),
    "btime": (0, 10 ** 9), "winc": (0, 10 ** 9), "binc": (0, 10 ** 9), "movestogo": (1, 1000),
}


class ProtocolError(ValueError):
    """A command that cannot be carried out; its message is the error line."""


def _cut(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_LENGTH else text[:MAX_MESSAGE_LENGTH] + "..."


class CheckersProtocol:
    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_raw = write
        self._out_lock = threading.Lock()
        self._loaded = threading.Event()
        self._load_error: BaseException | None = None
        self.level = 10
        self.rng = random.Random()
        self.board = None
        self.searcher = None
        self._worker: threading.Thread | None = None
        threading.Thread(target=self._load, daemon=True).start()

    # ---- output and loading --------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._out_lock:
            self._write_raw(line)

    def error(self, message: str) -> None:
        self.send(f"info string error: {_cut(message)}")

    def _load(self) -> None:
        try:
            from checkers.board import Board
            from checkers.driver import Searcher

            board = Board()
            searcher = Searcher()
            from checkers.driver import Limits
            searcher.run(board, Limits(depth=1))
            from checkers.perft import count
            count(board, 2)
            self.board, self.searcher = board, searcher
        except BaseException as exc:      # noqa: BLE001 - reported on the next command
            self._load_error = exc
        finally:
            self._loaded.set()

    def _ready(self) -> None:
        self._loaded.wait()
        if self._load_error is not None:
            raise ProtocolError(f"the checkers engine could not load: {self._load_error}")

    # ---- the loop ------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one line; False after `quit`."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        try:
            if command == "quit":
                self._stop_search()
                return False
            if command == "uci":
                self.send(f"id name {ENGINE_NAME}")
                self.send(f"id author {ENGINE_AUTHOR}")
                self.send("option name Level type spin default 10 min 1 max 10")
                self.send("uciok")
            elif command == "isready":
                self._ready()
                self.send("readyok")
            elif command == "stop":
                self._stop_search(wait=False)
            elif command == "ucinewgame":
                self._ready()
                self._stop_search()
                from checkers.board import Board
                self.board = Board()
                self.searcher.clear()
            elif command == "setoption":
                self._setoption(args)
            elif command == "position":
                self._ready()
                self._position(args)
            elif command == "go":
                self._ready()
                self._go(args)
            elif command == "d":
                self._ready()
                for text in str(self.board).splitlines():
                    self.send(text)
                self.send(f"Fen: {self.board.fen()}")
                self.send(f"Legal moves: {' '.join(self.board.legal_notation())}")
            else:
                raise ProtocolError(f"unknown command {command!r}")
        except ProtocolError as exc:
            self.error(str(exc))
        except Exception as exc:         # noqa: BLE001 - never crash on a line
            self.error(f"{type(exc).__name__}: {exc}")
        return True

    # ---- commands ------------------------------------------------------------------------

    def _setoption(self, args: list[str]) -> None:
        if len(args) < 2 or args[0] != "name":
            raise ProtocolError("setoption needs `name Level value N`")
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), args[at + 1:]
        else:
            name, value = " ".join(args[1:]), []
        if name.lower() != "level":
            raise ProtocolError(f"unknown option {name!r} (the option is Level)")
        if len(value) != 1:
            raise ProtocolError("setoption name Level needs one value, 1 to 10")
        try:
            level = int(value[0])
        except ValueError:
            raise ProtocolError(f"Level must be a whole number 1 to 10, not {value[0]!r}") from None
        if not 1 <= level <= 10:
            raise ProtocolError(f"Level must be 1 to 10, not {level}")
        self.level = level

    def _position(self, args: list[str]) -> None:
        from checkers.board import Board
        from checkers.notation import START_FEN, FenError, MoveError

        if not args:
            raise ProtocolError("position needs startpos or fen F")
        if "moves" in args:
            at = args.index("moves")
            head, moves = args[:at], args[at + 1:]
        else:
            head, moves = args, []
        if head[0] == "startpos" and len(head) == 1:
            fen = START_FEN
        elif head[0] == "fen" and len(head) >= 2:
            fen = " ".join(head[1:])
        else:
            raise ProtocolError(f"position needs startpos or fen F, not {' '.join(head)!r}")
        try:
            board = Board(fen)
        except FenError as exc:
            raise ProtocolError(f"invalid FEN: {exc}") from None
        for number, text in enumerate(moves, 1):
            if board.outcome() is not None and not board.legal_moves():
                raise ProtocolError(f"move {number} {text!r}: the side to move has no legal move")
            try:
                board.push_notation(text)
            except MoveError as exc:
                raise ProtocolError(f"move {number}: {exc}") from None
        self.board = board              # only now: a bad position changes nothing

    def _parse_go(self, args: list[str]):
        from checkers.driver import Limits

        limits = Limits()
        problems: list[str] = []
        i = 0
        while i < len(args):
            token = args[i]
            if token == "infinite":
                limits.infinite = True
                i += 1
            elif token in GO_NUMBERS:
                low, high = GO_NUMBERS[token]
                text = args[i + 1] if i + 1 < len(args) else None
                try:
                    value = int(text) if text is not None else None
                except ValueError:
                    value = None
                if value is None:
                    problems.append(f"go {token} needs a whole number, not {text!r}; using {low}")
                    value = low
                    i += 1 if text is None or text in GO_NUMBERS or text == "infinite" else 2
                else:
                    i += 2
                    if value < low:
                        problems.append(f"go {token} {value} is below {low}; using {low}")
                        value = low
                    value = min(value, high)
                setattr(limits, token, value)
            else:
                problems.append(f"go: unknown token {token!r} ignored")
                i += 1
        return limits, problems

    def _go(self, args: list[str]) -> None:
        self._stop_search()
        if args and args[0] == "perft":
            self._perft(args[1:])
            return
        limits, problems = self._parse_go(args)
        if problems:
            self.error("; ".join(problems))
        no_limit = not (limits.infinite or limits.movetime is not None or limits.depth or limits.nodes
                        or limits.wtime is not None or limits.btime is not None)
        if no_limit:
            limits.infinite = True      # a bare `go` thinks until `stop`, as UCI engines do
        from checkers.levels import apply_level

        board = self.board.copy()
        searcher = self.searcher
        apply_level(searcher, self.level, self.rng)
        searcher.prepare()              # a `stop` from here on ends this search, even before it starts
        thread = threading.Thread(target=self._search, args=(board, searcher, limits), daemon=True)
        self._worker = thread
        thread.start()

    def _search(self, board, searcher, limits) -> None:
        best = 0
        try:
            def report(it) -> None:
                if it.win_in is not None:
                    score = f"mate {it.win_in}"
                else:
                    score = f"cp {it.score}"
                ms = max(int(it.elapsed * 1000), 0)
                nps = int(it.nodes / max(it.elapsed, 1e-3))
                pv = " ".join(board.notation(m) for m in it.pv) if it.pv else ""
                self.send(f"info depth {it.depth} seldepth {it.seldepth} score {score} nodes {it.nodes} "
                          f"nps {nps} time {ms}" + (f" pv {pv}" if pv else ""))

            best = searcher.run(board, limits, report, prepared=True).best
        except Exception as exc:         # noqa: BLE001 - a failure still ends with a move
            self.error(f"search failed: {type(exc).__name__}: {exc}")
            moves = board.legal_moves()
            best = moves[0] if moves else 0
        self.send(f"bestmove {board.notation(best) if best else '(none)'}")

    def _perft(self, args: list[str]) -> None:
        from checkers.perft import divide

        if len(args) != 1:
            raise ProtocolError(f"go perft needs one depth, 1 to {PERFT_MAX_DEPTH}")
        try:
            depth = int(args[0])
        except ValueError:
            raise ProtocolError(f"go perft needs a whole number, not {args[0]!r}") from None
        if not 1 <= depth <= PERFT_MAX_DEPTH:
            raise ProtocolError(f"go perft depth must be 1 to {PERFT_MAX_DEPTH}, not {depth}")
        total = 0
        lines = []
        for text, n in divide(self.board, depth):
            lines.append(f"{text}: {n}")
            total += n
        for line in lines:
            self.send(line)
        self.send("")
        self.send(f"Nodes searched: {total}")

    def _stop_search(self, wait: bool = True) -> None:
        worker = self._worker
        if worker is None:
            return
        if self.searcher is not None:
            self.searcher.stop()
        if wait:
            while worker.is_alive():
                self.searcher.stop()
                worker.join(0.05)
            self._worker = None


def main(stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    protocol = CheckersProtocol(write)
    try:
        for raw in stdin:
            line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
            if not protocol.handle(line.replace("\x00", " ")):
                break
        else:
            protocol._stop_search()
    except KeyboardInterrupt:
        protocol._stop_search()
    except BrokenPipeError:
        pass
    time.sleep(0)
    return 0
