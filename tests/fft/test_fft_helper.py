"""cuarray.fft helpers against numpy.fft: fftfreq, rfftfreq, fftshift, ifftshift."""

import numpy as np
import pytest

import test_fft_emulator as emu

import cuarray.fft as cfft


@pytest.fixture(params=["fake", pytest.param("gpu", marks=pytest.mark.gpu)])
def xb(request, monkeypatch):
    b = emu.backend(request.param, monkeypatch)
    yield b
    emu.clear_plan_caches()


@pytest.mark.parametrize("n", [1, 2, 5, 8, 9, 100, 101])
@pytest.mark.parametrize("d", [1.0, 0.1, 3, np.float32(0.25)])
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_freq_values(xb, name, n, d):
    got = getattr(cfft, name)(n, d)
    want = getattr(np.fft, name)(n, d)
    assert xb.is_array(got) and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(xb.asnumpy(got), want)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("name", ["fftfreq", "rfftfreq"])
def test_freq_dtype_and_device(xb, name, dtype):
    got = getattr(cfft, name)(10, 0.5, device=None, dtype=dtype)
    want = getattr(np.fft, name)(10, 0.5).astype(dtype)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(xb.asnumpy(got), want)
    if xb.name == "gpu":
        import cuarray
        got = getattr(cfft, name)(10, device=cuarray.cuda.Device(0))
        assert got.device.id == 0


def test_freq_errors(xb):
    with pytest.raises(ValueError, match="n should be an integer"):
        cfft.fftfreq(4.0)
    with pytest.raises(ZeroDivisionError):
        cfft.fftfreq(0)
    with pytest.raises(ZeroDivisionError):
        cfft.rfftfreq(4, d=0)
    with pytest.raises(TypeError, match="floating or complex dtype"):
        cfft.fftfreq(4, dtype=np.int32)
    with pytest.raises(ValueError, match="device must be"):
        cfft.fftfreq(4, device="cpu")
    with pytest.raises(ValueError, match="negative dimensions"):
        cfft.fftfreq(-1)
    assert cfft.rfftfreq(-3).shape == np.fft.rfftfreq(-3).shape == (0,)


@pytest.mark.parametrize("shape", [(7,), (8,), (4, 5), (3, 4, 5), (1, 6), (0, 3)])
@pytest.mark.parametrize("axes", [None, 0, -1, (0,), (0, -1), (-1, 0, -1)])
@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_shifts(xb, name, shape, axes):
    listed = (axes,) if isinstance(axes, int) else axes or ()
    if any(not -len(shape) <= ax < len(shape) for ax in listed):
        return
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    got = getattr(cfft, name)(xb.asarray(a), axes=axes)
    np.testing.assert_array_equal(xb.asnumpy(got), getattr(np.fft, name)(a, axes=axes))


def test_shifts_of_views_and_dtypes(xb):
    a = (np.arange(60) + 1j * np.arange(60)).reshape(6, 10)
    x = xb.asarray(a)
    np.testing.assert_array_equal(xb.asnumpy(cfft.fftshift(x.T[::2])), np.fft.fftshift(a.T[::2]))
    np.testing.assert_array_equal(xb.asnumpy(cfft.ifftshift(cfft.fftshift(x))), a)
    b = np.arange(12).reshape(3, 4) % 2 == 0
    np.testing.assert_array_equal(xb.asnumpy(cfft.fftshift(xb.asarray(b))), np.fft.fftshift(b))


def test_shift_errors(xb):
    with pytest.raises(TypeError, match="cuarray.asarray"):
        cfft.fftshift(np.arange(4))
    with pytest.raises(np.exceptions.AxisError):
        cfft.fftshift(xb.asarray(np.arange(4)), axes=1)
