"""Two move records (move_matching's moves-*.tsv) compared on the same held-out positions, band
by band: the positions only the first matches, only the second, and the sign test's z.

    PYTHONPATH=. JITFISH_DATA=../shared/data python experiments/human-inputs-2026-12-06/paired.py A.tsv B.tsv
"""

import math
import sys

from tools.calibration.human_games import BANDS, band_name, held_out_sample


def load(path: str) -> dict[str, str]:
    moves = {}
    for line in open(path):
        if not line.startswith("#"):
            pid, move = line.rstrip("\n").split("\t")
            moves[pid] = move
    return moves


def main(first: str, second: str) -> None:
    a, b = load(first), load(second)
    total_a = total_b = 0
    for lo in BANDS:
        only_a = only_b = n = 0
        for p in held_out_sample(lo, 1200):
            if p.id in a and p.id in b:
                n += 1
                hit_a, hit_b = a[p.id] == p.human_move, b[p.id] == p.human_move
                only_a += hit_a and not hit_b
                only_b += hit_b and not hit_a
        total_a, total_b = total_a + only_a, total_b + only_b
        z = (only_a - only_b) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
        print(f"{band_name(lo)}: {n} positions, first only {only_a}, second only {only_b}, "
              f"difference {(only_a - only_b) / max(n, 1):+.1%}, z {z:+.2f}")
    z = (total_a - total_b) / math.sqrt(total_a + total_b)
    print(f"all bands: first only {total_a}, second only {total_b}, z {z:+.2f}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
