"""`python -m jitfish`: the same as the `jitfish` command (the web robot starts the engine so)."""

import sys

from jitfish.cli import main

sys.exit(main())
