"""CUDA C for cuarray.random: Philox4x32-10, the engines, the distributions, and the
kernels built from them.

Every source is `LIBRARY` plus one small wrapper; the builders below return
`(kernel name, wrapper)`. The library uses no CUDA headers, so it also compiles as
host C++ (the CPU tests run the kernels that way).

Counter layout (what makes results independent of the grid): a Philox block is
`philox(key, (position lo, position hi, draw, tag))`. A call owns the positions
`[ctr, ctr + used)` of its bit generator:
- bulk kernels: output i comes from the block at position `ctr + i / W` (W outputs per
  block, lane `i % W`, draw 0, tag 0); a bounded-integer rejection for lane l redraws
  from tag `1 + l` at the same position;
- element kernels: output (or row) i owns position `ctr + i`, tag 0, draws 0, 1, 2, ...
The stateful engines (XORWOW, MRG32k3a) keep one state per stream instead: stream t
serves elements t, t + S, t + 2S, ... for a fixed stream count S.

`LIBRARY`'s text is in three modules, joined here in order: _cuda_generators.py (Philox,
the engines, uniforms, `Rng`, transforms), _cuda_distributions.py (per-element
distributions) and _cuda_bulk.py (bulk kernel templates).
"""
from cuarray.random._cuda_bulk import BULK
from cuarray.random._cuda_distributions import DISTRIBUTIONS
from cuarray.random._cuda_generators import GENERATORS

LIBRARY = GENERATORS + DISTRIBUTIONS + BULK


# ---- the distributions -------------------------------------------------------------------
# name -> (parameter kinds, device call, bulk form). Kinds: 'd' double, 'l' int64. The call
# sees `g` (an Rng) and `a0, a1, a2`; a bulk form ('u' / 'uo' / 'n', transform) marks a
# closed-form transform of one uniform ([0, 1) / (0, 1)) or one normal, which also has a
# vectorised Philox kernel for scalar parameters.
DISTS = {
    "uniform": ("dd", None, ("u", "xu_uniform")),
    "exponential": ("d", None, ("u", "xu_exponential")),
    "gumbel": ("dd", None, ("uo", "xu_gumbel")),
    "laplace": ("dd", None, ("uo", "xu_laplace")),
    "logistic": ("dd", None, ("uo", "xu_logistic")),
    "rayleigh": ("d", None, ("u", "xu_rayleigh")),
    "weibull": ("d", None, ("u", "xu_weibull")),
    "pareto": ("d", None, ("u", "xu_pareto")),
    "power": ("d", None, ("u", "xu_power")),
    "standard_cauchy": ("", None, ("uo", "xu_cauchy")),
    "triangular": ("ddd", None, ("u", "xu_triangular")),
    "normal": ("dd", None, ("n", "xn_normal")),
    "lognormal": ("dd", None, ("n", "xn_lognormal")),
    "standard_gamma": ("d", "d_standard_gamma(g, a0)", None),
    "gamma": ("dd", "a1 * d_standard_gamma(g, a0)", None),
    "beta": ("dd", "d_beta(g, a0, a1)", None),
    "chisquare": ("d", "2.0 * d_standard_gamma(g, 0.5 * a0)", None),
    "noncentral_chisquare": ("dd", "d_noncentral_chisquare(g, a0, a1)", None),
    "f": ("dd", "d_f(g, a0, a1)", None),
    "noncentral_f": ("ddd", "d_noncentral_f(g, a0, a1, a2)", None),
    "standard_t": ("d", "d_standard_t(g, a0)", None),
    "vonmises": ("dd", "d_vonmises(g, a0, a1)", None),
    "wald": ("dd", "d_wald(g, a0, a1)", None),
    "poisson": ("d", "d_poisson(g, a0)", None),
    "binomial": ("ld", "d_binomial(g, a0, a1)", None),
    "negative_binomial": ("dd", "d_negative_binomial(g, a0, a1)", None),
    "geometric": ("d", "d_geometric(g, a0)", None),
    "hypergeometric": ("lll", "d_hypergeometric(g, a0, a1, a2)", None),
    "logseries": ("d", "d_logseries(g, a0)", None),
    "zipf": ("d", "d_zipf(g, a0)", None),
    # [low, high - exclusive] with modular uint64 arithmetic, so any integer dtype fits.
    "integers": ("lll", "(u64)a0 + g.bounded((u64)a1 - (u64)a0 - (u64)a2)", None),
    # Efraimidis-Spirakis keys: the smallest `size` of E / p are a weighted sample
    # without replacement.
    "weighted_key": ("d", "-log(g.uniform_open()) / a0", None),
}

# Distributions with a row vector (`vec`, length K): element i is a row of K outputs, or
# (choice) one output searched in the vector. name -> (kinds, vector C type, statement).
ROW_DISTS = {
    "choice_cdf": ("", "double", "out[i] = (OUT)cdf_search(vec, K, g.uniform());"),
    "multinomial": ("l", "double", "r_multinomial(g, a0, vec, K, out + i * K);"),
    "dirichlet": ("", "double", "r_dirichlet(g, vec, K, out + i * K);"),
    "multivariate_hypergeometric": (
        "l", "long long", "r_multivariate_hypergeometric(g, a0, vec, K, out + i * K);"),
}

ENGINES = {"philox": "PhiloxEngine", "xorwow": "XorwowEngine", "mrg32k3a": "Mrg32k3aEngine"}

CTYPES = {"?": "bool", "b": "signed char", "B": "unsigned char", "h": "short",
          "H": "unsigned short", "i": "int", "I": "unsigned int", "l": "long long",
          "q": "long long", "L": "unsigned long long", "Q": "unsigned long long",
          "f": "float", "d": "double"}
_SHORT = {"?": "b1", "b": "i8", "B": "u8", "h": "i16", "H": "u16", "i": "i32", "I": "u32",
          "l": "i64", "q": "i64", "L": "u64", "Q": "u64", "f": "f32", "d": "f64"}
_KIND_CTYPE = {"d": "double", "l": "long long"}


def source(wrapper):
    """The full NVRTC source of a kernel: the library, then its wrapper."""
    return LIBRARY + wrapper


def _params(kinds):
    """Kernel parameters and per-element loads for distribution parameters.

    Parameter j is a pointer (null: use the scalar) indexed `(i / div) % mod` (mod 0:
    index i), which covers scalars, full arrays and arrays broadcast along leading or
    trailing axes without materialising them.
    """
    decl, load = [], []
    for j, kind in enumerate(kinds):
        t = _KIND_CTYPE[kind]
        decl.append(f"const {t}* __restrict__ q{j}, const i64 d{j}, const i64 m{j}, const {t} s{j}")
        load.append(f"const {t} a{j} = q{j} ? q{j}[m{j} ? (i / d{j}) % m{j} : i] : s{j};")
    return decl, load


def _element_wrapper(name, engine, out_char, kinds, statement, extra=()):
    cls = ENGINES[engine]
    decl, load = _params(kinds)
    args = ["OUT* __restrict__ out", "const i64 n", *decl, *extra,
            "const u64 key", "const u64 ctr", "u32* __restrict__ states", "const i64 nstates"]
    body = "\n      ".join(load + [statement])
    if engine == "philox":
        loop = f"""  const uint2 k = philox_key(key);
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {{
      Rng<PhiloxEngine> g(PhiloxEngine(k, ctr + (u64)i, 0u));
      {body}
  }}"""
    else:
        loop = f"""  const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nstates) return;
  {cls} e;
  e.load(states, t, nstates);
  Rng<{cls}> g(e);
  for (i64 i = t; i < n; i += nstates) {{
      {body}
  }}
  g.e.store(states, t, nstates);"""
    return f"""
typedef {CTYPES[out_char]} OUT;
extern "C" __global__ void __launch_bounds__(256) {name}({", ".join(args)}) {{
{loop}
}}
"""


def element_kernel(dist, engine, out_char):
    """(name, wrapper) of the one-output-per-element kernel for `dist` (any engine)."""
    kinds, call, bulk = DISTS[dist]
    if call is None:
        form, fn = bulk
        draw = {"u": "g.uniform()", "uo": "g.uniform_open()", "n": "g.normal()"}[form]
        args = ", ".join([f"a{j}" for j in range(len(kinds))] + ["0.0"] * (3 - len(kinds)))
        call = f"{fn}<double>({draw}, {args})"
    name = f"cuarray_random_{dist}_{engine}_{_SHORT[out_char]}"
    return name, _element_wrapper(name, engine, out_char, kinds, f"out[i] = (OUT)({call});")


def row_kernel(dist, engine, out_char):
    """(name, wrapper) of a row kernel: element i writes out[i*K : i*K + K] (or out[i])."""
    kinds, vec_t, statement = ROW_DISTS[dist]
    name = f"cuarray_random_{dist}_{engine}_{_SHORT[out_char]}"
    extra = (f"const {vec_t}* __restrict__ vec", "const i64 K")
    return name, _element_wrapper(name, engine, out_char, kinds, statement, extra)


# Bulk kernels that fit 32 registers without spilling when asked to (ptxas -v, sm_90):
# 8 blocks of 256 per SM, a full SM, for the throughput-critical draws.
_FULL_OCCUPANCY = {("uniform", "f"), ("uniform", "d"), ("exponential", "f"),
                   ("exponential", "d"), ("normal", "f"), ("lognormal", "f")}


def bulk_kernel(dist, out_char):
    """(name, wrapper) of the vectorised Philox kernel for a closed-form `dist`.

    float32: 4 outputs per block (one word each); float64: 2 (two words each). The
    scalar parameters arrive as doubles and are converted once.
    """
    form, fn = DISTS[dist][2]
    t = CTYPES[out_char]
    name = f"cuarray_random_bulk_{dist}_{_SHORT[out_char]}"
    bounds = "256, 8" if (dist, out_char) in _FULL_OCCUPANCY else "256"
    width = "F32" if out_char == "f" else "F64"
    if form == "n":
        make = f"MakeNormal{width}<Xf>{{f}}"
    else:
        make = f"MakeUniform{width}<{'true' if form == 'uo' else 'false'}, Xf>{{f}}"
    return name, f"""
struct Xf {{
  {t} p0, p1, p2;
  __device__ __forceinline__ {t} operator()({t} x) const {{ return {fn}<{t}>(x, p0, p1, p2); }}
}};
extern "C" __global__ void __launch_bounds__({bounds}) {name}({t}* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr, const double p0, const double p1, const double p2) {{
  const Xf f = {{({t})p0, ({t})p1, ({t})p2}};
  bulk_fill<{16 // (4 if out_char == "f" else 8)}>(out, n, philox_key(key), ctr, {make});
}}
"""


def bounded_kernel(out_char, wide):
    """(name, wrapper) of the vectorised Philox kernel for integers in [lo, lo + range).

    Narrow (range <= 2^32): 4 outputs per block, `range` given as an integer up to 2^32
    and `thresh` = 2^32 mod range. Wide: 2 outputs per block, `range_or_rm1` is
    range - 1 (all ones: the full 64-bit range) and `thresh` = 2^64 mod range.
    """
    t = CTYPES[out_char]
    name = f"cuarray_random_bounded{64 if wide else 32}_{_SHORT[out_char]}"
    if wide:
        make, width = f"MakeBounded64<{t}>{{k, range_or_rm1, lo, thresh}}", 2
    else:
        make, width = f"MakeBounded32<{t}>{{k, range_or_rm1, lo, (u32)thresh}}", 4
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}({t}* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr, const u64 range_or_rm1, const u64 thresh, const u64 lo) {{
  const uint2 k = philox_key(key);
  bulk_fill<{width}>(out, n, k, ctr, {make});
}}
"""


def raw_kernel():
    """(name, wrapper) of the kernel writing raw 32-bit Philox words, 4 per block."""
    name = "cuarray_random_raw_u32"
    return name, f"""
extern "C" __global__ void __launch_bounds__(256, 8) {name}(u32* __restrict__ out, const u64 n,
    const u64 key, const u64 ctr) {{
  bulk_fill<4>(out, n, philox_key(key), ctr, MakeRaw{{}});
}}
"""


def raw_stateful_kernel(engine):
    """(name, wrapper) of the kernel writing raw 32-bit words from a stateful engine."""
    name = f"cuarray_random_raw_{engine}"
    return name, _element_wrapper(name, engine, "I", "", "out[i] = g.next_u32();")


def init_kernel(engine):
    """(name, wrapper) of the kernel seeding the `ns` streams of a stateful engine."""
    cls = ENGINES[engine]
    name = f"cuarray_random_init_{engine}"
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}(u32* __restrict__ states, const i64 ns,
    const u64 key) {{
  const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ns) return;
  {cls} e;
  e.seed(philox_key(key), (u64)t);
  e.store(states, t, ns);
}}
"""


def check_kernel(tag, kinds, conditions):
    """(name, wrapper) of a kernel counting, per condition, the elements that violate it.

    `conditions` are C expressions over `a0, a1, a2`; counts[c] gets the number of
    elements where condition c holds.
    """
    decl, load = _params(kinds)
    tests = "\n      ".join(f"if ({c}) atomicAdd(counts + {j}, 1ull);"
                           for j, c in enumerate(conditions))
    loads = "\n      ".join(load)
    name = f"cuarray_random_check_{tag}"
    args = ", ".join(["u64* __restrict__ counts", "const i64 n", *decl])
    return name, f"""
extern "C" __global__ void __launch_bounds__(256) {name}({args}) {{
  const i64 stride = (i64)gridDim.x * blockDim.x;
  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {{
      {loads}
      {tests}
  }}
}}
"""


def all_kernels():
    """Every (name, wrapper) the library can build (for compile tests)."""
    out = []
    for engine in ENGINES:
        for dist in DISTS:
            out += [element_kernel(dist, engine, c) for c in ("f", "d", "l")]
        for dist in ROW_DISTS:
            out += [row_kernel(dist, engine, c) for c in ("d", "l")]
        if engine != "philox":
            out += [init_kernel(engine), raw_stateful_kernel(engine)]
    for dist, (_, _, bulk) in DISTS.items():
        if bulk is not None:
            out += [bulk_kernel(dist, c) for c in ("f", "d")]
    for c in "?bBhHiIlLfd":
        if c not in "fd":
            out += [bounded_kernel(c, False), bounded_kernel(c, True)]
        out.append(element_kernel("integers", "philox", c))
    out.append(raw_kernel())
    return list(dict(out).items())
