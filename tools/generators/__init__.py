"""One-off generators of committed tables: the magic multipliers, the Chess960 perft counts."""
