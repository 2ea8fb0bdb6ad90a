"""The soak: Jitfish against Stockfish over a mixed plan of 1000 games at several time controls,
pondering and threads, as a series of tools.matches.match runs, summed up in one report (docs/testing.md,
Reliability). The same driver plays the strength ladder (`--plan ladder`: 10+0.1, one thread,
Stockfish at UCI_Elo 2200, 2400, 2600 and 2800; docs/strength.md): `python -m tools.calibration.calibrate fit
OUT/ladder-*.json` fits Jitfish's Elo on that scale (each opponent is named sfNNNN, the
calibration's anchor names).

Run from the repository root::

    nice -n 10 .venv/bin/python -m tools.matches.soak --out runs/soak --concurrency 2     # 1000 games
    nice -n 10 .venv/bin/python -m tools.matches.soak --out runs/ladder --plan ladder --concurrency 2
    nice -n 10 .venv/bin/python -m tools.matches.soak --out runs/soak-pilot --pilot

Each category is one `tools.matches.match` run (its JSON, PGN and the engines' stderr in --out); a
category whose JSON is complete is not played again, so an interrupted soak resumes. The summary
(`summary.json`, and a table on stdout) counts per category what must stay zero for Jitfish:
crashes, illegal moves, time forfeits, stalls (the watchdog), tracebacks on its stderr and
python-chess's complaints about its output; it names the command and the engine's commit. The
exit status is 0 only when all of them are zero.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools import paths

ROOT = paths.ROOT
DEFAULT_ENGINE = str(ROOT / ".venv" / "bin" / "jitfish")
STOCKFISH_ELO = 2200                 # Jitfish's full strength measures about 2100 on this scale
FAILURES = ("crashes", "illegal_moves", "time_forfeits", "timeouts", "tracebacks", "protocol_warnings")


@dataclass(frozen=True)
class Category:
    """One match of the plan: how many games, the limit, and how Jitfish is set up."""
    name: str
    games: int
    limit: list[str]                   # --tc T or --st S
    variant: str = "standard"
    ponder: bool = False
    threads: int = 1
    pilot_games: int = 2
    stockfish_overhead: int = 100      # its Move Overhead (ms): keeps it from flagging on a busy machine
    stockfish_elo: int | None = None   # its UCI_Elo (None: --stockfish-elo)
    notes: str = ""
    extra: list[str] = field(default_factory=list)

    @property
    def alone(self) -> bool:
        """Played at concurrency 1 whatever --concurrency says: Jitfish pondering or on two
        threads needs the second core for itself or for its opponent."""
        return self.ponder or self.threads > 1


SOAK = [
    # At 1+0.01 Stockfish 15.1 plans with the clock less 52 Move Overheads: 100 ms would leave it
    # nothing (it moves at once, far below its level); 20 ms leaves it half.
    Category("bullet", 400, ["--tc", "1+0.01"], pilot_games=4, stockfish_overhead=20),
    Category("bullet-ponder", 150, ["--tc", "1+0.01"], ponder=True, pilot_games=4, stockfish_overhead=20),
    Category("bullet-threads2", 60, ["--tc", "1+0.01"], threads=2, stockfish_overhead=20),
    Category("chess960-bullet", 60, ["--tc", "1+0.01"], variant="chess960", stockfish_overhead=20),
    Category("blitz", 60, ["--tc", "10+0.1"]),
    Category("blitz-ponder", 30, ["--tc", "10+0.1"], ponder=True),
    Category("blitz-threads2", 30, ["--tc", "10+0.1"], threads=2),
    Category("repeating", 60, ["--tc", "40/10"], notes="40 moves in 10 s, repeating"),
    Category("repeating-ponder", 20, ["--tc", "40/10"], ponder=True, notes="40 moves in 10 s, repeating"),
    Category("movetime", 60, ["--st", "0.2"], notes="go movetime 200"),
    Category("chess960", 50, ["--tc", "10+0.1"], variant="chess960"),
    Category("chess960-ponder", 20, ["--tc", "10+0.1"], variant="chess960", ponder=True),
]

# The strength ladder (docs/strength.md): single thread, no ponder, 10+0.1, 200 games against
# 2600, the goal's anchor. Not part of the soak's 1000 games; its failures are counted the same way.
LADDER = [
    Category("ladder-2200", 100, ["--tc", "10+0.1"], stockfish_elo=2200),
    Category("ladder-2400", 100, ["--tc", "10+0.1"], stockfish_elo=2400),
    Category("ladder-2600", 200, ["--tc", "10+0.1"], stockfish_elo=2600),
    Category("ladder-2800", 100, ["--tc", "10+0.1"], stockfish_elo=2800),
]

PLANS = {"soak": SOAK, "ladder": LADDER}


def engine_commit(engine: str) -> dict[str, Any]:
    """The commit of the checkout the engine runs from (its .venv's parent), and whether the
    checkout has uncommitted changes."""
    checkout = Path(engine).resolve().parents[2] if ".venv" in Path(engine).parts else ROOT
    def git(*args: str) -> str:
        run = subprocess.run(["git", "-C", str(checkout), *args], capture_output=True, text=True, check=False)
        return run.stdout.strip() if run.returncode == 0 else ""
    return {"checkout": str(checkout), "commit": git("rev-parse", "HEAD") or "unknown",
            "dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}


def match_argv(category: Category, args: argparse.Namespace, index: int) -> list[str]:
    """The tools.matches.match command line of one category."""
    out = Path(args.out)
    games = category.pilot_games if args.pilot else category.games
    jitfish = [f"cmd={args.engine}", "name=jitfish", f"option.Hash={args.hash}"]
    if category.threads > 1:
        jitfish.append(f"option.Threads={category.threads}")
    if category.ponder:
        jitfish.append("ponder=true")
    elo = category.stockfish_elo or args.stockfish_elo
    stockfish = [f"cmd={args.stockfish}", f"name=sf{elo}", "option.UCI_LimitStrength=true",
                 f"option.UCI_Elo={elo}", "option.Hash=16", "option.Threads=1",
                 f"option.Move Overhead={category.stockfish_overhead}"]
    return [sys.executable, "-m", "tools.matches.match", "--engine", *jitfish, "--engine", *stockfish,
            "--games", str(games), *category.limit, "--variant", category.variant,
            "--seed", str(args.seed + index), "--concurrency", str(1 if category.alone else args.concurrency),
            "--event", f"Jitfish soak: {category.name}", *category.extra,
            "--json", str(out / f"{category.name}.json"), "--pgn", str(out / f"{category.name}.pgn"),
            "--engine-stderr", str(out / f"{category.name}.stderr")]


def complete(path: Path, games: int) -> dict[str, Any] | None:
    """The summary of a finished category run, or None."""
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if summary.get("interrupted") or summary.get("games") != games:
        return None
    return summary


def category_report(category: Category, summary: dict[str, Any], stderr_file: Path) -> dict[str, Any]:
    """What the soak counts for one category, from its match summary (Jitfish is engine 0)."""
    jitfish, stockfish = summary["engine_stats"]
    try:
        tracebacks = stderr_file.read_text(encoding="utf-8", errors="replace").count("Traceback")
    except OSError:
        tracebacks = 0
    moves = max(jitfish["moves"], 1)
    return {
        "category": category.name, "games": summary["games"], "time_control": summary["time_control"],
        "variant": summary["variant"], "ponder": category.ponder, "threads": category.threads,
        "opponent": summary["engines"][1],
        "jitfish_wdl": [summary["wins"], summary["draws"], summary["losses"]],
        "score": summary["score"], "elo": summary["elo_pentanomial"]["text"],
        "crashes": jitfish["crashes"], "illegal_moves": jitfish["illegal_moves"],
        "time_forfeits": jitfish["time_forfeits"], "timeouts": jitfish["timeouts"],
        "tracebacks": tracebacks,       # both engines write to the file; Stockfish writes none
        "protocol_warnings": jitfish["protocol_warnings"],
        "restarts": jitfish["restarts"], "overruns": jitfish["overruns"],
        "max_overrun_ms": jitfish["max_overrun_ms"], "avg_move_ms": round(1000 * jitfish["think_time"] / moves),
        "ponder_hits": jitfish["ponder_hits"], "ponder_misses": jitfish["ponder_misses"],
        "stockfish_failures": sum(stockfish[k] for k in ("crashes", "illegal_moves", "time_forfeits", "timeouts")),
        "terminations": summary["terminations"], "wall_seconds": summary["wall_seconds"],
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    head = (f"{'category':<18}{'games':>6}{'W-D-L':>11}{'crash':>6}{'illeg':>6}{'time':>5}{'stall':>6}"
            f"{'trace':>6}{'warn':>5}{'over':>5}{'max ms':>7}{'avg ms':>7}{'hit/miss':>9}{'SF fail':>8}{'wall s':>8}")
    print(head)
    for r in rows:
        w, d, l = r["jitfish_wdl"]
        print(f"{r['category']:<18}{r['games']:>6}{f'{w}-{d}-{l}':>11}{r['crashes']:>6}{r['illegal_moves']:>6}"
              f"{r['time_forfeits']:>5}{r['timeouts']:>6}{r['tracebacks']:>6}{r['protocol_warnings']:>5}"
              f"{r['overruns']:>5}{r['max_overrun_ms']:>7.0f}{r['avg_move_ms']:>7}"
              f"{(str(r['ponder_hits']) + '/' + str(r['ponder_misses'])) if r['ponder'] else '-':>9}"
              f"{r['stockfish_failures']:>8}{r['wall_seconds']:>8.0f}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m tools.matches.soak", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="folder for the runs and summary.json")
    p.add_argument("--pilot", action="store_true", help="a few games per category (pilot_games), to try the tooling")
    p.add_argument("--plan", choices=sorted(PLANS), default="soak",
                   help="soak: the 1000 mixed games (default); ladder: the strength ladder")
    p.add_argument("--only", nargs="+", metavar="CATEGORY", help="play only these categories")
    p.add_argument("--engine", default=DEFAULT_ENGINE, help=f"the Jitfish executable (default {DEFAULT_ENGINE})")
    p.add_argument("--stockfish", default=paths.stockfish(),
                   help="the Stockfish executable (default: tools/paths.py's, $JITFISH_STOCKFISH first)")
    p.add_argument("--stockfish-elo", type=int, default=STOCKFISH_ELO)
    p.add_argument("--hash", type=int, default=64, help="Jitfish's Hash in MB (default 64)")
    p.add_argument("--concurrency", type=int, default=1,
                   help="games in parallel in the categories without ponder or Threads 2 (default 1)")
    p.add_argument("--seed", type=int, default=14000, help="seed of the first category (+1 per category)")
    p.add_argument("--list", action="store_true", help="print the plan and the match commands, play nothing")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    chosen = PLANS[args.plan]
    names = [c.name for c in chosen]
    unknown = set(args.only or []) - set(names)
    if unknown:
        parser.error(f"unknown categories {sorted(unknown)}; the plan has {names}")
    plan = [(i, c) for i, c in enumerate(chosen) if not args.only or c.name in args.only]
    out = Path(args.out)
    if args.list:
        for i, c in plan:
            print(f"{c.name}: {c.pilot_games if args.pilot else c.games} games {c.notes}\n  "
                  + shlex.join(match_argv(c, args, i)))
        return 0
    if not os.access(args.engine, os.X_OK) or not os.access(args.stockfish, os.X_OK):
        parser.error(f"not executable: {args.engine if not os.access(args.engine, os.X_OK) else args.stockfish}")
    out.mkdir(parents=True, exist_ok=True)
    started = datetime.datetime.now().isoformat(timespec="seconds")
    engine = {"command": args.engine, **engine_commit(args.engine)}     # before anything can change it
    rows, errors = [], []
    for i, category in plan:
        games = category.pilot_games if args.pilot else category.games
        json_path = out / f"{category.name}.json"
        summary = complete(json_path, games)
        if summary is None:
            argv_match = match_argv(category, args, i)
            print(f"\n=== {category.name}: {games} games ===\n{shlex.join(argv_match)}", flush=True)
            code = subprocess.run(argv_match, cwd=ROOT, check=False).returncode
            summary = complete(json_path, games)
            if summary is None:
                errors.append(f"{category.name}: tools.matches.match exited with {code} without a complete summary")
                if code == 130:
                    break           # interrupted: stop the soak too
                continue
        else:
            print(f"=== {category.name}: done already ({json_path}) ===", flush=True)
        rows.append(category_report(category, summary, out / f"{category.name}.stderr"))
    totals = {key: sum(r[key] for r in rows) for key in ("games", *FAILURES, "stockfish_failures",
                                                          "ponder_hits", "ponder_misses", "overruns")}
    totals["wdl"] = [sum(r["jitfish_wdl"][k] for r in rows) for k in range(3)]
    report = {
        "command": shlex.join([sys.executable, "-m", "tools.matches.soak", *(argv if argv is not None else sys.argv[1:])]),
        "started": started, "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        "engine": engine,
        "opponent": f"{args.stockfish} UCI_LimitStrength, UCI_Elo {args.stockfish_elo} unless the category says",
        "pilot": args.pilot, "categories": rows, "totals": totals, "errors": errors,
        "failures": sum(totals[k] for k in FAILURES) + len(errors),
    }
    (out / "summary.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\n=== soak: {totals['games']} games, engine {report['engine']['commit'][:12]}"
          f"{' (dirty checkout)' if report['engine']['dirty'] else ''} ===")
    print_table(rows)
    w, d, l = totals["wdl"]
    print(f"total: {totals['games']} games, Jitfish +{w} ={d} -{l}; failures {report['failures']} "
          + " ".join(f"{k} {totals[k]}" for k in FAILURES) + f"; Stockfish failures {totals['stockfish_failures']}")
    for error in errors:
        print(f"error: {error}")
    print(f"summary: {out / 'summary.json'}")
    return 0 if report["failures"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
