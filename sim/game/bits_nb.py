"""Bit tricks on card masks: population count and lowest-set-bit index.

Compiled code uses the LLVM intrinsics; with NUMBA_DISABLE_JIT=1 (coverage runs) the same names
are plain Python.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic

from sim.numba_config import JIT_DISABLED, jit_hot

if JIT_DISABLED:

    def popcount(x):
        return bin(int(x) & 0xFFFFFFFF).count("1")

    def lowest_index(x):
        x = int(x) & 0xFFFFFFFF
        return (x & -x).bit_length() - 1 if x else 32

    def highest_index(x):
        return (int(x) & 0xFFFFFFFF).bit_length() - 1

else:

    def _bit_intrinsic(name, takes_zero_flag):
        """An intrinsic calling ``llvm.<name>`` on a uint32, widened to int64. cttz and ctlz take
        a second argument: false keeps their result defined (32) for zero."""

        @intrinsic
        def call(typingctx, x):
            def codegen(context, builder, signature, args):
                ir_t = context.get_value_type(types.uint32)
                flag = [ir.IntType(1)] if takes_zero_flag else []
                fn = builder.module.declare_intrinsic(f"llvm.{name}", [ir_t, *flag])
                extra = [ir.Constant(ir.IntType(1), 0)] if takes_zero_flag else []
                res = builder.call(fn, [args[0], *extra])
                return builder.zext(res, context.get_value_type(types.int64))

            return types.int64(types.uint32), codegen

        return call

    _ctpop32 = _bit_intrinsic("ctpop", False)
    _cttz32 = _bit_intrinsic("cttz", True)
    _ctlz32 = _bit_intrinsic("ctlz", True)

    @jit_hot
    def popcount(x):
        """Number of cards in a mask."""
        return _ctpop32(np.uint32(x))

    @jit_hot
    def lowest_index(x):
        """Index of the lowest card in a non-empty mask (32 for an empty one)."""
        return _cttz32(np.uint32(x))

    @jit_hot
    def highest_index(x):
        """Index of the highest card in a non-empty mask (-1 for an empty one)."""
        return 31 - _ctlz32(np.uint32(x))
