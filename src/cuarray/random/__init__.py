"""cuarray.random: NumPy/CuPy random sampling on the GPU (cuarray version of `cupy.random`).

Both APIs draw from cuarray's own counter-based Philox4x32-10 kernels by default: a seed
gives the same numbers on every run and GPU, whatever the launch configuration.
"""
from cuarray.random._bit_generator import BitGenerator, MRG32k3a, Philox4x3210, XORWOW  # noqa: F401
from cuarray.random._generator import (  # noqa: F401
    RandomState, get_random_state, reset_states, seed, set_random_state,
    beta, binomial, bytes, chisquare, choice, dirichlet, exponential, f, gamma, geometric, gumbel,
    hypergeometric, laplace, logistic, lognormal, logseries, multinomial, multivariate_normal,
    negative_binomial, noncentral_chisquare, noncentral_f, normal, pareto, permutation, poisson,
    power, rand, randint, randn, random_integers, random_sample, rayleigh, shuffle,
    standard_cauchy, standard_exponential, standard_gamma, standard_normal, standard_t,
    triangular, uniform, vonmises, wald, weibull, zipf)
from cuarray.random._generator import random_sample as random  # noqa: F401
from cuarray.random._generator import random_sample as ranf  # noqa: F401
from cuarray.random._generator import random_sample as sample  # noqa: F401
from cuarray.random._new_generator import Generator, default_rng  # noqa: F401
