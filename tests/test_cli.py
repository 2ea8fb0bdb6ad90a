"""The command line's numbers: each is checked against the range the UCI loop uses for it
(jitfish.ranges) before anything runs. A bad one, whatever the subcommand, is one `error:` line on
stderr and exit status 2: never a traceback, never a run without end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jitfish import ranges
from jitfish.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0                 # a refused command line ends at once; an unchecked one may never
HUGE = str(10**30)

# (subcommand and arguments before the number, option, bad values)
BAD_NUMBERS = [
    (["perft"], None, ["0", "-1", "21", HUGE, "x", "2.5"]),
    (["perft", "--suite", "suite.epd"], None, ["0", "21"]),
    (["bench"], "--depth", ["0", "-1", "31", HUGE, "x", "2.5"]),
    (["bench"], "--hash", ["0", "-1", "100000000", "x", "1.5"]),
    (["bench"], "--threads", ["0", "-1", "9999", "x", "2.0"]),
    (["play"], "--level", ["-1", "21", "x", "1.5"]),
    (["play"], "--elo", ["0", "399", "3191", "x", "1500.5"]),
    (["play"], "--time", ["-1", "-0.001", "nan", "inf", "1e300", "x"]),
    (["play"], "--seed", ["-1", str(2**31), "x", "1.5"]),
    (["analyse", "game.pgn"], "--depth", ["0", "-1", "125", HUGE, "x", "2.5"]),
    (["analyse", "game.pgn"], "--time", ["-1", "nan", "x"]),
    (["analyse", "game.pgn"], "--nodes", ["0", "-1", str(2**61), "x", "1e6"]),
    (["analyse", "game.pgn"], "--game", ["0", "-1", HUGE, "x", "1.0"]),
    (["analyse", "game.pgn"], "--hash", ["0", "100000000", "x"]),
    (["web", "--no-browser"], "--port", ["-1", "65536", "x", "80.5"]),
]
CASES = [[*command, *([option] if option else []), value]
         for command, option, values in BAD_NUMBERS for value in values]


def run(argv: list[str], timeout: float = TIMEOUT, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jitfish.cli", *argv], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("argv", CASES, ids=" ".join)
def test_a_bad_number_is_one_error_line_and_status_2(argv):
    done = run(argv)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert "Traceback" not in done.stderr and done.stdout == ""


# (argument, the range it must accept exactly, how the parsed value reads back)
ARGUMENTS = [
    (["perft"], None, ranges.PERFT_DEPTH, "depth"),
    (["bench"], "--depth", ranges.BENCH_DEPTH, "depth"),
    (["bench"], "--hash", ranges.HASH_MB, "hash"),
    (["bench"], "--threads", ranges.THREADS, "threads"),
    (["play"], "--level", ranges.SKILL_LEVEL, "level"),
    (["play"], "--elo", ranges.ELO, "elo"),
    (["play"], "--seed", ranges.RANDOM_SEED, "seed"),
    (["analyse", "game.pgn"], "--depth", ranges.SEARCH_DEPTH, "depth"),
    (["analyse", "game.pgn"], "--nodes", ranges.NODES, "nodes"),
    (["analyse", "game.pgn"], "--game", ranges.GAME_NUMBER, "game"),
    (["analyse", "game.pgn"], "--hash", ranges.HASH_MB, "hash"),
    (["web"], "--port", ranges.PORT, "port"),
]


@pytest.mark.parametrize("command, option, allowed, name", ARGUMENTS, ids=lambda x: str(x))
def test_the_command_line_accepts_exactly_the_uci_range(command, option, allowed, name, capsys):
    """Both ends are accepted as given, one step beyond either is refused: the range is the one
    definition the UCI options and `go` use."""
    parser = build_parser()
    for value in (allowed.low, allowed.high):
        args = parser.parse_args([*command, *([option] if option else []), str(value)])
        assert getattr(args, name) == value
    from jitfish.cli import main
    for value in (allowed.low - 1, allowed.high + 1):
        assert main([*command, *([option] if option else []), str(value)]) == 2
        assert f"must be {allowed}, not {value}" in capsys.readouterr().err


def test_times_take_the_range_of_go_movetime():
    parser = build_parser()
    for command in (["play"], ["analyse", "game.pgn"]):
        assert parser.parse_args([*command, "--time", "0"]).time == 0
        assert parser.parse_args([*command, "--time", "0.25"]).time == 0.25
        assert parser.parse_args([*command, "--time", str(ranges.TIME_MS.high // 1000)]).time > 0


def test_the_uci_options_and_go_share_the_ranges():
    from jitfish.options import ENGINE_OPTIONS
    from jitfish.uci import GO_RANGES

    spins = {option.name: option.allowed for option in ENGINE_OPTIONS if option.kind == "spin"}
    assert spins["Hash"] is ranges.HASH_MB and spins["Threads"] is ranges.THREADS
    assert spins["UCI_Elo"] is ranges.ELO and spins["Skill Level"] is ranges.SKILL_LEVEL
    assert spins["Random Seed"] is ranges.RANDOM_SEED
    assert GO_RANGES["depth"] is ranges.SEARCH_DEPTH and GO_RANGES["nodes"] is ranges.NODES
    assert GO_RANGES["movetime"] is ranges.TIME_MS


def test_boundary_values_run(tmp_path):
    """The smallest search bench, perft 1, analysis with the smallest limits: they run and finish."""
    done = run(["perft", "1"])
    assert done.returncode == 0 and "Nodes searched: 20" in done.stdout, done.stderr[-2000:]
    done = run(["bench", "--depth", "1", "--hash", "1", "--threads", str(ranges.THREADS.high)], timeout=180)
    assert done.returncode == 0 and "Nodes searched  :" in done.stdout, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "error" not in done.stderr
    game = tmp_path / "game.pgn"
    game.write_text('[Event "Fool"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n')
    for limit in (["--nodes", "1"], ["--time", "0"], ["--depth", "1"]):
        done = run(["analyse", str(game), "-o", "-", "-q", "--hash", "1", "--game", "1", *limit], timeout=180)
        assert done.returncode == 0 and "Qh4#" in done.stdout, (limit, done.stderr[-2000:])
        assert done.stderr == ""
