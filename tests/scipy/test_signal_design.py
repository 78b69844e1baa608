"""cuarray.scipy.signal's IIR design and representation changes against scipy.signal
(GPU; host emulation with NumPy stand-ins elsewhere)."""
import numpy as np
import pytest
import scipy
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)


BANDS = [(0.3, "low"), (0.3, "high"), ([0.2, 0.5], "bandpass"), ([0.2, 0.5], "bandstop")]


@pytest.mark.parametrize("ft,args", [("butter", ()), ("cheby1", (1.0,)), ("cheby2", (40.0,))])
def test_iir_designs(xp, ft, args):
    from cuarray.scipy import signal as s
    for N in (1, 2, 3, 4, 5, 8):
        for Wn, bt in BANDS:
            msg = f"{ft} {N} {bt}"
            z, p, k = getattr(s, ft)(N, *args, Wn, btype=bt, output="zpk")
            wz, wp, wk = getattr(ss, ft)(N, *args, Wn, btype=bt, output="zpk")
            for g, w in ((z, wz), (p, wp)):
                np.testing.assert_allclose(np.sort_complex(xp.asnumpy(g)), np.sort_complex(w),
                                           rtol=1e-9, atol=1e-10, err_msg=msg)
            np.testing.assert_allclose(float(xp.asnumpy(k)), wk, rtol=1e-9)
            for g, w in zip(getattr(s, ft)(N, *args, Wn, btype=bt),
                            getattr(ss, ft)(N, *args, Wn, btype=bt)):
                assert xp.asnumpy(g).dtype == w.dtype, msg
                np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10, err_msg=msg)
            got = getattr(s, ft)(N, *args, Wn, btype=bt, output="sos")
            want = getattr(ss, ft)(N, *args, Wn, btype=bt, output="sos")
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-8, atol=1e-10,
                                       err_msg=msg)


def test_conversions(xp):
    from cuarray.scipy import signal as s
    b, a = ss.cheby1(4, 1.0, [0.2, 0.4], btype="bandpass")
    z, p, k = s.tf2zpk(xp.asarray(b), xp.asarray(a))
    wz, wp, wk = ss.tf2zpk(b, a)
    np.testing.assert_allclose(np.sort_complex(xp.asnumpy(p)), np.sort_complex(wp), atol=1e-8)
    # b's zeros are 4-fold at -1 and +1: any backward-stable root finder moves them by
    # about eps**(1/4) ~ 1e-4 (SciPy's own sit 6e-5 off), so they are checked by the
    # polynomial they rebuild and by a cluster-sized distance.
    zg = xp.asnumpy(z)
    np.testing.assert_allclose(np.sort_complex(zg), np.sort_complex(wz), atol=5e-4)
    np.testing.assert_allclose(float(xp.asnumpy(k)) * np.poly(zg).real, b, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(float(xp.asnumpy(k)), wk, rtol=1e-9)
    sos = ss.butter(5, 0.3, output="sos")
    for g, w in zip(s.sos2tf(xp.asarray(sos)), ss.sos2tf(sos)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-9, atol=1e-12)
    got, want = xp.asnumpy(s.tf2sos(xp.asarray(b), xp.asarray(a))), ss.tf2sos(b, a)
    # The poles are simple: tight. Splitting a 4-fold zero cluster into sections moves each
    # numerator by the clusters' spread; the sections' product is checked tightly instead.
    np.testing.assert_allclose(got[:, 3:], want[:, 3:], rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(got[:, :3], want[:, :3], rtol=0, atol=1e-3)
    for g, w in zip(ss.sos2tf(got), (b, a)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-12)
    for pairing in ("nearest", "keep_odd", "minimal"):
        z, p, k = ss.butter(5, 0.3, output="zpk")
        np.testing.assert_allclose(
            xp.asnumpy(s.zpk2sos(xp.asarray(z), xp.asarray(p), k, pairing=pairing)),
            ss.zpk2sos(z, p, k, pairing=pairing), rtol=1e-9, atol=1e-12)
    z, p, k = ss.butter(3, 2.0, analog=True, output="zpk")
    np.testing.assert_allclose(
        xp.asnumpy(s.zpk2sos(xp.asarray(z), xp.asarray(p), k, analog=True)),
        ss.zpk2sos(z, p, k, analog=True), rtol=1e-9, atol=1e-12)
    for f in ("iirnotch", "iirpeak"):
        for g, w in zip(getattr(s, f)(60.0, 30.0, fs=1000.0), getattr(ss, f)(60.0, 30.0,
                                                                            fs=1000.0)):
            np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-12)


def test_analog_and_transforms(xp):
    from cuarray.scipy import signal as s
    for N in (1, 4, 5):
        for bt, Wn in (("low", 2.0), ("high", 3.0), ("bandpass", [1.0, 4.0]),
                       ("bandstop", [1.0, 4.0])):
            got = s.butter(N, Wn, btype=bt, analog=True, output="zpk")
            want = ss.butter(N, Wn, btype=bt, analog=True, output="zpk")
            for g, w in zip(got[:2], want[:2]):
                np.testing.assert_allclose(np.sort_complex(xp.asnumpy(g)), np.sort_complex(w),
                                           rtol=1e-9, atol=1e-10)
            np.testing.assert_allclose(float(xp.asnumpy(got[2])), want[2], rtol=1e-9)
    for f, args in (("buttap", (4,)), ("cheb1ap", (5, 1.0)), ("cheb2ap", (4, 30.0))):
        got, want = getattr(s, f)(*args), getattr(ss, f)(*args)
        for g, w in zip(got[:2], want[:2]):
            np.testing.assert_allclose(np.sort_complex(xp.asnumpy(g)), np.sort_complex(w),
                                       rtol=1e-10, atol=1e-12)


def test_design_errors(xp):
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError):
        s.butter(4, 1.2)
    with pytest.raises(ValueError):
        s.butter(4, [0.5, 0.2], btype="bandpass")
    with pytest.raises(ValueError):
        s.iirfilter(4, 0.2, btype="bad")
    with pytest.raises(ValueError):
        s.iirfilter(4, 0.2, ftype="bad")
    with pytest.raises(ValueError):
        s.cheby1(4, None, 0.2)
    with pytest.raises(ValueError):
        s.zpk2sos([], [0.5], 1.0, pairing="bad")
    with pytest.raises(ValueError):
        s.iirnotch(600.0, 30.0, fs=1000.0)


def test_decimate_iir(xp):
    from cuarray.scipy import signal as s
    x = np.random.default_rng(7).standard_normal((2, 600))
    for kw in ({}, {"zero_phase": False}, {"n": 4}):
        np.testing.assert_allclose(xp.asnumpy(s.decimate(xp.asarray(x), 3, **kw)),
                                   ss.decimate(x, 3, **kw), rtol=1e-7, atol=1e-9)


def test_tf_transforms(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(3, 1.0, analog=True)
    b2, a2 = ss.cheby1(2, 1.0, 1.0, analog=True)
    for bb, aa in ((b, a), (b2, a2), ([1.0, 2.0], [1.0, 3.0, 2.0])):
        cases = [("lp2lp", {"wo": 2.5}), ("lp2hp", {"wo": 2.5}),
                 ("lp2bp", {"wo": 2.0, "bw": 0.5}), ("lp2bs", {"wo": 2.0, "bw": 0.5}),
                 ("bilinear", {"fs": 10.0})]
        for f, kw in cases:
            got = getattr(s, f)(xp.asarray(np.asarray(bb)), xp.asarray(np.asarray(aa)), **kw)
            want = getattr(ss, f)(bb, aa, **kw)
            for g, w in zip(got, want):
                np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-9, atol=1e-12,
                                           err_msg=f)
    with pytest.warns(s.BadCoefficients):
        got = s.normalize(xp.asarray(np.array([0.0, 2.0, 4.0])),
                          xp.asarray(np.array([0, 2.0, 1])))
    with pytest.warns(ss.BadCoefficients):
        want = ss.normalize([0.0, 2.0, 4.0], [0, 2.0, 1])
    for g, w in zip(got, want):
        np.testing.assert_allclose(xp.asnumpy(g), w)


def test_iircomb_firwin2(xp):
    from cuarray.scipy import signal as s
    for ftype in ("notch", "peak"):
        for pz in (False, True):
            got = s.iircomb(50.0, 30.0, ftype=ftype, fs=1000.0, pass_zero=pz)
            want = ss.iircomb(50.0, 30.0, ftype=ftype, fs=1000.0, pass_zero=pz)
            for g, w in zip(got, want):
                np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-12, atol=1e-15)
    for n, fr, g, kw in [(51, [0, 0.3, 0.5, 1.0], [1, 1, 0, 0], {}),
                         (50, [0, 0.3, 0.3, 1.0], [1, 1, 0, 0], {}),
                         (31, [0, 0.5, 1.0], [0, 1, 0], {"antisymmetric": True}),
                         (30, [0, 0.5, 1.0], [0, 1, 1], {"antisymmetric": True}),
                         (21, [0, 100, 250, 500], [1, 1, 0, 0],
                          {"fs": 1000.0, "window": None, "nfreqs": 257})]:
        np.testing.assert_allclose(xp.asnumpy(s.firwin2(n, fr, g, **kw)),
                                   ss.firwin2(n, fr, g, **kw), rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError):
        s.firwin2(50, [0, 0.5, 1.0], [1, 1, 1])


@pytest.mark.parametrize("f", ["buttord", "cheb1ord", "cheb2ord"])
def test_order_selection(xp, f):
    from cuarray.scipy import signal as s
    cases = [(0.2, 0.3, 3, 40, {}), (0.3, 0.2, 1, 60, {}), ([0.2, 0.5], [0.1, 0.6], 3, 40, {}),
             ([0.1, 0.6], [0.2, 0.5], 3, 40, {}), (100, 150, 1, 40, {"fs": 1000.0}),
             (2.0, 3.0, 3, 40, {"analog": True})]
    for wp, ws, gp, gs, kw in cases:
        n, wn = getattr(s, f)(wp, ws, gp, gs, **kw)
        wn_ref = getattr(ss, f)(wp, ws, gp, gs, **kw)
        assert n == wn_ref[0], (wp, ws)
        # SciPy's bounded minimiser stops at xtol 1e-5 for band-stop specifications
        np.testing.assert_allclose(xp.asnumpy(wn), wn_ref[1], rtol=1e-4, err_msg=str(wp))
    with pytest.raises(ValueError):
        getattr(s, f)(0.2, 0.3, 0, 40)


# SciPy 1.18 weights the cepstrum's middle bin 1 for an even n_fft (1.17: 0) and 2 for an
# odd one (1.17: 1); cuarray follows 1.18, so older SciPy is replaced by this reference.
_MINPHASE_118 = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 18)


def _homomorphic_118(h, n_fft=None, half=True):
    n = h.shape[0]
    if n_fft is None:
        n_fft = 2 ** int(np.ceil(np.log2(2 * (n - 1) / 0.01)))
    mag = np.abs(np.fft.fft(h, n_fft))
    logmag = np.log(mag + 1e-7 * mag[mag > 0].min()) * (0.5 if half else 1.0)
    ceps = np.fft.ifft(logmag).real
    fold = np.zeros(n_fft)
    fold[0] = 1
    fold[1:n_fft // 2] = 2
    fold[n_fft // 2] = 1 + n_fft % 2
    out = np.fft.ifft(np.exp(np.fft.fft(ceps * fold))).real
    return out[:n // 2 + n % 2] if half else out[:n]


def test_minimum_phase_and_findfreqs(xp):
    from cuarray.scipy import signal as s
    h = ss.firwin(31, 0.3)
    for kw in ({}, {"method": "hilbert"}, {"half": False}, {"n_fft": 4096}, {"n_fft": 4095}):
        if _MINPHASE_118 and kw.get("method") == "hilbert":
            # SciPy 1.18's hilbert method answers up to 1% away from 1.17's, which cuarray
            # follows (an open difference, docs/NOTES.md); checked against 1.17 only
            continue
        if _MINPHASE_118 or kw.get("method") == "hilbert":
            want = ss.minimum_phase(h, **kw)
        else:
            want = _homomorphic_118(h, **kw)
        np.testing.assert_allclose(xp.asnumpy(s.minimum_phase(xp.asarray(h), **kw)),
                                   want, rtol=1e-7, atol=1e-10, err_msg=str(kw))
    with pytest.raises(ValueError):
        s.minimum_phase(xp.asarray(h), method="bad")
    b, a = ss.butter(3, 2.0, analog=True)
    np.testing.assert_allclose(xp.asnumpy(s.findfreqs(xp.asarray(b), xp.asarray(a), 20)),
                               ss.findfreqs(b, a, 20))


def test_state_space(xp):
    from cuarray.scipy import signal as s
    for b, a in (ss.butter(3, 0.3), ([1.0, 3.0, 3.0], [1.0, 2.0, 1.0]), ([2.0], [1.0, 0.5])):
        got = s.tf2ss(xp.asarray(np.asarray(b)), xp.asarray(np.asarray(a)))
        want = ss.tf2ss(b, a)
        for g, w in zip(got, want):
            np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-10, atol=1e-12)
        num, den = s.ss2tf(*[xp.asarray(m) for m in want])
        wnum, wden = ss.ss2tf(*want)
        np.testing.assert_allclose(xp.asnumpy(num), wnum, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(xp.asnumpy(den), wden, rtol=1e-7, atol=1e-9)
    z, p, k = ss.butter(2, 0.4, output="zpk")
    for g, w in zip(s.zpk2ss(xp.asarray(z), xp.asarray(p), k), ss.zpk2ss(z, p, k)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-9, atol=1e-12)
    A, B, C, D = ss.zpk2ss(z, p, k)
    gz, gp, gk = s.ss2zpk(*[xp.asarray(m) for m in (A, B, C, D)])
    wz, wp, wk = ss.ss2zpk(A, B, C, D)
    np.testing.assert_allclose(np.sort_complex(xp.asnumpy(gp)), np.sort_complex(wp), atol=1e-8)
    np.testing.assert_allclose(float(xp.asnumpy(gk)), wk, rtol=1e-8)
    for g, w in zip(s.abcd_normalize(A=np.eye(2), D=np.ones((1, 1)) * 2),
                    ss.abcd_normalize(A=np.eye(2), D=np.ones((1, 1)) * 2)):
        np.testing.assert_allclose(xp.asnumpy(g), w)
    with pytest.raises(ValueError):
        s.abcd_normalize(A=np.eye(2))


@pytest.mark.parametrize("norm", ["phase", "delay"])
def test_bessel(xp, norm):
    from cuarray.scipy import signal as s
    for N in (1, 2, 4, 7):
        z, p, k = s.besselap(N, norm=norm)
        wz, wp, wk = ss.besselap(N, norm=norm)
        np.testing.assert_allclose(np.sort_complex(xp.asnumpy(p)), np.sort_complex(wp),
                                   rtol=1e-8, atol=1e-10)
        np.testing.assert_allclose(float(xp.asnumpy(k)), wk, rtol=1e-10)
        for Wn, bt in BANDS:
            got = s.bessel(N, Wn, btype=bt, norm=norm, output="sos")
            want = ss.bessel(N, Wn, btype=bt, norm=norm, output="sos")
            np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-7, atol=1e-9)
        for g, w in zip(s.bessel(N, 2.0, analog=True, norm=norm),
                        ss.bessel(N, 2.0, analog=True, norm=norm)):
            np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError):
        s.besselap(3, norm="bad")


def test_band_stop_obj():
    from cuarray.scipy import signal as s
    passb, stopb = np.array([0.2, 0.7]), np.array([0.3, 0.5])
    for kind in ("butter", "cheby", "ellip"):
        for ind, wp in ((0, 0.25), (1, 0.6)):
            assert np.isclose(s.band_stop_obj(wp, ind, passb, stopb, 1, 40, kind),
                              ss.band_stop_obj(wp, ind, passb, stopb, 1, 40, kind),
                              rtol=1e-12)
    with pytest.raises(ValueError):
        s.band_stop_obj(0.25, 0, passb, stopb, 1, 40, "bad")


def test_elliptic(xp):
    from cuarray.scipy import signal as s
    for N in (1, 2, 3, 4, 5, 6):
        for rp, rs in ((1.0, 40.0), (0.1, 60.0)):
            z, p, k = s.ellipap(N, rp, rs)
            wz, wp, wk = ss.ellipap(N, rp, rs)
            # SciPy's first-order prototype has a 0-d pole array; cuarray's is 1-d.
            for g, w in ((p, wp), (z, wz)):
                np.testing.assert_allclose(np.sort_complex(xp.asnumpy(g)),
                                           np.sort_complex(np.atleast_1d(w)),
                                           rtol=1e-9, atol=1e-11)
            np.testing.assert_allclose(float(xp.asnumpy(k)), wk, rtol=1e-9)
            for Wn, bt in BANDS:
                got = s.ellip(N, rp, rs, Wn, btype=bt, output="sos")
                want = ss.ellip(N, rp, rs, Wn, btype=bt, output="sos")
                np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-7, atol=1e-9,
                                           err_msg=f"{N} {rp} {rs} {bt}")
    cases = [(0.2, 0.3, 3, 40, {}), (0.3, 0.2, 1, 60, {}), ([0.2, 0.5], [0.1, 0.6], 3, 40, {}),
             ([0.1, 0.6], [0.2, 0.5], 3, 40, {}), (2.0, 3.0, 3, 40, {"analog": True})]
    for wp, ws, gp, gs, kw in cases:
        n, wn = s.ellipord(wp, ws, gp, gs, **kw)
        wn_ref = ss.ellipord(wp, ws, gp, gs, **kw)
        assert n == wn_ref[0]
        np.testing.assert_allclose(xp.asnumpy(wn), wn_ref[1], rtol=1e-4)
    with pytest.raises(ValueError):
        s.ellip(3, None, 40, 0.3)


@pytest.mark.parametrize("ftype", ["ellip", "butter", "cheby1", "cheby2"])
def test_iirdesign(xp, ftype):
    from cuarray.scipy import signal as s
    for wp, ws in ((0.2, 0.3), (0.3, 0.2), ([0.2, 0.5], [0.1, 0.6])):
        got = s.iirdesign(wp, ws, 1, 40, ftype=ftype, output="sos")
        want = ss.iirdesign(wp, ws, 1, 40, ftype=ftype, output="sos")
        assert got.shape == want.shape
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError):
        s.iirdesign(0.2, 0.3, 1, 40, ftype="bessel")
    with pytest.raises(ValueError):
        s.iirdesign([0.2, 0.5], [0.3, 0.6], 1, 40, ftype=ftype)


def test_firls(xp):
    from cuarray.scipy import signal as s
    cases = [(31, [0, 0.3, 0.4, 1.0], [1, 1, 0, 0], {}),
             (41, [0, 0.2, 0.3, 0.6, 0.7, 1.0], [0, 0, 1, 1, 0, 0], {"weight": [1, 2, 1]}),
             (21, [0, 100, 150, 500], [1, 0.5, 0, 0], {"fs": 1000.0})]
    for n, bands, desired, kw in cases:
        np.testing.assert_allclose(xp.asnumpy(s.firls(n, bands, desired, **kw)),
                                   ss.firls(n, bands, desired, **kw), rtol=1e-7, atol=1e-10)
    with pytest.raises(ValueError):
        s.firls(30, [0, 0.3, 0.4, 1.0], [1, 1, 0, 0])


@pytest.mark.parametrize("n", [10, 70, 300, 70000])
def test_dlsim_tf(xp, n):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(n)
    b, a = ss.butter(3, 0.3)
    u = rng.standard_normal(n)
    t, y = s.dlsim((xp.asarray(b), xp.asarray(a), 0.1), xp.asarray(u))
    wt, wy = ss.dlsim((b, a, 0.1), u)
    np.testing.assert_allclose(xp.asnumpy(t), wt, rtol=1e-12)
    np.testing.assert_allclose(xp.asnumpy(y), wy, rtol=1e-8, atol=1e-10)


def test_dlsim_state_space_and_responses(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(13)
    A = np.array([[0.5, 0.1], [-0.2, 0.8]])
    B = np.array([[1.0, 0.0], [0.5, 1.0]])
    C = np.array([[1.0, -1.0]])
    D = np.array([[0.0, 0.1]])
    u = rng.standard_normal((500, 2))
    got = s.dlsim((A, B, C, D, 0.5), xp.asarray(u), x0=[1.0, -2.0])
    want = ss.dlsim((A, B, C, D, 0.5), u, x0=[1.0, -2.0])
    for g, w in zip(got, want):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    b, a = ss.butter(3, 0.3)
    tt = np.arange(0, 20, 0.3)
    ut = rng.standard_normal(tt.size)
    for g, w in zip(s.dlsim((b, a, 0.5), xp.asarray(ut), t=tt), ss.dlsim((b, a, 0.5), ut, t=tt)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    z, p, k = ss.butter(2, 0.2, output="zpk")
    got = s.dlsim((z, p, k, 1.0), xp.asarray(ut))[1]
    np.testing.assert_allclose(xp.asnumpy(got), ss.dlsim((z, p, k, 1.0), ut)[1], rtol=1e-8,
                               atol=1e-10)
    for f in ("dimpulse", "dstep"):
        for system, n in (((b, a, 0.1), 50), ((A, B, C, D, 0.5), 30)):
            g = getattr(s, f)(system, n=n)
            w = getattr(ss, f)(system, n=n)
            np.testing.assert_allclose(xp.asnumpy(g[0]), w[0])
            for gi, wi in zip(g[1], w[1]):
                np.testing.assert_allclose(xp.asnumpy(gi), wi, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError):
        s.dlsim((b, 0.1), xp.asarray(ut))


def test_system_frequency_responses(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(3, 0.3)
    z, p, k = ss.butter(3, 0.3, output="zpk")
    A, B, C, D = ss.tf2ss(b, a)
    for system in ((b, a, 0.1), (z, p, k, 0.1), (A, B, C, D, 0.1)):
        for kw in ({"n": 64}, {"w": np.linspace(0.1, 3.0, 9)}, {"n": 40, "whole": True}):
            g = s.dfreqresp(system, **kw)
            w = ss.dfreqresp(system, **kw)
            for gi, wi in zip(g, w):
                np.testing.assert_allclose(xp.asnumpy(gi), wi, rtol=1e-8, atol=1e-10)
        for gi, wi in zip(s.dbode(system, n=50), ss.dbode(system, n=50)):
            np.testing.assert_allclose(xp.asnumpy(gi), wi, rtol=1e-7, atol=1e-8)
    ba, aa = ss.butter(3, 2.0, analog=True)
    za, pa, ka = ss.butter(3, 2.0, analog=True, output="zpk")
    grid = np.logspace(-1, 1, 20)
    for system in ((ba, aa), (za, pa, ka)):
        for gi, wi in zip(s.freqresp(system, w=grid), ss.freqresp(system, w=grid)):
            np.testing.assert_allclose(xp.asnumpy(gi), wi, rtol=1e-8, atol=1e-10)
        for gi, wi in zip(s.bode(system, w=grid), ss.bode(system, w=grid)):
            np.testing.assert_allclose(xp.asnumpy(gi), wi, rtol=1e-7, atol=1e-8)


def test_lsim_step_impulse(xp):
    from cuarray.scipy import signal as s
    rng = np.random.default_rng(14)
    ba, aa = ss.butter(3, 2.0, analog=True)
    A = np.array([[-1.0, 0.5], [-0.5, -2.0]])
    B = np.array([[1.0], [0.3]])
    C = np.array([[1.0, 2.0]])
    D = np.array([[0.1]])
    T = np.linspace(0, 5, 400)
    U = rng.standard_normal(400)
    for system in ((ba, aa), (A, B, C, D)):
        for interp in (True, False):
            got = s.lsim(system, xp.asarray(U), T, interp=interp)
            want = ss.lsim(system, U, T, interp=interp)
            for g, w in zip(got, want):
                np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-7, atol=1e-9)
        got = s.lsim(system, None, T + 0.5, X0=np.ones(len(want[2][0])))
        want = ss.lsim(system, None, T + 0.5, X0=np.ones(len(want[2][0])))
        for g, w in zip(got, want):
            np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-7, atol=1e-9)
        for f in ("impulse", "step"):
            for kw in ({}, {"N": 50}, {"T": T[:100]}):
                got = getattr(s, f)(system, **kw)
                want = getattr(ss, f)(system, **kw)
                for g, w in zip(got, want):
                    np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-7, atol=1e-9)
    with pytest.raises(ValueError):
        s.lsim((ba, aa), xp.asarray(U[:10]), T)


@pytest.mark.parametrize("method,alpha", [("zoh", None), ("foh", None), ("bilinear", None),
                                          ("euler", None), ("backward_diff", None),
                                          ("gbt", 0.3), ("impulse", None)])
def test_cont2discrete(xp, method, alpha):
    from cuarray.scipy import signal as s
    A = np.array([[-1.0, 0.5], [-0.5, -2.0]])
    B = np.array([[1.0], [0.3]])
    C = np.array([[1.0, 2.0]])
    D = np.array([[0.0]])
    got = s.cont2discrete((A, B, C, D), 0.1, method=method, alpha=alpha)
    want = ss.cont2discrete((A, B, C, D), 0.1, method=method, alpha=alpha)
    for g, w in zip(got[:4], want[:4]):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-9, atol=1e-12)
    assert got[4] == want[4]
    b, a = ss.butter(2, 3.0, analog=True)
    got = s.cont2discrete((b, a), 0.05, method=method, alpha=alpha)
    want = ss.cont2discrete((b, a), 0.05, method=method, alpha=alpha)
    for g, w in zip(got[:2], want[:2]):
        np.testing.assert_allclose(np.squeeze(xp.asnumpy(g)), np.squeeze(w), rtol=1e-7,
                                   atol=1e-10)
    with pytest.raises(ValueError):
        s.cont2discrete((A, B, C, D), 0.1, method="bad")


@pytest.mark.filterwarnings("ignore::UserWarning")  # both libraries' BadCoefficients
def test_lti_classes(xp):
    from cuarray.scipy import signal as s
    b, a = ss.butter(2, 3.0, analog=True)
    sys_c = s.lti(b, a)
    ref_c = ss.lti(b, a)
    assert isinstance(sys_c, s.TransferFunction) and isinstance(sys_c, s.lti)
    np.testing.assert_allclose(xp.asnumpy(sys_c.num), ref_c.num)
    np.testing.assert_allclose(xp.asnumpy(sys_c.den), ref_c.den)
    np.testing.assert_allclose(np.sort_complex(xp.asnumpy(sys_c.poles)),
                               np.sort_complex(ref_c.poles), rtol=1e-9)
    T = np.linspace(0, 4, 200)
    for f in ("impulse", "step"):
        for g, w in zip(getattr(sys_c, f)(T=T), getattr(ref_c, f)(T=T)):
            np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-7, atol=1e-9)
    zpk = sys_c.to_zpk()
    assert isinstance(zpk, s.ZerosPolesGain)
    np.testing.assert_allclose(float(xp.asnumpy(zpk.gain)), ref_c.to_zpk().gain, rtol=1e-9)
    ssys = sys_c.to_ss()
    for g, w in zip((ssys.A, ssys.B, ssys.C, ssys.D), (ref_c.to_ss().A, ref_c.to_ss().B,
                                                          ref_c.to_ss().C, ref_c.to_ss().D)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-9, atol=1e-12)
    d = sys_c.to_discrete(0.05)
    rd = ref_c.to_discrete(0.05)
    assert isinstance(d, s.dlti) and d.dt == rd.dt
    np.testing.assert_allclose(xp.asnumpy(d.num).ravel(), rd.num.ravel(), rtol=1e-8,
                               atol=1e-12)
    sys_d = s.dlti(*ss.butter(2, 0.3), dt=0.1)
    ref_d = ss.dlti(*ss.butter(2, 0.3), dt=0.1)
    u = np.random.default_rng(15).standard_normal(100)
    for g, w in zip(sys_d.output(xp.asarray(u), None), ref_d.output(u, None)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    for g, w in zip(s.dlsim(sys_d, xp.asarray(u)), ss.dlsim(ref_d, u)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    for g, w in zip(sys_d.freqresp(n=32), ref_d.freqresp(n=32)):
        np.testing.assert_allclose(xp.asnumpy(g), w, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError):
        s.lti(1.0)
