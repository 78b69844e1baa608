"""cuarray.linalg's own CUDA kernels compile with NVRTC for sm_90 (no GPU needed)."""
import numpy
import pytest

from cuarray._core import _gemm_kernel
from cuarray.linalg import _decompositions, _eigen, _norms

cuda_core = pytest.importorskip("cuda.core")


def _compile(src):
    opts = cuda_core.ProgramOptions(arch="sm_90", std="c++17")
    return cuda_core.Program(src, "c++", opts).compile("cubin")


@pytest.mark.parametrize("dtype", "?bBhHiIlL")
def test_gemm_kernel_compiles(dtype):
    assert _gemm_kernel.supports(numpy.dtype(dtype))
    assert _compile(_gemm_kernel.source(dtype)) is not None


def test_gemm_kernel_scope():
    assert not _gemm_kernel.supports(numpy.dtype("f"))
    assert "||" in _gemm_kernel.source("?") and "+=" in _gemm_kernel.source("i")
    # integer products accumulate in an unsigned type of at least 32 bits (wrapping, no UB)
    assert "typedef unsigned int Acc" in _gemm_kernel.source("b")
    assert "typedef unsigned long long Acc" in _gemm_kernel.source("l")


@pytest.mark.parametrize("dtype", "fdFD")
@pytest.mark.parametrize("pivot", [numpy.int32, numpy.int64])
def test_slogdet_kernel_compiles(dtype, pivot):
    assert _compile(_norms.slogdet_source(numpy.dtype(dtype), pivot)) is not None


@pytest.mark.parametrize("dtype", "fd")
def test_eigenvector_kernel_compiles(dtype):
    assert _compile(_eigen.eigvec_source(numpy.dtype(dtype))) is not None



@pytest.mark.parametrize("itemsize", [4, 8, 16])
def test_zero_triangle_kernel_compiles(itemsize):
    assert _compile(_decompositions.triangle_source(itemsize)) is not None
