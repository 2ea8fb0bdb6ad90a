"""Bit tricks on 64-bit boards, compiled to single machine instructions (LLVM ctpop/cttz)."""

from llvmlite import ir
from numba import types
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
def msb(typingctx, bb):
    """Index of the highest set bit of a non-empty uint64 board, as int64."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return sig, codegen


ONE = np.uint64(1)
EMPTY = np.uint64(0)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


@kernel
def bit(sq):
    """The board with only square `sq` set."""
    return ONE << np.uint64(sq)


@kernel
def pop_lsb(bb):
    """`bb` with its lowest set bit cleared."""
    return bb & (bb - ONE)
