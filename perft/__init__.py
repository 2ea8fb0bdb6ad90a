"""Perft: move-generation correctness and speed by counting the leaves of the legal-move tree."""
