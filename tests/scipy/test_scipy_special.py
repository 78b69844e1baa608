"""cuarray.scipy.special against scipy.special: dtype resolution (CPU, exhaustive over
real dtypes), values on random and edge inputs (GPU and host emulation), the ufunc
machinery (out=, broadcasting, scalars), and the softmax/logsumexp family."""
import itertools
import zlib

import numpy as np
import pytest
import scipy.special as ss
import scipy.special._ufuncs as su

from cuarray.scipy import special
from cuarray.scipy.special._ufuncs import TABLE, UFUNCS, resolve

_CHARS = "?bBhHiIlLqQefd"


# ---- dtype resolution: SciPy's resolve_dtypes is the reference ------------------------------

@pytest.mark.parametrize("name", [n for n in TABLE if n != "_polygamma"])
def test_resolution_matches_scipy(name):
    ref = getattr(ss, name, None) or getattr(su, name)
    uf = UFUNCS[name]
    for combo in itertools.product(list(_CHARS) + [float, int], repeat=uf.nin):
        ins = [np.dtype(c) if isinstance(c, str) else c for c in combo]
        want = ref.resolve_dtypes(tuple(ins) + (None,))
        lin, lout = resolve(name, uf.types, ins)
        assert tuple(lin) + (lout,) == want, (name, combo)


def test_loops_are_scipys_real_loops_in_order():
    for name, (types, fn, doc) in TABLE.items():
        ref = getattr(ss, name, None) or getattr(su, name, None)
        if ref is None:
            continue
        real = [t for t in ref.types if not any(c in t for c in "FDG") and "g" not in t]
        assert real == list(types), name


def test_complex_and_bad_inputs_raise():
    with pytest.raises(TypeError, match="complex"):
        resolve("erf", UFUNCS["erf"].types, [np.dtype(np.complex64)])
    with pytest.raises(TypeError, match="not supported for the input types"):
        resolve("erf", ["f->f"], [np.dtype(np.float64)])


def test_dtype_keyword_resolution():
    assert resolve("erf", UFUNCS["erf"].types, [np.dtype(np.float32)], np.float64) == \
        ((np.dtype("d"),), np.dtype("d"))
    with pytest.raises(TypeError):
        resolve("erf", UFUNCS["erf"].types, [np.dtype(np.float64)], np.float32, "safe")


def test_namespace():
    for name in ("erf", "erfc", "erfinv", "gamma", "gammaln", "digamma", "psi", "beta",
                 "betaln", "expit", "logit", "log_expit", "softmax", "logsumexp", "xlogy",
                 "sinc", "zeta", "polygamma", "multigammaln", "log_softmax", "ndtr", "ndtri"):
        assert name in special.__all__ and callable(getattr(special, name))
    assert repr(special.erf) == "<ufunc 'erf'>" and special.beta.nin == 2
    assert "scipy.special.erf" in special.erf.__doc__


# ---- values ---------------------------------------------------------------------------------

def _samples(name, rng):
    """Inputs for `name` inside and around its domain."""
    n = 200
    u = rng.uniform
    doms = {
        "erf": [u(-6, 6, n)], "erfc": [u(-6, 27, n)], "erfcx": [u(-5, 50, n)],
        "erfinv": [u(-1, 1, n)], "erfcinv": [u(0, 2, n)],
        "gamma": [np.concatenate([u(-30, 0, n // 2), u(0, 170, n // 2)])],
        "gammaln": [np.concatenate([u(-50, 0, n // 2), u(0, 1e5, n // 2)])],
        "rgamma": [u(-30, 60, n)], "gammasgn": [u(-30, 30, n)],
        "digamma": [np.concatenate([u(-20, 0, n // 2), u(1e-3, 1e3, n // 2),
                                    np.array([1.4616321449683623, 1e-300, 1e10])])],
        "psi": [u(-10, 50, n)],
        "beta": [np.concatenate([u(0.01, 50, n), u(-10, 10, n)]),
                 np.concatenate([u(0.01, 50, n), u(-10, 10, n)])],
        "betaln": [np.concatenate([u(0.01, 500, n), u(-10, 10, n), [1e7, 3.5]]),
                   np.concatenate([u(0.01, 500, n), u(-10, 10, n), [2.5, 2e7]])],
        "expit": [u(-50, 50, n)], "logit": [u(0, 1, n)], "log_expit": [u(-800, 800, n)],
        "xlogy": [u(-3, 3, n), u(0, 10, n)], "xlog1py": [u(-3, 3, n), u(-1, 10, n)],
        "entr": [u(-1, 10, n)], "rel_entr": [u(-1, 10, n), u(-1, 10, n)],
        "kl_div": [u(-1, 10, n), u(-1, 10, n)],
        "ndtr": [u(-40, 10, n)], "ndtri": [u(0, 1, n)], "log_ndtr": [u(-50, 40, n)],
        "j0": [u(-50, 50, n)], "j1": [u(-50, 50, n)], "y0": [u(0.01, 50, n)],
        "y1": [u(0.01, 50, n)], "i0": [u(-700, 700, n)], "i1": [u(-700, 700, n)],
        "i0e": [np.concatenate([u(-1e4, 1e4, n), [800.0, -2000.0]])],
        "i1e": [np.concatenate([u(-1e4, 1e4, n), [800.0, -2000.0]])],
        "exp2": [u(-100, 100, n)], "exp10": [u(-30, 30, n)], "cbrt": [u(-1e3, 1e3, n)],
        "expm1": [u(-5, 5, n)], "log1p": [u(-1, 5, n)],
        "_zeta": [u(1.01, 20, n), np.concatenate([u(0.01, 50, n // 2), u(-20, 0, n // 2)])],
        "_riemann_zeta": [np.concatenate([u(-30, 30, n), [0.0, 0.5, -2.0, 1.5]])],
        "_polygamma": [rng.integers(0, 5, n).astype(float), u(0.1, 20, n)],
    }
    return doms[name]


def _digamma_reference(x):
    """SciPy's digamma loses up to 1e-7 relatively within 1e-6 of a negative pole (it
    reduces pi*x inexactly); the reflection psi(1 - x) - pi cot(pi x), with x reduced
    exactly to r = x - round(x), is correct to a few ulp there."""
    x = np.asarray(x, np.float64)
    want = ss.digamma(x)
    neg = (x < 0) & (x != np.floor(x))
    r = x[neg] - np.round(x[neg])
    want[neg] = ss.digamma(1 - x[neg]) - np.pi * np.cos(np.pi * r) / np.sin(np.pi * r)
    return want


def _reference(name):
    if name == "_polygamma":
        return ss.polygamma
    if name in ("digamma", "psi"):
        return _digamma_reference
    return getattr(ss, name, None) or getattr(su, name)


def _tol(name, dt):
    if dt == np.float32:
        return dict(rtol=5e-5, atol=1e-6)
    loose = {"gamma": 1e-12, "digamma": 1e-12, "psi": 1e-12, "betaln": 1e-11, "beta": 1e-11,
             "_zeta": 1e-11,
             "_riemann_zeta": 1e-10, "_polygamma": 1e-10, "j0": 1e-10, "j1": 1e-10,
             "y0": 1e-10, "y1": 1e-10, "erfcx": 1e-12, "i0": 1e-10, "i1": 1e-10,
             "i0e": 1e-10, "i1e": 1e-10}
    # CUDA's double Bessel J and Y are accurate to 5e-12 absolutely past |x| = 8.
    atol = 1e-11 if name in ("j0", "j1", "y0", "y1") else 1e-13
    return dict(rtol=loose.get(name, 1e-13), atol=atol)


@pytest.mark.parametrize("name", list(TABLE))
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_values_against_scipy(cp, name, dt):
    rng = np.random.default_rng(zlib.crc32(name.encode()))   # str hash varies by run
    xs = [x.astype(dt) for x in _samples(name, rng)]
    with np.errstate(all="ignore"):
        want = _reference(name)(*[x.astype(np.float64) for x in xs])
    got = UFUNCS[name](*[cp.asarray(x) for x in xs])
    assert got.dtype == np.dtype(dt) and got.shape == want.shape
    tol = _tol(name, dt)
    if dt == np.float32:
        with np.errstate(over="ignore"):   # float32 overflows to inf, as SciPy's f loop
            want = want.astype(np.float32)
    np.testing.assert_allclose(got.get(), want, equal_nan=True, **tol)



@pytest.mark.parametrize("name", ["digamma", "psi"])
def test_digamma_near_negative_poles(cp, name):
    rng = np.random.default_rng(1002)
    x = -rng.integers(1, 30, 500) + rng.choice([-1, 1], 500) * 10.0 ** rng.uniform(-12, -2, 500)
    got = UFUNCS[name](cp.asarray(x)).get()
    np.testing.assert_allclose(got, _digamma_reference(x), rtol=1e-14, atol=0)

_EDGES = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.5, 0.5, np.inf, -np.inf, np.nan, 1e-300,
                   -1e-300, 171.7, -170.5, -200.5, 1e300])


@pytest.mark.parametrize("name", [n for n in TABLE if UFUNCS[n].nin == 1])
def test_edge_values(cp, name):
    with np.errstate(all="ignore"):
        want = _reference(name)(_EDGES)
    got = UFUNCS[name](cp.asarray(_EDGES)).get()
    _compare_edges(got, want)


def _compare_edges(got, want):
    """inf and NaN exactly where SciPy has them; zeros to 1e-15 (CUDA need not round
    e.g. ndtri(0.5) to exactly 0); the rest to 1e-9 (Bessel functions at 1e300 are
    ~1e-151 and only absolutely accurate there)."""
    inf = ~np.isfinite(want)
    np.testing.assert_array_equal(got[inf], want[inf])
    np.testing.assert_allclose(got[~inf], want[~inf], rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("name", ["beta", "betaln", "xlogy", "xlog1py", "rel_entr", "kl_div",
                                  "_zeta", "_polygamma"])
def test_binary_edge_values(cp, name):
    vals = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -1.5, 0.5, np.inf, -np.inf, np.nan, 1e7,
                     -3.0, 3.0, -4.0, 4.5, -2.5, 200.0, -199.5, 1e300, -1e300, 1e-300])
    a, b = (x.ravel() for x in np.meshgrid(vals, vals))
    if name == "_polygamma":
        a = np.abs(np.nan_to_num(a, nan=0, posinf=3, neginf=2)).round()
    with np.errstate(all="ignore"):
        want = _reference(name)(a, b)
    got = UFUNCS[name](cp.asarray(a), cp.asarray(b)).get()
    _compare_edges(got, want)


def test_ufunc_machinery(cp):
    x = cp.asarray(np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4))
    out = cp.empty((3, 4), dtype=np.float32)
    r = special.erf(x, out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), ss.erf(x.get()), rtol=1e-5)
    y = special.xlogy(x, 2.0)
    assert y.dtype == np.float64                      # SciPy's legacy rule
    assert special.rel_entr(x, 2.0).dtype == np.float32
    z = special.beta(x[0], cp.asarray(np.array([[1.5], [2.5]])))
    assert z.shape == (2, 4) and z.dtype == np.float64
    w = special.erf(x.T)                              # a transposed view
    np.testing.assert_allclose(w.get(), ss.erf(x.get().T), rtol=1e-5)
    m = special.gamma(x, where=x > 0, out=cp.zeros((3, 4), dtype=np.float32))
    hx = x.get()
    np.testing.assert_allclose(m.get(), np.where(hx > 0, ss.gamma(hx), 0), rtol=1e-5)
    s = special.erf(np.float32(0.5))
    assert s.dtype == np.float32 and s.shape == ()
    assert special.expit(cp.asarray(np.array([0], dtype=np.int8))).dtype == np.float64
    assert special.erfinv(cp.asarray(np.array([0], dtype=np.int8))).dtype == np.float32
    i = special.gammaln(cp.arange(1, 6))
    np.testing.assert_allclose(i.get(), ss.gammaln(np.arange(1, 6)), rtol=1e-13)
    with pytest.raises(TypeError, match="complex"):
        special.erf(cp.asarray(np.ones(2, np.complex64)))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        special.erf(np.ones(3))


def test_zeta_polygamma_multigammaln(cp):
    x = cp.asarray(np.array([2.0, 3.5, 1.5]))
    np.testing.assert_allclose(special.zeta(x).get(), ss.zeta(x.get()), rtol=1e-12)
    q = cp.asarray(np.array([1.0, 2.5, 0.5]))
    np.testing.assert_allclose(special.zeta(x, q).get(), ss.zeta(x.get(), q.get()), rtol=1e-12)
    n = cp.asarray(np.array([0, 1, 2, 3]))
    v = cp.asarray(np.array([1.5, 2.0, 3.0, 0.7]))
    p = special.polygamma(n, v)
    assert p.dtype == np.float64
    np.testing.assert_allclose(p.get(), ss.polygamma(n.get(), v.get()), rtol=1e-11)
    a = cp.asarray(np.array([3.0, 4.5]))
    np.testing.assert_allclose(special.multigammaln(a, 3).get(), ss.multigammaln(a.get(), 3),
                               rtol=1e-12)
    with pytest.raises(ValueError, match="condition"):
        special.multigammaln(cp.asarray(np.array([0.5])), 3)


def test_softmax_family(cp):
    rng = np.random.default_rng(0)
    for dt in (np.float32, np.float64):
        h = (rng.standard_normal((4, 5)) * 10).astype(dt)
        x = cp.asarray(h)
        tol = 1e-5 if dt == np.float32 else 1e-12
        for axis in (None, 0, 1, -1, (0, 1)):
            for f in ("softmax", "log_softmax"):
                got, want = getattr(special, f)(x, axis=axis), getattr(ss, f)(h, axis=axis)
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)
            for keepdims in (False, True):
                got = special.logsumexp(x, axis=axis, keepdims=keepdims)
                want = np.asarray(ss.logsumexp(h, axis=axis, keepdims=keepdims))
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_allclose(got.get(), want, rtol=tol)
        b = rng.standard_normal((4, 5)).astype(dt)
        got, sgn = special.logsumexp(x, axis=1, b=cp.asarray(b), return_sign=True)
        want, wsgn = ss.logsumexp(h, axis=1, b=b, return_sign=True)
        np.testing.assert_allclose(got.get(), want, rtol=tol * 10)
        np.testing.assert_array_equal(sgn.get(), wsgn)
    inf = cp.asarray(np.array([-np.inf, -np.inf]))
    assert float(special.logsumexp(inf)) == -np.inf
    ints = cp.asarray(np.arange(5))
    assert special.softmax(ints).dtype == np.float64
    np.testing.assert_allclose(special.logsumexp(ints).get(), ss.logsumexp(np.arange(5)))


def test_sinc(cp):
    x = np.linspace(-3, 3, 13)
    np.testing.assert_allclose(special.sinc(cp.asarray(x)).get(), np.sinc(x), rtol=1e-12,
                               atol=1e-15)


def test_special_ufuncs_carry_every_ufunc_attribute():
    """SpecialUfunc sets the attributes itself (there is no numpy.<name> for ufunc.__init__
    to read): it must keep up with what ufunc.__init__ sets."""
    from cuarray._core._ops import UFUNCS as CORE
    core = set(vars(CORE["sin"])) - {"_np"}
    assert core <= set(vars(special.erf)), core - set(vars(special.erf))


def test_large_input(cp):
    # 800 KB: host uploads this size stage through pinned memory
    x = np.random.default_rng(1003).uniform(-6, 6, 100_000)
    np.testing.assert_allclose(special.erf(cp.asarray(x)).get(), ss.erf(x), rtol=1e-13, atol=1e-15)
