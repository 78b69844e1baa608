"""The legacy API: RandomState, the global state per device, and the module functions."""
import atexit
import binascii
import hashlib
import inspect
import os

import numpy

from cuarray._core.ndarray import ndarray
from cuarray._runtime.device import get_device_id
from cuarray.random import _bit_generator as _bg
from cuarray.random._distributions import _Distributions

# cuRAND's generator ids, which CuPy's RandomState(method=...) takes.
CURAND_RNG_PSEUDO_DEFAULT = 100
CURAND_RNG_PSEUDO_XORWOW = 101
CURAND_RNG_PSEUDO_MRG32K3A = 121
CURAND_RNG_PSEUDO_MTGP32 = 141
CURAND_RNG_PSEUDO_MT19937 = 142
CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161
_METHODS = {
    None: _bg.Philox4x3210, CURAND_RNG_PSEUDO_DEFAULT: _bg.Philox4x3210,
    CURAND_RNG_PSEUDO_PHILOX4_32_10: _bg.Philox4x3210,
    CURAND_RNG_PSEUDO_XORWOW: _bg.XORWOW, CURAND_RNG_PSEUDO_MRG32K3A: _bg.MRG32k3a,
}


def seed_to_key(seed):
    """The 64-bit key of a legacy seed, as CuPy derives it.

    None: 8 bytes of OS entropy. An integer in [0, 2**64): itself. An array (NumPy,
    cuarray, or a list/tuple of ints): the first 16 hex digits of the MD5 of its bytes.
    """
    if seed is None:
        return int(binascii.hexlify(os.urandom(8)), 16)
    if isinstance(seed, ndarray):
        seed = seed.get()
    if isinstance(seed, (list, tuple)):
        seed = numpy.asarray(seed)
    if isinstance(seed, numpy.ndarray) and seed.ndim > 0:
        if seed.dtype.kind not in "biu":
            raise TypeError(f"Seed must be an integer or an array of integers, not {seed.dtype}")
        return int(hashlib.md5(numpy.ascontiguousarray(seed)).hexdigest()[:16], 16)
    if isinstance(seed, numpy.ndarray):
        seed = seed[()]
    if isinstance(seed, (bool, numpy.bool_)) or not isinstance(seed, (int, numpy.integer)):
        raise TypeError(f"Seed must be an integer, not {type(seed).__name__}")
    seed = int(seed)
    if not 0 <= seed < 1 << 64:
        raise ValueError(f"Seed must be between 0 and 2**64 - 1, got {seed}")
    return seed


class RandomState(_Distributions):
    """A legacy random state (cuarray version of `cupy.random.RandomState`).

    Draws come from cuarray's counter-based Philox4x32-10 kernels keyed by the seed, so a
    seed gives the same numbers on every run and every GPU. `method` takes CuPy's cuRAND
    ids: DEFAULT and PHILOX4_32_10 use Philox, XORWOW and MRG32K3A cuarray's own
    stateful engines; MTGP32 and MT19937 are not provided. The numbers differ from
    CuPy's (which uses cuRAND's XORWOW by default).
    """

    def __init__(self, seed=None, method=None):
        if method not in _METHODS:
            raise ValueError(f"method {method!r} is not supported: use None (Philox4x32-10), "
                             f"{CURAND_RNG_PSEUDO_PHILOX4_32_10} (PHILOX4_32_10), "
                             f"{CURAND_RNG_PSEUDO_XORWOW} (XORWOW) or "
                             f"{CURAND_RNG_PSEUDO_MRG32K3A} (MRG32K3A)")
        self.method = method
        self.seed(seed)

    def seed(self, seed=None):
        """Reset the state from `seed` (see `seed_to_key`): the counter restarts at 0."""
        self._bit_generator = _METHODS[self.method](key=seed_to_key(seed))

    # ---- the legacy names ------------------------------------------------------------------
    def random_sample(self, size=None, dtype=float):
        """cuarray version of `numpy.random.RandomState.random_sample`: uniform on [0, 1)."""
        return self._f("uniform", (0.0, 1.0), size, dtype)

    random = random_sample

    def rand(self, *size, dtype=float):
        """cuarray version of `numpy.random.RandomState.rand`."""
        return self.random_sample(size=size, dtype=dtype)

    def randn(self, *size, dtype=float):
        """cuarray version of `numpy.random.RandomState.randn`."""
        return self.normal(size=size, dtype=dtype)

    def randint(self, low, high=None, size=None, dtype=int):
        """cuarray version of `numpy.random.RandomState.randint`: [low, high), Lemire's
        exact multiply-shift."""
        return self._integers(low, high, size, dtype, endpoint=False)

    def random_integers(self, low, high=None, size=None):
        """cuarray version of `numpy.random.RandomState.random_integers`: [low, high]."""
        if high is None:
            low, high = 1, low
        return self._integers(low, high, size, int, endpoint=True)

    def tomaxint(self, size=None):
        """Integers uniform on [0, int64 max] (cuarray version of `RandomState.tomaxint`)."""
        return self._integers(0, numpy.iinfo(numpy.int64).max, size, numpy.int64, endpoint=True)

    def permutation(self, a):
        """cuarray version of `cupy.random.RandomState.permutation`: a permuted range for an
        int, else a copy of `a` permuted along its first axis."""
        return _Distributions.permutation(self, a)

    def shuffle(self, a):
        """cuarray version of `cupy.random.RandomState.shuffle`: permutes `a` along its
        first axis, in place."""
        _Distributions.shuffle(self, a)

    def multivariate_normal(self, mean, cov, size=None, check_valid="ignore", tol=1e-08,
                            method="cholesky", dtype=float):
        """cuarray version of `numpy.random.RandomState.multivariate_normal` (CuPy's
        defaults: check_valid='ignore', method='cholesky'); uses cuarray.linalg."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


# ---- the global state of each device ---------------------------------------------------------
_random_states = {}


@atexit.register
def reset_states():
    """Forget every device's global RandomState (cuarray version of `cupy.random.reset_states`)."""
    _random_states.clear()


def get_random_state():
    """The current device's global RandomState, created on first use.

    cuarray version of `cupy.random.get_random_state`; `CUARRAY_SEED` (or CuPy's
    `CUPY_SEED`) seeds a new state.
    """
    dev = get_device_id()
    rs = _random_states.get(dev)
    if rs is None:
        env = os.environ.get("CUARRAY_SEED", os.environ.get("CUPY_SEED"))
        rs = _random_states.setdefault(dev, RandomState(None if env is None else int(env)))
    return rs


def set_random_state(rs):
    """Make `rs` the current device's global state (cuarray version of
    `cupy.random.set_random_state`)."""
    if not isinstance(rs, RandomState):
        raise TypeError(f"Random state must be an instance of RandomState. Actual: {type(rs)}")
    _random_states[get_device_id()] = rs


def seed(seed=None):
    """Reseed the current device's global state (cuarray version of `cupy.random.seed`)."""
    get_random_state().seed(seed)


def _global(name):
    """The module-level function `name`: the method of the current device's global state."""
    method = getattr(RandomState, name)

    def f(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = method.__doc__
    sig = inspect.signature(method)
    f.__signature__ = sig.replace(parameters=list(sig.parameters.values())[1:])
    return f


(rand, randn, random_sample, randint, random_integers, choice, shuffle, permutation, uniform,
 normal, standard_normal, standard_exponential, exponential, standard_gamma, gamma, beta,
 binomial, negative_binomial, poisson, geometric, hypergeometric, logseries, zipf, chisquare,
 noncentral_chisquare, f, noncentral_f, standard_t, standard_cauchy, laplace, logistic,
 lognormal, gumbel, pareto, power, rayleigh, triangular, vonmises, wald, weibull, dirichlet,
 multinomial, multivariate_normal, bytes) = (_global(name) for name in (
    "rand", "randn", "random_sample", "randint", "random_integers", "choice", "shuffle",
    "permutation", "uniform", "normal", "standard_normal", "standard_exponential",
    "exponential", "standard_gamma", "gamma", "beta", "binomial", "negative_binomial",
    "poisson", "geometric", "hypergeometric", "logseries", "zipf", "chisquare",
    "noncentral_chisquare", "f", "noncentral_f", "standard_t", "standard_cauchy", "laplace",
    "logistic", "lognormal", "gumbel", "pareto", "power", "rayleigh", "triangular",
    "vonmises", "wald", "weibull", "dirichlet", "multinomial", "multivariate_normal", "bytes"))
