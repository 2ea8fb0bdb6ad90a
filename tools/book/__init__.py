"""The opening book: writes the Polyglot book from Jitfish's own analysis or from games."""
