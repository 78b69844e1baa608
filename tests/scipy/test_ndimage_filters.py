"""cuarray.scipy.ndimage filters against SciPy: every mode, origins, axes, outputs, dtypes.

The `cp` fixture runs each test on the GPU, or through the host emulation on machines
without one (the filter kernels are grid-stride loops).
"""
import numpy
import pytest
import scipy.ndimage as snd

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror",
         "grid-wrap"]


def _rand(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dtype = numpy.dtype(dtype)
    if dtype.kind in "iu":
        return rng.integers(0, 100, shape).astype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _tol(dtype):
    return dict(rtol=2e-5, atol=2e-5) if numpy.dtype(dtype).char in "fFe" else \
        dict(rtol=1e-10, atol=1e-12)


def _check(res, ref, dtype=numpy.float64):
    res = res.get()
    assert res.dtype == ref.dtype
    assert res.shape == ref.shape
    if numpy.dtype(ref.dtype).kind in "iub":
        numpy.testing.assert_array_equal(res, ref)
    else:
        numpy.testing.assert_allclose(res, ref, **_tol(dtype))


@pytest.mark.parametrize("mode", MODES)
def test_correlate1d_modes(cp, mode):
    from cuarray.scipy import ndimage as nd
    x = _rand((7, 11), numpy.float64)
    for w, origin, axis in [([1, 2, 3], 0, -1), ([1, 2, 3, 4], -2, 0), ([0.5, -1, 2, 1, 3], 2, 1)]:
        _check(nd.correlate1d(cp.asarray(x), w, axis, mode=mode, cval=1.5, origin=origin),
               snd.correlate1d(x, w, axis, mode=mode, cval=1.5, origin=origin))
        _check(nd.convolve1d(cp.asarray(x), w, axis, mode=mode, cval=1.5, origin=origin),
               snd.convolve1d(x, w, axis, mode=mode, cval=1.5, origin=origin))


def test_correlate1d_long_filter_and_short_axis(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((5, 9), numpy.float64, 1)
    w = numpy.linspace(-1, 1, 61)       # longer than the unrolled window and the axis
    for mode in ("reflect", "mirror", "wrap", "nearest", "constant"):
        _check(nd.correlate1d(cp.asarray(x), w, 1, mode=mode), snd.correlate1d(x, w, 1, mode=mode))
        _check(nd.correlate1d(cp.asarray(x), w[:9], 0, mode=mode),
               snd.correlate1d(x, w[:9], 0, mode=mode))


@pytest.mark.parametrize("mode", ["reflect", "constant", "mirror", "wrap", "nearest"])
def test_correlate_convolve_nd(cp, mode):
    from cuarray.scipy import ndimage as nd
    x = _rand((6, 7, 5), numpy.float64, 2)
    w = _rand((2, 3, 3), numpy.float64, 3)
    w[0, 1, 1] = 0
    for origin in (0, (-1, 1, 0)):
        _check(nd.correlate(cp.asarray(x), w, mode=mode, cval=-2, origin=origin),
               snd.correlate(x, w, mode=mode, cval=-2, origin=origin))
        _check(nd.convolve(cp.asarray(x), w, mode=mode, cval=-2, origin=origin),
               snd.convolve(x, w, mode=mode, cval=-2, origin=origin))
    big = _rand((3, 5, 5), numpy.float64, 5)      # 75 taps: the table loop
    _check(nd.correlate(cp.asarray(x), big, mode=mode), snd.correlate(x, big, mode=mode))
    w2 = _rand((3, 2), numpy.float64, 4)
    _check(nd.correlate(cp.asarray(x), w2, mode=mode, axes=(0, 2)),
           snd.correlate(x, w2, mode=mode, axes=(0, 2)))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int16, numpy.int32, numpy.uint32,
                                   numpy.int64, numpy.float32, numpy.float64])
def test_correlate_dtypes(cp, dtype):
    from cuarray.scipy import ndimage as nd
    x = _rand((9, 8), dtype, 5)
    w = numpy.array([[1, 2, 1], [0, 1, 0], [1, 0, 2]], dtype=numpy.float64) / 4
    _check(nd.correlate(cp.asarray(x), w), snd.correlate(x, w), dtype)
    _check(nd.correlate1d(cp.asarray(x), [1, 1, 2], 0), snd.correlate1d(x, [1, 1, 2], 0), dtype)
    _check(nd.correlate(cp.asarray(x), w, output=numpy.float64),
           snd.correlate(x, w, output=numpy.float64), dtype)


def test_correlate_complex(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((6, 7), numpy.complex128, 6)
    w = _rand((3,), numpy.float64, 7)
    _check(nd.correlate1d(cp.asarray(x), w), snd.correlate1d(x, w))
    xr = _rand((6, 7), numpy.float64, 8)
    wc = _rand((2, 2), numpy.complex128, 9)
    _check(nd.correlate(cp.asarray(xr), wc), snd.correlate(xr, wc))
    _check(nd.convolve(cp.asarray(x), wc, mode="wrap"), snd.convolve(x, wc, mode="wrap"))
    _check(nd.uniform_filter(cp.asarray(x), 3, mode="mirror"), snd.uniform_filter(x, 3, mode="mirror"))
    x64 = x.astype(numpy.complex64)
    _check(nd.gaussian_filter(cp.asarray(x64), 1.2), snd.gaussian_filter(x64, 1.2), numpy.complex64)


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.float32, numpy.float64])
def test_gaussian_filter(cp, dtype):
    from cuarray.scipy import ndimage as nd
    x = _rand((12, 10), dtype, 10)
    if numpy.dtype(dtype).kind == "u":
        x = x * 2
    _check(nd.gaussian_filter(cp.asarray(x), 1.3), snd.gaussian_filter(x, 1.3), dtype)
    _check(nd.gaussian_filter(cp.asarray(x), (0.7, 2.0), order=(1, 2), mode=["wrap", "nearest"],
                              output=numpy.float64),
           snd.gaussian_filter(x, (0.7, 2.0), order=(1, 2), mode=["wrap", "nearest"],
                               output=numpy.float64), dtype)
    _check(nd.gaussian_filter(cp.asarray(x), 2, truncate=2.0, output=numpy.float64),
           snd.gaussian_filter(x, 2, truncate=2.0, output=numpy.float64), dtype)
    _check(nd.gaussian_filter(cp.asarray(x), 2, radius=(1, 3), output=numpy.float64),
           snd.gaussian_filter(x, 2, radius=(1, 3), output=numpy.float64), dtype)
    _check(nd.gaussian_filter(cp.asarray(x), 1.5, axes=(1,), output=numpy.float64, order=3),
           snd.gaussian_filter(x, 1.5, axes=(1,), output=numpy.float64, order=3), dtype)
    _check(nd.gaussian_filter1d(cp.asarray(x), 1.1, axis=0, order=1, output=numpy.float64,
                                mode="constant", cval=3),
           snd.gaussian_filter1d(x, 1.1, axis=0, order=1, output=numpy.float64,
                                 mode="constant", cval=3), dtype)


def test_gaussian_filter_3d_large_sigma(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((5, 6, 40), numpy.float32, 11)
    _check(nd.gaussian_filter(cp.asarray(x), (0, 1, 9)), snd.gaussian_filter(x, (0, 1, 9)),
           numpy.float32)
    # past the register window (61 taps), integer output: SciPy's rounding order
    xi = (_rand((7, 70), numpy.float64, 12) * 40 + 100).astype(numpy.int16)
    for order in (0, 1):
        _check(nd.gaussian_filter1d(cp.asarray(xi), 7.5, order=order),
               snd.gaussian_filter1d(xi, 7.5, order=order))


@pytest.mark.parametrize("mode", MODES)
def test_uniform_filter(cp, mode):
    from cuarray.scipy import ndimage as nd
    x = _rand((9, 13), numpy.float64, 12)
    _check(nd.uniform_filter(cp.asarray(x), (3, 4), mode=mode, cval=2, origin=(1, -2)),
           snd.uniform_filter(x, (3, 4), mode=mode, cval=2, origin=(1, -2)))
    _check(nd.uniform_filter1d(cp.asarray(x), 5, axis=0, mode=mode),
           snd.uniform_filter1d(x, 5, axis=0, mode=mode))
    xi = _rand((9, 13), numpy.int32, 13)
    _check(nd.uniform_filter(cp.asarray(xi), 3, mode=mode), snd.uniform_filter(xi, 3, mode=mode))


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_minimum_maximum(cp, mode):
    from cuarray.scipy import ndimage as nd
    x = _rand((10, 9), numpy.float64, 14)
    fp = numpy.array([[1, 0, 1], [0, 1, 1]], dtype=bool)
    for f, sf in ((nd.minimum_filter, snd.minimum_filter), (nd.maximum_filter, snd.maximum_filter)):
        _check(f(cp.asarray(x), (3, 2), mode=mode, cval=0.25, origin=(1, 0)),
               sf(x, (3, 2), mode=mode, cval=0.25, origin=(1, 0)))
        _check(f(cp.asarray(x), footprint=fp, mode=mode, cval=0.25),
               sf(x, footprint=fp, mode=mode, cval=0.25))
    xi = _rand((10, 9), numpy.int16, 15)
    _check(nd.minimum_filter1d(cp.asarray(xi), 4, axis=0, mode=mode),
           snd.minimum_filter1d(xi, 4, axis=0, mode=mode))
    _check(nd.maximum_filter1d(cp.asarray(xi), 3, mode=mode, origin=-1),
           snd.maximum_filter1d(xi, 3, mode=mode, origin=-1))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int32, numpy.float32, numpy.float64])
def test_rank_filters(cp, dtype):
    from cuarray.scipy import ndimage as nd
    x = _rand((11, 12), dtype, 16)
    _check(nd.median_filter(cp.asarray(x), 3), snd.median_filter(x, 3), dtype)
    _check(nd.median_filter(cp.asarray(x), (2, 4), mode="constant", cval=7),
           snd.median_filter(x, (2, 4), mode="constant", cval=7), dtype)
    fp = numpy.array([[0, 1, 0], [1, 1, 1], [0, 1, 1]], dtype=bool)
    _check(nd.rank_filter(cp.asarray(x), -2, footprint=fp, mode="wrap"),
           snd.rank_filter(x, -2, footprint=fp, mode="wrap"), dtype)
    _check(nd.rank_filter(cp.asarray(x), 0, size=3), snd.rank_filter(x, 0, size=3), dtype)
    _check(nd.percentile_filter(cp.asarray(x), 30, size=(3, 3), mode="mirror", origin=(0, 1)),
           snd.percentile_filter(x, 30, size=(3, 3), mode="mirror", origin=(0, 1)), dtype)
    _check(nd.percentile_filter(cp.asarray(x), -20, footprint=fp),
           snd.percentile_filter(x, -20, footprint=fp), dtype)
    _check(nd.median_filter(cp.asarray(x), 3, axes=(0,)), snd.median_filter(x, 3, axes=(0,)),
           dtype)
    # windows past the register selection (49) and the written-out taps (64)
    _check(nd.median_filter(cp.asarray(x), (7, 8)), snd.median_filter(x, (7, 8)), dtype)
    _check(nd.rank_filter(cp.asarray(x), 70, (9, 9), mode="wrap"),
           snd.rank_filter(x, 70, (9, 9), mode="wrap"), dtype)


def test_derivative_filters(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((8, 9, 7), numpy.float64, 17)
    for f in ("prewitt", "sobel"):
        for axis in (0, 1, -1):
            _check(getattr(nd, f)(cp.asarray(x), axis, mode="nearest"),
                   getattr(snd, f)(x, axis, mode="nearest"))
    _check(nd.laplace(cp.asarray(x), mode="wrap"), snd.laplace(x, mode="wrap"))
    _check(nd.laplace(cp.asarray(x), axes=(0, 2)), snd.laplace(x, axes=(0, 2)))
    _check(nd.gaussian_laplace(cp.asarray(x), 1.2), snd.gaussian_laplace(x, 1.2))
    _check(nd.gaussian_laplace(cp.asarray(x), (1, 2), axes=(1, 2), truncate=3),
           snd.gaussian_laplace(x, (1, 2), axes=(1, 2), truncate=3))
    _check(nd.gaussian_gradient_magnitude(cp.asarray(x), 0.9, mode="mirror"),
           snd.gaussian_gradient_magnitude(x, 0.9, mode="mirror"))
    xi = _rand((8, 9), numpy.int32, 18)
    _check(nd.sobel(cp.asarray(xi)), snd.sobel(xi))
    _check(nd.laplace(cp.asarray(xi)), snd.laplace(xi))


def test_generic_laplace_and_gradient(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((9, 8), numpy.float64, 19)

    def d2(input, axis, output, mode, cval, w):
        return nd.correlate1d(input, w, axis, output, mode, cval, 0)

    def d2_ref(input, axis, output, mode, cval, w):
        return snd.correlate1d(input, w, axis, output, mode, cval, 0)
    _check(nd.generic_laplace(cp.asarray(x), d2, extra_arguments=([1, -2, 1],)),
           snd.generic_laplace(x, d2_ref, extra_arguments=([1, -2, 1],)))
    _check(nd.generic_gradient_magnitude(cp.asarray(x), d2, extra_keywords={"w": [-1, 0, 1]}),
           snd.generic_gradient_magnitude(x, d2_ref, extra_keywords={"w": [-1, 0, 1]}))


def test_generic_filter_rawkernel(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((9, 10), numpy.float64, 20)
    k = cp.RawKernel(r'''extern "C" __global__ void rms(const double* x, int n, double* y) {
        double s = 0; for (int i = 0; i < n; ++i) s += x[i] * x[i]; y[0] = s / n; }''', "rms")
    fp = numpy.array([[1, 1, 0], [0, 1, 1]], dtype=bool)
    for mode in ("reflect", "constant", "wrap"):
        _check(nd.generic_filter(cp.asarray(x), k, footprint=fp, mode=mode, cval=1),
               snd.generic_filter(x, lambda v: (v * v).mean(), footprint=fp, mode=mode, cval=1))
    k1 = cp.RawKernel(r'''extern "C" __global__ void diff(const double* a, long long na,
        double* b, long long nb) { for (long long i = 0; i < nb; ++i) b[i] = a[i + 2] - a[i]; }''',
                      "diff")

    def ref(a, b):
        b[:] = a[2:] - a[:-2]
    for axis in (0, 1):
        _check(nd.generic_filter1d(cp.asarray(x), k1, 3, axis=axis, mode="nearest"),
               snd.generic_filter1d(x, ref, 3, axis=axis, mode="nearest"))
    red = cp.ReductionKernel("X x", "Y y", "x * x", "a + b", "y = a / _in_ind.size()", "0",
                             "ms")
    _check(nd.generic_filter(cp.asarray(x), red, size=(2, 3), mode="mirror"),
           snd.generic_filter(x, lambda v: (v * v).mean(), size=(2, 3), mode="mirror"))
    mx = cp.ReductionKernel("T x", "T y", "x", "fmax(a, b)", "y = a", "-1e300", "mx")
    _check(nd.generic_filter(cp.asarray(x), mx, footprint=fp),
           snd.generic_filter(x, numpy.max, footprint=fp))
    with pytest.raises(TypeError):
        nd.generic_filter(cp.asarray(x), lambda v: v.sum(), size=3)


def test_outputs_views_and_shapes(cp):
    from cuarray.scipy import ndimage as nd
    x = _rand((10, 12), numpy.float64, 21)
    d = cp.asarray(x)
    # non-contiguous input and output, in place, output dtype
    _check(nd.gaussian_filter(d[::2, ::-3], 1), snd.gaussian_filter(x[::2, ::-3], 1))
    _check(nd.median_filter(d.T, 3), snd.median_filter(x.T, 3))
    out = cp.zeros((12, 10), dtype=numpy.float32).T
    r = nd.uniform_filter(d, 3, output=out)
    assert r is out
    _check(out, snd.uniform_filter(x, 3, output=numpy.float32), numpy.float32)
    d2 = cp.asarray(x)
    nd.correlate(d2, numpy.ones((3, 3)), output=d2)
    _check(d2, snd.correlate(x, numpy.ones((3, 3))))
    for shape in ((0, 5), (1, 7), (7, 1), (1,), (4,)):
        y = _rand(shape, numpy.float64, 22)
        _check(nd.gaussian_filter(cp.asarray(y), 1), snd.gaussian_filter(y, 1))
        _check(nd.median_filter(cp.asarray(y), 3), snd.median_filter(y, 3))
        _check(nd.correlate1d(cp.asarray(y), [1, 2, 3]), snd.correlate1d(y, [1, 2, 3]))
    with pytest.raises(RuntimeError):
        nd.gaussian_filter(d, 1, output=cp.zeros((3, 3)))


def test_errors(cp):
    from cuarray.scipy import ndimage as nd
    d = cp.zeros((5, 6))
    with pytest.raises(RuntimeError):
        nd.correlate1d(d, [1, 2, 3], mode="bogus")
    with pytest.raises(ValueError):
        nd.correlate1d(d, [1, 2, 3], origin=2)
    with pytest.raises(ValueError):
        nd.correlate(d, numpy.ones((3, 3)), origin=(0, -2))
    with pytest.raises(RuntimeError):
        nd.correlate(d, numpy.ones(3))
    with pytest.raises(RuntimeError):
        nd.gaussian_filter(d, [1, 2, 3])
    with pytest.raises(RuntimeError):
        nd.rank_filter(d, 9, size=3)
    with pytest.raises(RuntimeError):
        nd.median_filter(d, footprint=numpy.ones(3))
    with pytest.raises(RuntimeError):
        nd.minimum_filter(d)
    with pytest.raises(ValueError):
        nd.minimum_filter(d, footprint=numpy.zeros((2, 2)))
    with pytest.raises(ValueError):
        nd.uniform_filter(d, 3, origin=2)
    with pytest.raises(RuntimeError):
        nd.percentile_filter(d, 150, size=3)
    with pytest.raises(ValueError):
        nd.gaussian_filter1d(d, 1, order=-1)
    with pytest.raises(ValueError):
        nd.gaussian_filter(d, 1, radius=-1)
    with pytest.raises(TypeError):
        nd.minimum_filter(cp.zeros((3, 3), dtype=numpy.complex64), 2)
    with pytest.raises(TypeError):
        nd.gaussian_filter(numpy.zeros((3, 3)), 1)
