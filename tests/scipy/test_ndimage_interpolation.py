"""cuarray.scipy.ndimage interpolation against SciPy: orders 0-5, every mode, prefilter,
grid_mode, output dtypes, complex inputs, errors (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap",
         "grid-wrap"]


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
                   snd.map_coordinates(x, c, order=order, mode=mode, cval=0.5, prefilter=pf))


@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filters(cp, order):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(10 + order)
    for shape in ((6, 40), (2, 3), (1, 5), (33,)):
        x = rng.standard_normal(shape)
        for mode in MODES:
            _close(nd.spline_filter(cp.asarray(x), order, mode=mode),
                   snd.spline_filter(x, order, mode=mode))
        _close(nd.spline_filter1d(cp.asarray(x), order, axis=0, mode="reflect"),
               snd.spline_filter1d(x, order, axis=0, mode="reflect"))
    x32 = rng.standard_normal((5, 8)).astype(numpy.float32)
    _close(nd.spline_filter(cp.asarray(x32), order, output=numpy.float32),
           snd.spline_filter(x32, order, output=numpy.float32), 1e-5)


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
                   snd.zoom(x, (1.7, 0.6), order=order, mode=mode, grid_mode=gm))
        _close(nd.shift(cp.asarray(x), (1.3, -2.2), order=order, mode=mode, cval=1),
               snd.shift(x, (1.3, -2.2), order=order, mode=mode, cval=1))
        _close(nd.rotate(cp.asarray(x), 33, order=order, mode=mode),
               snd.rotate(x, 33, order=order, mode=mode))
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
               snd.affine_transform(x, m, off, order=3, mode=mode))
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
    tol = 2e-4 if dtype == numpy.float32 else 0
    _close(nd.zoom(cp.asarray(x), 1.5, order=1), snd.zoom(x, 1.5, order=1), tol)
    _close(nd.shift(cp.asarray(x), 0.5, order=0), snd.shift(x, 0.5, order=0), tol)
    _close(nd.shift(cp.asarray(x), (0.3, 1.2), order=3, output=numpy.float64),
           snd.shift(x, (0.3, 1.2), order=3, output=numpy.float64), 1e-4)
    c = rng.uniform(0, 7, (2, 10)).astype(numpy.float32)
    _close(nd.map_coordinates(cp.asarray(x), cp.asarray(c), order=1, output=numpy.float64),
           snd.map_coordinates(x, c, order=1, output=numpy.float64), 1e-5)


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
