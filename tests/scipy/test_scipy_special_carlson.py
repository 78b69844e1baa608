"""cuarray.scipy.special's Carlson elliptic integrals (elliprc/rd/rf/rg/rj) and betaincc,
betainccinv against scipy.special (GPU, and the host emulation without one): dtype
resolution, values on seeded random inputs (real and complex), SciPy's values at the edges,
and the identities SciPy's own tests check."""
import itertools
import zlib

import numpy as np
import pytest
import scipy.special as ss

import cuarray.scipy.special as csp
from cuarray.scipy.special._carlson import (SOURCE_BETAINCC, SOURCE_CARLSON, TABLE_BETAINCC,
                                            TABLE_CARLSON)
from cuarray.scipy.special._ufuncs import UFUNCS
from special_resolution import check_resolution, compile_calls

_NAMES = list(TABLE_CARLSON) + list(TABLE_BETAINCC)


def test_exported():
    for name in _NAMES:
        assert getattr(csp, name) is UFUNCS[name]
        assert name in csp.__all__
        assert getattr(csp, name).nin == getattr(ss, name).nin


@pytest.mark.parametrize("name", _NAMES)
def test_resolution_matches_scipy(name):
    ref, uf = getattr(ss, name), UFUNCS[name]
    assert ref.types == uf.types
    check_resolution(ref, name, ["b", "h", "f", "d", "F", "D", float, int, complex], free=2)


@pytest.mark.parametrize("table,source,types", [
    (TABLE_CARLSON, SOURCE_CARLSON, ("float", "double", "complex<float>", "complex<double>")),
    (TABLE_BETAINCC, SOURCE_BETAINCC, ("float", "double"))])
def test_device_code_compiles_with_nvrtc(table, source, types):
    """Every loop's device function, through NVRTC for sm_90 (no GPU needed)."""
    calls = []
    for name, (loops, fn, _) in table.items():
        nin = len(loops[0].split("->")[0])
        for T in types:
            args = ", ".join(f"{T}(x[i])" for _ in range(nin))
            calls.append(f"y[i] += complex<double>(cusp_{fn}({args})).real();")
    assert len(compile_calls(source, calls, "carlson").code) > 0


def _real(name, rng, n=400):
    lu = lambda lo, hi: 10.0 ** rng.uniform(lo, hi, n)   # noqa: E731
    xs = [lu(-4, 4) if k % 2 else rng.uniform(0, 3, n) for k in range(UFUNCS[name].nin)]
    if name == "elliprc":      # principal values on half of them
        xs[1][::2] *= -1
    if name == "elliprj":
        xs[3][::2] *= -1
    if name in TABLE_BETAINCC:
        xs = [lu(-2, 2.5), lu(-2, 2.5), rng.uniform(0, 1, n)]
    return xs


def _complex(name, rng, n=300):
    # the cut plane, and for RJ/RD the half plane where SciPy's algorithm is valid
    def one():
        r = 10.0 ** rng.uniform(-2, 2, n)
        phi = rng.uniform(-0.45, 0.45, n) * np.pi
        return r * np.exp(1j * phi)
    return [one() for _ in range(UFUNCS[name].nin)]


@pytest.mark.parametrize("name", _NAMES)
def test_real_values_float64(cp, name):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = _real(name, rng)
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*xs)
    got = UFUNCS[name](*[cp.asarray(x) for x in xs])
    assert got.dtype == np.float64 and got.shape == want.shape
    got = got.get()
    # the principal values (negative last argument) subtract terms of either sign
    pv = xs[-1] < 0
    rtol = 1e-9 if name == "betainccinv" else 1e-13
    np.testing.assert_allclose(got[~pv], want[~pv], rtol=rtol, atol=1e-300, equal_nan=True)
    np.testing.assert_allclose(got[pv], want[pv], rtol=1e-11, atol=1e-300, equal_nan=True)


_CARLSON = list(TABLE_CARLSON)


@pytest.mark.parametrize("name", _NAMES)
def test_real_values_float32(cp, name):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    xs = [x.astype(np.float32) for x in _real(name, rng, 100)]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*xs)
    assert want.dtype == np.float32
    if name == "betainccinv":
        # SciPy's float32 loop iterates in float32 (betainccinv(0.3, 0.3, 0.3) is 3e-7
        # off); ours computes in double and rounds once, as its float64 loop
        with np.errstate(all="ignore"):
            want = ss.betainccinv(*[x.astype(np.float64) for x in xs]).astype(np.float32)
    got = UFUNCS[name](*[cp.asarray(x) for x in xs])
    assert got.dtype == np.float32
    rtol = 2e-6
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-37, equal_nan=True)


@pytest.mark.parametrize("name", _CARLSON)
def test_complex_values(cp, name):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 2)
    xs = _complex(name, rng)
    want = getattr(ss, name)(*xs)
    got = UFUNCS[name](*[cp.asarray(x) for x in xs])
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got.get(), want, rtol=1e-13, atol=1e-300)
    got32 = UFUNCS[name](*[cp.asarray(x.astype(np.complex64)) for x in xs[:-1]],
                         cp.asarray(xs[-1][:].astype(np.complex64)))
    assert got32.dtype == np.complex64
    want32 = getattr(ss, name)(*[x.astype(np.complex64) for x in xs])
    np.testing.assert_allclose(got32.get(), want32, rtol=2e-6)


@pytest.mark.parametrize("name", _CARLSON)
def test_edges(cp, name):
    """Zeros, infinities, NaNs and negative arguments on a grid: SciPy's values."""
    vals = np.array([0.0, 0.5, 2.0, np.inf, np.nan, -1.0])
    grids = [g.ravel() for g in np.meshgrid(*([vals] * UFUNCS[name].nin))]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*grids)
    got = UFUNCS[name](*[cp.asarray(g) for g in grids]).get()
    special = ~np.isfinite(want) | (want == 0)
    np.testing.assert_array_equal(got[special], want[special],
                                  err_msg=str([g[special] for g in grids]))
    np.testing.assert_allclose(got[~special], want[~special], rtol=1e-12, atol=0,
                               err_msg=str([g[~special] for g in grids]))


@pytest.mark.parametrize("name", ["betaincc", "betainccinv"])
def test_beta_edges(cp, name):
    params = np.array([0.0, 0.5, 2.0, 30.0, np.inf, np.nan, -1.0])
    last = np.array([0.0, 1e-300, 0.25, 0.5, 1.0, 2.0, np.nan, -1.0])
    grids = [g.ravel() for g in np.meshgrid(params, params, last)]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*grids)
    got = UFUNCS[name](*[cp.asarray(g) for g in grids]).get()
    if name == "betainccinv":
        # SciPy's betainccinv(30, 2, 1e-300) is NaN: the answer rounds to 1 (ours)
        lost = (grids[0] == 30) & (grids[1] == 2) & (grids[2] == 1e-300)
        assert np.isnan(want[lost]).all() and (got[lost] == 1).all()
        want[lost] = 1.0
    special = ~np.isfinite(want) | (want == 0) | (want == 1)
    np.testing.assert_array_equal(got[special], want[special],
                                  err_msg=str([g[special] for g in grids]))
    np.testing.assert_allclose(got[~special], want[~special], rtol=1e-9, atol=1e-300,
                               err_msg=str([g[~special] for g in grids]))


def test_betaincc_upper_tail(cp):
    """Where betainc rounds to 1, betaincc keeps its relative accuracy (SciPy's values)."""
    a = np.array([2.0, 5.0, 0.5, 30.0, 100.0, 3.0])
    b = np.array([3.0, 1.5, 0.5, 30.0, 2.0, 200.0])
    x = np.array([0.9999, 0.99999, 1 - 1e-12, 0.9, 0.9999, 0.3])
    want = ss.betaincc(a, b, x)
    assert np.all(want < 1e-4)
    got = UFUNCS["betaincc"](cp.asarray(a), cp.asarray(b), cp.asarray(x)).get()
    np.testing.assert_allclose(got, want, rtol=1e-11)
    # and the inverse recovers x from those tiny tails
    back = UFUNCS["betainccinv"](cp.asarray(a), cp.asarray(b), cp.asarray(want)).get()
    np.testing.assert_allclose(back, x, rtol=1e-12)
    np.testing.assert_allclose(back, ss.betainccinv(a, b, want), rtol=1e-12)


def test_betainccinv_round_trip(cp):
    rng = np.random.default_rng(17)
    a, b = 10.0 ** rng.uniform(-1, 2, (2, 300))
    y = np.concatenate([rng.uniform(0, 1, 150), 10.0 ** rng.uniform(-12, -1, 150)])
    x = UFUNCS["betainccinv"](cp.asarray(a), cp.asarray(b), cp.asarray(y))
    xv = x.get()
    np.testing.assert_allclose(xv, ss.betainccinv(a, b, y), rtol=1e-9, atol=1e-300)
    back = UFUNCS["betaincc"](cp.asarray(a), cp.asarray(b), x).get()
    ok = (xv > 1e-3) & (xv < 0.999)
    assert ok.sum() > 150
    # y moves with x by the slope x f(x) / y: a few ulps of x times a, b and 1 / (1 - x)
    with np.errstate(divide="ignore"):
        scale = np.maximum(a, b) / (1 - xv)
    err = np.abs(back[ok] - y[ok]) / (y[ok] * scale[ok])
    assert err.max() < 1e-12, err.max()


def test_identities(cp):
    """The identities SciPy's tests check: symmetry, homogeneity, RF(x, y, y) = RC(x, y),
    RJ(x, y, z, z) = RD(x, y, z), the complete integrals K and E, and RG = (RF, RD)."""
    rng = np.random.default_rng(3)
    x, y, z, p = 10.0 ** rng.uniform(-3, 3, (4, 200))
    c = [cp.asarray(v) for v in (x, y, z, p)]
    rf, rd, rj, rc, rg = (UFUNCS[n] for n in ("elliprf", "elliprd", "elliprj", "elliprc",
                                              "elliprg"))
    f = rf(c[0], c[1], c[2]).get()
    for perm in itertools.permutations(range(3)):
        np.testing.assert_allclose(rf(*[c[k] for k in perm]).get(), f, rtol=1e-14)
        np.testing.assert_allclose(rg(*[c[k] for k in perm]).get(),
                                   rg(c[0], c[1], c[2]).get(), rtol=1e-14)
    np.testing.assert_allclose(rd(c[1], c[0], c[2]).get(), rd(c[0], c[1], c[2]).get(),
                               rtol=1e-14)
    np.testing.assert_allclose(rj(c[2], c[0], c[1], c[3]).get(),
                               rj(c[0], c[1], c[2], c[3]).get(), rtol=1e-14)
    # RF(l x, l y, l z) = RF(x, y, z) / sqrt(l)
    np.testing.assert_allclose(rf(4 * c[0], 4 * c[1], 4 * c[2]).get(), f / 2, rtol=1e-14)
    np.testing.assert_allclose(rf(c[0], c[1], c[1]).get(), rc(c[0], c[1]).get(), rtol=1e-14)
    np.testing.assert_allclose(rj(c[0], c[1], c[2], c[2]).get(), rd(c[0], c[1], c[2]).get(),
                               rtol=1e-14)
    # K(m) = RF(0, 1 - m, 1), E(m) = 2 RG(0, 1 - m, 1)
    m = rng.uniform(0, 1, 100)
    zero, one = cp.zeros(100), cp.ones(100)
    np.testing.assert_allclose(rf(zero, cp.asarray(1 - m), one).get(), ss.ellipk(m),
                               rtol=1e-14)
    np.testing.assert_allclose(2 * rg(zero, cp.asarray(1 - m), one).get(), ss.ellipe(m),
                               rtol=1e-14)
    assert rf(cp.asarray(1.0), cp.asarray(1.0), cp.asarray(1.0)).get() == 1.0
    np.testing.assert_allclose(rc(cp.asarray(0.0), cp.asarray(1.0)).get(), np.pi / 2,
                               rtol=1e-15)


def test_scalars_and_shapes(cp):
    """Python scalars and 0-d, empty and non-contiguous operands broadcast as SciPy's."""
    rng = np.random.default_rng(8)
    a = rng.uniform(0.1, 3, (4, 6))
    got = UFUNCS["elliprf"](cp.asarray(a)[:, ::2], 2.0, cp.asarray(np.float64(0.5)))
    np.testing.assert_allclose(got.get(), ss.elliprf(a[:, ::2], 2.0, 0.5), rtol=1e-14)
    assert got.shape == (4, 3)
    empty = UFUNCS["elliprc"](cp.zeros((0, 3)), 1.0)
    assert empty.shape == (0, 3) and empty.dtype == np.float64
    z = UFUNCS["elliprc"](1.0 + 1j, cp.asarray(np.float32(2.0)))
    np.testing.assert_allclose(z.get(), ss.elliprc(1.0 + 1j, np.float32(2.0)), rtol=1e-14)
    with pytest.raises(TypeError):
        UFUNCS["betaincc"](cp.asarray([1.0 + 1j]), 1.0, 0.5)


def test_extreme_magnitudes(cp):
    """Arguments near the ends of the double range: the duplication pulls them together
    without overflow (RF scales as 1 / sqrt, RD and RJ as 1 / x^(3/2), RG as sqrt)."""
    rng = np.random.default_rng(11)
    x, y, z, p = rng.uniform(0.5, 2, (4, 50))
    c = [cp.asarray(v) for v in (x, y, z, p)]
    for s in (1e-200, 1e200):
        cs = [v * s for v in c]
        np.testing.assert_allclose(UFUNCS["elliprf"](*cs[:3]).get(),
                                   ss.elliprf(x, y, z) / np.sqrt(s), rtol=1e-14)
        np.testing.assert_allclose(UFUNCS["elliprg"](*cs[:3]).get(),
                                   ss.elliprg(x, y, z) * np.sqrt(s), rtol=1e-14)
        np.testing.assert_allclose(UFUNCS["elliprc"](*cs[:2]).get(),
                                   ss.elliprc(x, y) / np.sqrt(s), rtol=1e-14)
    s = 1e-100
    cs = [v * s for v in c]
    np.testing.assert_allclose(UFUNCS["elliprd"](*cs[:3]).get(),
                               ss.elliprd(x, y, z) / s ** 1.5, rtol=1e-14)
    np.testing.assert_allclose(UFUNCS["elliprj"](*cs).get(),
                               ss.elliprj(x, y, z, p) / s ** 1.5, rtol=1e-14)
    # one argument 1e-300 next to ones of order 1 (a widely spread duplication)
    tiny = cp.asarray(np.full(50, 1e-300))
    np.testing.assert_allclose(UFUNCS["elliprf"](tiny, c[1], c[2]).get(),
                               ss.elliprf(0.0, y, z), rtol=1e-14)


@pytest.mark.parametrize("name", ["elliprc", "elliprf", "elliprd", "elliprg"])
def test_complex_edges(cp, name):
    """Complex zeros, infinities, NaNs and points on the negative real axis: SciPy's values
    (a NaN in either part stands for NaN)."""
    vals = np.array([0, 0.5, 2, -1, 1j, -1 - 1j, 0.5 + 2j, complex(np.inf, 0),
                     complex(np.nan, 0), complex(1, np.inf)])
    grids = [g.ravel() for g in np.meshgrid(*([vals] * UFUNCS[name].nin))]
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*grids)
    got = UFUNCS[name](*[cp.asarray(g) for g in grids]).get()
    nan_got, nan_want = np.isnan(got.real) | np.isnan(got.imag), np.isnan(want)
    np.testing.assert_array_equal(nan_got, nan_want)
    ok = ~nan_want
    np.testing.assert_array_equal(np.isinf(got[ok]), np.isinf(want[ok]))
    fin = ok & np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-12, atol=1e-300)
