"""The elementwise kernels of cuarray.fft compile with NVRTC for sm_90 (no GPU needed)."""
import numpy as np
import pytest

from cuarray._core.elementwise import generate
from cuarray.fft import _fft, _helper


def _compile_all(op, storages, tmp_path, monkeypatch):
    from cuarray._runtime.compiler import compile_cubin
    monkeypatch.setenv("CUARRAY_CACHE_DIR", str(tmp_path))
    for ndim, vec in ((None, 1), (None, 2), (3, 1)):  # contiguous, vectorised, strided
        src, _ = generate(op, storages, [None] * len(op.params), ndim, vec, False)
        cubin, _ = compile_cubin(src, name=op.name)
        assert cubin


@pytest.fixture(autouse=True)
def _nvrtc():
    pytest.importorskip("cuda.bindings.nvrtc")


@pytest.mark.parametrize("kind", ["scale", "conj_scale"])
@pytest.mark.parametrize("dtype", ["f", "d", "F", "D"])
def test_scale_kernels(kind, dtype, tmp_path, monkeypatch):
    if kind == "conj_scale" and dtype in "fd":
        return
    d = np.dtype(dtype)
    _compile_all(_fft._op(kind, d), [d, d, d], tmp_path, monkeypatch)


@pytest.mark.parametrize("src", ["?", "b", "B", "i", "q", "e", "f", "d", "F", "D"])
@pytest.mark.parametrize("dtype", ["F", "D"])
def test_conj_kernels_read_any_input_dtype(src, dtype, tmp_path, monkeypatch):
    d = np.dtype(dtype)
    _compile_all(_fft._op("conj", d), [np.dtype(src), d], tmp_path, monkeypatch)


@pytest.mark.parametrize("wrap", [True, False])
@pytest.mark.parametrize("cd,store", [("d", "e"), ("d", "f"), ("d", "d"), ("D", "F"), ("D", "D")])
def test_frequency_kernels(cd, store, wrap, tmp_path, monkeypatch):
    q = np.dtype(np.int64)
    _compile_all(_helper._freq_op(np.dtype(cd), wrap), [q, q, np.dtype(cd), np.dtype(store)],
                 tmp_path, monkeypatch)
