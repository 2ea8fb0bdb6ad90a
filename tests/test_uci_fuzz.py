"""A seeded fuzzer of the UCI loop through the real executable.

Random valid command sequences (positions reached by random games, every `go` form, every option
with good and absurd values, stop and ponderhit at any time) interleaved with mutated lines
(tokens dropped, duplicated, shuffled, replaced) and hostile ones (random bytes, invalid UTF-8,
100 kB lines, broken and illegal FENs, illegal move lists). After every line: the process is
alive, `isready` is answered (within a second on a quiet machine), stderr holds no traceback and
no line says "internal error"; every `go` gets exactly one `bestmove`, legal (its ponder move too)
in the position the engine reports with `d` right after that `go`.

`make test` runs a short fuzz (FAST_LINES, a few seconds); `make test-slow` a long one
(SLOW_LINES). Each prints how many lines it tried; JITFISH_SEED varies the seed.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import chess
import pytest

from tests.helpers import random_board, seed
from tests.uci_driver import UciEngine, machine_busy, running_engine

FAST_LINES = 1500
SLOW_LINES = 100_000
READY_BOUND = 1.0              # isready after any command, on a quiet machine
GENEROUS_READY_BOUND = 20.0    # on a busy one: a hang, not a slow machine, must fail
ANSWER_TIMEOUT = 30.0          # a stopped search's bestmove
# The loop's commands (jitfish/uci.py): the first token of a line that is one of them is
# the command, the tokens before it are skipped.
COMMANDS = {"uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
            "ponderhit", "quit", "d", "eval", "bench"}

MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
VALID_FENS = [
    chess.STARTING_FEN, MIDDLEGAME, KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",     # en passant
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",                                   # checkmate
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                   # stalemate
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",                                  # in check
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",                                    # promotions
    "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1",                                  # a tablebase ending
    "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1",                            # mate in 1
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",               # castling both ways
]
CHESS960_IDS = [0, 421, 518, 734, 959]
KEYWORDS = ["go", "position", "startpos", "fen", "moves", "setoption", "name", "value", "depth", "nodes",
            "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate", "infinite", "ponder", "searchmoves",
            "stop", "ponderhit", "isready", "ucinewgame", "debug", "on", "off", "d", "eval", "Hash", "MultiPV",
            "Threads", "perft", "uci", "register", "later"]
OPTION_VALUES = {   # valid and absurd values as clients write them (Hash beyond 64 MB: see guarded)
    "Hash": ["1", "8", "16", "64", "0", "-1", "33554433", str(10 ** 30), "x", "16.5"],
    "Threads": ["1", "2", "1024", "0", "1025", "-3", "two"],
    "MultiPV": ["1", "2", "3", "500", "0", "501", "x"],
    "Ponder": ["true", "false", "TRUE", "maybe", "1"],
    "Move Overhead": ["0", "20", "100", "5000", "-1", "5001"],
    "UCI_Chess960": ["true", "false", "yes"],
    "UCI_ShowWDL": ["true", "false"],
    "UCI_LimitStrength": ["true", "false", "false", "2"],
    "UCI_Elo": ["400", "1200", "2000", "3190", "3191", "100", "elo"],
    "Skill Level": ["0", "10", "20", "21", "-1"],
    "Random Seed": ["0", "42", "2147483647", "-1", "2147483648"],
    "SyzygyPath": ["<empty>", "./syzygy/", "/no/such/folder", "/tmp", "a:b:c"],
    "SyzygyProbeLimit": ["0", "5", "7", "8", "-1"],
    "OwnBook": ["true", "false"],
    "Book File": ["<empty>", "/no/such/book.bin", "/dev/null"],
    "Book Best Move": ["true", "false"],
}
GO_PARTS = [
    "depth {small}", "nodes {nodes}", "movetime {ms}", "wtime {ms} btime {ms}", "winc {inc} binc {inc}",
    "movestogo {togo}", "mate {small}", "infinite", "ponder", "searchmoves {moves}",
]


def number(rng: random.Random) -> str:
    """Small, zero, negative, huge or not quite a number."""
    return rng.choice([str(rng.randint(0, 64)), str(-rng.randint(1, 10 ** 6)), str(10 ** rng.randint(5, 30)),
                       str(2 ** 63), str(2 ** 64), "1e9", "1e400", "nan", "0x10", "3.5", "-0", "+7", ""])


def square_pair(rng: random.Random) -> str:
    squares = [f + r for f in "abcdefgh" for r in "12345678"]
    return rng.choice(squares) + rng.choice(squares) + rng.choice(["", "", "", "q", "n", "x"])


@dataclass
class Go:
    """A `go` sent: the position `d` showed right after it, and the bestmove that answered it."""
    line: str
    fen: str | None = None
    chess960: bool | None = None
    bestmove: list[str] | None = None


@dataclass
class Stats:
    lines: Counter = field(default_factory=Counter)       # lines tried, by kind
    gos: int = 0
    answered: int = 0
    errors: int = 0
    warnings: int = 0
    max_ready: float = 0.0
    legal_positions: Counter = field(default_factory=Counter)


class Fuzzer:
    """Generates the lines, sends each with the checks around it, and keeps the accounts."""

    def __init__(self, uci: UciEngine, rng: random.Random) -> None:
        self.uci = uci
        self.rng = rng
        self.stats = Stats()
        self.pending: list[Go] = []          # sent, bestmove not yet seen (oldest first)
        self.needs_fen: list[Go | None] = []  # `d` outputs to come, in order (None: a fuzz line's own `d`)
        self.done: list[Go] = []              # answered, waiting for their `d` position
        self.ready_bound = GENEROUS_READY_BOUND if machine_busy() else READY_BOUND
        self.fens = VALID_FENS + [chess.Board.from_chess960_pos(i).fen() for i in CHESS960_IDS]

    # ---- generating --------------------------------------------------------------------------

    def game_line(self) -> str:
        """`position` with a random game from a known position (sometimes one move illegal)."""
        rng = self.rng
        fen = rng.choice(self.fens)
        chess960 = fen not in VALID_FENS
        board = chess.Board(fen, chess960=chess960)
        moves = []
        for _ in range(rng.choice([0, 1, 2, 5, 10, 30, 80])):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(board.uci(move))
            board.push(move)
        if moves and rng.random() < 0.1:
            moves.insert(rng.randrange(len(moves)), rng.choice([square_pair(rng), "e1g1", "0000", "e2e4", "a7a8q"]))
        head = "position startpos" if fen == chess.STARTING_FEN and rng.random() < 0.5 else f"position fen {fen}"
        return head + (" moves " + " ".join(moves) if moves or rng.random() < 0.05 else "")

    def hostile_fen(self) -> str:
        """A FEN that is broken (syntax) or describes an impossible position."""
        rng = self.rng
        fields = rng.choice(self.fens).split()
        rows = str(chess.Board(" ".join(fields)).board_fen()).split("/")
        kind = rng.randrange(10)
        if kind == 0:        # no king (or none of one side)
            rows = [r.replace("K", "1") if rng.random() < 0.5 else r.replace("k", "1") for r in rows]
        elif kind == 1:      # two kings side by side
            board = chess.Board(None)
            sq = rng.choice([s for s in chess.SQUARES if chess.square_file(s) < 7])
            board.set_piece_at(sq, chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(sq + 1, chess.Piece(chess.KING, chess.BLACK))
            rows = board.board_fen().split("/")
        elif kind == 2:      # the side not to move is in check
            fields = "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1".split() if rng.random() < 0.5 else \
                "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1".split()
            rows = fields[0].split("/")
        elif kind == 3:      # a pawn on the first or last rank
            at = rng.choice([0, 7])
            rows[at] = rng.choice(["P7", "7p", "pppppppp", "3P4"])
        elif kind == 4:      # castling rights without rooks (or without the king at home)
            rows = [r.replace("R", "1").replace("r", "1") for r in rows]
            fields[2] = rng.choice(["KQkq", "K", "q", "AHah", "Kk"])
        elif kind == 5:      # an en-passant square that cannot be
            fields[3] = rng.choice(["e3", "e6", "a1", "h8", "d4", "z9", "-e3"])
        elif kind == 6:      # random placements, valid or not
            return random_board(rng, chess960=rng.random() < 0.2).fen()
        elif kind == 7:      # syntax: missing or extra fields, bad counts and characters
            text = " ".join(fields)
            return rng.choice([text.replace("/", "", 1), text.replace("8", "9", 1), text + " 0 1 extra",
                               " ".join(fields[:rng.randrange(1, 4)]), text.replace(" w ", " x "),
                               text.replace("p", "?", 1), fields[0] + " w - - -1 0",
                               fields[0] + " w - - 0 99999999999"])
        elif kind == 8:      # too many pawns or pieces
            rows[rng.choice([2, 3, 4, 5])] = rng.choice(["PPPPPPPP", "QQQQQQQQ", "pppppppp"])
        else:                # only one side's pieces, kings missing
            rows = ["8"] * 7 + ["RNBQ1BNR"]
        return " ".join(["/".join(rows)] + fields[1:])

    def go_line(self) -> str:
        rng = self.rng
        if rng.random() < 0.05:
            return f"go perft {rng.randint(1, 3)}"
        parts = rng.sample(GO_PARTS, rng.choice([0, 1, 1, 1, 2, 2, 3]))
        text = " ".join(parts).format(
            small=rng.choice([1, 2, 3, 4, 5]), nodes=rng.choice([1, 100, 1000, 5000]),
            ms=rng.choice([0, 10, 30, 100, 1000]), inc=rng.choice([0, 10, 100]), togo=rng.choice([1, 2, 10, 40]),
            moves=" ".join(rng.choice(["e2e4", "d2d4", "g1f3", "e1g1", "e1h1", "a7a8q", square_pair(rng)])
                           for _ in range(rng.randint(0, 4))))
        if rng.random() < 0.15:
            text += " " + rng.choice(["depth", "nodes", "x", "junk tokens", number(rng), "wtime " + number(rng)])
        return f"go {text}".strip()

    def option_line(self) -> str:
        rng = self.rng
        name = rng.choice(list(OPTION_VALUES) + ["Clear Hash", "No Such Option"])
        if name == "Clear Hash":
            return "setoption name Clear Hash"
        value = rng.choice(OPTION_VALUES.get(name, ["1"]) + [number(rng)])
        spelled = name if rng.random() < 0.8 else rng.choice([name.lower(), name.upper(), name.replace(" ", "  ")])
        return f"setoption name {spelled} value {value}" if rng.random() < 0.95 else f"setoption name {spelled}"

    def valid_line(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.30:
            return self.game_line()
        if roll < 0.60:
            return self.go_line()
        if roll < 0.72:
            return self.option_line()
        return rng.choice(["stop", "stop", "ponderhit", "isready", "ucinewgame", "d", "eval", "debug on", "debug off",
                           "uci", "register later", "bench 1", "position startpos"])

    def mutate(self, line: str) -> str:
        rng = self.rng
        tokens = line.split() or ["go"]
        i = rng.randrange(len(tokens))
        kind = rng.randrange(7)
        if kind == 0:
            del tokens[i]
        elif kind == 1:
            tokens.insert(i, tokens[i])
        elif kind == 2:
            rng.shuffle(tokens)
        elif kind == 3:
            tokens[i] = number(rng)
        elif kind == 4:
            tokens.insert(i, rng.choice(KEYWORDS + [square_pair(rng)]))
        elif kind == 5:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens = tokens[:i] + self.valid_line().split()
        return " ".join(tokens)

    def hostile_line(self) -> str | bytes:
        rng = self.rng
        kind = rng.randrange(8)
        if kind == 0:        # random bytes (no line ends: the engine reads \n, \r and \r\n as one)
            alphabet = [b for b in range(256) if b not in (10, 13)]
            return bytes(rng.choice(alphabet) for _ in range(rng.randrange(1, 80)))
        if kind == 1:        # invalid UTF-8 inside a command
            return rng.choice([b"go depth \xff\xfe 2", b"position startpos moves e2e4 \xc3\x28",
                               b"setoption name \x80 value 1",
                               b"\xed\xa0\x80 isready", b"go searchmoves e2e4\xc0\xaf depth 1"])
        if kind == 2:        # 100 kB lines
            unit = rng.choice([self.valid_line(), "x", "go", "moves e2e4", "depth 1", "\u00e9"])
            return " ".join([unit] * (100_000 // (len(unit) + 1)))
        if kind in (3, 4):   # broken and illegal FENs, with moves now and then
            text = f"position fen {self.hostile_fen()}"
            return text + (" moves e2e4 e7e5" if rng.random() < 0.2 else "")
        if kind == 5:        # illegal move lists
            return "position startpos moves " + " ".join(square_pair(rng) for _ in range(rng.randint(1, 6)))
        if kind == 6:        # absurd go
            return "go " + " ".join(rng.choice(KEYWORDS[8:20] + [number(rng), square_pair(rng)])
                                    for _ in range(rng.randint(1, 10)))
        return " ".join(rng.choice(KEYWORDS + [number(rng), square_pair(rng)]) for _ in range(rng.randint(1, 12)))

    def next_line(self) -> tuple[str, str | bytes]:
        roll = self.rng.random()
        if roll < 0.50:
            return "valid", self.valid_line()
        if roll < 0.80:
            return "mutated", self.mutate(self.valid_line())
        return "hostile", self.hostile_line()

    # ---- what the engine will make of a line -------------------------------------------------------

    @staticmethod
    def command_of(line: str | bytes) -> tuple[str | None, list[str]]:
        """The command the loop runs for `line` and its arguments (as UciLoop.handle splits it)."""
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        tokens = text.split()
        for i, token in enumerate(tokens):
            if token in COMMANDS:
                return token, tokens[i + 1:]
        return None, []

    def guarded(self, line: str | bytes) -> str | bytes:
        """The line, unless it would end the process (`quit`), compute for long (a deep perft, a
        full bench) or allocate gigabytes (a Hash of 65 MB up to the advertised maximum): those
        become `d`."""
        command, args = self.command_of(line)
        if command == "quit":
            return "d"
        if command == "bench" and not (args[:1] and args[0].isdigit() and int(args[0]) <= 3):
            return "d"
        if command == "go" and args[:1] == ["perft"] and not (args[1:2] and args[1].isdigit() and int(args[1]) <= 4):
            return "d"
        if command == "setoption" and "value" in args and args[:1] == ["name"]:
            at = args.index("value")
            value = " ".join(args[at + 1:])
            if " ".join(args[1:at]).lower() == "hash" and value.lstrip("+").isdigit() and 64 < int(value) <= 33554432:
                return "d"
        return line

    # ---- sending and checking ----------------------------------------------------------------------

    def send(self, kind: str, line: str | bytes) -> None:
        """Send one fuzz line and check the engine after it."""
        line = self.guarded(line)
        self.stats.lines[kind] += 1
        command, args = self.command_of(line)
        self.uci.send(line)
        readies = 1
        if command == "go" and args[:1] != ["perft"]:
            self.stats.gos += 1
            self.pending.append(Go(line if isinstance(line, str) else repr(line)))
            self.needs_fen.append(self.pending[-1])
            self.uci.send("d")
        elif command == "d":
            self.needs_fen.append(None)
        elif command == "isready":
            readies = 2
        self.sync(readies)

    def sync(self, readies: int = 1) -> None:
        """`isready`, answered in time; the lines before `readyok` checked."""
        asked = self.uci.send("isready")
        for _ in range(readies):
            lines = self.uci.read_until("readyok", timeout=GENEROUS_READY_BOUND + 10)
            for line in lines[:-1]:
                self.take(line.text)
        latency = lines[-1].at - asked
        self.stats.max_ready = max(self.stats.max_ready, latency)
        assert latency < self.ready_bound, f"isready took {latency:.2f} s"
        assert self.uci.proc.poll() is None, "the engine died"
        assert "Traceback" not in self.uci.stderr, self.uci.stderr[-3000:]

    def take(self, text: str) -> None:
        """Account for one line of output."""
        assert "internal error" not in text, text
        if text.startswith("info string error"):
            self.stats.errors += 1
        elif text.startswith("info string warning"):
            self.stats.warnings += 1
        elif text.startswith("bestmove"):
            assert self.pending, f"{text!r} without a go waiting for it"
            go = self.pending.pop(0)
            go.bestmove = text.split()[1:]
            self.done.append(go)
            self.stats.answered += 1
        elif text.startswith("Fen: "):
            go = self.needs_fen[0]
            if go is not None:
                go.fen = text[5:]
        elif text.startswith("Chess960: "):
            go = self.needs_fen.pop(0)
            if go is not None:
                go.chess960 = text.split()[1] == "true"
        self.check_done()

    def check_done(self) -> None:
        """Each answered go whose position is known: its bestmove (and ponder move) legal there."""
        for go in [g for g in self.done if g.chess960 is not None]:
            self.done.remove(go)
            board = chess.Board(go.fen, chess960=go.chess960)
            self.stats.legal_positions[board.status() == chess.STATUS_VALID] += 1
            words = go.bestmove
            assert len(words) in (1, 3) and words[1:2] in ([], ["ponder"]), f"{words} after {go.line!r}"
            if words[0] == "0000":
                assert not any(board.legal_moves), f"bestmove 0000 at {go.fen} after {go.line!r}"
                continue
            for text in words[::2]:
                move = chess.Move.from_uci(text)
                assert move in board.legal_moves and board.uci(move) == text, \
                    f"bestmove {' '.join(words)} illegal at {board.fen()} (after {go.line!r}, or an " \
                    f"earlier go went unanswered and this is the answer to a later one)"
                board.push(move)

    def drain(self) -> None:
        """`stop`, then every pending go must be answered (a ponder search by the stop too)."""
        self.uci.send("stop")
        deadline = time.perf_counter() + ANSWER_TIMEOUT
        while self.pending or self.needs_fen:
            line = self.uci.read(max(0.0, deadline - time.perf_counter()))
            self.take(line.text)
        self.sync()
        assert not self.done, [g.line for g in self.done]

    def run(self, count: int) -> None:
        for n in range(1, count + 1):
            kind, line = self.next_line()
            self.send(kind, line)
            if self.pending and self.rng.random() < 0.25:
                self.send("control", self.rng.choice(["stop", "stop", "ponderhit"]))
            if n % 25 == 0:
                self.drain()
        self.drain()


def fuzz(count: int, case: int) -> Stats:
    with running_engine() as uci:
        uci.warm_up()
        uci.board = uci.searched = None   # the fuzz sets positions the driver does not follow (it checks)
        fuzzer = Fuzzer(uci, random.Random(seed(case)))
        start = time.perf_counter()
        fuzzer.run(count)
        seconds = time.perf_counter() - start
        stats = fuzzer.stats
        assert stats.answered == stats.gos
        # The engine still plays normally.
        uci.reset()
        uci.board = chess.Board()
        assert uci.go("depth 4").final()[0]["depth"] == 4
    tried = sum(stats.lines.values())
    print(f"\nUCI fuzz (seed {seed(case)}): {tried} lines tried ({dict(stats.lines)}) in {seconds:.1f} s; "
          f"{stats.gos} go answered with one legal bestmove each "
          f"(positions python-chess calls valid/invalid: "
          f"{stats.legal_positions[True]}/{stats.legal_positions[False]}); "
          f"{stats.errors} errors, {stats.warnings} warnings; slowest isready {stats.max_ready * 1000:.0f} ms")
    return stats


def test_fuzz_fast():
    stats = fuzz(FAST_LINES, 3001)
    assert stats.gos > FAST_LINES // 5 and stats.errors > FAST_LINES // 10


@pytest.mark.slow
def test_fuzz_long():
    lines = int(os.environ.get("JITFISH_FUZZ_LINES", SLOW_LINES))
    stats = fuzz(lines, 3002)
    assert stats.gos > lines // 5
