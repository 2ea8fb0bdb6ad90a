"""The local store of self-play chunks (tools/training/store.py, datagen.py): chunks outside git,
manifests in it, a run that fills in only what is missing or wrong, and a clear way back from a
lost store."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tools.training import datagen, store
from tools.training.train_nnue import chunk_files

SMALL = ["--games", "2", "--nodes", "200", "--seed", "3", "--chess960", "0.5"]


@pytest.fixture
def generation(tmp_path, monkeypatch):
    """A generation folder in a temporary tree and its store, with the bench signature stubbed
    (it is the same number whatever it is; computing it costs a search)."""
    monkeypatch.setattr(datagen, "bench_signature", lambda: 123)
    monkeypatch.setenv("JITFISH_STORE", str(tmp_path / "store"))
    return tmp_path / "data" / "gen9"


def lines(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]


def test_chunks_go_to_the_store_and_the_manifest_says_how_to_make_them(generation, capsys):
    assert datagen.main([str(generation), "--chunks", "0:2", *SMALL]) == 0
    entries = lines(generation)
    chunks = generation.parent.parent / "store" / "gen9"
    assert [e["chunk"] for e in entries] == [0, 1]
    assert sorted(p.name for p in generation.iterdir()) == ["manifest.jsonl"]        # nothing but the manifest
    assert sorted(p.name for p in chunks.iterdir()) == ["chunk-00000.jfsp.xz", "chunk-00001.jfsp.xz"]
    for entry in entries:
        assert entry["bytes"] == (chunks / entry["file"]).stat().st_size
        assert entry["sha256"] == store.sha256(chunks / entry["file"])
        assert entry["engine"] and entry["games"] == 2 and entry["positions"] > 0 and entry["bench"] == 123
        words = shlex.split(entry["command"])
        assert words[:3] == ["python", "-m", "tools.training.datagen"]
        assert words[words.index("--chunks") + 1] == f"{entry['chunk']}:{entry['chunk'] + 1}"
        assert words[words.index("--seed") + 1] == "3" and words[words.index("--nodes") + 1] == "200"
    assert chunk_files([str(generation)]) == [chunks / "chunk-00000.jfsp.xz", chunks / "chunk-00001.jfsp.xz"]
    capsys.readouterr()
    assert datagen.main([str(generation), "--chunks", "0:2", *SMALL]) == 0       # nothing left to do
    assert "every chunk of 0:2" in capsys.readouterr().err and len(lines(generation)) == 2


def test_a_run_remakes_only_the_missing_or_wrong_chunks_and_they_repeat_exactly(generation, capsys):
    assert datagen.main([str(generation), "--chunks", "0:3", *SMALL]) == 0
    chunks = store.Generation(generation).store
    first, second, third = (chunks / store.CHUNK.format(i) for i in range(3))
    kept = first.stat().st_mtime_ns
    original = second.read_bytes()
    second.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))       # same size, wrong digest
    third.unlink()
    assert store.status([generation], full=True) == 1
    out = capsys.readouterr().out
    assert "1/3 chunks" in out and "missing 2" in out and "chunk 1: sha256 differs" in out
    assert datagen.main([str(generation), "--chunks", "0:3", *SMALL]) == 0
    err = capsys.readouterr().err
    assert err.count("identical to its manifest line") == 2
    assert second.read_bytes() == original and first.stat().st_mtime_ns == kept
    assert len(lines(generation)) == 3 and store.status([generation], full=True) == 0


def test_a_chunk_of_other_settings_is_not_made_again_by_this_run(generation, capsys):
    assert datagen.main([str(generation), "--chunks", "0:1", *SMALL]) == 0
    chunks = store.Generation(generation).store
    (chunks / store.CHUNK.format(0)).unlink()
    assert datagen.main([str(generation), "--chunks", "0:1", *SMALL[:-2], "--chess960", "0.25"]) == 1
    assert "tools.training.store regenerate" in capsys.readouterr().err
    assert not (chunks / store.CHUNK.format(0)).exists() and len(lines(generation)) == 1


def test_a_lost_store_is_named_with_the_way_back(generation):
    assert datagen.main([str(generation), "--chunks", "0:1", *SMALL]) == 0
    (store.Generation(generation).store / store.CHUNK.format(0)).unlink()
    with pytest.raises(FileNotFoundError, match="store regenerate"):
        chunk_files([str(generation)])


def test_the_recorded_command_replays_with_another_folder_and_range(tmp_path):
    command = ("python -m tools.training.datagen data/selfplay/gen6 --chunks 4:5 --seed 7 --games 8000 "
               "--nodes 1000 --network eval/network.npz")
    argv = store.recorded_command(command, tmp_path / "gen6", 4, 9, tmp_path / "s")
    assert argv == [str(tmp_path / "gen6"), "--seed", "7", "--games", "8000", "--nodes", "1000", "--network",
                    "eval/network.npz", "--chunks", "4:9", "--store", str(tmp_path / "s")]
    assert store.spans([7, 1, 2, 3, 9]) == [(1, 4), (7, 8), (9, 10)]
    assert store.compress([0, 1, 2, 5]) == "0-2, 5"


def test_the_store_lives_outside_the_repository_by_default(monkeypatch, tmp_path):
    monkeypatch.delenv("JITFISH_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.store_root() == tmp_path / "jitfish" / "selfplay"
    assert store.Generation(Path("data/selfplay/gen6")).store == tmp_path / "jitfish" / "selfplay" / "gen6"


def test_a_niced_generator_lowers_its_whole_session(monkeypatch, tmp_path):
    """`nice` alone does not reach past the session under autogroup: the generator passes its
    niceness on to the session, and leaves it alone when it was not niced."""
    group = tmp_path / "autogroup"
    group.write_text("/autogroup-7 nice 0\n")
    monkeypatch.setattr(datagen.os, "nice", lambda increment: 0)
    datagen.yield_as_niced(group)
    assert group.read_text() == "/autogroup-7 nice 0\n"
    monkeypatch.setattr(datagen.os, "nice", lambda increment: 19)
    datagen.yield_as_niced(group)
    assert group.read_text() == "19"


@pytest.mark.skipif(not Path("/proc/self/autogroup").is_file(), reason="no autogroup scheduling here")
def test_the_kernel_takes_the_niceness_for_the_session():
    import subprocess
    import sys

    probe = ("from pathlib import Path; from tools.training.datagen import yield_as_niced; "
             "yield_as_niced(); print(Path('/proc/self/autogroup').read_text())")
    shown = subprocess.run(["nice", "-n", "7", sys.executable, "-c", probe], capture_output=True, text=True,
                           cwd=Path(__file__).resolve().parents[1], start_new_session=True, check=True).stdout
    assert shown.strip().endswith("nice 7")


class Cut(Exception):
    """The run cut off (a stand-in for SIGKILL) after some games."""


def test_a_run_cut_off_mid_chunk_goes_on_from_the_next_game_to_the_same_bytes(generation, tmp_path,
                                                                              monkeypatch, capsys):
    settings = [*SMALL[2:], "--games", "5"]
    monkeypatch.setenv("JITFISH_STORE", str(tmp_path / "whole"))
    assert datagen.main([str(generation), "--chunks", "0:1", *settings]) == 0
    whole = lines(generation)[0]
    (generation / "manifest.jsonl").unlink()

    monkeypatch.setenv("JITFISH_STORE", str(tmp_path / "cut"))
    played = []
    game = datagen.Generator.game

    def cut_after_three(self, seed):
        if len(played) == 3:
            raise Cut
        played.append(seed)
        return game(self, seed)

    monkeypatch.setattr(datagen.Generator, "game", cut_after_three)
    with pytest.raises(Cut):
        datagen.main([str(generation), "--chunks", "0:1", *settings])
    chunks = store.Generation(generation).store
    log = chunks / "chunk-00000.jfsp.games"
    assert log.is_file() and not (chunks / "chunk-00000.jfsp.xz").exists()
    with log.open("ab") as handle:
        handle.write(b"\x07\x00\x00")                    # a torn last entry, as a kill mid-write leaves
    monkeypatch.setattr(datagen.Generator, "game", lambda self, seed: played.append(seed) or game(self, seed))
    (chunks / "chunk-00000.jfsp.claim").unlink()
    capsys.readouterr()
    assert datagen.main([str(generation), "--chunks", "0:1", *settings]) == 0
    assert "3 games taken up" in capsys.readouterr().err
    assert len(played) == 5 and len(set(played)) == 5           # no game played twice
    cut = lines(generation)[0]
    assert cut["sha256"] == whole["sha256"] and cut["positions"] == whole["positions"]
    assert cut["nodes_searched"] == whole["nodes_searched"]
    assert not log.exists()


def test_a_game_log_of_other_settings_is_not_taken_up(tmp_path):
    path = tmp_path / "chunk-00000.jfsp.games"
    log = datagen.GameLog(path, {"seed": 3, "chunk": 0})
    assert log.resume() == ([], 0, 0, 0.0)
    log.append(b"game", 40, 1000, 0.5)
    assert datagen.GameLog(path, {"seed": 3, "chunk": 0}).resume() == ([b"game"], 40, 1000, 0.5)
    assert datagen.GameLog(path, {"seed": 4, "chunk": 0}).resume() == ([], 0, 0, 0.0)
    assert path.read_bytes() == b'{"chunk": 0, "seed": 4}\n'
