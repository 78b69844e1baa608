"""cuarray.scipy.ndimage over integer and float dtypes, 4-D and size-1 axes: integer
results equal SciPy's exactly (its rounding order, truncation and clipping), floats to
rounding (GPU and host emulation)."""
import numpy
import pytest
import scipy.ndimage as snd

CASES = [
    ("gaussian_filter", dict(sigma=1.2)),
    ("uniform_filter", dict(size=3)),
    ("minimum_filter", dict(size=3)),
    ("maximum_filter", dict(size=2)),
    ("median_filter", dict(size=3)),
    ("sobel", dict()),
    ("laplace", dict()),
    ("zoom", dict(zoom=1.5, order=1)),
    ("shift", dict(shift=0.5, order=3, mode="nearest")),
]


@pytest.mark.parametrize("dt", ["b", "H", "q", "f"])
def test_dtypes_nd(cp, dt):
    from cuarray.scipy import ndimage as nd
    rng = numpy.random.default_rng(ord(dt))
    for shape in [(3, 4, 2, 5), (1, 6), (6, 1, 3)]:
        x = (rng.random(shape) * 100).astype(dt)
        for name, kw in CASES:
            r = getattr(nd, name)(cp.asarray(x), **kw).get()
            e = getattr(snd, name)(x, **kw)
            assert r.dtype == e.dtype and r.shape == e.shape
            if dt == "f":
                numpy.testing.assert_allclose(r, e, rtol=1e-4, atol=1e-3, err_msg=name)
            else:
                numpy.testing.assert_array_equal(r, e, err_msg=f"{name} {shape}")
        w = rng.random((2,) * len(shape))
        r = nd.correlate(cp.asarray(x), w, mode="wrap").get()
        e = snd.correlate(x, w, mode="wrap")
        if dt == "f":
            numpy.testing.assert_allclose(r, e, rtol=1e-4, atol=1e-3)
        else:
            numpy.testing.assert_array_equal(r, e)
