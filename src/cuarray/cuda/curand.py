"""CuPy's `cupy.cuda.curand`: cuRAND host API by its C names on int generator handles.

`createGenerator(rng_type)`, `setPseudoRandomGeneratorSeed(generator, seed)`,
`setStream(generator, stream)`, `generateUniform(generator, ptr, n)`,
`generateNormal(generator, ptr, n, mean, stddev)`, `destroyGenerator(generator)`, ...
For random arrays, use `cuarray.random`.
"""
from cuarray._libs import bindings as _b
from cuarray.cuda._libnames import make_getattr

CURAND_RNG_TEST = 0
CURAND_RNG_PSEUDO_DEFAULT, CURAND_RNG_PSEUDO_XORWOW = 100, 101
CURAND_RNG_PSEUDO_MRG32K3A, CURAND_RNG_PSEUDO_MTGP32 = 121, 141
CURAND_RNG_PSEUDO_MT19937, CURAND_RNG_PSEUDO_PHILOX4_32_10 = 142, 161
CURAND_RNG_QUASI_DEFAULT, CURAND_RNG_QUASI_SOBOL32 = 200, 201
CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, CURAND_RNG_QUASI_SOBOL64 = 202, 203
CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
CURAND_ORDERING_PSEUDO_BEST, CURAND_ORDERING_PSEUDO_DEFAULT = 100, 101
CURAND_ORDERING_PSEUDO_SEEDED, CURAND_ORDERING_QUASI_DEFAULT = 102, 201

CURANDError = _b.error_class("curand")

__getattr__ = make_getattr("curand", __name__)
