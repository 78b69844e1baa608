"""cuarray.fuse values against NumPy: closures, lambdas, methods, module attributes, dtypes
with NEP 50 scalars, in-place writes and out=, indexing, where/astype, trace-time control
flow, broadcasting errors. Elementwise cases run on the GPU and through the host emulation
of tests/scipy/emulation.py; reductions run on the GPU."""
import functools
import math

import numpy
import pytest

import cuarray

import emulation  # noqa: E402


@pytest.fixture(params=emulation.BACKENDS)
def cp(request, monkeypatch):
    return emulation.backend(request, monkeypatch)


def _rand(rng, shape, dtype):
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt.kind in "iu":
        return rng.integers(1, 20, shape).astype(dt)
    if dt.kind == "c":
        return (rng.random(shape) + 1j * rng.random(shape)).astype(dt)
    return (rng.random(shape) * 4 - 2).astype(dt)


def _check(got, want, rtol=1e-6):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=rtol)


def _make_closure(xp):
    return lambda v: xp.tanh(xp.sin(v) + 0.1 * v)


def test_closure_over_the_module(cp):
    # The first example: `xp` comes from the enclosing scope.
    f = cp.fuse(_make_closure(cp))
    xn = _rand(numpy.random.default_rng(1), (1000,), numpy.float32)
    _check(f(cp.asarray(xn)), _make_closure(numpy)(xn), 2e-6)


def test_nested_function_method_globals_and_modules(cp):
    scale = 3

    def inner(v):
        return v * scale + math.pi

    @cp.fuse
    def outer(x, y):
        return inner(x) - numpy.float32(2) * cp.cos(y) + math.sqrt(4.0)

    class Model:
        w = 0.5

        def apply(self, x):
            return cp.exp(x * self.w) + math.floor(1.5)

    rng = numpy.random.default_rng(2)
    xn, yn = _rand(rng, (7, 5), numpy.float32), _rand(rng, (5,), numpy.float32)
    want = xn * 3 + math.pi - numpy.float32(2) * numpy.cos(yn) + 2.0
    _check(outer(cp.asarray(xn), cp.asarray(yn)), want, 1e-5)
    m = cp.fuse(Model().apply)
    _check(m(cp.asarray(xn)), numpy.exp(xn * 0.5) + 1, 1e-6)
    # a functools.partial of a function using cuarray
    p = cp.fuse(functools.partial(lambda x, k: cp.exp(x) * k, k=3))
    _check(p(cp.asarray(xn)), numpy.exp(xn) * 3, 1e-6)
    # math functions on traced values trace as ufuncs
    g = cp.fuse(lambda x: math.sin(x) + math.atan2(x, 2.0))
    _check(g(cp.asarray(xn)), numpy.sin(xn) + numpy.arctan2(xn, 2.0), 1e-6)


@pytest.mark.parametrize("dtype", ["?", "b", "B", "h", "i", "q", "Q", "e", "f", "d", "F", "D"])
def test_dtypes_and_nep50_scalars(cp, dtype):
    f = cp.fuse(lambda x, y: x * 2 + y)
    rng = numpy.random.default_rng(3)
    xn, yn = _rand(rng, (4, 3), dtype), _rand(rng, (3,), dtype)
    want = xn * 2 + yn
    rtol = 1e-3 if dtype == "e" else 1e-6
    _check(f(cp.asarray(xn), cp.asarray(yn)), want, rtol)
    # a Python float is weak (NEP 50); a NumPy float64 scalar is not
    want = xn * 2 + 1.5
    _check(f(cp.asarray(xn), 1.5), want, rtol)
    want = xn * 2 + numpy.float64(1.5)
    _check(f(cp.asarray(xn), numpy.float64(1.5)), want, rtol)


def test_in_place_and_out(cp):
    @cp.fuse
    def update(x, y):
        x += y * 2
        cp.multiply(x, 0.5, out=y)

    @cp.fuse
    def returns_it(x):
        x *= 3
        return x

    rng = numpy.random.default_rng(4)
    xn, yn = _rand(rng, (6, 4), numpy.float32), _rand(rng, (6, 4), numpy.float32)
    x, y = cp.asarray(xn), cp.asarray(yn)
    assert update(x, y) is None
    wx = xn + yn * 2
    _check(x, wx)
    _check(y, wx * 0.5)
    assert returns_it(x) is x
    _check(x, wx * 3)
    # NumPy's same_kind rule for in-place operators
    i = cp.arange(4, dtype=cp.int32)
    with pytest.raises(TypeError, match="same_kind"):
        returns_it(i)  # int32 *= 3 is fine: the Python int is weak
        cp.fuse(lambda a: a.__iadd__(1.5))(i)
    # an argument smaller than the broadcast shape cannot be written
    small = cp.zeros(4, dtype=cp.float32)
    with pytest.raises(ValueError, match="non-broadcastable output"):
        update(small, cp.zeros((3, 4), dtype=cp.float32))


def test_indexing_where_astype(cp):
    @cp.fuse
    def diff(x):
        return x[1:] - x[:-1]

    @cp.fuse
    def pick(x, m):
        return cp.where(x[0] > 0, x[0], m[:, 1]).astype(cp.float64)

    rng = numpy.random.default_rng(5)
    xn = _rand(rng, (9,), numpy.float32)
    _check(diff(cp.asarray(xn)), xn[1:] - xn[:-1])
    an = _rand(rng, (3, 4), numpy.float32)
    mn = _rand(rng, (4, 2), numpy.float32)
    want = numpy.where(an[0] > 0, an[0], mn[:, 1]).astype(numpy.float64)
    _check(pick(cp.asarray(an), cp.asarray(mn)), want)
    with pytest.raises(IndexError, match="too many indices"):
        cp.fuse(lambda m: m[0, 0, 0] + 1)(cp.asarray(an))
    with pytest.raises(TypeError, match="computed value"):
        cp.fuse(lambda m: (m + 1)[0])(cp.asarray(an))


def test_scalars_and_zero_dim(cp):
    f = cp.fuse(lambda x, s: x * s - s)
    rng = numpy.random.default_rng(6)
    x0 = numpy.array(2.5, dtype=numpy.float32)
    _check(f(cp.asarray(x0), 3), x0 * 3 - 3)
    xn = _rand(rng, (5,), numpy.int16)
    _check(f(cp.asarray(xn), numpy.int32(7)), xn * numpy.int32(7) - numpy.int32(7))
    assert f(2, 3) == 3  # scalars only: the Python function itself, as CuPy does


def test_control_flow_on_scalar_arguments(cp):
    @cp.fuse
    def branch(x, mode, k):
        if mode > 0:
            y = x * k
        else:
            y = x - k
        for _ in range(int(k)):
            y = y + 1
        return y

    xn = _rand(numpy.random.default_rng(7), (8,), numpy.float64)
    x = cp.asarray(xn)
    _check(branch(x, 1, 2), xn * 2 + 2)
    _check(branch(x, -1, 3), xn - 3 + 3)
    _check(branch(x, 1, 2), xn * 2 + 2)
    assert len(branch._kernels) == 2


def test_broadcast_errors_and_unsupported_constructs(cp):
    f = cp.fuse(lambda x, y: x + y)
    with pytest.raises(ValueError, match="could not be broadcast"):
        f(cp.zeros(3), cp.zeros(4))
    g = cp.fuse(lambda x: x.reshape(2, 2))
    with pytest.raises(AttributeError, match="does not support `.reshape`"):
        g(cp.zeros(4))
    h = cp.fuse(lambda x: cp.sort(x))
    with pytest.raises(TypeError, match="cuarray.sort"):
        h(cp.zeros(4))
    b = cp.fuse(lambda x: x if x > 0 else -x)
    with pytest.raises(TypeError, match="truth value"):
        b(cp.zeros(4))


def test_kernel_name_and_cache(cp):
    @cp.fuse(kernel_name="my_fused")
    def f(x):
        return x + 1

    assert f.name == "my_fused"
    for dt in ("f", "d", "f"):
        f(cp.ones((2, 2), dtype=dt))
    f(cp.ones(3, dtype="f"))
    assert len(f._kernels) == 3  # float32 2-d, float64 2-d, float32 1-d
    assert all(k.op.name == "my_fused" for k in f._kernels.values())


# ---- reductions (GPU) -------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["sum", "prod", "max", "min", "mean", "any", "all"])
@pytest.mark.parametrize("dtype", ["i", "f", "d", "e"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_reductions_of_expressions(kind, dtype, axis, keepdims):
    if kind == "prod" and dtype == "e":
        pytest.skip("NumPy multiplies float16 in float16, cuarray (as CuPy) in float32")
    f = cuarray.fuse(lambda x, y: getattr(cuarray, kind)((x - y) * 0.5, axis=axis,
                                                          keepdims=keepdims))
    rng = numpy.random.default_rng(8)
    xn, yn = _rand(rng, (4, 5, 6), dtype), _rand(rng, (6,), dtype)
    want = getattr(numpy, kind)((xn - yn) * 0.5, axis=axis, keepdims=keepdims)
    got = f(cuarray.asarray(xn), cuarray.asarray(yn))
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = 2e-2 if dtype == "e" else 1e-5
    if kind == "prod":
        rtol = 5e-2 if dtype == "e" else 1e-4
    # sums of mixed signs may cancel to near 0: an absolute tolerance of the dtype's scale
    atol = {"e": 0.1, "f": 1e-5}.get(dtype, 1e-12)
    numpy.testing.assert_allclose(got.get(), want, rtol=rtol, atol=atol)


@pytest.mark.gpu
def test_sum_of_squared_difference_is_one_kernel():
    f = cuarray.fuse(lambda x, y: cuarray.sum((x - y) ** 2))
    rng = numpy.random.default_rng(9)
    xn, yn = rng.random(1 << 20, dtype=numpy.float32), rng.random(1 << 20, dtype=numpy.float32)
    got = f(cuarray.asarray(xn), cuarray.asarray(yn))
    numpy.testing.assert_allclose(got.get(), numpy.sum((xn.astype("d") - yn) ** 2), rtol=1e-4)
    (k,) = f._kernels.values()
    assert k.kind == "reduction"   # the map is inlined into the reduction kernel


@pytest.mark.gpu
def test_reduction_errors():
    f = cuarray.fuse(lambda x: cuarray.max(x * 2))
    with pytest.raises(ValueError, match="zero-size"):
        f(cuarray.zeros(0, dtype=cuarray.float32))
    with pytest.raises(numpy.exceptions.AxisError):
        f = cuarray.fuse(lambda x: cuarray.sum(x, axis=3))
        f(cuarray.zeros((2, 2)))


def test_warm_calls_match_the_general_path(cp):
    f = cp.fuse(lambda x, y: (x - y) * (x - y))
    rng = numpy.random.default_rng(10)
    xn, yn = _rand(rng, (6, 5), numpy.float32), _rand(rng, (6, 5), numpy.float32)
    x, y = cp.asarray(xn), cp.asarray(yn)
    for _ in range(3):  # the first call traces; later ones take the warm path
        _check(f(x, y), (xn - yn) ** 2)
    assert len(f._warm) == 1
    _check(f(x.T, y.T), (xn.T - yn.T) ** 2)           # not C-contiguous: general path
    _check(f(x, y[0]), (xn - yn[0]) ** 2)             # broadcast: general path
    _check(f(x[:, :2], y[:, 1:3]), (xn[:, :2] - yn[:, 1:3]) ** 2)
    xd = cp.asarray(xn.astype(numpy.float64))
    _check(f(xd, xd), numpy.zeros((6, 5)))            # other dtypes: their own kernel
    e = cp.zeros((0, 5), dtype=cp.float32)
    assert f(e, e).shape == (0, 5)


def test_warm_calls_with_scalars(cp):
    f = cp.fuse(lambda x, s: x * s + 1)
    xn = _rand(numpy.random.default_rng(11), (7,), numpy.float32)
    x = cp.asarray(xn)
    for s in (2.5, 2.5, 3, 3, numpy.float64(0.5), numpy.float64(0.5), True):
        _check(f(x, s), xn * s + 1)
    # Python float, Python int, NumPy float64 and bool: one warm entry each
    assert len(f._warm) == 4


def test_warm_calls_complex_scalars_tuples_and_alignment(cp):
    rng = numpy.random.default_rng(13)
    xn = _rand(rng, (9,), numpy.complex64)
    x = cp.asarray(xn)
    f = cp.fuse(lambda v, s, t: v * s + t)
    for _ in range(3):  # a complex scalar is passed as two values, after a float one
        _check(f(x, 1.5 - 2j, 0.25), xn * (1.5 - 2j) + 0.25)
    g = cp.fuse(lambda a, b: (a + b, a * b))
    an, bn = _rand(rng, (2, 17), numpy.float32), _rand(rng, (2, 17), numpy.float32)
    a, b = cp.asarray(an), cp.asarray(bn)
    for _ in range(3):
        s, p = g(a, b)
        _check(s, an + bn)
        _check(p, an * bn)
    fn = _rand(rng, (33,), numpy.float32)
    full = cp.asarray(fn)
    for _ in range(3):  # 4 bytes past an aligned block: the unaligned kernel
        s, p = g(full[1:], full[:-1])
        _check(s, fn[1:] + fn[:-1])
        _check(p, fn[1:] * fn[:-1])
    w = g._warm[(1, numpy.dtype(numpy.float32), numpy.dtype(numpy.float32))]
    assert w.flat[0] is not None and w.flat[1] is None   # [unaligned, aligned] kernels
    h = cp.fuse(lambda v: (v * 2,))
    for _ in range(2):
        (r,) = h(x)
        _check(r, xn * 2)


def test_warm_calls_leave_empty_arrays_to_the_general_path(cp):
    f = cp.fuse(lambda x, s: x + s)
    xn = numpy.arange(5, dtype=numpy.int8)
    x = cp.asarray(xn)
    for _ in range(2):
        _check(f(x, 3), xn + 3)
    e = cp.zeros(0, dtype=cp.int8)
    for _ in range(2):
        _check(f(e, 3), numpy.zeros(0, numpy.int8))


def test_warm_reductions_match_numpy(cp):
    f = cp.fuse(lambda x, y: cp.sum((x - y) ** 2))
    g = cp.fuse(lambda x: cp.max(x * 2, axis=1, keepdims=True))
    rng = numpy.random.default_rng(14)
    for shape in ((3000,), (3000,), (3000,), (7,), (7,)):  # 3000: split in two passes
        xn, yn = rng.random(shape, dtype=numpy.float32), rng.random(shape, dtype=numpy.float32)
        got = f(cp.asarray(xn), cp.asarray(yn))
        _check(got, numpy.sum((xn - yn) ** 2, dtype=numpy.float32), rtol=1e-5)
    (w,) = f._warm.values()
    assert set(w.plans) == {(3000,), (7,)}
    for _ in range(3):
        mn = rng.random((5, 6))
        _check(g(cp.asarray(mn)), numpy.max(mn * 2, axis=1, keepdims=True))
    e = cp.zeros((0, 6))
    with pytest.raises(ValueError, match="zero-size"):   # still the general path's error
        g(e.T)


def _mixed(x, y, s):
    return _xp.where(x > y, _xp.sin(x) * s, (x - y) ** 2).astype(_xp.float64)  # noqa: F821


@pytest.mark.gpu
def test_matches_cupy_fuse():
    import types
    cupy = pytest.importorskip("cupy")

    def with_xp(xp):  # a global, not a closure: CuPy's fuse does not trace closures
        return types.FunctionType(_mixed.__code__, dict(_mixed.__globals__, _xp=xp), "_mixed")

    rng = numpy.random.default_rng(12)
    xn, yn = rng.random((5, 6), dtype=numpy.float32), rng.random(6, dtype=numpy.float32)
    got = cuarray.fuse(with_xp(cuarray))(cuarray.asarray(xn), cuarray.asarray(yn), 2.0)
    ref = cupy.fuse(with_xp(cupy))(cupy.asarray(xn), cupy.asarray(yn), 2.0)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    numpy.testing.assert_allclose(got.get(), ref.get(), rtol=1e-6)
