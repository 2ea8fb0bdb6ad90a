"""Checks of the 58k games against the held-out part (issue 71, first step), as run:

    git show 76811cd:tools/calibration/human_games.py > /tmp/human_games_old.py    # the code before
    .venv/bin/python experiments/human-curve-2026-12-05/data_checks.py > experiments/human-curve-2026-12-05/data-checks.txt
"""
import gzip, re, sys, time, importlib.util
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tools import paths
from tools.calibration import human_games as hg

t = time.perf_counter()
games = hg.all_games()
print(f"all_games from the caches: {len(games)} games in {time.perf_counter() - t:.1f} s")
print("games by file and part:", dict(Counter((g.source, 'held out' if g.held_out else 'training') for g in games)))

# 1. the held-out sample is the one of the code before (HEAD), position for position
spec = importlib.util.spec_from_file_location("old", "/tmp/human_games_old.py")
old = importlib.util.module_from_spec(spec); sys.modules["old"] = old; spec.loader.exec_module(old)
old_games = old.all_games()
for per in (400, 1200):
    for lo in hg.BANDS:
        a = [p.id for p in hg.held_out_sample(lo, per)]
        old.all_games = lambda: old_games
        b = [p.id for p in old.held_out_sample(lo, per)]
        assert a == b, (lo, per)
print("held_out_sample(band, 400 and 1200) for every band: identical to the code before (same ids, same order)")
old_train = {(g.source, g.index) for g in old_games if not g.held_out}
new_train = {(g.source, g.index) for g in hg.training_games()}
assert old_train <= new_train
print(f"training games: {len(old_train)} before, {len(new_train)} now ({len(new_train - old_train)} added, all from the 58k file: "
      f"{all(s == 'lichess-rapid-2020-2022-58k.pgn.gz' for s, _ in new_train - old_train)})")

# 2. the 58k file: dates, sites, identical games
text = gzip.open(paths.shared_file("human/lichess-rapid-2020-2022-58k.pgn.gz"), "rt").read()
sites = re.findall(r'\[Site "https://lichess.org/(\w+)"\]', text)
years = Counter(d[:4] for d in re.findall(r'\[Date "([^"]*)"\]', text))
print(f"58k file: {len(sites)} Site tags, {len(set(sites))} distinct game ids; years {dict(sorted(years.items()))}")
sites500 = set(re.findall(r'\[Site "https://lichess.org/(\w+)"\]', open(paths.shared_file("human/lichess-2026-06-500.pgn")).read()))
print(f"game ids shared with the 500 file (2026-06, held-out part included): {len(set(sites) & sites500)}")
held = [g for g in old_games if g.held_out]
held_moves = {g.moves for g in held}
all58, _ = hg.cached_games("human/lichess-rapid-2020-2022-58k.pgn.gz")
same = [g for g in all58 if g.moves in held_moves]
print(f"58k games whose whole move list is a held-out game's: {len(same)} (left out of training); "
      f"lengths {[len(g.moves) for g in same]}")
split_moves = {g.moves for g in old_games}
print(f"58k games whose whole move list is any game's of the two split files: {sum(g.moves in split_moves for g in all58)}")
kept = [g for g in games if g.source.startswith('lichess-rapid')]
print(f"58k games trained on: {len(kept)} (of {len(all58)} with both ratings; left out: dated before 2018 or a held-out game's moves)")
print(f"positions from ply {hg.MIN_PLY} on: split files' training part {sum(max(0, len(g.moves) - hg.MIN_PLY) for g in old_games if not g.held_out):,}, "
      f"58k {sum(max(0, len(g.moves) - hg.MIN_PLY) for g in kept):,}; all plies: {sum(len(g.moves) for g in old_games if not g.held_out):,} and {sum(len(g.moves) for g in kept):,}")
