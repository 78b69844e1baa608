"""StateSpace arithmetic of cuarray.scipy.signal against scipy.signal (GPU; host emulation
with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy.signal as ss

import emulation
import signal_standins


@pytest.fixture(params=emulation.BACKENDS)
def xp(request, monkeypatch):
    cp = emulation.backend(request, monkeypatch)
    if request.param == "emu":
        signal_standins.standins(monkeypatch)
        monkeypatch.setattr(cp, "dot", signal_standins._wrap(np.dot))
    return cp


def _systems(xp, dt=None):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(7)
    m1 = [rng.standard_normal(sh) for sh in ((3, 3), (3, 2), (2, 3), (2, 2))]
    m2 = [rng.standard_normal(sh) for sh in ((2, 2), (2, 2), (2, 2), (2, 2))]
    kw = {} if dt is None else {"dt": dt}
    got = [s.StateSpace(*(xp.asarray(m) for m in ms), **kw) for ms in (m1, m2)]
    want = [ss.StateSpace(*ms, **kw) for ms in (m1, m2)]
    return got, want


def _same(xp, g, w):
    assert type(g).__name__ == type(w).__name__
    assert g.dt == w.dt
    for name in "ABCD":
        gm, wm = xp.asnumpy(getattr(g, name)), getattr(w, name)
        assert gm.dtype == wm.dtype, name
        np.testing.assert_allclose(gm, wm, rtol=1e-12, atol=1e-14, err_msg=name)


@pytest.mark.parametrize("dt", [None, 0.1])
def test_system_products_and_sums(xp, dt):
    (g1, g2), (w1, w2) = _systems(xp, dt)
    _same(xp, g1 * g2, w1 * w2)
    _same(xp, g2 + g2, w2 + w2)
    _same(xp, g2 - g2, w2 - w2)
    _same(xp, -g1, -w1)


def test_scalars_and_matrices(xp):
    (g1, g2), (w1, w2) = _systems(xp)
    _same(xp, g1 * 2.5, w1 * 2.5)
    _same(xp, 3 * g1, 3 * w1)
    _same(xp, g1 / 4, w1 / 4)
    from cuarray.scipy import signal as s
    A, B, C, D = w1.A, w1.B[:, :1], w1.C[:1], w1.D[:1, :1]
    siso = s.StateSpace(*(xp.asarray(m) for m in (A, B, C, D)))
    wsiso = ss.StateSpace(A, B, C, D)
    _same(xp, siso + 1.5, wsiso + 1.5)
    _same(xp, 1.5 - siso, 1.5 - wsiso)
    _same(xp, siso - 2, wsiso - 2)
    k = np.array([[1.0, 2.0], [0.5, -1.0]])
    _same(xp, g1 * k, w1 * k)
    _same(xp, g1 * xp.asarray(k), w1 * k)
    _same(xp, xp.asarray(k) * g1, k * w1)
    _same(xp, g2 + xp.asarray(k), w2 + k)
    _same(xp, g1 * (1 + 2j), w1 * (1 + 2j))


def test_errors(xp):
    (g1, g2), (w1, w2) = _systems(xp)
    from cuarray.scipy import signal as s
    d = s.StateSpace(g2.A, g2.B, g2.C, g2.D, dt=0.1)
    with pytest.raises(TypeError):
        g1 * d
    with pytest.raises(TypeError, match="Cannot add"):
        g2 + d
    d2 = s.StateSpace(g2.A, g2.B, g2.C, g2.D, dt=0.2)
    with pytest.raises(TypeError, match="different `dt`"):
        d * d2
    with pytest.raises(TypeError, match="different `dt`"):
        d + d2
    with pytest.raises(ValueError, match="incompatible dimensions"):
        g1 + np.ones((3, 3))
    with pytest.raises(ValueError, match="non-scalar"):
        g1 / xp.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        g1 / g2
    with pytest.raises(TypeError):
        g1 * "x"
    with pytest.raises(TypeError):
        ss.StateSpace(w1.A, w1.B, w1.C, w1.D) / w2
