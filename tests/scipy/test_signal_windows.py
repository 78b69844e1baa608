"""cuarray.scipy.signal.windows against scipy.signal.windows: every window, symmetric and
periodic, lengths 0..17 (GPU, and the host emulation where no FFT is needed)."""
import numpy as np
import pytest
import scipy.signal.windows as sw

from signal_standins import xp  # noqa: F401  (fixture)

PLAIN = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall", "blackmanharris",
         "flattop", "bartlett", "barthann", "hamming", "hann", "cosine", "lanczos"]
WITH_ARGS = [("kaiser", (3.0,)), ("kaiser", (0.0,)), ("gaussian", (2.5,)),
             ("general_gaussian", (1.5, 2.0)), ("tukey", (0.3,)), ("tukey", (1.0,)),
             ("tukey", (0.0,)), ("taylor", ()), ("taylor", (5, 40, False)),
             ("exponential", ()), ("exponential", (None, 3.0)), ("general_hamming", (0.6,)),
             ("general_cosine", ([0.5, 0.3, 0.2],))]
LENGTHS = [0, 1, 2, 5, 8, 17]


@pytest.mark.parametrize("sym", [True, False])
def test_windows_match_scipy(cp, sym):
    from cuarray.scipy.signal import windows as w
    for M in LENGTHS:
        for n in PLAIN:
            got = getattr(w, n)(M, sym=sym)
            want = getattr(sw, n)(M, sym=sym)
            assert got.dtype == want.dtype and got.shape == want.shape, (n, M)
            np.testing.assert_allclose(cp.asnumpy(got), want, atol=1e-14, err_msg=f"{n} {M}")
        for n, args in WITH_ARGS:
            got = cp.asnumpy(getattr(w, n)(M, *args, sym=sym))
            want = getattr(sw, n)(M, *args, sym=sym)
            np.testing.assert_allclose(got, want, atol=1e-13, err_msg=f"{n}{args} {M}")


def test_exponential_periodic_center(cp):
    from cuarray.scipy.signal import windows as w
    got = w.exponential(9, center=2.0, tau=2.0, sym=False)
    np.testing.assert_allclose(cp.asnumpy(got), sw.exponential(9, 2.0, 2.0, sym=False))
    with pytest.raises(ValueError, match="center must be None"):
        w.exponential(9, center=2.0)


def test_get_window_names_and_errors(cp):
    from cuarray.scipy.signal import windows as w
    from cuarray.scipy.signal import get_window
    cases = ["hann", "hamm", "tri", "box", "bartlett_symmetric", "hann_periodic",
             ("tukey", 0.25), ("kaiser", 5.0), 6.5, ("gaussian", 1.2), "taylor",
             ("general_gaussian", 2.0, 3.0), ("exponential", None, 2.0)]
    for win in cases:
        for fftbins in (True, False):
            got = get_window(win, 12, fftbins=fftbins)
            np.testing.assert_allclose(cp.asnumpy(got), sw.get_window(win, 12, fftbins=fftbins),
                                       atol=1e-13, err_msg=str(win))
    for bad, nx in [("nope", 8), (("kaiser",), 8), (("hann", 3), 8), ("hann", 0),
                    ("hann", 2.5), ((3, 1), 8), (object(), 8)]:
        with pytest.raises(ValueError):
            sw.get_window(bad, nx)
        with pytest.raises(ValueError):
            get_window(bad, nx)
    with pytest.raises(ValueError, match="non-negative integer"):
        w.hann(-1)
    with pytest.raises(ValueError, match="non-negative integer"):
        w.hann(2.5)
    assert sorted(w.__all__) == sorted(sw.__all__)



@pytest.mark.parametrize("M", [1, 2, 7, 8, 31, 64])
@pytest.mark.parametrize("sym", [True, False])
def test_chebwin_and_kbd(xp, M, sym):
    from cuarray.scipy.signal import windows as w
    for at in (50, 100, -80):
        np.testing.assert_allclose(xp.asnumpy(w.chebwin(M, at, sym=sym)),
                                   sw.chebwin(M, at, sym=sym), rtol=1e-10, atol=1e-12)
    with pytest.warns(UserWarning):
        w.chebwin(M, 30, sym=sym)
    if M % 2 == 0:
        np.testing.assert_allclose(xp.asnumpy(w.kaiser_bessel_derived(M, 4.0)),
                                   sw.kaiser_bessel_derived(M, 4.0), rtol=1e-12)
    with pytest.raises(ValueError):
        w.kaiser_bessel_derived(M, 4.0, sym=False)
    with pytest.raises(ValueError):
        w.kaiser_bessel_derived(7, 4.0)


def test_get_window_chebwin_kbd(xp):
    from cuarray.scipy.signal import get_window
    np.testing.assert_allclose(xp.asnumpy(get_window(("chebwin", 60), 33)),
                               sw.get_window(("chebwin", 60), 33), rtol=1e-10)
    np.testing.assert_allclose(
        xp.asnumpy(get_window(("kbd", 3.0), 16, fftbins=False)),
        sw.get_window(("kbd", 3.0), 16, fftbins=False), rtol=1e-12)


@pytest.mark.parametrize("M", [1, 2, 7, 8, 64, 65])
@pytest.mark.parametrize("sym", [True, False])
def test_dpss(xp, M, sym):
    from cuarray.scipy.signal import windows as w
    for kw in ({}, {"Kmax": 3}, {"Kmax": 2, "norm": "subsample"},
               {"Kmax": 3, "norm": "approximate"}, {"Kmax": 3, "return_ratios": True},
               {"return_ratios": True}):
        if M < 4 and "Kmax" in kw:
            continue
        NW = min(2.5, M / 2 - 0.1) if M > 1 else 1.0
        got = w.dpss(M, NW, sym=sym, **kw)
        want = sw.dpss(M, NW, sym=sym, **kw)
        if kw.get("return_ratios"):
            np.testing.assert_allclose(np.asarray(xp.asnumpy(got[1])), want[1], rtol=1e-7,
                                       atol=1e-10)
            got, want = got[0], want[0]
        np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-7, atol=1e-9,
                                   err_msg=str(kw))
    if M > 4:
        np.testing.assert_allclose(
            xp.asnumpy(w.get_window(("dpss", 2.0), M, fftbins=not sym)),
            sw.get_window(("dpss", 2.0), M, fftbins=not sym), rtol=1e-7, atol=1e-9)
    with pytest.raises(ValueError):
        w.dpss(8, 5.0)
