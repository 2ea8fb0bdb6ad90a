"""Desktop GUIs (Debian's packages) for real, for the recipe tests: a virtual X display (Xvfb), the GUI
in its own session (ended with everything it started), and a proxy in place of the engine's binary
that starts the engine and logs the UCI traffic in the format of the shared data's gui-sessions
(`>` from the GUI, `<` from the engine, seconds since the engine started).

Without the GUI, Xvfb or dbus-run-session a test skips (`needs`), except under CI (CI=true), where
.ci/run installs them first and their absence is a failure.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.uci_driver import ENGINE_COMMAND

# The proxy: every line, with its time, to the log. With HOLD it passes the engine's lines on only
# once the GUI has sent its first `go` (at most 20 s): an engine whose `uciok` the GUI reads late.
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


def program(name: str) -> str | None:
    """`name` on the PATH or in /usr/games (not on root's PATH)."""
    return shutil.which(name) or shutil.which(name, path="/usr/games")


XVFB, DBUS = program("Xvfb"), program("dbus-run-session")


def needs(gui: str, package: str) -> pytest.MarkDecorator:
    """Skip unless `gui`, Xvfb and dbus-run-session are installed (under CI: fail)."""
    missing = ", ".join(name for name, path in [(gui, program(gui)), ("Xvfb", XVFB), ("dbus-run-session", DBUS)]
                        if path is None) or None
    if missing and os.environ.get("CI") == "true":
        pytest.fail(f"the {gui} test cannot run under CI: {missing} missing", pytrace=False)
    return pytest.mark.skipif(missing is not None, reason=f"{missing} not installed "
                              f"(Debian: apt install {package} xvfb dbus-daemon)")


def write_proxy(folder: Path, log: Path, hold: bool = False) -> Path:
    """An executable that stands for the engine's binary: it starts the engine under test and logs."""
    proxy = folder / "jitfish-logged"
    proxy.write_text(f"#!{sys.executable}\n" + PROXY.format(log=str(log), engine=ENGINE_COMMAND, hold=hold),
                     encoding="utf-8")
    proxy.chmod(0o755)
    return proxy


def traffic(path: Path) -> list[tuple[float, str, str]]:
    """The proxy's log as (seconds, kind, text)."""
    if not path.exists():
        return []
    entries = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        at, kind, *text = raw.strip().split(" ", 2)
        entries.append((float(at), kind, text[0] if text else ""))
    return entries


def shown(entries: list[tuple[float, str, str]]) -> str:
    """The traffic without the search's progress lines, for an assertion's message."""
    return "\n".join(f"{at:8.3f} {kind} {text}" for at, kind, text in entries
                     if not text.startswith(("info depth", "info currmove", "option name")))


def free_display() -> tuple[subprocess.Popen, str]:
    """An Xvfb server on a display it chose itself (-displayfd), and the display's name."""
    read, write = os.pipe()
    server = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    assert number.isdigit(), f"Xvfb did not start (exit code {server.poll()})"
    return server, f":{number}"


def start_gui(command: list[str], env: dict[str, str], folder: Path) -> tuple[subprocess.Popen, Path]:
    """The GUI in a D-Bus session of its own, in its own process group; its output goes to a file."""
    output = folder / "gui.log"
    with open(output, "w", encoding="utf-8") as out:
        gui = subprocess.Popen([DBUS, "--", *command], env=env, cwd=folder, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)
    return gui, output


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


def gui_environment(home: Path, display: str) -> dict[str, str]:
    """A fresh user for the GUI (HOME, XDG folders in `home`) on `display`; the engine keeps the
    user's numba cache (XDG_CACHE_HOME), as after `make install`."""
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "DISPLAY": display, "NO_AT_BRIDGE": "1",
            "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))}
