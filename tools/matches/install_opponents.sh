#!/bin/sh
# Install the sparring engines used with tools/matches/match.py (needs root; run once per machine):
#   Stockfish 15.1 from Debian  -> /usr/games/stockfish
#   sunfish from PyPI           -> $SUNFISH_VENV/bin/sunfish-uci (default /opt/sunfish-venv)
# sunfish gets its own venv because its package pins chess==1.9.4, which would downgrade
# the python-chess (>=1.10) that Jitfish's .venv needs.  The engine itself (sunfish.py)
# does not import chess at all.
set -e
SUNFISH_VENV=${SUNFISH_VENV:-/opt/sunfish-venv}
if [ ! -x /usr/games/stockfish ]; then
    apt-get update -qq
    apt-get install -y -qq stockfish
fi
if [ ! -x "$SUNFISH_VENV/bin/sunfish-uci" ]; then
    python3 -m venv "$SUNFISH_VENV"
    "$SUNFISH_VENV/bin/pip" install --quiet sunfish
fi
echo "stockfish: /usr/games/stockfish"
echo "sunfish:   $SUNFISH_VENV/bin/sunfish-uci"
