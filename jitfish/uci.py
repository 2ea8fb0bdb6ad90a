"""UCI protocol loop: parses commands, keeps the position and options, runs searches on a worker.

The main thread only reads and dispatches, so `isready`, `stop` and `ponderhit` are answered
while a search runs. `uci` and `isready` are answered at once: the numba kernels load on a
background thread (jitfish/kernels.py; compiled first when the cache is cold). Until they are in,
`setoption`, `position` and `ucinewgame` are checked at once and carried out when the kernels
are (in order); a `go` waits for loading kernels as long as its clock allows (an analysis until
they are in), and while they compile it is answered by the quick search of jitfish/quickmove.py.

Two rules keep every client going (docs/uci.md, Reliability):
- `position`, `setoption` and the other commands are validated completely before anything is
  applied: bad input is answered with one `info string error: ...` and changes nothing.
- every `go` is answered with exactly one `bestmove`, whatever its arguments: an unusable part
  gets one `info string warning: ...` and is ignored or clamped (`parse_go`), a `go` while a
  search runs stops that search first, and a failure inside the search still ends with a legal
  move. `go perft` (an extension) answers with `Nodes searched` instead.
"""

from __future__ import annotations

import dataclasses
import gc
import math
import os
import random
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from jitfish import ranges
from jitfish.kernels import KernelLoader
from jitfish.options import ENGINE_OPTIONS, LEVEL_OPTIONS, Options, usable_hash_mb, usable_threads

if TYPE_CHECKING:                 # the search loads numba: imported where a command needs it
    from search.driver import Report

ENGINE_NAME = "Jitfish 0.1.0"
ENGINE_AUTHOR = "the Jitfish developers"
MAX_MESSAGE_LENGTH = 300          # an error or warning may quote a huge line back: cut it
MAX_GO_WARNINGS = 8               # per `go`; the rest are counted in one more line
GO_RANGES = {"wtime": ranges.TIME_MS, "btime": ranges.TIME_MS, "winc": ranges.TIME_MS, "binc": ranges.TIME_MS,
             "movestogo": ranges.MOVES_TO_GO, "depth": ranges.SEARCH_DEPTH, "nodes": ranges.NODES,
             "mate": ranges.MATE_MOVES, "movetime": ranges.TIME_MS}
GO_DROPPED = ("movestogo",)       # unusable, the part goes; the others become their range's bottom
GO_NUMBERS = tuple(GO_RANGES)
GO_FLAGS = ("infinite", "ponder")
GO_KEYWORDS = GO_NUMBERS + GO_FLAGS + ("searchmoves",)
DEFERRED = ("setoption", "position", "ucinewgame")    # checked at once, carried out with the kernels
EARLY_GO_WAIT_S = 3.0             # the longest a `go` waits for a loading (warm) cache


class UciError(ValueError):
    """A command that cannot be carried out; the message is shown to the GUI."""


def _cut(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_LENGTH else text[:MAX_MESSAGE_LENGTH] + "..."


def _go_number(key: str, text: str | None, warnings: list[str]) -> int | None:
    """The value of `go <key> <text>` (`text` None: missing), clamped into its range (GO_RANGES).
    A value that is missing, unreadable or too small becomes the bottom of the range, so that a
    search the client meant to bound stays bounded (depth, nodes and mate search the least there
    is, a time is 0); None drops the part (GO_DROPPED). A warning for every value not taken as
    written; one above the range is clamped silently."""
    allowed = GO_RANGES[key]
    floor = None if key in GO_DROPPED else allowed.low
    instead = "ignored" if floor is None else f"using {floor}"
    if text is None:
        warnings.append(f"go {key} needs a number; {instead}")
        return floor
    try:
        value = int(text)
    except ValueError:
        try:
            real = float(text)
        except ValueError:
            real = math.nan
        if not math.isfinite(real):
            warnings.append(f"go {key} {text!r} is not a number; {instead}")
            return floor
        value = int(real)
        warnings.append(f"go {key} {text!r} is not a whole number; using {value}")
    if value < allowed.low:
        below = "not positive" if floor is None else f"below {floor}"
        warnings.append(f"go {key} {value} is {below}; {instead}")
        return floor
    return min(value, allowed.high)


def parse_go(args: list[str], board) -> tuple[object, list[str]]:
    """The search limits of `go <args>` in the position `board`, and a warning for each part that
    could not be used as written. Never refuses: unknown tokens are skipped, numbers clamped or
    ignored (_go_number), illegal `searchmoves` dropped (none left: every move is searched), a
    repeated part overrides the earlier one."""
    from search.timeman import Limits

    limits = Limits()
    warnings: list[str] = []
    seen: set[str] = set()
    unknown: list[str] = []
    searchmoves: list[str] | None = None
    dropped: list[str] = []

    def flush_unknown() -> None:
        if unknown:
            plural = "s" if len(unknown) > 1 else ""
            warnings.append(f"go: ignoring unknown token{plural} {' '.join(unknown)!r}")
            unknown.clear()

    i = 0
    while i < len(args):
        token = args[i]
        if token not in GO_KEYWORDS:
            unknown.append(token)
            i += 1
            continue
        flush_unknown()
        if token in seen and token != "searchmoves":
            warnings.append(f"go {token} given more than once; the last one counts")
        seen.add(token)
        i += 1
        if token in GO_FLAGS:
            setattr(limits, token, True)
        elif token in GO_NUMBERS:
            text = args[i] if i < len(args) and args[i] not in GO_KEYWORDS else None
            i += text is not None
            setattr(limits, token, _go_number(token, text, warnings))
        else:
            searchmoves = [] if searchmoves is None else searchmoves
            while i < len(args) and args[i] not in GO_KEYWORDS:
                try:      # either castling notation; the search compares the board's own
                    move = board.uci(board.parse_uci(args[i]))
                    if move not in searchmoves:
                        searchmoves.append(move)
                except ValueError:
                    dropped.append(args[i])
                i += 1
    flush_unknown()
    if dropped:
        warnings.append(f"go searchmoves: dropping {len(dropped)} move{'s' if len(dropped) > 1 else ''} "
                        f"not legal here: {' '.join(dropped)}")
    if searchmoves is not None and not searchmoves:
        warnings.append("go searchmoves: no legal move left; searching every move")
    limits.searchmoves = searchmoves or []
    return limits, warnings


def score_text(score: int) -> str:
    """`cp N`, or `mate N` in moves (negative: the side to move gets mated)."""
    from search.driver import mate_moves

    mate = mate_moves(score)
    return f"cp {score}" if mate is None else f"mate {mate}"


def info_line(report: Report, chess960: bool, show_wdl: bool) -> str:
    """The `info` line of one of the search's reports (search.driver.Report); `show_wdl`:
    UCI_ShowWDL."""
    from engine.move import move_to_uci
    from search.driver import Bound, CurrMoveReport, NoMoveReport

    if isinstance(report, CurrMoveReport):
        return f"info currmove {move_to_uci(report.move, chess960)} currmovenumber {report.number}"
    if isinstance(report, NoMoveReport):
        return f"info depth 0 score {score_text(report.score)}"
    bound = {Bound.EXACT: "", Bound.LOWER: " lowerbound", Bound.UPPER: " upperbound"}[report.bound]
    wdl = " wdl {} {} {}".format(*report.wdl) if show_wdl else ""
    tbhits = "" if report.tbhits is None else f"tbhits {report.tbhits} "
    text = (f"info depth {report.depth} seldepth {report.seldepth} multipv {report.multipv} "
            f"score {score_text(report.score)}{bound}{wdl} nodes {report.nodes} nps {report.nps} "
            f"hashfull {report.hashfull} {tbhits}time {report.time_ms}")
    if report.pv:
        text += " pv " + " ".join(move_to_uci(move, chess960) for move in report.pv)
    return text


def fallback_move(board) -> str:
    """A legal move of `board` in UCI text ("0000" when there is none): what `bestmove` says when
    a search failed, so that the client still gets its answer."""
    try:
        moves = board.legal_moves()
        return board.uci(moves[0]) if moves else "0000"
    except Exception:  # the board itself is broken: nothing better to say
        return "0000"


def _setoption_parts(args: list[str]) -> tuple[str, str | None]:
    """The name and value of `setoption name <id> [value <x>]`."""
    if len(args) < 2 or args[0] != "name":
        raise UciError("usage: setoption name <id> [value <x>]")
    if "value" in args:
        at = args.index("value")
        return " ".join(args[1:at]), " ".join(args[at + 1:])
    return " ".join(args[1:]), None


def _position_parts(args: list[str]) -> tuple[str | None, list[str]]:
    """The FEN (None: the start position) and the moves of `position startpos|fen <fen> [moves ...]`."""
    if not args or args[0] not in ("startpos", "fen"):
        raise UciError("usage: position startpos|fen <fen> [moves <move>...]")
    at = args.index("moves") if "moves" in args else len(args)
    if args[0] == "startpos":
        if at != 1:
            raise UciError(f"unexpected {' '.join(args[1:at])!r} after startpos")
        return None, args[at + 1:]
    return " ".join(args[1:at]), args[at + 1:]


def _python_chess_position(args: list[str], chess960: bool):
    """The position of a `position` command on a python-chess board, for the quick search of the
    first seconds (ValueError says what does not read)."""
    import chess

    fen, moves = _position_parts(args)
    try:
        board = chess.Board(fen or chess.STARTING_FEN, chess960=chess960)
    except ValueError as exc:
        raise ValueError(f"invalid FEN {fen!r}: {exc}") from None
    if not board.is_valid():
        raise ValueError(f"invalid FEN {fen!r}: not a legal position")
    for number, text in enumerate(moves, 1):
        try:
            board.push(board.parse_uci(text))
        except ValueError:
            raise ValueError(f"move {number} ({text}) is not legal here") from None
    return board


def _load_wait(limits, white: bool, budget) -> float | None:
    """How long a `go` may wait for kernels that are loading (about a second from a warm cache):
    what the clock can spare (a tenth of it, at most EARLY_GO_WAIT_S) or most of a fixed move
    time, past which the quick search plays; an analysis (`infinite`, `depth`, `nodes`, `mate`
    without a time) waits for them (None), since it asks for the search, not for a quick answer."""
    clock = limits.wtime if white else limits.btime
    if limits.infinite or (limits.movetime is None and clock is None):
        return None
    if limits.movetime is not None and not limits.ponder:
        return budget.seconds * 0.8
    return min(EARLY_GO_WAIT_S, clock / 10000)


def _spend(limits, white: bool, elapsed_ms: int) -> None:
    """Take the time a `go` waited for the kernels off its clock, so that the search's budget
    counts from when the `go` came."""
    if elapsed_ms <= 0:
        return
    if limits.movetime is not None:
        limits.movetime = max(1, limits.movetime - elapsed_ms)
    side = "wtime" if white else "btime"
    if getattr(limits, side) is not None:
        setattr(limits, side, max(1, getattr(limits, side) - elapsed_ms))


class _EarlyState:
    """What the commands deferred until the kernels are in have set: an early `go` plays there."""

    def __init__(self) -> None:
        import chess

        self.board = chess.Board()
        self.options: dict[str, object] = {}
        self.search: _EarlySearch | None = None

    def option(self, options: Options, name: str) -> object:
        return self.options.get(name, options[name])


class _EarlySearch:
    """A quick search's stop and ponder state: `go infinite` and `go ponder` answer only after
    `stop` (or, pondering, `ponderhit` and the move's time)."""

    def __init__(self, stop: threading.Event, pondering: bool, infinite: bool, timed, received: float) -> None:
        self.stop = stop
        self.pondering = pondering
        self.infinite = infinite
        self.timed = timed                 # the budget once a ponder is hit, counted from the go
        self.received = received
        self.search = None                 # the QuickSearch, once it runs
        self._hit = threading.Event()

    def ponderhit(self) -> None:
        if self.pondering:
            self.pondering = False
            if self.search is not None:        # the time counts from the `go ponder`, as the search's
                self.search.deadline = self.received + (self.timed.seconds or 1.0)
            self._hit.set()

    def wait_for_the_answer(self) -> None:
        """Hold the bestmove of `go infinite` until stop, of `go ponder` until stop or ponderhit."""
        while (self.infinite or self.pondering) and not self.stop.is_set():
            self.stop.wait(0.05)
            if self._hit.is_set() and not self.infinite:
                break


def _is_folder(path: str) -> bool:
    """Whether `path` names a folder (False for a name the system cannot even look up)."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


@dataclass
class Job:
    """A computation on its own thread: the search, or a perft or bench beside it."""
    thread: threading.Thread
    what: str
    ending: bool = False          # stopped, or its last line sent: it ends at once

    def running(self) -> bool:
        return self.thread.is_alive()


class UciLoop:
    def __init__(self, write: Callable[[str], None] | None = None) -> None:
        self._out_lock = threading.Lock()
        self._write = write or self._write_stdout
        self.options = Options(ENGINE_OPTIONS)
        self.kernels = KernelLoader(self._initialise)
        self.ready = self.kernels.ready
        self._pending: list[str] = []          # deferred commands, carried out once the kernels are in
        self._early = _EarlyState()             # what the deferred commands set, for an early `go`
        self._told_compiling = False
        self.board = None
        self.searcher = None
        self.hash_mb = int(self.options["Hash"])   # the table in use (Hash may ask for more)
        self.book = None                       # the open OpeningBook, if any
        self.book_error: str | None = None     # why the default book could not be opened
        self.search: Job | None = None         # the search of the last `go`
        self.job: Job | None = None            # a `go perft` or `bench`, which may run beside it
        self._after_search: list[str] = []     # setoptions sent during a search, carried out after it
        self.debug = False
        self._position_cache: tuple[str, list[str]] | None = None
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self.cmd_uci, "debug": self.cmd_debug, "isready": self.cmd_isready,
            "setoption": self.cmd_setoption, "register": self.cmd_register,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "ponderhit": self.cmd_ponderhit, "quit": self.cmd_quit,
            "d": self.cmd_display, "eval": self.cmd_eval, "bench": self.cmd_bench,
        }
        self.kernels.start()

    # ---- plumbing ---------------------------------------------------------------------------------

    @staticmethod
    def _write_stdout(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    def send(self, line: str) -> None:
        with self._out_lock:
            self._write(line + "\n")

    def error(self, message: str) -> None:
        self.send(f"info string error: {_cut(message)}")

    def warn(self, message: str) -> None:
        self.send(f"info string warning: {_cut(message)}")

    @property
    def init_error(self) -> str | None:
        return self.kernels.error

    def _initialise(self) -> None:
        """Load the kernels (KernelLoader calls this on its thread, after compiling them if needed)."""
        try:
            self._open_book(str(self.options["Book File"]))
        except UciError as exc:   # not fatal: said when OwnBook is switched on
            self.book_error = str(exc)
        from engine.board import Board
        from search.driver import Searcher
        self.board = Board()
        self.searcher = Searcher(self.hash_mb)
        self.searcher.warm_up(self.board)
        # The many objects numba created are permanent: keep the garbage collector from
        # rescanning them, which would pause a fast game for tens of milliseconds.
        gc.collect()
        gc.freeze()

    def wait_ready(self) -> None:
        """Wait for the kernels, then carry out the commands deferred until they came."""
        self.ready.wait()
        if self.init_error:
            raise UciError(f"engine failed to initialise: {self.init_error}")
        self._carry_out_pending()

    def _carry_out_pending(self) -> None:
        pending, self._pending = self._pending, []
        for line in pending:
            self.handle(line)

    def searching(self) -> bool:
        return self.search is not None and self.search.running()

    def require_no_search(self, what: str) -> None:
        """Wait for a search that is ending; refuse while one still works (_over)."""
        if not self._over(self.search):
            raise UciError(f"{what} ignored: a search is running (send stop first)")

    def _require_no_job(self, what: str) -> None:
        """Wait for a perft or bench that is ending; refuse while one still works (_over)."""
        if not self._over(self.job):
            raise UciError(f"{what} ignored: a {self.job.what} is running")

    @staticmethod
    def _over(job: Job | None) -> bool:
        """Whether `job` is over: none, finished, or ending (its last line sent, or stopped), whose
        thread is then waited for. False while it still works, however long it may take, so that
        this loop never blocks and always reads `stop` and `quit`."""
        if job is None or not job.running():
            return True
        if not job.ending:
            return False
        job.thread.join()
        return True

    def start_job(self, target: Callable[[Job], None], what: str) -> Job:
        """Run `target(job)` on a thread; an exception is reported, never lost."""
        def guarded() -> None:
            try:
                target(job)
            except Exception as exc:   # never let a worker die silently
                self.error(f"internal error {type(exc).__name__}: {exc}")
            finally:
                job.ending = True
        job = Job(threading.Thread(target=guarded, name=f"jitfish-{what}", daemon=True), what)
        job.thread.start()
        return job

    def send_result(self, job: Job, line: str) -> None:
        """A job's last line: once the GUI can see it, commands may wait for the job to end."""
        job.ending = True
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
        if self._after_search and self._over(self.search):
            self._carry_out_after_search()
        # The UCI spec says to skip unknown tokens and look for a command in the rest.
        for i, token in enumerate(tokens):
            if token in self.commands:
                if i:
                    self.warn(f"ignoring unknown token{'s' if i > 1 else ''} {' '.join(tokens[:i])!r} "
                              f"before {token!r}")
                try:
                    if self.ready.is_set():
                        if self._pending and not self.init_error:
                            self._carry_out_pending()
                    elif token in DEFERRED:
                        self._defer(token, tokens[i + 1:])
                        return True
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
        """At once: commands that need the kernels wait for them, or do without (see the top)."""
        if self.init_error:
            self.error(f"engine failed to initialise: {self.init_error}")
        elif self.kernels.compiling and not self._told_compiling:
            self._told_compiling = True
            self.send("info string compiling the search for this computer (once after an install or an "
                      "update, a minute or two); until then moves come from a quick search")
        self.send("readyok")

    # ---- before the kernels are in ---------------------------------------------------------------

    def _defer(self, command: str, args: list[str]) -> None:
        """Check a command that needs the kernels now (bad input is refused now, as later) and keep
        it for when they are in; an early `go` plays in the position it sets."""
        if command == "setoption":
            option, _, typed = self._checked_option(args)
            self._early.options[option.name] = typed
        elif command == "position":
            chess960 = bool(self._early.option(self.options, "UCI_Chess960"))
            try:
                self._early.board = _python_chess_position(args, chess960)
            except ValueError as exc:
                raise UciError(f"{exc}; position unchanged") from None
        self._pending.append(" ".join([command, *args]))

    def _go_early(self, args: list[str], received: float) -> bool:
        """A `go` before the kernels are in. Waits for a loading cache up to half the move's time
        (True: they are in, search as usual); while they compile, the quick search answers."""
        from jitfish import quickmove
        from search.timeman import Limits

        board = self._early.board
        limits, warnings = parse_go(args, board)
        if not isinstance(limits, Limits):
            limits = Limits()
        overhead = int(self._early.option(self.options, "Move Overhead"))
        budget = quickmove.budget_for(limits, board.turn, overhead)
        wait = _load_wait(limits, board.turn, budget)
        if not self.kernels.compiling and self.ready.wait(
                None if wait is None else max(0.0, wait - (time.monotonic() - received))):
            return True
        for text in warnings[:MAX_GO_WARNINGS]:
            self.warn(text)
        if self._early.option(self.options, "UCI_LimitStrength"):
            budget.depth = min(budget.depth, 2)          # a level's game: no deep tactics meanwhile
        stop = threading.Event()
        timed = quickmove.budget_for(dataclasses.replace(limits, ponder=False), board.turn, overhead)
        early = _EarlySearch(stop, limits.ponder, limits.infinite, timed, received)
        self._early.search = early

        def think(job: Job) -> None:
            search = quickmove.QuickSearch(board, budget, stop)
            early.search = search
            move = search.run(lambda depth, score, nodes, seconds, best: self.send(
                f"info depth {depth} score {quickmove.score_text(score)} nodes {nodes} "
                f"time {int(seconds * 1000)} pv {board.uci(best)}"))
            early.wait_for_the_answer()
            self.send_result(job, f"bestmove {board.uci(move) if move else '0000'}")

        self.send(f"info string the search is {'still compiling' if self.kernels.compiling else 'not loaded yet'}: "
                  f"a quick move")
        self.search = self.start_job(think, "quick search")
        return False

    def cmd_register(self, args: list[str]) -> None:
        self.send("info string Jitfish is free software under GPL-3.0-or-later and needs no registration")

    def _checked_option(self, args: list[str]):
        """The option, value text and typed value of `setoption name <id> [value <x>]` (UciError
        says what is wrong with them)."""
        name, value = _setoption_parts(args)
        try:
            option = self.options.find(name)
            return option, value, option.parse(value)
        except ValueError as exc:
            raise UciError(str(exc)) from None

    def cmd_setoption(self, args: list[str]) -> None:
        option, value, typed = self._checked_option(args)
        self.wait_ready()
        if not self._over(self.search):
            # As Stockfish, take it now and let the next search use it (GNOME Chess sends its
            # difficulty's options while the engine thinks about its first move); what it changes
            # is done once the search has ended, before any later command.
            self._after_search.append(" ".join(["setoption", *args]))
            return
        notes: list[str] = []              # said once the value is in force
        if option.name == "Hash":
            notes = self._resize_hash(int(typed))
        elif option.name == "Threads":
            notes = self._set_threads(int(typed))
        elif option.name == "Clear Hash":
            self.searcher.clear()
        elif option.name == "UCI_Chess960":
            self._set_chess960(bool(typed))
        elif option.name == "SyzygyPath":
            notes = self._open_tablebases(str(typed))
        elif option.name == "SyzygyProbeLimit":
            from search.tablebase import TABLEBASES
            TABLEBASES.probe_limit = int(typed)
        elif option.name == "Book File":
            self._open_book(str(typed))
        elif option.name == "EvalFile":
            try:
                self.searcher.load_network(str(typed))
            except ValueError as exc:
                raise UciError(f"EvalFile: {exc}; evaluation unchanged") from None
            self.searcher.clear()
            notes = [f"evaluating with the network {typed}" if typed else "evaluating with the hand-crafted terms"]
        elif option.name == "OwnBook" and typed and self.book is None:
            reason = self.book_error or "Book File is empty"
            notes = [f"OwnBook is on but no book is loaded ({reason}): every move is searched"]
        elif option.name == "UCI_Elo":
            from search.levels import FULL_STRENGTH_ELO
            if int(typed) > FULL_STRENGTH_ELO:
                notes = [f"UCI_Elo {typed} is above Jitfish's full strength ({FULL_STRENGTH_ELO}): "
                         f"a limited Jitfish plays at full strength"]
        self.options.set(option.name, value)
        if option.name in LEVEL_OPTIONS:
            self._apply_level(new_game=option.name == "Random Seed")
        for note in notes:
            self.send(f"info string {_cut(note)}")

    def _carry_out_after_search(self) -> None:
        """The setoptions sent during the search that has ended, in their order."""
        waiting, self._after_search = self._after_search, []
        for line in waiting:
            self.handle(line)

    def _resize_hash(self, asked: int) -> list[str]:
        """A table of `asked` MB, or of what the memory available allows (usable_hash_mb); a
        MemoryError keeps the table in use and refuses the value."""
        megabytes, note = usable_hash_mb(asked)
        try:
            self.searcher.resize(megabytes)
        except MemoryError:
            raise UciError(f"not enough memory for Hash {megabytes} MB; keeping {self.hash_mb} MB") from None
        self.hash_mb = megabytes
        return [note] if note else []

    def _set_threads(self, asked: int) -> list[str]:
        """Search with `asked` threads, at most one per core this process may use (usable_threads)."""
        threads, note = usable_threads(asked)
        before = len(self.searcher.helpers) + 1
        try:
            self.searcher.set_threads(threads)
        except MemoryError:            # only growing allocates: shrinking back does not
            self.searcher.set_threads(before)
            raise UciError(f"not enough memory for {threads} threads; keeping {before}") from None
        return [note] if note else []

    def _open_tablebases(self, path: str) -> list[str]:
        """Use the Syzygy tables of the folders of `path` that exist. A folder that does not is
        accepted with a warning (configurations are copied between machines); when none of
        them exists, the tables in use stay."""
        from search.tablebase import TABLEBASES, TablebaseError

        folders = [folder for folder in path.split(os.pathsep) if folder.strip()]
        present = [folder for folder in folders if _is_folder(folder)]
        missing = [folder for folder in folders if folder not in present]
        notes = []
        if missing:
            if present:
                kept = ""
            elif TABLEBASES.search_limit():
                kept = f"; keeping the tablebases in use ({TABLEBASES.largest}-piece)"
            else:
                kept = "; playing without tablebases"
            notes.append(f"warning: SyzygyPath folder{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(repr(f) for f in missing)} not found{kept}")
            if not present:
                return notes
        try:
            found = TABLEBASES.open(os.pathsep.join(present))
        except (TablebaseError, OSError) as exc:      # a folder vanished in between, or is unreadable
            raise UciError(f"SyzygyPath {path!r}: {exc}; tablebases unchanged") from None
        if found:
            notes.append(f"found {found} Syzygy tables of up to {TABLEBASES.largest} pieces")
        elif present:
            where = os.pathsep.join(present)
            notes.append(f"no Syzygy tables found in {where!r}; playing without tablebases")
        return notes

    def _apply_level(self, new_game: bool) -> None:
        """Give the searcher the difficulty level the options ask for; a new game draws a new
        seed for the level's choices unless `Random Seed` fixes it."""
        from search.levels import effective_elo, level_for_elo, plays_like

        limited, uci_elo = bool(self.options["UCI_LimitStrength"]), int(self.options["UCI_Elo"])
        elo = effective_elo(limited, uci_elo, int(self.options["Skill Level"]))
        seed = self.searcher.game_seed
        if new_game or seed == 0:
            seed = int(self.options["Random Seed"]) or random.getrandbits(62) + 1
        level = level_for_elo(elo)
        self.searcher.set_level(level, seed)
        if self.debug:
            source = "UCI_Elo (UCI_LimitStrength on, Skill Level ignored)" if limited else "Skill Level"
            if level is None:
                setting = "full strength"
            elif level.human:
                slip = f", with a slip of {level.slip:g} toward its likely losing moves" if level.slip else ""
                veto = "" if level.veto is None else (f", a move losing over {level.veto} cp to full strength's "
                                                      f"{level.veto_nodes} nodes vetoed")
                setting = (f"{plays_like(elo)} (the human model at rating {level.human}: its most likely move"
                           f"{slip}{veto})")
            else:
                setting = f"depth {level.depth}, {level.nodes} nodes a move"
            self.send(f"info string strength: Elo {elo} from {source}: {setting}")

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
        from jitfish.book import BookError, OpeningBook

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
        self.require_no_search("ucinewgame")
        self._apply_level(new_game=True)     # also empties the table and the history
        self._position_cache = None

    # ---- position ---------------------------------------------------------------------------------

    def cmd_position(self, args: list[str]) -> None:
        from engine.board import Board, IllegalMoveError
        from engine.fen import STARTING_FEN, FenError

        fen, moves = _position_parts(args)
        fen = fen if fen is not None else STARTING_FEN
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

    def cmd_go(self, args: list[str]) -> None:
        """Search and answer with exactly one `bestmove` (`go perft`: count, see _go_perft)."""
        if args[:1] == ["perft"]:
            self._go_perft(args[1:])
            return
        received = time.monotonic()
        if not self.ready.is_set():
            if self.searching():              # an earlier quick search (its bestmove comes first)
                self._stop_search()
                self.search.thread.join()
            if not self._go_early(args, received):
                return
        try:
            self.wait_ready()
        except UciError as exc:     # no board to search: still answer, or the client hangs
            self.error(str(exc))
            self.send("bestmove 0000")
            return
        if self.searching():
            if not self.search.ending:
                self.warn("go while a search is running: stopping that search first "
                          "(its bestmove comes first)")
            self._stop_search()
            self.search.thread.join()
        if self._after_search:
            self._carry_out_after_search()
        board = self.board.copy()
        try:
            limits, warnings = parse_go(args, board)
            _spend(limits, board.turn == 0, int((time.monotonic() - received) * 1000))
            for text in warnings[:MAX_GO_WARNINGS]:
                self.warn(text)
            if len(warnings) > MAX_GO_WARNINGS:
                self.warn(f"{len(warnings) - MAX_GO_WARNINGS} more unusable parts in this go command")
            book_move = self._book_move(limits)
            if book_move is not None:
                self.send(f"info string book move {book_move}")
                self.send(f"bestmove {book_move}")
                return
            self._start_search(board, limits)
        except Exception as exc:   # a bug before the search started: still answer
            self.error(f"internal error {type(exc).__name__}: {exc}")
            self.send(f"bestmove {fallback_move(board)}")

    def _start_search(self, board, limits) -> None:
        searcher = self.searcher
        searcher.prepare()
        multipv = int(self.options["MultiPV"])
        overhead = int(self.options["Move Overhead"])
        show_wdl = bool(self.options["UCI_ShowWDL"])
        ponder = bool(self.options["Ponder"])

        def report(record: Report) -> None:
            self.send(info_line(record, board.chess960, show_wdl))

        def think(job: Job) -> None:
            try:
                result = searcher.run(board, limits, report, multipv=multipv, overhead_ms=overhead, ponder=ponder)
                text = f"bestmove {board.uci(result.best)}" if result.best else "bestmove 0000"
                if result.best and result.ponder:
                    text += f" ponder {board.uci(result.ponder)}"
            except Exception as exc:    # the search failed: a legal move is still an answer
                self.error(f"internal error {type(exc).__name__}: {exc}")
                text = f"bestmove {fallback_move(board)}"
            self.send_result(job, text)

        self.search = self.start_job(think, "search")

    def _book_move(self, limits) -> str | None:
        """The book's move when OwnBook is on and this `go` asks for a game move; None means
        search: no book, Chess960, an analysis request (infinite, ponder, searchmoves, depth,
        nodes, mate) or a position the book does not know."""
        from jitfish.book import book_random

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

    def _go_perft(self, args: list[str]) -> None:
        """`go perft N`: the leaf count under each move, then `Nodes searched`; it runs beside a
        search (its own copy of the position), not beside another perft or bench (one whose last
        line is out is waited for)."""
        if len(args) != 1 or not args[0].isdecimal() or int(args[0]) not in ranges.PERFT_DEPTH:
            raise UciError(f"usage: go perft <depth {ranges.PERFT_DEPTH}>")
        self.wait_ready()
        self._require_no_job("go perft")
        depth = int(args[0])
        board = self.board.copy()

        def perft(job: Job) -> None:
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
            self.send_result(job, f"Nodes searched: {total}")

        self.job = self.start_job(perft, "perft")

    def _stop_search(self) -> None:
        if self.searcher is not None:
            self.searcher.stop()
        if self._early.search is not None:
            self._early.search.stop.set()

    def cmd_stop(self, args: list[str]) -> None:
        """End the search now (its bestmove follows); without a search, nothing to do."""
        self._stop_search()
        if self.search is not None:
            self.search.ending = True          # later commands may wait for it

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The pondered move was played: the search goes on as a timed one, its time counted from
        the `go ponder` (Stockfish's convention, search.driver.Searcher.ponderhit). Without a
        pondering search (none running, not `go ponder`, or ponderhit already given) it changes
        nothing."""
        if self.searcher is not None:
            self.searcher.ponderhit()
        if self._early.search is not None:
            self._early.search.ponderhit()

    def cmd_quit(self, args: list[str]) -> bool:
        self._stop_search()
        if self.search is not None:
            self.search.thread.join(timeout=2.0)
        return False

    # ---- extensions -----------------------------------------------------------------------------------

    def cmd_display(self, args: list[str]) -> None:
        self.wait_ready()
        board = self.board
        self.send(str(board))
        self.send(f"Fen: {board.fen()}")
        self.send(f"Key: {board.key:016X}")
        self.send(f"Checkers: {' '.join(board.checkers()) or '-'}")
        self.send(f"Chess960: {'true' if board.chess960 else 'false'}")

    def cmd_eval(self, args: list[str]) -> None:
        from eval.explain import explain

        self.wait_ready()
        for line in explain(self.board):
            self.send(line)
        if self.searcher.network:
            score = self.searcher.static_eval(self.board)
            white = score if self.board.turn == 0 else -score
            self.send(f"the network (EvalFile {self.options['EvalFile']}), which the search uses: "
                      f"{white} cp from white's side, {score} cp for the side to move")

    def cmd_bench(self, args: list[str]) -> None:
        from jitfish.bench import BENCH_DEPTH, bench_summary, search_positions

        if args and (not args[0].isdecimal() or int(args[0]) not in ranges.BENCH_DEPTH):
            raise UciError(f"usage: bench [depth {ranges.BENCH_DEPTH}]")
        self.wait_ready()
        self._require_no_job("bench")
        depth = int(args[0]) if args else BENCH_DEPTH

        network = str(self.options["EvalFile"])

        def bench(job: Job) -> None:     # its own searcher (it may run beside a search), our evaluation
            nodes, seconds = search_positions(depth, out=lambda line: self.send(f"info string {line}"),
                                              network=network)
            *summary, last = bench_summary(nodes, seconds)
            for line in summary:
                self.send(f"info string {line}")
            self.send_result(job, f"info string {last}")

        self.job = self.start_job(bench, "bench")


def main() -> None:
    """Run the UCI loop on stdin/stdout; bytes that are not text in the locale's encoding are
    replaced (they make an unknown command, never an exception), in and out."""
    sys.stdin.reconfigure(errors="replace")
    sys.stdout.reconfigure(errors="backslashreplace")
    loop = UciLoop()
    loop.run(sys.stdin)
