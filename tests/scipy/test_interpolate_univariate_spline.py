"""UnivariateSpline (FITPACK's smoothing search) against SciPy: the knots found, the
coefficients, the residual, the class it ends in and the warnings it gives, then the
shared methods of the three FITPACK spline classes. Every test runs on the CPU emulator
(the kernels compiled for the host) and, on a GPU machine, on the device.

Resumed searches. FITPACK's curfit keeps its search state (fp0, fpold, nplus, fpint,
nrdata) between calls, and a search resumes from it (iopt = 1) when SciPy's first pass
runs out of room for knots (nest = max(m // 2, 2k + 2) knots, ier = 1: SciPy then
continues with nest = m + k + 1) and on every `set_smoothing_factor`. cuarray and SciPy
<= 1.17 keep that state; SciPy >= 1.18 resumes from a zeroed workspace, so its knots can
differ there. The rule used here: a fit with s > 0 resumed exactly when it ends with more
than max(m // 2, 2k + 2) knots in all (FITPACK stops its first pass with ier = 1 at
n = nest and the resumed pass adds knots; without ier = 1 the first pass ends with
n <= nest), and every fit after `set_smoothing_factor` is a resumed one. Those fits are
compared, on SciPy >= 1.18, with SciPy 1.17's results kept in
data/univariate_spline_scipy117.json (written by data/make_univariate_spline_reference.py,
which checks the rule against SciPy 1.17's own first pass), and with FITPACK's contract;
on SciPy <= 1.17 they are compared with the live SciPy, and the file with it (it holds
exactly the resumed fits, equal to the live ones)."""
import functools
import json
import pathlib
import warnings

import numpy
import pytest
import scipy
import scipy.interpolate as si

XS = numpy.linspace(-0.5, 4.5, 41)
GOLDEN = pathlib.Path(__file__).parent / "data" / "univariate_spline_scipy117.json"


def _resumes_afresh():
    """Whether the installed SciPy restarts a resumed knot search without FITPACK's state."""
    return tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 18)


@functools.lru_cache(maxsize=None)
def _golden():
    with open(GOLDEN) as f:
        return json.load(f)["fits"]


def _smoothing(kw, x):
    """The s a fit searches for (SciPy's default is m)."""
    s = kw.get("s")
    return float(x.size) if s is None else float(s)


def _resumed(spline, m, k, s):
    """Whether SciPy's knot search for this fit resumed after its first pass (see above)."""
    n = spline.get_knots().size + 2 * k
    return s != 0 and n > max(m // 2, 2 * k + 2)


class _Golden:
    """SciPy 1.17's fit read back: its numbers, and SciPy's evaluation on its (t, c, k)."""

    def __init__(self, g):
        self.class_name = g["class"]
        self._fp = g["fp"]
        self._spline = si.UnivariateSpline._from_tck((numpy.array(g["t"]), numpy.array(g["c"]), g["k"]))

    def __getattr__(self, name):
        return getattr(self._spline, name)

    def __call__(self, *args, **kw):
        return self._spline(*args, **kw)

    def get_residual(self):
        return self._fp


def _class_name(spline):
    return getattr(spline, "class_name", type(spline).__name__)


def _same_as_golden(ref, texts, g):
    """SciPy 1.17's live fit is the one the data file holds."""
    assert _class_name(ref) == g["class"]
    assert texts == g["warnings"]
    numpy.testing.assert_array_equal(ref._eval_args[0], g["t"])
    numpy.testing.assert_allclose(ref._eval_args[1], g["c"], rtol=1e-12, atol=1e-14)
    numpy.testing.assert_allclose(ref.get_residual(), g["fp"], rtol=1e-12, atol=1e-15)


def _reference(key, ref, texts, x, k, s, continued=False):
    """(reference spline, its warning texts) for one fit: the installed SciPy's, or SciPy
    1.17's from the data file where the installed SciPy restarts this fit's resumed search.
    `continued`: the fit is a set_smoothing_factor continuation (always a resumed search)."""
    g = _golden().get(key)
    if _resumes_afresh():
        if g is None:
            assert not continued and not _resumed(ref, x.size, k, s), f"{key}: resumed, not in {GOLDEN.name}"
            return ref, texts
        return _Golden(g), g["warnings"]
    assert (g is not None) == (continued or _resumed(ref, x.size, k, s)), key
    if g is not None:
        _same_as_golden(ref, texts, g)
    return ref, texts


def _fitpack_contract(got, x, k, s, bbox, texts):
    """FITPACK's promises, whatever the reference. Without a diagnostic (no warning) the
    search ends in the least-squares polynomial (n = 2k + 2, fp <= s: ier = -2), in the
    interpolant (n = m + k + 1: ier = -1) or with |fp - s| <= 0.001 s (ier = 0); the knots
    are data points or the interval's ends (but for even-degree interpolation's midpoints)."""
    bbox = [None, None] if bbox is None else bbox
    xb = x[0] if bbox[0] is None else bbox[0]
    xe = x[-1] if bbox[1] is None else bbox[1]
    knots = got.get_knots().get()
    n, nmax = knots.size + 2 * k, x.size + k + 1
    if not (n == nmax and k % 2 == 0):
        assert numpy.isin(knots, numpy.r_[x, xb, xe]).all()
    fp = float(got.get_residual().get())
    if not texts and n == 2 * k + 2:
        assert fp <= s * (1 + 1e-3)
    elif not texts and n < nmax:
        assert abs(fp - s) <= 1e-3 * s


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


def _fit(cp, key, x, y, w=None, **kw):
    """_both, with the reference chosen by _reference and ours held to FITPACK's contract."""
    ref, got, wr, wg = _both(cp, x, y, w, **kw)
    s = _smoothing(kw, x)
    ref, wr = _reference(key, ref, wr, x, kw.get("k", 3), s)
    _fitpack_contract(got, x, kw.get("k", 3), s, kw.get("bbox"), wg)
    return ref, got, wr, wg


def _same_fit(got, ref):
    assert type(got).__name__ == _class_name(ref)
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
MANY_POINTS = [(3, 1e-4), (3, 0.5), (5, 1.0), (1, 0.02)]
DEFAULT_S_KEYWORDS = ({}, {"bbox": [-0.5, 4.25]}, {"bbox": [None, 5.0], "s": 4.0}, {"s": 8.0, "k": 2})
SMOOTHING_CHANGES = [(3, 0.5, 0.1), (3, 0.1, 0.5), (2, 2.0, 0.05), (3, 0.0, 0.3), (1, 100.0, 0.2), (4, 0.3, 0.0)]


# The inputs of the tests below, each (key, x, y, w, keywords): shared with
# data/make_univariate_spline_reference.py.
def _smoothing_input(m, k, f, weighted):
    x, y, w = _data(m, 100 * m + k, weighted)
    return f"smoothing-{m}-{k}-{f}-{weighted}", x, y, w, {"k": k, "s": f * m * 0.01}


def _many_points_input(k, f):
    x, y, w = _data(2000, 7 + k, True)
    return f"many_points-{k}-{f}", x, y, w, {"k": k, "s": f * 20.0}


def _default_s_inputs():
    x, y, w = _data(80, 3, True)
    x[20] = x[21]                       # s > 0 allows equal abscissae
    y = y * 20                          # noise of variance 4: the default s = m needs knots
    return [(f"default_s-{i}", x, y, w, kw) for i, kw in enumerate(DEFAULT_S_KEYWORDS)]


def _warnings_inputs():
    # s = 1e-5 on these points: the p iteration runs out (FITPACK's ier = 3). Then an
    # ill-conditioned near-interpolation (k = 4, knots 1e-4 apart): ier = 2.
    x, y, _ = _data(40, 43)
    x2, y2, _ = _data(80, 84)
    return [("warnings-maxit", x, y, None, {"k": 3, "s": 1e-5}),
            ("warnings-impossible", x2, y2, None, {"k": 4, "s": 0.01})]


def _set_smoothing_input(k, s0):
    x, y, w = _data(60, 3, True)
    x[10] = x[11]
    if s0 == 0:
        x, idx = numpy.unique(x, return_index=True)
        y, w = y[idx], w[idx]
    return f"set_smoothing_factor-{k}-{s0}", x, y, w, {"k": k, "s": s0}


def _continued_key(key, s1):
    return f"{key}-then-{s1}"


def reference_inputs():
    """Every fit of the tests that compare with SciPy's search: (key, x, y, w, keywords,
    the s of a set_smoothing_factor that follows or None)."""
    for case in CASES:
        yield *_smoothing_input(*case), None
    for k, f in MANY_POINTS:
        yield *_many_points_input(k, f), None
    for item in _default_s_inputs():
        yield *item, None
    for item in _warnings_inputs():
        yield *item, None
    for k, s0, s1 in SMOOTHING_CHANGES:
        yield *_set_smoothing_input(k, s0), s1


@pytest.mark.parametrize("m,k,f,weighted", CASES)
def test_smoothing_matches_scipy(roots_cp, m, k, f, weighted):
    cp = roots_cp
    key, x, y, w, kw = _smoothing_input(m, k, f, weighted)
    ref, got, wr, wg = _fit(cp, key, x, y, w, **kw)
    assert wg == wr
    _same_fit(got, ref)
    _same_values(cp, got, ref)
    if k == 3:
        numpy.testing.assert_allclose(got.roots().get(), ref.roots(), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("k,f", MANY_POINTS)
def test_many_points(cp, k, f):
    key, x, y, w, kw = _many_points_input(k, f)
    ref, got, wr, wg = _fit(cp, key, x, y, w, **kw)
    assert wg == wr
    _same_fit(got, ref)
    numpy.testing.assert_allclose(got(cp.asarray(XS)).get(), ref(XS), rtol=1e-8, atol=1e-9)


def test_default_s_bbox_and_repeated_points(cp):
    for key, x, y, w, kw in _default_s_inputs():
        ref, got, wr, wg = _fit(cp, key, x, y, w, **kw)
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
    (key, x, y, _, kw), (key2, x2, y2, _, kw2) = _warnings_inputs()
    ref, got, wr, wg = _fit(cp, key, x, y, **kw)
    assert wr and "maximal number of iterations" in wr[0]
    assert wg == wr
    _same_fit(got, ref)
    # ier = 2: the fp agrees, the coefficients only as far as the conditioning allows.
    ref, got, wr, wg = _fit(cp, key2, x2, y2, **kw2)
    assert wr and "theoretically impossible" in wr[0]
    assert wg == wr
    numpy.testing.assert_array_equal(got.get_knots().get(), ref.get_knots())
    numpy.testing.assert_allclose(float(got.get_residual().get()), ref.get_residual(), rtol=1e-8)


@pytest.mark.parametrize("k,s0,s1", SMOOTHING_CHANGES)
def test_set_smoothing_factor(cp, k, s0, s1):
    key, x, y, w, kw = _set_smoothing_input(k, s0)
    live, got, wr, wg = _both(cp, x, y, w, **kw)
    ref, _ = _reference(key, live, wr, x, k, s0)
    _fitpack_contract(got, x, k, s0, None, wg)
    _same_fit(got, ref)
    wr = None
    if not _resumes_afresh():           # else SciPy 1.17's continuation is the reference
        with warnings.catch_warnings(record=True) as wr:
            warnings.simplefilter("always")
            live.set_smoothing_factor(s1)
        wr = [str(a.message) for a in wr]
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got.set_smoothing_factor(s1)
    wg = [str(a.message) for a in wg]
    ref, wr = _reference(_continued_key(key, s1), live, wr, x, k, s1, continued=True)
    assert wg == wr
    _fitpack_contract(got, x, k, s1, None, wg)
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
