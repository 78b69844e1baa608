"""cuarray.scipy.signal's partial fraction expansion (residue, residuez, invres, invresz,
unique_roots) against scipy.signal (GPU; host emulation with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


def _sorted(v):
    # rounded keys: conjugates whose real parts differ in the last bits still pair up
    v = np.asarray(v, dtype=complex)
    return v[np.lexsort((np.round(v.imag, 6), np.round(v.real, 6)))]


@pytest.mark.parametrize("rtype", ["min", "max", "avg", "mean", "maximum", "minimum"])
def test_unique_roots(xp, rtype):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(5)
    base = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    p = np.concatenate([base, base[:3] + 1e-4, base[1:2] - 2e-4j])
    got_u, got_m = s.unique_roots(xp.asarray(p), tol=1e-3, rtype=rtype)
    want_u, want_m = ss.unique_roots(p, tol=1e-3, rtype=rtype)
    np.testing.assert_allclose(xp.asnumpy(got_u), want_u, rtol=1e-12)
    np.testing.assert_array_equal(xp.asnumpy(got_m), want_m)
    assert xp.asnumpy(got_u).dtype == want_u.dtype
    assert xp.asnumpy(got_m).dtype == want_m.dtype


@pytest.mark.parametrize("p,rtype", [([2, 3, 2.0005, 3, 7], "min"), ([1, 1, 4, 1], "avg"),
                                     ([3, 1, 3, 2], "max"), ([5.0], "min")])
def test_unique_roots_real(xp, p, rtype):
    from cuarray.scipy import signal as s
    for dt in (np.float32, np.float64, np.int64):
        pa = np.asarray(p).astype(dt) if dt is not np.int64 else np.rint(p).astype(dt)
        got_u, got_m = s.unique_roots(xp.asarray(pa), tol=1e-2, rtype=rtype)
        want_u, want_m = ss.unique_roots(pa, tol=1e-2, rtype=rtype)
        np.testing.assert_allclose(xp.asnumpy(got_u), want_u, rtol=1e-6)
        np.testing.assert_array_equal(xp.asnumpy(got_m), want_m)
        assert xp.asnumpy(got_u).dtype == want_u.dtype, (dt, rtype)


def test_unique_roots_empty_and_bad_rtype(xp):
    from cuarray.scipy import signal as s
    u, m = s.unique_roots(xp.asarray(np.zeros(0)))
    assert u.shape == (0,) and m.shape == (0,)
    with pytest.raises(ValueError, match="rtype"):
        s.unique_roots(xp.asarray([1.0, 2.0]), rtype="median")


CASES = [
    ([1, 2], [1, 3, 2]),                      # simple real poles
    ([1, 0, 1], [1, 2, 1]),                   # double pole, improper
    ([2, 1, 3], [1, -2, 2, 0]),               # complex pair and a zero pole
    ([1, 2, 3, 4, 5], [1, 3, 2]),             # direct term of degree 2
    ([1], [1, 3, 3, 1]),                      # triple pole
    ([0.5, -1], [1, 1, 0.25, 0]),             # double pole at -0.5 and one at 0
    ([1, 1j], [1, -1j, 2]),                   # complex coefficients
]


@pytest.mark.parametrize("b,a", CASES)
def test_residue_and_invres(xp, b, a):
    from cuarray.scipy import signal as s
    r, p, k = s.residue(xp.asarray(np.asarray(b)), xp.asarray(np.asarray(a)))
    wr, wp, wk = ss.residue(b, a)
    np.testing.assert_allclose(xp.asnumpy(p), wp, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(xp.asnumpy(r), wr, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(xp.asnumpy(k), wk, rtol=1e-10, atol=1e-12)
    assert xp.asnumpy(r).dtype == wr.dtype and xp.asnumpy(k).dtype == wk.dtype
    nb, na = s.invres(r, p, k)
    wb, wa = ss.invres(wr, wp, wk)
    np.testing.assert_allclose(xp.asnumpy(nb), wb, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(xp.asnumpy(na), wa, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("b,a", CASES)
def test_residuez_and_invresz(xp, b, a):
    from cuarray.scipy import signal as s
    if a[0] == 0 or a[-1] == 0:
        a = a[:-1] + [0.5] if a[-1] == 0 else a
    r, p, k = s.residuez(xp.asarray(np.asarray(b)), xp.asarray(np.asarray(a)))
    wr, wp, wk = ss.residuez(b, a)
    np.testing.assert_allclose(xp.asnumpy(p), wp, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(xp.asnumpy(r), wr, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(xp.asnumpy(k), wk, rtol=1e-10, atol=1e-12)
    assert xp.asnumpy(r).dtype == wr.dtype
    nb, na = s.invresz(r, p, k)
    wb, wa = ss.invresz(wr, wp, wk)
    np.testing.assert_allclose(xp.asnumpy(nb), wb, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(xp.asnumpy(na), wa, rtol=1e-6, atol=1e-8)


def test_residue_random(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(11)
    for n in (1, 3, 6):
        b = rng.standard_normal(n)
        a = np.concatenate([[1.0], rng.standard_normal(n)])
        for f, w in ((s.residue, ss.residue), (s.residuez, ss.residuez)):
            got = f(xp.asarray(b), xp.asarray(a))
            want = w(b, a)
            for g, ww in zip(got, want):
                np.testing.assert_allclose(_sorted(xp.asnumpy(g)), _sorted(ww),
                                           rtol=1e-6, atol=1e-9)


def test_residue_errors(xp):
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match="zero"):
        s.residue(xp.asarray([1.0]), xp.asarray([0.0, 0.0]))
    with pytest.raises(ValueError, match="zero"):
        s.residuez(xp.asarray([1.0]), xp.asarray([0.0]))
    with pytest.raises(ValueError, match="non-zero"):
        s.residuez(xp.asarray([1.0]), xp.asarray([0.0, 1.0]))
    with pytest.raises(ValueError, match="rtype"):
        s.residue(xp.asarray([1.0]), xp.asarray([1.0, 2.0]), rtype="x")
    with pytest.raises(ValueError, match="rtype"):
        s.invres(xp.asarray([1.0]), xp.asarray([1.0]), xp.asarray([]), rtype="x")


def test_residue_zero_numerator(xp):
    from cuarray.scipy import signal as s
    r, p, k = s.residue(xp.asarray([0.0]), xp.asarray([1.0, 3.0, 2.0]))
    wr, wp, wk = ss.residue([0.0], [1.0, 3.0, 2.0])
    np.testing.assert_allclose(xp.asnumpy(r), wr)
    np.testing.assert_allclose(xp.asnumpy(p), wp)
    assert xp.asnumpy(k).shape == wk.shape == (0,)
