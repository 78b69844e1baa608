"""UnivariateSpline (FITPACK's smoothing search) against SciPy: the knots found, the
coefficients, the residual, the class it ends in and the warnings it gives, then the
shared methods of the three FITPACK spline classes. Every test runs on the CPU emulator
(the kernels compiled for the host) and, on a GPU machine, on the device."""
import warnings

import numpy
import pytest
import scipy.interpolate as si

XS = numpy.linspace(-0.5, 4.5, 41)


@pytest.fixture
def roots_cp(cp, monkeypatch, request):
    """cp, with NumPy standing in for cuSOLVER's eigenvalues (roots) on the emulator, as
    tests/scipy/test_interpolate_roots.py does."""
    if request.node.callspec.params.get("cp") == "emu":
        import cuarray
        monkeypatch.setattr(cuarray.linalg, "eigvals",
                            lambda a: cuarray.asarray(numpy.linalg.eigvals(a.get()).astype(complex)))
    return cp


def _data(m, seed, weights=False):
    rng = numpy.random.default_rng(seed)
    x = numpy.sort(rng.random(m)) * 4
    y = numpy.sin(x) + 0.1 * rng.standard_normal(m)
    w = rng.random(m) + 0.5 if weights else None
    return x, y, w


def _both(cp, x, y, w=None, **kw):
    """(SciPy's spline, ours, SciPy's warning texts, ours)."""
    from cuarray.scipy import interpolate as ci
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        ref = si.UnivariateSpline(x, y, w=w, **kw)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got = ci.UnivariateSpline(cp.asarray(x), cp.asarray(y), w=None if w is None else cp.asarray(w), **kw)
    return ref, got, [str(a.message) for a in wr], [str(a.message) for a in wg]


def _same_fit(got, ref):
    assert type(got).__name__ == type(ref).__name__
    numpy.testing.assert_array_equal(got.get_knots().get(), ref.get_knots())
    numpy.testing.assert_allclose(got.get_coeffs().get(), ref.get_coeffs(), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(float(got.get_residual().get()), ref.get_residual(), rtol=1e-8, atol=1e-14)


def _same_values(cp, got, ref):
    for ext in (0, 1, 3, "zeros"):
        numpy.testing.assert_allclose(got(cp.asarray(XS), ext=ext).get(), ref(XS, ext=ext), rtol=1e-8, atol=1e-9)
    numpy.testing.assert_allclose(got(cp.asarray(XS), nu=1).get(), ref(XS, nu=1), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(float(got.integral(0.3, 3.1).get()), ref.integral(0.3, 3.1), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(float(got.integral(-1.0, 9.0).get()), ref.integral(-1.0, 9.0), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(got.derivatives(1.7).get(), ref.derivatives(1.7), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(got.derivative()(cp.asarray(XS)).get(), ref.derivative()(XS), rtol=1e-7, atol=1e-7)
    numpy.testing.assert_allclose(got.antiderivative()(cp.asarray(XS)).get(), ref.antiderivative()(XS),
                                  rtol=1e-8, atol=1e-9)


# (m, k, s as a multiple of the noise variance times m, weights): from near interpolation
# to the least-squares polynomial, every degree.
CASES = [(10, 3, 0.5, False), (12, 1, 0.2, True), (25, 2, 1.0, False), (25, 4, 0.3, True),
         (60, 1, 0.05, False), (60, 3, 1.0, True), (60, 5, 2.0, False), (150, 2, 0.01, True),
         (150, 3, 0.1, False), (150, 4, 1.0, False), (400, 3, 1e-3, False), (400, 5, 0.5, True),
         (40, 3, 1e4, False), (40, 2, 1e-9, False)]


@pytest.mark.parametrize("m,k,f,weighted", CASES)
def test_smoothing_matches_scipy(roots_cp, m, k, f, weighted):
    cp = roots_cp
    x, y, w = _data(m, 100 * m + k, weighted)
    s = f * m * 0.01
    ref, got, wr, wg = _both(cp, x, y, w, k=k, s=s)
    assert wg == wr
    _same_fit(got, ref)
    _same_values(cp, got, ref)
    if k == 3:
        numpy.testing.assert_allclose(got.roots().get(), ref.roots(), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("k,f", [(3, 1e-4), (3, 0.5), (5, 1.0), (1, 0.02)])
def test_many_points(cp, k, f):
    x, y, w = _data(2000, 7 + k, True)
    ref, got, wr, wg = _both(cp, x, y, w, k=k, s=f * 20.0)
    assert wg == wr
    _same_fit(got, ref)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-8, atol=1e-9)


def test_default_s_bbox_and_repeated_points(cp):
    x, y, w = _data(80, 3, True)
    x[20] = x[21]                       # s > 0 allows equal abscissae
    y = y * 20                          # noise of variance 4: the default s = m needs knots
    for kw in ({}, {"bbox": [-0.5, 4.25]}, {"bbox": [None, 5.0], "s": 4.0}, {"s": 8.0, "k": 2}):
        ref, got, wr, wg = _both(cp, x, y, w, **kw)
        assert wg == wr
        _same_fit(got, ref)
        _same_values(cp, got, ref)


def test_class_follows_the_search(cp):
    from cuarray.scipy import interpolate as ci
    x, y, _ = _data(30, 5)
    interp = ci.UnivariateSpline(cp.asarray(x), cp.asarray(y), s=0)
    assert type(interp) is ci.InterpolatedUnivariateSpline
    assert isinstance(interp, ci.UnivariateSpline)
    ref = si.UnivariateSpline(x, y, s=0)
    _same_fit(interp, ref)
    poly = ci.UnivariateSpline(cp.asarray(x), cp.asarray(y), s=1e3)
    assert type(poly) is ci.LSQUnivariateSpline
    assert poly.get_knots().size == 2

    class Mine(ci.UnivariateSpline):
        pass

    mine = Mine(cp.asarray(x), cp.asarray(y), s=0)
    assert type(mine) is Mine
    for cls in (ci.InterpolatedUnivariateSpline, ci.LSQUnivariateSpline):
        assert issubclass(cls, ci.UnivariateSpline)
    d = interp.derivative(2)
    assert type(d) is ci.UnivariateSpline and d.get_residual() is None
    numpy.testing.assert_allclose(d(cp.asarray(XS)).get(), ref.derivative(2)(XS), rtol=1e-7, atol=1e-7)
    tck = (cp.asarray(ref._eval_args[0]), cp.asarray(ref._eval_args[1]), 3)
    back = ci.LSQUnivariateSpline._from_tck(tck, ext=3)
    assert type(back) is ci.LSQUnivariateSpline
    numpy.testing.assert_allclose(back(cp.asarray(XS)).get(), ref(XS, ext=3), rtol=1e-8, atol=1e-9)
    assert back(cp.asarray([])).shape == (0,)


def test_warnings_as_scipy(cp):
    # s = 1e-5 on these points: the p iteration runs out (FITPACK's ier = 3).
    x, y, _ = _data(40, 43)
    ref, got, wr, wg = _both(cp, x, y, k=3, s=1e-5)
    assert wr and "maximal number of iterations" in wr[0]
    assert wg == wr
    _same_fit(got, ref)
    # An ill-conditioned near-interpolation (k = 4, knots 1e-4 apart): ier = 2; the fp
    # agrees, the coefficients only as far as the conditioning allows.
    x, y, _ = _data(80, 84)
    ref, got, wr, wg = _both(cp, x, y, k=4, s=0.01)
    assert wr and "theoretically impossible" in wr[0]
    assert wg == wr
    numpy.testing.assert_array_equal(got.get_knots().get(), ref.get_knots())
    numpy.testing.assert_allclose(float(got.get_residual().get()), ref.get_residual(), rtol=1e-8)


@pytest.mark.parametrize("k,s0,s1", [(3, 0.5, 0.1), (3, 0.1, 0.5), (2, 2.0, 0.05), (3, 0.0, 0.3),
                                     (1, 100.0, 0.2), (4, 0.3, 0.0)])
def test_set_smoothing_factor(cp, k, s0, s1):
    x, y, w = _data(60, 3, True)
    x[10] = x[11]
    if s0 == 0:
        x, idx = numpy.unique(x, return_index=True)
        y, w = y[idx], w[idx]
    ref, got, _, _ = _both(cp, x, y, w, k=k, s=s0)
    _same_fit(got, ref)
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        ref.set_smoothing_factor(s1)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got.set_smoothing_factor(s1)
    assert [str(a.message) for a in wg] == [str(a.message) for a in wr]
    _same_fit(got, ref)
    _same_values(cp, got, ref)


def test_fixed_knot_classes_share_the_methods(cp):
    from cuarray.scipy import interpolate as ci
    x, y, w = _data(50, 9, True)
    t = [1.0, 2.0, 3.0]
    ref = si.LSQUnivariateSpline(x, y, t, w=w)
    got = ci.LSQUnivariateSpline(cp.asarray(x), cp.asarray(y), cp.asarray(t), w=cp.asarray(w))
    assert isinstance(got, ci.UnivariateSpline)
    _same_values(cp, got, ref)
    with pytest.warns(UserWarning, match="smoothing factor unchanged"):
        got.set_smoothing_factor(0.5)
    numpy.testing.assert_allclose(got.get_coeffs().get(), ref.get_coeffs(), rtol=1e-8, atol=1e-10)
    ref = si.InterpolatedUnivariateSpline(x, y)
    got = ci.InterpolatedUnivariateSpline(cp.asarray(x), cp.asarray(y))
    assert isinstance(got, ci.UnivariateSpline)
    ref.set_smoothing_factor(0.2)
    got.set_smoothing_factor(0.2)
    _same_fit(got, ref)


def test_errors(cp):
    from cuarray.scipy import interpolate as ci
    x, y, _ = _data(20, 1)
    X, Y = cp.asarray(x), cp.asarray(y)
    US = ci.UnivariateSpline
    with pytest.raises(ValueError, match="x must be increasing"):
        US(X[::-1], Y)
    with pytest.raises(ValueError, match="strictly increasing"):
        US(cp.asarray(numpy.r_[x[:5], x[4:]]), cp.asarray(numpy.r_[y, 0.0]), s=0)
    for k in (0, 6):
        with pytest.raises(ValueError, match="k should be"):
            US(X, Y, k=k)
    with pytest.raises(ValueError, match="bbox shape"):
        US(X, Y, bbox=[0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="bounding box"):
        US(X, Y, bbox=[x[1], None])
    with pytest.raises(ValueError, match="w should have a same length"):
        US(X, Y, w=cp.ones(19))
    with pytest.raises(ValueError, match="x and y should have a same length"):
        US(X, Y[:-1])
    with pytest.raises(ValueError, match="s should be"):
        US(X, Y, s=-1.0)
    with pytest.raises(ValueError, match="Unknown extrapolation mode"):
        US(X, Y, ext="wrap")
    with pytest.raises(ValueError, match="more than k"):
        US(X[:3], Y[:3], k=3)
    with pytest.raises(ValueError, match="NaNs or infs"):
        US(X, cp.asarray(numpy.r_[y[:-1], numpy.nan]), check_finite=True)
    spl = US(X, Y)
    with pytest.raises(ValueError, match="Unknown extrapolation mode"):
        spl(X, ext=7)
    with pytest.raises(ValueError):
        spl(cp.asarray([5.0]), ext=2)
    with pytest.raises(NotImplementedError):
        US(X, Y, k=2).roots()


def test_validate_input_is_scipy_s(cp):
    from cuarray.scipy import interpolate as ci
    x, y, _ = _data(12, 2)
    out = ci.UnivariateSpline.validate_input(cp.asarray(x), cp.asarray(y), None, [None, None], 3, None, "const",
                                             False)
    assert out[4] == 3 and out[2] is None and out[3].shape == (2,)
    numpy.testing.assert_array_equal(out[0].get(), x)


@pytest.mark.parametrize("m,k,s", [(4, 3, 0.1), (4, 3, 0.0), (5, 3, 1e-9), (6, 5, 0.0), (7, 5, 1e-3), (2, 1, 0.5)])
def test_fewest_points(cp, m, k, s):
    rng = numpy.random.default_rng(m * 10 + k)
    x = numpy.sort(rng.random(m))
    y = rng.standard_normal(m)
    ref, got, wr, wg = _both(cp, x, y, k=k, s=s)
    assert wg == wr
    _same_fit(got, ref)


def test_constant_data(cp):
    x = numpy.linspace(0, 1, 20)
    y = numpy.full(20, 2.0)
    for s in (0.0, 1.0):
        ref, got, _, _ = _both(cp, x, y, s=s)
        _same_fit(got, ref)
