"""UCI protocol loop: parses commands, keeps the position and options, runs searches on a worker.

The main thread only reads and dispatches, so `isready`, `stop` and `ponderhit` are answered
while a search runs. `uci` is answered at once; the numba kernels load on a background thread
and `isready` waits for them. Bad input never changes state: every command is validated
completely before anything is applied, and errors are reported as `info string error: ...`.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import threading
import time
from typing import Callable, Iterable

from engine.frontend.options import ENGINE_OPTIONS, LEVEL_OPTIONS, Options

ENGINE_NAME = "Jitfish 0.1.0"
ENGINE_AUTHOR = "the Jitfish developers"
MAX_PERFT_DEPTH = 20
NUMBER_LIMIT = 1 << 60            # larger `go` numbers are clamped to this
MAX_ERROR_LENGTH = 300
GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
GO_FLAGS = ("infinite", "ponder")


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
        self.searcher = None
        self.book = None                       # the open OpeningBook, if any
        self.book_error: str | None = None     # why the default book could not be opened
        self.worker: threading.Thread | None = None
        self.worker_what = ""                  # "search", "perft" or "bench"
        self.worker_ending = True              # stopped, or its result sent: it exits at once
        self.debug = False
        self._position_cache: tuple[str, list[str]] | None = None
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self.cmd_uci, "debug": self.cmd_debug, "isready": self.cmd_isready,
            "setoption": self.cmd_setoption, "register": self.cmd_register,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "ponderhit": self.cmd_ponderhit, "quit": self.cmd_quit,
            "d": self.cmd_display, "eval": self.cmd_eval, "bench": self.cmd_bench,
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
        if len(message) > MAX_ERROR_LENGTH:      # it may quote a huge line back
            message = message[:MAX_ERROR_LENGTH] + "..."
        self.send(f"info string error: {message}")

    def _initialise(self) -> None:
        """Load (or compile) the kernels; `isready` answers once this is done."""
        try:
            from engine.board import Board
            from search.driver import Searcher
            self.board = Board()
            self.searcher = Searcher(int(self.options["Hash"]))
            self.searcher.warm_up(self.board)
            # The many objects numba created are permanent: keep the garbage collector from
            # rescanning them, which would pause a fast game for tens of milliseconds.
            gc.collect()
            gc.freeze()
        except Exception as exc:  # reported on isready; the loop keeps answering
            self.init_error = f"{type(exc).__name__}: {exc}"
        try:
            self._open_book(str(self.options["Book File"]))
        except UciError as exc:   # not fatal: said when OwnBook is switched on
            self.book_error = str(exc)
        self.ready.set()

    def wait_ready(self) -> None:
        self.ready.wait()
        if self.init_error:
            raise UciError(f"engine failed to initialise: {self.init_error}")

    def busy(self) -> bool:
        return self.worker is not None and self.worker.is_alive()

    def require_idle(self, what: str) -> None:
        """Wait for a worker that is ending; refuse while one still works (however long it may
        take), so that this loop never blocks and always reads `stop` and `quit`."""
        if self.busy():
            if not self.worker_ending:
                hint = " (send stop first)" if self.worker_what == "search" else ""
                raise UciError(f"{what} ignored: a {self.worker_what} is running{hint}")
            self.worker.join()

    def start_worker(self, target: Callable[[], None], what: str) -> None:
        def guarded() -> None:
            try:
                target()
            except Exception as exc:   # never let a worker die silently
                self.error(f"internal error {type(exc).__name__}: {exc}")
            finally:
                self.worker_ending = True
        self.worker_what, self.worker_ending = what, False
        self.worker = threading.Thread(target=guarded, name="jitfish-worker", daemon=True)
        self.worker.start()

    def send_result(self, line: str) -> None:
        """A worker's last line: once the GUI can see it, commands may wait for the worker to exit."""
        self.worker_ending = True
        self.send(line)

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

    # ---- handshake and options ------------------------------------------------------------------

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
        self.send("info string Jitfish is free software under GPL-3.0-or-later and needs no registration")

    def cmd_setoption(self, args: list[str]) -> None:
        if len(args) < 2 or args[0] != "name":
            raise UciError("usage: setoption name <id> [value <x>]")
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), None
        try:
            option = self.options.find(name)
            typed = option.parse(value)
        except ValueError as exc:
            raise UciError(str(exc)) from None
        self.wait_ready()
        self.require_idle("setoption")
        if option.name == "Hash":
            try:
                self.searcher.resize(int(typed))
            except MemoryError:
                raise UciError(f"not enough memory for Hash {typed} MB; keeping "
                               f"{self.options['Hash']} MB") from None
        elif option.name == "Threads":
            self.searcher.set_threads(int(typed))
        elif option.name == "Clear Hash":
            self.searcher.clear()
        elif option.name == "UCI_ShowWDL":
            self.searcher.show_wdl = bool(typed)
        elif option.name == "UCI_Chess960":
            self._set_chess960(bool(typed))
        elif option.name == "SyzygyPath":
            self._open_tablebases(str(typed))
        elif option.name == "SyzygyProbeLimit":
            from search.tablebase import TABLEBASES
            TABLEBASES.probe_limit = int(typed)
        elif option.name == "Book File":
            self._open_book(str(typed))
        elif option.name == "OwnBook" and typed and self.book is None:
            reason = self.book_error or "Book File is empty"
            self.send(f"info string OwnBook is on but no book is loaded ({reason}): every move is searched")
        self.options.set(option.name, value)
        if option.name in LEVEL_OPTIONS:
            self._apply_level(new_game=option.name == "Random Seed")

    def _open_tablebases(self, path: str) -> None:
        """Use the Syzygy tables under `path`; a missing folder is an error that keeps the old ones."""
        from search.tablebase import TABLEBASES, TablebaseError

        try:
            found = TABLEBASES.open(path)
        except TablebaseError as exc:
            raise UciError(str(exc)) from None
        if found:
            self.send(f"info string found {found} Syzygy tables of up to {TABLEBASES.largest} pieces")
        elif path:
            self.send(f"info string no Syzygy tables found in {path!r}; playing without tablebases")

    def _apply_level(self, new_game: bool) -> None:
        """Give the searcher the difficulty level the options ask for; a new game draws a new
        seed for the level's choices unless `Random Seed` fixes it."""
        from search.levels import effective_elo, level_for_elo

        elo = effective_elo(bool(self.options["UCI_LimitStrength"]), int(self.options["UCI_Elo"]),
                            int(self.options["Skill Level"]))
        seed = self.searcher.game_seed
        if new_game or seed == 0:
            seed = int(self.options["Random Seed"]) or random.getrandbits(62) + 1
        level = level_for_elo(elo)
        self.searcher.set_level(level, seed)
        if self.debug:
            self.send(f"info string playing at Elo {elo}: {level or 'full strength'}")

    def _set_chess960(self, chess960: bool) -> None:
        """Keep the position in the new castling mode; one whose castling rights only Chess960 has
        becomes the start position (GUIs send `position` before `go` anyway)."""
        from engine.board import Board
        from engine.fen import FenError

        try:
            self.board.set_fen(self.board.fen(), chess960=chess960)
        except FenError as exc:
            self.board = Board(chess960=chess960)
            self.send(f"info string position reset to the start position ({exc})")
        self._position_cache = None

    def _open_book(self, path: str) -> None:
        """Make the book at `path` the engine's book (none when empty); a file that is missing or
        not a Polyglot book is refused with UciError and the book in force stays."""
        from engine.frontend.book import BookError, OpeningBook

        book = None
        if path:
            try:
                book = OpeningBook(os.path.expanduser(path))
            except BookError as exc:
                kept = f"keeping {self.book.path}" if self.book else "no book loaded"
                raise UciError(f"{exc}; {kept}") from None
        if self.book is not None:
            self.book.close()
        self.book, self.book_error = book, None

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.wait_ready()
        self.require_idle("ucinewgame")
        self._apply_level(new_game=True)     # also empties the table and the history
        self._position_cache = None

    # ---- position ---------------------------------------------------------------------------------

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
        moves = args[at + 1:]
        self.wait_ready()
        chess960 = bool(self.options["UCI_Chess960"])
        cache = self._position_cache
        if cache is not None and cache[0] == fen and moves[:len(cache[1])] == cache[1]:
            board, new_moves, done = self.board.copy(), moves[len(cache[1]):], len(cache[1])
        else:
            try:
                board = Board(fen, chess960=chess960)
            except FenError as exc:
                raise UciError(f"invalid FEN {fen!r}: {exc}; position unchanged") from None
            new_moves, done = moves, 0
        for number, text in enumerate(new_moves, done + 1):
            try:
                board.push_uci(text)
            except IllegalMoveError as exc:
                raise UciError(f"move {number} ({text}): {exc}; position unchanged") from None
        self.board = board
        self._position_cache = (fen, list(moves))

    # ---- go -------------------------------------------------------------------------------------------

    def parse_go(self, args: list[str]):
        """The Limits of a `go` command; UciError on anything malformed."""
        from search.timeman import Limits

        limits = Limits()
        i = 0
        while i < len(args):
            token = args[i]
            if token in GO_NUMBERS:
                if i + 1 >= len(args):
                    raise UciError(f"go {token} needs a number")
                try:
                    value = int(args[i + 1])
                except ValueError:
                    raise UciError(f"go {token}: {args[i + 1]!r} is not a whole number") from None
                if value < 0 and token in ("wtime", "btime"):
                    self.error(f"go {token} {value} is negative; playing as if it were 0")
                    value = 0
                elif value < 0 or (value == 0 and token in ("depth", "nodes", "mate", "movestogo")):
                    raise UciError(f"go {token} {value}: must be {'positive' if value == 0 else 'non-negative'}")
                setattr(limits, token, min(value, NUMBER_LIMIT))
                i += 2
            elif token in GO_FLAGS:
                setattr(limits, token, True)
                i += 1
            elif token == "searchmoves":
                i += 1
                while i < len(args) and args[i] not in GO_NUMBERS + GO_FLAGS + ("searchmoves",):
                    try:      # either castling notation; the search compares the board's own
                        limits.searchmoves.append(self.board.uci(self.board.parse_uci(args[i])))
                    except ValueError as exc:
                        raise UciError(f"go searchmoves: {exc}") from None
                    i += 1
            else:
                raise UciError(f"go: unknown parameter {token!r}")
        return limits

    def cmd_go(self, args: list[str]) -> None:
        self.wait_ready()
        self.require_idle("go")
        if args[:1] == ["perft"]:
            if len(args) != 2 or not args[1].isdigit() or not 1 <= int(args[1]) <= MAX_PERFT_DEPTH:
                raise UciError(f"usage: go perft <depth 1..{MAX_PERFT_DEPTH}>")
            depth = int(args[1])
            board = self.board.copy()
            self.start_worker(lambda: self._perft(board, depth), "perft")
            return
        limits = self.parse_go(args)
        book_move = self._book_move(limits)
        if book_move is not None:
            self.send(f"info string book move {book_move}")
            self.send(f"bestmove {book_move}")
            return
        board = self.board.copy()
        searcher = self.searcher
        searcher.prepare()
        multipv = int(self.options["MultiPV"])
        overhead = int(self.options["Move Overhead"])

        def think() -> None:
            result = searcher.run(board, limits, self.send, multipv=multipv, overhead_ms=overhead)
            text = f"bestmove {board.uci(result.best)}"
            if result.best and result.ponder:
                text += f" ponder {board.uci(result.ponder)}"
            self.send_result(text)

        self.start_worker(think, "search")

    def _book_move(self, limits) -> str | None:
        """The book's move when OwnBook is on and this `go` asks for a game move; None means
        search: no book, Chess960, an analysis request (infinite, ponder, searchmoves, depth,
        nodes, mate) or a position the book does not know."""
        from engine.frontend.book import book_random

        if not self.options["OwnBook"] or self.book is None or self.board.chess960:
            return None
        if (limits.infinite or limits.ponder or limits.searchmoves or limits.depth is not None
                or limits.nodes is not None or limits.mate is not None):
            return None
        rng = book_random(int(self.options["Random Seed"]), self.board.key)
        try:
            return self.book.choose(self.board, rng, best_only=bool(self.options["Book Best Move"]))
        except (OSError, ValueError, IndexError) as exc:   # a file changed under us: still play
            self.error(f"book {self.book.path!r} lookup failed ({exc}); searching instead")
            return None

    def _perft(self, board, depth: int) -> None:
        from perft.perft import divide

        start = time.perf_counter()
        total = 0
        for text, count in divide(board, depth):
            self.send(f"{text}: {count}")
            total += count
        elapsed = time.perf_counter() - start
        self.send("")
        if self.debug:
            self.send(f"info string perft {depth} took {elapsed:.3f} s")
        self.send_result(f"Nodes searched: {total}")

    def cmd_stop(self, args: list[str]) -> None:
        if self.searcher is not None:
            self.searcher.stop()
        if self.worker_what == "search":
            self.worker_ending = True          # later commands may wait for it

    def cmd_ponderhit(self, args: list[str]) -> None:
        if self.searcher is not None:
            self.searcher.ponderhit()

    def cmd_quit(self, args: list[str]) -> bool:
        if self.searcher is not None:
            self.searcher.stop()
        if self.worker is not None:
            self.worker.join(timeout=2.0)
        return False

    # ---- extensions -----------------------------------------------------------------------------------

    def cmd_display(self, args: list[str]) -> None:
        self.wait_ready()
        board = self.board
        self.send(str(board))
        self.send(f"Fen: {board.fen()}")
        self.send(f"Key: {board.key:016X}")
        self.send(f"Checkers: {' '.join(board.checkers()) or '-'}")

    def cmd_eval(self, args: list[str]) -> None:
        from eval.explain import explain

        self.wait_ready()
        for line in explain(self.board):
            self.send(line)

    def cmd_bench(self, args: list[str]) -> None:
        from engine.frontend.bench import BENCH_DEPTH, search_bench

        if args and (not args[0].isdigit() or not 1 <= int(args[0]) <= 30):
            raise UciError("usage: bench [depth 1..30]")
        self.wait_ready()
        self.require_idle("bench")
        depth = int(args[0]) if args else BENCH_DEPTH

        def bench() -> None:
            search_bench(depth, out=lambda line: self.send(f"info string {line}"))

        self.start_worker(bench, "bench")


def main() -> None:
    """Run the UCI loop on stdin/stdout; bytes that are not text in the locale's encoding are
    replaced (they make an unknown command, never an exception), in and out."""
    sys.stdin.reconfigure(errors="replace")
    sys.stdout.reconfigure(errors="backslashreplace")
    loop = UciLoop()
    loop.run(sys.stdin)
