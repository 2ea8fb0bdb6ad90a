"""GNOME Chess (Debian's gnome-chess) with the shipped recipe, for real: the GUI runs under Xvfb with
`recipes/gnome-chess-engines.conf` appended to a copy of the system's engines.conf as its
`~/.config/gnome-chess/engines.conf` (in a temporary HOME), set (by GSettings' keyfile backend) to
let the computer play White at a difficulty; the recipe's binary is a proxy that logs the UCI
traffic and starts the engine (tests/desktop_gui.py). The engine must get the handshake, the
difficulty's options, a `go wtime 30000 btime 30000`, and answer it with a legal first move in time,
which GNOME Chess takes (its debug log says "Engine moves ..."): also when GNOME Chess reads `uciok`
late and sends the options during that search, and on a fresh install whose kernels are not
compiled yet (an empty cache: the engine compiles in the background and moves meanwhile).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import chess
import pytest

from tests import desktop_gui
from tests.test_first_start import kill_compilers
from tests.uci_driver import ROOT, running_engine

RECIPE = ROOT / "recipes" / "gnome-chess-engines.conf"
SYSTEM_ENGINES = Path("/etc/gnome-chess/engines.conf")
PLACEHOLDER = "binary=/path/to/jitfish/.venv/bin/jitfish"
PATIENCE = 30.0                  # GNOME Chess gives up on a move after 30 s ("the computer player is confused")
START_TIMEOUT = 120.0            # the GUI's start on a busy machine, then the engine's first move


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


@desktop_gui.needs("gnome-chess", "gnome-chess")
@pytest.mark.parametrize("late_uciok, cold", [(False, False), (True, False), (False, True)],
                         ids=["prompt", "late-uciok", "fresh-install"])
def test_gnome_chess_plays_the_first_move_with_the_recipe(tmp_path, late_uciok, cold):
    home = tmp_path / "home"
    config = home / ".config"
    (config / "gnome-chess").mkdir(parents=True)
    (config / "glib-2.0" / "settings").mkdir(parents=True)
    log = tmp_path / "traffic.log"
    proxy = desktop_gui.write_proxy(tmp_path, log, hold=late_uciok)
    # As docs/gui.md says: the system's engines first, then the recipe with the absolute binary.
    system = SYSTEM_ENGINES.read_text(encoding="utf-8") if SYSTEM_ENGINES.exists() else ""
    recipe = recipe_section().replace(PLACEHOLDER, f"binary={proxy}")
    (config / "gnome-chess" / "engines.conf").write_text(system + "\n" + recipe, encoding="utf-8")
    # The computer plays White, so it moves first; Jitfish, not the first engine found, is the opponent.
    (config / "glib-2.0" / "settings" / "keyfile").write_text(
        "[org/gnome/Chess]\nplay-as='black'\nopponent='Jitfish'\ndifficulty='easy'\n", encoding="utf-8")

    if not cold:
        with running_engine() as engine:      # the kernels compiled, as after `make install`
            engine.warm_up()
    server, display = desktop_gui.free_display()
    env = {**desktop_gui.gui_environment(home, display), "GSETTINGS_BACKEND": "keyfile", "G_MESSAGES_DEBUG": "all"}
    if cold:                                  # nothing compiled for this user yet
        env["XDG_CACHE_HOME"] = str(tmp_path / "empty-cache")
        env.pop("NUMBA_CACHE_DIR", None)
    gui, gui_log = desktop_gui.start_gui([desktop_gui.program("gnome-chess")], env, tmp_path)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and gui.poll() is None:
            if any(kind == "<" and text.startswith("bestmove") for _, kind, text in desktop_gui.traffic(log)):
                break
            time.sleep(0.5)
        time.sleep(1.0)                       # GNOME Chess reads the move and says so in its debug log
    finally:
        desktop_gui.stop_group(gui)
        desktop_gui.stop_group(server)
        if cold:
            kill_compilers(tmp_path / "empty-cache")
    entries = desktop_gui.traffic(log)
    shown = desktop_gui.shown(entries)
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
    if cold:                                  # the quick search's move, while the kernels compiled
        assert any("quick move" in text for _, text in answers), shown
