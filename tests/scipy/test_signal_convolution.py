"""cuarray.scipy.signal's convolution and correlation against scipy.signal: the direct
kernel (GPU and host emulation), FFT and overlap-add paths (GPU), 2-D boundaries, lags,
and argument errors."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

SHAPES = [((10,), (3,)), ((3,), (10,)), ((1,), (1,)), ((7, 5), (3, 2)), ((3, 2), (7, 5)),
          ((4, 5, 6), (2, 3, 2))]


def _rand(rng, shape, dt):
    if np.dtype(dt).kind in "iu":
        return rng.integers(-9, 9, shape).astype(dt)
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_direct_matches_scipy(cp, mode):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(0)
    for sa, sb in SHAPES:
        for dt in ["f4", "f8", "c16", "i4"]:
            a, b = _rand(rng, sa, dt), _rand(rng, sb, dt)
            for f in ["convolve", "correlate"]:
                got = getattr(s, f)(cp.asarray(a), cp.asarray(b), mode, method="direct")
                want = getattr(ss, f)(a, b, mode, method="direct")
                assert got.dtype == want.dtype and got.shape == want.shape, (f, sa, sb, dt)
                tol = 1e-5 if dt == "f4" else 1e-12
                np.testing.assert_allclose(cp.asnumpy(got), want, rtol=tol, atol=tol,
                                           err_msg=f"{f} {sa} {sb} {dt}")


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("boundary", ["fill", "wrap", "symm"])
def test_2d_boundaries(cp, mode, boundary):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(1)
    for sa, sb in [((7, 5), (3, 2)), ((3, 2), (7, 5)), ((6, 6), (3, 3)), ((4, 9), (4, 1))]:
        for dt in ["f8", "c16"]:
            a, b = _rand(rng, sa, dt), _rand(rng, sb, dt)
            for f in ["convolve2d", "correlate2d"]:
                got = getattr(s, f)(cp.asarray(a), cp.asarray(b), mode, boundary=boundary,
                                    fillvalue=2)
                want = getattr(ss, f)(a, b, mode, boundary=boundary, fillvalue=2)
                np.testing.assert_allclose(cp.asnumpy(got), want, atol=1e-12,
                                           err_msg=f"{f} {sa} {sb} {dt}")


def test_noncontiguous_and_0d(cp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(2)
    a = rng.standard_normal((12, 8))
    b = rng.standard_normal((3, 4))
    got = s.convolve(cp.asarray(a)[::2, 1::2], cp.asarray(b).T, method="direct")
    np.testing.assert_allclose(cp.asnumpy(got), ss.convolve(a[::2, 1::2], b.T), atol=1e-12)
    got = s.convolve(cp.asarray(np.float64(3.0)), cp.asarray(np.float64(2.0)))
    assert got.shape == () and float(got) == 6.0
    assert s.convolve(cp.zeros(0), cp.ones(3)).shape == (0,)


def test_correlation_lags(cp):
    from cuarray.scipy import signal as s
    for n1, n2 in [(5, 3), (3, 5), (6, 6), (7, 2), (1, 4)]:
        for mode in ("full", "same", "valid"):
            np.testing.assert_array_equal(cp.asnumpy(s.correlation_lags(n1, n2, mode)),
                                          ss.correlation_lags(n1, n2, mode))
    with pytest.raises(ValueError):
        s.correlation_lags(3, 4, "bad")


def test_errors(cp):
    cuarray = cp
    from cuarray.scipy import signal as s
    a = cuarray.zeros(4)
    with pytest.raises(ValueError, match="acceptable mode"):
        s.convolve(a, a, mode="bad")
    with pytest.raises(ValueError, match="method"):
        s.convolve(a, a, method="bad")
    with pytest.raises(ValueError, match="dimensionality"):
        s.convolve(a, cuarray.zeros((2, 2)))
    with pytest.raises(ValueError, match="at least as large"):
        s.convolve(cuarray.zeros((3, 5)), cuarray.zeros((5, 3)), mode="valid")
    with pytest.raises(ValueError, match="2-D"):
        s.convolve2d(a, a)
    with pytest.raises(ValueError, match="boundary"):
        s.convolve2d(cuarray.zeros((2, 2)), cuarray.zeros((2, 2)), boundary="bad")
    with pytest.raises(TypeError):
        s.convolve(np.zeros(3), a)
    with pytest.raises(ValueError, match="axes"):
        s.fftconvolve(a, a, axes=[])
    assert s.choose_conv_method(cuarray.zeros(10, "i4"), cuarray.zeros(3, "i4")) == "direct"
    assert s.choose_conv_method(cuarray.zeros(1 << 20), cuarray.zeros(4096)) == "fft"


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_fft_and_oa_match_scipy(xp, mode):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(3)
    cases = [((1000,), (37,)), ((37,), (1000,)), ((300, 40), (11, 5)), ((64, 3), (5, 3)),
             ((4000,), (1000,)), ((5, 2000), (1, 63))]
    for sa, sb in cases:
        for dt in ["f4", "f8", "c8", "c16", "i8"]:
            a, b = _rand(rng, sa, dt), _rand(rng, sb, dt)
            tol = 2e-4 if dt in ("f4", "c8") else 1e-9
            for f in ["fftconvolve", "oaconvolve"]:
                got = getattr(s, f)(xp.asarray(a), xp.asarray(b), mode)
                want = getattr(ss, f)(a, b, mode)
                assert got.dtype == want.dtype and got.shape == want.shape, (f, sa, sb, dt)
                scale = max(1.0, np.abs(want).max()) if want.size else 1.0
                np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol,
                                           atol=tol * scale, err_msg=f"{f} {sa} {sb} {dt}")
            got = s.convolve(xp.asarray(a), xp.asarray(b), mode, method="fft")
            want = ss.convolve(a, b, mode, method="fft")
            assert got.dtype == want.dtype
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol,
                                       atol=tol * max(1.0, np.abs(want).max()))


def test_fft_axes(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 500))
    b = rng.standard_normal((6, 31))
    for f in ["fftconvolve", "oaconvolve"]:
        for mode in ["full", "same", "valid"]:
            got = getattr(s, f)(xp.asarray(a), xp.asarray(b), mode, axes=1)
            np.testing.assert_allclose(xp.asnumpy(got), getattr(ss, f)(a, b, mode, axes=1),
                                       atol=1e-10)
        got = getattr(s, f)(xp.asarray(a), xp.asarray(b[:1]), axes=-1)
        np.testing.assert_allclose(xp.asnumpy(got), getattr(ss, f)(a, b[:1], axes=-1),
                                   atol=1e-10)
    with pytest.raises(ValueError, match="incompatible shapes"):
        s.fftconvolve(xp.asarray(a), xp.asarray(b[:4]), axes=1)


def test_auto_method_large(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(5)
    a = rng.standard_normal(1 << 16).astype(np.float32)
    b = rng.standard_normal(2000).astype(np.float32)
    got = s.convolve(xp.asarray(a), xp.asarray(b))
    assert got.dtype == np.float32
    np.testing.assert_allclose(xp.asnumpy(got), ss.convolve(a, b), rtol=1e-3, atol=2e-3)
    got = s.correlate(xp.asarray(a), xp.asarray(b), "same")
    np.testing.assert_allclose(xp.asnumpy(got), ss.correlate(a, b, "same"), rtol=1e-3,
                               atol=2e-3)


@pytest.mark.parametrize("dt", ["f4", "f8", "c16"])
def test_overlap_add_blocks_any_overlap(xp, dt):
    # The blocked path with overlaps shorter and longer than the step (the kernel sums
    # every block covering a sample), batched rows, h shared by all rows or one per row.
    from cuarray.scipy.signal import _convolution as conv
    rng = np.random.default_rng(18)
    x = _rand(rng, (3, 97), dt)
    for k, L in ((5, 16), (7, 9), (12, 16)):
        for h in (_rand(rng, (1, k), dt), _rand(rng, (3, k), dt)):
            got = conv._overlap_add_rows(xp.asarray(x), xp.asarray(h), 1, L, k - 1)
            want = np.stack([np.convolve(x[i], h[i % h.shape[0]]) for i in range(3)])
            assert got.shape == want.shape
            tol = 1e-4 if dt == "f4" else 1e-10
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=tol, atol=tol * 10)


def test_fftconvolve_1d_long_float32(xp):
    # The 1-D real path: padded copies, one in-place spectral product, C2R on it.
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(19)
    a = rng.standard_normal(5000).astype(np.float32)
    b = rng.standard_normal(301).astype(np.float32)
    for mode in ("full", "same", "valid"):
        got = s.fftconvolve(xp.asarray(a), xp.asarray(b), mode)
        want = ss.fftconvolve(a, b, mode)
        assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-3, atol=2e-3)
        got = s.oaconvolve(xp.asarray(a), xp.asarray(b), mode)
        assert got.dtype == np.float32 and got.shape == want.shape
        np.testing.assert_allclose(xp.asnumpy(got), ss.oaconvolve(a, b, mode), rtol=1e-3,
                                   atol=2e-3)


@pytest.mark.parametrize("blocks, in_fft", [("pow2", True), ("scipy", False)])
def test_overlap_add_settings(xp, monkeypatch, blocks, in_fft):
    # The benchmark's variants: power-of-two blocks, fftconvolve as one transform.
    from cuarray.scipy import signal as s
    from cuarray.scipy.signal import _convolution as conv
    monkeypatch.setattr(conv, "OA_BLOCKS", blocks)
    monkeypatch.setattr(conv, "OA_IN_FFTCONVOLVE", in_fft)
    rng = np.random.default_rng(20)
    a = rng.standard_normal(3000)
    b = rng.standard_normal(129)
    for f in ("fftconvolve", "oaconvolve"):
        for mode in ("full", "same", "valid"):
            got = getattr(s, f)(xp.asarray(a), xp.asarray(b), mode)
            np.testing.assert_allclose(xp.asnumpy(got), getattr(ss, f)(a, b, mode), atol=1e-10)


@pytest.mark.parametrize("T", ["float", "double", "complex<float>", "complex<double>"])
def test_overlap_add_and_stft_kernels_compile(T):
    # NVRTC for sm_90 on the CPU: the sources the GPU runs (the emulation builds them
    # with g++, which accepts more).
    pytest.importorskip("cuda.bindings")
    from cuarray._runtime import compiler
    from cuarray.scipy.signal import _convolution as conv
    from cuarray.scipy.signal import _kernels as k
    from cuarray.scipy.signal import _spectral as spec
    kernels = [(conv._OA_FRAME, "oa_frame", {"T": T, "TILE": conv._TILE}),
               (conv._OA_ADD, "oa_add", {"T": T, "TILE": conv._TILE})]
    if not T.startswith("complex"):
        kernels += [(spec._FRAME, "stft_frame", {"T": T, "X": x})
                    for x in ("half", "float", "int", "double", "bool")]
    for src, name, subs in kernels:
        kern = k.kernel(src, name, **subs)
        assert compiler.compile_cubin(kern.code, (), (), "sm_90", name)[0]
    from cuarray._core.elementwise import generate
    ops = [spec._times_op()] if T == "double" else []
    if T.startswith("complex"):
        ops.append(conv._spec_mul_op(np.dtype("F" if T == "complex<float>" else "D")))
    for op in ops:
        src, _ = generate(op, [p.dtype for p in op.params], [None] * len(op.params), None, 1,
                          False)
        assert compiler.compile_cubin(src, op.options, (), "sm_90", op.name)[0]
