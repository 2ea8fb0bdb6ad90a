"""Bit tricks on 64-bit boards, compiled to single machine instructions (LLVM ctpop/cttz), and the
square sets (files, ranks, square colours) every layer uses."""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

import numpy as np

from engine.kernel import kernel


@intrinsic
def popcount(typingctx, bb):
    """Number of set bits of a uint64 board, as int64."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lsb(typingctx, bb):
    """Index of the lowest set bit of a non-empty uint64 board, as int64."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def prefetch(typingctx, array, index):
    """Ask the CPU to start loading array[index] into the cache (llvm.prefetch: a read, kept
    in all cache levels). The intrinsic's name assumes LLVM's opaque pointers (LLVM 15 and
    later; numba 0.68 ships LLVM 22), hence the numba version pyproject.toml asks for."""
    sig = types.void(array, types.int64)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, value=args[0]).data
        address = builder.gep(data, [args[1]])
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(function, [address, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


ONE = np.uint64(1)
EMPTY = np.uint64(0)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)

# Square sets (a1 = bit 0, h8 = bit 63).
FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_1 = np.uint64(0xFF)
RANK_3 = np.uint64(0xFF0000)
RANK_6 = np.uint64(0xFF0000000000)
RANK_8 = np.uint64(0xFF00000000000000)
LIGHT_SQUARES = np.uint64(0x55AA55AA55AA55AA)
DARK_SQUARES = np.uint64(0xAA55AA55AA55AA55)


@kernel
def bit(sq):
    """The board with only square `sq` set."""
    return ONE << np.uint64(sq)

