"""cuarray.scipy.ndimage Fourier filters against SciPy (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd


def _close(res, ref, tol=1e-12):
    res = res.get()
    assert res.dtype == ref.dtype and res.shape == ref.shape
    numpy.testing.assert_allclose(res, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex64,
                                   numpy.complex128, numpy.int32])
def test_fourier_filters(cp, dtype):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(0)
    tol = 1e-5 if numpy.dtype(dtype).char in "fF" else 1e-12
    for shape in ((8,), (6, 5), (4, 5, 3)):
        x = (rng.standard_normal(shape) * 10).astype(dtype)
        params = [1.5, 0.7, 2.0][:len(shape)]
        for f in ("fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"):
            F, S = getattr(nd, f), getattr(snd, f)
            _close(F(cp.asarray(x), params), S(x, params), tol)
            _close(F(cp.asarray(x), 1.3, n=11, axis=0), S(x, 1.3, n=11, axis=0), tol)


def test_fourier_outputs_errors(cp):
    from cuarray.scipy import ndimage as nd
    x = numpy.random.default_rng(1).standard_normal((6, 7))
    _close(nd.fourier_gaussian(cp.asarray(x), 2, output=numpy.complex64),
           snd.fourier_gaussian(x, 2, output=numpy.complex64), 1e-6)
    out = cp.zeros((6, 7), dtype=numpy.complex128)
    assert nd.fourier_shift(cp.asarray(x)[:, ::-1], (1, 2), output=out) is out
    _close(out, snd.fourier_shift(x[:, ::-1], (1, 2)))
    with pytest.raises(RuntimeError):
        nd.fourier_gaussian(cp.asarray(x), 1, output=numpy.int32)
    with pytest.raises(RuntimeError):
        nd.fourier_shift(cp.asarray(x), 1, output=numpy.float64)
    with pytest.raises(RuntimeError):
        nd.fourier_uniform(cp.asarray(x), (1, 2, 3))
    with pytest.raises(NotImplementedError):
        nd.fourier_ellipsoid(cp.zeros((2, 2, 2, 2)), 1)
