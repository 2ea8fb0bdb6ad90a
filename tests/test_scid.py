"""Scid (Debian's scid) analysing with Jitfish, for real: Scid runs under Xvfb in a temporary HOME whose
engine list (~/.scid4.7/config/engines.dat, what Tools -> Analysis Engine... -> New... writes) holds
Jitfish as a UCI engine, as docs/gui.md says to add it; its binary is a proxy that logs the UCI traffic
(tests/desktop_gui.py). F2 opens the first engine's analysis, F4 starts it (`go infinite`) and, pressed
again, stops it: the engine must analyse with legal lines and answer the `stop` with a legal move.
"""

from __future__ import annotations

import subprocess
import time

import chess

from tests import desktop_gui
from tests.uci_driver import running_engine

ENGINES_DAT = """\
engine {{
  Name Jitfish
  Cmd  {command}
  Args {{}}
  Dir  .
  Elo  0
  Time 0
  URL  {{}}
  UCI 1
  UCIoptions {{}}
}}
"""
STEP_TIMEOUT = 60.0             # for each of Scid's steps on a busy machine
CLICK_AT = ("200", "500")       # below the board, on the game's information: nothing happens there


def wait_for(log, predicate, gui: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT
    while time.monotonic() < deadline and gui.poll() is None:
        if any(predicate(kind, text) for _, kind, text in desktop_gui.traffic(log)):
            return
        time.sleep(0.3)
    raise AssertionError(f"no {what} within {STEP_TIMEOUT} s:\n{desktop_gui.shown(desktop_gui.traffic(log))}")


def key(env: dict[str, str], name: str, click: bool = True) -> None:
    """A key to Scid's main window, where F2 and F4 are bound: first a click on the game's
    information below the board (in the layout of a new user) gives the window the keyboard."""
    if click:
        subprocess.run(["xdotool", "mousemove", *CLICK_AT, "click", "1"], env=env, check=True)
        time.sleep(0.3)
    subprocess.run(["xdotool", "key", name], env=env, check=True)


@desktop_gui.needs("scid", "scid")
@desktop_gui.needs("xdotool", "xdotool")
def test_scid_analyses_with_the_engine(tmp_path):
    home = tmp_path / "home"
    (home / ".scid4.7" / "config").mkdir(parents=True)
    log = tmp_path / "traffic.log"
    proxy = desktop_gui.write_proxy(tmp_path, log)
    (home / ".scid4.7" / "config" / "engines.dat").write_text(ENGINES_DAT.format(command=proxy), encoding="utf-8")

    with running_engine() as engine:          # the kernels compiled, as after `make install`
        engine.warm_up()
    server, display = desktop_gui.free_display()
    env = desktop_gui.gui_environment(home, display)
    gui, gui_log = desktop_gui.start_gui([desktop_gui.program("scid")], env, tmp_path)
    try:
        deadline = time.monotonic() + STEP_TIMEOUT
        while time.monotonic() < deadline and gui.poll() is None and subprocess.run(
                ["xdotool", "search", "--name", "^Scid - "], env=env, capture_output=True, check=False).returncode:
            time.sleep(0.5)
        time.sleep(2.0)                       # the main window takes its keys once it is drawn
        key(env, "F2", click=False)          # the main window has the keyboard at the start
        wait_for(log, lambda kind, text: kind == "<" and text == "uciok", gui, "uciok")
        time.sleep(1.0)
        key(env, "F4")
        wait_for(log, lambda kind, text: kind == "<" and text.startswith("info depth") and " pv " in text, gui,
                 "analysis line")
        time.sleep(1.0)
        key(env, "F4")
        wait_for(log, lambda kind, text: kind == "<" and text.startswith("bestmove"), gui, "bestmove")
    finally:
        desktop_gui.stop_group(gui)
        desktop_gui.stop_group(server)
    entries = desktop_gui.traffic(log)
    shown = desktop_gui.shown(entries)
    sent = [text for _, kind, text in entries if kind == ">"]
    answers = [text for _, kind, text in entries if kind == "<"]
    assert sent[0] == "uci" and "go infinite" in sent and "stop" in sent, shown
    position = sent[sent.index("go infinite") - 1]
    assert position.split()[:2] == ["position", "startpos"], shown
    board = chess.Board()
    for text in answers:
        words = text.split()
        if words[:2] == ["info", "depth"] and "pv" in words:
            line = board.copy()
            for move in words[words.index("pv") + 1:]:
                line.push(line.parse_uci(move))          # ValueError: an illegal move in the line
        elif words[:1] == ["bestmove"]:
            assert chess.Move.from_uci(words[1]) in board.legal_moves, text
    assert not [text for text in answers if text.startswith("info string error")], shown
    assert gui_log.exists()
