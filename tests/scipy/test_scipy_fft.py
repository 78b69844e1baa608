"""cuarray.scipy.fft and cuarray.scipy.fftpack against SciPy: argument rules (CPU),
transforms (GPU), and fftpack's packed real layout (GPU, and in the host emulation with
NumPy standing in for cuFFT)."""
import numpy as np
import pytest
import scipy.fft as sfft
import scipy.fftpack as sfp

from cuarray.scipy.fft._helper import init_nd_shape_and_axes, next_fast_len
from cuarray.scipy.fftpack import _fftpack

# ---- argument rules (pure) ------------------------------------------------------------------


class _Shape:
    def __init__(self, shape):
        self.shape, self.ndim = shape, len(shape)


@pytest.mark.parametrize("shape, s, axes", [
    ((4, 5, 6), None, None), ((4, 5, 6), (3, 7), None), ((4, 5, 6), None, (0, 2)),
    ((4, 5, 6), (-1, 8), (2, 0)), ((4, 5, 6), 9, -1), ((4, 5, 6), (2, 3, 4), None),
    ((7,), None, 0)])
def test_nd_rules_match_scipy(shape, s, axes):
    from scipy.fft._pocketfft.helper import _init_nd_shape_and_axes
    want = _init_nd_shape_and_axes(np.empty(shape), s, axes)
    got = init_nd_shape_and_axes(len(shape), shape, s, axes)
    assert got[0] == tuple(want[0]) and list(got[1]) == list(want[1])


@pytest.mark.parametrize("s, axes, match", [
    (None, (0, 0), "unique"), (None, (3,), "exceeds"), ((2, 3), (0,), "same length"),
    ((1, 2, 3, 4), None, "more axes"), ((0,), (1,), "invalid number"), ("ab", None, "integers")])
def test_nd_rule_errors(s, axes, match):
    with pytest.raises(ValueError, match=match):
        init_nd_shape_and_axes(3, (4, 5, 6), s, axes)


def test_next_fast_len():
    for t in list(range(1, 300)) + [1021, 4097, 10**6 + 3, 2**20 + 1]:
        n = next_fast_len(t)
        assert n >= t
        m = n
        for p in (2, 3, 5, 7):
            while m % p == 0:
                m //= p
        assert m == 1
        assert all(not _smooth(k, (2, 3, 5, 7)) for k in range(t, n))
        assert next_fast_len(t, real=True) == n
        f = _fftpack.next_fast_len(t)
        assert f == sfp.next_fast_len(t) or t > 4097
    with pytest.raises(ValueError, match="positive"):
        next_fast_len(0)
    with pytest.raises(TypeError):
        next_fast_len(2.5)


def _smooth(k, primes):
    for p in primes:
        while k % p == 0:
            k //= p
    return k == 1


def test_fftpack_shape_rule():
    class X:
        ndim = 2
    with pytest.raises(ValueError, match="same length"):
        _fftpack._good_shape(X(), (2,), None)
    assert _fftpack._good_shape(X(), (2, 4), None) == [2, 4]


# ---- transforms vs scipy.fft (GPU) ----------------------------------------------------------

def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _tol(dt):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dt).char in "fF" else dict(rtol=1e-10,
                                                                           atol=1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("name, kw", [
    ("fft", {}), ("ifft", {}), ("fft", {"n": 7}), ("ifft", {"n": 12, "axis": 0}),
    ("fft", {"norm": "ortho"}), ("ifft", {"norm": "forward"}), ("fft2", {}),
    ("ifft2", {"s": (3, 5)}), ("fftn", {}), ("ifftn", {"axes": (0, 2)}),
    ("fftn", {"s": (4, -1), "axes": (1, 2)}), ("hfft", {}), ("hfft", {"n": 9}),
    ("irfft", {}), ("irfft", {"n": 11}), ("irfftn", {}), ("irfft2", {"s": (5, 8)}),
    ("hfftn", {}), ("hfft2", {"norm": "ortho"})])
def test_scipy_fft_transforms(gpu_cp, dtype, name, kw):
    cp = gpu_cp
    from cuarray.scipy import fft
    if name.startswith(("irfft", "hfft")) and np.dtype(dtype).kind == "f":
        dtype = np.complex64 if dtype == np.float32 else np.complex128
    h = _rand((6, 8, 10), dtype)
    got = getattr(fft, name)(cp.asarray(h), **kw)
    want = getattr(sfft, name)(h, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, **_tol(dtype))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.float16])
@pytest.mark.parametrize("name, kw", [
    ("rfft", {}), ("rfft", {"n": 13, "axis": 1}), ("rfftn", {}), ("rfft2", {"s": (4, 6)}),
    ("ihfft", {}), ("ihfftn", {"axes": (0, 1)}), ("ihfft2", {"norm": "forward"}),
    ("fft", {}), ("fftn", {"axes": (1,)})])
def test_scipy_fft_real_input(gpu_cp, dtype, name, kw):
    cp = gpu_cp
    from cuarray.scipy import fft
    h = (_rand((5, 8, 6), np.float64) * 10).astype(dtype)
    got = getattr(fft, name)(cp.asarray(h), **kw)
    want = getattr(sfft, name)(h, **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, **_tol(want.dtype))


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name, kw", [
    ("irfft", {}), ("irfft", {"n": 11, "axis": 0}), ("irfft", {"norm": "forward"}),
    ("irfftn", {}), ("irfftn", {"s": (4, 6), "axes": (0, 2)}), ("irfft2", {"norm": "ortho"})])
def test_inverse_real_overwrite_x(gpu_cp, dtype, name, kw):
    # overwrite_x=True runs cuFFT's C2R on the input itself: same values as without it.
    cp = gpu_cp
    from cuarray.scipy import fft
    rng = np.random.default_rng(18)
    h = (rng.standard_normal((5, 8, 6)) + 1j * rng.standard_normal((5, 8, 6))).astype(dtype)
    want = getattr(sfft, name)(h, **kw)
    for x in (cp.asarray(h), cp.asarray(h)[:, ::2]):
        w = want if x.shape == h.shape else getattr(sfft, name)(h[:, ::2], **kw)
        got = getattr(fft, name)(x, overwrite_x=True, **kw)
        assert got.dtype == w.dtype and got.shape == w.shape
        np.testing.assert_allclose(got.get(), w, **_tol(w.dtype))


@pytest.mark.gpu
def test_scipy_fft_helpers_and_errors(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import fft
    np.testing.assert_allclose(fft.fftfreq(9, 0.5).get(), sfft.fftfreq(9, 0.5))
    np.testing.assert_allclose(fft.rfftfreq(8).get(), sfft.rfftfreq(8))
    h = np.arange(12.).reshape(3, 4)
    np.testing.assert_array_equal(fft.fftshift(cp.asarray(h)).get(), sfft.fftshift(h))
    np.testing.assert_array_equal(fft.ifftshift(cp.asarray(h), axes=1).get(),
                                  sfft.ifftshift(h, axes=1))
    x = cp.asarray(h)
    with pytest.raises(ValueError, match="unique"):
        fft.fftn(x, axes=(0, 0))
    with pytest.raises(ValueError, match="plan"):
        fft.fft(x, plan=object())
    with pytest.raises(TypeError):
        fft.rfft(cp.asarray(h + 1j))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        fft.fft(h)
    with pytest.raises(ValueError):
        fft.hfftn(x, norm="bogus")


# ---- fftpack ----------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int64, np.float16])
def test_fftpack_complex_transforms(gpu_cp, dtype):
    cp = gpu_cp
    from cuarray.scipy import fftpack
    h = (_rand((4, 6, 5), np.complex128 if np.dtype(dtype).kind == "c" else np.float64) * 5
         ).astype(dtype)
    x = cp.asarray(h)
    for name, kw in (("fft", {}), ("ifft", {"n": 9, "axis": 1}), ("fft2", {}),
                     ("ifft2", {"shape": (3, 7)}), ("fftn", {}),
                     ("ifftn", {"shape": (2, 3, 4)}), ("fftn", {"axes": (0, 2)})):
        got, want = getattr(fftpack, name)(x, **kw), getattr(sfp, name)(h, **kw)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        np.testing.assert_allclose(got.get(), want, **_tol(want.dtype))


def _packed_cases():
    return [((16,), {}), ((15,), {}), ((4, 9), {}), ((4, 9), {"axis": 0}),
            ((3, 10, 5), {"axis": 1}), ((12,), {"n": 7}), ((12,), {"n": 20}), ((1,), {}),
            ((2,), {})]


def _check_packed(cp, fftpack):
    for dtype in (np.float32, np.float64, np.int32):
        for shape, kw in _packed_cases():
            h = (_rand(shape, np.float64) * 4).astype(dtype)
            got, want = fftpack.rfft(cp.asarray(h), **kw), sfp.rfft(h, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape, (shape, kw)
            np.testing.assert_allclose(got.get(), want, **_tol(want.dtype))
            y = want.astype(np.float64 if dtype == np.int32 else dtype)
            got, want = fftpack.irfft(cp.asarray(y), **kw), sfp.irfft(y, **kw)
            assert got.dtype == want.dtype and got.shape == want.shape, (shape, kw)
            np.testing.assert_allclose(got.get(), want, **_tol(want.dtype))
    with pytest.raises(TypeError, match="real"):
        fftpack.rfft(cp.asarray(np.ones(4, np.complex64)))
    with pytest.raises(TypeError, match="real"):
        fftpack.irfft(cp.asarray(np.ones(4, np.complex64)))


@pytest.mark.gpu
def test_fftpack_packed_real(gpu_cp):
    from cuarray.scipy import fftpack
    _check_packed(gpu_cp, fftpack)


def test_fftpack_packing_kernels_emulated(cp, monkeypatch):
    """The pack/unpack kernels, with NumPy standing in for cuFFT under the emulation."""
    import cuarray.fft as cfft
    from cuarray.scipy import fftpack

    def rfft(a, n=None, axis=-1, norm=None, out=None):
        h = a.get()
        r = np.fft.rfft(h, n, axis)
        return cp.asarray(r.astype(np.complex64 if h.dtype.char in "ef" else np.complex128))

    def irfft(a, n=None, axis=-1, norm=None, out=None):
        h = a.get()
        r = np.fft.irfft(h, n, axis)
        return cp.asarray(r.astype(np.float32 if h.dtype == np.complex64 else np.float64))

    if not _emulated():
        pytest.skip("runs under the host emulation only (test_fftpack_packed_real on a GPU)")
    monkeypatch.setattr(cfft, "rfft", rfft)
    monkeypatch.setattr(cfft, "irfft", irfft)
    _check_packed(cp, fftpack)


def _emulated():
    from cuarray._runtime import driver
    return type(driver._drv()).__name__ == "FakeDriver"


def test_fftpack_rfftfreq(cp):
    from cuarray.scipy import fftpack
    for n, d in ((5, 1.0), (4, 0.5), (1, 2.0), (0, 1.0)):
        got, want = fftpack.rfftfreq(n, d), sfp.rfftfreq(n, d)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want)
    with pytest.raises(ValueError, match="nonnegative"):
        fftpack.rfftfreq(-1)


# ---- the tutorial's FFT round trip ------------------------------------------------------------

@pytest.mark.gpu
def test_tutorial_fftpack_round_trip(gpu_cp):
    cp = gpu_cp
    from cuarray.scipy import fftpack
    x = cp.random.random(1 << 20).astype(cp.complex64)
    X = fftpack.fft(x)
    x_rec = fftpack.ifft(X)
    assert X.dtype == np.complex64 and x_rec.dtype == np.complex64
    err = float(cp.max(cp.abs(x - x_rec)))
    assert err < 1e-5
