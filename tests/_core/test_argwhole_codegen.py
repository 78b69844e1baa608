"""The whole-array argmax/argmin kernel compiles with NVRTC for every real dtype (CPU)."""
import numpy
import pytest

from cuarray._core import _argwhole
from cuarray._runtime import compiler


@pytest.mark.parametrize("dtype", "?bBhHiIlLqQefd")
def test_argwhole_kernel_compiles(dtype):
    for greater in (True, False):
        compiler.compile_cubin(_argwhole.source(numpy.dtype(dtype), greater), (), (), "sm_90",
                               "cuarray_argwhole")
