"""The whole-array argmax/argmin kernel compiles with NVRTC for every real dtype and each
layout (CPU)."""
import numpy
import pytest

from cuarray._core import _argwhole
from cuarray._runtime import compiler


@pytest.mark.parametrize("dtype", "?bBhHiIlLqQefd")
@pytest.mark.parametrize("unroll,chunked", [(4, False), (4, True), (8, True)])
def test_argwhole_kernel_compiles(dtype, unroll, chunked):
    for greater in (True, False):
        compiler.compile_cubin(_argwhole.source(numpy.dtype(dtype), greater, unroll, chunked), (), (),
                               "sm_90", "cuarray_argwhole")
