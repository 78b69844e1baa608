"""cuarray.scipy's device code compiles with NVRTC for sm_90 without a GPU. (Every kernel
the host-emulated tests run is also compiled this way; this test does not need g++.)"""
import os

import numpy as np
import pytest

from cuarray._core import dtypes
from cuarray._core.elementwise import generate
from cuarray.scipy.special._math import SOURCE
from cuarray.scipy.special._ufuncs import TABLE
from special_resolution import compile_calls

INCLUDE = os.path.join(os.path.dirname(dtypes.__file__), "include")


def _nvrtc(source):
    pytest.importorskip("cuda.core")
    from cuda.core import Program, ProgramOptions
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[INCLUDE])
    return Program(source, "c++", opts).compile("cubin")


def test_special_functions_compile_for_both_precisions():
    calls = []
    for name, (types, fn, _) in TABLE.items():
        nin = len(types[0].split("->")[0])
        for T in ("float", "double"):
            args = ", ".join(f"({T})x[i]" for _ in range(nin))
            calls.append(f"y[i] += (double)cusp_{fn}({args});")
    assert len(compile_calls(SOURCE, calls, "all_special").code) > 0


@pytest.mark.parametrize("dtype", ["f", "d", "F", "D", "b", "?", "q"])
def test_csr_product_kernel_compiles(dtype):
    """cuarray's own CSR product (the dtypes cuSPARSE lacks), contiguous and strided."""
    from cuarray.scipy.sparse._kernels import csrmm_op
    dt, i32, i64 = np.dtype(dtype), np.dtype(np.int32), np.dtype(np.int64)
    op = csrmm_op(dt, i32, i32, dt, dt)
    raw = [(1, True), (1, True), (1, True), (2, False), None, None]
    storage = [i32, i32, dt, dt, i64, dt]
    for ndim in (None, 2):
        src, _ = generate(op, storage, raw, ndim, 1, False)
        assert len(_nvrtc(src).code) > 0
