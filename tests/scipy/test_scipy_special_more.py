"""cuarray.scipy.special's agm, powm1, spence, softplus, diric, factorials, bernoulli and
euler against scipy.special (GPU, and the host emulation without one)."""
import numpy as np
import pytest
import scipy.special as ss

from cuarray.scipy import special
from cuarray.scipy.special._more_functions import SOURCE_MORE, TABLE_MORE
from cuarray.scipy.special._ufuncs import UFUNCS
from special_resolution import check_resolution, compile_calls

_CHARS = "?bBhHiIlLqQefd"


@pytest.mark.parametrize("name", ["agm", "powm1", "spence"])
def test_resolution_matches_scipy(name):
    ref, uf = getattr(ss, name), UFUNCS[name]
    assert [t for t in ref.types if not any(c in t for c in "FDG")] == uf.types
    check_resolution(ref, name, list(_CHARS[::2]) + [float, int])


def test_source_compiles_with_nvrtc():
    """The device code compiles for sm_90 with NVRTC, no GPU needed (every loop's types)."""
    ctype = {"f": "float", "d": "double", "l": "long long"}
    calls = []
    for name, (types, fn, _) in TABLE_MORE.items():
        for t in types:
            args = ", ".join(f"({ctype[c]})x[i]" for c in t.split("->")[0])
            calls.append(f"y[i] += (double)cusp_{fn}({args});")
    assert len(compile_calls(SOURCE_MORE, calls, "more_special").code) > 0


def _samples(name, rng):
    n = 300
    u = rng.uniform
    lu = lambda lo, hi: 10.0 ** u(lo, hi, n)   # noqa: E731
    if name == "agm":
        a = np.concatenate([u(0, 10, n), lu(-200, 200), -u(0, 10, n)])
        b = np.concatenate([u(0, 10, n), lu(-200, 200), -u(0, 10, n)])
        return [a, b]
    if name == "powm1":
        x = np.concatenate([u(0, 5, n), 1 + u(-1e-6, 1e-6, n), -np.floor(u(0, 5, n)) - 0.5,
                            -u(0, 3, n)])
        y = np.concatenate([u(-5, 5, n), u(-100, 100, n), np.floor(u(-6, 6, n)),
                            np.floor(u(-6, 6, n))])
        return [x, y]
    return [np.concatenate([u(0, 3, n), lu(-20, 20), 1 + u(-1e-4, 1e-4, n), [0.5, 1.5, 2.0]])]


@pytest.mark.parametrize("name", ["agm", "powm1", "spence"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_values_against_scipy(cp, name, dt):
    rng = np.random.default_rng({"agm": 1, "powm1": 2, "spence": 3}[name])
    with np.errstate(over="ignore"):   # the widest samples overflow float32: inf
        xs = [x.astype(dt) for x in _samples(name, rng)]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*[x.astype(np.float64) for x in xs])
        got = getattr(special, name)(*[cp.asarray(x) for x in xs])
    assert got.dtype == np.dtype(dt) and got.shape == want.shape
    if dt == np.float32:
        with np.errstate(over="ignore"):
            want = want.astype(np.float32)
        tol = dict(rtol=5e-6, atol=1e-30)
    else:
        tol = dict(rtol=1e-13, atol=1e-300)
        if name == "spence":
            tol["atol"] = 1e-15   # near its zero at 1
    np.testing.assert_allclose(got.get(), want, equal_nan=True, **tol, err_msg=name)


@pytest.mark.parametrize("name", ["agm", "powm1", "spence"])
def test_edges(cp, name):
    vals = np.array([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 3.0, -3.0, np.inf, -np.inf,
                     np.nan, 1e-300, 1e300])
    nin = UFUNCS[name].nin
    grids = [g.ravel() for g in np.meshgrid(*([vals] * nin))]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*grids)
        got = getattr(special, name)(*[cp.asarray(g) for g in grids]).get()
    bad = ~np.isfinite(want)
    np.testing.assert_array_equal(got[bad], want[bad], err_msg=str([g[bad] for g in grids]))
    np.testing.assert_allclose(got[~bad], want[~bad], rtol=1e-13, atol=1e-300,
                               err_msg=str([g[~bad] for g in grids]))


def test_ufunc_keywords_and_shapes(cp):
    a = np.arange(1.0, 13.0).reshape(3, 4)
    out = cp.empty((3, 4))
    r = special.agm(cp.asarray(a), 2.0, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), ss.agm(a, 2.0), rtol=1e-14)
    # non-contiguous, 0-d and empty inputs
    np.testing.assert_allclose(special.powm1(cp.asarray(a)[:, ::2], 0.5).get(),
                               ss.powm1(a[:, ::2], 0.5), rtol=1e-14)
    assert special.spence(cp.asarray(np.float64(2.0))).shape == ()
    assert special.spence(cp.asarray(np.empty((0, 3)))).shape == (0, 3)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_softplus(cp, dt):
    rng = np.random.default_rng(4)
    x = (rng.uniform(-50, 50, 200)).astype(dt)
    x = np.concatenate([x, np.array([0, 1, -1], dtype=dt)])
    got = special.softplus(cp.asarray(x))
    want = ss.softplus(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=2e-6 if dt == np.float32 else 1e-14)
    with np.errstate(all="ignore"):
        edge = np.array([np.inf, -np.inf, np.nan, 800.0, -800.0])
        np.testing.assert_array_equal(special.softplus(cp.asarray(edge)).get(),
                                      ss.softplus(edge))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_diric(cp, dt):
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-20, 20, 200), np.arange(-4, 5) * np.pi,
                        [0.0, 1e-9, np.inf, np.nan]]).astype(dt if dt != np.int64 else float)
    if dt == np.int64:
        x = np.floor(rng.uniform(-20, 20, 100)).astype(np.int64)
    for n in (1, 2, 3, 8, 0, -1):
        with np.errstate(all="ignore"):
            want = ss.diric(x, n)
            got = special.diric(cp.asarray(x), n)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12, equal_nan=True)
    # float32 x with float32 n stays float32, with SciPy's float32 cut-off near the poles
    xs = np.array([0.0, 1e-4, 2 * np.pi + 1e-4, 1.0, 3.0], np.float32)
    ns = np.array([3, 4, 2.5, 5, 6], np.float32)
    got = special.diric(cp.asarray(xs), cp.asarray(ns))
    want = ss.diric(xs, ns)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-6, equal_nan=True)
    got = special.diric(cp.asarray(xs.astype(np.float16)), cp.asarray(ns.astype(np.float16)))
    want = ss.diric(xs.astype(np.float16), ns.astype(np.float16))
    assert got.dtype == want.dtype == np.float16
    np.testing.assert_allclose(got.get(), want, rtol=5e-3, atol=5e-3, equal_nan=True)


@pytest.mark.parametrize("fname,k", [("factorial", 1), ("factorial2", 2), ("factorialk", 3),
                                     ("factorialk", 5)])
@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint8])
def test_factorials_integer(cp, fname, k, dt):
    rng = np.random.default_rng(6 + k)
    lo = 0 if dt == np.uint8 else -5
    n = np.concatenate([rng.integers(lo, 200, 100), [0, 1, 2, 3]]).astype(dt)
    ref = getattr(ss, fname)
    args = () if fname != "factorialk" else (k,)
    # SciPy 1.18 forms uint8 factorials in float32 (inf past 34!); 1.17 and cuarray in
    # float64, as for every other integer type: compare with SciPy's int64 answer
    want = ref(n.astype(np.int64) if dt == np.uint8 else n, *args)
    got = getattr(special, fname)(cp.asarray(n), *args)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got.get(), want, rtol=1e-13)
    # exact=True where the results fit int64
    m = {1: 20, 2: 33, 3: 44, 5: 65}[k]
    n = np.concatenate([rng.integers(lo, m + 1, 50), [m]]).astype(dt)
    want = ref(n, *args, exact=True)
    got = getattr(special, fname)(cp.asarray(n), *args, exact=True)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(OverflowError):
        getattr(special, fname)(cp.asarray(np.array([m + 1], dtype=dt)), *args, exact=True)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_factorial_float(cp, dt):
    rng = np.random.default_rng(9)
    n = np.concatenate([rng.uniform(-5, 175, 200), [0, 1, 0.5, -1, np.nan, np.inf, -np.inf,
                                                     171, 172]]).astype(dt)
    with np.errstate(all="ignore"):
        want = ss.factorial(n)
        got = special.factorial(cp.asarray(n))
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_allclose(got.get(), want, rtol=1e-13, equal_nan=True)
    # extend='complex' for real n (SciPy's values are real there)
    n2 = np.concatenate([rng.uniform(-4.5, 30, 100), [-1.0, -0.5, 0, 2, 7]])
    for fname, args in (("factorial", ()), ("factorial2", ()), ("factorialk", (3,)),
                        ("factorialk", (2.5,))):
        with np.errstate(all="ignore"):
            want = getattr(ss, fname)(n2, *args, extend="complex")
            got = getattr(special, fname)(cp.asarray(n2), *args, extend="complex")
        np.testing.assert_allclose(got.get(), np.real(want), rtol=1e-12, equal_nan=True,
                                   err_msg=fname)
    n3 = n2.astype(np.float32)
    with np.errstate(all="ignore"):
        want = ss.factorial(n3, extend="complex")
        got = special.factorial(cp.asarray(n3), extend="complex")
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got.get(), want, rtol=1e-6, equal_nan=True)


def test_factorial_scalars_and_empty(cp):
    assert special.factorial(5, exact=True) == ss.factorial(5, exact=True) == 120
    assert special.factorial(30, exact=True) == ss.factorial(30, exact=True)
    assert special.factorialk(10, 3, exact=True) == ss.factorialk(10, 3, exact=True)
    assert special.factorial2(-3, exact=True) == 0
    np.testing.assert_allclose(float(special.factorial(3.5).get()), ss.factorial(3.5),
                               rtol=1e-14)
    np.testing.assert_allclose(float(special.factorial2(7).get()), ss.factorial2(7), rtol=1e-14)
    e = special.factorial(cp.asarray(np.empty(0, np.int64)))
    assert e.shape == (0,)
    for exact in (False, True):
        assert np.isnan(ss.factorial(np.nan, exact=exact))
        assert np.isnan(float(special.factorial(np.nan, exact=exact).get()))
    z = special.factorial2(cp.asarray(np.array(7)))
    assert z.shape == () and abs(float(z.get()) - 105.0) < 1e-12
    out = cp.empty(3, np.float32)
    r = special.softplus(cp.asarray(np.array([-1.0, 0.0, 1.0], np.float32)), out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), ss.softplus(np.array([-1.0, 0, 1], np.float32)),
                               rtol=1e-6)


def test_factorial_errors(cp):
    f32 = cp.asarray(np.array([1.5, 2.0]))
    i64 = cp.asarray(np.array([1, 2]))
    cases = [
        (lambda m: m.factorial(np.array([1.0, 2.0]), exact=True), ValueError),
        (lambda m: m.factorial2(np.array([1.5])), ValueError),
        (lambda m: m.factorialk(np.array([1.5]), 3), ValueError),
        (lambda m: m.factorialk(np.array([1, 2]), 0), ValueError),
        (lambda m: m.factorialk(np.array([1, 2]), 2.5), ValueError),
        (lambda m: m.factorial(np.array([1, 2]), extend="other"), ValueError),
        (lambda m: m.factorial(np.array([1, 2]), exact=True, extend="complex"), ValueError),
        (lambda m: m.factorial(np.array([True, False])), ValueError),
        (lambda m: m.factorial2(2.5), ValueError),
        (lambda m: m.factorial(2.5, exact=True), ValueError),
    ]
    for case, exc in cases:
        with pytest.raises(exc):
            case(ss)
        with pytest.raises(exc):
            case(_Dev(special, cp))
    with pytest.raises(ValueError, match="exact"):
        special.factorial(f32, exact=True)
    with pytest.raises(ValueError, match="complex"):
        special.factorial2(f32)
    with pytest.raises(ValueError, match="k"):
        special.factorialk(i64, -1)


class _Dev:
    """special's functions with NumPy array arguments moved to the device first."""

    def __init__(self, mod, cp):
        self.mod, self.cp = mod, cp

    def __getattr__(self, name):
        f = getattr(self.mod, name)

        def call(n, *args, **kw):
            if isinstance(n, np.ndarray):
                n = self.cp.asarray(n)
            return f(n, *args, **kw)
        return call


@pytest.mark.parametrize("n", [0, 1, 2, 5, 20, 64, 250, 300])
def test_bernoulli_euler(cp, n):
    for name in ("bernoulli", "euler"):
        with np.errstate(all="ignore"):
            want = getattr(ss, name)(n)
        got = getattr(special, name)(n)
        assert got.dtype == want.dtype == np.float64 and got.shape == want.shape
        g = got.get()
        fin = np.isfinite(want)
        np.testing.assert_array_equal(g[~fin], want[~fin])
        # ours are the exact rationals rounded once; SciPy's Bernoulli table is off from
        # them by up to 1.7e-12 relative (B_4 = -0.033333333333275914)
        np.testing.assert_allclose(g[fin], want[fin], rtol=3e-12, atol=0, err_msg=name)
    if n >= 4:
        assert special.bernoulli(n).get()[4] == -1 / 30
        assert special.euler(n).get()[4] == 5.0


def test_bernoulli_euler_errors():
    for name in ("bernoulli", "euler"):
        for bad in (-1, np.array([2, 3])):
            with pytest.raises(ValueError, match="non-negative"):
                getattr(ss, name)(bad)
            with pytest.raises(ValueError, match="non-negative"):
                getattr(special, name)(bad)


@pytest.mark.gpu
def test_against_cupy(gpu_cp):
    """The names the installed CuPy has (its builds lack some its reference lists)."""
    cupy = pytest.importorskip("cupy")
    import cupyx.scipy.special as cs
    rng = np.random.default_rng(21)
    a, b = rng.uniform(0.1, 10, 500), rng.uniform(0.1, 10, 500)
    n = np.floor(rng.uniform(0, 60, 100))
    calls = (("agm", (a, b), 1e-12), ("powm1", (a, b - 5), 1e-12), ("spence", (a,), 1e-12),
             ("softplus", (a - 5,), 1e-12), ("diric", (a, 5), 1e-10),
             ("factorial", (n,), 1e-12), ("euler", (30,), 1e-12))
    compared = 0
    for name, args, rtol in calls:
        if not hasattr(cs, name):
            continue
        dev = [gpu_cp.asarray(x) if isinstance(x, np.ndarray) else x for x in args]
        cup = [cupy.asarray(x) if isinstance(x, np.ndarray) else x for x in args]
        got = getattr(special, name)(*dev).get()
        want = cupy.asnumpy(getattr(cs, name)(*cup))
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12, err_msg=name)
        compared += 1
    if not compared:
        pytest.skip("the installed CuPy has none of these names")
