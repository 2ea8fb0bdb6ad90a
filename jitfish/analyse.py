"""`jitfish analyse`: annotate the games of a PGN file with the engine's evaluations and better moves.

Each position of a game's main line is searched once, all within the same limit and each from an
empty transposition table and history, so that a position's verdict depends on nothing searched
before it: the same game gives the same output every time, and the browser's review, which
searches the same way, the same marks and reasons at the same node count. Every move gets
the evaluation of the position after it as `[%eval ...]` (White's view, as lichess and ChessBase
read it); a move that loses enough against the engine's choice also gets a NAG, a comment saying
why (jitfish/reasons.py's sentence, the browser's) and naming the better move, and that move's
line as a variation. What makes a move a mistake and how it is written is jitfish/review.py's,
shared with the browser's review. python-chess reads and writes the PGN; the engine's own Board
follows the game and is what gets searched.
"""

from __future__ import annotations

import io
import logging
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TextIO

import chess
import chess.pgn

from engine.board import Board, IllegalMoveError
from engine.defs import MATE
from engine.fen import FenError
from engine.move import move_to_uci
from eval.shipped import review_network
from jitfish.options import usable_hash_mb
from jitfish.progress import ProgressBar, clock_text
from jitfish.reasons import cause
from jitfish.review import (Evaluation, SideSummary, count_text, first_look, needs_second_look, second_look,
                            set_eval, summary_note, write_verdict)
from jitfish.uci import ENGINE_NAME
from search.driver import Result, Searcher
from search.timeman import Limits

DEFAULT_NODES = 1_000_000                         # about a second a move on the development machine
EXIT_ERROR, EXIT_INTERRUPTED = 2, 130


class AnalyseError(Exception):
    """A problem with the input, the output or the options; the message is shown to the user."""


# ---- reading the games -----------------------------------------------------------------------


def read_text(path: str) -> str:
    """The file's text (UTF-8, else Latin-1 as older PGN files are); AnalyseError if unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise AnalyseError(f"cannot read {path}: {exc.strerror or exc}") from None
    if b"\0" in data:
        raise AnalyseError(f"{path} is not a PGN file (it holds binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


@contextmanager
def _pgn_log_silenced() -> Iterator[None]:
    """python-chess logs each parse error; we report them ourselves, once and plainly."""
    logger = logging.getLogger("chess.pgn")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _is_blank(game: chess.pgn.Game) -> bool:
    """No tags, no moves, no comment: what python-chess makes of text that is not PGN."""
    return (not game.variations and not game.comment and not game.errors
            and dict(game.headers) == dict(chess.pgn.Headers()))


def load_games(path: str, number: int | None) -> tuple[list[tuple[int, chess.pgn.Game]], int]:
    """The games to analyse as (1-based number, game) — game `number`, or all when it is None —
    and how many games the file holds. Raises AnalyseError when there is nothing to analyse."""
    stream = io.StringIO(read_text(path))
    selected: list[tuple[int, chess.pgn.Game]] = []
    count = 0
    with _pgn_log_silenced():
        while True:
            if number is None or count + 1 == number:
                game = chess.pgn.read_game(stream)
                if game is None:
                    break
                count += 1
                if not _is_blank(game):
                    selected.append((count, game))
            elif chess.pgn.skip_game(stream):
                count += 1
            else:
                break
    if not selected:
        if number is not None and count and number > count:
            raise AnalyseError(f"{path} holds {count_text(count, 'game')}; there is no game {number}")
        raise AnalyseError(f"no PGN game found in {path}")
    return selected, count


def game_label(number: int, game: chess.pgn.Game) -> str:
    """`game 3 (White - Black)` for messages."""
    return f"game {number} ({game.headers.get('White', '?')} - {game.headers.get('Black', '?')})"


def engine_board(game: chess.pgn.Game) -> Board:
    """The engine's board at the game's start; AnalyseError for a variant or a position it cannot play."""
    start = game.board()
    if type(start) is not chess.Board:
        raise AnalyseError(f"variant {game.headers.get('Variant')!r} is not supported (only standard chess "
                           "and Chess960)")
    try:
        return Board(start.fen(shredder=start.chess960), chess960=start.chess960)
    except FenError as exc:
        raise AnalyseError(f"the engine cannot set up the start position {start.fen()!r}: {exc}") from None


def check_game(number: int, game: chess.pgn.Game) -> None:
    """AnalyseError naming the game when it has illegal moves or cannot be analysed."""
    label = game_label(number, game)
    if game.errors:
        error, more = game.errors[0], len(game.errors) - 1
        stop = game.end().board()        # the main line ends where python-chess met a bad move
        where = f" at move {stop.fullmove_number} ({'White' if stop.turn == chess.WHITE else 'Black'})" \
            if stop.fen() in str(error) else ""
        extra = f" (and {count_text(more, 'more error')})" if more else ""
        raise AnalyseError(f"{label}{where}: {error}{extra}")
    try:
        engine_board(game)
    except AnalyseError as exc:
        raise AnalyseError(f"{label}: {exc}") from None


# ---- analysing -------------------------------------------------------------------------------


def describe_limits(limits: Limits) -> str:
    if limits.depth is not None:
        return f"depth {limits.depth}"
    if limits.movetime is not None:
        return f"{limits.movetime / 1000:g} s"
    return f"{limits.nodes} nodes"


class Analyser:
    """Searches the positions of games with one Searcher and writes the verdicts into the games."""

    def __init__(self, searcher: Searcher, limits: Limits) -> None:
        self.searcher = searcher
        self.limits = limits

    def search(self, board: Board) -> Result:
        """The engine's Result for `board`, searched from an empty table and history (a verdict
        that depends on what was searched before would change from run to run). The search runs
        on a worker thread so that Ctrl-C reaches this one at once: it stops the search and is
        raised again here."""
        searcher = self.searcher
        searcher.clear()
        searcher.prepare()
        outcome: dict = {}

        def work() -> None:
            try:
                outcome["result"] = searcher.run(board, self.limits)
            except BaseException as exc:  # handed to the main thread below
                outcome["error"] = exc

        worker = threading.Thread(target=work, name="jitfish-analyse", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.2)
        except KeyboardInterrupt:
            searcher.stop()
            worker.join()
            raise
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    def evaluate(self, board: Board, position: chess.Board, rules_end_game: bool) -> Evaluation:
        """The evaluation of `board` (`position` is python-chess's copy of it): checkmate and
        stalemate need no search, nor (when `rules_end_game`) a draw by repetition, the
        fifty-move rule or insufficient material."""
        if board.count_legal_moves() == 0:
            return Evaluation(-MATE if board.is_check() else 0, None)
        if rules_end_game and board.outcome() is not None:
            return Evaluation(0, None)
        result = self.search(board)
        moves = list(result.lines[0].moves) if result.lines else [result.best]
        return Evaluation(result.score, result.depth,
                          tuple(chess.Move.from_uci(move_to_uci(m, board.chess960)) for m in moves))

    def annotate(self, game: chess.pgn.Game, tick: Callable[[], None]) -> dict[chess.Color, SideSummary]:
        """Analyse the game's main line and write the comments, NAGs and variations into it;
        `tick` is called after each move. Returns each side's summary."""
        summary = {chess.WHITE: SideSummary(), chess.BLACK: SideSummary()}
        nodes = list(game.mainline())
        if not nodes:
            return summary
        board = engine_board(game)
        position = game.board()
        current = self.evaluate(board, position, rules_end_game=False)
        for index, node in enumerate(nodes):
            before, before_board, before_position = current, board.copy(), position.copy(stack=False)
            try:
                board.push_uci(position.uci(node.move))
            except IllegalMoveError as exc:   # python-chess accepted it: the two disagree on the rules
                raise AnalyseError(f"move {position.san(node.move)}: {exc}") from None
            position.push(node.move)
            current = self.evaluate(board, position, rules_end_game=index == len(nodes) - 1)
            set_eval(node, current, position.turn)
            verdict = first_look(before, node.move, current)
            if needs_second_look(verdict):
                child, child_position = before_board.copy(), before_position.copy(stack=False)
                child.push_uci(before_position.uci(verdict.best))
                child_position.push(verdict.best)
                verdict = second_look(verdict, self.evaluate(child, child_position, rules_end_game=True))
            summary[before_position.turn].add(verdict)
            why = cause(before_position, node.move, verdict, current) if verdict.judgement is not None else None
            write_verdict(node, before_position, verdict, why)
            tick()
        return summary


# ---- the command -----------------------------------------------------------------------------


def limits_from(args) -> Limits:
    """The search limit per position from --depth / --time / --nodes (default DEFAULT_NODES),
    which jitfish.cli has checked."""
    if args.depth is not None:
        return Limits(depth=args.depth)
    if args.time is not None:
        return Limits(movetime=max(1, round(args.time * 1000)))
    return Limits(nodes=DEFAULT_NODES if args.nodes is None else args.nodes)


def output_path(args) -> str | None:
    """Where the annotated PGN goes: -o's file, None for stdout (`-o -`), else GAME-analysed.pgn."""
    if args.output == "-":
        return None
    source = Path(args.pgn)
    target = Path(args.output) if args.output else source.with_name(f"{source.stem}-analysed.pgn")
    if target.exists() and source.exists() and target.resolve() == source.resolve():
        raise AnalyseError(f"refusing to overwrite the input {args.pgn} (choose another -o)")
    return str(target)


def annotated_games(games: list[tuple[int, chess.pgn.Game]], limits: Limits, hash_mb: int,
                    bar: ProgressBar) -> Iterator[chess.pgn.Game]:
    """Load the engine, then annotate the games one by one, yielding each when it is done."""
    bar.update(0, "loading the engine")
    try:
        analyser = Analyser(Searcher(hash_mb, review_network()), limits)
    except MemoryError:
        raise AnalyseError(f"not enough memory for --hash {hash_mb}") from None
    bar.restart_clock()
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        bar.update(done)

    for number, game in games:
        bar.update(label=f"game {number}" if len(games) > 1 else "analysing")
        try:
            summary = analyser.annotate(game, tick)
        except AnalyseError as exc:
            raise AnalyseError(f"{game_label(number, game)}: {exc}") from None
        if game.variations:
            game.headers["Annotator"] = ENGINE_NAME
            note = summary_note(ENGINE_NAME, describe_limits(limits), summary)
            game.comment = f"{game.comment} {note}" if game.comment else note
        yield game


def run(args, stderr: TextIO) -> int:
    """The `jitfish analyse` command; returns the exit status. Everything is checked before the
    first search (the numbers by jitfish.cli), and the games are written as they are done."""
    limits = limits_from(args)
    hash_mb, note = usable_hash_mb(args.hash)
    if note and not args.quiet:
        print(f"note: {note}", file=stderr)
    games, count = load_games(args.pgn, None if args.all else args.game)
    for number, game in games:
        check_game(number, game)
    destination = output_path(args)
    if not args.quiet and not args.all and count > 1:
        print(f"note: {args.pgn} holds {count} games; analysing game {args.game} "
              "(choose with --game K, or --all)", file=stderr)
    try:
        out = sys.stdout if destination is None else open(destination, "w", encoding="utf-8")
    except OSError as exc:
        raise AnalyseError(f"cannot write {destination}: {exc.strerror or exc}") from None
    total = sum(len(list(game.mainline_moves())) for _, game in games)
    bar = ProgressBar(total, stderr, enabled=not args.quiet and stderr.isatty())
    started = time.monotonic()
    written = 0
    try:
        for game in annotated_games(games, limits, hash_mb, bar):
            if out is sys.stdout:
                bar.clear()           # the PGN may go to the terminal the bar is on
            out.write(str(game) + "\n\n")
            out.flush()
            written += 1
        bar.finish()
    except KeyboardInterrupt:
        bar.finish()
        where = f" to {destination}" if destination and written else ""
        print(f"interrupted: {count_text(written, 'complete game')} written{where}", file=stderr)
        return EXIT_INTERRUPTED
    finally:
        bar.clear()                   # an error message must not land on the bar's line
        if out is not sys.stdout:
            out.close()
            if not written:           # stopped before the first game was done: leave no empty file
                Path(destination).unlink(missing_ok=True)
    if not args.quiet:
        where = f" -> {destination}" if destination else ""
        print(f"analysed {count_text(written, 'game')} ({count_text(total, 'move')}) in "
              f"{clock_text(time.monotonic() - started)}{where}", file=stderr)
    return 0


def main(args) -> int:
    """Entry point from jitfish.cli: errors become one line on stderr and exit status 2."""
    try:
        return run(args, sys.stderr)
    except AnalyseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
