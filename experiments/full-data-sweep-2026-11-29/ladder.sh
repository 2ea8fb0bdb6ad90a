#!/bin/bash
# The ladder for one candidate of the sweep (README.md beside this file), paired on this machine
# with the shipped network: 10+0.1 against Stockfish UCI_Elo 2600 (seeds 14002, 14003: 400
# games) and 2400 (seed 14001: 200), in units of 200 games, candidate and shipped network
# taking turns so that the machine's drift falls on both alike. Every unit is skipped when its
# file exists, so the same command goes on in the next session; the store's generators are
# paused while it plays (a timed match shares no core) and let go on when it stops.
#
#   ladder.sh NAME NET [kb]      e.g.  ladder.sh more256b ../nnue-2026-11-28c/more256b.npz
#
# NET is relative to this folder or absolute; kb plays the candidate on the king-bucket copy.
# LADDER_LAST_START="09:00" (anything `date -d` reads): start no unit after then, so that a
# session's end does not cut one off (a cut unit starts again from its first game).
# Before each unit both engines' benches go to ladder/benches.txt (a slower machine plays
# weaker at a clock: the games are compared only with games of the same machine).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$HERE/../.." && pwd)
PY=$MAIN/.venv/bin/python
NAME=$1
NET=$(cd "$HERE" && realpath "$2")
TREE=/tmp/jf_sweep
[ "${3:-}" = kb ] && TREE=/tmp/jf_sweepkb
GAMES=${LADDER_GAMES:-200}                    # a unit's games (a smaller number only to try the script)
OUT=${LADDER_OUT:-$HERE/ladder}
mkdir -p "$OUT"
for tree in /tmp/jf_sweep $TREE; do
    [ -f $tree/.warm ] || { echo "$tree is not there: run.sh makes it (run it for any point first)" >&2; exit 2; }
done
[ -f "$NET" ] || { echo "no network $NET" >&2; exit 2; }

pause() { pkill -STOP -f tools.training.datagen || true; }
resume() { pkill -CONT -f tools.training.datagen || true; }
trap resume EXIT

unit() {   # unit WHO ENGINE_TREE ELO SEED [EvalFile]
    local who=$1 tree=$2 elo=$3 seed=$4 net=${5:-}
    local out="$OUT/$who-ladder-$elo-s$seed.json"
    [ -f "$out" ] && return 0
    if [ -n "${LADDER_LAST_START:-}" ] && [ "$(date +%s)" -gt "$(date -d "$LADDER_LAST_START" +%s)" ]; then
        echo "not starting $who against $elo, seed $seed: past LADDER_LAST_START" >&2
        exit 3
    fi
    pause
    {
        printf "%s %s %s s%s: " "$(date -u +%FT%TZ)" "$who" "$elo" "$seed"
        $tree/run_engine.sh bench 2>&1 | grep "Nodes searched\|Nodes/second" | tr -s ' \n' ' '
        printf "| stockfish "
        /usr/games/stockfish bench 16 1 13 2>&1 | grep "Nodes searched\|Nodes/second" | tr -s ' \n' ' '
        echo
    } >> "$OUT/benches.txt"
    local option=()
    [ -n "$net" ] && option=("option.EvalFile=$net")
    echo "ladder $who against $elo, seed $seed, from $(date -u +%FT%TZ)"
    (cd "$MAIN" && "$PY" -m tools.matches.match \
        --engine cmd=$tree/run_engine.sh name=$who option.Hash=64 "${option[@]}" \
        --engine cmd=/usr/games/stockfish name=sf$elo option.UCI_LimitStrength=true option.UCI_Elo=$elo \
            option.Hash=16 option.Threads=1 "option.Move Overhead=100" \
        --games "$GAMES" --tc 10+0.1 --seed "$seed" --concurrency 2 --json "$out.part") > "/tmp/ladder-$who-$elo-$seed.log" 2>&1
    mv "$out.part" "$out"
}

for step in "2600 14002" "2600 14003" "2400 14001"; do
    set -- $step
    unit "$NAME" $TREE "$1" "$2" "$NET"
    unit shipped /tmp/jf_sweep "$1" "$2"
done
resume

cd "$MAIN"
pairs=()
for f in "$OUT/$NAME"-ladder-*.json; do pairs+=("$f" "$OUT/shipped-${f#$OUT/$NAME-}"); done
"$PY" -m tools.matches.elo --compare "${pairs[@]}"
echo "$NAME:";   "$PY" -m tools.calibration.calibrate fit "$OUT/$NAME"-ladder-*.json
echo "shipped:"; "$PY" -m tools.calibration.calibrate fit "$OUT"/shipped-ladder-*.json
