"""cuarray.scipy.ndimage interpolation against SciPy: orders 0-5, every mode, prefilter,
grid_mode, output dtypes, complex inputs, errors (GPU and host emulation)."""
import math

import numpy
import pytest
import scipy
import scipy.ndimage as snd

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap",
         "grid-wrap"]

# SciPy 1.18 made the 'reflect' prefilter's causal initial value exact; 1.17's last term
# read its own running sum, O(z^2n) off (1e-4 relative on 2-3 sample lines). cuarray
# follows 1.18, so older SciPy references are built from exact coefficients.
_EXACT_REFLECT = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)
_REFLECT_INIT = ("reflect", "grid-mirror", "nearest")


def _exact_coefficients(x, order, axes=None):
    """B-spline coefficients of `x` (along `axes`, default all) for its half-sample
    symmetric extension: each line filtered as its symmetric period-2n extension (SciPy's
    'grid-wrap' init is exact)."""
    c = numpy.asarray(x, dtype=numpy.float64)
    for ax in range(c.ndim) if axes is None else axes:
        n = c.shape[ax]
        if n > 1:
            y = numpy.concatenate([c, numpy.flip(c, ax)], axis=ax)
            y = snd.spline_filter1d(y, order, axis=ax, mode="grid-wrap")
            c = numpy.take(y, numpy.arange(n), axis=ax)
    return c


def _ref_spline(x, order, mode, axis=None):
    """SciPy >= 1.18's spline_filter (axis None) or spline_filter1d of float64 `x`."""
    if _EXACT_REFLECT or mode not in _REFLECT_INIT:
        return (snd.spline_filter(x, order, mode=mode) if axis is None
                else snd.spline_filter1d(x, order, axis=axis, mode=mode))
    return _exact_coefficients(x, order, None if axis is None else [axis])


def _ref(fn, x, *args, order, mode="constant", prefilter=True, **kw):
    """SciPy >= 1.18's `fn(x, *args, ...)` for float64 `x` (interpolation functions).
    'nearest' pads 12 samples before prefiltering: its lines are long enough anyway."""
    if (_EXACT_REFLECT or not prefilter or order < 2 or mode not in ("reflect", "grid-mirror")):
        return fn(x, *args, order=order, mode=mode, prefilter=prefilter, **kw)
    return fn(_exact_coefficients(x, order), *args, order=order, mode=mode, prefilter=False,
              **kw)


def _close(res, ref, tol=1e-9):
    res = res.get()
    assert res.dtype == ref.dtype and res.shape == ref.shape
    if ref.dtype.kind in "iu":
        numpy.testing.assert_array_equal(res, ref)
    else:
        numpy.testing.assert_allclose(res, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_map_coordinates_modes(cp, order):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(order)
    x = rng.standard_normal((7, 9))
    c = rng.uniform(-4, 12, (2, 5, 6))
    for mode in MODES:
        for pf in (False, True):
            _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=order, mode=mode,
                                      cval=0.5, prefilter=pf),
                   _ref(snd.map_coordinates, x, c, order=order, mode=mode, cval=0.5,
                        prefilter=pf))


@pytest.mark.parametrize("shape", [(17,), (9, 13), (4, 5, 11)])
def test_order1_float32_taps_read_in_pairs(cp, shape):
    # float32 and order 1 (the kernels with 32-bit taps and a register cap): every tap
    # position within a group of four floats, points on and off the grid, inside and
    # outside, and a base not on a 16-byte boundary
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(len(shape))
    x = rng.standard_normal(shape).astype(numpy.float32)
    nd_ = len(shape)
    c = rng.uniform(-2, max(shape) + 1, (nd_, 40)).astype(numpy.float32)
    c[-1, :12] = numpy.arange(12, dtype=numpy.float32) * 0.5 + 0.25
    c[:, 12:16] = numpy.floor(c[:, 12:16])
    for mode in MODES:
        _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=1, mode=mode, cval=0.5),
               snd.map_coordinates(x, c, order=1, mode=mode, cval=0.5), tol=1e-5)
        _close(nd.shift(cp.asarray(x), [0.3] * (nd_ - 1) + [-1.6], order=1, mode=mode),
               snd.shift(x, [0.3] * (nd_ - 1) + [-1.6], order=1, mode=mode), tol=1e-5)
    _close(nd.zoom(cp.asarray(x), 1.7, order=1), snd.zoom(x, 1.7, order=1), tol=1e-5)
    if nd_ == 1:
        big = rng.standard_normal(18).astype(numpy.float32)
        _close(nd.map_coordinates(cp.asarray(big)[1:], cp.asarray(c), order=1),
               snd.map_coordinates(big[1:], c, order=1), tol=1e-5)


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filters(cp, order):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(10 + order)
    for shape in ((6, 40), (2, 3), (1, 5), (33,)):
        x = rng.standard_normal(shape)
        for mode in MODES:
            _close(nd.spline_filter(cp.asarray(x), order, mode=mode),
                   _ref_spline(x, order, mode))
        _close(nd.spline_filter1d(cp.asarray(x), order, axis=0, mode="reflect"),
               _ref_spline(x, order, "reflect", axis=0))
    # SciPy filters each line in double and rounds each axis's result to a float32
    # output: the same roundings here, so only a rare last-bit tie may differ
    x32 = rng.standard_normal((5, 8)).astype(numpy.float32)
    _close(nd.spline_filter(cp.asarray(x32), order, output=numpy.float32),
           snd.spline_filter(x32, order, output=numpy.float32), 1e-6)
    _close(nd.spline_filter(cp.asarray(x32), order), snd.spline_filter(x32, order))
    for shape in ((1, 7), (7, 1), (3, 1, 6)):
        x = rng.standard_normal(shape)
        _close(nd.spline_filter(cp.asarray(x), order, output=numpy.float32),
               snd.spline_filter(x, order, output=numpy.float32), 1e-6)
        _close(nd.spline_filter1d(cp.asarray(x), order, axis=-1, output=numpy.float32),
               snd.spline_filter1d(x, order, axis=-1, output=numpy.float32), 1e-6)


@pytest.mark.parametrize("order", [0, 1, 3])
def test_zoom_shift_rotate(cp, order):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(20 + order)
    x = rng.standard_normal((6, 7))
    for mode in MODES:
        for gm in (False, True):
            if gm and mode in ("constant", "wrap"):
                continue
            _close(nd.zoom(cp.asarray(x), (1.7, 0.6), order=order, mode=mode, grid_mode=gm),
                   _ref(snd.zoom, x, (1.7, 0.6), order=order, mode=mode, grid_mode=gm))
        _close(nd.shift(cp.asarray(x), (1.3, -2.2), order=order, mode=mode, cval=1),
               _ref(snd.shift, x, (1.3, -2.2), order=order, mode=mode, cval=1))
        _close(nd.rotate(cp.asarray(x), 33, order=order, mode=mode),
               _ref(snd.rotate, x, 33, order=order, mode=mode))
    _close(nd.rotate(cp.asarray(x), -90, reshape=False, order=order),
           snd.rotate(x, -90, reshape=False, order=order))
    for mode in ("constant", "wrap"):
        with pytest.warns(UserWarning, match=f"grid-{mode}"):
            r = nd.zoom(cp.asarray(x), 2, order=order, grid_mode=True, mode=mode)
        with pytest.warns(UserWarning):
            e = snd.zoom(x, 2, order=order, grid_mode=True, mode=mode)
        _close(r, e)


def test_affine_transform(cp):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(30)
    x = rng.standard_normal((6, 7, 5))
    m = numpy.eye(3) + rng.uniform(-0.2, 0.2, (3, 3))
    off = [0.5, -1.0, 2.0]
    for mode in ("constant", "nearest", "reflect", "grid-wrap"):
        _close(nd.affine_transform(cp.asarray(x), m, off, order=3, mode=mode),
               _ref(snd.affine_transform, x, m, off, order=3, mode=mode))
    h = numpy.eye(4)
    h[:3, :3] = m
    h[:3, 3] = off
    _close(nd.affine_transform(cp.asarray(x), h, output_shape=(4, 8, 3), order=1),
           snd.affine_transform(x, h, output_shape=(4, 8, 3), order=1))
    _close(nd.affine_transform(cp.asarray(x), [1.5, 0.7, 1.0], 0.3, order=2),
           snd.affine_transform(x, [1.5, 0.7, 1.0], 0.3, order=2))
    _close(nd.rotate(cp.asarray(x), 25, axes=(0, 2), order=1),
           snd.rotate(x, 25, axes=(0, 2), order=1))


@pytest.mark.parametrize("dtype", [numpy.uint8, numpy.int16, numpy.int32, numpy.float32])
def test_dtypes_and_outputs(cp, dtype):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(40)
    x = (rng.standard_normal((9, 8)) * 20 + 50).astype(dtype)
    # SciPy interpolates in double (float64 spline coefficients for every input) and
    # rounds once at the end: float32 results agree to the last bit but for rare ties
    tol = 1e-6 if dtype == numpy.float32 else 0
    _close(nd.zoom(cp.asarray(x), 1.5, order=1), snd.zoom(x, 1.5, order=1), tol)
    _close(nd.shift(cp.asarray(x), 0.5, order=0), snd.shift(x, 0.5, order=0), tol)
    _close(nd.shift(cp.asarray(x), (0.3, 1.2), order=3, output=numpy.float64),
           snd.shift(x, (0.3, 1.2), order=3, output=numpy.float64))
    c = rng.uniform(0, 7, (2, 10)).astype(numpy.float32)
    _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=1, output=numpy.float64),
           snd.map_coordinates(x, c, order=1, output=numpy.float64))
    if dtype == numpy.float32:
        for order in (3, 5):
            _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=order,
                                      mode="mirror"),
                   snd.map_coordinates(x, c, order=order, mode="mirror"), tol)


def test_integer_rounding_and_clipping(cp):
    from cuarray.scipy import ndimage as nd
    c = numpy.array([[0.5, 1.2, 1.5, 2.5, 3.5, 4.6, 5.5, 6.5]])
    for dt, vals in ((numpy.uint8, [0, 0, 255, 0, 0, 255, 255, 0]),
                     (numpy.int8, [0, 0, 127, 0, 0, -128, 127, 127]),
                     (numpy.uint64, [0, 0, 9, 0, 0, 200, 5, 0]),
                     (numpy.int64, [0, -7, 3, 0, 0, 9, 1, 0])):
        x = numpy.array(vals, dtype=dt)
        _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=3),
               snd.map_coordinates(x, c, order=3))
    xf = numpy.array([0, 0, 127, 0, 0, -128, 127, 127], dtype=numpy.float64)
    _close(nd.map_coordinates(cp.asarray(xf), cp.asarray(c), order=3, output=numpy.uint8),
           snd.map_coordinates(xf, c, order=3, output=numpy.uint8))


def test_complex_views_empty(cp):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(50)
    z = rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7))
    _close(nd.shift(cp.asarray(z), (0.5, 1.5), order=3, cval=1 + 2j),
           snd.shift(z, (0.5, 1.5), order=3, cval=1 + 2j))
    x = rng.standard_normal((10, 12))
    d = cp.asarray(x)
    _close(nd.zoom(d[::2, ::-3], 1.5), snd.zoom(x[::2, ::-3], 1.5))
    out = cp.zeros((12, 10)).T
    r = nd.shift(d, 1.5, output=out)
    assert r is out
    _close(out, snd.shift(x, 1.5))
    for shape in ((1, 5), (5, 1), (1,)):
        y = rng.standard_normal(shape)
        _close(nd.zoom(cp.asarray(y), 2, order=3, mode="nearest"),
               snd.zoom(y, 2, order=3, mode="nearest"))
    assert nd.zoom(cp.zeros((0, 3)), 2).shape == (0, 6)


def test_errors(cp):
    from cuarray.scipy import ndimage as nd
    d = cp.zeros((5, 6))
    with pytest.raises(RuntimeError):
        nd.zoom(d, 2, order=6)
    with pytest.raises(RuntimeError):
        nd.shift(d, 1, mode="bogus")
    with pytest.raises(RuntimeError):
        nd.map_coordinates(d, cp.zeros((3, 4)))
    with pytest.raises(RuntimeError):
        nd.affine_transform(d, numpy.eye(3)[:2, :2].ravel()[:3])
    with pytest.raises(ValueError):
        nd.affine_transform(d, numpy.ones((3, 3)))
    with pytest.raises(ValueError):
        nd.rotate(cp.zeros(5), 30)
    with pytest.raises(ValueError):
        nd.rotate(d, 30, axes=(0, 5))
    with pytest.raises(RuntimeError):
        nd.spline_filter(d, 1)
    with pytest.raises(TypeError):
        nd.map_coordinates(d, cp.zeros((2, 3), dtype=numpy.complex64))


def _bspline_at(order, t):
    """The centred cardinal B-spline of `order` at `t` (truncated-power form)."""
    h = (order + 1) / 2
    return sum((-1) ** k * math.comb(order + 1, k) * max(0.0, t + h - k) ** order
               for k in range(order + 2)) / math.factorial(order)


def _knot_matrix(n, order, mode):
    """M with (M @ c)[j] the spline with coefficients c, extended by `mode`, at sample j."""
    def fold(k, p, top):     # period p, then the upper half reflected onto the lower
        k %= p
        return top - k if k >= n else k
    ext = {"reflect": lambda k: fold(k, 2 * n, 2 * n - 1),
           "mirror": lambda k: fold(k, 2 * n - 2, 2 * n - 2),
           "grid-wrap": lambda k: k % n}[mode]
    m = numpy.zeros((n, n))
    r = order // 2 + 1
    for j in range(n):
        for k in range(j - r, j + r + 1):
            m[j, ext(k)] += _bspline_at(order, j - k)
    return m


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter_short_lines_exact(cp, order):
    # The prefilter inverts the spline's sampling exactly, whatever the line's length:
    # on 2-5 sample lines the boundary initial values carry the whole result (SciPy
    # 1.17's 'reflect' init is off by 1e-4 there).
    from cuarray.scipy import ndimage as nd
    for n in (2, 3, 4, 5):
        for mode in ("reflect", "mirror", "grid-wrap"):
            f = nd.spline_filter1d(cp.eye(n), order, axis=0, mode=mode).get()
            numpy.testing.assert_allclose(_knot_matrix(n, order, mode) @ f, numpy.eye(n),
                                          rtol=0, atol=1e-12, err_msg=f"{mode} n={n}")


@pytest.mark.parametrize("order", [1, 3])
def test_map_coordinates_far_outside_32bit_taps(cp, monkeypatch, order):
    # taps far outside the input (beyond 32 bits) are folded to an equivalent index before
    # the 32-bit tap arithmetic: the same values as 64-bit taps and as SciPy
    from cuarray.scipy import ndimage as nd
    from cuarray.scipy.ndimage import _interp_kernels as ik
    rng = numpy.random.default_rng(17)
    x = rng.standard_normal((5, 7))
    far = numpy.array([3e9 + 0.25, -5e9 - 0.75, 1.5, 2**31 + 0.5, -(2**29) - 2.25])
    c = numpy.stack([far, far[::-1] * 0.5])
    res = {}
    for T in ("int", "long long"):
        monkeypatch.setattr(ik, "tap_type", lambda nd, size, T=T: T)
        for mode in MODES:
            res[T, mode] = nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=order,
                                              mode=mode).get()
    for mode in MODES:
        numpy.testing.assert_array_equal(res["int", mode], res["long long", mode])
        if mode in ("constant", "grid-constant", "nearest", "grid-wrap"):
            _close(cp.asarray(res["int", mode]),
                   _ref(snd.map_coordinates, x, c, order=order, mode=mode), tol=1e-6)


def test_map_coordinates_repeat_launches_directly(cp):
    # a layout seen once goes straight to the kernel: same results, cval and mode honoured,
    # and the checks still run for what was never seen
    from cuarray.scipy import ndimage as nd
    from cuarray.scipy.ndimage import _interpolation
    rng = numpy.random.default_rng(3)
    x = rng.standard_normal((9, 11)).astype(numpy.float32)
    c = rng.uniform(-2, 12, (2, 6, 5)).astype(numpy.float32)
    dx, dc = cp.asarray(x), cp.asarray(c)
    for cval in (0.0, 2.5, 0.0):
        for order in (0, 1):
            got = nd.map_coordinates(dx, dc, order=order, cval=cval)
            _close(got, snd.map_coordinates(x, c, order=order, cval=cval), tol=1e-5)
    key = (dx.shape, dx.dtype, True, dc.shape, dc.dtype, True, 1, "constant", True)
    assert _interpolation._direct.get(key) == 1
    _close(nd.map_coordinates(dx, dc, order=1, mode="wrap"),
           snd.map_coordinates(x, c, order=1, mode="wrap"), tol=1e-5)
    with pytest.raises(RuntimeError):
        nd.map_coordinates(dx, dc, order=7)
    with pytest.raises(RuntimeError):
        nd.map_coordinates(dx, dc, order=1, mode="bogus")
