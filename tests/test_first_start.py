"""The first start: `uci` and `isready` answered at once, commands kept until the kernels are in,
a `go` answered while they load or compile (jitfish/kernels.py, jitfish/quickmove.py), and a
compiled cache that stays valid where the package is installed (engine/kernel_locator.py,
engine/cachedir.py, tools/packaging/backend.py). How long each start takes is measured by
tools/packaging/first_start.py (docs/performance.md), not here."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import types
import zipfile
from pathlib import Path

import chess
import pytest

from engine import cachedir
from jitfish import kernels, quickmove
from jitfish import uci as uci_module
from tools.packaging import backend

ROOT = Path(__file__).resolve().parents[1]


class HeldLoader(kernels.KernelLoader):
    """A loader that stays COMPILING (or LOADING) until the test releases it, then loads for real."""

    state_while_held = kernels.COMPILING

    def __init__(self, load) -> None:
        super().__init__(load)
        self.state = self.state_while_held
        self.release = threading.Event()

    def start(self) -> None:
        def run() -> None:
            self.release.wait()
            try:
                self._load()
                self.state = kernels.READY
            except Exception as exc:
                self.error = str(exc)
                self.state = kernels.FAILED
            finally:
                self.ready.set()
        threading.Thread(target=run, daemon=True).start()


class Loop:
    """A UciLoop whose output lines are collected."""

    def __init__(self, monkeypatch, state: str) -> None:
        monkeypatch.setattr(HeldLoader, "state_while_held", state)
        monkeypatch.setattr(uci_module, "KernelLoader", HeldLoader)
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.loop = uci_module.UciLoop(write=self._write)

    def _write(self, text: str) -> None:
        with self.changed:
            self.lines.extend(text.splitlines())
            self.changed.notify_all()

    def send(self, *commands: str) -> None:
        for command in commands:
            self.loop.handle(command)

    def wait_for(self, prefix: str, timeout: float = 20.0) -> str:
        with self.changed:
            assert self.changed.wait_for(lambda: any(line.startswith(prefix) for line in self.lines), timeout), \
                f"no {prefix!r} in {self.lines}"
            return next(line for line in self.lines if line.startswith(prefix))

    def count(self, prefix: str) -> int:
        return sum(line.startswith(prefix) for line in self.lines)


def test_commands_are_checked_at_once_kept_and_carried_out_in_order_once_the_kernels_are_in(monkeypatch):
    engine = Loop(monkeypatch, kernels.COMPILING)
    engine.send("uci", "isready")
    assert engine.lines[-1] == "readyok" and engine.count("uciok") == 1
    assert any("compiling the search" in line for line in engine.lines)
    engine.send("setoption name Hash value 32", "setoption name Hash value lots",
                "position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e6 e1e3")
    errors = [line for line in engine.lines if line.startswith("info string error")]
    assert len(errors) == 2 and "Hash" in errors[0] and "e1e3" in errors[1]
    engine.send("go wtime 3000 btime 3000")
    move = engine.wait_for("bestmove").split()[1]
    after = chess.Board()
    after.push_uci("e2e4")
    after.push_uci("e7e5")                        # the last good position, White to move
    assert chess.Move.from_uci(move) in after.legal_moves
    assert any("quick move" in line for line in engine.lines)
    assert engine.loop.board is None               # nothing carried out yet
    engine.loop.kernels.release.set()
    engine.loop.ready.wait(120)
    engine.send("isready")                         # the kept commands run first, in order
    assert engine.loop.hash_mb == 32
    assert engine.loop.board.fen() == after.fen()
    assert engine.count("bestmove") == 1 and engine.count("readyok") == 2


def test_go_infinite_during_the_compilation_answers_on_stop_only(monkeypatch):
    engine = Loop(monkeypatch, kernels.COMPILING)
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go infinite")
    engine.wait_for("info depth 1")
    time.sleep(0.3)
    assert engine.count("bestmove") == 0
    engine.send("stop")
    assert engine.wait_for("bestmove") == "bestmove a1a8"        # mate in one, found at once
    assert any("score mate 1" in line for line in engine.lines)
    time.sleep(0.2)
    assert engine.count("bestmove") == 1


def test_a_ponder_hit_during_the_compilation_counts_the_time_from_the_go(monkeypatch):
    """As the search's own (Stockfish's convention): the move's 2 s of 60 s started with the
    `go ponder`, so after 2.5 s of pondering the move comes at the ponderhit, not 2 s later."""
    engine = Loop(monkeypatch, kernels.COMPILING)
    engine.send("position startpos moves e2e4", "go ponder wtime 60000 btime 60000")
    engine.wait_for("info depth 1")
    time.sleep(2.5)
    assert engine.count("bestmove") == 0
    engine.send("ponderhit")
    assert engine.wait_for("bestmove", timeout=1.0)
    assert engine.count("bestmove") == 1


def test_a_go_waits_for_kernels_that_are_loading_and_then_searches_as_usual(monkeypatch):
    engine = Loop(monkeypatch, kernels.LOADING)
    threading.Timer(0.3, engine.loop.kernels.release.set).start()
    engine.send("position startpos", "go wtime 60000 btime 60000 movestogo 40")
    engine.wait_for("bestmove", timeout=120)
    assert not any("quick move" in line for line in engine.lines)
    assert any(" nps " in line and " hashfull " in line for line in engine.lines)   # the real search's lines


def test_an_analysis_waits_for_loading_kernels_however_long_they_take(monkeypatch):
    """A node-limited `go` (the browser's review, an analysis GUI) asks for the search itself: it
    waits past the clock's EARLY_GO_WAIT_S for a slow load instead of taking the quick search."""
    engine = Loop(monkeypatch, kernels.LOADING)
    threading.Timer(uci_module.EARLY_GO_WAIT_S + 0.5, engine.loop.kernels.release.set).start()
    engine.send("position startpos", "go nodes 20000")
    engine.wait_for("bestmove", timeout=120)
    assert not any("quick move" in line for line in engine.lines)
    assert any(" nodes " in line and " hashfull " in line for line in engine.lines)


def test_the_quick_search_sees_mates_and_captures_and_keeps_inside_its_time():
    stop = threading.Event()
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    assert quickmove.QuickSearch(board, quickmove.Budget(2.0), stop).run() == chess.Move.from_uci("h5f7")
    hanging = chess.Board("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    assert quickmove.QuickSearch(hanging, quickmove.Budget(2.0), stop).run() == chess.Move.from_uci("d2d5")
    started = time.monotonic()
    quickmove.QuickSearch(chess.Board(), quickmove.Budget(0.2), stop).run()
    assert time.monotonic() - started < 1.5          # a deadline, not a depth, ends it
    assert quickmove.score_text(quickmove.MATE - 1) == "mate 1"
    assert quickmove.score_text(-(quickmove.MATE - 2)) == "mate -1"
    assert quickmove.score_text(-35) == "cp -35"


def kill_compilers(cache_root: Path) -> None:
    """End the compile processes a test's engine left running for its temporary cache."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if str(cache_root).encode() in environ and b"jitfish.warmup" in (proc / "cmdline").read_bytes():
            os.killpg(int(proc.name), signal.SIGKILL)


def test_a_cold_cache_is_known_before_start_returns_so_the_first_isready_says_so(monkeypatch, tmp_path):
    """The loader decides on compiling before the UCI loop reads a line, not on its thread: a GUI's
    `isready` sent at once (here: before that thread has run at all) is told about the compilation."""
    started: list[str] = []

    class Unstarted:                                                    # a thread that never runs
        def __init__(self, target, name: str, daemon: bool) -> None:
            self.name = name

        def start(self) -> None:
            started.append(self.name)

    monkeypatch.setattr(kernels, "threading", types.SimpleNamespace(Thread=Unstarted, Event=threading.Event))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))            # an empty cache: no marker
    loader = kernels.KernelLoader(lambda: None)
    loader.start()
    assert len(started) == 1 and loader.compiling
    warm = tmp_path / "warm"
    warm.mkdir()
    cachedir.mark_complete(warm)                                       # a complete cache: just loading
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(warm))
    loader = kernels.KernelLoader(lambda: None)
    loader.start()
    assert len(started) == 2 and loader.state == kernels.LOADING


def test_a_cold_engine_answers_readyok_and_go_while_it_compiles(tmp_path):
    """A real engine process on an empty cache: readyok comes while the compilation runs (its
    cache has no marker yet), and a GUI's first `go` gets a legal move."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    engine = subprocess.Popen([sys.executable, "-m", "jitfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=env, cwd=ROOT)
    try:
        def ask(command: str, answer: str) -> list[str]:
            engine.stdin.write(command + "\n")
            engine.stdin.flush()
            lines = []
            while not lines or not lines[-1].startswith(answer):
                lines.append(engine.stdout.readline().strip())
                assert lines[-1] or engine.poll() is None
            return lines

        ask("uci", "uciok")
        said = ask("isready", "readyok")
        marker = list(tmp_path.glob(f"jitfish/*/{cachedir.MARKER}"))
        assert not marker, "readyok waited for the compilation"
        assert any("compiling" in line for line in said)
        said = ask("position startpos moves e2e4\ngo wtime 30000 btime 30000", "bestmove")
        board = chess.Board()
        board.push_uci("e2e4")
        assert chess.Move.from_uci(said[-1].split()[1]) in board.legal_moves
        assert any("quick move" in line for line in said)
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        assert engine.wait(timeout=30) == 0
    finally:
        engine.kill()
        kill_compilers(tmp_path)


PROBE = '''
from engine.kernel import kernel


@kernel
def triple(x):
    return 3 * x
'''


def test_a_compiled_cache_is_valid_wherever_the_package_is_installed(tmp_path):
    """Kernels compiled in one copy of the sources load from the cache in another copy with new
    modification times (numba would look under a hash of the first copy's path without
    engine/kernel_locator.py)."""
    cache = tmp_path / "cache"
    for name in ("built", "installed"):
        shutil.copytree(ROOT / "engine", tmp_path / name / "engine",
                        ignore=shutil.ignore_patterns("__pycache__", "compiled"))
        (tmp_path / name / "engine" / "probe.py").write_text(PROBE)
        time.sleep(0.05)                                 # other modification times
    script = ("from engine.probe import triple; assert triple(14) == 42; "
              "print(triple.stats.cache_hits.get((), 0) + sum(triple.stats.cache_hits.values()), "
              "sum(triple.stats.cache_misses.values()))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    runs = [subprocess.run([sys.executable, "-c", script], cwd=tmp_path / name, env=env, capture_output=True,
                           text=True, check=True).stdout.split() for name in ("built", "installed")]
    assert runs[0] == ["0", "1"]                         # compiled where it was built
    assert runs[1] == ["1", "0"]                         # loaded where it is installed
    assert (cache / "engine").is_dir() and not list(cache.glob("engine_*"))


def test_the_shipped_cache_is_copied_into_place_only_when_it_fits(tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    (shipped / "engine").mkdir(parents=True)
    (shipped / "engine" / "movegen.nbi").write_bytes(b"index")
    monkeypatch.setattr(cachedir, "SHIPPED", shipped)
    target = tmp_path / "cache"
    (shipped / cachedir.MARKER).write_text(json.dumps({**cachedir.fingerprint(), "numba": "0.1"}))
    cachedir._install_shipped(target)
    assert not target.exists()                           # made with another numba: compiled here instead
    cachedir.mark_complete(shipped)
    cachedir._install_shipped(target)
    assert (target / "engine" / "movegen.nbi").read_bytes() == b"index" and cachedir.is_complete(target)


def test_the_backend_adds_the_cache_to_the_wheel_with_its_record(tmp_path):
    wheel = tmp_path / "jitfish-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("engine/__init__.py", "")
        archive.writestr("jitfish-0.1.0.dist-info/RECORD", "engine/__init__.py,sha256=x,0\n"
                                                          "jitfish-0.1.0.dist-info/RECORD,,\n")
    cache = tmp_path / "cache"
    (cache / "search").mkdir(parents=True)
    (cache / "search" / "search.nbc").write_bytes(b"machine code")
    (cache / cachedir.MARKER).write_text("{}")
    (cache / ".compiling").write_text("")                # the lock file stays out
    assert backend.add_files(wheel, cache, backend.SHIPPED) == 2
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record = archive.read("jitfish-0.1.0.dist-info/RECORD").decode()
        data = archive.read("engine/compiled/search/search.nbc")
    assert "engine/compiled/.compiling" not in names and f"engine/compiled/{cachedir.MARKER}" in names
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert f"engine/compiled/search/search.nbc,sha256={digest},{len(data)}" in record
    assert record.count("RECORD") == 1


@pytest.mark.parametrize("limits, white, seconds", [
    ({"movetime": 500}, True, 0.45), ({"wtime": 30000, "winc": 0}, True, 1.0 - 0.05),
    ({"btime": 60000, "binc": 1000, "movestogo": 20}, False, (3000 + 750 - 50) / 1000),
    ({"wtime": 1000, "winc": 0}, True, 0.01), ({"infinite": True}, True, None)])   # 33 ms less overhead: the floor
def test_the_quick_moves_time_stays_inside_the_clock(limits, white, seconds):
    from search.timeman import Limits

    budget = quickmove.budget_for(Limits(**limits), white, 50)
    assert budget.seconds == (None if seconds is None else pytest.approx(seconds))
