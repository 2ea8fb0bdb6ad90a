"""Command line: `jitfish` runs the UCI loop; subcommands run perft, suites, benchmarks, a game in
the terminal or in the browser, and the analysis of PGN games.

Heavy modules are imported inside the subcommands so that plain `jitfish` answers `uci` at once.
Every number is checked against the range the UCI loop uses for it (jitfish.ranges) before
anything runs: a bad one is one `error: ...` line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable, NoReturn

from jitfish import ranges
from jitfish.ranges import Range

EXIT_USAGE = 2


class UsageError(Exception):
    """A command line that cannot be run; the message is the error line."""


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad command line as one line (argparse prints the usage first)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def whole_number(allowed: Range) -> Callable[[str], int]:
    """An argparse type: a whole number within `allowed`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, not {_quote(text)}") from None
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"must be {allowed}, not {_short(str(value))}")
        return value
    return parse


def seconds(allowed_ms: Range) -> Callable[[str], float]:
    """An argparse type: a time in seconds, whose milliseconds are within `allowed_ms`."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a number of seconds, not {_quote(text)}")
        if value * 1000 < allowed_ms.low:
            raise argparse.ArgumentTypeError(f"must be {allowed_ms.low / 1000:g} seconds or more, "
                                             f"not {_quote(text)}")
        if value * 1000 > allowed_ms.high:
            raise argparse.ArgumentTypeError(f"must be {allowed_ms.high // 1000} seconds at most, "
                                             f"not {_quote(text)}")
        return value
    return parse


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _quote(text: str) -> str:
    return repr(_short(text))


def _note(text: str | None) -> None:
    if text:
        print(f"note: {text}", file=sys.stderr)


def _perft(args: argparse.Namespace) -> int:
    import time

    from engine.board import Board
    from engine.fen import FenError
    from perft.perft import count, divide
    from perft.suite import run_suite

    if args.suite:
        try:
            return 1 if run_suite(args.suite, max_depth=args.depth, chess960=args.chess960) else 0
        except (OSError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    if args.depth is None:
        print("error: give a depth (jitfish perft DEPTH)", file=sys.stderr)
        return EXIT_USAGE
    try:
        board = Board(args.fen, chess960=args.chess960)
    except FenError as exc:
        print(f"error: invalid FEN: {exc}", file=sys.stderr)
        return EXIT_USAGE
    start = time.perf_counter()
    if args.divide:
        total = 0
        for text, n in divide(board, args.depth):
            print(f"{text}: {n}")
            total += n
        print()
    else:
        total = count(board, args.depth)
    elapsed = time.perf_counter() - start
    print(f"Nodes searched: {total}")
    print(f"Time: {elapsed:.3f} s ({total / max(elapsed, 1e-9) / 1e6:.1f} M nodes/s)")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from jitfish.bench import perft_bench, search_bench
    from jitfish.options import usable_hash_mb, usable_threads

    if args.perft:
        perft_bench()
        return 0
    hash_mb, note = usable_hash_mb(args.hash)
    _note(note)
    threads, note = usable_threads(args.threads)
    _note(note)
    try:
        search_bench(args.depth, hash_mb, threads=threads)
    except MemoryError:
        print(f"error: not enough memory for a {hash_mb} MB table and {threads} threads", file=sys.stderr)
        return EXIT_USAGE
    return 0


def _play(args: argparse.Namespace) -> int:
    from jitfish.play import main as play_main

    return play_main(args)


def _analyse(args: argparse.Namespace) -> int:
    from jitfish.analyse import main as analyse_main

    return analyse_main(args)


def _web(args: argparse.Namespace) -> int:
    from jitfish.web.server import main as web_main

    return web_main(args.host, args.port, not args.no_browser)


def _checkers(args: argparse.Namespace) -> int:
    if getattr(args, "checkers_command", None) == "play":
        from jitfish.checkers_play import main as checkers_play_main

        return checkers_play_main(args)
    from jitfish.checkers_protocol import main as checkers_protocol_main

    return checkers_protocol_main()


def build_parser() -> argparse.ArgumentParser:
    from jitfish.bench import BENCH_DEPTH
    from engine.fen import STARTING_FEN
    from search.levels import FULL_STRENGTH_ELO

    parser = Parser(prog="jitfish", description="Jitfish UCI chess engine. "
                    "Without a subcommand it speaks UCI on stdin/stdout.")
    sub = parser.add_subparsers(dest="command")
    perft = sub.add_parser("perft", help="count the leaves of the legal-move tree")
    perft.add_argument("depth", nargs="?", type=whole_number(ranges.PERFT_DEPTH),
                       help=f"depth in plies, {ranges.PERFT_DEPTH} (with --suite: the deepest count checked)")
    perft.add_argument("--fen", default=STARTING_FEN, help="position (default: the start position)")
    perft.add_argument("--divide", action="store_true", help="print the count under each root move")
    perft.add_argument("--chess960", action="store_true", help="Chess960 castling rules and notation")
    perft.add_argument("--suite", metavar="FILE", help="check every position of an EPD perft suite")
    perft.set_defaults(run=_perft)
    bench = sub.add_parser("bench", help="performance benchmark")
    bench.add_argument("--perft", action="store_true", help="move-generation speed (perft nodes/s)")
    bench.add_argument("--depth", type=whole_number(ranges.BENCH_DEPTH), default=BENCH_DEPTH,
                       help=f"search depth {ranges.BENCH_DEPTH} (default {BENCH_DEPTH})")
    bench.add_argument("--hash", type=whole_number(ranges.HASH_MB), default=16,
                       help="transposition table MB (default 16; at most what the memory allows)")
    bench.add_argument("--threads", type=whole_number(ranges.THREADS), default=1,
                       help="search threads (default 1, at most one per core; above 1 the node count "
                            "varies from run to run)")
    bench.set_defaults(run=_bench)
    play = sub.add_parser("play", help="play a game against the engine in the terminal",
                          description="Play a game against the engine in the terminal, in English, Kannada, "
                                      "Tamil, Gujarati or Hindi. Type moves in SAN, figurines or UCI (e4, Nf3, "
                                      "e2e4); type help during the game for the commands (undo, hint, draw, "
                                      "resign, flip, board, help, quit), these English words in every language "
                                      "(a language's own word for one is understood too where it has one).")
    play.add_argument("--level", type=whole_number(ranges.SKILL_LEVEL),
                      help=f"Skill Level {ranges.SKILL_LEVEL} ({ranges.SKILL_LEVEL.high} = full strength, "
                           "the default)")
    play.add_argument("--elo", type=whole_number(ranges.ELO),
                      help=f"play at this Elo instead ({ranges.ELO}; full strength from {FULL_STRENGTH_ELO})")
    play.add_argument("--color", choices=["white", "black", "random"], default="white", help="your colour")
    play.add_argument("--fen", default=STARTING_FEN, help="start from this position")
    play.add_argument("--time", type=seconds(ranges.TIME_MS), default=2.0,
                      help="the engine's most seconds per move (default 2)")
    play.add_argument("--pgn", help="save the game here (default: jitfish-game-<date>-<time>.pgn)")
    play.add_argument("--seed", type=whole_number(ranges.RANDOM_SEED), default=0,
                      help=f"{ranges.RANDOM_SEED}: fixes the level's choices (default 0: new each game)")
    play.add_argument("--lang", metavar="LANG",
                      help="the game's language: en, kn, ta, gu or hi (default: from LANGUAGE, LC_ALL, "
                           "LC_MESSAGES or LANG, as gettext reads them; a language it does not speak is English)")
    play.add_argument("--notation", choices=["letters", "figurines"],
                      help="how the game writes moves: letters (Nf3) or figurines (the piece's sign) "
                           "(default: figurines in kn, ta, gu and hi, letters in en)")
    play.set_defaults(run=_play)
    analyse = sub.add_parser("analyse", aliases=["analyze"],
                             help="annotate PGN games with evaluations, mistakes and better moves")
    analyse.add_argument("pgn", metavar="GAME.pgn", help="the games to analyse")
    analyse.add_argument("-o", "--output", metavar="OUT.pgn",
                         help="where to write the annotated PGN (default: GAME-analysed.pgn beside the "
                              "input; - for stdout)")
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=whole_number(ranges.SEARCH_DEPTH),
                       help=f"search each position to this depth ({ranges.SEARCH_DEPTH})")
    limit.add_argument("--time", type=seconds(ranges.TIME_MS), metavar="SECONDS",
                       help="search each position this long")
    limit.add_argument("--nodes", type=whole_number(ranges.NODES),
                       help="search each position this many nodes (default 1000000)")
    which = analyse.add_mutually_exclusive_group()
    which.add_argument("--game", type=whole_number(ranges.GAME_NUMBER), default=1, metavar="K",
                       help="analyse the K-th game of the file (default 1)")
    which.add_argument("--all", action="store_true", help="analyse every game of the file")
    analyse.add_argument("--hash", type=whole_number(ranges.HASH_MB), default=64, metavar="MB",
                         help="transposition table MB (default 64; at most what the memory allows)")
    analyse.add_argument("-q", "--quiet", action="store_true", help="no progress bar or messages on stderr "
                         "(errors still go there)")
    analyse.set_defaults(run=_analyse)
    web = sub.add_parser("web", help="play in the browser against the engine or a friend (a local web page)")
    web.add_argument("--port", type=whole_number(ranges.PORT), default=None,
                     help="port to listen on (default 8960, or any free one if that is taken; 0: any free port)")
    web.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default 127.0.0.1, this computer only; others print a warning)")
    web.add_argument("--no-browser", action="store_true", help="do not open the page in the default browser")
    web.set_defaults(run=_web)
    sub.add_parser("uci", help="run the UCI loop (the default)")
    checkers = sub.add_parser("checkers", help="the checkers engine (American checkers): its UCI-like protocol "
                              "on stdin/stdout, or `checkers play` for a game in the terminal")
    checkers_sub = checkers.add_subparsers(dest="checkers_command")
    checkers_play = checkers_sub.add_parser("play", help="play checkers against the engine in the terminal")
    checkers_play.add_argument("--level", type=int, choices=range(1, 11), default=10, metavar="N",
                               help="the engine's level, 1 (beginner) to 10 (full strength, the default)")
    checkers_play.add_argument("--color", choices=["black", "white"], default="black",
                               help="your colour (Black moves first; default black)")
    checkers_play.add_argument("--time", type=seconds(ranges.TIME_MS), default=1.0,
                               help="the engine's most seconds per move (default 1)")
    checkers_play.add_argument("--fen", default=None, help="start from this PDN FEN position")
    checkers_play.add_argument("--lang", metavar="LANG",
                               help="the game's language: en, kn, ta, gu or hi (default: from the environment)")
    checkers.set_defaults(run=_checkers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["checkers"]:                     # the protocol at once, without the chess parser's imports
        from jitfish.checkers_protocol import main as checkers_protocol_main
        return checkers_protocol_main()
    if not argv or argv == ["uci"]:
        from jitfish.uci import main as uci_main
        uci_main()
        return 0
    try:
        args = build_parser().parse_args(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
