"""Match statistics: logistic Elo, 95% error bars (trinomial and pentanomial), LOS.

Elo is the standard logistic model: score s = 1 / (1 + 10^(-elo/400)), so
elo(s) = -400 * log10(1/s - 1).  The error bar is built on the score scale and
mapped through elo(): with mean score s and standard error se of that mean,
the 95% interval is [elo(s - 1.96 se), elo(s + 1.96 se)], reported as ± half
its width.

* trinomial: se from the per-game score variance (each game scores 0, 0.5, 1).
* pentanomial: se from the variance of game-pair scores (each pair of games on
  the same opening with colours swapped scores 0, 0.25, 0.5, 0.75 or 1 per
  game).  Pairs are correlated through the opening, so this is the more
  honest (usually smaller) error when openings are played twice; it is what
  fishtest and fastchess report.

LOS (likelihood of superiority) uses the usual normal approximation on
wins and losses only: LOS = 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))).

SPRT: the generalised log-likelihood ratio of the pentanomial pair scores between two logistic
Elo hypotheses, by the exact maximum-likelihood method of M. Van den Bergh ("Comparing the
approximations for the generalized log likelihood ratio of a multinomial distribution"), as
fishtest and fastchess compute it (fastchess's "logistic" model, empty buckets counted as 0.001).

    python -m tools.matches.elo experiments/.../match.json ...

re-derives each match's result from the per-game records of its `tools/matches/match.py --json` summary;
`--compare NEW.json BASE.json` gives the Elo of one gauntlet over another against the same
opponent with the same seed (the foreign yardstick, tools/README.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class EloEstimate:
    """An Elo point estimate with its 95% interval."""

    elo: float
    lo: float
    hi: float
    method: str
    samples: int

    @property
    def error(self) -> float:
        """Half-width of the 95% interval in Elo (inf when undetermined)."""
        return (self.hi - self.lo) / 2

    def format(self) -> str:
        """Render as e.g. '+35.2 ± 40.1'."""
        return f"{fmt_elo(self.elo)} ± {fmt_num(self.error)}"


def fmt_num(x: float) -> str:
    """Format a non-negative float with one decimal, 'inf' or 'nan'."""
    if math.isnan(x):
        return "nan"
    return "inf" if math.isinf(x) else f"{x:.1f}"


def fmt_elo(x: float) -> str:
    """Format a signed Elo value with one decimal, '+inf'/'-inf' or 'nan'."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.1f}" if round(x, 1) != 0 else "+0.0"


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score in [0, 1]."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score for an Elo difference (inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _estimate(values: list[float], counts: list[int], method: str) -> EloEstimate:
    """Elo and 95% interval from a discrete score distribution (per sample)."""
    n = sum(counts)
    if n == 0:
        return EloEstimate(math.nan, math.nan, math.nan, method, 0)
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    elo = elo_from_score(mean)
    if n < 2 or mean <= 0.0 or mean >= 1.0:  # no spread to measure, or an infinite point estimate
        return EloEstimate(elo, -math.inf, math.inf, method, n)
    se = math.sqrt(var / n)
    return EloEstimate(elo, elo_from_score(mean - Z95 * se), elo_from_score(mean + Z95 * se), method, n)


def trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo with an error bar from the per-game (win/draw/loss) score variance."""
    return _estimate([1.0, 0.5, 0.0], [wins, draws, losses], "trinomial")


def pentanomial(counts: list[int]) -> EloEstimate:
    """Elo with an error bar from game-pair scores; counts[k] = pairs scoring k/2 points (k=0..4)."""
    if len(counts) != 5:
        raise ValueError("pentanomial needs 5 counts (pair scores 0, 0.5, 1, 1.5, 2)")
    return _estimate([0.0, 0.25, 0.5, 0.75, 1.0], list(counts), "pentanomial")


def pair_bucket(score_a: float, score_b: float) -> int:
    """Pentanomial bucket (0..4) of a game pair from one player's two game scores."""
    return round((score_a + score_b) * 2)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority (probability the first player is stronger), draws ignored."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR below which H0 (elo0) and above which H1 (elo1) is accepted."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) from pentanomial counts
    (pairs scoring 0, 0.5, 1, 1.5, 2 points), both Elos logistic."""
    if len(counts) != 5:
        raise ValueError("sprt_llr needs 5 pentanomial counts")
    if sum(counts) == 0:
        return 0.0
    scores = [0.0, 0.25, 0.5, 0.75, 1.0]
    weights = [c if c else 1e-3 for c in counts]
    total = sum(weights)
    probs = [w / total for w in weights]

    def most_likely(s: float) -> list[float]:
        """The distribution on `scores` with mean s closest (ML) to the observed one: p_i =
        phat_i / (1 + theta (a_i - s)), theta the root of sum phat_i (a_i - s) / (1 + theta (a_i - s))."""
        def f(theta: float) -> float:
            return sum(p * (a - s) / (1 + theta * (a - s)) for a, p in zip(scores, probs))
        lo, hi = -1 / (scores[-1] - s), -1 / (scores[0] - s)    # f falls from +inf to -inf between
        for _ in range(200):
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        theta = (lo + hi) / 2
        return [p / (1 + theta * (a - s)) for a, p in zip(scores, probs)]

    p0, p1 = most_likely(score_from_elo(elo0)), most_likely(score_from_elo(elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def _pair_scores(games: list[dict]) -> dict[tuple[int, str], float]:
    """The first engine's mean score (0..1) of each complete game pair, keyed by pair and opening."""
    pairs: dict[tuple[int, str], list[float]] = defaultdict(list)
    for game in games:
        pairs[(game["pair"], game.get("opening", ""))].append(game["score_first"])
    return {key: sum(scores) / 2 for key, scores in pairs.items() if len(scores) == 2}


def counts_from_games(games: list[dict]) -> tuple[tuple[int, int, int], list[int]]:
    """(wins, draws, losses) and the pentanomial counts of the first engine, from the per-game
    records of a match summary (`game_list`: `pair` and `score_first`); incomplete pairs count in
    the first only."""
    scores = [game["score_first"] for game in games]
    penta = [0] * 5
    for pair_score in _pair_scores(games).values():
        penta[pair_bucket(pair_score, pair_score)] += 1     # its mean twice: the sum of its two games
    return (scores.count(1.0), scores.count(0.5), scores.count(0.0)), penta


def compare(new_games: list[dict], base_games: list[dict]) -> EloEstimate:
    """Elo of one gauntlet over another against the same opponent, played with the same seed (so
    game pair k has the same opening and colours in both): elo(new score) - elo(base score) over
    the pairs both completed, its 95% interval from the spread of the pair-by-pair differences,
    mapped to Elo by the slope of elo() at the mean of the two scores."""
    new, base = _pair_scores(new_games), _pair_scores(base_games)
    common = sorted(new.keys() & base.keys())
    n = len(common)
    if n < 2:
        raise ValueError("the two matches share fewer than two complete game pairs (same seed?)")
    s_new, s_base = sum(new[k] for k in common) / n, sum(base[k] for k in common) / n
    diffs = [new[k] - base[k] for k in common]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    elo = elo_from_score(s_new) - elo_from_score(s_base)
    mid = (s_new + s_base) / 2
    if not 0.0 < mid < 1.0 or math.isinf(elo):
        return EloEstimate(elo, -math.inf, math.inf, "paired", n)
    error = Z95 * se * 400.0 / (math.log(10.0) * mid * (1.0 - mid))
    return EloEstimate(elo, elo - error, elo + error, "paired", n)


def pooled(summaries: list[dict]) -> list[dict]:
    """The games of several gauntlets as one, each game pair keyed by its gauntlet as well."""
    return [dict(game, pair=(index, game["pair"])) for index, summary in enumerate(summaries)
            for game in summary["game_list"]]


def describe(summary: dict) -> str:
    """One line per match: players, W/D/L and score, Elo (pentanomial and trinomial), LOS."""
    (wins, draws, losses), penta = counts_from_games(summary["game_list"])
    n = wins + draws + losses
    first, second = summary["engines"]
    score = f"{(wins + draws / 2) / n:.1%}" if n else "no games"
    return (f"{first} vs {second}, {summary['time_control']}: +{wins} ={draws} -{losses} ({score}), "
            f"Elo {pentanomial(penta).format()} (pentanomial, {sum(penta)} pairs), "
            f"{trinomial(wins, draws, losses).format()} (trinomial), LOS {los(wins, losses):.1%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Re-derive match results from tools.matches.match --json summaries.")
    parser.add_argument("json", nargs="+", help="tools/matches/match.py --json summaries")
    parser.add_argument("--compare", action="store_true",
                        help="summaries NEW BASE [NEW BASE ...] of gauntlets against the same opponent, each "
                             "NEW with its BASE's seed: the Elo of NEW over BASE, pair by pair, pooled over "
                             "the seeds")
    args = parser.parse_args(argv)
    if args.compare:
        if len(args.json) < 2 or len(args.json) % 2:
            parser.error("--compare takes summaries two by two: NEW BASE [NEW BASE ...]")
        try:
            summaries = []
            for path in args.json:
                with open(path, encoding="utf-8") as f:
                    summaries.append(json.load(f))
            new, base = (pooled(summaries[start::2]) for start in (0, 1))
            estimate = compare(new, base)
        except (OSError, ValueError, KeyError, TypeError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        print(f"{summaries[0]['engines'][0]} over {summaries[1]['engines'][0]} (both against "
              f"{summaries[0]['engines'][1]}): Elo {estimate.format()} ({estimate.samples} common pairs)")
        return 0
    for path in args.json:
        try:
            with open(path, encoding="utf-8") as f:
                print(f"{path}: {describe(json.load(f))}")
        except (OSError, ValueError, KeyError, TypeError) as err:
            print(f"error: {path}: not a readable tools.matches.match summary ({err!r})", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
