"""Packaging: the build backend that ships a compiled numba cache in the wheel."""
