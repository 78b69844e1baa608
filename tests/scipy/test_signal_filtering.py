"""cuarray.scipy.signal's linear filters against scipy.signal: lfilter (the parallel scan,
zi, axes, dtypes), sosfilt, lfiltic (GPU and host emulation); lfilter_zi, sosfilt_zi,
filtfilt, sosfiltfilt, deconvolve (GPU: they solve with cuarray.linalg)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

B8, A8 = ss.butter(8, 0.15)
B4, A4 = ss.butter(4, 0.3)   # well conditioned in float32 too
SOS = ss.butter(6, 0.1, output="sos")


@pytest.mark.parametrize("N", [0, 1, 5, 63, 64, 65, 300, 5000, 70000])
def test_lfilter_lengths(cp, N):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(N)
    b, a = ss.butter(4, 0.2)
    x = rng.standard_normal((2, N))
    got = s.lfilter(cp.asarray(b), cp.asarray(a), cp.asarray(x))
    np.testing.assert_allclose(cp.asnumpy(got), ss.lfilter(b, a, x), rtol=1e-9, atol=1e-9)
    if N == 0:
        return  # SciPy's zf of an empty input is not its zi (undefined there)
    zi = rng.standard_normal((2, 4))
    got, zf = s.lfilter(cp.asarray(b), cp.asarray(a * 2), cp.asarray(x), zi=cp.asarray(zi))
    want, wzf = ss.lfilter(b, a * 2, x, zi=zi)
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(cp.asnumpy(zf), wzf, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16", "i2"])
def test_lfilter_dtypes_axes(cp, dt):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 700, 2))
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(x.shape)
    x = (x * 10).astype(dt)
    b = B4.astype(dt if np.dtype(dt).kind in "fc" else "f8")
    a = A4.astype(b.dtype)
    for axis in (0, 1, -1):
        got = s.lfilter(cp.asarray(b), cp.asarray(a), cp.asarray(x), axis=axis)
        want = ss.lfilter(b, a, x, axis=axis)
        assert got.dtype == want.dtype, (dt, got.dtype, want.dtype)
        tol = 2e-3 if np.dtype(dt) in (np.float32, np.complex64) else 1e-8
        np.testing.assert_allclose(cp.asnumpy(got), want, rtol=tol, atol=tol * np.abs(want).max())


def test_lfilter_fir_and_noncontiguous(xp):
    cp = xp
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(8)
    x = rng.standard_normal((40, 30))
    b = rng.standard_normal(7)
    got = s.lfilter(cp.asarray(b), cp.asarray(np.array([2.0])), cp.asarray(x)[::2, ::-1], axis=0)
    np.testing.assert_allclose(cp.asnumpy(got), ss.lfilter(b, [2.0], x[::2, ::-1], axis=0),
                               atol=1e-12)
    # a longer than b, host coefficient lists, zi broadcast along other axes
    got, zf = s.lfilter([1.0], [1.0, -0.5, 0.25], cp.asarray(x), axis=1,
                        zi=cp.asarray(np.ones((1, 2))))
    want, wzf = ss.lfilter([1.0], [1.0, -0.5, 0.25], x, axis=1, zi=np.ones((1, 2)))
    np.testing.assert_allclose(cp.asnumpy(got), want, atol=1e-12)
    np.testing.assert_allclose(cp.asnumpy(zf), wzf, atol=1e-12)


def test_lfilter_errors(cp):
    from cuarray.scipy import signal as s
    x = cp.zeros((4, 5))
    with pytest.raises(ValueError, match="zi"):
        s.lfilter([1.0, 0.5], [1.0, 0.2], x, zi=cp.zeros((4, 3)))
    with pytest.raises(TypeError):
        s.lfilter([1.0], [1.0], np.zeros(3))
    with pytest.raises(np.exceptions.AxisError):
        s.lfilter([1.0], [1.0], x, axis=2)
    with pytest.raises(ValueError):
        s.sosfilt(np.zeros((2, 5)), x)
    with pytest.raises(ValueError):
        s.sosfilt(np.zeros(6), x)


@pytest.mark.parametrize("shape,axis", [((5000,), -1), ((64, 1000), -1), ((700, 3), 0),
                                        ((2, 70000), -1), ((1,), 0)])
def test_sosfilt(xp, shape, axis):
    cp = xp
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(9)
    x = rng.standard_normal(shape)
    got = s.sosfilt(cp.asarray(SOS), cp.asarray(x), axis=axis)
    np.testing.assert_allclose(cp.asnumpy(got), ss.sosfilt(SOS, x, axis=axis), rtol=1e-8,
                               atol=1e-10)
    zshape = list(shape)
    zshape[axis] = 2
    zi = rng.standard_normal([SOS.shape[0]] + zshape)
    got, zf = s.sosfilt(cp.asarray(SOS), cp.asarray(x), axis=axis, zi=cp.asarray(zi))
    want, wzf = ss.sosfilt(SOS, x, axis=axis, zi=zi)
    np.testing.assert_allclose(cp.asnumpy(got), want, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(cp.asnumpy(zf), wzf, rtol=1e-8, atol=1e-10)
    x32 = x.astype(np.float32)
    got = s.sosfilt(cp.asarray(SOS.astype(np.float32)), cp.asarray(x32), axis=axis)
    assert got.dtype == np.float32
    np.testing.assert_allclose(cp.asnumpy(got), ss.sosfilt(SOS.astype(np.float32), x32,
                                                           axis=axis), rtol=1e-3, atol=1e-4)


def test_lfiltic(xp):
    cp = xp
    from cuarray.scipy import signal as s
    b, a = ss.butter(3, 0.3)
    y = np.array([0.5, -0.2, 0.1])
    x = np.array([1.0, 0.3])
    np.testing.assert_allclose(cp.asnumpy(s.lfiltic(b, a, cp.asarray(y), cp.asarray(x))),
                               ss.lfiltic(b, a, y, x), atol=1e-12)
    np.testing.assert_allclose(cp.asnumpy(s.lfiltic(b, a, cp.asarray(y))),
                               ss.lfiltic(b, a, y), atol=1e-12)


def test_lfilter_zi_and_sosfilt_zi(xp):
    from cuarray.scipy import signal as s
    for b, a in [(B8, A8), ss.cheby1(3, 1, 0.3), ([1.0, 2.0, 1.0], [4.0, 0.5, 0.1]),
                 ([0.5, 0.5], [1.0])]:
        np.testing.assert_allclose(xp.asnumpy(s.lfilter_zi(b, a)), ss.lfilter_zi(b, a),
                                   rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(xp.asnumpy(s.sosfilt_zi(SOS)), ss.sosfilt_zi(SOS),
                               rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
def test_filtfilt(xp, padtype):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(10)
    x = rng.standard_normal((3, 2000))
    b, a = ss.butter(4, 0.1)
    for axis, xx in ((-1, x), (0, x.T.copy())):
        got = s.filtfilt(b, a, xp.asarray(xx), axis=axis, padtype=padtype)
        np.testing.assert_allclose(xp.asnumpy(got), ss.filtfilt(b, a, xx, axis=axis,
                                                                    padtype=padtype),
                                   rtol=1e-8, atol=1e-10)
        got = s.sosfiltfilt(SOS, xp.asarray(xx), axis=axis, padtype=padtype)
        np.testing.assert_allclose(xp.asnumpy(got), ss.sosfiltfilt(SOS, xx, axis=axis,
                                                                       padtype=padtype),
                                   rtol=1e-8, atol=1e-10)
    got = s.filtfilt(b, a, xp.asarray(x), padlen=10)
    np.testing.assert_allclose(xp.asnumpy(got), ss.filtfilt(b, a, x, padlen=10),
                               rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="padlen"):
        s.filtfilt(b, a, xp.asarray(x[:, :10]))
    with pytest.raises(ValueError, match="padtype"):
        s.filtfilt(b, a, xp.asarray(x), padtype="bad")


def test_deconvolve(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(11)
    sig = rng.standard_normal(50)
    div = np.array([1.0, 0.5, 0.25])
    q, r = s.deconvolve(xp.asarray(sig), xp.asarray(div))
    wq, wr = ss.deconvolve(sig, div)
    np.testing.assert_allclose(xp.asnumpy(q), wq, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(xp.asnumpy(r), wr, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="1-D"):
        s.deconvolve(xp.zeros((2, 2)), xp.asarray(div))


@pytest.mark.parametrize("irlen", [None, 40])
def test_filtfilt_gust(xp, irlen):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(12)
    x = rng.standard_normal((3, 300))
    b, a = ss.butter(3, 0.2)
    for axis, xx in ((-1, x), (0, x.T.copy())):
        got = s.filtfilt(b, a, xp.asarray(xx), axis=axis, method="gust", irlen=irlen)
        want = ss.filtfilt(b, a, xx, axis=axis, method="gust", irlen=irlen)
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-7, atol=1e-9)
    got = s.filtfilt([0.5], [1.0], xp.asarray(x), method="gust")
    np.testing.assert_allclose(xp.asnumpy(got), ss.filtfilt([0.5], [1.0], x, method="gust"))
    with pytest.raises(ValueError, match="method"):
        s.filtfilt(b, a, xp.asarray(x), method="bad")
