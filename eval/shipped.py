"""Which evaluation the engine uses unless told otherwise (plain Python: the UCI loop reads it
before anything heavy is loaded)."""

from pathlib import Path

SHIPPED_NETWORK = Path(__file__).resolve().parent / "network.npz"    # trained by tools.training.train_nnue


def default_network() -> str:
    """The shipped network's path, or "" (the hand-crafted evaluation) when none is shipped."""
    return str(SHIPPED_NETWORK) if SHIPPED_NETWORK.is_file() else ""
