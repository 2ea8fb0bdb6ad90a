"""Search: iterative deepening alpha-beta, transposition table, move ordering, levels."""
