"""The new API: Generator and default_rng."""
import numpy

from cuarray.random._bit_generator import BitGenerator, Philox4x3210
from cuarray.random._distributions import _Distributions


class Generator(_Distributions):
    """Draws from a bit generator (cuarray version of `cupy.random.Generator`).

    Every NumPy `Generator` method is provided; results are cuarray arrays (0-d for
    `size=None`). The float methods also take `dtype` (float32 or float64).
    """

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError("bit_generator must be a cuarray.random.BitGenerator, not "
                            f"{type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    def __repr__(self):
        return f"Generator({type(self._bit_generator).__name__})"

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        """`n_children` independent Generators (from the bit generator's SeedSequence)."""
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    def random(self, size=None, dtype=numpy.float64, out=None):
        """cuarray version of `numpy.random.Generator.random`: uniform on [0, 1)."""
        return self._f("uniform", (0.0, 1.0), size, dtype, out)

    def integers(self, low, high=None, size=None, dtype=numpy.int64, endpoint=False):
        """cuarray version of `numpy.random.Generator.integers` (Lemire's exact
        multiply-shift; array bounds are accepted)."""
        return self._integers(low, high, size, dtype, endpoint)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", dtype=float):
        """cuarray version of `numpy.random.Generator.multivariate_normal`; uses cuarray.linalg."""
        return self._multivariate_normal(mean, cov, size, check_valid, tol, method, dtype)


def default_rng(seed=None):
    """A Generator on Philox4x3210 (cuarray version of `cupy.random.default_rng`).

    `seed` may be a Generator (returned as is), a BitGenerator (wrapped), or anything a
    `numpy.random.SeedSequence` takes. CuPy defaults to XORWOW; cuarray's default is the
    counter-based Philox, reproducible on every GPU.
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    return Generator(Philox4x3210(seed))
