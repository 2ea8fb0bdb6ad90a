"""The soak tooling: pondering in the match runner (tools/matches/match.py) with its clock accounting, the
counting of python-chess's complaints, and the soak driver (tools/matches/soak.py), with fake engines."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tools.matches import soak
from tools.matches.engines import parse_engine_spec
from tools.matches.match import main as match_main

# A UCI engine that thinks THINK seconds a move and supports pondering. Modes:
#   first  - plays the first legal move (by UCI text) and predicts the opponent will too
#   random - plays a random legal move, predicts a random reply
#   noisy  - as `first`, and writes a line that is not UCI before each bestmove
#   slow-newgame - as `first`, and takes 0.5 s over ucinewgame
# Every command it reads is appended to LOG.
PONDER_ENGINE = textwrap.dedent("""
    import random, sys, time
    import chess

    sys.stdout.reconfigure(line_buffering=True)
    mode, log, think = sys.argv[1], open(sys.argv[2], "a"), float(sys.argv[3])
    rng = random.Random(5)
    board = chess.Board()

    def choose(b):
        moves = sorted(b.legal_moves, key=lambda m: m.uci())
        return moves[0] if mode != "random" else rng.choice(moves)

    def answer(b):
        move = choose(b)
        after = b.copy()
        after.push(move)
        reply = choose(after) if any(after.legal_moves) else None
        if mode == "noisy":
            print("hello there")
        print("bestmove " + move.uci() + (" ponder " + reply.uci() if reply else ""))

    for line in sys.stdin:
        log.write(line)
        log.flush()
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "uci":
            print("id name fake-ponder")
            print("option name Ponder type check default false")
            print("option name Hash type spin default 1 min 1 max 64")
            print("option name Threads type spin default 1 min 1 max 8")
            print("option name Move Overhead type spin default 10 min 0 max 5000")
            print("option name UCI_LimitStrength type check default false")
            print("option name UCI_Elo type spin default 1500 min 1000 max 3000")
            print("uciok")
        elif parts[0] == "isready":
            print("readyok")
        elif parts[0] == "ucinewgame" and mode == "slow-newgame":
            time.sleep(0.5)
        elif parts[0] == "position":
            at = parts.index("moves") if "moves" in parts else len(parts)
            board = chess.Board() if parts[1] == "startpos" else chess.Board(" ".join(parts[2:at]))
            for uci in parts[at + 1:]:
                board.push_uci(uci)
        elif parts[0] == "go" and "ponder" in parts:
            for line in sys.stdin:          # think until the GUI says how the opponent moved
                log.write(line)
                log.flush()
                if line.split() in (["ponderhit"], ["stop"]):
                    break
            if line.split() == ["ponderhit"]:
                time.sleep(think)
            answer(board)
        elif parts[0] == "go":
            time.sleep(think)
            answer(board)
        elif parts[0] == "quit":
            break
""")


@pytest.fixture()
def engines(tmp_path: Path):
    """A factory of `cmd=` tokens for the pondering fake engine: (mode, think seconds) -> (cmd, log)."""
    script = tmp_path / "ponder_engine.py"
    script.write_text(PONDER_ENGINE)

    def make(mode: str, think: float) -> tuple[str, Path]:
        log = tmp_path / f"{mode}-{think}.log"
        return f"cmd={sys.executable} {script} {mode} {log} {think}", log

    return make


def play(tmp_path: Path, first: list[str], second: list[str], extra: list[str]) -> dict:
    out = tmp_path / "summary.json"
    code = match_main(["--engine", *first, "--engine", *second, "--json", str(out), "--seed", "3",
                       "--openings", str(tmp_path / "start.epd"), *extra])
    assert code == 0
    return json.loads(out.read_text())


@pytest.fixture(autouse=True)
def start_position(tmp_path: Path) -> None:
    (tmp_path / "start.epd").write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n")


def test_ponder_spec():
    assert parse_engine_spec(["cmd=x", "ponder=true"]).ponder
    assert not parse_engine_spec(["cmd=x"]).ponder
    with pytest.raises(ValueError):
        parse_engine_spec(["cmd=x", "ponder=maybe"])
    with pytest.raises(ValueError, match="ponder=true"):
        parse_engine_spec(["cmd=x", "option.Ponder=true"])


def test_ponderhit_charges_only_the_time_after_the_opponent_moved(tmp_path, engines):
    """Both fakes play the first legal move and predict it: every prediction comes true, so after
    the first move each of the ponderer's moves is a ponderhit. It thinks 0.05 s after ponderhit
    while the opponent thinks 0.2 s a move: its clock must be charged about 0.05 s a move, not the
    0.25 s from its previous bestmove."""
    ponderer, log = engines("first", 0.05)
    opponent, _ = engines("first", 0.2)
    s = play(tmp_path, [ponderer, "name=ponderer", "ponder=true"], [opponent, "name=opponent"],
             ["--games", "2", "--tc", "30+0", "--max-plies", "12"])
    stats = s["engine_stats"][0]
    assert s["ponder"] == [True, False]
    assert stats["ponder_hits"] == stats["moves"] - 2 >= 8 and stats["ponder_misses"] == 0
    assert stats["think_time"] / stats["moves"] < 0.15, stats
    assert stats["time_forfeits"] == stats["crashes"] == stats["illegal_moves"] == stats["timeouts"] == 0
    text = log.read_text()
    assert text.count("ponderhit") == stats["ponder_hits"] and "go ponder" in text


def test_ponder_miss_stops_and_searches_again(tmp_path, engines):
    """The opponent plays randomly: most predictions fail, python-chess sends stop and a new go."""
    ponderer, log = engines("first", 0.05)
    opponent, _ = engines("random", 0.05)
    s = play(tmp_path, [ponderer, "name=ponderer", "ponder=true"], [opponent, "name=opponent"],
             ["--games", "2", "--st", "0.2", "--max-plies", "14"])
    stats = s["engine_stats"][0]
    assert stats["ponder_misses"] >= 4 and stats["moves"] == stats["ponder_hits"] + stats["ponder_misses"] + 2
    assert stats["time_forfeits"] == stats["crashes"] == stats["illegal_moves"] == 0
    assert log.read_text().count("stop") >= 4


@pytest.mark.parametrize("ponder", ["true", "false"])
def test_new_game_handshake_is_not_charged(tmp_path, engines, ponder):
    """ucinewgame and isready come before the clock runs, once per game (also after a game ended
    with the engine pondering): 0.5 s over ucinewgame must not lose a 0.05 s-a-move game."""
    slow, log = engines("slow-newgame", 0.01)
    other, _ = engines("random", 0.01)
    s = play(tmp_path, [slow, "name=slow", f"ponder={ponder}"], [other, "name=other"],
             ["--games", "2", "--st", "0.05", "--st-margin-ms", "100", "--max-plies", "8"])
    stats = s["engine_stats"][0]
    assert stats["time_forfeits"] == stats["crashes"] == 0 and stats["max_overrun_ms"] < 100, stats
    commands = [line.split()[0] for line in log.read_text().splitlines() if line.split()]
    assert commands.count("ucinewgame") == 2
    first_go = commands.index("go")
    assert commands.index("ucinewgame") < first_go and commands[commands.index("ucinewgame") + 1] == "isready"


def test_protocol_warnings_are_counted(tmp_path, engines):
    noisy, _ = engines("noisy", 0.01)
    quiet, _ = engines("first", 0.01)
    s = play(tmp_path, [noisy, "name=noisy"], [quiet, "name=quiet"], ["--games", "2", "--st", "0.1",
                                                                       "--max-plies", "10"])
    assert s["engine_stats"][0]["protocol_warnings"] >= 5 and s["engine_stats"][1]["protocol_warnings"] == 0
    assert "hello there" in s["protocol_warning_examples"][0]


def test_soak_plan_is_1000_games_with_every_kind():
    """The plan docs/testing.md states: 1000 games, each listed time control, ponder and Threads 2 in
    part of it, Chess960 at 10+0.1; a pilot of 20 to 30 games."""
    plan = soak.PLANS["soak"]
    assert sum(c.games for c in plan) == 1000
    assert all(c.games % 2 == 0 and c.pilot_games % 2 == 0 for c in plan)
    limits = {" ".join(c.limit) for c in plan}
    assert {"--tc 1+0.01", "--tc 10+0.1", "--tc 40/10", "--st 0.2"} <= limits
    assert any(c.ponder for c in plan) and not all(c.ponder for c in plan)
    assert any(c.threads == 2 for c in plan)
    assert any(c.variant == "chess960" and c.limit == ["--tc", "10+0.1"] for c in plan)
    assert 20 <= sum(c.pilot_games for c in plan) <= 30


def test_ladder_plan_is_the_strength_measurement():
    """The strength ladder: 10+0.1, one thread, no ponder; at least 100 games per anchor and 200
    against the goal's, 2600; opponents named as tools.calibration.calibrate's anchors."""
    ladder = {c.stockfish_elo: c.games for c in soak.PLANS["ladder"]}
    assert set(ladder) == {2200, 2400, 2600, 2800} and min(ladder.values()) >= 100 and ladder[2600] >= 200
    assert all(c.limit == ["--tc", "10+0.1"] and not c.ponder and c.threads == 1 and c.variant == "standard"
               for c in soak.PLANS["ladder"])


def test_soak_runs_a_plan_and_sums_it_up(tmp_path, engines, monkeypatch):
    """The driver with the fakes standing in for both engines: one summary with the counts per
    category, the command and a commit; a resumed soak plays nothing again."""
    jitfish, _ = engines("first", 0.01)
    opponent, _ = engines("random", 0.01)
    script = jitfish.split()[1]
    wrapper = tmp_path / "fake-jitfish"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} {script} first {tmp_path / 'j.log'} 0.01\n")
    wrapper.chmod(0o755)
    sf = tmp_path / "fake-stockfish"
    sf.write_text(f"#!/bin/sh\nexec {sys.executable} {script} random {tmp_path / 's.log'} 0.01\n")
    sf.chmod(0o755)
    plan = [soak.Category("quick", 2, ["--st", "0.05"], extra=["--max-plies", "10"]),
            soak.Category("quick-ponder", 2, ["--st", "0.05"], ponder=True, extra=["--max-plies", "10"])]
    monkeypatch.setitem(soak.PLANS, "soak", plan)
    out = tmp_path / "soak"
    argv = ["--out", str(out), "--engine", str(wrapper), "--stockfish", str(sf), "--seed", "1"]
    assert soak.main(argv) == 0
    report = json.loads((out / "summary.json").read_text())
    assert [r["category"] for r in report["categories"]] == ["quick", "quick-ponder"]
    assert report["totals"]["games"] == 4 and report["failures"] == 0
    assert report["categories"][1]["ponder_hits"] + report["categories"][1]["ponder_misses"] > 0
    assert "tools.matches.soak" in report["command"] and report["engine"]["commit"]
    played = (tmp_path / "j.log").read_text().count("quit")
    assert soak.main(argv) == 0                        # resumed: every category complete already
    assert (tmp_path / "j.log").read_text().count("quit") == played
