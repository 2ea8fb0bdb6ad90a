"""The search's run-time tunables (search/tunables.py) and the SPSA tool that moves them
(tools/training/spsa.py): the defaults are what the engine searches with, a changed value
changes the search and only that searcher's, and the tuner's games and saved state hold up."""

from __future__ import annotations

import json
import math

import pytest

from engine.board import Board
from search import tunables
from search.driver import Searcher
from search.timeman import Limits
from search.workspace import WS_LMR, new_workspace, set_tunables, tunable
from tools.training import spsa

MIDDLEGAME = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7"


def nodes_at_depth(searcher: Searcher, depth: int = 8) -> int:
    searcher.clear()
    searcher.prepare()
    return searcher.run(Board(MIDDLEGAME), Limits(depth=depth)).nodes


def test_a_new_workspace_holds_the_defaults_and_the_reduction_table():
    ws = new_workspace()
    for t in tunables.TUNABLES:
        assert ws[tunable(t.name)] == t.default, t.name
        assert t.low <= t.default <= t.high and t.step > 0, t.name
    for d, m in [(1, 1), (3, 5), (10, 20), (63, 63)]:
        assert ws[WS_LMR + 64 * d + m] == int(0.75 + math.log(d) * math.log(m) / 2.1)


def test_unknown_or_out_of_range_values_are_refused_and_change_nothing():
    ws = new_workspace()
    before = ws.copy()
    with pytest.raises(ValueError, match="no search tunable"):
        set_tunables(ws, {"rfp_margins": 90})
    with pytest.raises(ValueError, match="outside"):
        set_tunables(ws, {"rfp_margin": 10})
    assert (ws == before).all()


def test_a_changed_tunable_changes_that_searcher_only_and_the_defaults_come_back():
    tuned, plain = Searcher(16), Searcher(16)
    base = nodes_at_depth(plain)
    set_tunables(tuned.ws, {"rfp_margin": 40, "lmr_divisor": 300})
    assert nodes_at_depth(tuned) != base
    assert nodes_at_depth(plain) == base
    set_tunables(tuned.ws, {})
    assert nodes_at_depth(tuned) == base


def test_a_pair_of_tuning_games_is_scored_from_each_side():
    spsa._start_worker(None)
    first = spsa.play_pair(MIDDLEGAME, dict(tunables.DEFAULTS), dict(tunables.DEFAULTS), 300)
    assert all(score in (0.0, 0.5, 1.0) for score in first)
    assert spsa.play_pair(MIDDLEGAME, dict(tunables.DEFAULTS), dict(tunables.DEFAULTS), 300) == first


def test_spsa_saves_its_state_and_resumes_from_it(tmp_path, capsys):
    out = tmp_path / "run.json"
    assert spsa.main(["tune", str(out), "--pairs", "4", "--nodes", "200", "--concurrency", "1",
                      "--params", "rfp_margin,lmp_base"]) == 0
    state = json.loads(out.read_text())
    assert state["k"] == 4 and sum(state["counts"]) == 4
    assert set(state["theta"]) == {"rfp_margin", "lmp_base"}
    assert set(state["values"]) == set(tunables.NAMES)
    state["settings"]["pairs"] = 6
    out.write_text(json.dumps(state))
    assert spsa.main(["tune", str(out), "--concurrency", "1"]) == 0
    again = json.loads(out.read_text())
    assert again["k"] == 6 and sum(again["counts"]) == 6
    capsys.readouterr()
    assert spsa.main(["tune", str(tmp_path / "bad.json"), "--params", "nothing"]) == 2
    assert "nothing" in capsys.readouterr().err


def test_ab_plays_values_against_the_defaults_and_reports_the_elo(capsys):
    assert spsa.main(["ab", "rfp_margin=60,lmp_base=5", "--pairs", "2", "--nodes", "200",
                      "--concurrency", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["values"] == {"rfp_margin": 60, "lmp_base": 5}
    assert sum(report["counts"]) == 2 and 0.0 <= report["score"] <= 1.0
    assert spsa.main(["ab", "rfp_margin=1000", "--pairs", "2"]) == 2
    assert "outside" in capsys.readouterr().err
