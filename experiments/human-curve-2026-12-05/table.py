"""The learning-curve table from the evaluate-*.md files of this folder (top-1 per band, all
bands, log-likelihood of all bands):  .venv/bin/python experiments/human-curve-2026-12-05/table.py"""
import re
from pathlib import Path

HERE = Path(__file__).parent
GAMES = {"g8k": "8,400", "g14k": "14,400", "g26k": "26,400", "g44k": "44,400", "g67k": "66,813"}
POSITIONS = {"g8k": "576,915", "g14k": "1,040,062", "g26k": "1,959,509", "g44k": "3,321,985", "g67k": "5,003,682"}
rows = []
for path in sorted(HERE.glob("evaluate-g*-h*.md")):
    games, hidden, epochs = re.match(r"evaluate-(g\d+k)-h(\d+)(?:-after-epoch(\d))?\.md", path.name).groups()
    cells = [line.split("|")[3].split(" (")[0].strip() for line in path.read_text().splitlines()[2:]]
    ll = path.read_text().splitlines()[-1].split("|")[4].strip()
    label = hidden + (f" (after {epochs} of 9 epochs)" if epochs else "")
    rows.append((int(hidden), int(games[1:-1]), int(epochs or 9), f"| {GAMES[games]} | {POSITIONS[games]} | {label} | " + " | ".join(cells[:-1]) + f" | **{cells[-1]}** | {ll} |"))
print("| training games | positions | hidden | 1100-1299 | 1300-1499 | 1400-1599 | 1500-1699 | 1700-1899 | all 2,000 | log-likelihood |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for *_, row in sorted(rows):
    print(row)
