"""cuarray.scipy.special's incomplete gamma and beta functions, their inverses and the
distribution functions built on them, against scipy.special (GPU, and the host emulation
without one): dtype resolution, values on random inputs across the domain and the tails,
and SciPy's values at the edges."""
import itertools
import zlib

import numpy as np
import pytest
import scipy.special as ss

from cuarray.scipy.special._cdf import TABLE_CDF
from cuarray.scipy.special._ufuncs import UFUNCS, resolve

_CHARS = "?bBhHiIlLqQefd"
# SciPy 1.17 no longer has btdtr/btdtri: they are betainc/betaincinv
_REF = {"btdtr": "betainc", "btdtri": "betaincinv"}


def _ref(name):
    return getattr(ss, _REF.get(name, name))


@pytest.mark.parametrize("name", list(TABLE_CDF))
def test_resolution_matches_scipy(name):
    ref, uf = _ref(name), UFUNCS[name]
    assert [t for t in ref.types if not any(c in t for c in "FDG")] == uf.types
    for combo in itertools.product(list(_CHARS[::3]) + [float, int], repeat=uf.nin):
        ins = [np.dtype(c) if isinstance(c, str) else c for c in combo]
        want = ref.resolve_dtypes(tuple(ins) + (None,))
        lin, lout = resolve(name, uf.types, ins)
        assert tuple(lin) + (lout,) == want, (name, combo)


def _samples(name, rng):
    n = 300
    u = rng.uniform
    lu = lambda lo, hi: 10.0 ** u(lo, hi, n)   # noqa: E731
    a = np.concatenate([lu(-3, 2.5), u(0.01, 5, n)])
    x = np.concatenate([lu(-3, 2.7), u(0, 10, n)])
    p = np.concatenate([u(0, 1, n), lu(-12, 0)])
    k = np.floor(u(0, 30, 2 * n))
    nn = k + np.floor(u(1, 30, 2 * n))
    pb = u(0, 1, 2 * n)
    b1, b2 = np.concatenate([lu(-2, 2.5), u(0.5, 5, n)]), np.concatenate([lu(-2, 2.5),
                                                                          u(0.5, 5, n)])
    doms = {
        "gammainc": [a, x], "gammaincc": [a, x], "gammaincinv": [a, p], "gammainccinv": [a, p],
        "betainc": [b1, b2, pb], "btdtr": [b1, b2, pb], "betaincinv": [b1, b2, pb],
        "btdtri": [b1, b2, pb],
        "chdtr": [2 * a, x], "chdtrc": [2 * a, x], "chdtri": [2 * a, p],
        "gdtr": [u(0.1, 3, 2 * n), a, x], "gdtrc": [u(0.1, 3, 2 * n), a, x],
        "pdtr": [k, x], "pdtrc": [k, x], "pdtri": [k, u(0.001, 0.999, 2 * n)],
        "bdtr": [k, nn, pb], "bdtrc": [k, nn, pb], "bdtri": [k, nn, u(0.01, 0.99, 2 * n)],
        "nbdtr": [k, nn, pb], "nbdtrc": [k, nn, pb], "nbdtri": [k, nn, u(0.01, 0.99, 2 * n)],
        "fdtr": [b1 * 2, b2 * 2, x], "fdtrc": [b1 * 2, b2 * 2, x],
        "fdtri": [b1 * 2, b2 * 2, u(0.01, 0.99, 2 * n)],
        "stdtr": [a, np.concatenate([u(-10, 10, n), -lu(-3, 2)])],
        "stdtrit": [a + 0.5, u(0.001, 0.999, 2 * n)],
    }
    return doms[name]


# SciPy's own tests hold these to 1e-13 or so on their grids; our iterations keep 1e-12
# (1e-10 for the inverses, whose answers are conditioned by the function's slope).
_INVERSES = {"gammaincinv", "gammainccinv", "betaincinv", "btdtri", "chdtri", "pdtri",
             "bdtri", "nbdtri", "fdtri", "stdtrit"}


# Every float32 loop computes in double and rounds once (the same device code as the
# float64 one); each distinct kernel is an NVRTC compile of seconds, so float32 is checked
# on one function per family and loop signature, float64 on all.
_F32 = ["gammainc", "gammainccinv", "chdtri", "pdtri", "betaincinv", "fdtr", "nbdtri",
        "stdtrit"]


# SciPy's reference loops warn on float n (ours are whole numbers) and on the deliberately
# fractional k, n of the edge grid; only those two messages are let through
_SCIPY_INT_ARGS = [
    pytest.mark.filterwarnings("ignore:non-integer arg n is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore:floating point number truncated:RuntimeWarning")]


@pytest.mark.parametrize("name,dt", [(n, np.float64) for n in TABLE_CDF] +
                         [(n, np.float32) for n in _F32])
@_SCIPY_INT_ARGS[0]
def test_values_against_scipy(cp, name, dt):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = [x.astype(dt) for x in _samples(name, rng)]
    with np.errstate(all="ignore"):
        want = _ref(name)(*[x.astype(np.float64) for x in xs])
    got = UFUNCS[name](*[cp.asarray(x) for x in xs])
    assert got.dtype == np.dtype(dt) and got.shape == want.shape
    if dt == np.float32:
        tol = dict(rtol=2e-5, atol=1e-30)
        want = want.astype(np.float32)
    elif name in _INVERSES:
        tol = dict(rtol=1e-9, atol=1e-300)
    elif name.startswith(("f", "b", "nb", "st")):
        # SciPy's fdtrc(0.0693, 370.6, 0.00109) is 0.28375792644833 where the exact value
        # is 0.28375792645686 (ours): beta-based values agree to 1e-10
        tol = dict(rtol=1e-10, atol=1e-300)
    else:
        tol = dict(rtol=1e-11, atol=1e-300)
    np.testing.assert_allclose(got.get(), want, equal_nan=True, **tol)


# SciPy's inverses lose the root at y = 1e-300: betaincinv(3, 3, 1e-300) is NaN where
# 4.64e-101 is the answer, betaincinv(30, 30, 1e-300) is 7.6e-8 off, stdtrit(3, 1e-300) is
# inf where -1.03e100 is the answer (and SciPy's betainc(30, 30, x) there is 4.5e-8 off).
# There our forward function, checked against SciPy above, checks the answer.
_FORWARD = {"betaincinv": "betainc", "btdtri": "betainc", "nbdtri": "nbdtr",
            "fdtri": "fdtr", "stdtrit": "stdtr"}


@pytest.mark.parametrize("name", list(TABLE_CDF))
@_SCIPY_INT_ARGS[0]
@_SCIPY_INT_ARGS[1]
def test_edges(cp, name):
    """Shape parameters inside their domain (and NaN); the last argument at and beyond the
    ends of its range."""
    params = np.array([0.5, 2.0, 3.0, 30.0, np.nan])
    last = np.array([0.0, 1e-300, 0.25, 0.5, 1.0, 2.0, 30.0, np.inf, np.nan, -1.0])
    grids = [g.ravel() for g in np.meshgrid(*([params] * (UFUNCS[name].nin - 1) + [last]))]
    with np.errstate(all="ignore"):
        want = _ref(name)(*grids)
    got = UFUNCS[name](*[cp.asarray(g) for g in grids]).get()
    tiny = np.zeros(got.shape, bool)
    if name in _FORWARD:
        tiny = (grids[-1] == 1e-300) & ~np.isnan(got)
        x, shapes = got[tiny], [g[tiny] for g in grids[:-1]]
        assert tiny.sum() >= 4
        fin = np.isfinite(x) & (x != 0)

        def forward(at, xs):
            return UFUNCS[_FORWARD[name]](*[cp.asarray(g[at]) for g in shapes],
                                          cp.asarray(xs)).get()
        np.testing.assert_allclose(forward(fin, x[fin]), 1e-300, rtol=1e-9,
                                   err_msg=str(shapes))
        # an answer past the largest double (or below the smallest normal one): SciPy's
        # forward function at that double has not yet come down to 1e-300 (where it
        # underflows itself, stdtr(0.5, -1.8e308) = 0 for a true 2.4e-155, the tail
        # ~ |t|^-df says the same: |t| ~ 1e600)
        big = np.where(x == 0, np.finfo(float).tiny, np.copysign(np.finfo(float).max, x))
        with np.errstate(all="ignore"):
            edge = getattr(ss, _FORWARD[name])(*[g[~fin] for g in shapes], big[~fin])
        assert np.all(edge[edge > 0] >= 1e-300), (x, shapes)
    special = ~np.isfinite(want) & ~tiny
    np.testing.assert_array_equal(got[special], want[special],
                                  err_msg=str([g[special] for g in grids]))
    rest = ~special & ~tiny
    np.testing.assert_allclose(got[rest], want[rest], rtol=1e-9, atol=1e-290,
                               err_msg=str([g[rest] for g in grids]))


@_SCIPY_INT_ARGS[1]
def test_nbdtri_domain_order(cp):
    """SciPy's nbdtri: NaN for k < 0 before y at 0 or 1 gives y, which comes before n."""
    k = np.array([-1.0, -1.0, 1.0, 1.0, 1.0, np.inf, 1.0, np.nan, 1.0, 2.0])
    n = np.array([2.0, 2.0, 0.0, -1.0, 0.0, 2.0, np.inf, 2.0, np.inf, 3.0])
    y = np.array([0.0, 1.0, 0.0, 1.0, 0.5, 0.0, 0.5, 1.0, 0.0, -0.0])
    got = UFUNCS["nbdtri"](cp.asarray(k), cp.asarray(n), cp.asarray(y)).get()
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, ss.nbdtri(k, n, y))
    assert not np.signbit(got[-1])


def test_inverse_round_trips(cp):
    rng = np.random.default_rng(5)
    a = 10.0 ** rng.uniform(-2, 3, 400)
    q = 10.0 ** rng.uniform(-250, -0.01, 400)
    x = UFUNCS["gammainccinv"](cp.asarray(a), cp.asarray(q))
    back = UFUNCS["gammaincc"](cp.asarray(a), x).get()
    np.testing.assert_allclose(back, q, rtol=1e-10)
    # P(a, x) ~ x^a / Gamma(a + 1): below p = 1e-300^a the answer underflows to 0 (as
    # SciPy's), where no round trip can hold
    p = 10.0 ** rng.uniform(np.maximum(-250, -290 * a), -0.01)
    x = UFUNCS["gammaincinv"](cp.asarray(a), cp.asarray(p))
    back = UFUNCS["gammainc"](cp.asarray(a), x).get()
    ok = x.get() > 1e-290     # smaller answers underflow, as SciPy's
    assert ok.sum() > 100
    # P(a, x) ~ x^a: x's own rounding moves P by a ulp-relative amount times a
    err = np.abs(back[ok] - p[ok]) / (p[ok] * np.maximum(1, a[ok]))
    assert err.max() < 1e-10, err.max()


@_SCIPY_INT_ARGS[0]
@_SCIPY_INT_ARGS[1]
def test_shape_parameter_edges(cp):
    """SciPy's answers where a shape parameter is 0 or inf: the inverses' ends (p = 0, 1)
    are answered first; gdtr/gdtrc check x alone (rate a = 0 gives P(b, 0))."""
    a = np.array([0.0, -0.0, np.inf, 0.0, np.inf, 0.0, np.inf, -1.0, 2.0, 0.0])
    p = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, np.nan])
    with np.errstate(all="ignore"):
        for name in ("gammaincinv", "gammainccinv", "chdtri"):
            got = UFUNCS[name](cp.asarray(a), cp.asarray(p)).get()
            np.testing.assert_array_equal(got, getattr(ss, name)(a, p), err_msg=name)
        ab = np.array([2.0, np.inf, np.inf, 0.5, 2.0, np.inf, 2.0])
        bb = np.array([np.inf, 2.0, np.inf, np.inf, 0.0, 2.0, 3.0])
        y = np.array([0.0, 1.0, 0.0, 1.0, 0.0, 0.5, 1.0])
        got = UFUNCS["betaincinv"](cp.asarray(ab), cp.asarray(bb), cp.asarray(y)).get()
        np.testing.assert_array_equal(got, ss.betaincinv(ab, bb, y))
        rng = np.random.default_rng(11)
        rate = np.r_[0.0, 0.0, -0.0, -1.0, -1.0, rng.uniform(0.1, 3, 5)]
        b = np.r_[1.0, 0.0, 2.0, 1.0, 2.0, rng.uniform(0.5, 5, 5)]
        x = np.r_[1.0, 1.0, 0.0, 1.0, 0.0, rng.uniform(0, 5, 5)]
        for name in ("gdtr", "gdtrc"):
            got = UFUNCS[name](cp.asarray(rate), cp.asarray(b), cp.asarray(x)).get()
            np.testing.assert_allclose(got, getattr(ss, name)(rate, b, x), rtol=1e-12,
                                       err_msg=name)
        # the inverses built on them keep NaN for an infinite shape parameter
        for name, args in (("pdtri", (np.inf, 0.0)), ("bdtri", (1.0, np.inf, 0.0)),
                           ("fdtri", (np.inf, 1.0, 0.0))):
            got = UFUNCS[name](*[cp.asarray(np.array([v])) for v in args]).get()
            np.testing.assert_array_equal(got, getattr(ss, name)(*args), err_msg=name)


def test_student_t_beyond_double_precision_df(cp):
    """Past df = 2**52 the t distribution is the normal one to double precision: stdtr and
    stdtrit give ndtr and ndtri there (they gave 0.5 and -inf, betainc with a parameter
    that large having lost every digit)."""
    rng = np.random.default_rng(17)
    df = np.r_[2.0 ** 52 * 1.01, 1e16, 1e20, 1e300, np.inf, 10.0 ** rng.uniform(16, 200, 5)]
    t = rng.uniform(-8, 8, df.size)
    p = 10.0 ** rng.uniform(-30, -0.01, df.size)
    np.testing.assert_allclose(UFUNCS["stdtr"](cp.asarray(df), cp.asarray(t)).get(),
                               ss.stdtr(df, t), rtol=1e-13, atol=0)
    np.testing.assert_allclose(UFUNCS["stdtrit"](cp.asarray(df), cp.asarray(p)).get(),
                               ss.stdtrit(df, p), rtol=1e-13, atol=0)


@_SCIPY_INT_ARGS[0]
@_SCIPY_INT_ARGS[1]
def test_infinite_and_negative_shape_parameters(cp):
    """SciPy's NaN for an infinite count or degrees of freedom (bdtr, nbdtr, fdtr families:
    these gave 0 or 1) and for k < 0 in pdtr/pdtrc even at m = 0 (these gave 1 and 0)."""
    inf = np.inf
    rows = {
        "pdtr": [(-1, 0), (-1, 1), (inf, inf), (inf, 1), (1, inf), (2, 0), (inf, 0), (3, 2.5)],
        "pdtrc": [(-1, 0), (-1, 1), (inf, inf), (inf, 1), (1, inf), (2, 0), (inf, 0), (3, 2.5)],
        "bdtr": [(2, inf, 0.5), (inf, inf, 0.5), (2, inf, 0), (3, 3, 0.5), (-1, 3, 0.5),
                 (2, 7, 0.3)],
        "bdtrc": [(2, inf, 0.5), (-inf, 3, 0.5), (-1, inf, 0.5), (-inf, -inf, 0.1),
                  (-1, 3, 0.5), (2, 7, 0.3)],
        "nbdtr": [(2, inf, 0.5), (inf, 2, 0.5), (inf, 2, 1), (2, inf, 0), (2, 5, 0.4)],
        "nbdtrc": [(2, inf, 0.5), (inf, 2, 0.5), (2, inf, 1), (2, 5, 0.4)],
        "fdtr": [(inf, 2, 0.5), (2, inf, 0.5), (inf, inf, 1), (2, inf, 0), (2, 3, inf),
                 (inf, 2, inf), (2, 3, 1.5)],
        "fdtrc": [(inf, 2, 0.5), (2, inf, 0.5), (2, inf, 0), (inf, 2, inf), (2, 3, 1.5)],
    }
    for name, rs in rows.items():
        cols = [np.array(c, dtype=np.float64) for c in zip(*rs)]
        with np.errstate(all="ignore"):
            want = getattr(ss, name)(*cols)
        got = UFUNCS[name](*[cp.asarray(c) for c in cols]).get()
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True,
                                   err_msg=name)
