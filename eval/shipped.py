"""Which evaluation the engine uses unless told otherwise (plain Python: the UCI loop reads it
before anything heavy is loaded), and which one the game review judges with."""

from pathlib import Path

SHIPPED_NETWORK = Path(__file__).resolve().parent / "network.npz"    # trained by tools.training.train_nnue
# The review's judge: the network its corpus of reasons (tests/data/review_corpus.txt) is checked
# against. The playing network changes when the ladder says so, the judge when the corpus does:
# the 256-neuron network plays ~60 Elo stronger but its reviews fail 17-19 of the 58 entries at
# 200,000-450,000 nodes against this one's 9-10 (docs/web.md, The judge's network).
REVIEW_NETWORK = Path(__file__).resolve().parent / "review-network.npz"


def default_network() -> str:
    """The shipped network's path, or "" (the hand-crafted evaluation) when none is shipped."""
    return str(SHIPPED_NETWORK) if SHIPPED_NETWORK.is_file() else ""


def review_network() -> str:
    """The network reviews judge with: the review network, else the playing one."""
    return str(REVIEW_NETWORK) if REVIEW_NETWORK.is_file() else default_network()
