"""The local store of self-play chunks, kept out of git, and the committed manifests that describe it.

A generation is a committed folder under data/selfplay/ with its `manifest.jsonl`: one line per
chunk (the engine commit, the network file and its sha256, the seed, the chunk index, the node
limits, games, positions, bytes, the chunk's sha256 and the exact command). The chunks of the
first generations are committed beside their manifest; newer chunks live in the store, by
default `$XDG_DATA_HOME/jitfish/selfplay/<generation>/` (`~/.local/share/...`), or
`$JITFISH_STORE/<generation>/`. The generator is deterministic, so a lost store costs time only:

    python -m tools.training.store status [data/selfplay/gen6 ...]     # what is there, what is missing
    python -m tools.training.store verify data/selfplay/gen6             # every chunk against its digest
    python -m tools.training.store regenerate data/selfplay/gen6 [--chunks 0:4] [--processes 2]

`regenerate` freezes each commit the manifest names (tools/matches/freeze.py) and runs that
copy's own generator with the recorded command for the chunks that are missing or wrong; the
generator checks the new bytes against the manifest's digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tools.paths import ROOT

MANIFEST = "manifest.jsonl"
CHUNK = "chunk-{:05d}.jfsp.xz"


def store_root() -> Path:
    """Where the store keeps its chunks: $JITFISH_STORE, else $XDG_DATA_HOME/jitfish/selfplay."""
    chosen = os.environ.get("JITFISH_STORE")
    if chosen:
        return Path(chosen)
    data_home = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return data_home / "jitfish" / "selfplay"


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class Generation:
    """A committed generation folder and where its chunks are."""

    folder: Path
    store: Path | None = None          # the store folder of its chunks (default: store_root()/name)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        self.store = Path(self.store) if self.store else store_root() / self.folder.name

    @property
    def manifest(self) -> Path:
        return self.folder / MANIFEST

    def entries(self) -> dict[int, dict]:
        """The manifest's lines by chunk index (a later line for the same chunk wins)."""
        if not self.manifest.is_file():
            return {}
        lines = self.manifest.read_text(encoding="utf-8").splitlines()
        return {entry["chunk"]: entry for entry in map(json.loads, filter(None, lines))}

    def path(self, entry: dict) -> Path:
        """The chunk of a manifest line: beside the manifest when committed, else in the store."""
        committed = self.folder / entry["file"]
        return committed if committed.is_file() else self.store / entry["file"]

    def check(self, entry: dict, full: bool = True) -> str:
        """'ok', 'missing', or what is wrong with the chunk of a manifest line (size, then digest)."""
        path = self.path(entry)
        if not path.is_file():
            return "missing"
        if path.stat().st_size != entry["bytes"]:
            return f"{path.stat().st_size} bytes, the manifest says {entry['bytes']}"
        if full and sha256(path) != entry["sha256"]:
            return "sha256 differs from the manifest"
        return "ok"

    def chunk_files(self) -> list[Path]:
        """The chunks of the whole generation, in order; a clear error when any is not there."""
        entries = self.entries()
        missing = [entry["file"] for entry in entries.values() if not self.path(entry).is_file()]
        if missing:
            raise FileNotFoundError(
                f"{len(missing)} chunk(s) of {self.folder} are neither committed nor in the store "
                f"{self.store} (first: {missing[0]}); make them again with "
                f"`python -m tools.training.store regenerate {self.folder}`")
        return [self.path(entries[index]) for index in sorted(entries)]


def chunk_files(sources: list[str]) -> list[Path]:
    """The chunk files of the folders and files given, in order: a generation folder's chunks by
    its manifest (committed or in the store), a plain folder's by name."""
    files: list[Path] = []
    for source in map(Path, sources):
        if (source / MANIFEST).is_file():
            files += Generation(source).chunk_files()
        elif source.is_dir():
            files += sorted(source.glob("chunk-*.jfsp.xz"))
        else:
            files.append(source)
    if not files:
        raise ValueError(f"no self-play chunks in {' '.join(sources)}")
    return files


def generation_folders(given: list[str]) -> list[Path]:
    if given:
        return [Path(name) for name in given]
    return sorted(path.parent for path in (ROOT / "data" / "selfplay").glob(f"*/{MANIFEST}"))


def status(folders: list[Path], full: bool) -> int:
    """Print a line per generation; 1 when a chunk is wrong (missing ones are not an error)."""
    bad = 0
    for folder in folders:
        generation = Generation(folder)
        entries = generation.entries()
        states = {index: generation.check(entry, full) for index, entry in entries.items()}
        present = [entries[i] for i, state in states.items() if state == "ok"]
        positions = sum(entry["positions"] for entry in present)
        seconds = sum(entry.get("seconds", 0) for entry in present)
        # the rate of the run the manifest recorded, not of a regeneration that made the bytes again
        rate = f", made at {positions / seconds * 3600 / 1e6:.2f} M positions/h a process" if seconds else ""
        where = "committed" if all(generation.path(e).parent == generation.folder for e in present) and present \
            else str(generation.store)
        missing = sorted(i for i, state in states.items() if state == "missing")
        print(f"{folder}: {len(present)}/{len(entries)} chunks, {positions / 1e6:.2f} M positions, "
              f"{sum(e['bytes'] for e in present) / 1e6:.1f} MB ({where}){rate}"
              + (f"; missing {compress(missing)}" if missing else ""))
        for index, state in sorted(states.items()):
            if state not in ("ok", "missing"):
                print(f"  chunk {index}: {state}")
                bad += 1
    return 1 if bad else 0


def compress(indices: list[int]) -> str:
    """[0, 1, 2, 5] -> '0-2, 5'."""
    return ", ".join(f"{a}-{b - 1}" if b - a > 1 else f"{a}" for a, b in spans(indices))


def regenerate(folder: Path, chunks: range | None, processes: int) -> int:
    """Make the missing or wrong chunks of a generation again, each with a frozen copy of the
    commit that made it (its generator checks the new bytes against the manifest)."""
    from tools.matches.freeze import freeze

    generation = Generation(folder)
    todo = [entry for index, entry in sorted(generation.entries().items())
            if (chunks is None or index in chunks) and generation.check(entry) != "ok"]
    if not todo:
        print(f"{folder}: every chunk is there and matches its manifest")
        return 0
    failures = 0
    for commit in sorted({entry["engine"] for entry in todo}):
        if commit.endswith("-dirty"):
            print(f"chunks made by uncommitted sources ({commit}) cannot be made again", file=sys.stderr)
            failures += 1
            continue
        copy = Path(f"/tmp/jf_store_{commit[:12]}")
        if not copy.exists():
            freeze(commit, copy)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(copy / ".numba")}
        same = [entry for entry in todo if entry["engine"] == commit]
        for first, end in spans([entry["chunk"] for entry in same]):
            entry = next(e for e in same if e["chunk"] == first)
            argv = recorded_command(entry["command"], folder.resolve(), first, end, generation.store)
            # processes share the span: each claims the next free chunk (datagen's .claim files)
            workers = [subprocess.Popen([sys.executable, "-m", "tools.training.datagen", *argv], cwd=copy, env=env)
                       for _ in range(max(1, processes))]
            failures += sum(worker.wait() != 0 for worker in workers)
    return 1 if failures else status([folder], True)


def spans(indices: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of chunk indices as (first, end) pairs, end not included."""
    runs: list[list[int]] = []
    for index in sorted(indices):
        if runs and index == runs[-1][1]:
            runs[-1][1] = index + 1
        else:
            runs.append([index, index + 1])
    return [(first, end) for first, end in runs]


def recorded_command(command: str, folder: Path, first: int, end: int, store: Path) -> list[str]:
    """A manifest's `python -m tools.training.datagen FOLDER ... --chunks i:j` as datagen's
    arguments, pointed at `folder`, chunks first:end and the store folder."""
    words = shlex.split(command)[3:]
    out, skip = [str(folder)], False
    for word in words[1:]:
        if skip:
            skip = False
        elif word in ("--chunks", "--store"):
            skip = True
        else:
            out.append(word)
    return [*out, "--chunks", f"{first}:{end}", "--store", str(store)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.training.store", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (("status", "chunks present, missing or wrong (sizes only; --full checks digests)"),
                       ("verify", "every chunk present against its sha256")):
        command = sub.add_parser(name, help=text)
        command.add_argument("folders", nargs="*", help="generation folders (default: every one)")
        if name == "status":
            command.add_argument("--full", action="store_true")
    again = sub.add_parser("regenerate", help="make missing or wrong chunks again from their manifest")
    again.add_argument("folder", type=Path)
    again.add_argument("--chunks", help="FIRST:END, only these")
    again.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "regenerate":
        chunks = None
        if args.chunks:
            first, _, end = args.chunks.partition(":")
            chunks = range(int(first), int(end))
        return regenerate(args.folder, chunks, args.processes)
    return status(generation_folders(args.folders), args.command == "verify" or args.full)


if __name__ == "__main__":
    sys.exit(main())
