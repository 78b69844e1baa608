"""Logic routines against NumPy: closeness, whole-array equality, type tests, memory overlap,
functional helpers, bit packing and the error-state functions; CPU tests compile the kernels
and check the host-only helpers."""
import types
import warnings

import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray._routines import logic as lg

gpu = pytest.mark.gpu


def _rand(xp, shape, dtype, seed=0, scale=10):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


# ---- CPU ---------------------------------------------------------------------------------------
def test_errstate_records_and_restores():
    old = cuarray.geterr()
    assert old == numpy.geterr() or set(old) == {"divide", "over", "under", "invalid"}
    prev = cuarray.seterr(all="ignore")
    assert prev == old and set(cuarray.geterr().values()) == {"ignore"}
    cuarray.seterr(**old)
    with cuarray.errstate(divide="raise", under="warn"):
        e = cuarray.geterr()
        assert e["divide"] == "raise" and e["under"] == "warn" and e["over"] == old["over"]
        with cuarray.errstate(all="print"):
            assert set(cuarray.geterr().values()) == {"print"}
        assert cuarray.geterr()["divide"] == "raise"
    assert cuarray.geterr() == old

    @cuarray.errstate(invalid="ignore")
    def f():
        return cuarray.geterr()["invalid"]
    assert f() == "ignore" and cuarray.geterr() == old
    with pytest.raises(ValueError):
        cuarray.seterr(divide="sometimes")
    with cuarray.errstate(call=print):
        assert cuarray.geterrcall() is print
    assert cuarray.geterrcall() is None


def test_common_type_and_isscalar():
    dt = types.SimpleNamespace
    assert cuarray.common_type(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.int8)) is numpy.float64
    assert cuarray.common_type() is numpy.float16
    assert lg.isscalar(3.0) and lg.isscalar(numpy.int8(1)) and not lg.isscalar([1])
    assert lg.iscomplexobj(1j) and lg.isrealobj(1.0) and lg.iscomplexobj(dt(dtype=numpy.dtype("c8")))
    assert cuarray.binary_repr(5) == "101" and cuarray.binary_repr(-3, width=4) == "1101"


def _compile_op(op):
    pytest.importorskip("cuda.bindings")
    from cuarray._core.elementwise import generate
    from cuarray._runtime.compiler import compile_cubin
    raw_info = [(1, True) if p.role == "raw" else None for p in op.params]
    src, _ = generate(op, [p.dtype for p in op.params], raw_info, None, 1, False)
    assert compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]


@pytest.mark.parametrize("D,Y", [("e", "e"), ("f", "f"), ("d", "d"), ("F", "F"), ("D", "D"), ("d", "e"),
                                 ("D", "d")])
def test_close_kernels_compile(D, Y):
    D, Y = numpy.dtype(D), numpy.dtype(Y)
    for eq_nan in (False, True):
        _compile_op(lg._isclose_op(D, Y, "in", "in", eq_nan))
        _compile_op(lg._isclose_op(D, Y, "scalar", "in", eq_nan))
        _compile_op(lg._isclose_scalar_op(D, "in", eq_nan))


@pytest.mark.parametrize("a,b", [("e", "e"), ("f", "d"), ("q", "Q"), ("D", "D"), ("?", "?"), ("b", "H")])
def test_all_equal_kernel_compiles(a, b):
    pytest.importorskip("cuda.bindings")
    from cuarray._core import reduction
    from cuarray._runtime.compiler import compile_cubin
    loop = numpy.equal.resolve_dtypes((numpy.dtype(a), numpy.dtype(b), None))
    for nan in (False, True):
        op = lg._all_equal_op(numpy.dtype(loop[0]), numpy.dtype(loop[1]), nan)
        args = [types.SimpleNamespace(dtype=p.dtype) for p in op.params]
        for row in (True, False):
            src, _, _ = reduction.generate(op, args, 0, 1, row, 256, False, True)
            assert compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]


# ---- GPU: closeness ------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("equal_nan", [False, True])
@testing.for_all_dtypes(name="dtype_a", no_bool=True)
@testing.for_dtypes([numpy.float16, numpy.float32, numpy.float64, numpy.complex64, numpy.int64], name="dtype_b")
@testing.numpy_cupy_array_equal()
def test_isclose(xp, dtype_a, dtype_b, equal_nan):
    a = _rand(xp, (6, 5), dtype_a, scale=4)
    b = a.astype(dtype_b) + xp.asarray(numpy.linspace(0, 1e-4, 5).astype(dtype_b))
    if numpy.dtype(dtype_a).kind in "fc":
        a[0, 0] = numpy.nan
        a[1, 1] = numpy.inf
    if numpy.dtype(dtype_b).kind in "fc":
        b[0, 0] = numpy.nan
        b[1, 1] = numpy.inf
        b[2, 2] = numpy.nan
    return (xp.isclose(a, b, equal_nan=equal_nan), xp.isclose(a, b[0], rtol=1e-3, equal_nan=equal_nan),
            xp.isclose(a, 1, atol=1.5, equal_nan=equal_nan), xp.isclose(2.0, b, equal_nan=equal_nan),
            xp.isclose(a[:, ::2], numpy.nan, equal_nan=equal_nan), xp.isclose(a, 1.5 + 0.25j))


@gpu
@testing.numpy_cupy_array_equal()
def test_isclose_tolerance_forms(xp):
    a = _rand(xp, (8,), numpy.float32)
    b = a * (1 + 1e-6)
    return (xp.isclose(a, b, rtol=numpy.float32(1e-7)), xp.isclose(a, b, rtol=0, atol=numpy.float64(1e-6)),
            xp.isclose(numpy.float64(1.0), b), xp.isclose(a, numpy.float16(2)), xp.isclose(1, 1.0 + 1e-9),
            xp.isclose(a, xp.asarray(numpy.float64(1.0))))


@gpu
@pytest.mark.parametrize("args", [((1.0, 1.0 + 1e-9), {}), ((1.0, 1.1), {}), ((1.0, 1.1), {"rtol": 0.2}),
                                  ((numpy.nan, numpy.nan), {"equal_nan": True}), ((numpy.nan, 1.0), {})])
def test_allclose_scalars_and_arrays(args):
    (x, y), kw = args
    a = cuarray.asarray(numpy.full(4, x))
    b = cuarray.asarray(numpy.full(4, y))
    r = cuarray.allclose(a, b, **kw)
    assert isinstance(r, cuarray.ndarray) and r.shape == () and r.dtype == numpy.bool_
    assert bool(r) == numpy.allclose(numpy.full(4, x), numpy.full(4, y), **kw)
    assert bool(cuarray.allclose(a, y, **kw)) == numpy.allclose(numpy.full(4, x), y, **kw)


@gpu
def test_array_equal_and_equiv():
    rng = numpy.random.default_rng(0)
    for dtype in (numpy.int8, numpy.int64, numpy.uint64, numpy.float16, numpy.float32, numpy.complex128, bool):
        h = rng.integers(0, 3, (5, 4)).astype(dtype)
        g = cuarray.asarray(h)
        h2 = h.copy()
        h2[3, 2] = h2[3, 2] + 1 if dtype is not bool else not h2[3, 2]
        g2 = cuarray.asarray(h2)
        for x, y, hx, hy in [(g, g, h, h), (g, g2, h, h2), (g, g.T.copy().T, h, h), (g, g[:, :3], h, h[:, :3]),
                             (g[:, ::2], g[:, ::2].copy(), h[:, ::2], h[:, ::2])]:
            r = cuarray.array_equal(x, y)
            assert isinstance(r, cuarray.ndarray) and r.shape == ()
            assert bool(r) == numpy.array_equal(hx, hy)
            assert bool(cuarray.array_equiv(x, y)) == numpy.array_equiv(hx, hy)
    a = numpy.array([1.0, numpy.nan, 3.0])
    b = numpy.array([1.0, numpy.nan, 3.0])
    c = numpy.array([numpy.nan, 1.0, 3.0])
    ga, gb, gc = map(cuarray.asarray, (a, b, c))
    for x, y, hx, hy in [(ga, gb, a, b), (ga, gc, a, c)]:
        for en in (False, True):
            assert bool(cuarray.array_equal(x, y, equal_nan=en)) == numpy.array_equal(hx, hy, equal_nan=en)
    row = cuarray.asarray(numpy.array([1, 2]))
    assert bool(cuarray.array_equiv(row, cuarray.asarray(numpy.array([[1, 2], [1, 2]]))))
    assert not bool(cuarray.array_equiv(row, cuarray.asarray(numpy.array([[1, 2], [1, 3]]))))
    assert not bool(cuarray.array_equiv(row, cuarray.asarray(numpy.array([1, 2, 3]))))
    assert bool(cuarray.array_equal(cuarray.zeros(0), cuarray.zeros(0)))
    i64 = cuarray.asarray(numpy.array([-1, 2], numpy.int64))
    u64 = cuarray.asarray(numpy.array([2**64 - 1, 2], numpy.uint64))
    assert bool(cuarray.array_equal(i64, u64)) == numpy.array_equal(numpy.array([-1, 2]),
                                                                    numpy.array([2**64 - 1, 2], numpy.uint64))


# ---- GPU: type tests ------------------------------------------------------------------------------
@gpu
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_isreal_iscomplex(xp, dtype):
    a = _rand(xp, (3, 4), dtype)
    if numpy.dtype(dtype).kind == "c":
        a[0] = a[0].real
    return xp.isreal(a), xp.iscomplex(a), xp.asarray(xp.isrealobj(a)), xp.asarray(xp.iscomplexobj(a))


@gpu
@testing.for_dtypes([numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.uint8, numpy.bool_])
@testing.numpy_cupy_array_equal()
def test_isneginf_isposinf(xp, dtype):
    a = _rand(xp, (6,), dtype)
    if numpy.dtype(dtype).kind == "f":
        a[0], a[1], a[2] = -numpy.inf, numpy.inf, numpy.nan
    out = xp.zeros(6, bool)
    xp.isposinf(a, out=out)
    return xp.isneginf(a), xp.isposinf(a), out


@gpu
@testing.numpy_cupy_raises(accept_error=TypeError)
def test_isneginf_complex(xp):
    xp.isneginf(xp.ones(2, numpy.complex64))


# ---- GPU: memory overlap -------------------------------------------------------------------------
@gpu
def test_shares_memory():
    h = numpy.arange(40.0).reshape(5, 8)
    a = cuarray.asarray(h)
    b = cuarray.asarray(h)
    pairs = [(lambda x: x, lambda x: x), (lambda x: x[:2], lambda x: x[2:]), (lambda x: x[:3], lambda x: x[2:]),
             (lambda x: x[:, ::2], lambda x: x[:, 1::2]), (lambda x: x[:, ::2], lambda x: x[1:, 2::4]),
             (lambda x: x.T, lambda x: x[4]), (lambda x: x.ravel()[::3], lambda x: x.ravel()[1::3]),
             (lambda x: x[:0], lambda x: x)]
    for f, g in pairs:
        assert cuarray.shares_memory(f(a), g(a)) == numpy.shares_memory(f(h), g(h))
        assert cuarray.may_share_memory(f(a), g(a)) == numpy.may_share_memory(f(h), g(h))
        assert not cuarray.shares_memory(f(a), g(b))
    assert not cuarray.shares_memory(a, h) and not cuarray.may_share_memory(h, a)


# ---- GPU: functional ------------------------------------------------------------------------------
@gpu
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_apply_along_axis(xp):
    a = _rand(xp, (3, 4, 5), numpy.float64)
    return (xp.apply_along_axis(lambda v: v.sum(), 0, a), xp.apply_along_axis(lambda v: v[::-1] * 2, 1, a),
            xp.apply_along_axis(lambda v, k: xp.stack([v.max(), v.min() * k]), -1, a, 3),
            xp.apply_along_axis(lambda v: xp.outer(v, v) if hasattr(xp, "outer") else v, 2, a[:, :2]),
            xp.apply_along_axis(xp.sum, 0, xp.ones((0, 3))))


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_apply_along_axis_empty(xp):
    xp.apply_along_axis(lambda v: v, 0, xp.ones((3, 0)))


@gpu
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_apply_over_axes(xp):
    a = _rand(xp, (2, 3, 4), numpy.float32)
    return xp.apply_over_axes(xp.sum, a, [0, 2]), xp.apply_over_axes(xp.sum, a, 1), \
        xp.apply_over_axes(lambda x, ax: xp.sum(x, axis=ax, keepdims=True), a, (-1, 0))


@gpu
@testing.numpy_cupy_array_equal()
def test_piecewise(xp):
    x = xp.asarray(numpy.linspace(-2.5, 2.5, 6))
    xi = xp.asarray(numpy.arange(-3, 4))
    return (xp.piecewise(x, [x < 0, x >= 0], [-1, 1]), xp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]),
            xp.piecewise(x, [x < -1, x > 1], [0, lambda v: v * 2, 7]), xp.piecewise(xi, xi > 0, [lambda v: v + 1]),
            xp.piecewise(x, [x > 10], [lambda v: v, 3.5]))


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_piecewise_count_error(xp):
    x = xp.ones(3)
    xp.piecewise(x, [x > 0], [1, 2, 3])


# ---- GPU: bit packing ----------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@testing.for_int_dtypes()
@testing.numpy_cupy_array_equal()
def test_packbits(xp, dtype, axis, bitorder):
    a = _rand(xp, (5, 13), dtype, scale=2)
    return xp.packbits(a, axis, bitorder), xp.packbits(a.T, axis, bitorder), xp.packbits(a[:, :0], axis)


@gpu
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("count", [None, 0, 5, 17, 100, -3])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@testing.numpy_cupy_array_equal()
def test_unpackbits(xp, axis, count, bitorder):
    a = _rand(xp, (3, 4), numpy.uint8, scale=256)
    if count is not None and count < 0 and axis is not None and -count > 8 * a.shape[axis]:
        count = -1
    return xp.unpackbits(a, axis, count, bitorder), xp.unpackbits(a.T, axis, count, bitorder)


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.packbits(xp.ones(3)), lambda xp: xp.packbits(xp.ones(3, numpy.int32), bitorder="x"),
    lambda xp: xp.unpackbits(xp.ones(3, numpy.int32)),
    lambda xp: xp.unpackbits(xp.ones(3, numpy.uint8), count=-30),
    lambda xp: xp.packbits(xp.ones(3, numpy.int32), axis=1),
])
@testing.numpy_cupy_raises()
def test_packing_errors(xp, call):
    call(xp)


# ---- GPU: misc -------------------------------------------------------------------------------------
@gpu
def test_asarray_chkfinite_and_binary_repr():
    a = lg.asarray_chkfinite(numpy.array([1.0, 2.0]))
    assert isinstance(a, cuarray.ndarray)
    with pytest.raises(ValueError, match="array must not contain infs or NaNs"):
        lg.asarray_chkfinite(cuarray.asarray(numpy.array([1.0, numpy.nan])))
    assert lg.asarray_chkfinite(cuarray.asarray(numpy.array([1, 2]))).dtype == numpy.int64
    assert cuarray.binary_repr(cuarray.asarray(numpy.int64(6))) == "110"
    assert cuarray.common_type(cuarray.zeros(2, numpy.float32), cuarray.zeros(2, numpy.complex64)) is numpy.complex64
    with pytest.raises(TypeError):
        cuarray.common_type(cuarray.zeros(2, bool))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with cuarray.errstate(divide="raise"):
            r = cuarray.asarray(numpy.array([1.0])) / 0  # no trap on the device
    assert numpy.isinf(r.get()[0])


@gpu
def test_dtype_functions_take_device_arrays():
    a = cuarray.zeros(3, numpy.float32)
    z = cuarray.asarray(numpy.int64(3))
    assert cuarray.result_type(a, numpy.int64) == numpy.result_type(numpy.float32, numpy.int64)
    assert cuarray.result_type(a, 1.0) == numpy.float32
    assert cuarray.can_cast(a, numpy.float64) and not cuarray.can_cast(a, numpy.int8)
    assert cuarray.min_scalar_type(z) == numpy.min_scalar_type(numpy.array(3))
    assert cuarray.min_scalar_type(a) == numpy.float32
    assert numpy.result_type(a, numpy.int8) == numpy.float32  # NEP 18 dispatch lands here
