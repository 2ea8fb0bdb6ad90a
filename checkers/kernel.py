"""The numba decorators of the checkers kernels: nopython, cached on disk, without reference
counting, the same three as engine/kernel.py (which says why reference counting is off).

The checkers package stands alone (it imports nothing from the chess core), so it declares its
own. Kernels never allocate arrays: the Python side (checkers.board.Board, or the caller of
a kernel) owns every array for as long as a call runs. `threaded_kernel` is for entry points
that may run on a thread of their own (perft, a search): it releases the GIL. `inlined_kernel`
marks the small kernels that are called once per node (make/unmake, the board steps).
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
threaded_kernel = njit(cache=True, nogil=True, _nrt=False)
inlined_kernel = njit(cache=True, _nrt=False, inline="always")
