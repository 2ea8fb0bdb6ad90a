"""Bit tricks on the 32-square boards, compiled to single machine instructions (LLVM ctpop and
cttz). Boards are int64 values whose bits 0-31 are squares 1-32 (checkers.defs), so the
intrinsics take and return int64."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, bb):
    """Number of set bits of an int64 board."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lsb(typingctx, bb):
    """Index of the lowest set bit of a non-empty int64 board (the square's index, 0-31)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen
