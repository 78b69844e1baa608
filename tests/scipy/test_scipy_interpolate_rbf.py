"""cuarray.scipy.interpolate.RBFInterpolator against SciPy's: every kernel, smoothing,
epsilon, degree, neighbors, vector and complex data, errors; on the GPU and, without
one, on the host emulation."""
import numpy as np
import pytest
import scipy.interpolate as si

from cuarray.scipy.interpolate._rbf import KERNELS, RBFInterpolator


@pytest.fixture
def cp(cp, monkeypatch, request):
    """The `cp` backend; on the host emulation (no cuBLAS/cuSOLVER there) the LU solve and
    the products are NumPy's, so everything else still runs the emulated kernels."""
    if request.node.callspec.params.get("cp") == "emu":
        def solve(a, b):
            return cp.asarray(np.linalg.solve(a.get(), b.get()))
        monkeypatch.setattr(cp.linalg, "solve", solve)
        monkeypatch.setattr(cp.ndarray, "__matmul__",
                            lambda a, b: cp.asarray(np.matmul(a.get(), b.get())))
    return cp


def _data(seed, n=40, ndim=2):
    rng = np.random.default_rng(seed)
    y = rng.random((n, ndim))
    d = np.sin(3 * y[:, 0]) + y[:, -1] ** 2
    x = rng.random((25, ndim))
    return y, d, x


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_kernels(cp, kernel):
    y, d, x = _data(1)
    kw = dict(kernel=kernel, epsilon=2.0)
    got = RBFInterpolator(cp.asarray(y), cp.asarray(d), **kw)(cp.asarray(x))
    want = si.RBFInterpolator(y, d, **kw)(x)
    assert got.shape == want.shape and got.dtype == np.float64
    np.testing.assert_allclose(got.get(), want, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("opts", [dict(smoothing=0.1), dict(degree=3, ndim=3),
                                  dict(degree=-1, kernel="gaussian", epsilon=1.5),
                                  dict(smoothing="array", kernel="cubic"),
                                  dict(ndim=1)])
def test_options(cp, opts):
    opts = dict(opts)
    y, d, x = _data(2, ndim=opts.pop("ndim", 2))
    if opts.get("smoothing") == "array":
        opts["smoothing"] = np.linspace(0, 0.2, len(y))
    want = si.RBFInterpolator(y, d, **opts)(x)
    if isinstance(opts.get("smoothing"), np.ndarray):
        opts["smoothing"] = cp.asarray(opts["smoothing"])
    got = RBFInterpolator(cp.asarray(y), cp.asarray(d), **opts)(cp.asarray(x))
    # the Gaussian system is ill-conditioned: two LU solves agree to about 1e-7
    np.testing.assert_allclose(got.get(), want, rtol=1e-6, atol=1e-7)


def test_vector_complex_and_neighbors(cp):
    y, d, x = _data(3, n=60)
    dv = np.stack([d, 2 * d + 1j * d ** 2], axis=1).reshape(60, 2, 1)
    got = RBFInterpolator(cp.asarray(y), cp.asarray(dv))(cp.asarray(x))
    want = si.RBFInterpolator(y, dv)(x)
    assert got.shape == want.shape == (25, 2, 1) and got.dtype == np.complex128
    np.testing.assert_allclose(got.get(), want, rtol=1e-7, atol=1e-9)
    for k in (1, 10):
        got = RBFInterpolator(cp.asarray(y), cp.asarray(d), neighbors=k,
                              kernel="linear" if k == 1 else "thin_plate_spline")(cp.asarray(x))
        want = si.RBFInterpolator(y, d, neighbors=k,
                                  kernel="linear" if k == 1 else "thin_plate_spline")(x)
        np.testing.assert_allclose(got.get(), want, rtol=1e-7, atol=1e-9)


def test_errors(cp):
    y, d, x = _data(4)
    Y, D = cp.asarray(y), cp.asarray(d)
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D, kernel="nope")
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D, kernel="gaussian")           # epsilon required
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D[:-1])
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D, degree=-2)
    with pytest.raises(ValueError):
        RBFInterpolator(Y[:2], D[:2], degree=1)            # too few points for the polynomial
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D, smoothing=cp.zeros(3))
    with pytest.warns(UserWarning):
        RBFInterpolator(Y, D, kernel="quintic", degree=1)
    with pytest.raises(ValueError):
        RBFInterpolator(Y, D)(cp.zeros((3, 3)))
