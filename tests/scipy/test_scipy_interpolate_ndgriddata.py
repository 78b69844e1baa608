"""cuarray.scipy.interpolate's scattered-data interpolators (NearestNDInterpolator,
LinearNDInterpolator, CloughTocher2DInterpolator, griddata) against SciPy on seeded
random points; on the GPU and, without one, on the host emulation."""
import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy.interpolate import _ndgriddata as nd


def _data(seed, n=120, nv=None, cplx=False):
    rng = np.random.default_rng(seed)
    p = rng.random((n, 2)) * [4.0, 1.0]
    v = np.sin(p[:, 0]) * np.cos(3 * p[:, 1]) + p[:, 0] ** 2 / 8
    if nv:
        v = np.stack([v * (k + 1) for k in range(nv)], axis=1)
    if cplx:
        v = v + 1j * np.cos(p[:, 0])
    q = rng.uniform(-0.2, 1.1, (7, 9, 2)) * [4.0, 1.0]
    return p, v, q


@pytest.mark.parametrize("rescale", [False, True])
def test_nearest(cp, rescale):
    p, v, q = _data(1, nv=2)
    got = nd.NearestNDInterpolator(cp.asarray(p), cp.asarray(v), rescale=rescale)(cp.asarray(q))
    want = si.NearestNDInterpolator(p, v, rescale=rescale)(q)
    assert got.shape == want.shape == (7, 9, 2)
    np.testing.assert_array_equal(got.get(), want)
    ints = np.arange(len(p))
    got = nd.NearestNDInterpolator(cp.asarray(p), cp.asarray(ints))(cp.asarray(q[..., 0]),
                                                                      cp.asarray(q[..., 1]))
    assert got.dtype == ints.dtype
    np.testing.assert_array_equal(got.get(), si.NearestNDInterpolator(p, ints)(q[..., 0],
                                                                              q[..., 1]))


@pytest.mark.parametrize("rescale", [False, True])
def test_linear(cp, rescale):
    p, v, q = _data(2, cplx=True)
    got = nd.LinearNDInterpolator(cp.asarray(p), cp.asarray(v), rescale=rescale)(cp.asarray(q))
    want = si.LinearNDInterpolator(p, v, rescale=rescale)(q)
    assert got.shape == want.shape and got.dtype == np.complex128
    np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-12)
    got = nd.LinearNDInterpolator(cp.asarray(p), cp.asarray(v.real), fill_value=-3.0)(
        cp.asarray(q))
    np.testing.assert_allclose(got.get(), si.LinearNDInterpolator(p, v.real, fill_value=-3.0)(q),
                               rtol=1e-10, atol=1e-12)


def test_clough_tocher(cp):
    p, v, q = _data(3, n=200, nv=2)
    got = nd.CloughTocher2DInterpolator(cp.asarray(p), cp.asarray(v))(cp.asarray(q))
    want = si.CloughTocher2DInterpolator(p, v)(q)
    assert got.shape == want.shape == (7, 9, 2)
    g = got.get()
    np.testing.assert_array_equal(np.isnan(g), np.isnan(want))
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("method", ["nearest", "linear", "cubic"])
def test_griddata(cp, method):
    p, v, q = _data(4, n=150)
    got = nd.griddata(cp.asarray(p), cp.asarray(v), cp.asarray(q), method=method,
                      fill_value=0.5)
    want = si.griddata(p, v, q, method=method, fill_value=0.5)
    np.testing.assert_allclose(got.get(), want, rtol=1e-4, atol=1e-5)
    x1 = np.random.default_rng(5).random(30)
    xi = np.linspace(-0.1, 1.1, 17)
    if method != "cubic":
        np.testing.assert_allclose(nd.griddata(cp.asarray(x1), cp.asarray(np.sin(x1)),
                                               cp.asarray(xi), method=method).get(),
                                   si.griddata(x1, np.sin(x1), xi, method=method),
                                   rtol=1e-12)


def test_errors(cp):
    p, v, q = _data(6)
    with pytest.raises(ValueError):
        nd.LinearNDInterpolator(cp.asarray(p), cp.asarray(v[:-1]))
    with pytest.raises(ValueError):
        nd.griddata(cp.asarray(p), cp.asarray(v), cp.asarray(q), method="quadratic")
    ip = nd.LinearNDInterpolator(cp.asarray(p), cp.asarray(v))
    with pytest.raises(ValueError):
        ip(cp.zeros((4, 3)))
