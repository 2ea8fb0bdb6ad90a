#!/bin/bash
# One point of the sweep (README.md beside this file), every step skipped when its output exists,
# so the same command goes on after a session ends: train (the trainer's checkpoint takes a cut
# run up again), then the foreign yardstick on each seed. The store's generators are paused while
# it trains or plays and let go on when it stops, however it stops.
#
#   run.sh NAME K HIDDEN [kb] [SEED...]      e.g.  run.sh half256 49 256 31001
#                                                  run.sh full256 gen8:89 256 31001 31002
#
# NAME: the network's file name here (NAME.npz); K: the last gen7 chunk trained on (beside gen6
# 0-34), or gen8:K, the last gen8 chunk (gen8 alone beside gen1-gen5: the data after the store was
# lost, README.md); kb: four king buckets (king-buckets.patch, applied to a frozen copy); SEEDs:
# yardstick seeds (default 31001).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$HERE/../.." && pwd)
STORE=${JITFISH_STORE_ROOT:-$HOME/.local/share/jitfish/selfplay}
PY=$MAIN/.venv/bin/python
NAME=$1 K=$2 HIDDEN=$3
shift 3
KB=""
if [ "${1:-}" = kb ]; then KB=--king-buckets; shift; fi
SEEDS=("${@:-31001}")

# The engine that plays: the sweep's frozen copy (1271010: bench 716,964, the shipped search); the
# trainer: this checkout's (checkpoints came after 1271010). For the king buckets both are a copy
# of f737350 (the same engine as 1271010, and the same trainer) with the patch.
if [ -n "$KB" ]; then
    TREE=/tmp/jf_sweepkb
    if [ ! -f $TREE/.warm ]; then
        rm -rf $TREE
        (cd "$MAIN" && "$PY" -m tools.matches.freeze f737350 sweepkb --dest $TREE)
        (cd $TREE && git apply "$HERE/king-buckets.patch")
        (cd $TREE && NUMBA_CACHE_DIR=$TREE/.numba "$PY" -m jitfish.warmup) && touch $TREE/.warm
    fi
else
    TREE=/tmp/jf_sweep
    if [ ! -f $TREE/.warm ]; then
        rm -rf $TREE
        (cd "$MAIN" && "$PY" -m tools.matches.freeze 1271010 sweep --dest $TREE --warm) && touch $TREE/.warm
    fi
fi

pause() { pkill -STOP -f tools.training.datagen || true; }
resume() { pkill -CONT -f tools.training.datagen || true; }
trap resume EXIT

chunks() {
    local i
    case "$K" in
        gen8:*) for i in $(seq 0 "${K#gen8:}"); do printf "%s/gen8/chunk-%05d.jfsp.xz " "$STORE" "$i"; done ;;
        *)  for i in $(seq 0 34); do printf "%s/gen6/chunk-%05d.jfsp.xz " "$STORE" "$i"; done
            for i in $(seq 0 "$K"); do printf "%s/gen7/chunk-%05d.jfsp.xz " "$STORE" "$i"; done ;;
    esac
}

if [ ! -f "$HERE/$NAME.npz" ]; then
    for f in $(chunks); do [ -f "$f" ] || { echo "missing $f (the store is not there yet)" >&2; exit 2; }; done
    pause
    echo "training $NAME from $(date -u +%FT%TZ)"
    if [ -n "$KB" ]; then TRAINER=$TREE; CACHE=(NUMBA_CACHE_DIR=$TREE/.numba); else TRAINER=$MAIN; CACHE=(); fi
    (cd "$TRAINER" && env "${CACHE[@]}" "$PY" -m tools.training.train_nnue data/selfplay/gen1 data/selfplay/gen1-n1000 data/selfplay/gen2 \
        data/selfplay/gen3 data/selfplay/gen4 data/selfplay/gen5 $(chunks) --hidden "$HIDDEN" $KB \
        --out "$HERE/$NAME.npz") 2>&1 | tee -a "$HERE/$NAME.train.log"
    [ -f "$HERE/$NAME.npz" ] || exit 1
    resume
fi

for seed in "${SEEDS[@]}"; do
    out="$HERE/$NAME-vs-sf2000-s$seed.json"
    [ -f "$out" ] && continue
    pause
    echo "yardstick $NAME seed $seed from $(date -u +%FT%TZ)"
    (cd "$MAIN" && "$PY" -m tools.matches.match \
        --engine cmd=$TREE/run_engine.sh name=$NAME option.Hash=16 option.EvalFile="$HERE/$NAME.npz" \
        --engine cmd=/usr/games/stockfish name=sf2000 nodes=2000 option.Hash=16 option.Threads=1 \
        --nodes 36000 --games 1000 --seed "$seed" --concurrency 2 --json "$out.part") > "/tmp/sweep-$NAME-$seed.log" 2>&1
    # Committed match files stay under tests/test_results.py's size limit: written compact.
    "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); open(sys.argv[2], "w").write(json.dumps(d, separators=(",", ":")))' "$out.part" "$out"
    rm "$out.part"
    resume
    (cd "$MAIN" && "$PY" -m tools.matches.elo --compare "$out" \
        "experiments/nnue-2026-11-27/all256-vs-sf2000-s$seed.json")
    half="$HERE/half256-vs-sf2000-s$seed.json"
    if [ "$NAME" != half256 ] && [ -f "$half" ]; then (cd "$MAIN" && "$PY" -m tools.matches.elo --compare "$out" "$half"); fi
done
