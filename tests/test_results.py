"""The committed results behind the documents' tables (experiments/ and its README):
every file the documents (README.md, tools/README.md, docs/*.md, CHANGELOG.md) cite exists, every
file is a small tools.matches.match summary (or an SPSA run's state), and tools.matches.elo
re-derives a match's result from its per-game records exactly as the match runner reported it."""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

from tools.matches import elo
from tools.matches.match import main as match_main

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "experiments"
MAX_BYTES = 200_000
CITATION = re.compile(r"experiments/[\w.*{},+/-]+")


def expand_braces(pattern: str) -> list[str]:
    """`a/{x,y}-1.json` -> [`a/x-1.json`, `a/y-1.json`] (the shell's brace expansion, unnested)."""
    parts = re.split(r"\{([^{}]*)\}", pattern)
    choices = [[text] if i % 2 == 0 else text.split(",") for i, text in enumerate(parts)]
    return ["".join(combination) for combination in itertools.product(*choices)]


def citations(text: str) -> list[str]:
    """The experiments/ paths a text cites, placeholders (`<name>`, `...`) left out."""
    return [c.rstrip(".,") for c in CITATION.findall(text)
            if c.rstrip(".,").endswith(".json") and "..." not in c and "<" not in c]


def missing_citations(text: str) -> list[str]:
    return [cited for cited in citations(text)
            if not any(list(ROOT.glob(pattern)) for pattern in expand_braces(cited))]


DOCUMENTS = ["README.md", "tools/README.md", "experiments/README.md", "CHANGELOG.md",
             *sorted(str(path.relative_to(ROOT)) for path in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_cited_result_is_committed(document):
    missing = missing_citations((ROOT / document).read_text(encoding="utf-8"))
    assert not missing, f"{document} cites results that are not in experiments/: {missing}"


def test_the_documents_that_cite_results_are_checked():
    """The measurements live in docs/ and CHANGELOG.md: they must be among the checked documents."""
    assert {"docs/strength.md", "docs/levels.md", "docs/testing.md", "CHANGELOG.md"} <= set(DOCUMENTS)
    assert all(citations((ROOT / name).read_text(encoding="utf-8"))
               for name in ("docs/strength.md", "docs/levels.md", "CHANGELOG.md"))


def test_citation_check_reports_a_missing_file():
    text = ("`python -m tools.calibration.calibrate fit experiments/nowhere/{L1000,L1200}-5+0.05.json`; "
            "placeholders such as experiments/<session>/*.json are not citations")
    assert missing_citations(text) == ["experiments/nowhere/{L1000,L1200}-5+0.05.json"]
    assert expand_braces("a/{x,y}-{1,2}.json") == ["a/x-1.json", "a/x-2.json", "a/y-1.json", "a/y-2.json"]


def test_committed_results_are_small_match_summaries():
    """Every file is a match summary, or the finished state of an SPSA run (tools/training/spsa.py)."""
    for path in sorted(RESULTS.rglob("*.json")):
        size = path.stat().st_size
        assert size < MAX_BYTES, f"{path} has {size} bytes, over {MAX_BYTES}: write it compact, or split it"
        summary = json.loads(path.read_text(encoding="utf-8"))
        if "theta" in summary:
            assert summary["k"] == summary["settings"]["pairs"] == sum(summary["counts"]), path
            assert summary["history"] and set(summary["theta"]) <= set(summary["values"]), path
            continue
        assert summary["game_list"] and elo.describe(summary), path


def test_elo_rederives_a_real_match_from_its_game_records(tmp_path, capsys):
    """A short match of the two floor anchors: tools.matches.elo, reading only the per-game records,
    finds the counts, Elo and LOS the runner computed while it played."""
    anchor = f"{sys.executable} -m tools.calibration.anchors"
    summary_path = tmp_path / "anchors.json"
    code = match_main(["--engine", f"cmd={anchor} greedy", "name=greedy", "--engine", f"cmd={anchor} random",
                       "name=random", "--games", "8", "--tc", "10+0.1", "--max-plies", "60", "--seed", "3",
                       "--json", str(summary_path)])
    assert code == 0
    summary = json.loads(summary_path.read_text())
    (wins, draws, losses), penta = elo.counts_from_games(summary["game_list"])
    assert (wins, draws, losses) == (summary["wins"], summary["draws"], summary["losses"])
    assert penta == summary["pentanomial"] and sum(penta) == 4
    line = elo.describe(summary)
    assert f"+{wins} ={draws} -{losses}" in line
    assert summary["elo_pentanomial"]["text"] in line and summary["elo_trinomial"]["text"] in line
    assert f"LOS {summary['los']:.1%}" in line

    capsys.readouterr()
    assert elo.main([str(summary_path)]) == 0
    assert capsys.readouterr().out == f"{summary_path}: {line}\n"
    (tmp_path / "broken.json").write_text("{}")
    assert elo.main([str(tmp_path / "broken.json")]) == 1
    assert "not a readable tools.matches.match summary" in capsys.readouterr().err


def test_tools_holds_only_programs():
    """Experiment records (results, games, rejected patches) live in experiments/, not among the tools."""
    records = [path for path in (ROOT / "tools").rglob("*")
               if path.is_file() and "__pycache__" not in path.parts and path.suffix not in {".py", ".sh", ".md"}]
    assert not records, f"experiment records in tools/: {records[:5]}"


def test_the_index_lists_every_experiment_folder():
    """experiments/README.md indexes every folder of experiments/, and links no folder that is gone."""
    index = (RESULTS / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w.+-]+)/\)", index))
    folders = {path.name for path in RESULTS.iterdir() if path.is_dir()}
    assert folders - linked == set(), "folders missing from the index"
    assert linked - folders == set(), "the index links folders that do not exist"
