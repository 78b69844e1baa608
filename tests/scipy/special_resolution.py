"""Checks the special-function test modules share: the dtype resolution of
cuarray.scipy.special's ufuncs, with SciPy's `resolve_dtypes` as the reference, and their
device code compiled by NVRTC."""
import itertools
import os

import numpy as np
import pytest

from cuarray.scipy.special._ufuncs import UFUNCS, resolve


def check_resolution(ref, name, kinds, free=None):
    """Each combination of `kinds` (dtype chars, Python scalar types) over the first `free`
    inputs (all by default; float64 for the rest) resolves to SciPy's loop, or raises
    TypeError where SciPy's does."""
    uf = UFUNCS[name]
    free = uf.nin if free is None else min(free, uf.nin)
    for combo in itertools.product(kinds, repeat=free):
        combo = combo + ("d",) * (uf.nin - free)
        ins = [np.dtype(c) if isinstance(c, str) else c for c in combo]
        try:
            want = ref.resolve_dtypes(tuple(ins) + (None,))
        except TypeError:
            with pytest.raises(TypeError):
                resolve(name, uf.types, ins)
            continue
        lin, lout = resolve(name, uf.types, ins)
        assert tuple(lin) + (lout,) == want, (name, combo)


def compile_calls(source, calls, name):
    """`source` and a kernel `name` whose body is `calls` (statements adding to y[i]),
    compiled by NVRTC for sm_90 (no GPU needed): the cubin."""
    pytest.importorskip("cuda.core")
    from cuda.core import Program, ProgramOptions
    from cuarray._core import dtypes
    src = ("#include <cuarray/core.cuh>\n" + source +
           f'\nextern "C" __global__ void {name}(const double* x, double* y, int n) {{\n'
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;\n  " +
           "\n  ".join(calls) + "\n}\n")
    include = os.path.join(os.path.dirname(dtypes.__file__), "include")
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[include])
    return Program(src, "c++", opts).compile("cubin")
