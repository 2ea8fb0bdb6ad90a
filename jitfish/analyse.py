"""`jitfish analyse`: annotate the games of a PGN file with the engine's evaluations and better moves.

Each position of a game's main line is searched once, all within the same limit. Every move gets
the evaluation of the position after it as `[%eval ...]` (White's view, as lichess and ChessBase
read it); a move that loses enough against the engine's choice also gets a NAG, a comment naming
the better move and that move's line as a variation. python-chess reads and writes the PGN; the
engine's own Board follows the game and is what gets searched.
"""

from __future__ import annotations

import io
import logging
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, TextIO

import chess
import chess.engine
import chess.pgn

from engine.board import Board, IllegalMoveError
from engine.fen import FenError
from engine.move import move_to_uci
from jitfish.options import usable_hash_mb
from jitfish.progress import ProgressBar, clock_text
from search.timeman import Limits
from jitfish.uci import ENGINE_NAME
from search.driver import Result, Searcher, mate_moves
from engine.defs import MATE, MATE_IN_MAX


# Centipawns the played move may lose against the engine's best before it is marked. Scores are
# clamped to +-DECISIVE_CP first (a mate counts as DECISIVE_CP), so that a lost position cannot
# get worse and two winning ones differ by at most that much.
INACCURACY_CP, MISTAKE_CP, BLUNDER_CP = 50, 100, 300
DECISIVE_CP = 1000
JUDGEMENTS = ((BLUNDER_CP, chess.pgn.NAG_BLUNDER, "Blunder"),
              (MISTAKE_CP, chess.pgn.NAG_MISTAKE, "Mistake"),
              (INACCURACY_CP, chess.pgn.NAG_DUBIOUS_MOVE, "Inaccuracy"))
MOVE_QUALITY_NAGS = frozenset(range(1, 7))       # ! ? !! ?? !? ?!: a move has only one of them
PV_PLIES = 12                                     # longest variation written for a better move
DEFAULT_NODES = 1_000_000                         # about a second a move on the development machine
EXIT_ERROR, EXIT_INTERRUPTED = 2, 130


class AnalyseError(Exception):
    """A problem with the input, the output or the options; the message is shown to the user."""


# ---- scores ------------------------------------------------------------------------------------


def clamp(score: int) -> int:
    """The score limited to +-DECISIVE_CP (mates included), for measuring losses."""
    return max(-DECISIVE_CP, min(DECISIVE_CP, score))


def parent_score(child_score: int) -> int:
    """The score of a move for the side that made it, from the score of the position after it
    (for the side to move there): negated, and a mate is one ply further away."""
    score = -child_score
    if score >= MATE_IN_MAX:
        return score - 1
    if score <= -MATE_IN_MAX:
        return score + 1
    return score


def pov_score(score: int, turn: chess.Color) -> chess.engine.PovScore | None:
    """python-chess's form of a score for the side `turn`; None for a checkmated side (no eval)."""
    mate = mate_moves(score)
    if mate == 0:
        return None
    relative = chess.engine.Cp(score) if mate is None else chess.engine.Mate(mate)
    return chess.engine.PovScore(relative, turn)


def white_text(score: int, turn: chess.Color) -> str:
    """A score as White sees it, the way [%eval] writes it: `+0.35`, `-2.10`, `#3`, `#-2`."""
    pov = pov_score(score, turn)
    if pov is None:
        return "mated"
    white = pov.white()
    return f"#{white.mate()}" if white.is_mate() else f"{white.score() / 100:+.2f}"


def judge(loss: int) -> tuple[int, str] | None:
    """The NAG and the word for a move losing `loss` centipawns; None when it is good enough."""
    for threshold, nag, word in JUDGEMENTS:
        if loss >= threshold:
            return nag, word
    return None


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
            raise AnalyseError(f"{path} holds {_count(count, 'game')}; there is no game {number}")
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
        extra = f" (and {_count(more, 'more error')})" if more else ""
        raise AnalyseError(f"{label}{where}: {error}{extra}")
    try:
        engine_board(game)
    except AnalyseError as exc:
        raise AnalyseError(f"{label}: {exc}") from None


# ---- analysing -------------------------------------------------------------------------------


@dataclass
class Evaluation:
    """What is known of a position: its score for the side to move, the search depth (None when
    the rules decide it) and the best line (engine moves; empty when the game is over)."""
    score: int
    depth: int | None
    pv: list[int]


@dataclass
class SideSummary:
    """One player's record in a game: the centipawn loss of each move and the marks given."""
    losses: list[int] = field(default_factory=list)
    marks: dict[int, int] = field(default_factory=dict)

    def text(self) -> str:
        average = round(sum(self.losses) / len(self.losses)) if self.losses else 0
        counts = [_count(self.marks.get(nag, 0), word.lower()) for _, nag, word in reversed(JUDGEMENTS)]
        return f"{', '.join(counts)}, average loss {average} cp"


def _count(n: int, noun: str) -> str:
    """`1 blunder`, `2 inaccuracies`."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1]}ies" if noun.endswith("y") else f"{n} {noun}s"


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
        """The engine's Result for `board`. The search runs on a worker thread so that Ctrl-C
        reaches this one at once: it stops the search and is raised again here."""
        searcher = self.searcher
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

    def evaluate(self, board: Board, rules_end_game: bool) -> Evaluation:
        """The position's evaluation: checkmate and stalemate need no search, nor (when
        `rules_end_game`) a draw by repetition, the fifty-move rule or insufficient material."""
        if board.count_legal_moves() == 0:
            return Evaluation(-MATE if board.is_check() else 0, None, [])
        if rules_end_game and board.outcome() is not None:
            return Evaluation(0, None, [])
        result = self.search(board)
        moves = list(result.lines[0].moves) if result.lines else [result.best]
        return Evaluation(result.score, result.depth, moves)

    def annotate(self, game: chess.pgn.Game, tick: Callable[[], None]) -> dict[chess.Color, SideSummary]:
        """Analyse the game's main line and write the comments, NAGs and variations into it;
        `tick` is called after each move. Returns each side's summary."""
        summary = {chess.WHITE: SideSummary(), chess.BLACK: SideSummary()}
        nodes = list(game.mainline())
        if not nodes:
            return summary
        self.searcher.clear()                 # every game is analysed the same, whatever came before
        board = engine_board(game)
        position = game.board()
        current = self.evaluate(board, rules_end_game=False)
        for index, node in enumerate(nodes):
            before, before_board, before_position = current, board.copy(), position.copy(stack=False)
            try:
                played_move = board.push_uci(position.uci(node.move))
            except IllegalMoveError as exc:   # python-chess accepted it: the two disagree on the rules
                raise AnalyseError(f"move {position.san(node.move)}: {exc}") from None
            position.push(node.move)
            current = self.evaluate(board, rules_end_game=index == len(nodes) - 1)
            pov = pov_score(current.score, position.turn)
            if pov is not None:
                node.set_eval(pov, current.depth)
            self._judge(node, before, parent_score(current.score), played_move, before_board,
                        before_position, summary[before_position.turn])
            tick()
        return summary

    def _judge(self, node: chess.pgn.ChildNode, before: Evaluation, played: int, played_move: int,
               board: Board, position: chess.Board, side: SideSummary) -> None:
        """Compare the played move (score `played`, for its player) with the engine's best from
        the position before it; mark it when it loses enough."""
        best = before.pv[0]
        if played_move == best:
            side.losses.append(0)
            return
        best_score, line, after_best = before.score, before.pv, None
        loss = max(0, clamp(best_score) - clamp(played))
        if judge(loss) is not None:
            # Measure the best move as the played one was, by searching the position after it, so
            # that both are seen to the same depth past the move (the first look went one ply less).
            child = board.copy()
            child.push(best)
            after_best = self.evaluate(child, rules_end_game=True)
            best_score, line = parent_score(after_best.score), [best] + after_best.pv
            loss = max(0, clamp(best_score) - clamp(played))
        side.losses.append(loss)
        verdict = judge(loss)
        if verdict is None:
            return
        nag, word = verdict
        side.marks[nag] = side.marks.get(nag, 0) + 1
        node.nags -= MOVE_QUALITY_NAGS
        node.nags.add(nag)
        best_move = position.parse_uci(move_to_uci(best, board.chess960))
        text = (f"{word} ({white_text(best_score, position.turn)} -> {white_text(played, position.turn)})"
                f"{_mate_note(best_score, played)}. Best was {position.san(best_move)}.")
        node.comment = f"{node.comment} {text}" if node.comment else text
        first = add_line(node.parent, position, line, board.chess960)
        if first is not None and after_best is not None:
            pov = pov_score(after_best.score, not position.turn)
            if pov is not None:
                first.set_eval(pov, after_best.depth)


def _mate_note(best: int, played: int) -> str:
    """`: misses mate in 2` / `: allows mate in 3` when a mate decides the verdict, else ''."""
    best_mate, played_mate = mate_moves(best), mate_moves(played)
    if best_mate is not None and best_mate > 0 and (played_mate is None or played_mate < 0):
        return f": misses mate in {best_mate}"
    if played_mate is not None and played_mate < 0 and (best_mate is None or best_mate > 0):
        return f": allows mate in {-played_mate}"
    return ""


def add_line(parent: chess.pgn.GameNode, position: chess.Board, moves: list[int],
             chess960: bool) -> chess.pgn.ChildNode | None:
    """Add the engine line `moves` (at most PV_PLIES) from `parent` as a variation; its first
    node, or None when the parent already has a variation with that move."""
    board = position.copy(stack=False)
    node, first = parent, None
    for move in moves[:PV_PLIES]:
        try:
            played = board.parse_uci(move_to_uci(move, chess960))
        except ValueError:          # never expected: the driver checks its lines
            break
        if first is None and parent.has_variation(played):
            return None
        node = node.add_variation(played)
        first = first or node
        board.push(played)
    return first


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
        analyser = Analyser(Searcher(hash_mb), limits)
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
            note = (f"{ENGINE_NAME}, {describe_limits(limits)} per move. "
                    f"White: {summary[chess.WHITE].text()}. Black: {summary[chess.BLACK].text()}.")
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
        print(f"interrupted: {_count(written, 'complete game')} written{where}", file=stderr)
        return EXIT_INTERRUPTED
    finally:
        bar.clear()                   # an error message must not land on the bar's line
        if out is not sys.stdout:
            out.close()
            if not written:           # stopped before the first game was done: leave no empty file
                Path(destination).unlink(missing_ok=True)
    if not args.quiet:
        where = f" -> {destination}" if destination else ""
        print(f"analysed {_count(written, 'game')} ({_count(total, 'move')}) in "
              f"{clock_text(time.monotonic() - started)}{where}", file=stderr)
    return 0


def main(args) -> int:
    """Entry point from jitfish.cli: errors become one line on stderr and exit status 2."""
    try:
        return run(args, sys.stderr)
    except AnalyseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
