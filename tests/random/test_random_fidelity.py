"""cuarray.random against NumPy and CuPy's documentation: CuPy's signatures, NumPy's
ValueError for every bad parameter (host scalars and device arrays), and statistical tests
of array-valued parameters broadcast against `size`, per column."""
import inspect
import math

import numpy
import pytest
from scipy import stats

import emulation  # noqa: E402


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)


# (method, bad arguments): NumPy's RandomState raises ValueError for each (OverflowError for
# an infinite uniform range).
BAD = [
    ("normal", (0.0, -1.0)), ("uniform", (0.0, math.inf)), ("lognormal", (0.0, -1.0)),
    ("exponential", (-1.0,)), ("gumbel", (0.0, -1.0)), ("laplace", (0.0, -2.0)),
    ("logistic", (0.0, -1.0)), ("rayleigh", (-1.0,)), ("weibull", (-1.0,)), ("pareto", (0.0,)),
    ("power", (-1.0,)), ("triangular", (2.0, 1.0, 3.0)), ("triangular", (0.0, 4.0, 3.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("standard_gamma", (-1.0,)), ("gamma", (1.0, -1.0)),
    ("beta", (0.0, 1.0)), ("chisquare", (0.0,)), ("noncentral_chisquare", (1.0, -1.0)),
    ("f", (0.0, 1.0)), ("noncentral_f", (1.0, 1.0, -1.0)), ("standard_t", (0.0,)),
    ("vonmises", (0.0, -1.0)), ("wald", (0.0, 1.0)), ("wald", (1.0, 0.0)), ("poisson", (-1.0,)),
    ("binomial", (-1, 0.5)), ("binomial", (10, 1.5)), ("binomial", (10, -0.1)),
    ("negative_binomial", (0, 0.5)), ("negative_binomial", (1, 1.5)), ("geometric", (0.0,)),
    ("geometric", (1.5,)), ("hypergeometric", (-1, 5, 2)), ("hypergeometric", (3, 3, 7)),
    ("logseries", (1.0,)), ("logseries", (-0.1,)), ("zipf", (1.0,)), ("dirichlet", ([1.0, -1.0],)),
    ("multinomial", (10, [0.7, 0.7, 0.2])), ("multinomial", (10, [0.5, -0.1, 0.6])),
]


@pytest.mark.parametrize("method,args", BAD, ids=[f"{m}{a}" for m, a in BAD])
def test_bad_parameters_raise_numpys_valueerror(cp, method, args):
    with pytest.raises((ValueError, OverflowError)) as want:
        getattr(numpy.random.RandomState(0), method)(*args, size=3)
    with pytest.raises(want.type):
        getattr(cp.random.RandomState(0), method)(*args, size=3)
    with pytest.raises(want.type):
        getattr(cp.random.default_rng(0), method)(*args, size=3)


def test_signatures_follow_cupy(cp):
    rs = cp.random.RandomState(0)
    assert list(inspect.signature(rs.permutation).parameters) == ["a"]
    assert list(inspect.signature(rs.shuffle).parameters) == ["a"]
    assert list(inspect.signature(cp.random.permutation).parameters) == ["a"]
    for name in ("normal", "uniform", "gamma", "beta", "binomial", "poisson", "standard_normal"):
        params = inspect.signature(getattr(rs, name)).parameters
        assert "size" in params and "dtype" in params, name


# (method, array-valued parameters, the SciPy distribution of column k)
ARRAY_PARAMS = [
    ("binomial", ([10, 40], [0.3, 0.8]), lambda k: stats.binom([10, 40][k], [0.3, 0.8][k])),
    ("negative_binomial", ([2.5, 7.0], [0.4, 0.7]),
     lambda k: stats.nbinom([2.5, 7.0][k], [0.4, 0.7][k])),
    ("noncentral_chisquare", ([2.0, 5.0], [1.0, 3.0]),
     lambda k: stats.ncx2([2.0, 5.0][k], [1.0, 3.0][k])),
    ("noncentral_f", ([4.0, 9.0], [8.0, 12.0], [1.5, 0.5]),
     lambda k: stats.ncf([4.0, 9.0][k], [8.0, 12.0][k], [1.5, 0.5][k])),
    ("hypergeometric", ([20, 50], [30, 10], [7, 25]),
     lambda k: stats.hypergeom([50, 60][k], [20, 50][k], [7, 25][k])),
    ("triangular", ([-1.0, 0.0], [0.5, 2.0], [4.0, 3.0]),
     lambda k: stats.triang([0.3, 2.0 / 3.0][k], loc=[-1.0, 0.0][k], scale=[5.0, 3.0][k])),
    ("geometric", ([0.1, 0.6],), lambda k: stats.geom([0.1, 0.6][k])),
    ("gamma", ([0.7, 3.0], [2.0, 0.5]), lambda k: stats.gamma([0.7, 3.0][k], scale=[2.0, 0.5][k])),
    ("f", ([5.0, 10.0], [7.0, 20.0]), lambda k: stats.f([5.0, 10.0][k], [7.0, 20.0][k])),
    ("beta", ([0.5, 2.0], [0.7, 5.0]), lambda k: stats.beta([0.5, 2.0][k], [0.7, 5.0][k])),
    # mu = 0: samples wrap into [-pi, pi], SciPy's support is [mu - pi, mu + pi].
    ("vonmises", ([0.0, 0.0], [4.0, 0.5]), lambda k: stats.vonmises([4.0, 0.5][k])),
    ("rayleigh", ([0.5, 2.0],), lambda k: stats.rayleigh(scale=[0.5, 2.0][k])),
    ("zipf", ([2.5, 4.0],), lambda k: stats.zipf([2.5, 4.0][k])),
    ("logseries", ([0.3, 0.9],), lambda k: stats.logser([0.3, 0.9][k])),
]


@pytest.mark.gpu
@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("method,params,dist", ARRAY_PARAMS, ids=[m for m, _, _ in ARRAY_PARAMS])
def test_array_parameters_statistics(api, method, params, dist):
    import cuarray
    gen = cuarray.random.RandomState(5) if api == "legacy" else cuarray.random.default_rng(5)
    n = 100_000
    args = [cuarray.asarray(numpy.asarray(p)) for p in params]
    x = getattr(gen, method)(*args, size=(n, 2)).get()
    assert x.shape == (n, 2)
    for k in range(2):
        d = dist(k)
        col = x[:, k].astype(numpy.float64)
        mean, var = (float(v) for v in d.stats(moments="mv"))
        if math.isfinite(mean) and math.isfinite(var):
            assert abs(col.mean() - mean) < 6 * math.sqrt(var / n) + 1e-12, (method, k)
        if hasattr(d.dist, "pdf"):
            assert stats.kstest(col, d.cdf).pvalue > 1e-4, (method, k)
    # A host list broadcasts the same way, and size=None takes the parameters' shape.
    y = getattr(gen, method)(*[list(p) for p in params])
    assert y.shape == (2,)


@pytest.mark.gpu
def test_dirichlet_multinomial_multivariate_normal_statistics():
    import cuarray
    rs = cuarray.random.RandomState(3)
    alpha = numpy.array([0.5, 2.0, 4.0])
    x = rs.dirichlet(alpha, size=(50_000,)).get()
    assert x.shape == (50_000, 3)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    numpy.testing.assert_allclose(x.mean(axis=0), alpha / alpha.sum(), atol=5e-3)
    p = numpy.array([0.2, 0.5, 0.3])
    m = rs.multinomial(40, p, size=(50_000,)).get()
    assert (m.sum(axis=1) == 40).all()
    numpy.testing.assert_allclose(m.mean(axis=0), 40 * p, rtol=1e-2)
    numpy.testing.assert_allclose(numpy.cov(m.T), 40 * (numpy.diag(p) - numpy.outer(p, p)), atol=0.2)
    mean = numpy.array([1.0, -2.0])
    cov = numpy.array([[2.0, 0.6], [0.6, 1.0]])
    z = rs.multivariate_normal(mean, cov, size=(100_000,)).get()
    numpy.testing.assert_allclose(z.mean(axis=0), mean, atol=0.03)
    numpy.testing.assert_allclose(numpy.cov(z.T), cov, atol=0.05)
