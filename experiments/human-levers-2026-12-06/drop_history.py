"""The policy extract made with history-inputs.patch applied, without those inputs: drops every
board input from OWN_PREV_TO (1,984) on, so that the 1,984-input policy trains on it (the inputs
are appended at the end of each position's list, so the rest keep their places).

    PYTHONPATH=. .venv/bin/python experiments/human-levers-2026-12-06/drop_history.py \
        runs/human/policy3-train.npz runs/human/policy2-train.npz
"""

import sys

import numpy as np

from search.human_policy import BOARD_INPUTS


def main() -> None:
    source, target = sys.argv[1], sys.argv[2]
    with np.load(source) as data:
        arrays = {key: data[key] for key in data.files}
    active, count = arrays["active"], arrays["count"].astype(np.int64)
    inside = np.arange(active.shape[1])[None, :] < count[:, None]
    history = inside & (active >= BOARD_INPUTS)
    kept = inside & ~history
    # the history inputs come last: what is kept is a prefix of each row
    assert np.array_equal(kept.sum(axis=1), np.argmin(np.concatenate([kept, np.zeros((len(kept), 1), bool)], axis=1), axis=1))
    arrays["count"] = kept.sum(axis=1).astype(np.int8)
    arrays["active"] = np.where(kept, active, 0).astype(active.dtype)
    print(f"{len(count)} positions, {int(history.sum())} history inputs dropped", file=sys.stderr)
    np.savez(target, **arrays)


if __name__ == "__main__":
    main()
