"""cuarray.scipy.fft's dct/dst family, fht, and SciPy's uarray backend protocol, against
scipy.fft and scipy.fftpack. Each test runs on the GPU and, without one, through the host
emulation with NumPy's FFT standing in for cuFFT (the gather and twiddle kernels around it
run as built)."""
import warnings

import numpy as np
import pytest
import scipy.fft as sf
import scipy.fftpack as sfp

from emulation import _host, _up


def _c(dtype, real):
    return np.dtype(dtype).char.lower() if real else np.dtype(dtype).char.upper()


@pytest.fixture
def cp(cp, monkeypatch, request):
    """cuarray; under the emulation cuarray.fft's rfft/irfft/fft are NumPy's."""
    if request.node.callspec.params["cp"] == "emu":
        import cuarray.fft as F

        def single(a):
            return a.dtype in (np.float32, np.complex64)

        def rfft(a, n=None, axis=-1, norm=None):
            r = np.fft.rfft(_host(a), n, axis, norm)
            return _up(r.astype(np.complex64 if single(a) else np.complex128))

        def irfft(a, n=None, axis=-1, norm=None):
            r = np.fft.irfft(_host(a), n, axis, norm)
            return _up(r.astype(np.float32 if single(a) else np.float64))

        def fft(a, n=None, axis=-1, norm=None):
            r = np.fft.fft(_host(a), n, axis, norm)
            return _up(r.astype(np.complex64 if single(a) else np.complex128))

        for name, f in (("rfft", rfft), ("irfft", irfft), ("fft", fft)):
            monkeypatch.setattr(F, name, f)
    return cp


def _tol(dt):
    return dict(rtol=2e-5, atol=2e-5) if dt in (np.float32, np.complex64, np.float16) else \
        dict(rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("name", ["dct", "dst", "idct", "idst"])
@pytest.mark.parametrize("t", [1, 2, 3, 4])
def test_types_norms_against_scipy(cp, name, t):
    from cuarray.scipy import fft
    rng = np.random.default_rng(16 + t)
    for n in (1, 2, 3, 8, 17):
        if name in ("dct", "idct") and t == 1 and n < 2:
            continue
        h = rng.standard_normal((3, n))
        x = cp.asarray(h)
        for norm in (None, "backward", "ortho", "forward"):
            for orth in (None, True, False):
                want = getattr(sf, name)(h, type=t, norm=norm, orthogonalize=orth)
                got = getattr(fft, name)(x, type=t, norm=norm, orthogonalize=orth)
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12,
                                           err_msg=f"{name} type {t} n {n} {norm} {orth}")


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.float16, np.int32, np.complex64,
                                np.complex128])
def test_dtypes_n_axis(cp, dt):
    from cuarray.scipy import fft
    rng = np.random.default_rng(7)
    h = rng.standard_normal((4, 5, 6)) * 3
    if np.dtype(dt).kind == "c":
        h = h + 1j * rng.standard_normal((4, 5, 6))
    h = h.astype(dt)
    x = cp.asarray(h)
    for name in ("dct", "dst", "idct"):
        for t in (2, 3, 1, 4):
            for axis, n in ((-1, None), (0, 7), (1, 3), (-2, None), (2, 9)):
                want = getattr(sf, name)(h, type=t, n=n, axis=axis, norm="ortho")
                got = getattr(fft, name)(x, type=t, n=n, axis=axis, norm="ortho")
                assert got.dtype == want.dtype, (name, t, dt)
                np.testing.assert_allclose(got.get(), want, **_tol(dt))
    # a non-contiguous view
    want = sf.dct(h[:, ::2, 1:], axis=1)
    np.testing.assert_allclose(fft.dct(x[:, ::2, 1:], axis=1).get(), want, **_tol(dt))


def test_nd_and_fftpack(cp):
    from cuarray.scipy import fft, fftpack
    rng = np.random.default_rng(3)
    h = rng.standard_normal((6, 5, 4))
    x = cp.asarray(h)
    for name in ("dctn", "idctn", "dstn", "idstn"):
        for t in (1, 2, 3, 4):
            for s, axes in ((None, None), ((4, 7), (0, 2)), (None, (1,)), ((3,), None)):
                for norm in (None, "ortho", "forward"):
                    want = getattr(sf, name)(h, type=t, s=s, axes=axes, norm=norm)
                    got = getattr(fft, name)(x, type=t, s=s, axes=axes, norm=norm)
                    np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-11,
                                               err_msg=f"{name} {t} {s} {axes} {norm}")
            want = getattr(sfp, name)(h, type=t, shape=(6, 3, 4), norm=None)
            got = getattr(fftpack, name)(x, type=t, shape=(6, 3, 4), norm=None)
            np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-11)
    for name in ("dct", "idct", "dst", "idst"):
        for t in (1, 2, 3, 4):
            for norm in (None, "ortho"):
                want = getattr(sfp, name)(h, type=t, n=6, axis=0, norm=norm)
                got = getattr(fftpack, name)(x, type=t, n=6, axis=0, norm=norm)
                np.testing.assert_allclose(got.get(), want, rtol=1e-11, atol=1e-11)


def test_round_trips_and_empty(cp):
    from cuarray.scipy import fft
    rng = np.random.default_rng(11)
    h = rng.standard_normal((2, 9)).astype(np.float32)
    x = cp.asarray(h)
    for t in (1, 2, 3, 4):
        for norm in (None, "ortho", "forward"):
            r = fft.idct(fft.dct(x, type=t, norm=norm), type=t, norm=norm)
            np.testing.assert_allclose(r.get(), h, rtol=1e-4, atol=1e-5)
            r = fft.idst(fft.dst(x, type=t, norm=norm), type=t, norm=norm)
            np.testing.assert_allclose(r.get(), h, rtol=1e-4, atol=1e-5)
    e = fft.dct(cp.asarray(np.ones((0, 4))))
    assert e.shape == (0, 4) and e.dtype == np.float64


def test_errors(cp):
    from cuarray.scipy import fft
    x = cp.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError, match="DCT type"):
        fft.dct(x, type=5)
    with pytest.raises(ValueError, match="DST type"):
        fft.dst(x, type=0)
    with pytest.raises(ValueError, match="invalid number of data points"):
        fft.dct(x, n=0)
    with pytest.raises(ValueError, match="invalid number of data points"):
        fft.dct(cp.asarray(np.ones((4, 0))))
    with pytest.raises(ValueError, match="norm"):
        fft.dct(x, norm="x")
    with pytest.raises(IndexError):
        fft.dct(x, axis=2)
    with pytest.raises(RuntimeError):
        fft.dct(cp.asarray(np.ones(1)), type=1)
    with pytest.raises(TypeError, match="cuarray.asarray"):
        fft.dct(np.ones(3))
    with pytest.raises(ValueError, match="unique"):
        fft.dctn(x, axes=(0, 0))


@pytest.mark.parametrize("n,dln,mu,offset,bias", [
    (64, 0.05, 0.5, 0.1, 0.0), (65, 0.1, -0.3, 0.0, 0.7), (10, 0.2, 1.5, 0.3, -1.2),
    (8, 0.1, -1.0, 0.0, 0.0), (33, 0.02, 2.0, -0.2, 0.3)])
def test_fht(cp, n, dln, mu, offset, bias):
    from cuarray.scipy import fft
    rng = np.random.default_rng(n)
    h = rng.standard_normal((2, n))
    for name in ("fht", "ifht"):
        with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            want = getattr(sf, name)(h, dln, mu, offset=offset, bias=bias)
        with np.errstate(all="ignore"), warnings.catch_warnings(record=True) as wg:
            warnings.simplefilter("always")
            got = getattr(fft, name)(cp.asarray(h), dln, mu, offset=offset, bias=bias)
        assert [str(w.message) for w in wg] == [str(w.message) for w in ws]
        np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-10)
    assert fft.fhtoffset(dln, mu, offset, bias) == pytest.approx(
        sf.fhtoffset(dln, mu, initial=offset, bias=bias), abs=1e-12)


def test_uarray_backend(cp):
    import cuarray
    import cuarray.scipy.fft as cfft
    assert cfft.__ua_domain__ == "numpy.scipy.fft"
    h = np.random.default_rng(5).standard_normal((4, 8))
    x = cp.asarray(h)
    with sf.set_backend(cfft):
        for f, kw in ((sf.dct, dict(type=2)), (sf.idst, dict(type=3, norm="ortho")),
                      (sf.dctn, dict(axes=(0, 1))), (sf.rfft, {}), (sf.fft, {})):
            got = f(x, **kw)
            assert isinstance(got, cuarray.ndarray), f.__name__
            with sf.skip_backend(cfft):
                want = f(h, **kw)
            np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-10)
    # only=True without coercion: a host array is refused, as SciPy's protocol says
    with sf.set_backend(cfft, only=True):
        with pytest.raises(Exception):
            sf.dct(h)
    want = sf.dct(h)
    with sf.set_backend(cfft, coerce=True):
        got = sf.dct(h)
    assert isinstance(got, cuarray.ndarray)
    np.testing.assert_allclose(got.get(), want, rtol=1e-10)


def test_linalg_protocol(cp):
    """cuarray.scipy.linalg answers SciPy's uarray protocol: known names run, unknown ones
    and host arrays (without coercion) give NotImplemented."""
    import cuarray
    import cuarray.scipy.linalg as cl
    assert cl.__ua_domain__ == "numpy.scipy.linalg"

    class Method:
        def __init__(self, name):
            self.__name__ = name

    class D:
        def __init__(self, value, coercible=True):
            self.value, self.type, self.coercible = value, np.ndarray, coercible

    h = np.arange(1.0, 5.0)
    got = cl.__ua_function__(Method("toeplitz"), (cp.asarray(h),), {})
    assert isinstance(got, cuarray.ndarray)
    import scipy.linalg as sl
    np.testing.assert_array_equal(got.get(), sl.toeplitz(h))
    assert cl.__ua_function__(Method("no_such_function"), (), {}) is NotImplemented
    assert cl.__ua_convert__([D(h)], False) is NotImplemented
    conv = cl.__ua_convert__([D(h)], True)
    assert isinstance(conv[0], cuarray.ndarray)


@pytest.mark.gpu
def test_get_fft_plan(gpu_cp):
    import cuarray
    from cuarray.scipy import fft, fftpack
    cp = gpu_cp
    rng = np.random.default_rng(21)
    h = (rng.standard_normal((8, 64)) + 1j * rng.standard_normal((8, 64))).astype(np.complex64)
    x = cp.asarray(h)
    plan = fft.get_fft_plan(x, axes=-1)
    with plan:
        got = cuarray.fft.fft(x)
    np.testing.assert_allclose(got.get(), np.fft.fft(h), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(fft.ifft(x, plan=plan).get(), np.fft.ifft(h), rtol=1e-4,
                               atol=1e-5)
    with plan, pytest.raises(ValueError, match="does not fit this transform"):
        cuarray.fft.fft(cp.asarray(h[:, :32]))
    plan2 = fftpack.get_fft_plan(x, axes=(0, 1))
    with plan2:
        np.testing.assert_allclose(cuarray.fft.fft2(x).get(), np.fft.fft2(h), rtol=1e-4,
                                   atol=1e-3)
    r = cp.asarray(rng.standard_normal((4, 32)).astype(np.float32))
    with fft.get_fft_plan(r, axes=-1, value_type="R2C"):
        np.testing.assert_allclose(cuarray.fft.rfft(r).get(), np.fft.rfft(r.get()),
                                   rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="value_type"):
        fft.get_fft_plan(x, value_type="X")
    with pytest.raises(ValueError, match="plan must be"):
        fft.fft(x, plan=object())
