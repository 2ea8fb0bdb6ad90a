"""The slip's trade, offline: on a band's held-out positions, for each slip, how often the move
played is the person's, and how much expected result it gives away by the model's deeper search
(the quantity the slip trades against likelihood: search/human_model.py `slipped`).

    PYTHONPATH=. .venv/bin/python experiments/levels-slip-2026-12-05/slip_sweep.py 1100 800,1200 1200

(band's lower end, the model's ratings, positions a band). One distribution a position and
rating, every slip read from it; about a minute a rating on the 2-core machine.
"""

import sys

import numpy as np

from engine.board import Board
from search import human_model as hm
from tools.calibration.human_games import held_out_sample

SLIPS = [0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0]


def main() -> None:
    band, ratings, count = int(sys.argv[1]), [int(r) for r in sys.argv[2].split(",")], int(sys.argv[3])
    positions = held_out_sample(band, count)
    for rating in ratings:
        chooser = hm.Chooser(hm.load(), rating, share=0.0)
        hits, lost, big, changed = (np.zeros(len(SLIPS)) for _ in range(4))
        for position in positions:
            board = Board()
            for text in position.history:
                board.push_uci(text)
            moves, p, scores = chooser.distribution(board)
            result = hm.expected_result(scores)
            given_away = result.max() - result
            likeliest = int(np.argmax(p))
            for k, slip in enumerate(SLIPS):
                i = hm.slipped(p, scores, slip)
                hits[k] += board.uci(moves[i]) == position.human_move
                lost[k] += given_away[i]
                big[k] += given_away[i] > 0.2
                changed[k] += i != likeliest
        n = len(positions)
        for k, slip in enumerate(SLIPS):
            print(f"band {band} rating {rating} slip {slip}: match {100 * hits[k] / n:.1f}% "
                  f"dW/move {lost[k] / n:.4f} big {100 * big[k] / n:.1f}% changed {100 * changed[k] / n:.1f}%",
                  flush=True)


if __name__ == "__main__":
    main()
