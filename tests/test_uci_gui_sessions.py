"""What real desktop GUIs send, replayed: the recorded UCI sessions of GNOME Chess, PyChess, Scid and
xboard through PolyGlot (shared data `gui-sessions/*.log`, its README says how they were recorded; and
tests/data/gui-sessions, recorded the same way for this project), and PyChess's level settings as its
source sends them.

Each session's `>` lines go to the engine in their order. Where the GUI had waited for an answer
(`uciok`, `readyok`, `bestmove` came before its next line) the replay waits for the same answer;
otherwise it pauses as the GUI did, at most MAX_PAUSE (a GUI's minute of analysis is not needed to
check the protocol). When the GUI closed the engine's input the replay does too. Then: every `go`
got exactly one `bestmove`, legal (with its ponder move) in the position of that `go`, and every
`info` line's moves were legal there; every clocked `go` was answered within its clock; every
option was accepted; the only errors answer the commands that were wrong (PyChess once sent a FEN
followed by a move already played in it), the only warning the one xboard's default `egtpath` draws;
the engine exited with status 0.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

import chess
import pytest

from tests.helpers import data_dir
from tests.uci_driver import READY_TIMEOUT, ROOT, UciEngine, check_moves, running_engine

SHARED_SESSIONS = data_dir() / "gui-sessions"
OWN_SESSIONS = ROOT / "tests" / "data" / "gui-sessions"       # its README says what each is
SESSION_FILES = [SHARED_SESSIONS / name for name in ("gnome.log", "pychess.log", "scid.log", "xboard-polyglot.log")]
SESSION_FILES += [OWN_SESSIONS / name for name in ("gnome-chess-white.log", "pychess-level8.log")]
# The strength a session's options leave in force (the replay turns `debug on` first, so that the engine says it).
EXPECTED_STRENGTH = {"gnome-chess-white.log": 800,      # GNOME Chess's Easy in recipes/gnome-chess-engines.conf
                     "pychess-level8.log": 1516}        # PyChess's level 8: UCI_Elo 1516 (and Skill Level 8)
ENTRY = re.compile(r"^\s*(\d+\.\d+) ([<>#]) ?(.*)$")
ANSWERS = ("uciok", "readyok", "bestmove")        # what a GUI waits for before it goes on
MAX_PAUSE = 0.2                                   # seconds: the longest pause kept between two GUI lines
ANSWER_TIMEOUT = 60.0
# The warnings a session may draw, by the command that draws them: xboard's default `egtpath`
# reaches the engine as `SyzygyPath /EGT/Syzygy`, a folder that does not exist here.
EXPECTED_WARNINGS = {"setoption name SyzygyPath value /EGT/Syzygy": "SyzygyPath folder '/EGT/Syzygy' not found"}
GNOME_CHESS_PATIENCE = 30.0                       # seconds GNOME Chess waits for a move, then gives up


@dataclass
class Entry:
    at: float                 # seconds since the engine started
    kind: str                 # ">" from the GUI, "<" from the engine, "#" a note
    text: str


def read_session(path: Path) -> list[Entry]:
    """A recorded session; `<checkout>` (the repository the recording ran from) becomes this one."""
    entries, name = [], path.name
    for raw in path.read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(raw)
        assert match, f"{name}: unreadable line {raw!r}"
        at, kind, text = match.groups()
        entries.append(Entry(float(at), kind, text.replace("<checkout>", str(ROOT))))
    return entries


def position_after(command: str, chess960: bool) -> chess.Board | None:
    """The position a `position` command sets, as python-chess has it; None when it is invalid."""
    words = command.split()
    at = words.index("moves") if "moves" in words else len(words)
    try:
        if words[1] == "startpos":
            board = chess.Board(chess960=chess960)
        else:
            board = chess.Board(" ".join(words[2:at]), chess960=chess960)
        for move in words[at + 1:]:
            board.push(board.parse_uci(move))
    except (IndexError, ValueError):
        return None
    return board


@dataclass
class Replay:
    """A GUI's lines fed to an engine, and everything the engine answered."""
    engine: UciEngine
    seen: Counter = field(default_factory=Counter)        # answers (ANSWERS) received so far
    lines: list[str] = field(default_factory=list)
    searches: deque = field(default_factory=deque)        # (go line, its position, when sent) awaiting bestmove
    answered: list[tuple[str, float]] = field(default_factory=list)   # (go line, seconds to its bestmove)
    board: chess.Board = field(default_factory=chess.Board)
    chess960: bool = False
    invalid: list[str] = field(default_factory=list)      # commands python-chess refuses too
    problems: list[str] = field(default_factory=list)     # the warnings and errors
    sent: list[str] = field(default_factory=list)         # the GUI's lines sent so far

    def __post_init__(self) -> None:
        self.engine.board = None          # the replay checks moves itself, against each go's position

    def take(self, timeout: float) -> bool:
        """Read one engine line (False when none came within `timeout`) and check it."""
        try:
            line = self.engine.read(timeout)
        except TimeoutError:
            return False
        text = line.text
        self.lines.append(text)
        words = text.split()
        if words and words[0] in ANSWERS:
            self.seen[words[0]] += 1
        if words[:1] == ["bestmove"]:
            assert self.searches, f"a bestmove without a go: {text!r}"
            command, board, sent = self.searches.popleft()
            self.answered.append((command, line.at - sent))
            if words[1] != "0000":
                check_moves(board, words[1::2], f"{text} (for {command!r} at {board.fen()})")
            else:
                assert not any(board.legal_moves), f"{text!r} at {board.fen()}"
        elif text.startswith(("info string error", "info string warning")):
            self.problems.append(text)
        elif words[:1] == ["info"] and words[1:2] != ["string"] and self.searches:
            pv = words[words.index("pv") + 1:] if "pv" in words else []
            check_moves(self.searches[0][1], pv, text)
        return True

    def drain(self) -> None:
        while self.take(0.0):
            pass

    def wait_for(self, expected: Counter) -> None:
        """Read until the engine has given every answer the GUI had seen."""
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while any(self.seen[kind] < count for kind, count in expected.items()):
            left = deadline - time.monotonic()
            assert left > 0, f"no {dict(expected)} within {ANSWER_TIMEOUT} s; got {dict(self.seen)}"
            self.take(left)

    def send(self, command: str) -> None:
        self.drain()
        self.sent.append(command)
        words = command.split()
        if words[:1] == ["position"]:
            board = position_after(command, self.chess960)
            if board is None:
                self.invalid.append(command)
            else:
                self.board = board
        elif words[:4] == ["setoption", "name", "UCI_Chess960", "value"]:
            self.chess960 = words[4:] == ["true"]
        sent = self.engine.send(command)
        if words[:1] == ["go"] and words[1:2] != ["perft"]:
            self.searches.append((command, self.board.copy(), sent))

    def finish(self) -> int:
        """Close the engine's input as the GUI did; read to the end; the exit status."""
        self.engine.proc.stdin.close()
        try:
            while True:
                self.take(ANSWER_TIMEOUT)
        except EOFError:
            pass
        return self.engine.proc.wait(timeout=10)


def replay(entries: list[Entry], replay: Replay) -> None:
    """Send the GUI's lines of `entries` as the GUI did (waiting where it waited, pauses cut to
    MAX_PAUSE), up to the GUI closing the engine's input."""
    expected: Counter = Counter()
    previous = None
    for entry in entries:
        if entry.kind == "<":
            word = entry.text.split()[0] if entry.text.split() else ""
            if word in ANSWERS:
                expected[word] += 1
            continue
        if entry.kind == "#":
            if "closed stdin" in entry.text:
                break
            continue
        replay.wait_for(expected)
        if previous is not None:
            time.sleep(min(max(entry.at - previous, 0.0), MAX_PAUSE))
        previous = entry.at
        replay.send(entry.text)
    replay.wait_for(expected)             # what the GUI saw before it closed the engine's input


def check_answers(name: str, replay: Replay, status: int) -> None:
    assert status == 0, f"{name}: the engine exited with {status}"
    assert not replay.searches, f"{name}: go without a bestmove: {[s[0] for s in replay.searches]}"
    gos = [line for line in replay.sent if line.split()[:1] == ["go"] and line.split()[1:2] != ["perft"]]
    assert len(replay.answered) == len(gos) > 0
    for command, seconds in replay.answered:
        words = command.split()
        if "wtime" in words and "ponder" not in words and "infinite" not in words:
            clock = min(int(words[words.index(side) + 1]) for side in ("wtime", "btime") if side in words)
            assert seconds < clock / 1000, f"{name}: {command!r} answered after {seconds:.2f} s"
    errors = [text for text in replay.problems if text.startswith("info string error")]
    assert len(errors) == len(replay.invalid), f"{name}: errors {errors} for the invalid commands {replay.invalid}"
    assert all(text.endswith("position unchanged") for text in errors), errors
    allowed = [warning for command, warning in EXPECTED_WARNINGS.items() if command in replay.sent]
    for text in replay.problems:
        if text.startswith("info string warning"):
            assert any(warning in text for warning in allowed), f"{name}: unexpected {text!r}"


@pytest.fixture(scope="module", autouse=True)
def warm_cache() -> None:
    """The GUIs start the engine after `make install`, which leaves the numba cache warm: compile
    once here (after a kernel edit) before a replay waits on the engine's answers."""
    with running_engine() as engine:
        engine.warm_up()


@pytest.mark.parametrize("path", SESSION_FILES, ids=lambda path: path.name)
def test_recorded_gui_session_replays(path):
    name = path.name
    entries = read_session(path)
    sent = [entry.text for entry in entries if entry.kind == ">"]
    assert sent and any(line.startswith("go") for line in sent), f"{name} has no go to replay"
    with UciEngine() as engine:
        session = Replay(engine)
        engine.send("debug on")
        replay(entries, session)
        if "quit" not in session.sent:    # a last command: what waited for the search's end is done
            engine.send("isready")
            session.wait_for(Counter({**session.seen, "readyok": session.seen["readyok"] + 1}))
        status = session.finish()
    check_answers(name, session, status)
    assert session.seen["uciok"] == 1 and session.seen["readyok"] >= 1, dict(session.seen)
    if name in EXPECTED_STRENGTH:
        strength = [text for text in session.lines if text.startswith("info string strength:")]
        assert strength and strength[-1].startswith(f"info string strength: Elo {EXPECTED_STRENGTH[name]} "), strength
    if name.startswith("gnome"):
        # GNOME Chess always sends `go wtime 30000 btime 30000` and gives up on a move after 30 s.
        assert all(seconds < GNOME_CHESS_PATIENCE for _, seconds in session.answered), session.answered
    assert "Traceback" not in engine.stderr, engine.stderr[-3000:]


# ---- PyChess's levels ---------------------------------------------------------------------------------

PYCHESS_GAME_MS = 300_000          # a 5-minute game


def pychess_level_commands(level: int, options: dict[str, dict]) -> list[str]:
    """What PyChess 1.0.3 sends a UCI engine after `uciok` to start a 5-minute game at `level` (0..20),
    up to its first `go` (Players/UCIEngine.py: setOptionStrength, setOptionTime, _searchNow): up to
    level 18 UCI_LimitStrength and UCI_Elo = the advertised minimum + level x (maximum - minimum) / 20,
    always Skill Level = level, Ponder from level 19; the clock shrunk by 0.01 x 10^(level / 10) below
    level 20; `go depth <level>` up to level 3."""
    commands = []
    if level <= 18:
        low, high = int(options["UCI_Elo"]["min"]), int(options["UCI_Elo"]["max"])
        commands += ["setoption name UCI_LimitStrength value true",
                     f"setoption name UCI_Elo value {int(low + level * (high - low) / 20)}"]
    commands += [f"setoption name Skill Level value {level}",
                 f"setoption name Ponder value {'true' if level >= 19 else 'false'}", "isready",
                 "ucinewgame", "position startpos"]
    clock = PYCHESS_GAME_MS if level == 20 else int(max(PYCHESS_GAME_MS * 0.01 * 10 ** (level / 10), 1))
    commands.append(f"go depth {level}" if level <= 3 else f"go wtime {clock} winc 0 btime {clock} binc 0")
    return commands


@pytest.mark.parametrize("level, elo", [(8, 1516), (0, 400), (3, 818), (18, 2911), (19, 2252), (20, 2350)])
def test_pychess_level_plays_at_its_uci_elo(level, elo):
    """PyChess's level 8 asks for UCI_Elo 1516 (and Skill Level 8): with UCI_LimitStrength on, UCI_Elo
    decides, as in Stockfish (it played the weaker of the two, Skill Level 8's 1180, until 2026-11-27).
    Levels 19 and 20 send Skill Level alone (19 is Elo 2252 on Jitfish's scale, 20 full strength). The
    strength in force is what the engine says with `debug on`; level 8 then plays its first move."""
    with running_engine() as engine:
        engine.board = None
        engine.send("debug on")
        commands = pychess_level_commands(level, engine.options)
        search = level == 8
        for command in commands if search else commands[:-1]:
            engine.send(command)
        lines = [line.text for line in engine.read_until("bestmove" if search else "readyok", READY_TIMEOUT)]
        lines += engine.sync() if not search else []
    strength = [text for text in lines if text.startswith("info string strength:")]
    assert strength, lines
    assert re.match(rf"info string strength: Elo {elo} from ", strength[-1]), strength
    assert not [text for text in lines if "error" in text], lines
    if search:
        chess.Board().parse_uci(lines[-1].split()[1])         # a legal first move
