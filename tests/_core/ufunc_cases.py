"""Inputs and comparison rules for checking every ufunc loop of the table against NumPy.

Shared by the host build of the table's bodies (test_ufunc_table.py, CPU) and the GPU
check through the public API (test_ufunc_numerics_gpu.py).
"""
import itertools

import numpy

from cuarray._core import ufunc_table

# Results NumPy computes exactly (IEEE operations, integer logic, bit manipulation): these
# must match bit for bit, signed zeros included (NaN payloads aside). The others are
# compared with a tolerance: they call libm / libdevice, whose last bits differ.
EXACT = frozenset("""
add subtract multiply divide floor_divide remainder fmod divmod negative positive absolute fabs
rint sign heaviside conjugate square reciprocal gcd lcm sqrt bitwise_and bitwise_or bitwise_xor
invert bitwise_count left_shift right_shift greater greater_equal less less_equal not_equal
equal logical_and logical_or logical_xor logical_not maximum minimum fmax fmin isfinite isinf
isnan signbit copysign nextafter spacing modf ldexp frexp floor ceil trunc degrees rad2deg
radians deg2rad
""".split())
# Complex results of these go through hypot (libm / libdevice): not exact.
INEXACT_COMPLEX = frozenset(("sign", "sqrt"))
RTOL = {"e": 2e-3, "f": 2e-6, "d": 1e-12}


def _float_edges(dt):
    fi = numpy.finfo(dt)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 7.5, -7.5, 1e-3, 10.0, -100.0,
            float(fi.tiny), -float(fi.tiny), float(fi.smallest_subnormal), float(fi.max), -float(fi.max),
            numpy.inf, -numpy.inf, numpy.nan]
    return numpy.array(vals, dtype=dt)


def _int_edges(dt):
    ii = numpy.iinfo(dt)
    vals = {0, 1, 2, 3, 7, 8, ii.max, ii.max - 1, ii.min, ii.min + 1, ii.bits - 1, ii.bits}
    if ii.min < 0:
        vals |= {-1, -2, -3, -7, -8, -ii.bits}
    return numpy.array(sorted(vals), dtype=dt)


def edges(char):
    dt = numpy.dtype(char)
    if dt.kind == "b":
        return numpy.array([False, True])
    if dt.kind in "iu":
        return _int_edges(dt)
    if dt.kind == "f":
        return _float_edges(dt)
    parts = _float_edges(dt.char.lower())
    parts = parts[[0, 1, 2, 3, 4, 6, 15, 18, 20, 21, 22]]  # 0 -0 1 -1 .5 2 tiny max inf -inf nan
    re, im = numpy.meshgrid(parts, parts)
    return _complex(re.ravel(), im.ravel(), dt)


def _complex(re, im, dt):
    out = numpy.empty(re.shape, dt)
    out.real, out.imag = re, im  # `re + 1j * im` would turn inf * 1j into nan parts
    return out


def random(char, n, rng, small=False):
    dt = numpy.dtype(char)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        ii = numpy.iinfo(dt)
        if small:
            lo = max(ii.min, -20)
            return rng.integers(lo, 21, n).astype(dt)
        return rng.integers(ii.min, ii.max, n, dtype=dt, endpoint=True)
    if dt.kind == "f":
        scale = 10.0 ** rng.integers(-3, 4, n) if dt.itemsize > 2 else 10.0 ** rng.integers(-2, 3, n)
        return (rng.standard_normal(n) * scale).astype(dt)
    r = random(dt.char.lower(), n, rng)
    return _complex(r, random(dt.char.lower(), n, rng), dt)


def _domain(name, chars, arrays, rng):
    """Keep inputs where NumPy's result is defined: NumPy raises, or leaves undefined."""
    if name == "power" and numpy.dtype(chars[1]).kind in "iu":
        # negative integer exponents raise (cuarray's host side checks that)
        arrays[1] = numpy.abs(random(chars[1], len(arrays[1]), rng, small=True)).astype(chars[1])
    if name in ("power", "float_power") and numpy.dtype(chars[0]).kind == "c":
        # z ** 1e308: the result's angle is exponent * arg(z), meaningless past ~1e16, and
        # NumPy's and CUDA's libm put the overflowed infinities in different quadrants.
        b = arrays[1]
        arrays[1] = numpy.where(numpy.isfinite(b) & (numpy.abs(b) > 1e15), 2, b).astype(chars[1])
        a = arrays[0]  # likewise a base whose modulus overflows: the angle is meaningless
        arrays[0] = numpy.where(numpy.isfinite(a) & (numpy.abs(a) > 1e30), 1 + 1j, a).astype(chars[0])
    if name == "sign" and numpy.dtype(chars[0]).kind == "c":
        # NumPy 2.4 and 2.5 disagree on sign() of complex values whose modulus overflows
        # or that mix NaN and inf; compare where both agree.
        a = arrays[0]
        bad = ~numpy.isfinite(a) | (numpy.abs(a.real) > 1e30) | (numpy.abs(a.imag) > 1e30)
        arrays[0] = numpy.where(bad, 1 + 1j, a).astype(chars[0])
    if name == "nextafter" and numpy.dtype(chars[0]) == numpy.float16:
        # nextafter(+0, -0): NumPy 2.4 returns x, 2.5 returns y (C99); leave that pair out.
        both0 = (arrays[0] == 0) & (arrays[1] == 0)
        arrays[1] = numpy.where(both0, 1, arrays[1]).astype(chars[1])
    if name == "reciprocal" and numpy.dtype(chars[0]).kind in "iu":
        arrays[0] = numpy.where(arrays[0] == 0, 1, arrays[0]).astype(chars[0])  # 1 // 0 on x86 only
    return arrays


def inputs(name, sig, n=257, seed=0):
    """Input arrays (NumPy, loop dtypes) for one loop: every pair of edge values and random ones."""
    chars = sig.split("->")[0]
    rng = numpy.random.default_rng(seed)
    ed = [edges(c) for c in chars]
    if len(chars) == 1:
        edge_cols = [ed[0]]
    else:
        grid = list(itertools.product(range(len(ed[0])), range(len(ed[1]))))
        edge_cols = [ed[0][[i for i, _ in grid]], ed[1][[j for _, j in grid]]]
    small = name in ("power", "left_shift", "right_shift", "ldexp")
    arrays = []
    for k, c in enumerate(chars):
        r = random(c, n, rng, small=small and k == 1)
        arrays.append(numpy.concatenate([edge_cols[k], r]).astype(c))
    return _domain(name, chars, arrays, rng)


def loops():
    """(ufunc name, loop signature) for every loop of the table, 'l' duplicates of 'q' dropped."""
    res = []
    for row in ufunc_table.UFUNCS:
        seen = set()
        for sig in row.types:
            if set(sig) & set("Mm"):   # datetime loops: tests/_core/test_datetime_host.py
                continue
            key = tuple(numpy.dtype(c) for c in sig.replace("->", ""))
            if key not in seen:
                seen.add(key)
                res.append((row.name, sig))
    return res


def expected(name, sig, arrays):
    with numpy.errstate(all="ignore"):
        res = getattr(numpy, name)(*arrays)
    res = res if isinstance(res, tuple) else (res,)
    outs = sig.split("->")[1]
    for r, c in zip(res, outs):
        assert r.dtype == numpy.dtype(c), f"NumPy chose another loop for {name} {sig}: {r.dtype}"
    return res


def _parts(x):
    return (x.real, x.imag) if x.dtype.kind == "c" else (x,)


def mismatch_mask(actual, expect, exact, rtol=None):
    """Where `actual` differs from `expect`: NaN where NaN (payloads aside); otherwise equal
    with the same sign bit (exact), or within `rtol` of |expected| with infinities equal."""
    if actual.dtype != expect.dtype:
        return numpy.ones(expect.shape, bool)
    if expect.dtype.kind not in "fc":
        return actual != expect
    bad = numpy.zeros(expect.shape, bool)
    with numpy.errstate(all="ignore"):  # signaling NaNs, overflow in the scale
        # the scale errors are measured against: |expected| over its finite parts
        mag = numpy.hypot.reduce([numpy.where(numpy.isfinite(p), p.astype(numpy.float64), 0) for p in _parts(expect)])
        for a, e in zip(_parts(actual), _parts(expect)):
            a64, e64 = a.astype(numpy.float64), e.astype(numpy.float64)
            nan_a, nan_e = numpy.isnan(a64), numpy.isnan(e64)
            bad |= nan_a != nan_e
            both = ~nan_a & ~nan_e
            if exact:
                bad |= both & ((a64 != e64) | (numpy.signbit(a64) != numpy.signbit(e64)))
            else:
                inf = numpy.isinf(e64) | numpy.isinf(a64)
                close = numpy.abs(a64 - e64) <= rtol * mag + numpy.finfo(e.dtype).tiny * 4
                bad |= both & ~inf & ~close
                bad |= both & inf & (a64 != e64)
    return bad


def mismatches(name, sig, actual, expect):
    """Indices where a ufunc's output differs from NumPy's beyond what EXACT/RTOL allow."""
    exact = name in EXACT and not (expect.dtype.kind == "c" and name in INEXACT_COMPLEX)
    char = expect.dtype.char.lower() if expect.dtype.kind == "c" else expect.dtype.char
    rtol = RTOL.get(char)
    if name in ("power", "float_power") and expect.dtype == numpy.complex64:
        # z ** w multiplies the rounding of log(z) by |w|: with |w| ~ 100 a correctly
        # computed complex64 result differs from NumPy's by ~100 ulp.
        rtol = 1e-4
    if name == "log1p" and expect.dtype == numpy.complex64:
        # NumPy's complex64 log1p is log(hypot(1 + x, y)) in float32: near z = 0 its real
        # part is off by ~1e-7 absolute (5e-6 of |log1p(z)|); cuarray rounds a double
        # result. Compare at NumPy's own accuracy.
        rtol = 2e-5
    return numpy.flatnonzero(mismatch_mask(actual, expect, exact, rtol))


def check_loop(name, sig, run):
    """Failure lines for one loop; `run(sig, arrays) -> outputs` computes cuarray's side."""
    arrays = inputs(name, sig)
    expect = expected(name, sig, arrays)
    actual = run(sig, arrays)
    fails = []
    for k, (a, e) in enumerate(zip(actual, expect)):
        bad = mismatches(name, sig, a, e)
        if len(bad):
            ex = "; ".join(f"{tuple(x[i] for x in arrays)} -> {a[i]!r}, numpy {e[i]!r}" for i in bad[:4])
            fails.append(f"{name} {sig} out{k}: {len(bad)}/{len(e)} differ, e.g. {ex}")
    return fails
