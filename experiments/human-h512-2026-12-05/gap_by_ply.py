"""Where does the model lose to Maia-1? The in-play records of the model's most likely move (the
shipped files) and of Maia-1 on the 1,200 held-out positions a band, by ply; and how many of those
positions a "crowd book" of the training games (every position of plies 8 to MAXPLY-1, the move
most played there) has seen in 3 or more games, and how often its move is the person's.

    JITFISH_DATA=../shared/data PYTHONPATH=. python experiments/human-h512-2026-12-05/gap_by_ply.py 30 > gap-by-ply.md
"""
import sys, collections, time
import chess
from tools.calibration.human_games import BANDS, band_name, held_out_sample, training_games

MAXPLY = int(sys.argv[1]) if len(sys.argv) > 1 else 30

def record(path):
    out = {}
    for line in open(path):
        if line.startswith("#"): continue
        pid, mv = line.rstrip("\n").split("\t")
        out[pid] = mv
    return out

E = "experiments"
players = {
    "h1200": record(f"{E}/human-h512-2026-12-05/matching-shipped/moves-human1200-argmax.tsv"),
    "h1500": record(f"{E}/human-h512-2026-12-05/matching-shipped/moves-human1500-argmax.tsv"),
    "h1800": record(f"{E}/levels-human-2026-12-05/matching/moves-human1800-argmax.tsv"),
    "maia1100": record(f"{E}/levels-human-2026-11-28/matching/moves-maia1100.tsv"),
    "maia1500": record(f"{E}/levels-human-2026-11-28/matching/moves-maia1500.tsv"),
    "maia1900": record(f"{E}/levels-human-2026-11-28/matching/moves-maia1900.tsv"),
}
t = time.time()
book = collections.defaultdict(collections.Counter)
for g in training_games():
    b = chess.Board()
    for ply, mv in enumerate(g.moves[:MAXPLY]):
        if ply >= 8:
            book[b.epd()][mv] += 1
        b.push_uci(mv)
print(f"book: {len(book)} positions in {time.time()-t:.0f} s", file=sys.stderr)
pairs = {1100: ("h1200", "maia1100"), 1400: ("h1500", "maia1500"), 1700: ("h1800", "maia1900")}
for lo, (ours, maia) in pairs.items():
    sample = held_out_sample(lo, 1200)
    buckets = collections.defaultdict(lambda: [0, 0, 0, 0, 0])   # n, ours, maia, in book (>=3), book right
    for p in sample:
        key = "10-19" if p.ply < 20 else "20-39" if p.ply < 40 else "40-59" if p.ply < 60 else "60+"
        b = chess.Board()
        for mv in p.history: b.push_uci(mv)
        c = book.get(b.epd()) if p.ply < MAXPLY else None
        row = buckets[key]
        row[0] += 1
        row[1] += players[ours].get(p.id) == p.human_move
        row[2] += players[maia].get(p.id) == p.human_move
        if c and sum(c.values()) >= 3:
            row[3] += 1
            row[4] += c.most_common(1)[0][0] == p.human_move
        tot = buckets["all"]
        for i, v in enumerate([1, players[ours].get(p.id) == p.human_move, players[maia].get(p.id) == p.human_move]):
            tot[i] += v
    print(f"\n{band_name(lo)}: the model at lichess {ours[1:]} against {maia}\n")
    print("| plies | positions | ours | Maia | in the crowd book (3+ games) | the book's move is the person's |")
    print("| --- | --- | --- | --- | --- | --- |")
    for key in ["10-19", "20-39", "40-59", "60+", "all"]:
        n, o, m, inb, br = buckets[key]
        print(f"| {key} | {n} | {o/n:.1%} | {m/n:.1%} | {inb if key != 'all' else ''} | {f'{br}/{inb}' if key != 'all' else ''} |")
