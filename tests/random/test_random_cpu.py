"""CPU tests of cuarray.random's Python layer: seeding, state, shapes and the argument
checks NumPy makes, all of which run before anything touches a GPU."""
import hashlib
import re

import numpy
import pytest

import cuarray.random as cr
from cuarray.random import _distributions as D
from cuarray.random import _kernels as K
from cuarray.random._generator import seed_to_key

CUPY_RANDOM_NAMES = """
beta binomial bytes chisquare choice dirichlet exponential f gamma geometric gumbel
hypergeometric laplace logistic lognormal logseries multinomial multivariate_normal
negative_binomial noncentral_chisquare noncentral_f normal pareto permutation poisson power
rand randint randn random random_integers random_sample ranf rayleigh sample seed shuffle
standard_cauchy standard_exponential standard_gamma standard_normal standard_t triangular
uniform vonmises wald weibull zipf RandomState get_random_state set_random_state reset_states
Generator default_rng BitGenerator Philox4x3210 XORWOW MRG32k3a
""".split()

GENERATOR_METHODS = """
random integers choice bytes shuffle permutation permuted beta binomial chisquare dirichlet
exponential f gamma geometric gumbel hypergeometric laplace logistic lognormal logseries
multinomial multivariate_hypergeometric multivariate_normal negative_binomial
noncentral_chisquare noncentral_f normal pareto poisson power rayleigh standard_cauchy
standard_exponential standard_gamma standard_normal standard_t triangular uniform vonmises
wald weibull zipf spawn
""".split()


def test_every_cupy_random_name_is_exported():
    missing = [n for n in CUPY_RANDOM_NAMES if not hasattr(cr, n)]
    assert not missing


def test_generator_has_numpys_methods():
    np_methods = {n for n in dir(numpy.random.Generator) if not n.startswith("_")}
    assert set(GENERATOR_METHODS) <= np_methods  # the list names real NumPy methods
    assert all(callable(getattr(cr.Generator, n)) for n in GENERATOR_METHODS)


def test_module_functions_keep_the_method_signatures():
    import inspect
    sig = inspect.signature(cr.randint)
    assert list(sig.parameters) == ["low", "high", "size", "dtype"]
    assert cr.normal.__doc__ == cr.RandomState.normal.__doc__


# ---- seeds --------------------------------------------------------------------------------

def test_integer_seeds_are_the_key():
    assert seed_to_key(0) == 0
    assert seed_to_key(numpy.uint64(2**64 - 1)) == 2**64 - 1
    assert seed_to_key(numpy.array(12)) == 12


def test_array_seeds_hash_to_one_number_as_cupy():
    a = numpy.array([1, 2, 3], dtype=numpy.int64)
    expected = int(hashlib.md5(a).hexdigest()[:16], 16)
    assert seed_to_key(a) == expected
    assert seed_to_key([1, 2, 3]) == expected
    assert seed_to_key(a[::-1]) != expected


@pytest.mark.parametrize("bad,exc", [(-1, ValueError), (2**64, ValueError), (1.5, TypeError),
                                     ("7", TypeError), (True, TypeError),
                                     (numpy.array([1.5]), TypeError)])
def test_bad_seeds(bad, exc):
    with pytest.raises(exc):
        seed_to_key(bad)


def test_none_seed_is_fresh_entropy():
    assert seed_to_key(None) != seed_to_key(None)


def test_random_state_keys_and_counters():
    rs = cr.RandomState(42)
    assert rs._bit_generator.state["state"] == {"key": 42, "counter": 0}
    rs.seed(7)
    assert rs._bit_generator.state["state"]["key"] == 7
    with pytest.raises(ValueError, match="not supported"):
        cr.RandomState(1, method=141)


def test_philox_state_roundtrip_and_advance():
    bg = cr.Philox4x3210(123)
    key = int(numpy.random.SeedSequence(123).generate_state(1, numpy.uint64)[0])
    assert bg.state["state"] == {"key": key, "counter": 0}
    assert bg._reserve(10) == (numpy.uint64(key), numpy.uint64(0))
    assert bg.state["state"]["counter"] == 10
    bg.advance(5)
    other = cr.Philox4x3210(key=1)
    other.state = bg.state
    assert other.state == bg.state == {"bit_generator": "Philox4x3210",
                                       "state": {"key": key, "counter": 15}}
    with pytest.raises(ValueError):
        other.state = {"bit_generator": "PCG64"}
    kids = bg.spawn(3)
    assert len({k.state["state"]["key"] for k in kids}) == 3


def test_generator_construction():
    g = cr.default_rng(5)
    assert isinstance(g, cr.Generator) and isinstance(g.bit_generator, cr.Philox4x3210)
    assert cr.default_rng(g) is g
    bg = cr.Philox4x3210(1)
    assert cr.default_rng(bg).bit_generator is bg
    assert g.bit_generator.state == cr.default_rng(5).bit_generator.state
    with pytest.raises(TypeError):
        cr.Generator(numpy.random.PCG64(1))
    with pytest.raises(TypeError):
        cr.BitGenerator(1)
    assert len(g.spawn(2)) == 2


# ---- argument checks (NumPy's errors, raised before any device work) ----------------------------

rs = cr.RandomState(0)
gen = cr.default_rng(0)

ERRORS = [
    (lambda: rs.randint(5, 2), ValueError, "low >= high"),
    (lambda: rs.randint(3, 3), ValueError, "low >= high"),
    (lambda: gen.integers(3, 2, endpoint=True), ValueError, "low > high"),
    (lambda: rs.randint(0, 300, dtype=numpy.int8), ValueError, "high is out of bounds for int8"),
    (lambda: rs.randint(-1, 5, dtype=numpy.uint8), ValueError, "low is out of bounds for uint8"),
    (lambda: rs.randint(0, 2, dtype=numpy.float32), TypeError, "Unsupported dtype"),
    (lambda: rs.randint(0, [2, 1, 0]), ValueError, "low >= high"),
    (lambda: rs.normal(0, -1), ValueError, "scale < 0"),
    (lambda: rs.normal(0, -0.0), ValueError, "scale < 0"),
    (lambda: rs.normal(0, [1.0, -2.0]), ValueError, "scale < 0"),
    (lambda: rs.normal(dtype=numpy.int32), TypeError, "float32 and float64"),
    (lambda: rs.random_sample(dtype=numpy.float16), TypeError, "float32 and float64"),
    (lambda: rs.uniform(0, numpy.inf), OverflowError, "Range exceeds valid bounds"),
    (lambda: rs.exponential(-1), ValueError, "scale < 0"),
    (lambda: rs.lognormal(0, -1), ValueError, "sigma < 0"),
    (lambda: rs.gumbel(0, -1), ValueError, "scale < 0"),
    (lambda: rs.laplace(0, -1), ValueError, "scale < 0"),
    (lambda: rs.logistic(0, -1), ValueError, "scale < 0"),
    (lambda: rs.rayleigh(-1), ValueError, "scale < 0"),
    (lambda: rs.weibull(-1), ValueError, "a < 0"),
    (lambda: rs.pareto(0), ValueError, "a <= 0"),
    (lambda: rs.power(0), ValueError, "a <= 0"),
    (lambda: rs.triangular(2, 1, 3), ValueError, "left > mode"),
    (lambda: rs.triangular(0, 4, 3), ValueError, "mode > right"),
    (lambda: rs.triangular(1, 1, 1), ValueError, "left == right"),
    (lambda: rs.standard_gamma(-1), ValueError, "shape < 0"),
    (lambda: rs.gamma(1, -1), ValueError, "scale < 0"),
    (lambda: rs.beta(0, 1), ValueError, "a <= 0"),
    (lambda: rs.beta(1, -1), ValueError, "b <= 0"),
    (lambda: rs.chisquare(0), ValueError, "df <= 0"),
    (lambda: rs.noncentral_chisquare(1, -1), ValueError, "nonc < 0"),
    (lambda: rs.f(1, 0), ValueError, "dfden <= 0"),
    (lambda: rs.noncentral_f(1, 1, -1), ValueError, "nonc < 0"),
    (lambda: rs.standard_t(0), ValueError, "df <= 0"),
    (lambda: rs.vonmises(0, -1), ValueError, "kappa < 0"),
    (lambda: rs.wald(0, 1), ValueError, "mean <= 0"),
    (lambda: rs.poisson(-1), ValueError, "lam < 0"),
    (lambda: rs.poisson(1e19), ValueError, "lam value too large"),
    (lambda: rs.binomial(-1, 0.5), ValueError, "n < 0"),
    (lambda: rs.binomial(5, 1.5), ValueError, "p < 0, p > 1 or p is NaN"),
    (lambda: rs.binomial(5, numpy.nan), ValueError, "p < 0, p > 1 or p is NaN"),
    (lambda: rs.negative_binomial(0, 0.5), ValueError, "n <= 0"),
    (lambda: rs.negative_binomial(1, 0), ValueError, "p <= 0, p > 1"),
    (lambda: rs.geometric(0), ValueError, "p <= 0, p > 1"),
    (lambda: rs.hypergeometric(5, 5, 11), ValueError, "ngood + nbad < nsample"),
    (lambda: rs.hypergeometric(-1, 5, 1), ValueError, "ngood < 0"),
    (lambda: rs.logseries(1.0), ValueError, "p < 0, p >= 1"),
    (lambda: rs.zipf(1.0), ValueError, "a <= 1"),
    (lambda: rs.normal(size=-1), ValueError, "negative dimensions"),
    (lambda: rs.normal([0.0, 1.0], 1.0, size=(3,)), ValueError, "shape mismatch"),
    (lambda: rs.normal([0.0, 1.0], [1.0, 2.0, 3.0]), ValueError, "shape mismatch"),
    (lambda: rs.normal("a"), TypeError, "real numbers"),
    (lambda: rs.multinomial(5, [0.7, 0.5, 0.1]), ValueError, "sum(pvals[:-1]) > 1.0"),
    (lambda: rs.multinomial(5, [0.5, -0.1, 0.6]), ValueError, "pvals < 0"),
    (lambda: rs.multinomial(-1, [0.5, 0.5]), ValueError, "n < 0"),
    (lambda: rs.multinomial(5, [[0.5, 0.5]]), ValueError, "one-dimensional"),
    (lambda: rs.dirichlet([1.0, -1.0]), ValueError, "alpha < 0"),
    (lambda: gen.multivariate_hypergeometric([3, 4], 8), ValueError, "nsample > sum(colors)"),
    (lambda: gen.multivariate_hypergeometric([3, -4], 1), ValueError, "nonnegative integers"),
    (lambda: gen.multivariate_hypergeometric([3, 4], 2, method="x"), ValueError, "method"),
    (lambda: rs.choice(0, 3), ValueError, "a cannot be empty"),
    (lambda: rs.choice(-1, 3), ValueError, "non-negative integer"),
    (lambda: rs.choice(3, 2, p=[0.5, 0.5]), ValueError, "a and p must have same size"),
    (lambda: rs.choice(2, 2, p=[0.5, 0.6]), ValueError, "do not sum to 1"),
    (lambda: rs.choice(2, 2, p=[1.5, -0.5]), ValueError, "not non-negative"),
    (lambda: rs.choice(2, 2, p=[[0.5, 0.5]]), ValueError, "1-dimensional"),
    (lambda: rs.choice(3, 4, replace=False), ValueError, "larger sample than population"),
    (lambda: rs.shuffle(numpy.arange(3)), TypeError, "cuarray.ndarray"),
    (lambda: gen.standard_exponential(method="ratio"), ValueError, "'inv' or 'zig'"),
    (lambda: rs.bytes(-1), ValueError, "non-negative"),
]


@pytest.mark.parametrize("call,exc,match", ERRORS, ids=[e[2] for e in ERRORS])
def test_argument_errors(call, exc, match):
    with pytest.raises(exc, match=re.escape(match)):
        call()


def test_integer_bounds_accept_the_full_dtype_range():
    # checks pass for the widest ranges (the draw itself needs a GPU, so stop there)
    for dtype, lo, hi in ((numpy.int8, -128, 128), (numpy.uint64, 0, 2**64), (bool, 0, 2)):
        try:
            rs.randint(lo, hi, size=0, dtype=dtype)
        except ValueError as e:
            pytest.fail(f"{dtype}: {e}")
        except Exception:  # no GPU here: allocation may fail, after validation
            pass


# ---- shapes and layouts ---------------------------------------------------------------------

def test_size_normalisation():
    assert D._size(None) is None
    assert D._size(3) == (3,)
    assert D._size(numpy.int64(3)) == (3,)
    assert D._size((2, numpy.int32(3))) == (2, 3)
    assert D._size(()) == ()
    with pytest.raises(TypeError):
        D._size(2.5)


@pytest.mark.parametrize("pshape,oshape,expected", [
    ((), (4, 5), (1, 1)),
    ((1,), (4, 5), (1, 1)),
    ((4, 5), (4, 5), (1, 0)),
    ((5,), (4, 5), (1, 5)),
    ((4, 1), (4, 5), (5, 4)),
    ((3, 1, 1), (2, 3, 4, 5), (20, 3)),
    ((1, 4, 5), (3, 4, 5), (1, 20)),
    ((4, 1, 5), (4, 3, 5), None),
    ((2, 1, 3), (2, 1, 3), (1, 0)),
])
def test_parameter_layout(pshape, oshape, expected):
    assert D._layout(pshape, oshape) == expected
    if expected is not None:  # the formula reads the broadcast element
        p = numpy.arange(int(numpy.prod(pshape))).reshape(pshape)
        want = numpy.broadcast_to(p, oshape).reshape(-1)
        div, mod = expected
        i = numpy.arange(want.size)
        got = p.reshape(-1)[i if mod == 0 else (i // div) % mod]
        numpy.testing.assert_array_equal(got, want)


def test_i64_wraps_uint64_bounds():
    assert D._i64(2**64 - 1) == -1
    assert D._i64(2**63) == numpy.iinfo(numpy.int64).min
    assert D._i64(-5) == -5


def test_every_distribution_has_its_checks_and_kernel():
    assert set(D._CONDS) <= set(K.DISTS)
    for name, (kinds, call, bulk) in K.DISTS.items():
        assert (call is None) != (bulk is None)
        for c in D._CONDS.get(name, ()):
            assert max(int(j) for j in re.findall(r"a(\d)", c.c)) < len(kinds)


@pytest.mark.parametrize("shapes", [[(), (3,)], [(2, 1), (3,)], [(4, 1, 5), (1, 6, 1), (5,)],
                                    [(0,), (1,)], [(2, 0), (2, 1)], []])
def test_broadcast_matches_numpy(shapes):
    assert D._broadcast(shapes) == numpy.broadcast_shapes(*shapes)


def test_broadcast_mismatch():
    with pytest.raises(ValueError, match="shape mismatch"):
        D._broadcast([(2,), (3,)])


@pytest.mark.parametrize("lo,rm1,wide,range_arg,thresh", [
    (0, 5, False, 6, 2**32 % 6),
    (-3, 2**32 - 1, False, 2**32, 0),
    (7, 2**31, False, 2**31 + 1, 2**32 % (2**31 + 1)),
    (0, 3 * 2**62 - 1, True, 3 * 2**62 - 1, 2**64 % (3 * 2**62)),
    (0, 2**64 - 1, True, 2**64 - 1, 0),
])
def test_bounded_passes_lemire_thresholds(lo, rm1, wide, range_arg, thresh):
    calls = []

    class BitGen:
        _engine = "philox"

        def _bulk(self, builder, bargs, out, per_block, args):
            calls.append((bargs, per_block, [int(a) for a in args]))

    out = numpy.empty(3, numpy.int64)
    D.bounded(BitGen(), out, lo, rm1)
    assert calls == [(("l", wide), 2 if wide else 4, [range_arg, thresh, lo % 2**64])]
