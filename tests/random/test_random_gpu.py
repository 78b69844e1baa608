"""GPU tests of cuarray.random: every distribution against SciPy (moments, then a KS or
chi-square test with a fixed seed, so the outcome is deterministic), reproducibility,
launch-configuration independence, shapes, dtypes and errors."""
import math

import numpy
import pytest
from scipy import stats

import cuarray
import cuarray.random as cr
from cuarray.random import _bit_generator

pytestmark = pytest.mark.gpu

N = 200_000


def _moments_ok(x, dist):
    """Sample mean and variance within 6 standard errors of the distribution's."""
    mean, var, kurt = (float(v) for v in dist.stats(moments="mvk"))
    n = x.size
    if math.isfinite(mean) and math.isfinite(var):
        assert abs(x.mean() - mean) < 6 * math.sqrt(var / n) + 1e-12, (x.mean(), mean)
    if math.isfinite(var) and math.isfinite(kurt) and var > 0:
        se = var * math.sqrt((kurt + 2) / n)
        assert abs(x.var() - var) < 6 * se + 1e-12, (x.var(), var)


def _chi2(x, dist):
    """Chi-square p-value of integer samples, cells of expected count >= 20, tails lumped."""
    x = numpy.asarray(x, numpy.int64)
    ks = numpy.arange(x.min(), x.max() + 1)
    exp, obs = dist.pmf(ks) * x.size, numpy.bincount(x - x.min()).astype(float)
    ce, co, e_acc, o_acc = [], [], 0.0, 0.0
    for e, o in zip(exp, obs):
        e_acc, o_acc = e_acc + e, o_acc + o
        if e_acc >= 20:
            ce.append(e_acc)
            co.append(o_acc)
            e_acc = o_acc = 0.0
    co[-1] += o_acc
    ce[-1] += x.size - sum(ce)
    return stats.chisquare(co, ce).pvalue


CONTINUOUS = [
    ("random_sample", (), stats.uniform()),
    ("uniform", (-2.0, 3.0), stats.uniform(-2, 5)),
    ("normal", (1.0, 3.0), stats.norm(1, 3)),
    ("standard_normal", (), stats.norm()),
    ("lognormal", (0.5, 0.8), stats.lognorm(0.8, scale=math.exp(0.5))),
    ("exponential", (2.5,), stats.expon(scale=2.5)),
    ("standard_exponential", (), stats.expon()),
    ("gumbel", (1.0, 2.0), stats.gumbel_r(1, 2)),
    ("laplace", (1.0, 2.0), stats.laplace(1, 2)),
    ("logistic", (1.0, 2.0), stats.logistic(1, 2)),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2)),
    ("weibull", (1.7,), stats.weibull_min(1.7)),
    ("pareto", (3.0,), stats.lomax(3.0)),
    ("power", (0.4,), stats.powerlaw(0.4)),
    ("standard_cauchy", (), stats.cauchy()),
    ("triangular", (-1.0, 0.5, 4.0), stats.triang(0.3, loc=-1, scale=5)),
    ("standard_gamma", (0.3,), stats.gamma(0.3)),
    ("standard_gamma", (4.5,), stats.gamma(4.5)),
    ("gamma", (0.8, 3.0), stats.gamma(0.8, scale=3)),
    ("beta", (0.5, 0.7), stats.beta(0.5, 0.7)),
    ("beta", (2.0, 5.0), stats.beta(2.0, 5.0)),
    ("chisquare", (3.0,), stats.chi2(3)),
    ("noncentral_chisquare", (3.0, 2.0), stats.ncx2(3, 2)),
    ("noncentral_chisquare", (0.5, 1.5), stats.ncx2(0.5, 1.5)),
    ("f", (5.0, 7.0), stats.f(5, 7)),
    ("noncentral_f", (5.0, 7.0, 2.0), stats.ncf(5, 7, 2)),
    ("standard_t", (4.0,), stats.t(4)),
    ("vonmises", (0.0, 4.0), stats.vonmises(4.0)),
    ("wald", (2.0, 3.0), stats.invgauss(2.0 / 3.0, scale=3.0)),
]

DISCRETE = [
    ("poisson", (3.5,), stats.poisson(3.5)),
    ("poisson", (250.0,), stats.poisson(250.0)),
    ("binomial", (20, 0.3), stats.binom(20, 0.3)),
    ("binomial", (1000, 0.4), stats.binom(1000, 0.4)),
    ("binomial", (100, 0.9), stats.binom(100, 0.9)),
    ("negative_binomial", (3.5, 0.4), stats.nbinom(3.5, 0.4)),
    ("geometric", (0.1,), stats.geom(0.1)),
    ("hypergeometric", (20, 30, 7), stats.hypergeom(50, 20, 7)),
    ("hypergeometric", (200, 300, 150), stats.hypergeom(500, 200, 150)),
    ("logseries", (0.6,), stats.logser(0.6)),
    ("zipf", (2.5,), stats.zipf(2.5)),
]


def _ids(table):
    return [f"{m}{a}" for m, a, _ in table]


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("method,args,ref", CONTINUOUS, ids=_ids(CONTINUOUS))
def test_continuous(api, method, args, ref):
    src = cr.RandomState(1234) if api == "legacy" else cr.default_rng(1234)
    if api == "generator" and method == "random_sample":
        method = "random"
    x = getattr(src, method)(*args, size=N).get()
    assert x.shape == (N,) and x.dtype == numpy.float64
    assert numpy.isfinite(x).all()
    _moments_ok(x, ref)
    assert stats.kstest(x, ref.cdf).pvalue > 1e-4


@pytest.mark.parametrize("method,args,ref", [
    ("random_sample", (), stats.uniform()), ("standard_normal", (), stats.norm()),
    ("normal", (1.0, 3.0), stats.norm(1, 3)), ("exponential", (2.0,), stats.expon(scale=2)),
    ("gamma", (2.0, 1.5), stats.gamma(2.0, scale=1.5)), ("gumbel", (0.0, 1.0), stats.gumbel_r()),
])
def test_continuous_float32(method, args, ref):
    x = getattr(cr.RandomState(99), method)(*args, size=N, dtype=numpy.float32)
    assert x.dtype == numpy.float32
    x = x.get().astype(numpy.float64)
    assert numpy.isfinite(x).all()
    assert stats.kstest(x, ref.cdf).pvalue > 1e-4


@pytest.mark.parametrize("api", ["legacy", "generator"])
@pytest.mark.parametrize("method,args,ref", DISCRETE, ids=_ids(DISCRETE))
def test_discrete(api, method, args, ref):
    src = cr.RandomState(4321) if api == "legacy" else cr.default_rng(4321)
    x = getattr(src, method)(*args, size=N)
    assert x.dtype == numpy.int64
    x = x.get()
    _moments_ok(x.astype(numpy.float64), ref)
    assert _chi2(x, ref) > 1e-4


@pytest.mark.parametrize("bitgen", [cr.XORWOW, cr.MRG32k3a, cr.Philox4x3210])
def test_bit_generators(bitgen):
    g = cr.Generator(bitgen(7))
    x = g.standard_normal(N).get()
    assert stats.kstest(x, stats.norm.cdf).pvalue > 1e-4
    k = g.integers(0, 10, size=N).get()
    assert stats.chisquare(numpy.bincount(k, minlength=10)).pvalue > 1e-4
    y = cr.Generator(bitgen(7)).standard_normal(N).get()
    numpy.testing.assert_array_equal(x, y)
    raw = bitgen(3).random_raw(1 << 16).get()
    assert raw.dtype == numpy.uint32
    assert stats.chisquare(numpy.bincount(raw >> 24, minlength=256)).pvalue > 1e-4


# ---- reproducibility -------------------------------------------------------------------------

def test_same_seed_same_numbers_and_different_seeds_differ():
    a = cr.RandomState(5).random_sample(1000).get()
    b = cr.RandomState(5).random_sample(1000).get()
    c = cr.RandomState(6).random_sample(1000).get()
    numpy.testing.assert_array_equal(a, b)
    assert not numpy.array_equal(a, c)
    rs = cr.RandomState(5)
    assert not numpy.array_equal(rs.random_sample(10).get(), rs.random_sample(10).get())


def test_counter_advances_by_the_blocks_used():
    # float32: 4 values per 128-bit block, so two calls of 8 are one call of 16
    one = cr.RandomState(11).random_sample(16, dtype=numpy.float32).get()
    rs = cr.RandomState(11)
    two = numpy.concatenate([rs.random_sample(8, dtype=numpy.float32).get(),
                             rs.random_sample(8, dtype=numpy.float32).get()])
    numpy.testing.assert_array_equal(one, two)
    assert rs._bit_generator.state["state"]["counter"] == 4


def test_values_match_the_philox_reference():
    from test_random_kernels import block_words
    bg = cr.Philox4x3210(key=0x0123456789ABCDEF, counter=5)
    got = cr.Generator(bg).random(1003, dtype=numpy.float32).get()
    words = block_words(0x0123456789ABCDEF, 5 + numpy.arange(251)).reshape(-1)[:1003]
    numpy.testing.assert_array_equal(got, (words >> 8).astype(numpy.float32) * numpy.float32(2**-24))
    raw = cr.Philox4x3210(key=0x0123456789ABCDEF, counter=5).random_raw(1003).get()
    numpy.testing.assert_array_equal(raw, words)


@pytest.mark.parametrize("grid", [1, 3, 1000])
def test_results_do_not_depend_on_the_launch_configuration(monkeypatch, grid):
    def draw_all():
        rs = cr.RandomState(77)
        return [rs.random_sample(10001, dtype=numpy.float32).get(), rs.standard_normal(10001).get(),
                rs.randint(0, 7, 10001).get(), rs.gamma(0.5, size=3001).get(),
                rs.binomial(100, 0.3, size=3001).get(), rs.normal([0.0, 1.0], 2.0, (5, 2)).get()]
    expected = draw_all()
    monkeypatch.setattr(_bit_generator._Kernel, "grid", lambda self, items: grid)
    for a, b in zip(draw_all(), expected):
        numpy.testing.assert_array_equal(a, b)


def test_unaligned_output_gives_the_same_values():
    out = cuarray.empty(1001, numpy.float32)[1:]
    g = cr.Generator(cr.Philox4x3210(key=3))
    g.random(dtype=numpy.float32, out=out)
    expected = cr.Generator(cr.Philox4x3210(key=3)).random(1000, dtype=numpy.float32)
    numpy.testing.assert_array_equal(out.get(), expected.get())


def test_global_state_and_seed():
    cr.seed(3)
    a = cr.rand(5).get()
    cr.seed(3)
    numpy.testing.assert_array_equal(a, cr.random_sample(5).get())
    rs = cr.RandomState(3)
    cr.set_random_state(rs)
    assert cr.get_random_state() is rs
    cr.reset_states()
    assert cr.get_random_state() is not rs
    with pytest.raises(TypeError):
        cr.set_random_state(object())


# ---- shapes, dtypes, parameters ---------------------------------------------------------------

def test_size_none_gives_0d_arrays():
    rs = cr.RandomState(0)
    for x in (rs.random_sample(), rs.normal(), rs.randint(5), rs.poisson(3.0), rs.gamma(2.0),
              rs.binomial(5, 0.5), rs.standard_cauchy()):
        assert isinstance(x, cuarray.ndarray) and x.shape == ()
    assert rs.rand().shape == () and rs.randn(2, 3).shape == (2, 3)


def test_shapes_and_dtypes():
    rs = cr.RandomState(0)
    assert rs.random_sample((2, 3, 4)).shape == (2, 3, 4)
    assert rs.normal(size=7, dtype=numpy.float32).dtype == numpy.float32
    assert rs.randint(0, 5, size=(3,), dtype=numpy.int16).dtype == numpy.int16
    assert rs.poisson(2.0, size=3, dtype=numpy.int32).dtype == numpy.int32
    assert rs.random_sample(0).shape == (0,)
    assert rs.normal(size=(3, 0)).shape == (3, 0)


def test_array_parameters_broadcast():
    rs = cr.RandomState(0)
    loc = cuarray.asarray([0.0, 100.0, 200.0])
    x = rs.normal(loc, 0.01, size=(4, 3)).get()
    numpy.testing.assert_allclose(x - [0.0, 100.0, 200.0], 0, atol=0.1)
    x = rs.normal(loc.reshape(3, 1), 0.01, size=(3, 5)).get()
    numpy.testing.assert_allclose(x - numpy.array([[0.0], [100.0], [200.0]]), 0, atol=0.1)
    x = rs.uniform(cuarray.asarray([[0.0], [10.0]]), [1.0, 2.0, 3.0]).get()  # (2, 1) with (3,)
    assert x.shape == (2, 3)
    assert ((x[0] >= 0) & (x[0] < [1, 2, 3])).all()
    assert ((x[1] > [1, 2, 3]) & (x[1] <= 10)).all()  # low > high is allowed, as in NumPy
    lam = cuarray.asarray(numpy.array([[1.0, 50.0]]))
    y = rs.poisson(lam, size=(N // 2, 2)).get()
    numpy.testing.assert_allclose(y.mean(axis=0), [1.0, 50.0], rtol=0.02)
    z = rs.normal(cuarray.zeros((2, 1, 3)), 1.0, size=(2, 4, 3))  # non-contiguous kept axes
    assert z.shape == (2, 4, 3)
    n = cuarray.asarray([10, 20])
    b = rs.binomial(n, [[0.5], [0.1]]).get()
    assert b.shape == (2, 2) and (b <= [10, 20]).all()


def test_device_parameter_errors():
    rs = cr.RandomState(0)
    with pytest.raises(ValueError, match="scale < 0"):
        rs.normal(0.0, cuarray.asarray([1.0, -1.0]))
    with pytest.raises(ValueError, match="left > mode"):
        rs.triangular(cuarray.asarray([0.0, 2.0]), 1.0, 3.0)
    with pytest.raises(ValueError, match="low >= high"):
        rs.randint(cuarray.asarray([0, 5]), 5)
    with pytest.raises(ValueError, match="probabilities are not non-negative"):
        rs.choice(2, 3, p=cuarray.asarray([1.5, -0.5]))


def test_randint_ranges_and_dtypes():
    rs = cr.RandomState(0)
    for dtype, lo, hi in ((numpy.int8, -128, 128), (numpy.uint8, 0, 256), (numpy.int32, -5, 5),
                          (numpy.int64, -2**63, 2**63 - 1), (numpy.uint64, 0, 2**64),
                          (numpy.uint64, 2**63, 2**64), (bool, 0, 2)):
        x = rs.randint(lo, hi, size=20000, dtype=dtype).get()
        assert x.dtype == numpy.dtype(dtype)
        assert int(x.min()) >= lo and int(x.max()) < hi
    x = rs.randint(-3, 4, size=N).get()
    assert x.min() == -3 and x.max() == 3
    assert stats.chisquare(numpy.bincount(x + 3)).pvalue > 1e-4
    big = rs.randint(0, 3 * 2**62, size=N, dtype=numpy.uint64).get()  # wide, rejecting path
    assert stats.chisquare(numpy.bincount((big >> numpy.uint64(62)).astype(int))).pvalue > 1e-4
    assert rs.random_integers(5, size=1000).get().min() >= 1
    arr = rs.randint(cuarray.asarray([0, 10]), cuarray.asarray([5, 12]), size=(1000, 2)).get()
    assert (arr[:, 0] < 5).all() and (arr[:, 1] >= 10).all() and (arr[:, 1] < 12).all()
    g = cr.default_rng(0)
    e = g.integers(0, 3, size=30000, endpoint=True).get()
    assert e.max() == 3


def test_choice_permutation_shuffle():
    rs = cr.RandomState(0)
    p = rs.permutation(1000).get()
    numpy.testing.assert_array_equal(numpy.sort(p), numpy.arange(1000))
    a = cuarray.arange(50)
    rs.shuffle(a)
    numpy.testing.assert_array_equal(numpy.sort(a.get()), numpy.arange(50))
    m = cuarray.arange(12).reshape(4, 3)
    pm = rs.permutation(m).get()
    assert sorted(map(tuple, pm)) == [tuple(r) for r in numpy.arange(12).reshape(4, 3)]
    c = rs.choice(10, 20000).get()
    assert stats.chisquare(numpy.bincount(c, minlength=10)).pvalue > 1e-4
    w = numpy.array([0.1, 0.0, 0.6, 0.3])
    c = rs.choice(4, N, p=w).get()
    counts = numpy.bincount(c, minlength=4)
    assert counts[1] == 0 and stats.chisquare(counts[[0, 2, 3]], N * w[[0, 2, 3]]).pvalue > 1e-4
    u = rs.choice(100, 100, replace=False).get()
    numpy.testing.assert_array_equal(numpy.sort(u), numpy.arange(100))
    wr = rs.choice(4, 3, replace=False, p=w).get()
    assert len(set(wr)) == 3 and 1 not in wr
    with pytest.raises(ValueError, match="Fewer non-zero entries"):
        rs.choice(4, 4, replace=False, p=w)
    vals = cuarray.asarray([10.0, 20.0, 30.0])
    assert set(rs.choice(vals, 100).get()) <= {10.0, 20.0, 30.0}
    g = cr.default_rng(1)
    x = cuarray.arange(12).reshape(3, 4)
    pr = g.permuted(x, axis=1).get()
    numpy.testing.assert_array_equal(numpy.sort(pr, axis=1), numpy.arange(12).reshape(3, 4))


def test_multivariate():
    rs = cr.RandomState(0)
    mn = rs.multinomial(30, [0.2, 0.3, 0.5], size=20000).get()
    assert mn.shape == (20000, 3) and (mn.sum(axis=1) == 30).all()
    numpy.testing.assert_allclose(mn.mean(axis=0), [6, 9, 15], rtol=0.02)
    d = rs.dirichlet([1.0, 2.0, 3.0], size=20000).get()
    numpy.testing.assert_allclose(d.sum(axis=1), 1.0)
    numpy.testing.assert_allclose(d.mean(axis=0), [1 / 6, 2 / 6, 3 / 6], rtol=0.02)
    cov = numpy.array([[2.0, 0.6], [0.6, 1.0]])
    for method in ("cholesky", "svd", "eigh"):
        x = rs.multivariate_normal([1.0, -1.0], cov, size=N, method=method).get()
        numpy.testing.assert_allclose(x.mean(axis=0), [1.0, -1.0], atol=0.02)
        numpy.testing.assert_allclose(numpy.cov(x.T), cov, atol=0.03)
    g = cr.default_rng(0)
    h = g.multivariate_hypergeometric([10, 5, 20], 12, size=5000).get()
    assert (h.sum(axis=1) == 12).all()
    numpy.testing.assert_allclose(h.mean(axis=0), numpy.array([10, 5, 20]) * 12 / 35, rtol=0.05)


def test_out_argument_and_bytes():
    g = cr.default_rng(0)
    out = cuarray.empty((100, 3), numpy.float32)
    assert g.standard_normal(dtype=numpy.float32, out=out) is out
    with pytest.raises(TypeError):
        g.random(out=cuarray.empty(3, numpy.float64), dtype=numpy.float32)
    b = g.bytes(13)
    assert isinstance(b, bytes) and len(b) == 13
