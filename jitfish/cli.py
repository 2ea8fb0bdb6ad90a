"""Command line: `jitfish` runs the UCI loop; subcommands run perft, suites, benchmarks, a game in
the terminal or in the browser, and the analysis of PGN games.

Heavy modules are imported inside the subcommands so that plain `jitfish` answers `uci` at once.
"""

from __future__ import annotations

import argparse
import sys


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
            return 2
    if args.depth is None or args.depth < 1:
        print("error: give a depth of at least 1 (jitfish perft DEPTH)", file=sys.stderr)
        return 2
    try:
        board = Board(args.fen, chess960=args.chess960)
    except FenError as exc:
        print(f"error: invalid FEN: {exc}", file=sys.stderr)
        return 2
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

    if args.threads < 1:
        print("error: --threads needs at least 1", file=sys.stderr)
        return 2
    if args.perft:
        perft_bench()
    else:
        search_bench(args.depth, args.hash, threads=args.threads)
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


def build_parser() -> argparse.ArgumentParser:
    from jitfish.bench import BENCH_DEPTH
    from engine.fen import STARTING_FEN

    parser = argparse.ArgumentParser(prog="jitfish", description="Jitfish UCI chess engine. "
                                     "Without a subcommand it speaks UCI on stdin/stdout.")
    sub = parser.add_subparsers(dest="command")
    perft = sub.add_parser("perft", help="count the leaves of the legal-move tree")
    perft.add_argument("depth", nargs="?", type=int, help="depth in plies")
    perft.add_argument("--fen", default=STARTING_FEN, help="position (default: the start position)")
    perft.add_argument("--divide", action="store_true", help="print the count under each root move")
    perft.add_argument("--chess960", action="store_true", help="Chess960 castling rules and notation")
    perft.add_argument("--suite", metavar="FILE", help="check every position of an EPD perft suite")
    perft.set_defaults(run=_perft)
    bench = sub.add_parser("bench", help="performance benchmark")
    bench.add_argument("--perft", action="store_true", help="move-generation speed (perft nodes/s)")
    bench.add_argument("--depth", type=int, default=BENCH_DEPTH, help=f"search depth (default {BENCH_DEPTH})")
    bench.add_argument("--hash", type=int, default=16, help="transposition table MB (default 16)")
    bench.add_argument("--threads", type=int, default=1,
                       help="search threads (default 1; above 1 the node count varies from run to run)")
    bench.set_defaults(run=_bench)
    play = sub.add_parser("play", help="play a game against the engine in the terminal")
    play.add_argument("--level", type=int, help="Skill Level 0..20 (20 = full strength, the default)")
    play.add_argument("--elo", type=int, help="play at this Elo instead (400 up to full strength)")
    play.add_argument("--color", choices=["white", "black", "random"], default="white", help="your colour")
    play.add_argument("--fen", default=STARTING_FEN, help="start from this position")
    play.add_argument("--time", type=float, default=2.0, help="the engine's most seconds per move (default 2)")
    play.add_argument("--pgn", help="save the game here (default: jitfish-game-<date>-<time>.pgn)")
    play.add_argument("--seed", type=int, default=0, help="fixes the level's choices (default: new each game)")
    play.set_defaults(run=_play)
    analyse = sub.add_parser("analyse", aliases=["analyze"],
                             help="annotate PGN games with evaluations, mistakes and better moves")
    analyse.add_argument("pgn", metavar="GAME.pgn", help="the games to analyse")
    analyse.add_argument("-o", "--output", metavar="OUT.pgn",
                         help="where to write the annotated PGN (default: GAME-analysed.pgn beside the "
                              "input; - for stdout)")
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="search each position to this depth")
    limit.add_argument("--time", type=float, metavar="SECONDS", help="search each position this long")
    limit.add_argument("--nodes", type=int, help="search each position this many nodes (default 1000000)")
    which = analyse.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, default=1, metavar="K", help="analyse the K-th game of the file "
                       "(default 1)")
    which.add_argument("--all", action="store_true", help="analyse every game of the file")
    analyse.add_argument("--hash", type=int, default=64, metavar="MB", help="transposition table MB (default 64)")
    analyse.add_argument("-q", "--quiet", action="store_true", help="no progress bar or messages on stderr "
                         "(errors still go there)")
    analyse.set_defaults(run=_analyse)
    web = sub.add_parser("web", help="play in the browser against the engine or a friend (a local web page)")
    web.add_argument("--port", type=int, default=None,
                     help="port to listen on (default 8960, or any free one if that is taken; 0: any free port)")
    web.add_argument("--host", default="127.0.0.1",
                     help="address to listen on (default 127.0.0.1, this computer only; others print a warning)")
    web.add_argument("--no-browser", action="store_true", help="do not open the page in the default browser")
    web.set_defaults(run=_web)
    sub.add_parser("uci", help="run the UCI loop (the default)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv == ["uci"]:
        from jitfish.uci import main as uci_main
        uci_main()
        return 0
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
