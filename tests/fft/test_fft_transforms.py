"""cuarray.fft transforms against numpy.fft.

Every test runs twice: on the "fake" backend (NumPy stand-ins for arrays, plans and
kernels: the whole planning pipeline, no GPU) and on the GPU (`gpu` marker).
"""
import warnings

import numpy as np
import pytest

import test_fft_emulator as emu

import cuarray.fft as cfft
from cuarray.fft import config

ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16,
              np.float32, np.float64, np.complex64, np.complex128]
REAL_DTYPES = [d for d in ALL_DTYPES if np.dtype(d).kind != "c"]
NORMS = [None, "backward", "ortho", "forward"]
C2C = ["fft", "ifft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


@pytest.fixture(params=["fake", pytest.param("gpu", marks=pytest.mark.gpu)])
def xb(request, monkeypatch):
    b = emu.backend(request.param, monkeypatch)
    yield b
    emu.clear_plan_caches()


def _input(shape, dtype, seed=0):
    rs = np.random.RandomState(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rs.randint(2, size=shape).astype(bool)
    if dtype.kind in "iu":
        return rs.randint(0, 10, size=shape).astype(dtype)
    a = rs.standard_normal(shape)
    if dtype.kind == "c":
        a = a + 1j * rs.standard_normal(shape)
    return a.astype(dtype)


def _value_type(name):
    if name in ("rfft", "rfftn", "rfft2", "ihfft"):
        return "R2C"
    if name in ("irfft", "irfftn", "irfft2", "hfft"):
        return "C2R"
    return "C2C"


def _expected_dtype(dtype, name):
    """CuPy's result dtypes: single precision in, single precision out."""
    single = np.dtype(dtype).char in "efF"
    if _value_type(name) == "C2R":
        return np.dtype(np.float32 if single else np.float64)
    return np.dtype(np.complex64 if single else np.complex128)


def _reference(name, a, *args, **kw):
    """NumPy's result on a double-precision copy of the same values."""
    if _value_type(name) == "R2C" or a.dtype.kind != "c":
        a = a.astype(np.float64) if _value_type(name) == "R2C" else a.astype(np.complex128)
    else:
        a = a.astype(np.complex128)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return getattr(np.fft, name)(a, *args, **kw)


def _close(got, want, dtype):
    single = np.dtype(dtype).char in "fF"
    scale = max(float(np.abs(want).max()), 1.0) if want.size else 1.0
    tol = 2e-5 if single else 1e-11
    assert got.shape == want.shape
    atol = tol * scale * max(1, np.log2(max(want.size, 2)))
    np.testing.assert_allclose(got, want, rtol=0, atol=atol)


def _compare(xb, name, host, *args, **kw):
    x = xb.asarray(host)
    before = host.copy()
    got = getattr(cfft, name)(x, *args, **kw)
    assert xb.is_array(got)
    want = _reference(name, host, *args, **kw)
    assert got.dtype == _expected_dtype(host.dtype, name), (got.dtype, host.dtype, name)
    _close(xb.asnumpy(got), want, got.dtype)
    np.testing.assert_array_equal(xb.asnumpy(x), before)  # the input is never overwritten
    return got


# ---- 1-D ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", C2C + ["irfft", "hfft"])
def test_1d_all_dtypes(xb, name, dtype):
    _compare(xb, name, _input((3, 10), dtype))


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("name", ["rfft", "ihfft"])
def test_1d_real_input_all_dtypes(xb, name, dtype):
    _compare(xb, name, _input((3, 10), dtype))


@pytest.mark.parametrize("name", ["rfft", "ihfft"])
def test_real_transforms_refuse_complex_input(xb, name):
    x = xb.asarray(_input((4,), np.complex64))
    with pytest.raises(TypeError, match="real input"):
        getattr(cfft, name)(x)


@pytest.mark.parametrize("length", [1, 2, 3, 5, 7, 13, 16, 17, 97, 210, 1000, 1024, 4099])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_odd_prime_and_composite_lengths(xb, name, length):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    if _value_type(name) == "C2R" and length == 1:
        pytest.skip("irfft of one point needs n")
    _compare(xb, name, _input((2, length), dtype, seed=length))


@pytest.mark.parametrize("dtype", [np.complex64, np.float32])
@pytest.mark.parametrize("length", [7, 64, 243, 4099])
def test_single_precision_lengths(xb, dtype, length):
    a = _input((3, length), dtype)
    _compare(xb, "fft", a)
    if dtype == np.float32:
        _compare(xb, "rfft", a)
    else:
        _compare(xb, "irfft", a)


@pytest.mark.parametrize("n", [1, 3, 8, 9, 16, 33])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_n_crops_and_pads(xb, name, n):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    _compare(xb, name, _input((4, 9), dtype), n=n)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft"])
def test_axis(xb, name, axis):
    dtype = np.float32 if _value_type(name) == "R2C" else np.complex64
    _compare(xb, name, _input((5, 6, 7), dtype), axis=axis)
    _compare(xb, name, _input((5, 6, 7), dtype), n=4, axis=axis)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_norm_1d(xb, name, norm):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    _compare(xb, name, _input((3, 12), dtype), norm=norm)
    _compare(xb, name, _input((3, 11), dtype), n=15, norm=norm)


def test_batched_leading_axes(xb):
    _compare(xb, "fft", _input((2, 3, 4, 64), np.complex64))
    _compare(xb, "rfft", _input((2, 3, 4, 64), np.float32))
    _compare(xb, "irfft", _input((2, 3, 4, 33), np.complex64))


# ---- non-contiguous inputs ------------------------------------------------------------------

def _views(xb, host):
    """(device view, the same view on the host) for layouts cuFFT must cope with."""
    x = xb.asarray(host)
    yield x.transpose(2, 0, 1), host.transpose(2, 0, 1)
    yield x[:, ::2, :], host[:, ::2, :]
    yield x[::-1, :, 1:], host[::-1, :, 1:]
    yield x[:, :, ::-1], host[:, :, ::-1]
    yield x[1:, 2:5, ::3], host[1:, 2:5, ::3]
    yield x.transpose(1, 2, 0)[::2], host.transpose(1, 2, 0)[::2]


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
def test_non_contiguous_1d(xb, name, axis):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    host = _input((6, 8, 10), dtype)
    for x, h in _views(xb, host):
        got = getattr(cfft, name)(x, axis=axis)
        _close(xb.asnumpy(got), _reference(name, h, axis=axis), got.dtype)


@pytest.mark.parametrize("axes", [None, (0, 1), (1, 2), (0, 2), (2, 0), (1,), (0, 1, 2)])
@pytest.mark.parametrize("name", N_D[:4])
def test_non_contiguous_nd(xb, name, axes):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    host = _input((6, 8, 10), dtype)
    for x, h in _views(xb, host):
        got = getattr(cfft, name)(x, axes=axes)
        _close(xb.asnumpy(got), _reference(name, h, axes=axes), got.dtype)


def test_fortran_order(xb):
    host = np.asfortranarray(_input((16, 12), np.complex64))
    for name in ["fft", "ifft", "fft2", "ifftn"]:
        _compare(xb, name, host)
    _compare(xb, "fft", host, axis=0)
    real = np.asfortranarray(_input((16, 12), np.float32))
    _compare(xb, "rfft2", real)
    _compare(xb, "rfft", real, axis=0)


# ---- N-D ------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int32, np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
@pytest.mark.parametrize("name", N_D)
def test_nd_dtypes(xb, name, dtype):
    if _value_type(name) == "R2C" and np.dtype(dtype).kind == "c":
        return
    _compare(xb, name, _input((4, 6, 5), dtype))


@pytest.mark.parametrize("s,axes", [
    (None, None), (None, (0,)), (None, (2, 0)), (None, (-1, -2)), ((3, 4), (1, 2)),
    ((8, 5), (0, 2)), ((2, 9, 7), (0, 1, 2)), ((5,), (1,)), ((3, -1), (0, 1)), (None, (0, 0)),
    ((3, 7), (1, 1)), (None, (1, 0, 1)), (None, ()), ((4, None), (0, 1)),
])
@pytest.mark.parametrize("name", N_D[:4])
def test_nd_s_and_axes(xb, name, s, axes):
    if _value_type(name) != "C2C" and axes == ():
        with pytest.raises(IndexError):
            getattr(cfft, name)(xb.asarray(_input((4, 6, 5), np.complex64)), s=s, axes=axes)
        return
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        got = getattr(cfft, name)(xb.asarray(_input((4, 6, 5), dtype)), s=s, axes=axes)
    want = _reference(name, _input((4, 6, 5), dtype), s=s, axes=axes)
    _close(xb.asnumpy(got), want, got.dtype)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", N_D)
def test_norm_nd(xb, name, norm):
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    _compare(xb, name, _input((3, 6, 7), dtype), norm=norm)


@pytest.mark.parametrize("nd", [True, False])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_more_than_three_axes_and_nd_planning_off(xb, monkeypatch, name, nd):
    monkeypatch.setattr(config, "enable_nd_planning", nd)
    dtype = np.float64 if _value_type(name) == "R2C" else np.complex128
    _compare(xb, name, _input((3, 4, 5, 6), dtype))
    _compare(xb, name, _input((2, 3, 4, 5, 6), dtype), axes=(0, 2, 3, 4))


def test_length_one_axes(xb):
    for shape in [(1, 5), (5, 1), (1, 1), (3, 1, 4), (1,)]:
        _compare(xb, "fftn", _input(shape, np.complex64))
        _compare(xb, "rfftn", _input(shape, np.float32))
        _compare(xb, "fft", _input(shape, np.complex128))
    _compare(xb, "irfft", _input((3, 1), np.complex128), n=1)
    _compare(xb, "irfft", _input((3, 2), np.complex128), n=2)


def test_fftn_over_nothing_returns_input(xb):
    x = xb.asarray(_input((3, 4), np.float32))
    assert cfft.fftn(x, axes=()) is x
    zero_d = xb.asarray(np.array(2.5))
    assert cfft.fftn(zero_d) is zero_d


def test_round_trips(xb):
    a = _input((8, 16, 6), np.float64)
    x = xb.asarray(a)
    back = cfft.irfftn(cfft.rfftn(x), s=a.shape, axes=(0, 1, 2))
    np.testing.assert_allclose(xb.asnumpy(back), a, atol=1e-12)
    np.testing.assert_allclose(xb.asnumpy(cfft.ifft2(cfft.fft2(x))).real, a, atol=1e-12)
    padded = np.concatenate([a, np.zeros(a.shape[:-1] + (1,))], axis=-1)
    np.testing.assert_allclose(xb.asnumpy(cfft.irfft(cfft.rfft(x, n=7), n=7)), padded, atol=1e-12)
    np.testing.assert_allclose(xb.asnumpy(cfft.hfft(cfft.ihfft(x), n=6)), a, atol=1e-12)


def test_irfft_ignores_dc_and_nyquist_imaginary_parts(xb):
    # NumPy's irfft discards them; cuFFT's C2R need not: cuarray zeroes them first
    spec = _input((3, 9), np.complex128, seed=5)
    for n in (16, 17):
        _compare(xb, "irfft", spec, n=n)
    _compare(xb, "irfftn", _input((4, 5, 9), np.complex128, seed=6), s=(4, 5, 16), axes=(0, 1, 2))


# ---- out= -----------------------------------------------------------------------------------

def test_out_same_dtype(xb):
    a = _input((4, 16), np.complex64)
    out = xb.empty((4, 16), np.complex64)
    res = cfft.fft(xb.asarray(a), out=out)
    assert res is out
    _close(xb.asnumpy(out), np.fft.fft(a.astype(np.complex128)), np.complex64)


def test_out_lower_precision_and_strided(xb):
    a = _input((4, 16), np.complex128)
    out = xb.empty((16, 4), np.complex64).T  # same_kind cast and a transposed out
    res = cfft.fftn(xb.asarray(a), axes=(0, 1), out=out)
    assert res is out
    _close(xb.asnumpy(out), np.fft.fftn(a), np.complex64)
    r = xb.empty((4, 9), np.complex128)
    assert cfft.rfft(xb.asarray(a.real), out=r) is r
    _close(xb.asnumpy(r), np.fft.rfft(a.real), np.complex128)
    ir = xb.empty((4, 16), np.float32)
    assert cfft.irfft(xb.asarray(a[:, :9]), out=ir) is ir
    _close(xb.asnumpy(ir), np.fft.irfft(a[:, :9]), np.float32)


@pytest.mark.parametrize("norm", NORMS)
def test_out_is_the_input(xb, norm):
    a = _input((5, 12), np.complex128)
    x = xb.asarray(a)
    res = cfft.fft(x, norm=norm, out=x)
    assert res is x
    _close(xb.asnumpy(x), np.fft.fft(a, norm=norm), np.complex128)
    y = xb.asarray(a)
    cfft.ifft(y[:, ::2], axis=0, out=y[:, ::2])
    want = a.copy()
    want[:, ::2] = np.fft.ifft(a[:, ::2], axis=0)
    _close(xb.asnumpy(y), want, np.complex128)


def test_out_overlapping_input_differently(xb):
    a = _input((2, 16), np.complex128)
    x = xb.asarray(a)
    cfft.fft(x[0], out=x[1])
    want = a.copy()
    want[1] = np.fft.fft(a[0])
    _close(xb.asnumpy(x), want, np.complex128)


def test_out_errors(xb):
    x = xb.asarray(_input((4, 8), np.complex128))
    with pytest.raises(ValueError, match="output array has wrong shape"):
        cfft.fft(x, out=xb.empty((4, 9), np.complex128))
    with pytest.raises(TypeError, match="same_kind"):
        cfft.fft(x, out=xb.empty((4, 8), np.float64))
    with pytest.raises(TypeError, match="out must be"):
        cfft.fft(x, out=np.empty((4, 8), np.complex128))


# ---- errors and empty arrays ----------------------------------------------------------------

def test_errors(xb):
    x = xb.asarray(_input((3, 4), np.complex64))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cfft.fft(np.zeros(4))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        cfft.fft(x, n=0)
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(-2\)"):
        cfft.irfft(xb.asarray(np.zeros((3, 0), np.complex64)))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        cfft.fft(xb.asarray(np.zeros((3, 0), np.complex64)))
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        cfft.rfftn(xb.asarray(np.zeros((3, 4), np.float32)), s=(3, 0), axes=(0, 1))
    with pytest.raises(ValueError, match="Invalid norm value bad"):
        cfft.fft(x, norm="bad")
    with pytest.raises(ValueError, match="Invalid norm value bad"):
        cfft.hfft(x, norm="bad")
    with pytest.raises(IndexError):
        cfft.fft(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        cfft.fftn(x, axes=(0, 3))
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        cfft.fftn(x, s=(2,), axes=(0, 1))
    with pytest.raises(TypeError):
        cfft.fft(x, n=2.0)
    with pytest.raises(IndexError):
        cfft.fft2(xb.asarray(np.zeros(3, np.complex64)))


def test_empty_batches(xb):
    for name in ["fft", "ifft", "rfft", "fftn", "rfftn"]:
        dtype = np.float32 if _value_type(name) == "R2C" else np.complex64
        host = np.zeros((0, 6), dtype)
        got = getattr(cfft, name)(xb.asarray(host), axes=(1,)) if name.endswith("n") else \
            getattr(cfft, name)(xb.asarray(host))
        want = _reference(name, host, axes=(1,)) if name.endswith("n") else _reference(name, host)
        assert got.shape == want.shape and got.dtype == _expected_dtype(dtype, name)
    padded = cfft.fftn(xb.asarray(np.zeros((0, 3), np.complex64)), s=(2, 3), axes=(0, 1))
    assert padded.shape == (2, 3)
    np.testing.assert_array_equal(xb.asnumpy(padded), np.zeros((2, 3)))


def test_deprecation_warnings_as_numpy(xb):
    x = xb.asarray(_input((3, 4), np.complex64))
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`") as rec:
        cfft.fftn(x, s=(3, 4))
    assert rec[0].filename == __file__  # pointed at the caller, as NumPy's
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        cfft.fftn(x, s=(3, None), axes=(0, 1))


@pytest.mark.parametrize("fast", [True, False])
def test_repeated_call_path_equals_general_path(xb, monkeypatch, fast):
    # simple calls take a memoised path (`_recipe`); the general one must agree with it
    from cuarray.fft import _fft
    if not fast:
        monkeypatch.setattr(_fft, "_recipe", lambda *args: None)
    for name, shape, dtype, kw in [
            ("fft", (3, 64), np.complex64, {}), ("ifft", (64, 3), np.complex128, {"axis": 0}),
            ("rfft2", (16, 12), np.float32, {}), ("fftn", (4, 6, 8), np.complex64, {}),
            ("ifftn", (4, 6, 8), np.complex128, {"axes": (0, 2), "norm": "ortho"}),
            ("rfftn", (4, 6, 8), np.float64, {"axes": (0, 1), "norm": "forward"})]:
        _compare(xb, name, _input(shape, dtype), **kw)
