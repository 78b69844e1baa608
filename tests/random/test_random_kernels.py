"""CPU tests of cuarray.random's CUDA C: NVRTC compiles it for sm_90, and the same kernels,
built as host C++ with g++ and run thread by thread, are checked against Random123's
known answers, a NumPy Philox, and SciPy's distributions.

Running the real kernel sources on the host (no shared memory or warp intrinsics are
used, so sequential threads are exact) tests the counter layout, tails, alignment and
every sampling algorithm without a GPU.
"""
import ctypes
import functools
import math
import os
import re
import shutil
import subprocess
import tempfile

import numpy
import pytest
from scipy import stats

from cuarray.random import _kernels as K

# ---- NVRTC ------------------------------------------------------------------------------------


def _nvrtc(wrappers):
    from cuda.core import Program, ProgramOptions
    src = K.LIBRARY + "".join(f"namespace k{i} {{\n{w}\n}}\n" for i, w in enumerate(wrappers))
    Program(src, "c++", ProgramOptions(arch="sm_90", std="c++17")).compile("cubin")


def _representative():
    """One kernel of every shape: each distribution, bulk form, integer width and engine."""
    out = [K.element_kernel(d, "philox", "l" if K.DISTS[d][0][:1] == "l" or d in (
        "poisson", "binomial", "negative_binomial", "geometric", "hypergeometric", "logseries",
        "zipf", "integers") else "d") for d in K.DISTS]
    out += [K.row_kernel(d, "philox", "l") for d in K.ROW_DISTS]
    out += [K.bulk_kernel(d, c) for d, v in K.DISTS.items() if v[2] for c in "fd"]
    out += [K.bounded_kernel(c, w) for c in "?bhiL" for w in (False, True)]
    out += [K.raw_kernel(), K.check_kernel("t", "dl", ("a0 < 0", "a1 > 3"))]
    for e in ("xorwow", "mrg32k3a"):
        out += [K.init_kernel(e), K.raw_stateful_kernel(e), K.element_kernel("gamma", e, "f"),
                K.element_kernel("uniform", e, "d"), K.row_kernel("multinomial", e, "l")]
    return out


def test_nvrtc_compiles_every_kernel_shape():
    _nvrtc([w for _, w in _representative()])


@pytest.mark.slow
def test_nvrtc_compiles_every_kernel():
    _nvrtc([w for _, w in K.all_kernels()])


def test_kernel_names_are_unique_per_source():
    seen = {}
    for name, wrapper in K.all_kernels():
        assert seen.setdefault(name, wrapper) == wrapper
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)


# ---- the host build -------------------------------------------------------------------------

_PRELUDE = r"""
#include <cmath>
#include <cstdint>
using namespace std;
#define __device__
#define __global__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
struct uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
struct dim3_t { unsigned x, y, z; };
extern "C" { dim3_t blockIdx, threadIdx, blockDim, gridDim; }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline void sincospi(double x, double* s, double* c) { *s = sin(M_PI * x); *c = cos(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline void __sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) {
  unsigned long long o = *p; *p += v; return o;
}
extern "C" void philox_kat(const unsigned* c, const unsigned* k, unsigned* out);
"""

_KAT = r"""
extern "C" void philox_kat(const unsigned* c, const unsigned* k, unsigned* out) {
  const uint4 r = philox4x32_10(make_uint4(c[0], c[1], c[2], c[3]), make_uint2(k[0], k[1]));
  out[0] = r.x; out[1] = r.y; out[2] = r.z; out[3] = r.w;
}
"""

_CT = {"u64": ctypes.c_uint64, "i64": ctypes.c_int64, "double": ctypes.c_double,
       "long long": ctypes.c_int64}


def _host_kernels():
    ks = _representative()
    ks += [K.element_kernel(d, "philox", "f") for d in ("gamma", "normal", "uniform")]
    ks += [K.bounded_kernel(c, False) for c in "lIB"]
    ks += [K.element_kernel("integers", e, "l") for e in ("philox", "xorwow")]
    ks += [K.element_kernel(d, e, "d") for d in ("normal", "beta") for e in ("xorwow", "mrg32k3a")]
    ks += [K.element_kernel("integers", "philox", "L"), K.row_kernel("dirichlet", "philox", "d")]
    return list(dict(ks).items())


class _Host:
    """The kernels built as a host shared library; `run` executes a launch thread by thread."""

    def __init__(self, path, wrappers):
        self.lib = ctypes.CDLL(path)
        self.lib.philox_kat.argtypes = [ctypes.c_void_p] * 3
        self.sigs = {}
        for name, w in wrappers:
            params = re.search(re.escape(name) + r"\((.*?)\)\s*\{", w, re.S).group(1)
            types = []
            for p in params.split(","):
                p = " ".join(p.replace("__restrict__", "").split())
                if "*" in p:
                    types.append(ctypes.c_void_p)
                else:
                    t = p.replace("const ", "").rsplit(" ", 1)[0]
                    types.append(_CT[t])
            fn = getattr(self.lib, name)
            fn.argtypes, fn.restype = types, None
            self.sigs[name] = fn
        self.dims = {d: (ctypes.c_uint * 3).in_dll(self.lib, d)
                     for d in ("blockIdx", "threadIdx", "blockDim", "gridDim")}

    def run(self, name, grid, block, *args):
        fn = self.sigs[name]
        self.dims["gridDim"][0], self.dims["blockDim"][0] = grid, block
        conv = [a.ctypes.data if isinstance(a, numpy.ndarray) else a for a in args]
        for b in range(grid):
            self.dims["blockIdx"][0] = b
            for t in range(block):
                self.dims["threadIdx"][0] = t
                fn(*conv)


@functools.cache
def _host():
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler to build the kernels for the host")
    wrappers = _host_kernels()
    src = _PRELUDE + K.LIBRARY + _KAT + "".join(
        f"namespace k{i} {{\n{w}\n}}\n" for i, (_, w) in enumerate(wrappers))
    d = tempfile.mkdtemp(prefix="cuarray_random_host_")
    cpp, so = os.path.join(d, "k.cpp"), os.path.join(d, "k.so")
    with open(cpp, "w") as fh:
        fh.write(src)
    r = subprocess.run([cxx, "-std=c++17", "-O2", "-shared", "-fPIC", "-Wno-unknown-pragmas",
                        "-o", so, cpp], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:4000]
    return _Host(so, wrappers)


# ---- a NumPy Philox4x32-10 ------------------------------------------------------------------
_U32 = numpy.uint64(0xFFFFFFFF)


def philox_np(ctr, key):
    """Philox4x32-10 of counters `ctr` ((N, 4) words) under `key` (two words)."""
    c = [numpy.asarray(ctr, numpy.uint64)[:, j] for j in range(4)]
    k0, k1 = numpy.uint64(key[0]), numpy.uint64(key[1])
    for r in range(10):
        if r:
            k0 = (k0 + numpy.uint64(0x9E3779B9)) & _U32
            k1 = (k1 + numpy.uint64(0xBB67AE85)) & _U32
        p0 = c[0] * numpy.uint64(0xD2511F53)
        p1 = c[2] * numpy.uint64(0xCD9E8D57)
        c = [(p1 >> numpy.uint64(32)) ^ c[1] ^ k0, p1 & _U32,
             (p0 >> numpy.uint64(32)) ^ c[3] ^ k1, p0 & _U32]
    return numpy.stack(c, axis=1).astype(numpy.uint32)


def block_words(key, positions, draw=0, tag=0):
    """The four words of the Philox blocks at `positions` (counter layout of _kernels)."""
    pos = numpy.asarray(positions, numpy.uint64)
    ctr = numpy.stack([pos & _U32, pos >> numpy.uint64(32), numpy.full_like(pos, draw),
                       numpy.full_like(pos, tag)], axis=1)
    return philox_np(ctr, (key & 0xFFFFFFFF, key >> 32))


KATS = [  # Random123's kat_vectors: counter, key, expected
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff,) * 4, (0xffffffff,) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]


@pytest.mark.parametrize("ctr,key,expected", KATS)
def test_philox_known_answers(ctr, key, expected):
    assert tuple(philox_np([ctr], key)[0]) == expected
    out = numpy.zeros(4, numpy.uint32)
    _host().lib.philox_kat(numpy.array(ctr, numpy.uint32).ctypes.data,
                           numpy.array(key, numpy.uint32).ctypes.data, out.ctypes.data)
    assert tuple(out) == expected


KEY = 0x0123456789ABCDEF


def _bulk(name, dtype, n, *args, grid=3, block=32, offset=0, key=KEY, ctr=5):
    """Run a bulk kernel into a fresh buffer, `offset` elements past a 16-byte boundary."""
    buf = numpy.zeros(n + 8, dtype)
    out = buf[offset:offset + n]
    assert out.ctypes.data % 16 == (offset * buf.itemsize) % 16
    _host().run(name, grid, block, out, n, key, ctr, *args)
    return out.copy()


@pytest.mark.parametrize("n", [0, 1, 4, 7, 1001])
def test_raw_words_follow_the_counter_layout(n):
    got = _bulk(K.raw_kernel()[0], numpy.uint32, n)
    words = block_words(KEY, 5 + numpy.arange((n + 3) // 4)).reshape(-1)[:n]
    numpy.testing.assert_array_equal(got, words)


@pytest.mark.parametrize("offset", [0, 1, 2, 3])
@pytest.mark.parametrize("grid,block", [(1, 1), (1, 64), (7, 32), (64, 256)])
def test_uniform_f32_is_independent_of_launch_and_alignment(grid, block, offset):
    name = K.bulk_kernel("uniform", "f")[0]
    got = _bulk(name, numpy.float32, 1003, 0.0, 1.0, 0.0, grid=grid, block=block, offset=offset)
    words = block_words(KEY, 5 + numpy.arange(251)).reshape(-1)[:1003]
    numpy.testing.assert_array_equal(got, (words >> 8).astype(numpy.float32) * numpy.float32(2**-24))
    assert got.max() < 1.0 and got.min() >= 0.0


@pytest.mark.parametrize("offset", [0, 1])
def test_uniform_f64_uses_53_bits(offset):
    name = K.bulk_kernel("uniform", "d")[0]
    got = _bulk(name, numpy.float64, 999, 0.0, 1.0, 0.0, offset=offset)
    w = block_words(KEY, 5 + numpy.arange(500)).reshape(-1, 2)[:999].astype(numpy.float64)
    expected = (numpy.floor(w[:, 0] / 32) * 67108864.0 + numpy.floor(w[:, 1] / 64)) * 2.0**-53
    numpy.testing.assert_array_equal(got, expected)


def test_normal_bulk_is_box_muller_of_its_block():
    got = _bulk(K.bulk_kernel("normal", "f")[0], numpy.float32, 402, 0.0, 1.0, 0.0)
    w = block_words(KEY, 5 + numpy.arange(101)).reshape(-1, 2)[:201].astype(numpy.float64)
    r = numpy.sqrt(-2 * numpy.log((numpy.floor(w[:, 0] / 256) + 1) * 2.0**-24))
    t = (numpy.floor(w[:, 1] / 256) * 2.0**-24 - 0.5) * 2 * numpy.pi
    expected = numpy.stack([r * numpy.cos(t), r * numpy.sin(t)], axis=1).reshape(-1)[:402]
    numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    got64 = _bulk(K.bulk_kernel("normal", "d")[0], numpy.float64, 5, 2.0, 3.0, 0.0, grid=1, block=2)
    assert numpy.isfinite(got64).all()


def _lemire_reference(key, n, ctr, r):
    """Bounded integers in [0, r) (r <= 2**32) exactly as the narrow kernel draws them."""
    thresh = (2**32 - r) % r
    words = block_words(key, ctr + numpy.arange((n + 3) // 4))
    out = []
    for i in range(n):
        q, lane = divmod(i, 4)
        m = int(words[q, lane]) * r
        draw, buf = 0, []
        while m % 2**32 < thresh:  # the rejected lane's own stream: tag 1 + lane
            if not buf:
                buf = list(block_words(key, [ctr + q], draw, 1 + lane)[0])
                draw += 1
            m = int(buf.pop(0)) * r
        out.append(m >> 32)
    return numpy.array(out)


@pytest.mark.parametrize("r", [1, 6, 2**31 + 1, 2**32])
@pytest.mark.parametrize("grid,block", [(1, 1), (5, 32)])
def test_bounded32_is_lemire_with_per_lane_retries(r, grid, block):
    name = K.bounded_kernel("l", False)[0]
    thresh = (2**32 - r) % r
    got = _bulk(name, numpy.int64, 203, r, thresh, 2**64 - 3, grid=grid, block=block)
    numpy.testing.assert_array_equal(got, _lemire_reference(KEY, 203, 5, r) - 3)


def test_bounded32_small_types_and_alignment():
    for c, dt in (("B", numpy.uint8), ("I", numpy.uint32), ("?", numpy.bool_)):
        name = K.bounded_kernel(c, False)[0]
        for off in (0, 1):
            got = _bulk(name, dt, 37, 2, 0, 0, offset=off)
            numpy.testing.assert_array_equal(got.astype(numpy.int64), _lemire_reference(KEY, 37, 5, 2))


def test_bounded64_full_and_wide_ranges():
    name = K.bounded_kernel("L", True)[0]
    full = _bulk(name, numpy.uint64, 9, 2**64 - 1, 0, 0)
    w = block_words(KEY, 5 + numpy.arange(5)).reshape(-1, 2)[:9].astype(numpy.uint64)
    numpy.testing.assert_array_equal(full, (w[:, 0] << numpy.uint64(32)) | w[:, 1])
    r = 3 * 2**62  # rejects a quarter of the draws
    got = _bulk(name, numpy.uint64, 20001, r - 1, (2**64 - r) % r, 0)
    assert int(got.max()) < r
    counts = numpy.bincount((got // numpy.uint64(2**62)).astype(numpy.int64), minlength=3)
    assert stats.chisquare(counts).pvalue > 1e-4


# ---- element kernels ----------------------------------------------------------------------------

def _states(engine, ns, key=KEY):
    states = numpy.zeros(6 * ns, numpy.uint32)
    _host().run(K.init_kernel(engine)[0], -(-ns // 64), 64, states, ns, key)
    return states


def sample(dist, params, n=100_000, out="d", engine="philox", key=KEY, ctr=7, grid=8,
           block=64, ns=1000, row=None):
    """Run an element (or, with row=vector, row) kernel on the host."""
    if row is None:
        name = K.element_kernel(dist, engine, out)[0]
        kinds, size = K.DISTS[dist][0], n
    else:
        name = K.row_kernel(dist, engine, out)[0]
        kinds = K.ROW_DISTS[dist][0]
        size = n * (len(row) if dist != "choice_cdf" else 1)
    res = numpy.zeros(size, numpy.dtype(out))
    args = []
    for p, kind in zip(params, kinds):
        if isinstance(p, numpy.ndarray):  # (array, div, mod)
            arr, div, mod = p
            args += [arr, div, mod, 0.0 if kind == "d" else 0]
        else:
            args += [None, 1, 1, float(p) if kind == "d" else int(p)]
    if row is not None:
        args += [row, len(row)]
    if engine == "philox":
        args += [key, ctr, None, 0]
    else:
        args += [0, 0, _states(engine, ns, key), ns]
        grid, block = -(-ns // 64), 64
    _host().run(name, grid, block, res, n, *args)
    return res


def ks(x, dist):
    return stats.kstest(x, dist.cdf).pvalue


def chi2(x, dist, lo=None):
    """Chi-square p-value of integer samples against a scipy discrete distribution, with
    cells of expected count >= 20 and lumped tails."""
    x = numpy.asarray(x, numpy.int64)
    n = x.size
    ks_ = numpy.arange(x.min() if lo is None else lo, x.max() + 1)
    exp = dist.pmf(ks_) * n
    obs = numpy.array([numpy.count_nonzero(x == k) for k in ks_], float)
    e_acc, o_acc, cells_e, cells_o = 0.0, 0.0, [], []
    for e, o in zip(exp, obs):
        e_acc += e
        o_acc += o
        if e_acc >= 20:
            cells_e.append(e_acc)
            cells_o.append(o_acc)
            e_acc = o_acc = 0.0
    cells_e[-1] += e_acc + (n - sum(cells_e) - e_acc)  # everything beyond the last cell
    cells_o[-1] += o_acc
    assert abs(sum(cells_o) - n) < 1e-6
    return stats.chisquare(cells_o, cells_e).pvalue


CONTINUOUS = [
    ("uniform", (-2.0, 3.0), stats.uniform(-2, 5)),
    ("exponential", (2.5,), stats.expon(scale=2.5)),
    ("gumbel", (1.0, 2.0), stats.gumbel_r(1, 2)),
    ("laplace", (1.0, 2.0), stats.laplace(1, 2)),
    ("logistic", (1.0, 2.0), stats.logistic(1, 2)),
    ("rayleigh", (2.0,), stats.rayleigh(scale=2)),
    ("weibull", (1.7,), stats.weibull_min(1.7)),
    ("pareto", (3.0,), stats.lomax(3.0)),
    ("power", (0.4,), stats.powerlaw(0.4)),
    ("standard_cauchy", (), stats.cauchy()),
    ("triangular", (-1.0, 0.5, 4.0), stats.triang(0.3, loc=-1, scale=5)),
    ("normal", (1.0, 3.0), stats.norm(1, 3)),
    ("lognormal", (0.5, 0.8), stats.lognorm(0.8, scale=math.exp(0.5))),
    ("standard_gamma", (0.3,), stats.gamma(0.3)),
    ("standard_gamma", (1.0,), stats.gamma(1.0)),
    ("standard_gamma", (2.5,), stats.gamma(2.5)),
    ("standard_gamma", (150.0,), stats.gamma(150.0)),
    ("gamma", (0.8, 3.0), stats.gamma(0.8, scale=3)),
    ("beta", (0.5, 0.7), stats.beta(0.5, 0.7)),
    ("beta", (0.3, 0.2), stats.beta(0.3, 0.2)),
    ("beta", (0.5, 3.0), stats.beta(0.5, 3.0)),
    ("beta", (2.0, 5.0), stats.beta(2.0, 5.0)),
    ("chisquare", (3.0,), stats.chi2(3)),
    ("noncentral_chisquare", (3.0, 2.0), stats.ncx2(3, 2)),
    ("noncentral_chisquare", (0.5, 1.5), stats.ncx2(0.5, 1.5)),
    ("f", (5.0, 7.0), stats.f(5, 7)),
    ("noncentral_f", (5.0, 7.0, 2.0), stats.ncf(5, 7, 2)),
    ("standard_t", (4.0,), stats.t(4)),
    ("vonmises", (0.0, 4.0), stats.vonmises(4.0)),
    ("vonmises", (0.0, 0.3), stats.vonmises(0.3)),
    ("wald", (2.0, 3.0), stats.invgauss(2.0 / 3.0, scale=3.0)),
    ("weighted_key", (0.25,), stats.expon(scale=4.0)),
]


@pytest.mark.parametrize("dist,params,ref", CONTINUOUS, ids=[f"{d}{p}" for d, p, _ in CONTINUOUS])
def test_continuous_distribution(dist, params, ref):
    x = sample(dist, params)
    assert numpy.isfinite(x).all()
    assert ks(x, ref) > 1e-4


DISCRETE = [
    ("poisson", (3.5,), stats.poisson(3.5)),
    ("poisson", (50.0,), stats.poisson(50.0)),
    ("poisson", (12345.6,), stats.poisson(12345.6)),
    ("binomial", (20, 0.3), stats.binom(20, 0.3)),
    ("binomial", (1000, 0.4), stats.binom(1000, 0.4)),
    ("binomial", (100, 0.9), stats.binom(100, 0.9)),
    ("binomial", (50, 0.97), stats.binom(50, 0.97)),
    ("binomial", (10**9, 1e-3), stats.binom(10**9, 1e-3)),
    ("negative_binomial", (3.5, 0.4), stats.nbinom(3.5, 0.4)),
    ("geometric", (0.1,), stats.geom(0.1)),
    ("geometric", (0.7,), stats.geom(0.7)),
    ("hypergeometric", (20, 30, 7), stats.hypergeom(50, 20, 7)),
    ("hypergeometric", (200, 300, 150), stats.hypergeom(500, 200, 150)),
    ("hypergeometric", (1000, 50, 1030), stats.hypergeom(1050, 1000, 1030)),
    ("hypergeometric", (3000, 900, 1200), stats.hypergeom(3900, 3000, 1200)),
    ("logseries", (0.3,), stats.logser(0.3)),
    ("logseries", (0.9,), stats.logser(0.9)),
    ("zipf", (2.5,), stats.zipf(2.5)),
]


@pytest.mark.parametrize("dist,params,ref", DISCRETE, ids=[f"{d}{p}" for d, p, _ in DISCRETE])
def test_discrete_distribution(dist, params, ref):
    x = sample(dist, params, out="l")
    assert chi2(x, ref) > 1e-4


@pytest.mark.parametrize("engine", ["xorwow", "mrg32k3a"])
@pytest.mark.parametrize("dist,params,ref", [
    ("uniform", (0.0, 1.0), stats.uniform()),
    ("normal", (0.0, 1.0), stats.norm()),
    ("beta", (2.0, 3.0), stats.beta(2, 3)),
])
def test_stateful_engines(engine, dist, params, ref):
    x = sample(dist, params, engine=engine)
    assert ks(x, ref) > 1e-4
    # reproducible, and a different key gives different numbers
    numpy.testing.assert_array_equal(x[:100], sample(dist, params, n=100, engine=engine))
    assert not numpy.array_equal(x[:100], sample(dist, params, n=100, engine=engine, key=7))


@pytest.mark.parametrize("engine", ["xorwow", "mrg32k3a"])
def test_stateful_raw_words_are_uniform(engine):
    ns, n = 512, 1 << 16
    words = numpy.zeros(n, numpy.uint32)
    _host().run(K.raw_stateful_kernel(engine)[0], ns // 64, 64, words, n, 0, 0,
                _states(engine, ns), ns)
    counts = numpy.bincount(words >> 24, minlength=256)
    assert stats.chisquare(counts).pvalue > 1e-4
    bits = numpy.unpackbits(words.view(numpy.uint8)).reshape(-1, 32).mean(axis=0)
    assert numpy.abs(bits - 0.5).max() < 0.01


@pytest.mark.parametrize("mu,kappa", [(0.5, 4.0), (-2.0, 0.3), (3.0, 2e6)])
def test_vonmises_wraps_to_the_circle(mu, kappa):
    x = sample("vonmises", (mu, kappa))
    assert (numpy.abs(x) <= numpy.pi).all()
    centred = numpy.mod(x - mu + numpy.pi, 2 * numpy.pi) - numpy.pi
    assert ks(centred, stats.vonmises(kappa)) > 1e-4


def test_element_results_do_not_depend_on_the_grid():
    a = sample("gamma", (0.7, 2.0), n=5000, grid=1, block=1)
    b = sample("gamma", (0.7, 2.0), n=5000, grid=13, block=96)
    numpy.testing.assert_array_equal(a, b)
    c = sample("gamma", (0.7, 2.0), n=5000, ctr=8)
    numpy.testing.assert_array_equal(a[1:], c[:-1])  # element i owns position ctr + i


def test_array_parameters_follow_div_and_mod():
    loc = numpy.array([0.0, 100.0, 200.0])
    h = _host()
    name = K.element_kernel("normal", "philox", "d")[0]
    got = numpy.zeros(12)
    # output (4, 3), loc along the last axis: element i reads loc[(i // 1) % 3]
    h.run(name, 2, 4, got, 12, loc, 1, 3, 0.0, None, 1, 1, 0.001, KEY, 7, None, 0)
    numpy.testing.assert_allclose(got.reshape(4, 3) - loc, 0, atol=0.01)
    # output (3, 4), loc along the first axis: element i reads loc[(i // 4) % 3]
    h.run(name, 2, 4, got, 12, loc, 4, 3, 0.0, None, 1, 1, 0.001, KEY, 7, None, 0)
    numpy.testing.assert_allclose(got.reshape(3, 4) - loc[:, None], 0, atol=0.01)
    # mod 0: element i reads element i
    full = numpy.arange(12.0) * 10
    h.run(name, 2, 4, got, 12, full, 1, 0, 0.0, None, 1, 1, 0.001, KEY, 7, None, 0)
    numpy.testing.assert_allclose(got - full, 0, atol=0.01)


def test_integers_element_kernel_wraps_modularly():
    x = sample("integers", (-5, 5, 1), n=20000, out="l")
    assert x.min() == -5 and x.max() == 4
    assert stats.chisquare(numpy.bincount(x + 5)).pvalue > 1e-4
    big = sample("integers", (0, -1, 0), n=1000, out="L")  # [0, 2**64 - 1]
    assert big.dtype == numpy.uint64 and big.max() > 2**63


def test_multinomial_rows():
    p = numpy.array([0.2, 0.5, 0.3])
    x = sample("multinomial", (40,), n=20000, out="l", row=p).reshape(-1, 3)
    assert (x.sum(axis=1) == 40).all()
    for j in range(3):
        assert chi2(x[:, j], stats.binom(40, p[j])) > 1e-4


def test_dirichlet_rows():
    alpha = numpy.array([0.5, 2.0, 3.0])
    x = sample("dirichlet", (), n=20000, row=alpha).reshape(-1, 3)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for j in range(3):
        assert ks(x[:, j], stats.beta(alpha[j], alpha.sum() - alpha[j])) > 1e-4


def test_dirichlet_small_alpha_matches_numpy():
    # Stick breaking: a third of these components round to exactly 0 or 1 in double, so
    # compare with NumPy's sampler (two-sample KS) rather than SciPy's CDF.
    alpha = numpy.array([0.05, 0.02, 0.08])
    x = sample("dirichlet", (), n=20000, row=alpha).reshape(-1, 3)
    y = numpy.random.default_rng(5).dirichlet(alpha, 20000)
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for j in range(3):
        assert stats.ks_2samp(x[:, j], y[:, j]).pvalue > 1e-4


def test_multivariate_hypergeometric_rows():
    colors = numpy.array([30, 12, 58], numpy.int64)
    x = sample("multivariate_hypergeometric", (25,), n=20000, out="l", row=colors).reshape(-1, 3)
    assert (x.sum(axis=1) == 25).all()
    for j in range(3):
        assert chi2(x[:, j], stats.hypergeom(100, colors[j], 25)) > 1e-4


def test_choice_cdf_never_picks_zero_weights():
    p = numpy.array([0.0, 0.3, 0.0, 0.7, 0.0])
    x = sample("choice_cdf", (), n=50000, out="l", row=numpy.cumsum(p))
    counts = numpy.bincount(x, minlength=5)
    assert counts[[0, 2, 4]].sum() == 0
    assert stats.chisquare(counts[[1, 3]], 50000 * p[[1, 3]]).pvalue > 1e-4


def test_check_kernel_counts_violations():
    h = _host()
    name = K.check_kernel("t", "dl", ("a0 < 0", "a1 > 3"))[0]
    counts = numpy.zeros(2, numpy.uint64)
    a = numpy.array([-1.0, 2.0, -3.0, 0.0])
    b = numpy.array([1, 5, 7, 2, 9], numpy.int64)
    # a along the leading axis of a (4, 5) domain, b along the trailing one
    h.run(name, 3, 8, counts, 20, a, 5, 4, 0.0, b, 1, 5, 0)
    assert list(counts) == [2 * 5, 3 * 4]
