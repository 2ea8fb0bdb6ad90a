"""American checkers (English draughts, WCDF rules): its own core beside the chess one, in the
same style - 32-square bitboards in one int64 position array, numba kernels that make and
unmake in place, Python only at the edges. docs/checkers.md has the rules as implemented, the
square numbering, the notation and the design.

Modules, lowest first: defs (constants and array layouts), kernel (the numba decorators), bits
(popcount, lsb), tables (geometry and zobrist numbers: the `tab` array), move (the move code),
position (the `pos` array, make/unmake, zobrist key), movegen (legal moves), draw (repetition,
40-move rule), perft, notation (squares, moves, FEN), board (the Python Board).

The package imports nothing from the chess packages.
"""
