"""cuarray.scipy.signal.remez against scipy.signal (GPU; host emulation with NumPy
stand-ins elsewhere). Every design here converges within maxiter, where the minimax
solution on SciPy's grid is unique."""
import numpy as np
import pytest
import scipy.signal as ss

from signal_standins import xp  # noqa: F401  (fixture)

CASES = [
    (31, [0, 0.1, 0.15, 0.5], [1, 0], {}),
    (32, [0, 0.1, 0.15, 0.5], [1, 0], {}),
    (30, [0.05, 0.45], [1], {"type": "hilbert"}),
    (31, [0.05, 0.45], [1], {"type": "hilbert"}),
    (20, [0, 0.45], [1], {"type": "differentiator"}),
    (21, [0, 0.45], [1], {"type": "differentiator"}),
    (51, [0, 50, 80, 150, 180, 500], [0, 1, 0], {"fs": 1000, "weight": [1, 2, 1]}),
    (72, [0, 0.2, 0.25, 0.5], [1, 0], {"grid_density": 20}),
    (2, [0, 0.2, 0.3, 0.5], [1, 0], {}),
    (129, [0, 0.05, 0.07, 0.2, 0.22, 0.5], [1, 0, 0.5], {"weight": [1, 10, 2]}),
    (45, [0, 0.1, 0.2, 0.3, 0.35, 0.5], [0, 1, 0], {"maxiter": 40}),
]


@pytest.mark.parametrize("numtaps,bands,desired,kw", CASES)
def test_matches_scipy(xp, numtaps, bands, desired, kw):
    from cuarray.scipy import signal as s
    got = s.remez(numtaps, bands, desired, **kw)
    want = ss.remez(numtaps, bands, desired, **kw)
    g = xp.asnumpy(got)
    assert g.shape == want.shape and g.dtype == want.dtype
    np.testing.assert_allclose(g, want, rtol=1e-8, atol=1e-10 * np.abs(want).max())


def test_device_band_arguments(xp):
    from cuarray.scipy import signal as s
    got = s.remez(25, xp.asarray([0, 0.1, 0.2, 0.5]), xp.asarray([1.0, 0.0]),
                  weight=xp.asarray([1.0, 3.0]))
    want = ss.remez(25, [0, 0.1, 0.2, 0.5], [1, 0], weight=[1, 3])
    np.testing.assert_allclose(xp.asnumpy(got), want, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("args,kw,match", [
    ((31, [0, 0.1, 0.11, 0.6], [1, 0]), {}, "less than 1/2"),
    ((31, [0, 0.2, 0.11, 0.5], [1, 0]), {}, "monotonic"),
    ((31, [-0.1, 0.1, 0.11, 0.5], [1, 0]), {}, "monotonic"),
    ((31, [0, 0.1, 0.11, 0.5], [1, 0, 1]), {}, "same length"),
    ((31, [0, 0.1, 0.11, 0.5], [1, 0]), {"weight": [1]}, "same length"),
    ((31, [0, 0.1, 0.11, 0.5], [1, 0]), {"type": "x"}, "Type must be"),
    ((1, [0, 0.1, 0.11, 0.5], [1, 0]), {}, "greater than 1"),
    ((31, [0, 0.1, 0.11, 0.5], [1, 0]), {"fs": [1, 2]}, "single scalar"),
    ((31, [0, 0.1, 0.11, 0.5], [1, 0]), {"grid_density": 0}, "Failure to converge"),
])
def test_errors(args, kw, match):
    from cuarray.scipy import signal as s
    with pytest.raises(ValueError, match=match):
        ss.remez(*args, **kw)
    with pytest.raises(ValueError, match=match):
        s.remez(*args, **kw)
