"""GNOME Chess (Debian's gnome-chess) with the shipped recipe, for real: the GUI runs under Xvfb with
`recipes/gnome-chess-engines.conf` appended to a copy of the system's engines.conf as its
`~/.config/gnome-chess/engines.conf` (in a temporary HOME), set (by GSettings' keyfile backend) to
let the computer play White at a difficulty; the recipe's binary is a proxy that logs the UCI
traffic and starts the engine. The engine must get the handshake, the difficulty's options, a
`go wtime 30000 btime 30000`, and answer it with a legal first move in time, which GNOME Chess takes
(its debug log says "Engine moves ...").

Without gnome-chess, Xvfb or dbus-run-session the test skips, except under CI (CI=true), where
.ci/run installs them first and their absence is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from tests.uci_driver import ENGINE_COMMAND, ROOT, running_engine

RECIPE = ROOT / "recipes" / "gnome-chess-engines.conf"
SYSTEM_ENGINES = Path("/etc/gnome-chess/engines.conf")
PLACEHOLDER = "binary=/path/to/jitfish/.venv/bin/jitfish"
PATIENCE = 30.0                  # GNOME Chess gives up on a move after 30 s ("the computer player is confused")
START_TIMEOUT = 120.0            # the GUI's start on a busy machine, then the engine's first move


def program(name: str) -> str | None:
    """`name` on the PATH or in /usr/games (not on root's PATH)."""
    return shutil.which(name) or shutil.which(name, path="/usr/games")


GNOME_CHESS, XVFB, DBUS = program("gnome-chess"), program("Xvfb"), program("dbus-run-session")
MISSING = ", ".join(name for name, path in [("gnome-chess", GNOME_CHESS), ("Xvfb", XVFB), ("dbus-run-session", DBUS)]
                    if path is None) or None
if MISSING and os.environ.get("CI") == "true":
    pytest.fail(f"the GNOME Chess test cannot run under CI: {MISSING} missing", pytrace=False)
needs_gnome_chess = pytest.mark.skipif(MISSING is not None, reason=f"{MISSING} not installed "
                                       "(Debian: apt install gnome-chess xvfb dbus)")

# The proxy between GNOME Chess and the engine: every line, with its time, to the log; `>` from the
# GUI, `<` from the engine (the format of the shared data's gui-sessions). With HOLD it passes the
# engine's lines on only once the GUI has sent its first `go` (at most 20 s): an engine whose `uciok`
# GNOME Chess reads late, as on a busy machine, so that the difficulty's options come during the
# search of the first move.
PROXY = '''\
import subprocess, sys, threading, time
LOG, ENGINE, HOLD = {log!r}, {engine!r}, {hold!r}
start = time.monotonic()
log = open(LOG, "a", buffering=1)
went = threading.Event()
def note(kind, text):
    log.write(f"{{time.monotonic() - start:8.3f}} {{kind}} {{text}}\\n")
engine = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def relay():
    for line in engine.stdout:
        note("<", line.rstrip("\\n"))
        if HOLD:
            went.wait(20)
        sys.stdout.write(line)
        sys.stdout.flush()
thread = threading.Thread(target=relay)
thread.start()
for line in sys.stdin:
    note(">", line.rstrip("\\n"))
    if line.startswith("go"):
        went.set()
    try:
        engine.stdin.write(line)
        engine.stdin.flush()
    except BrokenPipeError:
        break
note("#", "GUI closed stdin")
try:
    engine.stdin.close()
except BrokenPipeError:
    pass
thread.join()
note("#", f"engine exited {{engine.wait()}}")
'''


def recipe_section() -> str:
    """The shipped recipe, which must name the engine where `make install` puts it."""
    text = RECIPE.read_text(encoding="utf-8")
    assert text.count(PLACEHOLDER) == 1, f"{RECIPE} must say {PLACEHOLDER!r} once"
    return text


def difficulty_options(text: str, difficulty: str) -> list[str]:
    """The `setoption` lines GNOME Chess makes of the recipe's option-DIFFICULTY-N lines (chess-engine-uci.vala:
    the last word is the value, the words before it the name)."""
    lines = sorted((int(n), value) for n, value in re.findall(rf"^option-{difficulty}-(\d+)=(.*)$", text, re.M))
    return [f"setoption name {' '.join(v.split()[:-1])} value {v.split()[-1]}" for _, v in lines]


def test_recipe_options_exist_and_are_accepted():
    """Every difficulty's options are the engine's and it takes them (without GNOME Chess)."""
    text = recipe_section()
    assert re.search(r"^\[Jitfish\]$", text, re.M) and re.search(r"^protocol=uci$", text, re.M)
    with running_engine() as engine:
        for difficulty in ("easy", "normal", "hard"):
            commands = difficulty_options(text, difficulty)
            assert commands, f"no option-{difficulty}-N lines in {RECIPE}"
            for command in commands:
                assert not engine.errors_after(command), command


def free_display() -> tuple[subprocess.Popen, str]:
    """An Xvfb server on a display it chose itself (-displayfd) and the display's name."""
    read, write = os.pipe()
    server = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number.isdigit(), f"Xvfb did not start (exit code {server.poll()})"
    return server, f":{number}"


def stop_group(process: subprocess.Popen) -> None:
    """End a process started in its own session, and everything it started there."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait(timeout=10)


def traffic(path: Path) -> list[tuple[float, str, str]]:
    if not path.exists():
        return []
    entries = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        at, kind, text = raw.strip().split(" ", 2) if raw.strip().count(" ") >= 2 else (*raw.strip().split(" ", 1), "")
        entries.append((float(at), kind, text))
    return entries


@needs_gnome_chess
@pytest.mark.parametrize("late_uciok", [False, True], ids=["prompt", "late-uciok"])
def test_gnome_chess_plays_the_first_move_with_the_recipe(tmp_path, late_uciok):
    home = tmp_path / "home"
    config = home / ".config"
    (config / "gnome-chess").mkdir(parents=True)
    (config / "glib-2.0" / "settings").mkdir(parents=True)
    log = tmp_path / "traffic.log"
    proxy = tmp_path / "jitfish-logged"
    proxy.write_text(f"#!{sys.executable}\n" + PROXY.format(log=str(log), engine=ENGINE_COMMAND, hold=late_uciok),
                     encoding="utf-8")
    proxy.chmod(0o755)
    # As docs/gui.md says: the system's engines first, then the recipe with the absolute binary.
    system = SYSTEM_ENGINES.read_text(encoding="utf-8") if SYSTEM_ENGINES.exists() else ""
    recipe = recipe_section().replace(PLACEHOLDER, f"binary={proxy}")
    (config / "gnome-chess" / "engines.conf").write_text(system + "\n" + recipe, encoding="utf-8")
    # The computer plays White, so it moves first; Jitfish, not the first engine found, is the opponent.
    (config / "glib-2.0" / "settings" / "keyfile").write_text(
        "[org/gnome/Chess]\nplay-as='black'\nopponent='Jitfish'\ndifficulty='easy'\n", encoding="utf-8")

    with running_engine() as engine:          # the kernels compiled, as after `make install`
        engine.warm_up()
    server, display = free_display()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(home / ".local/share"),
           "DISPLAY": display, "GSETTINGS_BACKEND": "keyfile", "G_MESSAGES_DEBUG": "all", "NO_AT_BRIDGE": "1",
           # the engine keeps the user's numba cache
           "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))}
    gui_log = tmp_path / "gnome-chess.log"
    with open(gui_log, "w", encoding="utf-8") as out:
        gui = subprocess.Popen([DBUS, "--", GNOME_CHESS], env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and gui.poll() is None:
            if any(kind == "<" and text.startswith("bestmove") for _, kind, text in traffic(log)):
                break
            time.sleep(0.5)
        time.sleep(1.0)                       # GNOME Chess reads the move and says so in its debug log
    finally:
        stop_group(gui)
        stop_group(server)
    entries = traffic(log)
    shown = "\n".join(f"{at:8.3f} {kind} {text}" for at, kind, text in entries if not text.startswith("info depth"))
    sent = [text for _, kind, text in entries if kind == ">"]
    answers = [(at, text) for at, kind, text in entries if kind == "<"]
    assert sent[:1] == ["uci"], f"GNOME Chess did not start the engine:\n{gui_log.read_text()[-3000:]}\n{shown}"
    for command in difficulty_options(recipe, "easy"):
        assert command in sent, f"{command!r} not sent:\n{shown}"
    gos = [(at, text) for at, kind, text in entries if kind == ">" and text.startswith("go")]
    assert gos and gos[0][1].split() == ["go", "wtime", "30000", "btime", "30000"], shown
    if late_uciok:                            # the case the engine once refused the options in
        assert sent.index(gos[0][1]) < sent.index(difficulty_options(recipe, "easy")[0]), shown
    bestmoves = [(at, text) for at, text in answers if text.startswith("bestmove")]
    assert bestmoves, f"no bestmove within {START_TIMEOUT} s:\n{shown}"
    move = bestmoves[0][1].split()[1]
    assert chess.Move.from_uci(move) in chess.Board().legal_moves, shown
    assert bestmoves[0][0] - gos[0][0] < PATIENCE, shown
    assert not [text for _, text in answers if text.startswith("info string error")], shown
    assert f"Engine moves {move}" in gui_log.read_text(encoding="utf-8", errors="replace"), "GNOME Chess did not take it"
