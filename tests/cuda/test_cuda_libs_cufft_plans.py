"""cuarray.cuda.cufft plans and the C-level library modules (cublas, curand, cusolver, cusparse)."""
import numpy
import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import cufft

pytestmark = pytest.mark.gpu


def _c(rng, shape, dtype=numpy.complex64):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def test_plan1d_as_context_manager():
    rng = numpy.random.default_rng(20)
    h = _c(rng, (4, 64))
    x = cuarray.asarray(h)
    plan = cufft.Plan1d(64, cufft.CUFFT_C2C, 4)
    assert cufft.get_current_plan() is None
    with plan:
        assert cufft.get_current_plan() is plan
        y = cuarray.fft.fft(x)
        z = cuarray.fft.ifft(y)
        with pytest.raises(ValueError, match="does not fit"):
            cuarray.fft.fft(x[:2])
    assert cufft.get_current_plan() is None
    numpy.testing.assert_allclose(y.get(), numpy.fft.fft(h), rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(z.get(), h, rtol=1e-4, atol=1e-4)
    assert plan.plan != 0 and plan.nx == 64 and plan.batch == 4


def test_plan1d_fft_method_and_real_plans():
    rng = numpy.random.default_rng(21)
    h = rng.standard_normal((3, 50))
    x = cuarray.asarray(h)
    plan = cufft.Plan1d(50, cufft.CUFFT_D2Z, 3)
    out = plan.get_output_array(x)
    assert out.shape == (3, 26) and out.dtype == numpy.complex128
    plan.fft(x, out, cufft.CUFFT_FORWARD)
    numpy.testing.assert_allclose(out.get(), numpy.fft.rfft(h), rtol=1e-10, atol=1e-10)
    with plan:
        numpy.testing.assert_allclose(cuarray.fft.rfft(x).get(), numpy.fft.rfft(h), rtol=1e-10,
                                      atol=1e-10)
    with pytest.raises(ValueError, match="reads"):
        plan.fft(x.astype(numpy.float32), out, cufft.CUFFT_FORWARD)
    with pytest.raises(ValueError, match="direction"):
        plan.fft(x, out, 3)
    with pytest.raises(ValueError, match="unknown cuFFT type"):
        cufft.Plan1d(8, 0x99, 1)


def test_plannd_2d():
    rng = numpy.random.default_rng(22)
    h = _c(rng, (5, 8, 12), numpy.complex128)
    x = cuarray.asarray(h)
    plan = cufft.PlanNd((8, 12), None, 1, 96, None, 1, 96, cufft.CUFFT_Z2Z, 5, "C", -1, None)
    with plan:
        y = cuarray.fft.fft2(x)
    numpy.testing.assert_allclose(y.get(), numpy.fft.fft2(h), rtol=1e-10, atol=1e-10)
    out = cuarray.empty_like(x)
    plan.fft(x, out, cufft.CUFFT_INVERSE)
    numpy.testing.assert_allclose(out.get(), numpy.fft.ifft2(h) * 96, rtol=1e-10, atol=1e-9)
    assert cufft.getVersion() > 0
    with pytest.raises(RuntimeError, match="already in use"):
        with plan:
            with cufft.Plan1d(8, cufft.CUFFT_C2C, 1):
                pass


def test_cublas_c_level():
    import ctypes
    from cuarray.cuda import cublas as cb
    rng = numpy.random.default_rng(23)
    ha, hb = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    # column-major: pass the F-ordered copies
    a, b = cuarray.asarray(ha, order="F"), cuarray.asarray(hb, order="F")
    c = cuarray.zeros((3, 2), order="F")
    h = cb.create()
    try:
        cb.setStream(h, cuda.get_current_stream().ptr)
        assert cb.getPointerMode(h) == cb.CUBLAS_POINTER_MODE_HOST
        one, zero = ctypes.c_double(1.0), ctypes.c_double(0.0)
        cb.dgemm(h, cb.CUBLAS_OP_N, cb.CUBLAS_OP_N, 3, 2, 4, ctypes.addressof(one),
                 a.data.ptr, 3, b.data.ptr, 4, ctypes.addressof(zero), c.data.ptr, 3)
        numpy.testing.assert_allclose(c.get(), ha @ hb, rtol=1e-12)
        assert cb.getVersion(h) > 0
    finally:
        cb.destroy(h)
    with pytest.raises(AttributeError):
        cb.noSuchFunction


def test_curand_c_level():
    from cuarray.cuda import curand
    g = curand.createGenerator(curand.CURAND_RNG_PSEUDO_PHILOX4_32_10)
    try:
        curand.setPseudoRandomGeneratorSeed(g, 1234)
        curand.setStream(g, cuda.get_current_stream().ptr)
        x = cuarray.empty(100000, dtype=numpy.float32)
        curand.generateUniform(g, x.data.ptr, x.size)
        v = x.get()
        assert v.min() > 0 and v.max() <= 1 and abs(v.mean() - 0.5) < 0.01
        y = cuarray.empty(100000, dtype=numpy.float64)
        curand.generateNormalDouble(g, y.data.ptr, y.size, 2.0, 3.0)
        w = y.get()
        assert abs(w.mean() - 2.0) < 0.05 and abs(w.std() - 3.0) < 0.05
    finally:
        curand.destroyGenerator(g)


def test_cusolver_and_cusparse_c_level():
    from cuarray.cuda import cusolver, cusparse
    rng = numpy.random.default_rng(24)
    m = rng.standard_normal((5, 5))
    spd = m @ m.T + 5 * numpy.eye(5)
    a = cuarray.asarray(spd)            # symmetric: C and F layouts hold the same matrix
    h = cusolver.create()
    try:
        cusolver.setStream(h, cuda.get_current_stream().ptr)
        lwork = cusolver.dpotrf_bufferSize(h, cusolver.CUBLAS_FILL_MODE_LOWER, 5, a.data.ptr, 5)
        work = cuarray.empty(max(lwork, 1), dtype=numpy.float64)
        info = cuarray.zeros(1, dtype=numpy.int32)
        cusolver.dpotrf(h, cusolver.CUBLAS_FILL_MODE_LOWER, 5, a.data.ptr, 5, work.data.ptr,
                        lwork, info.data.ptr)
        assert int(info.get()[0]) == 0
        # the column-major lower factor is the row-major upper triangle
        numpy.testing.assert_allclose(numpy.triu(a.get()), numpy.linalg.cholesky(spd).T,
                                      rtol=1e-10, atol=1e-12)
    finally:
        cusolver.destroy(h)
    hs = cusparse.create()
    try:
        assert cusparse.getVersion(hs) > 0
    finally:
        cusparse.destroy(hs)
