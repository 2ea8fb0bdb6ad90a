"""Generate self-play training data in chunks, resumably, into the local store.

    .venv/bin/python -m tools.training.datagen data/selfplay/gen6 --chunks 0:200 --seed 7 \\
        --nodes 1000 --network eval/network.npz

FOLDER is the generation's committed folder: its `manifest.jsonl` gets one line per chunk (the
engine commit, the network file and its sha256, the node limits, the seed, the chunk index, the
counts, the chunk's sha256 and the exact command that makes that chunk). The chunks themselves
(chunk-NNNNN.jfsp.xz, tools/training/records.py) go to the local store, outside git
(tools/training/store.py: `--store`, else $JITFISH_STORE/<generation>, else
~/.local/share/jitfish/selfplay/<generation>). A run fills in only the chunks of its range that
are missing or whose digest is wrong, so it resumes after any interruption: each game is appended
to `chunk-NNNNN.jfsp.games` as it ends, and a cut run goes on from the next game (the chunk is
written under a temporary name and renamed once complete). A chunk the manifest already
describes is made again only by the commit that made it, and its new bytes must match the
recorded digest: a game depends only on (seed, chunk, game) and the engine. `python -m
tools.training.store regenerate` does that with a frozen copy of the right commit. The first
generations' chunks (gen1-gen5) are committed beside their manifests.

Games start from the initial position (or, with probability --chess960, a Chess960 one) and
--random-plies uniformly random moves (8 or 9 by default), kept only if the search then scores them
within --balanced centipawns; then the engine plays both sides (tools/training/selfplay.py).
Several processes may share a generation and a chunk range (one a core): each claims the next free
chunk with a `.claim` file naming its process, and takes over the claim of a process that died.
Started with `nice`, a run gives its whole session the same niceness (yield_as_niced), so that it
really runs at the lowest priority beside matches started from other sessions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from engine.board import Board
from engine.defs import MAX_MOVES
from search import tt as tt_module
from search.driver import Searcher
from tools.training import records, store
from tools.training.selfplay import evaluate_start, play_game, random_opening

ROOT = Path(__file__).resolve().parents[2]
MAX_PLIES = 400
TT_MB = 8
SEED_MIX = 0x2545F4914F6CDD1D


def engine_commit() -> str:
    """The commit of the code that runs (a frozen copy's COMMIT file, else git's HEAD, marked
    `-dirty` when the sources that make the games differ from it)."""
    frozen = ROOT / "COMMIT"
    if frozen.exists():
        return frozen.read_text().strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "engine", "eval", "search",
                            "tools/training"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("-dirty" if dirty else "")


def bench_signature() -> int:
    from jitfish.bench import search_bench

    nodes, _ = search_bench(out=lambda line: None)
    return nodes


class Generator:
    """Plays the games of chunks with one searcher."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.searcher = Searcher(TT_MB, network=args.network or "")
        self.moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self.indices = np.zeros(MAX_PLIES + 1, dtype=np.int64)
        self.scores = np.zeros(MAX_PLIES + 1, dtype=np.int64)
        self.stats = np.zeros(4, dtype=np.int64)

    def _fresh(self) -> None:
        self.searcher.clear()

    def start_position(self, rng: np.ndarray, gen: np.random.Generator) -> tuple[Board, bool]:
        """A balanced random start: (board, chess960)."""
        args = self.args
        while True:
            chess960 = gen.random() < args.chess960
            if chess960:
                import chess
                board = Board(chess.Board.from_chess960_pos(int(gen.integers(960))).fen(), chess960=True)
            else:
                board = Board()
            plies = int(gen.integers(args.random_plies[0], args.random_plies[1] + 1))
            if not random_opening(board.tab, board.arrays, self.moves, rng, plies):
                continue
            board.set_fen(board.fen(shredder=chess960), chess960)     # the game's history starts here
            self._fresh()
            score = evaluate_start(board.tab, board.arrays, self.searcher.ws, self.searcher.tt, self.moves,
                                   args.nodes, args.hard_nodes)
            if abs(score) <= args.balanced:
                return board, chess960

    def game(self, seed: int) -> tuple[bytes, int]:
        """One game's record and its number of positions."""
        rng = np.array([seed], dtype=np.uint64)
        gen = np.random.default_rng(seed)
        board, chess960 = self.start_position(rng, gen)
        fen = board.fen(shredder=chess960)
        white_first = board.turn == 0
        self._fresh()
        result, plies = play_game(board.tab, board.arrays, self.searcher.ws, self.searcher.tt, self.moves,
                                  self.args.nodes, self.args.hard_nodes, MAX_PLIES, self.indices, self.scores,
                                  self.stats)
        record = records.encode_game(fen, chess960, int(result), self.indices[:plies], self.scores[:plies],
                                     white_first)
        return record, int(plies)

    def chunk(self, index: int, out: Path, describe: dict) -> dict:
        """Play chunk `index` into `out`; its manifest entry. Each game is appended to a progress
        file beside it as it ends (GameLog), so a run cut off goes on from the next game."""
        args = self.args
        log = GameLog(out.with_suffix(".games"), {key: describe.get(key) for key in SAME_SETTINGS}
                      | {"games": args.games, "chunk": index})
        games, positions, nodes, seconds = log.resume()
        if games:
            print(f"chunk {index}: {len(games)} games taken up from {log.path.name}", file=sys.stderr,
                  flush=True)
        for number in range(len(games), args.games):
            seed = (args.seed * SEED_MIX + index * 1_000_003 + number) & 0x7FFFFFFFFFFFFFFF
            started, before = time.perf_counter(), int(self.stats[0])
            record, plies = self.game(seed)
            spent, searched = time.perf_counter() - started, int(self.stats[0]) - before
            log.append(record, plies, searched, spent)
            games.append(record)
            positions, nodes, seconds = positions + plies, nodes + searched, seconds + spent
            if (number + 1) % 100 == 0:
                print(f"chunk {index}: {number + 1}/{args.games} games, {positions} positions, "
                      f"{positions / seconds * 3600 / 1e6:.2f} M positions/h", file=sys.stderr, flush=True)
        started = time.perf_counter()
        part = out.with_suffix(".part")
        data = records.write_chunk(part, games)
        part.rename(out)
        log.path.unlink(missing_ok=True)
        seconds += time.perf_counter() - started
        return {**describe, "chunk": index, "file": out.name, "games": args.games, "positions": positions,
                "nodes_searched": nodes, "seconds": round(seconds, 1), "bytes": len(data),
                "sha256": hashlib.sha256(data).hexdigest()}


class GameLog:
    """The games of an unfinished chunk, appended one by one as they end: a line with the settings
    that make them (a log of other settings is discarded), then for each game its positions,
    nodes, seconds and record. A game depends only on (seed, chunk, game number) and the engine,
    so the games a cut run left are the ones a whole run makes; a torn last entry is dropped."""

    ENTRY = struct.Struct("<IIqd")          # record length, positions, nodes, seconds

    def __init__(self, path: Path, settings: dict) -> None:
        self.path = path
        self.header = (json.dumps(settings, sort_keys=True) + "\n").encode()

    def resume(self) -> tuple[list[bytes], int, int, float]:
        """The games already made (records, positions, nodes, seconds); the log made ready to append."""
        games, positions, nodes, seconds = [], 0, 0, 0.0
        data = self.path.read_bytes() if self.path.is_file() else b""
        if not data.startswith(self.header):
            self.path.write_bytes(self.header)
            return games, positions, nodes, seconds
        at = len(self.header)
        while at + self.ENTRY.size <= len(data):
            length, plies, spent_nodes, spent = self.ENTRY.unpack_from(data, at)
            end = at + self.ENTRY.size + length
            if end > len(data):
                break
            games.append(data[at + self.ENTRY.size:end])
            positions, nodes, seconds = positions + plies, nodes + spent_nodes, seconds + spent
            at = end
        if at < len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(at)
        return games, positions, nodes, seconds

    def append(self, record: bytes, plies: int, nodes: int, seconds: float) -> None:
        with self.path.open("ab") as handle:
            handle.write(self.ENTRY.pack(len(record), plies, nodes, seconds) + record)


def claim(out: Path) -> bool:
    """Claim chunk `out` for this process (False when a live process has it)."""
    flag = out.with_suffix(".claim")
    try:
        with flag.open("x", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
        return True
    except FileExistsError:
        try:
            owner = int(flag.read_text(encoding="utf-8") or 0)
            os.kill(owner, 0)
            return False                     # alive: its chunk
        except (ValueError, ProcessLookupError):
            flag.write_text(str(os.getpid()), encoding="utf-8")     # a dead process's claim
            return True
        except (PermissionError, FileNotFoundError):
            return False


def chunk_range(text: str) -> range:
    first, _, last = text.partition(":")
    if not first.isdigit() or not last.isdigit() or int(last) <= int(first):
        raise argparse.ArgumentTypeError("chunks are FIRST:END, e.g. 0:16")
    return range(int(first), int(last))


def plies_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        pair = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError("random plies are N or LOW-HIGH, e.g. 8-9") from None
    if not 0 <= pair[0] <= pair[1] <= 40:
        raise argparse.ArgumentTypeError("random plies must be 0..40, LOW <= HIGH")
    return pair


def options(args: argparse.Namespace) -> list[str]:
    """The settings that decide a chunk's bytes, as datagen's own options (the recorded command)."""
    words = ["--seed", str(args.seed), "--games", str(args.games), "--nodes", str(args.nodes),
             "--hard-nodes", str(args.hard_nodes), "--random-plies", "{}-{}".format(*args.random_plies),
             "--balanced", str(args.balanced), "--chess960", str(args.chess960)]
    return words + (["--network", args.network] if args.network else [])


def describe(args: argparse.Namespace, folder_name: str) -> dict:
    """What every manifest line of this run says besides its chunk's own counts."""
    network = Path(args.network) if args.network else None
    return {"engine": engine_commit(), "bench": bench_signature(), "seed": args.seed, "nodes": args.nodes,
            "hard_nodes": args.hard_nodes, "random_plies": list(args.random_plies), "balanced": args.balanced,
            "chess960": args.chess960, "max_plies": MAX_PLIES, "network": args.network,
            "network_sha256": store.sha256(network) if network else None,
            "command": "python -m tools.training.datagen " + " ".join([folder_name, "--chunks", "{chunk}",
                                                                        *options(args)])}


SAME_SETTINGS = ("engine", "seed", "nodes", "hard_nodes", "random_plies", "balanced", "chess960", "max_plies",
                 "network_sha256", "games")


def recorded_folder(folder: Path) -> str:
    """How the command names the folder: from `data/` on when it is a repository's generation folder
    (a frozen copy may write to the checkout's), else as given."""
    parts = folder.resolve().parts if folder.is_absolute() else folder.parts
    if "data" in parts:
        return Path(*parts[len(parts) - 1 - parts[::-1].index("data"):]).as_posix()
    return folder.as_posix()


def same_maker(recorded: dict, now: dict) -> bool:
    """Whether this run makes the chunk a manifest line describes: the same sources and settings."""
    return all(recorded.get(key) == now.get(key) for key in SAME_SETTINGS)


def yield_as_niced(autogroup: Path = Path("/proc/self/autogroup")) -> None:
    """Where Linux schedules by session first (autogroup, its default), `nice` orders processes
    only within their own session: a generator started with `nice -n 19` under `setsid` still
    took a full core from the matches beside it. Give the session the process's niceness too."""
    niceness = os.nice(0)
    if niceness > 0 and autogroup.is_file():
        try:
            autogroup.write_text(str(niceness), encoding="ascii")
        except OSError:
            print(f"info: could not lower this session's priority ({autogroup}); other sessions' work "
                  "shares the cores with the generator", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.datagen", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the generation's committed folder (its manifest.jsonl)")
    parser.add_argument("--chunks", type=chunk_range, required=True, help="FIRST:END (END not included)")
    parser.add_argument("--store", type=Path,
                        help="where the chunks go (default $JITFISH_STORE/<generation>, else "
                             "~/.local/share/jitfish/selfplay/<generation>)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=8000, help="games per chunk (default 8000)")
    parser.add_argument("--nodes", type=int, default=3000,
                        help="soft node limit per move: no new iteration after it (default 3000)")
    parser.add_argument("--hard-nodes", type=int, help="hard node limit per move (default 8 x --nodes)")
    parser.add_argument("--random-plies", type=plies_range, default=(8, 9), help="LOW-HIGH (default 8-9)")
    parser.add_argument("--balanced", type=int, default=400,
                        help="keep a random start only if the search scores it within this (default 400 cp)")
    parser.add_argument("--chess960", type=float, default=0.1, help="share of Chess960 starts (default 0.1)")
    parser.add_argument("--network", help="evaluate with this network (.npz) instead of the hand-crafted terms")
    args = parser.parse_args(argv)
    args.hard_nodes = args.hard_nodes or 8 * args.nodes
    if args.nodes < 1 or args.hard_nodes < args.nodes or args.games < 1:
        parser.error("--nodes and --games must be positive and --hard-nodes at least --nodes")
    if args.network and not Path(args.network).is_file():
        parser.error(f"no network file {args.network}")
    yield_as_niced()
    generation = store.Generation(args.folder, args.store)
    args.folder.mkdir(parents=True, exist_ok=True)
    generation.store.mkdir(parents=True, exist_ok=True)
    recorded = generation.entries()
    todo = [i for i in args.chunks if i not in recorded or generation.check(recorded[i]) != "ok"]
    if not todo:
        print(f"every chunk of {args.chunks.start}:{args.chunks.stop} is in {generation.store} and matches "
              f"its manifest", file=sys.stderr)
        return 0
    common = describe(args, recorded_folder(args.folder))
    refused = [i for i in todo if i in recorded and not same_maker(recorded[i], {**common, "games": args.games})]
    for index in refused:
        print(f"chunk {index}: its manifest line was made by {recorded[index]['engine'][:12]} with other "
              f"settings or sources; make it again with `python -m tools.training.store regenerate "
              f"{args.folder} --chunks {index}:{index + 1}`", file=sys.stderr)
    todo = [i for i in todo if i not in refused]
    failed = len(refused)
    generator = Generator(args)
    for index in todo:
        out = generation.store / store.CHUNK.format(index)
        if not claim(out):
            continue
        before = generation.entries().get(index)        # again: another process may have made it meanwhile
        if before and generation.check(before) == "ok":
            out.with_suffix(".claim").unlink(missing_ok=True)
            continue
        out.unlink(missing_ok=True)                      # a wrong digest, or a chunk its run did not record
        entry = generator.chunk(index, out, {**common, "command": common["command"].format(chunk=f"{index}:{index + 1}")})
        if before and entry["sha256"] != before["sha256"]:
            out.rename(out.with_suffix(".differs"))
            print(f"chunk {index}: made again by the same commit, but its sha256 differs from the manifest "
                  f"(kept as {out.with_suffix('.differs').name}): the generator did not repeat itself",
                  file=sys.stderr)
            failed += 1
        elif before:
            print(f"chunk {index}: made again, identical to its manifest line", file=sys.stderr)
        else:
            with generation.manifest.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry, sort_keys=True) + "\n")
            print(f"chunk {index}: {entry['positions']} positions in {entry['seconds']:.0f} s, "
                  f"{entry['positions'] / max(entry['seconds'], 0.1) * 3600 / 1e6:.2f} M positions/h, "
                  f"{entry['bytes'] / entry['positions']:.2f} bytes a position", file=sys.stderr, flush=True)
        out.with_suffix(".claim").unlink(missing_ok=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
