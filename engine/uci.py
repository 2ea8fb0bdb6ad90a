"""UCI protocol loop: parses commands, keeps the position and options, runs work on a worker thread.

The main thread only reads and dispatches, so `isready` and `stop` are answered while a search or
perft runs. `uci` is answered at once; the numba kernels load on a background thread and
`isready` waits for them. Bad input never changes state: every command is validated completely
before anything is applied, and errors are reported as `info string error: ...`.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Callable, Iterable

from engine.options import ENGINE_OPTIONS, Options

ENGINE_NAME = "Jitfish 0.1.0"
ENGINE_AUTHOR = "the Jitfish developers"
MAX_PERFT_DEPTH = 20


class UciError(ValueError):
    """A command that cannot be carried out; the message is shown to the GUI."""


class UciLoop:
    def __init__(self, write: Callable[[str], None] | None = None) -> None:
        self._out_lock = threading.Lock()
        self._write = write or self._write_stdout
        self.options = Options(ENGINE_OPTIONS)
        self.ready = threading.Event()
        self.init_error: str | None = None
        self.board = None
        self.worker: threading.Thread | None = None
        self.debug = False
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self.cmd_uci, "debug": self.cmd_debug, "isready": self.cmd_isready,
            "setoption": self.cmd_setoption, "register": self.cmd_register,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "ponderhit": self.cmd_ponderhit, "quit": self.cmd_quit,
            "d": self.cmd_display,
        }
        threading.Thread(target=self._initialise, name="jitfish-init", daemon=True).start()

    # ---- plumbing ---------------------------------------------------------------------------------

    @staticmethod
    def _write_stdout(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    def send(self, line: str) -> None:
        with self._out_lock:
            self._write(line + "\n")

    def error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    def _initialise(self) -> None:
        """Load (or compile) the kernels; `isready` answers once this is done."""
        try:
            from engine.warmup import warm_up
            from engine.board import Board
            warm_up()
            self.board = Board(chess960=bool(self.options["UCI_Chess960"]))
        except Exception as exc:  # reported on isready; the loop keeps answering
            self.init_error = f"{type(exc).__name__}: {exc}"
        self.ready.set()

    def wait_ready(self) -> None:
        self.ready.wait()
        if self.init_error:
            raise UciError(f"engine failed to initialise: {self.init_error}")

    def wait_idle(self) -> None:
        """Block until the running search or perft has finished."""
        if self.worker is not None:
            self.worker.join()
            self.worker = None

    def start_worker(self, target: Callable[[], None]) -> None:
        def guarded() -> None:
            try:
                target()
            except Exception as exc:   # never let a worker die silently
                self.error(f"internal error {type(exc).__name__}: {exc}")
        self.worker = threading.Thread(target=guarded, name="jitfish-worker", daemon=True)
        self.worker.start()

    def run(self, lines: Iterable[str]) -> None:
        """Handle lines until `quit` or the end of input."""
        for line in lines:
            if not self.handle(line):
                return
        self.cmd_quit([])

    def handle(self, line: str) -> bool:
        """Execute one command line; False when the loop should end."""
        tokens = line.split()
        if not tokens:
            return True
        # The UCI spec says to skip unknown tokens and look for a command in the rest.
        for i, token in enumerate(tokens):
            if token in self.commands:
                if i:
                    self.error(f"ignoring unknown token(s) {' '.join(tokens[:i])!r}")
                try:
                    return self.commands[token](tokens[i + 1:]) is not False
                except UciError as exc:
                    self.error(str(exc))
                except Exception as exc:  # a bug must not take the engine down
                    self.error(f"internal error {type(exc).__name__}: {exc}")
                return True
        self.error(f"unknown command {tokens[0]!r}")
        return True

    # ---- commands -----------------------------------------------------------------------------------

    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        for option in self.options.declared:
            self.send(option.uci_line())
        self.send("uciok")

    def cmd_debug(self, args: list[str]) -> None:
        if args not in (["on"], ["off"]):
            raise UciError("usage: debug on|off")
        self.debug = args[0] == "on"

    def cmd_isready(self, args: list[str]) -> None:
        self.ready.wait()
        if self.init_error:
            self.error(f"engine failed to initialise: {self.init_error}")
        self.send("readyok")

    def cmd_register(self, args: list[str]) -> None:
        self.send("info string Jitfish is free software and needs no registration")

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name" or len(args) < 2:
            raise UciError("usage: setoption name <id> [value <x>]")
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), None
        self.wait_ready()
        self.wait_idle()
        try:
            option, typed = self.options.set(name, value)
        except ValueError as exc:
            raise UciError(str(exc)) from None
        if option.name == "UCI_Chess960":
            self.board.set_fen(self.board.fen(), chess960=bool(typed))

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.wait_ready()
        self.wait_idle()

    def cmd_position(self, args: list[str]) -> None:
        from engine.board import Board, IllegalMoveError
        from engine.fen import STARTING_FEN, FenError

        if not args or args[0] not in ("startpos", "fen"):
            raise UciError("usage: position startpos|fen <fen> [moves <move>...]")
        at = args.index("moves") if "moves" in args else len(args)
        if args[0] == "startpos":
            if at != 1:
                raise UciError(f"unexpected {' '.join(args[1:at])!r} after startpos")
            fen = STARTING_FEN
        else:
            fen = " ".join(args[1:at])
        self.wait_ready()
        self.wait_idle()
        try:
            board = Board(fen, chess960=bool(self.options["UCI_Chess960"]))
        except FenError as exc:
            raise UciError(f"invalid FEN {fen!r}: {exc}; position unchanged") from None
        for number, text in enumerate(args[at + 1:], 1):
            try:
                board.push_uci(text)
            except IllegalMoveError as exc:
                raise UciError(f"move {number} ({text}): {exc}; position unchanged") from None
        self.board = board

    def cmd_go(self, args: list[str]) -> None:
        self.wait_ready()
        self.wait_idle()
        if args[:1] == ["perft"]:
            if len(args) != 2 or not args[1].isdigit() or not 1 <= int(args[1]) <= MAX_PERFT_DEPTH:
                raise UciError(f"usage: go perft <depth 1..{MAX_PERFT_DEPTH}>")
            depth = int(args[1])
            board = self.board.copy()
            self.start_worker(lambda: self._perft(board, depth))
            return
        raise UciError("search is not implemented yet; only 'go perft <depth>' is available")

    def _perft(self, board, depth: int) -> None:
        from perft.perft import divide

        start = time.perf_counter()
        total = 0
        for text, count in divide(board, depth):
            self.send(f"{text}: {count}")
            total += count
        elapsed = time.perf_counter() - start
        self.send("")
        self.send(f"Nodes searched: {total}")
        if self.debug:
            self.send(f"info string perft {depth} took {elapsed:.3f} s")

    def cmd_stop(self, args: list[str]) -> None:
        pass  # perft cannot be interrupted; searches will poll a stop flag

    def cmd_ponderhit(self, args: list[str]) -> None:
        pass

    def cmd_quit(self, args: list[str]) -> bool:
        return False

    def cmd_display(self, args: list[str]) -> None:
        self.wait_ready()
        board = self.board
        self.send(str(board))
        self.send(f"Fen: {board.fen()}")
        self.send(f"Key: {board.key:016X}")
        self.send(f"Checkers: {' '.join(board.checkers()) or '-'}")


def main() -> None:
    """Run the UCI loop on stdin/stdout."""
    loop = UciLoop()
    loop.run(sys.stdin)
