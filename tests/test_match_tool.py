"""Tests for the match runner (tools/matches/match.py and its helpers), using tiny fake UCI engines."""

from __future__ import annotations

import io
import json
import math
import sys
import textwrap
from pathlib import Path

import chess
import chess.pgn
import pytest

from tools.matches import elo
from tools.matches.adjudication import AdjudicationRules, Adjudicator, rules_outcome
from tools.matches.engines import parse_engine_spec
from tools.matches.match import build_parser, time_control_from_args
from tools.matches.match import main as match_main

# A minimal UCI engine: plays a random legal move.  Modes make it misbehave:
#   random   - always legal
#   crashy   - first `go` ever (marker file absent): exits; afterwards plays an illegal move
#   hang     - never answers `go`
#   slow     - sleeps 0.3 s before answering
FAKE_ENGINE = textwrap.dedent("""
    import os, random, sys, time
    import chess

    sys.stdout.reconfigure(line_buffering=True)
    mode, marker = sys.argv[1], sys.argv[2]
    rng = random.Random(1)
    board, chess960 = chess.Board(), False
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        cmd = parts[0]
        if cmd == "uci":
            print("id name fake-" + mode)
            print("option name UCI_Chess960 type check default false")
            print("option name Hash type spin default 1 min 1 max 64")
            print("uciok")
        elif cmd == "isready":
            print("readyok")
        elif cmd == "setoption" and "UCI_Chess960" in line:
            chess960 = parts[-1] == "true"
        elif cmd == "position":
            moves = parts.index("moves") if "moves" in parts else len(parts)
            fen = "startpos" if parts[1] == "startpos" else " ".join(parts[2:moves])
            board = chess.Board(chess960=chess960) if fen == "startpos" else chess.Board(fen, chess960=chess960)
            for uci in parts[moves + 1:]:
                board.push_uci(uci)
        elif cmd == "go":
            if mode == "crashy":
                if not os.path.exists(marker):
                    open(marker, "w").close()
                    sys.exit(3)
                print("bestmove a1a1" if board.piece_at(chess.A1) is None else "bestmove e1e8")
                continue
            if mode == "hang":
                continue
            if mode == "slow":
                time.sleep(0.3)
            move = rng.choice(list(board.legal_moves))
            depth = parts[parts.index("nodes") + 1] if "nodes" in parts else "1"  # echoes go nodes
            print("info depth " + depth + " score cp 0 nodes 1")
            print("bestmove " + board.uci(move))
        elif cmd == "quit":
            break
""")

OPENINGS = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -",
]


@pytest.fixture()
def fake(tmp_path: Path):
    """Return a factory for fake-engine `cmd=` tokens of a given mode."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def make(mode: str) -> str:
        return f"cmd={sys.executable} {script} {mode} {tmp_path / ('marker-' + mode)}"

    return make


@pytest.fixture()
def openings(tmp_path: Path) -> str:
    """A two-line EPD opening file."""
    path = tmp_path / "openings.epd"
    path.write_text("\n".join(f"{fen} id \"t{i}\";" for i, fen in enumerate(OPENINGS)) + "\n")
    return str(path)


# ----------------------------------------------------------------------------- statistics


def test_elo_from_score_reference_values():
    assert elo.elo_from_score(0.5) == pytest.approx(0.0)
    assert elo.elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo.elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo.score_from_elo(elo.elo_from_score(0.64)) == pytest.approx(0.64)
    assert elo.elo_from_score(1.0) == math.inf and elo.elo_from_score(0.0) == -math.inf


def test_error_bar_shrinks_with_more_games():
    small = elo.trinomial(30, 40, 30)
    big = elo.trinomial(300, 400, 300)
    assert small.elo == pytest.approx(0.0) and big.elo == pytest.approx(0.0)
    assert 0 < big.error < small.error
    assert big.error == pytest.approx(small.error / math.sqrt(10), rel=0.02)
    # 100 games, W=L=30, D=40: per-game sd 0.387 -> se 0.0387 -> about ±54 Elo
    assert small.error == pytest.approx(54.0, abs=1.5)


def test_pentanomial_and_los():
    # Every pair split 1-1 (e.g. each side wins with White): zero pair variance -> zero error bar,
    # whereas the per-game (trinomial) view of the same games sees lots of noise.
    pent = elo.pentanomial([0, 0, 50, 0, 0])
    assert pent.elo == pytest.approx(0.0) and pent.error == pytest.approx(0.0)
    assert elo.trinomial(50, 0, 50).error > 50
    est = elo.pentanomial([5, 10, 20, 30, 15])
    assert est.elo > 0 and est.lo < est.elo < est.hi
    assert elo.pair_bucket(1.0, 0.5) == 3
    assert elo.los(0, 0) == 0.5
    assert elo.los(20, 10) > 0.95 and elo.los(10, 20) < 0.05
    assert elo.los(7, 3) + elo.los(3, 7) == pytest.approx(1.0)
    assert math.isinf(elo.trinomial(3, 0, 0).error)  # 100% score: unbounded


# ----------------------------------------------------------------------------- limits


def test_limit_arguments():
    """--tc is a jitfish.clock time control; --st, --nodes and --depth go with it into the PGN tag
    and the summary's description."""
    def limit(*argv: str):
        return time_control_from_args(build_parser().parse_args(["--engine", "cmd=a", "--engine", "cmd=b", *argv]))

    assert limit("--tc", "10+0.1").pgn() == "10+0.1" and limit("--tc", "40/20").clock.periods[0].moves == 40
    assert limit("--tc", "1:30+1", "--nodes", "5").describe() == "tc=90+1 nodes=5"
    assert limit("--st", "0.2").pgn() == "0.2/move" and limit("--st", "0.2").movetime == 0.2
    assert limit("--depth", "3").pgn() == "-" and limit("--depth", "3").describe() == "depth=3"
    for bad in (["--tc", "5", "--st", "1"], [], ["--st", "0"], ["--tc", "ten minutes"]):
        with pytest.raises(ValueError):
            limit(*bad)


# ----------------------------------------------------------------------------- adjudication


def feed(adj: Adjudicator, start_move: int, scores: list[int | None]):
    """Feed per-ply White-view scores starting at a full-move number; return first verdict and ply."""
    board_move = start_move
    for ply, cp in enumerate(scores):
        verdict = adj.update(board_move + ply // 2, cp)
        if verdict:
            return verdict, ply + 1
    return None, None


def test_draw_adjudication_needs_8_moves_each_after_move_40():
    rules = AdjudicationRules()
    assert feed(Adjudicator(rules), 41, [5, -3] * 8) == (("1/2-1/2", "draw adjudication"), 16)
    assert feed(Adjudicator(rules), 41, [5, -3] * 7 + [5]) == (None, None)
    assert feed(Adjudicator(rules), 20, [0] * 16) == (None, None)  # too early
    assert feed(Adjudicator(rules), 41, [0] * 10 + [50] + [0] * 15) == (None, None)  # reset by one ply
    assert feed(Adjudicator(rules), 41, [0] * 10 + [None] + [0] * 16)[1] == 27


def test_resign_adjudication_needs_agreement():
    rules = AdjudicationRules()
    verdict, ply = feed(Adjudicator(rules), 10, [-1200, -1500] * 5)
    assert verdict == ("0-1", "resign adjudication: white is losing") and ply == 10
    assert feed(Adjudicator(rules), 10, [1000] * 10)[0][0] == "1-0"
    assert feed(Adjudicator(rules), 10, [-1200, -900] * 5) == (None, None)  # one engine disagrees
    assert feed(Adjudicator(rules), 10, [-1200] * 9 + [1200] * 9) == (None, None)  # switching side resets
    off = AdjudicationRules(resign_movecount=0, draw_movecount=0)
    assert feed(Adjudicator(off), 50, [-5000] * 30 + [0] * 30) == (None, None)


def test_rules_outcome_threefold_only_when_it_happened():
    board = chess.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        board.push_uci(uci)
        assert rules_outcome(board) is None  # 2nd occurrence (a claim would already be possible)
    board.push_uci("f6g8")
    assert rules_outcome(board) == ("1/2-1/2", "threefold repetition")
    assert rules_outcome(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == ("1/2-1/2", "stalemate")


def test_engine_spec_parsing():
    spec = parse_engine_spec(["cmd=stockfish --x 1", "name=sf", "option.UCI_Elo=2000",
                              "option.UCI_LimitStrength=true", "option.SyzygyPath=/tb"],
                             each=["option.Hash=16", "proto=uci"])
    assert spec.cmd == ["stockfish", "--x", "1"] and spec.name == "sf"
    assert spec.options == {"Hash": 16, "UCI_Elo": 2000, "UCI_LimitStrength": True, "SyzygyPath": "/tb"}
    for bad in (["name=x"], ["cmd=x", "proto=xboard"], ["cmd=x", "option.UCI_Chess960=true"], ["cmd=x", "foo"]):
        with pytest.raises(ValueError):
            parse_engine_spec(bad)


# ----------------------------------------------------------------------------- end to end


def run_match(tmp_path: Path, engines: list[str], extra: list[str], capsys) -> tuple[int, dict, str, str]:
    """Run tools.matches.match in-process; return exit code, JSON summary, PGN text and stdout."""
    pgn, js = tmp_path / "games.pgn", tmp_path / "summary.json"
    argv = [a for e in engines for a in ("--engine", *e.split("|"))]
    code = match_main([*argv, "--pgn", str(pgn), "--json", str(js), "--seed", "7", *extra])
    out = capsys.readouterr().out
    summary = json.loads(js.read_text()) if js.exists() else {}
    return code, summary, pgn.read_text() if pgn.exists() else "", out


def test_end_to_end_counts_crash_and_illegal_move(tmp_path, fake, openings, capsys):
    code, s, pgn, out = run_match(
        tmp_path, [f"{fake('random')}|name=good|option.Hash=2", f"{fake('crashy')}|name=bad"],
        ["--games", "2", "--tc", "5+0.1", "--openings", openings, "--opening-order", "sequential"], capsys)
    assert code == 0
    assert (s["wins"], s["draws"], s["losses"]) == (2, 0, 0)
    good, bad = s["engine_stats"]
    assert bad["crashes"] == 1 and bad["illegal_moves"] == 1 and bad["restarts"] == 1
    assert good["crashes"] == good["illegal_moves"] == 0
    assert pgn.count("[Event ") == 2
    assert '[Termination "engine crash"]' in pgn and '[Termination "illegal move"]' in pgn
    assert f'[FEN "{OPENINGS[0]} 0 1"]' in pgn and '[TimeControl "5+0.1"]' in pgn and '[SetUp "1"]' in pgn
    assert "[2/2]" in out and "Elo" in out and "LOS" in out


def test_end_to_end_watchdog_kills_hung_engine(tmp_path, fake, openings, capsys):
    code, s, pgn, _ = run_match(
        tmp_path, [f"{fake('hang')}|name=hang", f"{fake('random')}|name=ok"],
        ["--games", "2", "--tc", "0.2+0", "--grace", "0.5", "--openings", openings], capsys)
    assert code == 0
    assert (s["wins"], s["losses"]) == (0, 2)
    hang, ok = s["engine_stats"]
    assert hang["timeouts"] == 2 and hang["restarts"] == 1  # killed twice, restarted once
    assert ok["timeouts"] == 0 and ok["moves"] >= 1
    assert pgn.count('[Termination "stalled connection"]') == 2


def test_end_to_end_chess960_random_positions_and_max_plies(tmp_path, fake, capsys):
    code, s, pgn, _ = run_match(
        tmp_path, [f"{fake('random')}|name=a", f"{fake('random')}|name=b"],
        ["--games", "2", "--depth", "1", "--variant", "chess960", "--max-plies", "30"], capsys)
    assert code == 0
    assert s["games"] == 2 and s["variant"] == "chess960"
    assert '[Variant "Chess960"]' in pgn
    for g in s["game_list"]:
        assert g["termination"] in ("normal", "adjudication") and g["plies"] <= 30


def test_engine_nodes_setting_overrides_the_match_nodes(tmp_path, fake, openings, capsys):
    """nodes= on one engine (e.g. a stronger foreign engine held to fewer nodes) is the `go nodes`
    that engine gets; the other one gets --nodes. The fake engine echoes it as its depth."""
    code, s, pgn, _ = run_match(
        tmp_path, [f"{fake('random')}|name=a|nodes=7", f"{fake('random')}|name=b"],
        ["--games", "2", "--nodes", "3", "--max-plies", "6", "--openings", openings], capsys)
    assert code == 0 and s["games"] == 2 and s["engine_nodes"] == [7, None]
    game = chess.pgn.read_game(io.StringIO(pgn))
    white_is_a = game.headers["White"] == "a"
    depths = [node.comment.split("/")[1].split()[0] for node in game.mainline()]
    assert depths[0::2] == ["7" if white_is_a else "3"] * 3
    assert depths[1::2] == ["3" if white_is_a else "7"] * 3
    with pytest.raises(ValueError):
        parse_engine_spec(["cmd=x", "nodes=0"])


def test_time_forfeit_counted(tmp_path, fake, openings, capsys):
    code, s, pgn, _ = run_match(
        tmp_path, [f"{fake('random')}|name=fast", f"{fake('slow')}|name=slow"],
        ["--games", "2", "--tc", "0.2+0", "--openings", openings], capsys)
    assert code == 0
    assert s["wins"] == 2
    fast, slow = s["engine_stats"]
    assert slow["time_forfeits"] == 2 and slow["max_overrun_ms"] > 50 and fast["time_forfeits"] == 0
    assert '[Termination "time forfeit"]' in pgn


def test_bad_engine_command_is_a_clean_error(fake, openings, capsys):
    code = match_main(["--engine", "cmd=/nonexistent/engine", "--engine", fake("random"), "--depth", "1",
                       "--openings", openings])
    assert code == 2
    assert "failed to start" in capsys.readouterr().err


def test_sprt_llr_properties():
    """The GSPRT log-likelihood ratio: zero without pairs, for H1 when the pairs score above elo1,
    for H0 below elo0, antisymmetric under swapping results and hypotheses, and proportional to
    the number of pairs for a fixed distribution."""
    assert elo.sprt_llr([0, 0, 0, 0, 0], 0, 5) == 0.0
    strong, weak = [10, 50, 100, 70, 20], [20, 70, 100, 50, 10]
    assert elo.sprt_llr(strong, 0, 5) > 0 > elo.sprt_llr(weak, 0, 5)
    assert elo.sprt_llr(strong, 0, 5) == pytest.approx(-elo.sprt_llr(weak, -5, 0), rel=1e-6)
    assert elo.sprt_llr([2 * c for c in strong], 0, 5) == pytest.approx(2 * elo.sprt_llr(strong, 0, 5), rel=1e-6)
    lower, upper = elo.sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))


def test_sprt_stops_the_match_once_decided(tmp_path, fake, openings, capsys):
    """--sprt: a sure winner (its opponent plays illegal moves) is accepted as H1 long before
    --games, the decision and the LLR are in the summary; the loser's view accepts H0."""
    for first, second, result in (("random", "crashy", "H1"), ("crashy", "random", "H0")):
        out_dir = tmp_path / first
        out_dir.mkdir()
        code, s, _, out = run_match(
            out_dir, [f"{fake(first)}|name={first}", f"{fake(second)}|name={second}"],
            ["--games", "100", "--depth", "1", "--openings", openings, "--sprt", "0", "100"], capsys)
        assert code == 0 and s["sprt"]["result"] == result, out
        assert 10 <= s["games"] <= 40 and s["games"] % 2 == 0
        assert (s["sprt"]["llr"] >= s["sprt"]["bounds"][1]) == (result == "H1")
        assert f"{result} accepted" in out


def test_sprt_llr_agrees_with_the_normal_approximation():
    """Away from extreme scores the exact GSPRT LLR is close to the textbook approximation
    N (s1 - s0) (2 mean - s0 - s1) / (2 var) over the pair scores."""
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    for counts in ([10, 50, 100, 60, 12], [20, 100, 200, 130, 30], [30, 110, 260, 100, 25]):
        n = sum(counts)
        mean = sum(v * c for v, c in zip(values, counts)) / n
        var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
        s0, s1 = elo.score_from_elo(0), elo.score_from_elo(5)
        approximation = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
        assert elo.sprt_llr(counts, 0, 5) == pytest.approx(approximation, rel=0.03)


def test_compare_two_gauntlets_pair_by_pair():
    """--compare: the Elo of one gauntlet over another against the same opponent and seed, over
    the pairs both completed; zero with a finite bar for identical games, the sign of the better
    one, a wider bar for fewer pairs, and an error when no pairs match."""
    def gauntlet(pair_scores: list[tuple[float, float]]) -> list[dict]:
        return [{"pair": k, "opening": f"o{k}", "score_first": s}
                for k, scores in enumerate(pair_scores) for s in scores]
    base = gauntlet([(1.0, 0.0), (0.5, 0.5), (0.0, 0.5), (1.0, 0.5)] * 25)
    better = gauntlet([(1.0, 0.5), (0.5, 0.5), (0.5, 0.5), (1.0, 1.0)] * 25)
    same = elo.compare(base, base)
    assert same.elo == pytest.approx(0.0) and same.error == pytest.approx(0.0) and same.samples == 100
    up = elo.compare(better, base)
    assert up.elo > 0 and 0 < up.error < up.elo
    assert elo.compare(base, better).elo == pytest.approx(-up.elo)
    assert elo.compare(better[:40], base).error > up.error        # 20 common pairs
    with pytest.raises(ValueError):
        elo.compare(better, [dict(g, opening="other") for g in base])


def test_compare_pools_gauntlets_of_several_seeds(tmp_path, capsys):
    """--compare NEW BASE NEW BASE: pairs of the first two and of the last two pooled (pair k of
    one seed is not pair k of the other), so the bar narrows; an odd count is refused."""
    def gauntlet(pair_scores: list[tuple[float, float]]) -> dict:
        return {"engines": ["x", "sf"], "game_list": [{"pair": k, "opening": f"o{k}", "score_first": s}
                                                      for k, scores in enumerate(pair_scores) for s in scores]}
    paths = []
    for name, pairs in (("new1", [(1.0, 0.5), (0.5, 0.5)] * 20), ("base1", [(0.5, 0.5), (0.5, 0.0)] * 20),
                        ("new2", [(1.0, 0.0), (0.5, 0.5)] * 20), ("base2", [(1.0, 0.0), (0.5, 0.5)] * 20)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(gauntlet(pairs)))
    one = elo.compare(gauntlet([(1.0, 0.5), (0.5, 0.5)] * 20)["game_list"],
                      gauntlet([(0.5, 0.5), (0.5, 0.0)] * 20)["game_list"])
    assert elo.main(["--compare", *map(str, paths)]) == 0
    line = capsys.readouterr().out
    assert "(80 common pairs)" in line
    pooled = float(line.split("Elo ")[1].split()[0])
    assert 0 < pooled < one.elo                                     # the second seed found no difference
    with pytest.raises(SystemExit):
        elo.main(["--compare", *map(str, paths[:3])])
