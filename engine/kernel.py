"""The numba decorators of every kernel: nopython, cached on disk, without reference counting.

Kernels never allocate arrays or keep them beyond a call: the arrays they work on belong to
the Python side (board, searcher), which outlives every call. Numba's reference counting (NRT)
would still add an atomic increment and decrement around the arrays handed from kernel to
kernel; in the search that was 15% of the time (`jitfish bench` 1.28 M -> 1.47 M nodes/s
without it), so it is switched off. Use `threaded_kernel` for entry points run on a search
thread: it also releases the GIL. `inlined_kernel` marks the few mid-sized kernels the search
calls once per move (make/unmake, gives_check): numba inlines them into their callers, saving
the call, which passes every array as seven words on the stack (+16% nodes/s together).
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
threaded_kernel = njit(cache=True, nogil=True, _nrt=False)
inlined_kernel = njit(cache=True, _nrt=False, inline="always")
