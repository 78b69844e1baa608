"""Differential fuzzing: random programs of array operations run on NumPy and on cuarray,
and must agree in values (NaN-aware, to each dtype's tolerance), dtypes, shapes, and in
the exception class when NumPy raises.

A program starts from one or two random arrays, takes random views of them (slices with
negative steps, transposes, new axes, broadcasts), then applies a few random steps:
elementwise ufuncs with arrays or Python scalars, reductions with axes, basic, advanced
and boolean indexing, item assignment, reshapes, sorting, concatenation, casts.

The profile in the GPU suite is fixed (`derandomize=True`: the same examples every run,
a few minutes); `CUARRAY_FUZZ_EXAMPLES=20000` runs a longer one on demand, and
`CUARRAY_FUZZ_SEED` draws another fixed set. Each program is printed on failure as the
list of steps that reproduce it.
"""
import os
import warnings

import numpy
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.gpu

EXAMPLES = int(os.environ.get("CUARRAY_FUZZ_EXAMPLES", "400"))
SEED = int(os.environ.get("CUARRAY_FUZZ_SEED", "20261124"))

DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "float32",
          "float64", "complex64", "complex128"]
UNARY = ["negative", "absolute", "square", "sqrt", "exp", "log1p", "sin", "tanh", "floor",
         "isnan", "isfinite", "sign", "logical_not", "conjugate", "invert", "reciprocal"]
BINARY = ["add", "subtract", "multiply", "true_divide", "maximum", "minimum", "fmax",
          "equal", "less", "greater_equal", "not_equal", "logical_and", "logical_xor",
          "bitwise_and", "bitwise_or", "arctan2", "hypot", "copysign", "floor_divide",
          "remainder", "power"]
REDUCE = ["sum", "prod", "max", "min", "any", "all", "mean", "argmax", "argmin",
          "count_nonzero", "cumsum", "nansum", "ptp"]


# ---- program generation -----------------------------------------------------------------------
@st.composite
def shapes(draw, max_dims=4):
    return tuple(draw(st.lists(st.sampled_from([0, 1, 1, 2, 3, 4, 5]), min_size=0,
                               max_size=max_dims)))


@st.composite
def view_steps(draw, ndim):
    """Index/transposition steps that keep a view of an array of `ndim` dims."""
    steps = []
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["slice", "transpose", "newaxis"]))
        if kind == "slice" and ndim:
            key = tuple(slice(draw(st.sampled_from([None, 0, 1, -1])), None,
                              draw(st.sampled_from([1, 2, -1, -2]))) for _ in range(ndim))
            steps.append(("getitem", key))
        elif kind == "transpose" and ndim > 1:
            steps.append(("transpose", tuple(draw(st.permutations(range(ndim))))))
        elif kind == "newaxis" and ndim < 4:
            at = draw(st.integers(0, ndim))
            steps.append(("getitem", (slice(None),) * at + (None,)))
            ndim += 1
    return steps, ndim


@st.composite
def operands(draw):
    shape = draw(shapes())
    dtype = draw(st.sampled_from(DTYPES))
    steps, ndim = draw(view_steps(len(shape)))
    return {"shape": shape, "dtype": dtype, "seed": draw(st.integers(0, 2**16)), "views": steps}


@st.composite
def programs(draw):
    first = draw(operands())
    prog = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["unary", "binary", "scalar", "reduce", "index",
                                     "boolmask", "take", "setitem", "reshape", "sort",
                                     "concat", "astype", "broadcast"]))
        if kind == "unary":
            prog.append(("unary", draw(st.sampled_from(UNARY))))
        elif kind == "binary":
            prog.append(("binary", draw(st.sampled_from(BINARY)), draw(operands())))
        elif kind == "scalar":
            value = draw(st.sampled_from([0, 1, -1, 2, 3, 200, -129, 70000, 2**40, 0.5, -2.5,
                                          1e10, float("nan"), float("inf"), True, 1 + 2j]))
            prog.append(("scalar", draw(st.sampled_from(BINARY)), value,
                         draw(st.booleans())))
        elif kind == "reduce":
            prog.append(("reduce", draw(st.sampled_from(REDUCE)),
                         draw(st.sampled_from([None, 0, -1, 1, (0, 1), 3])),
                         draw(st.booleans())))
        elif kind == "index":
            prog.append(("index", draw(st.sampled_from(
                [0, -1, 2, (0, 0), (slice(None), 1), (Ellipsis, -1), (slice(1, None, 2),),
                 (None, 0), ([0, -1],), ([[0], [1]], [1, 0]), (slice(None), [2, 0, 0])]))))
        elif kind == "boolmask":
            prog.append(("boolmask", draw(st.integers(0, 2**16))))
        elif kind == "take":
            prog.append(("take", draw(st.lists(st.integers(-3, 3), max_size=4)),
                         draw(st.sampled_from([None, 0, -1]))))
        elif kind == "setitem":
            prog.append(("setitem", draw(st.sampled_from(
                [0, -1, (slice(None, None, 2),), (Ellipsis, 0), ([0, 1],)])),
                draw(st.sampled_from([7, -1.5, True]))))
        elif kind == "reshape":
            prog.append(("reshape", draw(st.sampled_from(["ravel", "T", "-1", "swap", "flat2"]))))
        elif kind == "sort":
            prog.append(("sort", draw(st.sampled_from([-1, 0, None]))))
        elif kind == "concat":
            prog.append(("concat", draw(st.sampled_from([0, -1, None]))))
        elif kind == "astype":
            prog.append(("astype", draw(st.sampled_from(DTYPES))))
        else:
            prog.append(("broadcast", draw(st.sampled_from([(2,), (3, 1), (0,)]))))
    return first, prog


# ---- execution --------------------------------------------------------------------------------
def _host_data(spec):
    rng = numpy.random.default_rng(spec["seed"])
    dt = numpy.dtype(spec["dtype"])
    n = int(numpy.prod(spec["shape"]))
    if dt.kind == "b":
        data = rng.random(n) < 0.5
    elif dt.kind in "iu":
        info = numpy.iinfo(dt)
        data = rng.integers(max(info.min, -50), min(info.max, 50), n, endpoint=True)
    else:
        data = rng.standard_normal(n) * 4
        if dt.kind == "c":
            data = data + 1j * rng.standard_normal(n)
        data[rng.random(n) < 0.05] = numpy.nan
    return data.astype(dt).reshape(spec["shape"])


def _make(xp, spec):
    h = _host_data(spec)
    a = xp.asarray(h) if xp is not numpy else h
    for kind, arg in spec["views"]:
        a = a[arg] if kind == "getitem" else a.transpose(arg)
    return a


def _step(xp, a, step):
    kind = step[0]
    if kind == "unary":
        return getattr(xp, step[1])(a)
    if kind == "binary":
        return getattr(xp, step[1])(a, _make(xp, step[2]))
    if kind == "scalar":
        f = getattr(xp, step[1])
        return f(a, step[2]) if step[3] else f(step[2], a)
    if kind == "reduce":
        name, axis, keepdims = step[1:]
        if name == "cumsum":
            return xp.cumsum(a, axis=axis if isinstance(axis, int) else None)
        if name in ("argmax", "argmin"):
            return getattr(xp, name)(a, axis=axis if isinstance(axis, int) else None)
        if name == "count_nonzero":
            return xp.count_nonzero(a, axis=axis)
        return getattr(xp, name)(a, axis=axis, keepdims=keepdims)
    if kind == "index":
        key = step[1]
        if isinstance(key, tuple):
            key = tuple(xp.asarray(k) if isinstance(k, list) and xp is not numpy else k
                        for k in key)
        return a[key]
    if kind == "boolmask":
        mask = numpy.random.default_rng(step[1]).random(a.shape) < 0.5
        return a[xp.asarray(mask) if xp is not numpy else mask]
    if kind == "take":
        idx = numpy.array(step[1], dtype=numpy.int64)
        return xp.take(a, xp.asarray(idx) if xp is not numpy else idx, axis=step[2])
    if kind == "setitem":
        key = step[1]
        if isinstance(key, tuple) and isinstance(key[0], list) and xp is not numpy:
            key = (xp.asarray(key[0]),)
        b = a.copy()
        b[key] = step[2]
        return b
    if kind == "reshape":
        how = step[1]
        if how == "ravel":
            return a.ravel()
        if how == "T":
            return a.T
        if how == "-1":
            return a.reshape(-1)
        if how == "swap":
            return xp.swapaxes(a, 0, -1)
        return a.reshape(a.shape[0], -1) if a.ndim else a.reshape(1, 1)
    if kind == "sort":
        return xp.sort(a, axis=step[1])
    if kind == "concat":
        return xp.concatenate([a, a], axis=step[1])
    if kind == "astype":
        return a.astype(step[1])
    return xp.broadcast_to(a, step[1] + a.shape)


def _run(xp, first, prog):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with numpy.errstate(all="ignore"):
            a = _make(xp, first)
            for step in prog:
                a = _step(xp, a, step)
                if xp is numpy:
                    a = numpy.asarray(a)
            return a


def _outcome(xp, first, prog):
    try:
        return "value", _run(xp, first, prog)
    except Exception as e:  # the exception class is part of the comparison
        return "error", e


def _tolerance(dtype, prog):
    if dtype.kind not in "fc":
        return 0, 0
    single = dtype in (numpy.float32, numpy.complex64)
    reduces = any(s[0] == "reduce" for s in prog)
    rtol = (1e-4 if single else 1e-11) * (50 if reduces else 1)
    return rtol, rtol


def _undefined(first, prog, want):
    """Programs whose result C leaves undefined or where CuPy documents another answer."""
    for step in prog:
        if step[0] == "astype" and numpy.dtype(step[1]).kind in "iub":
            return True   # float -> int of NaN, inf or out-of-range values is undefined in C
        if step[0] in ("binary", "scalar") and step[1] in ("power", "floor_divide", "remainder"):
            return True   # integer powers < 0 and division by zero: CuPy answers without an error
        fancy = step[0] == "take" or (step[0] in ("index", "setitem") and isinstance(
            step[1], tuple) and any(isinstance(k, list) for k in step[1]))
        if fancy and isinstance(want, IndexError):
            return True   # out-of-bounds index arrays wrap, as in CuPy
    return _zero_d_axis(first, prog)


def _zero_d_axis(first, prog):
    """A reduction given an axis of a 0-d array: NumPy answers for axis 0 or -1 where CuPy
    raises AxisError (and cuarray with it)."""
    try:
        with warnings.catch_warnings(), numpy.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            a = _make(numpy, first)
            for step in prog:
                if step[0] == "reduce" and step[2] is not None and numpy.ndim(a) == 0:
                    return True
                a = numpy.asarray(_step(numpy, a, step))
    except Exception:
        return False
    return False


def _same_error_class(want, got):
    want_type = type(want)
    while want_type.__module__.startswith("numpy._"):   # NumPy's private subclasses
        want_type = want_type.__mro__[1]
    return isinstance(got, want_type)


@pytest.fixture(scope="module")
def cp():
    import cuarray
    return cuarray


@settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck), print_blob=True)
@seed(SEED)
@given(programs())
def test_programs_agree_with_numpy(cp, program):
    first, prog = program
    kind_n, want = _outcome(numpy, first, prog)
    if _undefined(first, prog, want):
        hypothesis.assume(False)
    _compare(cp, first, prog, kind_n, want)


def _compare(cp, first, prog, kind_n, want):
    kind_c, got = _outcome(cp, first, prog)
    where = f"program: start={first} steps={prog}"
    if kind_n == "error":
        assert kind_c == "error", f"NumPy raised {want!r}; cuarray returned a value\n{where}"
        assert _same_error_class(want, got), f"NumPy raised {want!r}, cuarray {got!r}\n{where}"
        return
    assert kind_c == "value", f"cuarray raised {got!r}; NumPy did not\n{where}"
    got_h = got.get() if isinstance(got, cp.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert got_h.shape == want.shape, f"shape {got_h.shape} != {want.shape}\n{where}"
    assert got_h.dtype == want.dtype, f"dtype {got_h.dtype} != {want.dtype}\n{where}"
    rtol, atol = _tolerance(want.dtype, prog)
    numpy.testing.assert_allclose(got_h, want, rtol=rtol, atol=atol, equal_nan=True,
                                  err_msg=where)


if __name__ == "__main__":
    # A survey: run many programs and print every distinct disagreement (the test stops at
    # the first). `python tests/test_fuzz_differential.py [EXAMPLES]`
    import collections
    import sys
    import cuarray
    found = collections.OrderedDict()

    @settings(max_examples=int(sys.argv[1]) if len(sys.argv) > 1 else 2000, database=None,
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(programs())
    def survey(program):
        first, prog = program
        kind_n, want = _outcome(numpy, first, prog)
        if _undefined(first, prog, want):
            return
        try:
            _compare(cuarray, first, prog, kind_n, want)
        except AssertionError as e:
            sig = " ".join(str(e).split("\n")[0].split()[:8])
            if sig not in found:
                try:     # what CuPy answers, where it is installed, to tell bug from choice
                    import cupy
                    k, v = _outcome(cupy, first, prog)
                    cupy_says = f"CuPy: {k} {v!r}"[:300]
                except ImportError:
                    cupy_says = "CuPy: not installed"
                found[sig] = str(e)[:1500] + "\n" + cupy_says
    survey()
    for sig, text in found.items():
        print("=" * 100)
        print(text)
    print(f"{len(found)} distinct disagreements")
