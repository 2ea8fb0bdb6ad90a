"""Calibrate the difficulty levels: play the pairings of a plan, then fit one Elo scale to all games.

    python -m tools.calibration.calibrate run --plan rows|top|chain|low|levels|floor|slow|slowtop|recheck|upper|toprow|clock|network|netrows|club|human --out runs/calib [--engine .venv/bin/jitfish] [--tc 5+0.05]
    python -m tools.calibration.calibrate fit runs/calib/*.json
    python -m tools.calibration.calibrate compare L1800 --before runs/fast/*.json --after runs/slow/*.json

Players are Jitfish levels (`L1000` is `UCI_LimitStrength` with `UCI_Elo 1000`, `full` is full
strength), Stockfish anchors (`sf1350` is Debian's Stockfish with `UCI_Elo 1350`, whose rating is
taken as given), the floor anchors of tools/calibration/anchors.py (`random`, `greedy`) and the
human model (`H1500`: its most likely move at lichess 1500; `H1500b2`: a sample sharpened by 2;
`H800s0.3`: a sample at 30% of the moves, the most likely move at the others; `H1200slip0.5`:
its most likely move with a slip of 0.5). Below Stockfish's
floor the scale is carried by chaining levels against each other. The fit is a joint maximum
likelihood of the logistic Elo model over every game (draws as half points), with the anchors'
ratings fixed and one virtual draw per pairing as a prior (so a 100% score stays finite); error
bars are the 95% range over bootstrap resamples of each pairing's games.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from tools import paths

# (first, second, games) per plan, at the fast time control unless said otherwise.
PLANS = {
    # The rows of search/levels.py as they stand: their measured Elo is what the table should say.
    "rows": [
        ("L2200", "sf2000", 60), ("full", "sf2200", 60), ("L1900", "sf1800", 60), ("L1600", "sf1350", 60),
        ("L1300", "sf1350", 60), ("L1000", "L1300", 60), ("L1000", "sf1350", 40), ("L700", "L1000", 60),
        ("L400", "L700", 60), ("L400", "greedy", 40), ("L700", "greedy", 40), ("greedy", "random", 40),
    ],
    # The strongest row against three anchors (one Stockfish anchor alone proved unreliable up there).
    "top": [("L1900", "sf1600", 50), ("L1900", "sf1800", 50), ("L1900", "sf2000", 50)],   # played as L1750
    # The levels docs/levels.md reports, after the table was set from the rows; the pass-2 games of the
    # levels whose setting did not change since are fitted with these. The low levels are chained
    # through neighbours 200 apart, so that every pairing is informative; the top level meets
    # several anchors.
    "chain": [("L600", "L800", 100), ("L800", "L1000", 100)],
    # The low levels after the weakest rows were relabelled from the chain.
    "low": [("L600", "L800", 100), ("L800", "L1000", 100), ("L600", "L1000", 100), ("L1000", "L1200", 100),
            ("L1200", "L1400", 100), ("L600", "greedy", 50), ("L1000", "sf1350", 100)],
    "levels": [("L1800", "sf1600", 50), ("L1800", "sf1800", 50), ("L1800", "sf2000", 50)],
    # Level 600 after the weakest row was relabelled from the joint fit of the plans above.
    "floor": [("L600", "L800", 100), ("L600", "L1000", 100), ("L600", "greedy", 50)],
    # The clock check: the same levels against the same anchors at a slow time control.
    "slow": [("L1000", "sf1350", 40), ("L1800", "sf1800", 40)],
    # Level 1800 against its other two anchors at the slow clock, for a joint fit like the fast one's.
    "slowtop": [("L1800", "sf1600", 40), ("L1800", "sf2000", 40)],
    # After a change to the search or the evaluation (issue 16): the reported levels against the
    # anchors they were fitted to, to see whether a level moved outside its 95% range.
    "recheck": [("L1000", "sf1350", 50), ("L1400", "sf1350", 50), ("L1800", "sf1600", 40),
                ("L1800", "sf1800", 40), ("L1800", "sf2000", 40), ("full", "sf2200", 50)],
    # The levels between the strongest row and full strength, each against the two anchors
    # around it.
    "upper": [("L2000", "sf1800", 40), ("L2000", "sf2000", 40), ("L2200", "sf2200", 40), ("full", "sf2400", 40)],
    # After the top row (2200) replaced the blend toward full strength: the levels it moved.
    "toprow": [("L2000", "sf2000", 30), ("L2200", "sf2200", 40)],
    # The second clock (run with --tc 10+0.1): one anchor per reported level.
    "clock": [("L1000", "sf1350", 30), ("L1400", "sf1350", 30), ("L1800", "sf1800", 30),
              ("L2200", "sf2200", 30), ("full", "sf2400", 40)],
    # The two network rows (run at both clocks), and level 2000, which the hand-crafted top row's
    # relabel (2200 to 2120) moved along its blend. The recorded games played the rows under
    # their provisional labels, as L2200 and L2300 (experiments/levels-2026-11-25b/).
    "network": [("L2170", "sf2200", 40), ("L2330", "sf2400", 40), ("L2000", "sf2000", 30)],
    # The two network rows alone: what a new network moves (run at both clocks).
    "netrows": [("L2170", "sf2200", 40), ("L2330", "sf2400", 40)],
    # After the 1370 row was relabelled 1330 (level 1400 had measured 1285 at 10+0.1): the levels
    # it moved (run at both clocks).
    "club": [("L1400", "sf1350", 40), ("L1200", "sf1350", 30)],
    # The human model (tools/calibration/human_player.py) before a level uses it (issue 48): where
    # do its most likely move and its samples (b1: as it says, b2: sharpened) play on the anchors' scale?
    "human": [("H1500", "sf1350", 20), ("H1500", "sf1800", 20), ("H1500b1", "sf1350", 20), ("H1500b2", "sf1350", 20)],
    # Where the model's forms play (issue 48, the levels' mapping): its most likely move at the top
    # and the bottom of the data's ratings, and a share of samples at the bottom, chained through
    # level 1000 below Stockfish's floor.
    "humanmap": [("H2000", "sf1800", 40), ("H800", "sf1350", 40), ("H800s0.5", "L1000", 40), ("L1000", "sf1350", 40),
                 ("H1200", "sf1600", 40)],
    # The levels that play the human model (search/levels.py HUMAN_LEVELS; run at both clocks):
    # level 1000 against Stockfish's floor and chained through level 1200.
    "humanlevels": [("L1200", "sf1350", 40), ("L1000", "L1200", 40), ("L1000", "sf1350", 40), ("L1400", "sf1350", 40),
                    ("L1600", "sf1600", 40)],
    # After the first reading: level 1000 (share 0.15 to 0.27) and 1400 (rating 1000 to 920) again.
    "humanlevels2": [("L1000", "L1200", 40), ("L1000", "sf1350", 40), ("L1400", "sf1350", 40)],
    # Level 1000 scores about 20% against its only anchor: more games.
    "humanlevels3": [("L1000", "sf1350", 40)],
    # Levels 1000 and 1200 after their shares of samples went up (both clocks; the shares of each try: docs/levels.md).
    "humanlow": [("L1200", "sf1350", 40), ("L1000", "sf1350", 80), ("L1000", "L1200", 40)],
    # The rows as shipped, at both clocks: each level against its anchor, the two lowest chained to
    # each other and to level 800 below (the search's own weakening), level 1600 to 1800 above.
    "humanrows": [("L1200", "sf1350", 60), ("L1000", "L1200", 60), ("L1000", "sf1350", 60), ("L800", "L1000", 60),
                  ("L1400", "sf1350", 50), ("L1600", "sf1600", 50), ("L1600", "L1800", 40)],
    # The top row that plays the model (lichess 1800's most likely move, both clocks), between its anchors.
    "humantop": [("L1700", "sf1600", 50), ("L1700", "sf1800", 50)],
    # After the model gained its board policy (2026-11-28): the rows below the top one, each
    # against its anchor and the two lowest chained (with humantop; the second clock `--games 30`).
    "humanpolicy": [("L1600", "sf1600", 40), ("L1400", "sf1350", 40), ("L1200", "sf1350", 40),
                    ("L1000", "sf1350", 40), ("L1000", "L1200", 40)],
    # The model's most likely move at lichess 1800 with the Chooser's veto (search/human_model.py):
    # how much strength a veto of 300 and of 150 centipawns buys.
    "humanveto": [("H1800v300", "sf1800", 40), ("H1800v150", "sf1800", 40)],
    # Then a second anchor for the veto of 300, and lichess 2000's choice with a veto of 100.
    "humanveto2": [("H1800v300", "sf2000", 40), ("H2000v100", "sf2000", 40), ("H2000v100", "sf2200", 40)],
    # The rows with the veto (1600: lichess 1800's most likely move; 1800: with a veto of 300;
    # 1850: lichess 2000's with 100): level 1700 between them (at 5+0.05 the rows' own readings
    # are the H players' games above, the same moves) ...
    "humanmid": [("L1700", "sf1600", 40), ("L1700", "sf1800", 40)],
    # ... and every row of the model at 10+0.1.
    "humanslow": [("L1000", "sf1350", 40), ("L1000", "L1200", 30), ("L1200", "sf1350", 40), ("L1400", "sf1350", 40),
                  ("L1600", "sf1600", 40), ("L1700", "sf1800", 40), ("L1800", "sf1800", 40), ("L1850", "sf2000", 40)],
    # Levels 1200 and 1400 read 130-140 lower at 10+0.1 than at 5+0.05 in those 40 games: 40 more each.
    "humanclub": [("L1400", "sf1350", 40), ("L1200", "sf1350", 40)],
    # Level 1200 still read 1082 at 10+0.1 over 80 games: its share of samples from 0.15 to 0.05, both clocks.
    "human1200": [("L1200", "sf1350", 60)],
    # The two readings nearest the edge (level 1200 at 10+0.1, level 1700 at 5+0.05): more games.
    "humanfirm": [("L1200", "sf1350", 60), ("L1700", "sf1800", 40)],
    # Issue 71: the model refitted on the watched games with the 256-unit board policy, the rows'
    # ratings rising with the level and the model's choice up to 2000 (both clocks).
    "humanwide": [("L1000", "sf1350", 40), ("L1000", "L1200", 40), ("L1200", "sf1350", 40), ("L1400", "sf1350", 40),
                  ("L1600", "sf1600", 40), ("L1800", "sf1800", 40), ("L1900", "sf1800", 40), ("L2000", "sf2000", 40)],
    # Their first reading at 5+0.05 put level 1400 (lichess 1000) at 1307 and 1800 (a veto of 200) at
    # 1667: lichess 1200 and a veto of 130 instead, measured again with the level between them.
    "humanwide2": [("L1400", "sf1350", 40), ("L1800", "sf1800", 40), ("L1900", "sf2000", 40), ("L1800", "sf1600", 40)],
    # Level 1800 read 1997 with a veto of 130 (against 1667 with 200): a veto of 160, against two anchors.
    "humanwide3": [("L1800", "sf1800", 40), ("L1800", "sf1600", 40)],
    # Level 1400 read 1446 and 1524 with lichess 1200 (1307 with 1000 at 5+0.05): lichess 1100, at
    # both clocks (`--tc 10+0.1` plays the first pairing only: `--games` caps nothing, so the plan
    # `humanwide5slow`); and level 1900 (its veto of 87 between the rows) at 5+0.05.
    "humanwide5": [("L1400", "sf1350", 40), ("L1900", "sf2000", 40)],
    "humanwide5slow": [("L1400", "sf1350", 40)],
    # Level 2000 with a veto of 60 read 1975 at 5+0.05 but 1867 at 10+0.1: a veto of 40 (both clocks;
    # it read 1876 and 1914, so that row became level 1900's).
    "humanwide6": [("L2000", "sf2000", 40)],
    # The slip (search/human_model.py): a band's own rating's most likely move, weakened toward the
    # likely moves that lose (lichess 1000-1400's choice matches the 1100-1299 band 1.6 points more
    # than lichess 800's, the choice of level 1200): where do they play?
    "humanslip": [("H1000slip0.25", "sf1350", 40), ("H1200slip0.3", "sf1350", 40), ("H1400slip0.3", "sf1350", 40)],
    # They read 1142, 1026 and 1117: smaller slips for levels 1200 and 1400; and lichess 2000's
    # choice with its veto of 40 judged by a search of 60,000 nodes (20,000 read 1876 and 1914).
    "humanslip2": [("H1200slip0.2", "sf1350", 40), ("H1400slip0.1", "sf1350", 40), ("H2000v40n60000", "sf2000", 40)],
    # Lichess 1200 read 1307 with a slip of 0.2 and 1026 with 0.3, lichess 1400 1483 with 0.1 and
    # 1117 with 0.3: the slips interpolated to the levels' numbers.
    "humanslip3": [("H2000v40n60000", "sf2000", 40), ("H1200slip0.24", "sf1350", 40), ("H1400slip0.14", "sf1350", 40)],
    # The rows with slips (1000: lichess 1000 with 0.3, 1200: 1200 with 0.24, 1400: 1400 with 0.17)
    # and level 2000 as lichess 2000's choice with a veto of 40 by 40,000 nodes, 1900 between it and
    # the 1800 row: each level against its anchor, level 1000 chained to 1200 too (both clocks;
    # `humanslip4slow` at 10+0.1, where `--games` caps nothing).
    "humanslip4": [("L1200", "sf1350", 40), ("L1000", "sf1350", 40), ("L1000", "L1200", 40), ("L1400", "sf1350", 40),
                   ("L2000", "sf2000", 40), ("L1900", "sf1800", 40)],
    "humanslip4slow": [("L1200", "sf1350", 40), ("L1000", "sf1350", 40), ("L1400", "sf1350", 40), ("L2000", "sf2000", 40),
                       ("L1900", "sf1800", 40)],
    # At 10+0.1 level 1900 read 1997 and level 2000 1957, each against one anchor: the other anchor
    # for each (both clocks).
    "humanslip5": [("L1900", "sf2000", 40), ("L2000", "sf1800", 40)],
    # The levels between the rows, which blend the two rows beside them (search/levels.py), each
    # against its nearest anchor (both clocks).
    "humanbetween": [("L1100", "sf1350", 40), ("L1300", "sf1350", 40), ("L1500", "sf1600", 40), ("L1700", "sf1800", 40)],
    # Levels 1500 and 1700 read +134 and +108 at 5+0.05, 1500 +151 at 10+0.1 (40 games each):
    # level 1500 gets a row of its own (lichess 1450, slip 0.17), level 1700 as many games again.
    "humanbetween2": [("L1500", "sf1600", 40), ("L1700", "sf1800", 40)],
    "humanbetween2slow": [("L1500", "sf1600", 40)],
    # Between the new row 1500 (lichess 1450, slip 0.17) and 1600 (lichess 1600, no slip) the slip
    # falls to nothing: level 1550, the level most likely to play above its number.
    "humanbetween3": [("L1550", "sf1600", 40)],
    # The board policy's second inputs (the attacked pieces, the opponent's last move; 2026-12-06):
    # every row of the model against its anchor (both clocks).
    "humanv2": [("L1000", "sf1350", 40), ("L1200", "sf1350", 40), ("L1400", "sf1350", 40), ("L1500", "sf1600", 40),
                ("L1600", "sf1600", 40), ("L1800", "sf1800", 40), ("L2000", "sf2000", 40)],
    # Level 1000 read +142 at 5+0.05 (22.5%) and 964 at 10+0.1, level 1400 1367 and +114 (72.5%):
    # 40 more games of each where it missed; level 1900, between the rows 1800 and 2000, against
    # its anchor (`humanv2more` at 5+0.05, `humanv2moreslow` at 10+0.1).
    "humanv2more": [("L1000", "sf1350", 40), ("L1900", "sf2000", 40)],
    "humanv2moreslow": [("L1400", "sf1350", 40), ("L1900", "sf2000", 40)],
    # The levels between the rows, with the board policy's second inputs, each against its
    # nearest anchor (both clocks); and at 10+0.1, where level 1400 read 13 above level 1500, the
    # two against each other (`humanv2order`).
    "humanv2between": [("L1100", "sf1350", 40), ("L1300", "sf1350", 40), ("L1550", "sf1600", 40),
                       ("L1700", "sf1800", 40)],
    "humanv2order": [("L1400", "L1500", 40), ("L1500", "sf1600", 40)],
    # Level 1550 read 1436 at 5+0.05 (27.5% against Stockfish 1600, 40 games): as many again.
    "humanv2between2": [("L1550", "sf1600", 40)],
    # At 10+0.1 level 1500 (lichess 1450, slip 0.17) read 1437 on 120 games and level 1400 1468,
    # and they drew their match (51.2% to level 1400): a stronger form for row 1500, lichess 1500
    # with a slip of 0.14, against its anchor (both clocks) and against level 1400 (10+0.1).
    "humanv2row1500": [("H1500slip0.14", "sf1600", 40), ("H1500slip0.14", "L1400", 40)],
    # Row 1500 is that form since: the level itself against level 1400, and level 1550, which
    # blends the new row with row 1600 (lichess 1550, slip 0.07), against its anchor (both clocks).
    "humanv2row1500b": [("L1500", "L1400", 40), ("L1550", "sf1600", 40)],
}
LOG10_OVER_400 = math.log(10) / 400


def anchor_elo(name: str) -> float | None:
    """The fixed rating of a Stockfish anchor (`sf1350`), None for the players we fit."""
    match = re.fullmatch(r"sf(\d+)", name)
    return float(match.group(1)) if match else None


def engine_tokens(name: str, jitfish: str) -> list[str]:
    """The tools.matches.match --engine tokens of a player."""
    if name == "full":
        return [f"cmd={jitfish}", "name=full"]
    if name.startswith("L"):
        return [f"cmd={jitfish}", f"name={name}", "option.UCI_LimitStrength=true", f"option.UCI_Elo={name[1:]}"]
    if anchor_elo(name) is not None:
        return [f"cmd={paths.stockfish()}", f"name={name}", "option.UCI_LimitStrength=true",
                f"option.UCI_Elo={name[2:]}", "option.Move Overhead=50"]
    if name in ("random", "greedy"):
        return [f"cmd={sys.executable} -m tools.calibration.anchors {name}", f"name={name}"]
    match = re.fullmatch(r"H(\d+)(?:b([\d.]+)|s([\d.]+)|slip([\d.]+))?(?:v(\d+)(?:n(\d+))?)?", name)
    if match:                # the human model at a rating: its most likely move, a sample sharpened by b,
        # a share s of its moves sampled, or its most likely move with a slip; v adds the Chooser's
        # veto of v centipawns, n its search's nodes
        how = f"--sharpen {match.group(2)}" if match.group(2) else f"--share {match.group(3) or 0}"
        how += f" --slip {match.group(4)}" if match.group(4) else ""
        how += f" --veto {match.group(5)}" if match.group(5) else ""
        how += f" --veto-nodes {match.group(6)}" if match.group(6) else ""
        return [f"cmd={sys.executable} -m tools.calibration.human_player {match.group(1)} {how}", f"name={name}"]
    raise ValueError(f"unknown player {name!r}")


def pairing_done(json_path: Path) -> bool:
    """Has this pairing's match finished? A match stopped early (SIGTERM, Ctrl-C) also writes its
    summary, marked interrupted: that one is played again, not skipped."""
    try:
        return not json.loads(json_path.read_text())["interrupted"]
    except (OSError, ValueError, KeyError):
        return False


def run(plan: list[tuple[str, str, int]], out: Path, jitfish: str, tc: str, concurrency: int, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for index, (first, second, games) in enumerate(plan):
        stem = f"{first}-{second}-{tc.replace('/', 'm')}"
        json_path, pgn_path, log_path = (out / f"{stem}.{ext}" for ext in ("json", "pgn", "log"))
        if pairing_done(json_path):
            print(f"{stem}: done already", flush=True)
            continue
        command = [sys.executable, "-m", "tools.matches.match", "--engine", *engine_tokens(first, jitfish),
                   "--engine", *engine_tokens(second, jitfish), "--games", str(games), "--tc", tc,
                   "--concurrency", str(concurrency), "--seed", str(seed + index),
                   "--pgn", str(pgn_path), "--json", str(json_path)]
        print(f"{stem}: {games} games", flush=True)
        with open(log_path, "w") as log:
            subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, check=False)


# ---- the fit ----------------------------------------------------------------------------------------

Game = tuple[str, str, float]          # white, black, white's score


def load_games(paths: list[str], same: dict[str, str] | None = None) -> dict[tuple[str, str], list[Game]]:
    """The games of each pairing (sorted player names) from tools.matches.match JSON summaries;
    `same` renames players (a form of the human model and the level that since plays it)."""
    same = same or {}
    pairings: dict[tuple[str, str], list[Game]] = defaultdict(list)
    for path in paths:
        summary = json.loads(Path(path).read_text())
        for game in summary["game_list"]:
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game["result"])
            if score is not None:
                white, black = same.get(game["white"], game["white"]), same.get(game["black"], game["black"])
                pairings[tuple(sorted((white, black)))].append((white, black, score))
    return pairings


def fit(pairings: dict[tuple[str, str], list[Game]], iterations: int = 200) -> dict[str, float]:
    """Maximum-likelihood ratings with the anchors fixed (one virtual draw per pairing)."""
    players = sorted({p for pair in pairings for p in pair})
    rating = {p: anchor_elo(p) if anchor_elo(p) is not None else 1500.0 for p in players}
    # Per player: (opponent, points scored, games) summed over pairings, prior included.
    tallies: dict[str, list[tuple[str, float, float]]] = defaultdict(list)
    for (a, b), games in pairings.items():
        points_a = sum(s if white == a else 1 - s for white, _, s in games) + 0.5
        n = len(games) + 1
        tallies[a].append((b, points_a, n))
        tallies[b].append((a, n - points_a, n))
    free = [p for p in players if anchor_elo(p) is None]
    for _ in range(iterations):
        for p in free:
            gradient = curvature = 0.0
            for opponent, points, n in tallies[p]:
                expected = 1 / (1 + 10 ** ((rating[opponent] - rating[p]) / 400))
                gradient += points - n * expected
                curvature += n * expected * (1 - expected)
            step = gradient / (LOG10_OVER_400 * max(curvature, 1e-9))
            rating[p] += max(-200.0, min(200.0, step))
    return rating


def resampled_fits(pairings: dict[tuple[str, str], list[Game]], samples: int, seed: int) -> Iterator[dict[str, float]]:
    """Ratings fitted to each of `samples` resamples (with replacement) of every pairing's games."""
    rng = random.Random(seed)
    for _ in range(samples):
        yield fit({pair: rng.choices(games, k=len(games)) for pair, games in pairings.items()}, iterations=60)


def range95(values: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles."""
    values = sorted(values)
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def bootstrap(pairings: dict[tuple[str, str], list[Game]], samples: int, seed: int) -> dict[str, tuple[float, float]]:
    """The 95% range of each rating over resampled games."""
    draws: dict[str, list[float]] = defaultdict(list)
    for ratings in resampled_fits(pairings, samples, seed):
        for player, value in ratings.items():
            draws[player].append(value)
    return {player: range95(values) for player, values in draws.items()}


def compare(player: str, before: list[str], after: list[str], samples: int) -> str:
    """One player's rating from two sets of games (two clocks, say) and how far it moved, with a
    95% range for the move from resampling both sets independently."""
    first, second = load_games(before), load_games(after)
    for name, pairings in (("--before", first), ("--after", second)):
        if not any(player in pair for pair in pairings):
            raise SystemExit(f"error: {player} plays no game in the {name} summaries")
    moves = [b[player] - a[player] for a, b in zip(resampled_fits(first, samples, 1), resampled_fits(second, samples, 2))]
    low, high = range95(moves)
    games = [sum(len(g) for pair, g in pairings.items() if player in pair) for pairings in (first, second)]
    rating_first, rating_second = fit(first)[player], fit(second)[player]
    return (f"{player}: {rating_first:.0f} over {games[0]} games, then {rating_second:.0f} over {games[1]} games: "
            f"moved {rating_second - rating_first:+.0f} (95% range {low:+.0f}..{high:+.0f})")


def report(paths: list[str], samples: int, same: dict[str, str] | None = None) -> str:
    pairings = load_games(paths, same)
    ratings = fit(pairings)
    bounds = bootstrap(pairings, samples, seed=1)
    lines = ["| player | games | Elo | 95% range | nominal | off by |", "| --- | --- | --- | --- | --- | --- |"]
    counts: dict[str, int] = defaultdict(int)
    for (a, b), games in pairings.items():
        counts[a] += len(games)
        counts[b] += len(games)
    for player in sorted(ratings, key=ratings.get):
        anchor = anchor_elo(player)
        nominal = int(player[1:]) if player.startswith("L") and player[1:].isdigit() else None
        low, high = bounds[player]
        if anchor is not None:
            lines.append(f"| {player} | {counts[player]} | {anchor:.0f} | anchor | | |")
            continue
        lines.append(f"| {player} | {counts[player]} | {ratings[player]:.0f} | {low:.0f}..{high:.0f} "
                     f"(±{(high - low) / 2:.0f}) | {nominal or ''} | "
                     f"{'' if nominal is None else f'{ratings[player] - nominal:+.0f}'} |")
    lines.append("")
    lines.append("| pairing | games | score of first |")
    lines.append("| --- | --- | --- |")
    for (a, b), games in sorted(pairings.items()):
        points = sum(s if white == a else 1 - s for white, _, s in games)
        lines.append(f"| {a} - {b} | {len(games)} | {points / len(games):.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.calibration.calibrate", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("run", help="play the calibration matches (skips those already played)")
    play.add_argument("--out", default="runs/calib", help="folder for PGN, logs and JSON summaries")
    play.add_argument("--engine", default=".venv/bin/jitfish", help="the Jitfish executable")
    play.add_argument("--tc", default="5+0.05", help="time control (default 5+0.05)")
    play.add_argument("--plan", choices=sorted(PLANS), default="levels", help="which pairings (default levels)")
    play.add_argument("--concurrency", type=int, default=2)
    play.add_argument("--seed", type=int, default=500)
    play.add_argument("--games", type=int, help="games a pairing instead of the plan's (e.g. fewer at the slower clock)")
    ratings = sub.add_parser("fit", help="fit ratings to match summaries and print the tables")
    ratings.add_argument("json", nargs="+", help="tools.matches.match --json summaries")
    ratings.add_argument("--bootstrap", type=int, default=200, help="resamples for the error bars")
    ratings.add_argument("--same", nargs="+", default=[], metavar="FORM=PLAYER",
                         help="count FORM's games as PLAYER's (e.g. H1500slip0.14=L1500: the form a level plays)")
    moved = sub.add_parser("compare", help="how far one player's rating moves between two sets of games")
    moved.add_argument("player", help="e.g. L1800")
    moved.add_argument("--before", nargs="+", required=True, help="summaries of the first set (e.g. the fast clock)")
    moved.add_argument("--after", nargs="+", required=True, help="summaries of the second set")
    moved.add_argument("--bootstrap", type=int, default=1000, help="resamples for the error bars")
    args = parser.parse_args(argv)
    if args.command == "run":
        plan = [(a, b, args.games or games) for a, b, games in PLANS[args.plan]]
        run(plan, Path(args.out), str(Path(args.engine).absolute()), args.tc,
            args.concurrency, args.seed)
    elif args.command == "fit":
        if any("=" not in pair for pair in args.same):
            parser.error(f"--same takes FORM=PLAYER pairs, not {' '.join(args.same)}")
        same = dict(pair.split("=", 1) for pair in args.same)
        print(report(args.json, args.bootstrap, same))
    else:
        print(compare(args.player, args.before, args.after, args.bootstrap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
