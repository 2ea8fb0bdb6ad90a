"""The recipes of docs/gui.md, run for real where the tool is on this machine.

- The python-chess snippet is read out of docs/gui.md (the fenced block after its `recipe:` marker)
  and run as a script against the engine, so the document cannot drift from what works.
- A PolyGlot session (the xboard protocol, translated to UCI) is played with the committed
  `recipes/jitfish.ini`, started as the README and docs/gui.md say; skipped when `polyglot` is not
  installed.
- cutechess-cli, fastchess and lichess-bot are not run here: the options their recipes give
  Jitfish, the PolyGlot file's `[Engine]` options, and the options of the configurations these
  tools ship or are typically run with (REAL_WORLD_OPTIONS: lichess-bot's `config.yml.default`
  among them) are checked against the engine's own `uci` option list (names, types, ranges), then
  sent to the engine, which must accept every one; the start-up is checked against the tools'
  time limits.
- lichess-bot's way of driving an engine (its engine_wrapper.py: the shipped `uci_options` through
  python-chess's `configure`, ponder on, a fixed time for the first move, then clocked `play`
  calls with its own overhead taken off) is reproduced with python-chess for a game's first moves.
"""

from __future__ import annotations

import configparser
import logging
import os
import queue
import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from tests.helpers import seed
from tests.uci_driver import ENGINE_COMMAND, ROOT, running_engine

README = ROOT / "README.md"
GUI_DOC = ROOT / "docs" / "gui.md"              # where the recipes live
POLYGLOT_INI = ROOT / "recipes" / "jitfish.ini"
INSTALLED_ENGINE = ".venv/bin/jitfish"          # what `make install` creates, relative to the checkout
SNIPPET_PATH_LINE = 'JITFISH = "/path/to/jitfish/.venv/bin/jitfish"'
# The tools' limits docs/gui.md quotes: fastchess's strictest wait for `uciok` (5 s in some releases),
# python-chess's for `uciok` and on top of a search (10 s), cutechess's for a ping (15 s).
UCIOK_LIMIT = 5.0
READYOK_LIMIT = 10.0
FORCED_CASTLING_960 = "k4r2/8/8/8/8/7p/7P/6KR w H - 0 1"   # white's only legal move: O-O (g1h1)
# The `engine: uci_options:` of lichess-bot's config.yml.default (lichess-bot 2026.8.2.1), which most
# bot owners start from, and its `move_overhead` (ms lichess-bot takes off the clock it passes on).
LICHESS_BOT_UCI_OPTIONS = {"Move Overhead": "100", "Threads": "4", "Hash": "512", "SyzygyPath": "./syzygy/",
                           "UCI_ShowWDL": "true"}
LICHESS_BOT_MOVE_OVERHEAD = 2.0
# What these tools are typically told to give an engine: their shipped defaults, and the option
# settings of the command lines people run (cutechess-cli's `ponder` sends Ponder; both tools send
# UCI_Chess960 for Chess960). Values as the tools write them.
REAL_WORLD_OPTIONS = {
    "lichess-bot config.yml.default": LICHESS_BOT_UCI_OPTIONS,
    "cutechess-cli, fishtest-style (option.Hash=16 option.Threads=1)": {"Hash": "16", "Threads": "1"},
    "cutechess-cli, rating-list style with ponder (option.Hash=256 option.Threads=4 ponder)":
        {"Hash": "256", "Threads": "4", "Ponder": "true"},
    "cutechess-cli -variant fischerandom": {"UCI_Chess960": "true", "Hash": "128"},
    "Cute Chess GUI, an engine for a long tournament": {"Hash": "4096", "Threads": "16", "Move Overhead": "1000",
                                                        "SyzygyPath": "/syzygy/3-4-5:/syzygy/6-7", "MultiPV": "1"},
    "fastchess, OpenBench-style SPRT (option.Hash=8 option.Threads=1)": {"Hash": "8", "Threads": "1"},
    "fastchess, SMP test (option.Threads=8 option.Hash=64)": {"Threads": "8", "Hash": "64"},
    "fastchess -variant fischerandom": {"UCI_Chess960": "true", "Hash": "16"},
    "a Stockfish configuration reused (UCI_Elo up to 3190, Skill Level)":
        {"UCI_LimitStrength": "true", "UCI_Elo": "2850", "Skill Level": "20", "Threads": "1024", "Hash": "33554432"},
}
XBOARD_TIMEOUT = 30.0                                        # for any one reply of the PolyGlot session


@pytest.fixture(scope="module", autouse=True)
def warm_cache() -> None:
    """The recipes start from `make install`, which leaves the numba cache warm. After a kernel edit
    the first start compiles for about a minute, which is what the tools' limits forbid; so start
    (and compile) once here, with the driver's allowance, before anything is timed."""
    with running_engine() as engine:
        engine.warm_up()


def recipe_block(name: str) -> str:
    """The fenced code block right after docs/gui.md's `<!-- recipe: NAME ... -->` marker."""
    text = GUI_DOC.read_text(encoding="utf-8")
    markers = re.findall(rf"<!-- recipe: {re.escape(name)}\b[^>]*-->", text)
    assert len(markers) == 1, f"docs/gui.md needs one '<!-- recipe: {name} -->' marker, has {len(markers)}"
    after = text.split(markers[0], 1)[1]
    match = re.match(r"\s*```[\w-]*\n(.*?)\n```", after, re.DOTALL)
    assert match, f"no fenced code block right after the {name!r} marker in docs/gui.md"
    return match.group(1)


# ---- python-chess -------------------------------------------------------------------------------

def test_python_chess_snippet_runs_against_the_engine(tmp_path):
    snippet = recipe_block("python-chess")
    assert snippet.count(SNIPPET_PATH_LINE) == 1, f"the snippet must set the path with {SNIPPET_PATH_LINE!r}"
    script = tmp_path / "snippet.py"
    script.write_text(snippet.replace(SNIPPET_PATH_LINE, f"JITFISH = {ENGINE_COMMAND!r}"), encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path, check=False)
    assert run.returncode == 0, f"the python-chess snippet failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    out = dict(line.split(": ", 1) for line in run.stdout.splitlines() if ": " in line)

    assert re.fullmatch(r"(#[+-]\d+|[+-]?\d+) pv: \S.*", out["score"]), run.stdout
    board = chess.Board()
    board.parse_san(out["move"])                     # raises unless legal in the start position
    board.parse_san(out["move at Elo 1200"])
    number = int(re.search(r"from_chess960_pos\((\d+)\)", snippet).group(1))
    chess.Board.from_chess960_pos(number).parse_san(out["Chess960 move"])


# ---- PolyGlot (xboard protocol) -------------------------------------------------------------------

def polyglot_executable() -> str | None:
    """`polyglot` on the PATH, or where Debian puts it (/usr/games is not on root's PATH)."""
    return shutil.which("polyglot") or shutil.which("polyglot", path="/usr/games")


class XBoardSession:
    """PolyGlot on pipes, spoken to as xboard does; every read has a timeout."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, pattern: str, timeout: float = XBOARD_TIMEOUT) -> re.Match:
        """Read lines until one matches `pattern` (re.fullmatch); its match."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.0))
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} within {timeout} s; "
                                     f"last lines: {self.seen[-15:]}") from None
            if line is None:
                raise AssertionError(f"polyglot closed its output (exit code {self.proc.poll()}) before a "
                                     f"line matching {pattern!r}; last lines: {self.seen[-15:]}")
            self.seen.append(line)
            match = re.fullmatch(pattern, line)
            if match:
                return match

    def engine_move(self, board: chess.Board) -> chess.Move:
        """Wait for `move X`, check X is legal on `board` (coordinates or O-O), play it there."""
        text = self.read_until(r"move (\S+)").group(1)
        try:
            move = board.parse_san(text) if text.startswith("O-O") else board.parse_uci(text)
        except ValueError as error:
            raise AssertionError(f"illegal move {text!r} from polyglot at {board.fen()}: {error}") from None
        board.push(move)
        return move

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=5)


def test_polyglot_ini_starts_what_make_install_creates():
    ini = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    ini.optionxform = str
    ini.read(POLYGLOT_INI, encoding="utf-8")
    assert ini["PolyGlot"]["EngineDir"] == "."
    assert ini["PolyGlot"]["EngineCommand"] == INSTALLED_ENGINE
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    venv = re.search(r"^VENV := (\S+)$", makefile, re.MULTILINE).group(1)
    assert INSTALLED_ENGINE == f"{venv}/bin/jitfish"
    assert re.search(r'^jitfish = "jitfish\.cli:main"$', (ROOT / "pyproject.toml").read_text(), re.MULTILINE)
    # docs/gui.md shows the file as it is; it and the README's one-line summary give the command.
    assert recipe_block("polyglot-ini") == POLYGLOT_INI.read_text(encoding="utf-8").rstrip("\n")
    for doc in (README, GUI_DOC):
        assert 'xboard -fcp "polyglot recipes/jitfish.ini"' in doc.read_text(encoding="utf-8"), doc


def test_gnome_chess_recipe_is_shown_as_shipped():
    """docs/gui.md shows recipes/gnome-chess-engines.conf as it is (tests/test_gnome_chess.py runs it)."""
    shipped = (ROOT / "recipes" / "gnome-chess-engines.conf").read_text(encoding="utf-8").rstrip("\n")
    assert recipe_block("gnome-chess-engines-conf") == shipped
    assert "binary=/path/to/jitfish/.venv/bin/jitfish" in shipped


def test_polyglot_session_plays_legal_moves():
    polyglot = polyglot_executable()
    if polyglot is None:
        pytest.skip("polyglot is not installed (Debian: apt install polyglot)")
    # As docs/gui.md says: from the checkout, `polyglot recipes/jitfish.ini`. Only when the engine under
    # test is not the checkout's installed one (another venv, $JITFISH_ENGINE) is its command given.
    command = [polyglot, "recipes/jitfish.ini"]
    if ENGINE_COMMAND != [str(ROOT / INSTALLED_ENGINE)]:
        command += ["-ec", shlex.join(ENGINE_COMMAND)]
    session = XBoardSession(command, cwd=ROOT)
    try:
        session.send("xboard", "protover 2")
        session.read_until(r"feature .*done=1.*")
        features = "\n".join(session.seen)
        assert 'feature myname="Jitfish"' in features
        assert re.search(r'feature variants="[^"]*\bfischerandom\b', features), features
        # The ini's [Engine] section reached the engine: Move Overhead shows its value, not the default 20.
        assert 'feature option="Move Overhead -spin 50 0 5000"' in features, features

        # A standard game: the engine answers as black, then again after our reply.
        board = chess.Board()
        session.send("new", "st 1", "usermove e2e4")
        board.push_uci("e2e4")
        session.engine_move(board)
        reply = min(board.legal_moves, key=lambda m: m.uci())
        board.push(reply)
        session.send(f"usermove {reply.uci()}")
        session.engine_move(board)

        # Chess960 through `variant fischerandom` (PolyGlot sets UCI_Chess960): the only legal move
        # is castling, so the engine's king-takes-rook g1h1 must come back as O-O.
        board = chess.Board(FORCED_CASTLING_960, chess960=True)
        session.send("new", "variant fischerandom", f"setboard {FORCED_CASTLING_960}", "st 1", "go")
        assert session.engine_move(board).uci() == "g1h1"
    finally:
        session.close()


# ---- cutechess-cli, fastchess, lichess-bot: the options they give Jitfish ------------------------

def command_options(block: str) -> tuple[list[str], dict[str, str]]:
    """The `cmd=` values and the `option.NAME=VALUE` settings that a cutechess-cli/fastchess command
    gives the Jitfish engine (its own `-engine` group and `-each`)."""
    words = shlex.split(block.replace("\\\n", " "))
    groups: list[list[str]] = []
    each: list[str] = []
    current = None
    for word in words[1:]:
        if word in ("-engine", "-each"):
            current = each if word == "-each" else []
            if word == "-engine":
                groups.append(current)
        elif word.startswith("-"):
            current = None
        elif current is not None:
            current.append(word)
    jitfish = [group for group in groups if any(w.startswith("cmd=") and "jitfish" in w for w in group)]
    assert len(jitfish) == 1, f"one -engine group must start jitfish: {groups}"
    settings = jitfish[0] + each
    commands = [w.removeprefix("cmd=") for w in settings if w.startswith("cmd=")]
    options = dict(w.removeprefix("option.").split("=", 1) for w in settings if w.startswith("option."))
    return commands, options


def lichess_uci_options(block: str) -> tuple[dict[str, str], dict[str, str]]:
    """The `engine:` keys and the `uci_options:` of docs/gui.md's lichess-bot snippet (a small YAML
    subset: `key: value` lines, indentation for nesting, `#` comments)."""
    engine, options, section = {}, {}, None
    for raw in block.splitlines():
        line = re.sub(r'\s+#.*$', "", raw).rstrip()
        if not line.strip() or line.strip() == "engine:":
            continue
        indent = len(line) - len(line.lstrip())
        key, _, value = line.strip().partition(":")
        value = value.strip().strip('"')
        if indent == 2:
            section = key if not value else None
            if value or key == "working_dir":
                engine[key] = value
        elif indent == 4 and section == "uci_options":
            options[key] = value
    return engine, options


def check_option_value(spec: dict, value: str, where: str) -> None:
    """`value` (as a tool writes it) is valid for the engine's option `spec` (from uci_driver)."""
    kind = spec["type"]
    if kind == "spin":
        assert re.fullmatch(r"-?\d+", value), f"{where}: {spec['name']} needs an integer, not {value!r}"
        low, high = int(spec["min"]), int(spec["max"])
        assert low <= int(value) <= high, f"{where}: {spec['name']}={value} is outside {low}..{high}"
    elif kind == "check":
        assert value.lower() in ("true", "false"), f"{where}: {spec['name']} needs true/false, not {value!r}"
    elif kind == "combo":
        assert value in spec["vars"], f"{where}: {spec['name']}={value!r} is not one of {spec['vars']}"
    else:
        assert kind == "string", f"{where}: {spec['name']} is a {kind}, which takes no value"


def test_recipe_options_exist_and_start_up_within_tool_limits():
    with running_engine() as engine:
        options = engine.options
        uciok, readyok = engine.uciok_seconds, engine.readyok_seconds
    assert uciok < UCIOK_LIMIT, f"uciok after {uciok:.2f} s: fastchess may give up on the engine"
    assert readyok < READYOK_LIMIT, f"readyok after {readyok:.2f} s: python-chess and cutechess time out"

    checked = 0
    for tool in ("cutechess-cli", "fastchess"):
        commands, settings = command_options(recipe_block(tool))
        assert commands == [f"$PWD/{INSTALLED_ENGINE}"], f"{tool}: Jitfish's cmd= is {commands}"
        for name, value in settings.items():
            assert name in options, f"{tool}: Jitfish has no option {name!r}"
            check_option_value(options[name], value, tool)
            checked += 1

    engine_keys, uci_options = lichess_uci_options(recipe_block("lichess-bot"))
    assert engine_keys["protocol"] == "uci"
    assert os.path.join(engine_keys["dir"], engine_keys["name"]).endswith(INSTALLED_ENGINE)
    assert uci_options, "the lichess-bot snippet sets no uci_options"
    for name, value in uci_options.items():
        assert name in options, f"lichess-bot: Jitfish has no option {name!r}"
        # lichess-bot silently drops the options python-chess manages itself.
        assert not chess.engine.Option(name, "", None, None, None, None).is_managed(), name
        check_option_value(options[name], value, "lichess-bot")
        checked += 1

    ini = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    ini.optionxform = str
    ini.read(POLYGLOT_INI, encoding="utf-8")
    for name, value in ini["Engine"].items():
        assert name in options, f"recipes/jitfish.ini: Jitfish has no option {name!r}"
        assert not name.startswith("UCI_") and name != "Ponder", f"PolyGlot sets {name} itself"
        check_option_value(options[name], value, "recipes/jitfish.ini")
        checked += 1
    assert checked >= 5


def test_recipe_lichess_bot_keeps_the_shipped_options():
    """docs/gui.md's lichess-bot recipe keeps lichess-bot's shipped `uci_options` as they are."""
    _, uci_options = lichess_uci_options(recipe_block("lichess-bot"))
    assert uci_options == LICHESS_BOT_UCI_OPTIONS


# ---- real-world configurations ------------------------------------------------------------------

def test_real_world_options_are_in_range():
    """What python-chess (so lichess-bot), fastchess and cutechess check on the client side before
    sending: the option exists, with the type and a range that admits the value."""
    with running_engine() as engine:
        options = engine.options
    for where, settings in REAL_WORLD_OPTIONS.items():
        for name, value in settings.items():
            assert name in options, f"{where}: Jitfish has no option {name!r}"
            check_option_value(options[name], value, where)


@pytest.mark.parametrize("where", list(REAL_WORLD_OPTIONS))
def test_real_world_options_are_accepted(where):
    """The engine takes every value (a note where it clamps), and then searches. Hash goes back to
    16 MB before anything could fill a table of gigabytes."""
    settings = REAL_WORLD_OPTIONS[where]
    with running_engine() as engine:
        # Hash last: a level option or Clear Hash after it would zero a table of gigabytes.
        for name, value in sorted(settings.items(), key=lambda item: item[0] == "Hash"):
            engine.send(f"setoption name {name} value {value}")
        notes = engine.sync()
        assert not [n for n in notes if "error" in n], f"{where}: {notes}"
        engine.set_option("Hash", 16)
        engine.board = chess.Board(chess960="UCI_Chess960" in settings)
        search = engine.go("depth 3")
        assert search.bestmove in {engine.board.uci(m) for m in engine.board.legal_moves}


def configured_like_lichess_bot(options: dict[str, str]) -> dict[str, object]:
    """The options as lichess-bot passes them to python-chess's configure (YAML makes numbers
    and booleans; the options python-chess manages are left out)."""
    typed: dict[str, object] = {}
    for name, value in options.items():
        if chess.engine.Option(name, "", None, None, None, None).is_managed():
            continue
        if value in ("true", "false"):
            typed[name] = value == "true"
        else:
            typed[name] = int(value) if value.isdigit() else value
    return typed


def test_lichess_bot_default_setup_plays(tmp_path, caplog):
    """lichess-bot's engine handling, reproduced with python-chess: popen_uci with its 60 s timeout
    in the working directory (no ./syzygy/ there), configure with the shipped uci_options, the
    opponent information, then a game as lichess-bot plays it: `Limit(time=...)` for each side's
    first move (10 s in lichess-bot, 1 s here) without ponder, then clocked limits with
    lichess-bot's 2 s overhead taken off its own clock, ponder on, and an opponent who plays the
    predicted move every other time (ponderhit) and another move otherwise (stop, new search)."""
    rng = random.Random(seed(4711))
    stderr = open(tmp_path / "stderr.txt", "w", encoding="utf-8")
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE_COMMAND, timeout=60.0, setpgrp=True, cwd=tmp_path,
                                                 stderr=stderr)
    try:
        engine.configure(configured_like_lichess_bot(LICHESS_BOT_UCI_OPTIONS))
        engine.send_opponent_information(opponent=chess.engine.Opponent("someone", "BOT", 2100, True),
                                         engine_rating=2000)
        board = chess.Board()
        clock = {chess.WHITE: 10.0, chess.BLACK: 10.0}
        increment = 0.1
        hits = misses = 0
        predicted = None
        for _ in range(24):
            if board.turn == chess.WHITE:                  # the bot
                first = len(board.move_stack) < 2
                if first:
                    limit = chess.engine.Limit(time=1.0, clock_id="first move")
                else:
                    own = max(0.001, clock[chess.WHITE] - LICHESS_BOT_MOVE_OVERHEAD)
                    limit = chess.engine.Limit(white_clock=own, black_clock=clock[chess.BLACK], white_inc=increment,
                                               black_inc=increment, clock_id="real time")
                start = time.perf_counter()
                result = engine.play(board, limit, info=chess.engine.INFO_ALL, ponder=not first, draw_offered=False,
                                     root_moves=None)
                spent = time.perf_counter() - start
                assert result.move in board.legal_moves
                if not first:
                    assert spent < own, f"{spent:.2f} s spent with {own:.2f} s on the clock passed on"
                    clock[chess.WHITE] += increment - spent
                predicted = result.ponder
                board.push(result.move)
            else:                                          # the opponent
                legal = list(board.legal_moves)
                if predicted in legal and hits <= misses:
                    move, hits = predicted, hits + 1
                else:
                    move = rng.choice([m for m in legal if m != predicted] or legal)
                    misses += predicted is not None
                board.push(move)
            if board.is_game_over():
                break
        assert hits and misses, (hits, misses)
        engine.send_game_result(board)
        engine.ping()
    finally:
        engine.quit()
        stderr.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    complaints = [r.getMessage() for r in caplog.records
                  if r.name.startswith("chess.engine") and r.levelno >= logging.WARNING]
    assert not complaints

