"""The top floor: everything a user or another program talks to (the UCI loop and its options,
the command line, the terminal game, game analysis, the opening book, benchmarks, the web game).
Front ends may import every layer below; nothing below imports them."""
