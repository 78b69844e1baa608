"""A kernel given an array of another device raises ValueError naming both devices, on
every launch path (ufunc warm and general paths, ElementwiseKernel, reductions and their
warm path, RawKernel), before anything is launched. Runs on the GPU and through the host
emulation of tests/scipy/emulation.py: the "other device" is a view relabelled as device 3,
which no launch may read."""

import numpy
import pytest

import emulation  # noqa: E402


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)


def _foreign(a):
    v = a.view()
    v._device_id = 3
    return v


_MSG = "on device 0 was given an array on device 3"


def test_every_launch_path_refuses_foreign_arrays(cp):
    rng = numpy.random.default_rng(70)
    h = rng.standard_normal((4, 6)).astype(numpy.float32)
    x = cp.asarray(h)
    f = _foreign(x)
    y = x + x                           # warms the same-shape path: the check still runs
    numpy.testing.assert_allclose(y.get(), 2 * h)
    calls = [lambda: x + f, lambda: f + x, lambda: f * 2.0, lambda: cp.sin(f),
             lambda: cp.add(x, f[0]),                      # broadcasting: the general path
             lambda: cp.add(x, x, out=_foreign(cp.empty_like(x))),
             lambda: f.T + 1,
             lambda: cp.ElementwiseKernel("T a", "T b", "b = a * 3", "triple")(f)]
    for call in calls:
        with pytest.raises(ValueError, match=_MSG):
            call()
    k = cp.RawKernel(r'''extern "C" __global__ void k(float* p, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1; }''', "k")
    with pytest.raises(ValueError, match=_MSG):
        k((1,), (32,), (f, numpy.int32(f.size)))
    numpy.testing.assert_array_equal(x.get(), h)   # nothing wrote to the relabelled memory


@pytest.mark.gpu
def test_reductions_refuse_foreign_arrays(cp):
    x = cp.arange(24, dtype=numpy.float64).reshape(4, 6)
    assert float(x.sum()) == 276.0      # warm the whole-array path
    f = _foreign(x)
    for call in (lambda: f.sum(), lambda: f.sum(axis=0), lambda: f.max(axis=1),
                 lambda: cp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0",
                                            "mysum")(f)):
        with pytest.raises(ValueError, match=_MSG):
            call()
