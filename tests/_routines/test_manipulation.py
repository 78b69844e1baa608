"""Array manipulation routines against NumPy: shapes, joins, splits, tiling, index-driven moves,
rearrangements and every pad mode; CPU tests for the planning helpers and kernel codegen."""
import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray._core import _take_put
from cuarray._routines import joining, padding
from cuarray._routines import manipulation as m

gpu = pytest.mark.gpu


def _rand(xp, shape, dtype, seed=0, scale=10):
    return testing.shaped_random(shape, xp, dtype, scale=scale, seed=seed)


# ---- CPU: planning helpers ----------------------------------------------------------------------
def test_concat_shape():
    assert joining.concat_shape([(2, 3), (4, 3)], 0) == ((6, 3), 0)
    assert joining.concat_shape([(2, 3), (2, 5)], -1) == ((2, 8), 1)
    assert joining.concat_shape([(0, 3), (2, 3)], 0) == ((2, 3), 0)


@pytest.mark.parametrize("shapes,axis,exc,text", [
    ([], 0, ValueError, "need at least one array"),
    ([(), ()], 0, ValueError, "zero-dimensional"),
    ([(2, 3), (2, 4)], 0, ValueError, "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4"),
    ([(2, 3), (3,)], 0, ValueError, "array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)"),
    ([(2, 3)], 2, numpy.exceptions.AxisError, "axis 2 is out of bounds"),
])
def test_concat_shape_errors(shapes, axis, exc, text):
    with pytest.raises(exc) as e:
        joining.concat_shape(shapes, axis)
    assert text in str(e.value)
    # the same error NumPy gives
    if shapes:
        with pytest.raises(exc):
            numpy.concatenate([numpy.zeros(s) for s in shapes], axis)


def test_join_dtype():
    f32, i64 = numpy.dtype("f4"), numpy.dtype("i8")
    assert joining.join_dtype([f32, i64], None, "same_kind") == numpy.result_type(f32, i64)
    assert joining.join_dtype([f32, f32], "f8", "same_kind") == numpy.dtype("f8")
    with pytest.raises(TypeError, match="Cannot cast array data from dtype\\('float32'\\) to dtype\\('int64'\\)"):
        joining.join_dtype([f32], i64, "same_kind")
    with pytest.raises(TypeError):
        joining.join_dtype([numpy.dtype("U3")], None, "same_kind")


@pytest.mark.parametrize("n,spec", [(10, 3), (10, 5), (3, 5), (0, 2), (10, [2, 5, 7]), (10, [7, 2]),
                                    (10, [-3]), (10, [20]), (10, numpy.array([1, 4])), (7, 1)])
def test_split_bounds(n, spec):
    x = numpy.arange(n)
    want = [(p[0], p[-1] + 1) if p.size else None for p in numpy.array_split(x, spec)]
    got = joining.split_bounds(n, spec)
    assert len(got) == len(want)
    for (s, e), w in zip(got, want):
        part = x[s:e]
        assert (w is None and part.size == 0) or (part[0], part[-1] + 1) == w


def test_split_bounds_error():
    with pytest.raises(ValueError, match="number sections must be larger than 0"):
        joining.split_bounds(4, 0)


@pytest.mark.parametrize("spec,ndim", [(1, 2), ((1, 2), 3), (((1, 2), (3, 4)), 2), ([[1], [2]], 2),
                                       (numpy.array([[1, 2]]), 3), (None, 2), (2.6, 1)])
def test_pad_pairs_matches_numpy(spec, ndim):
    from numpy.lib._arraypad_impl import _as_pairs
    for as_index in (False, True):
        if spec is None and as_index:
            continue
        got = padding.pad_pairs(spec, ndim, as_index)
        want = _as_pairs(spec, ndim, as_index)
        assert [tuple(p) for p in got] == [tuple(p) for p in want]


def test_pad_pairs_errors():
    with pytest.raises(ValueError, match="index can't contain negative values"):
        padding.pad_pairs(-1, 2, as_index=True)
    with pytest.raises(ValueError, match="index can't contain negative values"):
        padding.pad_pairs(((1, 2), (3, -4)), 2, as_index=True)
    with pytest.raises(ValueError):
        padding.pad_pairs(((1, 2, 3),), 2)


def test_pad_width_forms():
    assert padding._pad_width({0: 2, 1: (1, 3)}, 3) == [(2, 2), (1, 3), (0, 0)]
    assert padding._pad_width(((1, 2),), 2) == [(1, 2), (1, 2)]
    with pytest.raises(TypeError, match="`pad_width` must be of integral type"):
        padding._pad_width(1.5, 2)


def _compile(op, raw_info=None, ndim=None):
    pytest.importorskip("cuda.bindings")
    from cuarray._core.elementwise import generate
    from cuarray._runtime.compiler import compile_cubin
    raw_info = [(2, False) if p.role == "raw" else None for p in op.params] if raw_info is None else raw_info
    src, kinds = generate(op, [p.dtype for p in op.params], raw_info, ndim, 1, False)
    assert len(compile_cubin(src, op.options, arch="sm_90", name=op.name)[0]) > 0


@pytest.mark.parametrize("dtype", ["?", "b", "e", "f", "d", "F", "D", "Q"])
def test_kernels_compile(dtype):
    dt = numpy.dtype(dtype)
    _compile(_take_put._take_op(dt))
    _compile(_take_put._take_op(dt), ndim=2)
    _compile(_take_put._put_op(dt, numpy.dtype("e")))
    _compile(_take_put._put_op(numpy.dtype("e"), dt))


def test_resize_and_delete_kernels_compile():
    from cuarray._core.elementwise import Op, Param
    for dt in map(numpy.dtype, "?hdD"):
        _compile(Op("resize_probe", [Param("x", "raw", dt), Param("y", "out", dt)], "y = x[i % x.size()];"))


# ---- GPU: shape changes and views ------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("shape,new", [((3, 4), (4, 3)), ((3, 4), -1), ((2, 3, 4), (6, -1)), ((), (1, 1))])
@pytest.mark.parametrize("order", ["C", "F", "A"])
@testing.numpy_cupy_array_equal()
def test_reshape(xp, shape, new, order):
    a = _rand(xp, shape, numpy.float32)
    return xp.reshape(a, new, order=order), xp.reshape(a.T, new, order=order)


@gpu
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@testing.numpy_cupy_array_equal()
def test_ravel(xp, order):
    a = _rand(xp, (3, 4, 5), numpy.int32)
    return xp.ravel(a, order), xp.ravel(a.transpose(2, 0, 1), order), xp.ravel(a[:, ::2], order)


@gpu
@testing.numpy_cupy_array_equal()
def test_axis_moves(xp):
    a = _rand(xp, (2, 3, 4, 5), numpy.float64)
    return (xp.moveaxis(a, 0, -1), xp.moveaxis(a, [0, 1], [-1, -2]), xp.rollaxis(a, 3, 1),
            xp.rollaxis(a, 1, 4), xp.swapaxes(a, 0, 3), xp.transpose(a), xp.transpose(a, (1, 0, 3, 2)),
            xp.permute_dims(a, (3, 2, 1, 0)))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.moveaxis(a, [0, 1], [0]), lambda xp, a: xp.moveaxis(a, [0, 0], [0, 1]),
    lambda xp, a: xp.moveaxis(a, 5, 0), lambda xp, a: xp.rollaxis(a, 5),
    lambda xp, a: xp.rollaxis(a, 0, 5), lambda xp, a: xp.swapaxes(a, 0, 3),
    lambda xp, a: xp.transpose(a, (0, 0, 1)), lambda xp, a: xp.expand_dims(a, (0, 0)),
    lambda xp, a: xp.expand_dims(a, 5), lambda xp, a: xp.squeeze(a, 0),
])
@testing.numpy_cupy_raises()
def test_axis_errors(xp, call):
    call(xp, _rand(xp, (2, 3, 4), numpy.float32))


@gpu
@testing.numpy_cupy_array_equal()
def test_atleast(xp):
    vals = [_rand(xp, s, numpy.float32) for s in [(), (3,), (2, 3), (2, 3, 4)]]
    out = []
    for f in (xp.atleast_1d, xp.atleast_2d, xp.atleast_3d):
        out += list(f(*vals)) + [f(vals[0]), f(vals[1])]
    return out


@gpu
@testing.numpy_cupy_array_equal()
def test_expand_squeeze(xp):
    a = _rand(xp, (3, 1, 4), numpy.int16)
    return (xp.expand_dims(a, 0), xp.expand_dims(a, -1), xp.expand_dims(a, (0, 2, -1)), xp.squeeze(a),
            xp.squeeze(a, 1), xp.squeeze(xp.expand_dims(a, (0, 4)), (0, 4)))


@gpu
@testing.numpy_cupy_array_equal()
def test_broadcast_to_and_arrays(xp):
    a = _rand(xp, (3, 1), numpy.float32)
    b = _rand(xp, (4,), numpy.float32)
    c = _rand(xp, (), numpy.float32)
    return (xp.broadcast_to(a, (2, 3, 5)), xp.broadcast_to(c, (2, 2)), xp.broadcast_to(b, 4)) + \
        tuple(xp.broadcast_arrays(a, b, c))


def test_broadcast_shapes():
    assert m.broadcast_shapes((3, 1), (4,), ()) == (3, 4)
    with pytest.raises(ValueError, match="shape mismatch"):
        m.broadcast_shapes((2, 3), (2, 4))


@gpu
def test_broadcast_class():
    a = cuarray.zeros((3, 1))
    b = cuarray.zeros((4,))
    bc = m.broadcast(a, b)
    assert bc.shape == (3, 4) and bc.size == 12 and bc.nd == bc.ndim == 2 and bc.numiter == 2
    assert all(v.shape == (3, 4) for v in bc.values)


@gpu
@pytest.mark.parametrize("shapes", [((2, 3), (3, 3)), ((2, 3), (3,)), ((2, 3), ()), ((2, 3), (-1, 3))])
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_broadcast_to_errors(xp, shapes):
    xp.broadcast_to(xp.zeros(shapes[0]), shapes[1])


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_broadcast_arrays_error(xp):
    xp.broadcast_arrays(xp.zeros((2, 3)), xp.zeros((2, 4)))


@gpu
def test_asfortranarray_and_require():
    a = cuarray.asarray(numpy.arange(12.0).reshape(3, 4))
    f = cuarray.asfortranarray(a)
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    numpy.testing.assert_array_equal(f.get(), a.get())
    assert cuarray.asfortranarray(f) is f
    assert cuarray.asfortranarray(a, numpy.float32).dtype == numpy.float32
    assert m.require(a, requirements="C") is a
    r = m.require(a, requirements=["F", "A"])
    assert r.flags.f_contiguous and r is not a
    r = m.require(a[:, ::2], numpy.int32, "C")
    assert r.flags.c_contiguous and r.dtype == numpy.int32
    numpy.testing.assert_array_equal(r.get(), a.get()[:, ::2].astype(numpy.int32))
    assert m.require(a[1:], requirements="O").base is None
    with pytest.raises(ValueError, match='Cannot specify both "C" and "F" order'):
        m.require(a, requirements="CF")


# ---- GPU: joining -----------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_concatenate(xp, dtype, axis):
    a = _rand(xp, (3, 4), dtype, 0)
    b = _rand(xp, (3, 4), dtype, 1)[:, ::-1]
    c = _rand(xp, (4, 3), dtype, 2).T
    return xp.concatenate((a, b, c), axis=axis), xp.concatenate([a], axis=axis)


@gpu
@testing.numpy_cupy_array_equal()
def test_concatenate_mixed_and_empty(xp):
    a = _rand(xp, (2, 3), numpy.int8)
    b = _rand(xp, (4, 3), numpy.float32)
    e = xp.zeros((0, 3), numpy.float16)
    return (xp.concatenate((a, b, e)), xp.concatenate((a, e), axis=0), xp.concatenate((e, e)),
            xp.concatenate((a, b), dtype=numpy.float64), xp.concatenate((b, a), dtype=numpy.int64,
                                                                      casting="unsafe"))


@gpu
@testing.numpy_cupy_array_equal()
def test_concatenate_out_and_order(xp):
    a = xp.asfortranarray(_rand(xp, (3, 4), numpy.float64))
    b = xp.asfortranarray(_rand(xp, (3, 2), numpy.float64, 1))
    r = xp.concatenate((a, b), axis=1)
    out = xp.zeros((6, 4), numpy.float32)
    xp.concatenate((a, a), out=out)
    return r, out, xp.asarray(r.flags.f_contiguous), xp.concat((a, a)), xp.concat((a, b), axis=1)


@gpu
def test_concatenate_large():
    parts = [numpy.random.default_rng(k).random((1 << 18) + k, dtype=numpy.float32) for k in range(8)]
    g = cuarray.concatenate([cuarray.asarray(p) for p in parts])
    numpy.testing.assert_array_equal(g.get(), numpy.concatenate(parts))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.concatenate([]), lambda xp: xp.concatenate([xp.zeros(()), xp.zeros(())]),
    lambda xp: xp.concatenate([xp.zeros((2, 3)), xp.zeros((2, 4))]),
    lambda xp: xp.concatenate([xp.zeros((2, 3)), xp.zeros(3)]),
    lambda xp: xp.concatenate([xp.zeros((2, 3))], axis=2),
    lambda xp: xp.concatenate([xp.zeros((2, 3))] * 2, out=xp.zeros((3, 3))),
    lambda xp: xp.concatenate([xp.zeros((2, 3))] * 2, dtype=int),
    lambda xp: xp.concatenate([xp.zeros((2, 3))] * 2, dtype=float, out=xp.zeros((4, 3))),
    lambda xp: xp.stack([xp.zeros((2, 3)), xp.zeros((2, 4))]), lambda xp: xp.stack([]),
    lambda xp: xp.stack([xp.zeros((2, 3))], axis=3),
])
@testing.numpy_cupy_raises()
def test_join_errors(xp, call):
    call(xp)


def test_join_refuses_host_data():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        joining.concatenate([numpy.zeros(3), numpy.zeros(3)])


@gpu
@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_stack(xp, dtype, axis):
    arrs = [_rand(xp, (3, 4), dtype, k) for k in range(3)]
    arrs[1] = arrs[1].T.copy().T
    return xp.stack(arrs, axis=axis), xp.stack(arrs, axis, dtype=numpy.complex128)


@gpu
@testing.numpy_cupy_array_equal()
def test_stack_family(xp):
    s = _rand(xp, (), numpy.float32)
    v = _rand(xp, (4,), numpy.float32, 1)
    w = _rand(xp, (4,), numpy.float32, 2)
    M = _rand(xp, (2, 4), numpy.float32, 3)
    T = _rand(xp, (2, 4, 3), numpy.float32, 4)
    return (xp.hstack((v, w)), xp.hstack((M, M)), xp.hstack((s, v)), xp.vstack((v, w)), xp.vstack((M, v)),
            (xp.row_stack if hasattr(numpy, "row_stack") else xp.vstack)((v, w)), xp.dstack((v, w)), xp.dstack((M, M)), xp.dstack((T, M)),
            xp.column_stack((v, w)), xp.column_stack((M.T, v)), xp.hstack((v, w), dtype=numpy.float64),
            xp.vstack((M, v), dtype=numpy.int32, casting="unsafe"))


@gpu
@testing.numpy_cupy_array_equal()
def test_append(xp):
    a = _rand(xp, (2, 3), numpy.int32)
    b = _rand(xp, (1, 3), numpy.int32, 1)
    return xp.append(a, b), xp.append(a, b, axis=0), xp.append(a[:, 0], 7), xp.append(a, a, axis=1)


# ---- GPU: splitting -------------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("spec", [2, 3, [1, 3], [4, 1], []])
@testing.numpy_cupy_array_list_equal()
def test_array_split(xp, spec):
    a = _rand(xp, (6, 5), numpy.float32)
    return xp.array_split(a, spec) + xp.array_split(a, spec, axis=1) + xp.array_split(a.T, spec, axis=-1)


@gpu
@testing.numpy_cupy_array_list_equal()
def test_split_family(xp):
    a = _rand(xp, (4, 6, 8), numpy.int64)
    return (xp.split(a, 2) + xp.split(a, [1, 3], axis=2) + xp.hsplit(a, 3) + xp.vsplit(a, [1])
            + xp.dsplit(a, 4) + xp.hsplit(a[0, 0], 2))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.split(xp.arange(5), 2), lambda xp: xp.array_split(xp.arange(5), 0),
    lambda xp: xp.hsplit(xp.zeros(()), 2), lambda xp: xp.vsplit(xp.arange(3), 2),
    lambda xp: xp.dsplit(xp.zeros((2, 2)), 2), lambda xp: xp.split(xp.arange(4), 2, axis=1),
])
@testing.numpy_cupy_raises()
def test_split_errors(xp, call):
    call(xp)


# ---- GPU: tile and repeat ---------------------------------------------------------------------------
@gpu
@pytest.mark.parametrize("shape,reps", [((3,), 2), ((3,), (2, 2)), ((2, 3), 2), ((2, 3), (1, 3)),
                                         ((2, 3), (2, 1, 2)), ((), 3), ((2, 0), 2), ((2, 3), 0)])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_tile(xp, dtype, shape, reps):
    a = _rand(xp, shape, dtype)
    return xp.tile(a, reps), xp.tile(a.T, reps)


@gpu
@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, 1), (0, 1), ([1, 0, 2], 0), ([2], 1),
                                           ([0, 1, 2, 3], 1), (numpy.array([1, 2, 3]), 0), (1.5, None)])
@testing.for_all_dtypes()
@testing.numpy_cupy_array_equal()
def test_repeat(xp, dtype, repeats, axis):
    a = _rand(xp, (3, 4), dtype)
    return xp.repeat(a, repeats, axis), xp.repeat(a[:, ::-1], repeats, axis)


@gpu
@testing.numpy_cupy_array_equal()
def test_repeat_device_repeats(xp):
    a = _rand(xp, (3, 4), numpy.float32)
    reps = xp.asarray(numpy.array([2, 0, 3, 1]))
    return xp.repeat(a, reps, axis=1), xp.repeat(a, xp.asarray(numpy.array([2])), axis=0)


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.repeat(xp.arange(3), [1, 2]), lambda xp: xp.repeat(xp.arange(3), -1),
    lambda xp: xp.repeat(xp.arange(3), [1, -2, 1]), lambda xp: xp.tile(xp.arange(3), -1),
    lambda xp: xp.repeat(xp.arange(3), 2, axis=1),
])
@testing.numpy_cupy_raises()
def test_tile_repeat_errors(xp, call):
    call(xp)


# ---- GPU: delete, insert, resize, trim_zeros --------------------------------------------------------
@gpu
@pytest.mark.parametrize("obj,axis", [(1, None), (-1, 0), ([0, 2], 1), (slice(1, None, 2), 1),
                                       (numpy.array([True, False, True]), 0), ([], 0), ([1, 1, -1], None)])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_delete(xp, dtype, obj, axis):
    a = _rand(xp, (3, 4), dtype)
    return xp.delete(a, obj, axis), xp.delete(a[:, ::-1], obj, axis)


@gpu
@testing.numpy_cupy_array_equal()
def test_delete_device_obj(xp):
    a = _rand(xp, (3, 5), numpy.float32)
    idx = xp.asarray(numpy.array([0, -1, 2]))
    mask = xp.asarray(numpy.array([True, False, False, True, False]))
    return xp.delete(a, idx, axis=1), xp.delete(a, mask, axis=1), xp.delete(a, xp.asarray(numpy.int64(1)))


@gpu
@pytest.mark.parametrize("call", [
    lambda xp: xp.delete(xp.arange(3), 5), lambda xp: xp.delete(xp.arange(3), [True, False]),
    lambda xp: xp.delete(xp.arange(3), 1.0), lambda xp: xp.insert(xp.arange(3), 5, 1),
    lambda xp: xp.insert(xp.arange(3), [[1]], 1), lambda xp: xp.insert(xp.arange(3), [5, 1], 9),
    lambda xp: xp.insert(xp.arange(6).reshape(2, 3), [0, 1], xp.arange(3), axis=1),
])
@testing.numpy_cupy_raises()
def test_delete_insert_errors(xp, call):
    call(xp)


@gpu
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_insert(xp, dtype):
    a = _rand(xp, (3, 2), dtype)
    v = _rand(xp, (3,), dtype, 1)
    col = _rand(xp, (3, 1), dtype, 2)
    b = a.ravel()
    return (xp.insert(a, 1, 6), xp.insert(a, 1, 6, axis=1), xp.insert(a, [1], col, axis=1),
            xp.insert(a, 1, v, axis=1), xp.insert(b, [2, 2], v[:2]), xp.insert(b, slice(2, 4), v[:2]),
            xp.insert(b, [2, 2], 7), xp.insert(a, (1, 2), 9, axis=1), xp.insert(b, -1, v),
            xp.insert(b, numpy.array([True, False, True, False, False, False]), 5),
            xp.insert(a.T, [0, 2], 1, axis=1), xp.insert(b, [], v[:0]))


@gpu
@pytest.mark.parametrize("shape", [(7,), (2, 5), (3, 3, 2), (0,), (4, 0)])
@testing.numpy_cupy_array_equal()
def test_resize(xp, shape):
    a = _rand(xp, (2, 3), numpy.complex64)
    return xp.resize(a, shape), xp.resize(a.T, shape), xp.resize(xp.zeros(0), shape), xp.resize(a, 5)


@gpu
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@testing.numpy_cupy_array_equal()
def test_trim_zeros(xp, trim):
    a = xp.asarray(numpy.array([0, 0, 0, 1, 2, 3, 0, 2, 1, 0]))
    b = xp.asarray(numpy.array([[0, 0, 2, 3, 0, 0], [0, 1, 0, 3, 0, 0], [0, 0, 0, 0, 0, 0]], numpy.float32))
    z = xp.zeros((3, 4))
    return (xp.trim_zeros(a, trim), xp.trim_zeros(b, trim), xp.trim_zeros(b, trim, axis=-1),
            xp.trim_zeros(b, trim, axis=0), xp.trim_zeros(z, trim), xp.trim_zeros(xp.zeros((0, 2)), trim))


@gpu
@testing.numpy_cupy_raises(accept_error=ValueError)
def test_trim_zeros_error(xp):
    xp.trim_zeros(xp.zeros(3), "x")


# ---- GPU: rearranging ------------------------------------------------------------------------------
@gpu
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_flips(xp, dtype):
    a = _rand(xp, (2, 3, 4), dtype)
    return (xp.flip(a), xp.flip(a, 1), xp.flip(a, (0, 2)), xp.fliplr(a), xp.flipud(a),
            xp.flip(a, -1).copy())


@gpu
@pytest.mark.parametrize("shift,axis", [(1, None), (-7, None), (2, 0), (-1, 1), ((1, 2), (0, 1)),
                                         ((1, 2), (0,)), (3, (0, 1, 1)), (0, 1)])
@testing.for_all_dtypes(no_float16=True)
@testing.numpy_cupy_array_equal()
def test_roll(xp, dtype, shift, axis):
    a = _rand(xp, (3, 4, 2), dtype)
    return xp.roll(a, shift, axis), xp.roll(a.transpose(1, 0, 2), shift, axis)


@gpu
@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (1, 2), (-1, 0)])
@testing.numpy_cupy_array_equal()
def test_rot90(xp, k, axes):
    return xp.rot90(_rand(xp, (2, 3, 4), numpy.float32), k, axes)


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.roll(a, [[1]], 0), lambda xp, a: xp.rot90(a, axes=(0, 0)),
    lambda xp, a: xp.rot90(a[0, 0]), lambda xp, a: xp.rot90(a, axes=(0, 1, 2)),
    lambda xp, a: xp.rot90(a, axes=(0, 5)), lambda xp, a: xp.flip(a, 3),
    lambda xp, a: xp.fliplr(a[0, 0]), lambda xp, a: xp.flipud(a[0, 0, 0]),
])
@testing.numpy_cupy_raises()
def test_rearrange_errors(xp, call):
    call(xp, _rand(xp, (2, 3, 4), numpy.float32))


# ---- GPU: pad ------------------------------------------------------------------------------------
_PAD_CASES = [
    ("constant", {}), ("constant", {"constant_values": 7}), ("constant", {"constant_values": ((1, 2), (3, 4))}),
    ("edge", {}), ("wrap", {}), ("linear_ramp", {}), ("linear_ramp", {"end_values": (5, -3)}),
    ("maximum", {}), ("minimum", {}), ("mean", {}), ("maximum", {"stat_length": 2}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}), ("minimum", {"stat_length": (1, 3)}),
    ("reflect", {}), ("reflect", {"reflect_type": "odd"}), ("symmetric", {}),
    ("symmetric", {"reflect_type": "odd"}),
]


_WIDTHS = [2, (1, 3), ((0, 2), (3, 1)), ((5, 7), (9, 0))]


@gpu
@pytest.mark.parametrize("mode,kwargs", _PAD_CASES)
@pytest.mark.parametrize("width", _WIDTHS)
@testing.for_dtypes([numpy.float64, numpy.float32, numpy.int32, numpy.uint8, numpy.complex64])
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_pad(xp, dtype, mode, kwargs, width):
    a = _rand(xp, (3, 4), dtype, scale=20)
    return xp.pad(a, width, mode, **kwargs), xp.pad(a.T, width, mode, **kwargs)


@gpu
@pytest.mark.parametrize("width", _WIDTHS)
@testing.numpy_cupy_array_equal()
def test_pad_empty_mode(xp, width):
    a = _rand(xp, (3, 4), numpy.float32)
    r = xp.pad(a, width, "empty")
    pairs = padding.pad_pairs(width, 2, as_index=True)
    return r[tuple(slice(lo, lo + n) for (lo, _), n in zip(pairs, a.shape))], xp.asarray(r.shape)


@gpu
@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap", "median", "mean"])
@testing.numpy_cupy_allclose(rtol=1e-6)
def test_pad_1d_and_3d(xp, mode):
    if mode == "median" and not hasattr(cuarray, "median"):
        pytest.skip("cuarray.median (statistics) is not available")
    a = _rand(xp, (5,), numpy.float64)
    b = _rand(xp, (2, 3, 4), numpy.float32, 1)
    one = _rand(xp, (1, 3), numpy.float64, 2)
    return xp.pad(a, (7, 12), mode), xp.pad(b, {0: 1, 2: (2, 3)}, mode), xp.pad(one, 2, mode)


@gpu
@testing.numpy_cupy_array_equal()
def test_pad_callable_and_empty(xp):
    def tens(vector, pad_width, iaxis, kwargs):
        vector[:pad_width[0]] = kwargs.get("v", 10)
        if pad_width[1]:
            vector[-pad_width[1]:] = kwargs.get("v", 10)
    a = _rand(xp, (2, 3), numpy.int64)
    return xp.pad(a, 2, tens), xp.pad(a, 1, tens, v=3), xp.pad(xp.zeros((0, 3)), 1), \
        xp.pad(xp.zeros((0, 3)), ((0, 0), (1, 1)), "edge")


@gpu
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.pad(a, -1), lambda xp, a: xp.pad(a, 1.5), lambda xp, a: xp.pad(a, 1, mode="foo"),
    lambda xp, a: xp.pad(a, 1, mode="edge", foo=1), lambda xp, a: xp.pad(xp.zeros((0, 3)), 1, "edge"),
    lambda xp, a: xp.pad(a, 1, mode="maximum", stat_length=0), lambda xp, a: xp.pad(a, ((1, 2),) * 3),
])
@testing.numpy_cupy_raises()
def test_pad_errors(xp, call):
    call(xp, _rand(xp, (2, 3), numpy.float32))


# ---- the tiled transpose copy (cuarray._core._transpose) ---------------------------------------------
def _layout(shape, perm, itemsize, order="C"):
    """Strides of a `perm`-transposed view of a contiguous array whose shape is `shape`
    permuted by `perm`'s inverse (so the view has `shape`)."""
    base = tuple(shape[p] for p in numpy.argsort(perm))
    st = numpy.empty(base, numpy.dtype(f"V{itemsize}"), order=order).strides
    return tuple(st[p] for p in numpy.argsort(numpy.argsort(perm)))


@pytest.mark.parametrize("shape,perm", [((40, 70), (1, 0)), ((3, 40, 70), (0, 2, 1)), ((40, 3, 70), (2, 1, 0)),
                                        ((33, 17), (1, 0)), ((2, 3, 40, 50), (0, 1, 3, 2))])
@pytest.mark.parametrize("itemsize", [1, 4, 16])
def test_transpose_plan_moves_every_element(shape, perm, itemsize):
    from cuarray._core import _transpose
    src_st = _layout(shape, perm, itemsize)
    dst_st = numpy.empty(shape, numpy.dtype(f"V{itemsize}")).strides
    p = _transpose.plan(shape, src_st, dst_st, itemsize)
    assert p is not None
    R, C, sc, dr, sb, db, batch = p
    # The kernel's addressing, element by element, against plain strided indexing.
    n = int(numpy.prod(shape))
    src_off = numpy.zeros(shape, numpy.int64)
    dst_off = numpy.zeros(shape, numpy.int64)
    for d, s in enumerate(shape):
        idx = numpy.arange(s).reshape([-1 if k == d else 1 for k in range(len(shape))])
        src_off = src_off + idx * (src_st[d] // itemsize)
        dst_off = dst_off + idx * (dst_st[d] // itemsize)
    b, r, c = numpy.meshgrid(numpy.arange(batch), numpy.arange(R), numpy.arange(C), indexing="ij")
    kernel_src = (b * sb + c * sc + r).ravel()
    kernel_dst = (b * db + r * dr + c).ravel()
    assert kernel_dst.size == n and numpy.unique(kernel_dst).size == n
    mapping = dict(zip(dst_off.ravel().tolist(), src_off.ravel().tolist()))
    assert all(mapping[d] == s for d, s in zip(kernel_dst.tolist(), kernel_src.tolist()))


@pytest.mark.parametrize("shape,src_st,dst_st", [
    ((40, 70), (280, 4), (280, 4)),        # same layout: a plain copy
    ((8, 300), (4, 32), (1200, 4)),        # a side under MIN_SIDE
    ((40, 70), (4, 160), (284, 4)),        # padded rows are fine ...
    ((40, 70), (6, 160), (280, 4)),        # ... but not a stride that is no multiple of itemsize
    ((5, 40, 70), (4, 200, 20), (11200, 280, 4)),  # a batch axis that cannot merge with the rest
])
def test_transpose_plan_refuses(shape, src_st, dst_st):
    from cuarray._core import _transpose
    p = _transpose.plan(shape, src_st, dst_st, 4)
    assert (p is not None) == (src_st == (4, 160) and dst_st == (284, 4))


@pytest.mark.parametrize("itemsize", [1, 2, 4, 8, 16])
def test_transpose_kernel_compiles(itemsize):
    pytest.importorskip("cuda.bindings")
    from cuarray._core import _transpose
    from cuarray._runtime.compiler import compile_cubin
    for idx64 in (False, True):
        src, name = _transpose.source(itemsize, idx64)
        assert compile_cubin(src, arch="sm_90", name=name)[0]


@gpu
@pytest.mark.parametrize("shape,perm", [((64, 96), (1, 0)), ((33, 47), (1, 0)), ((3, 40, 70), (0, 2, 1)),
                                        ((40, 3, 70), (2, 1, 0)), ((1, 100, 1, 50), (3, 2, 1, 0))])
@testing.for_dtypes([numpy.uint8, numpy.float16, numpy.float32, numpy.float64, numpy.complex128])
def test_transpose_copy(shape, perm, dtype):
    from cuarray._core import _transpose
    h = testing.shaped_random(shape, numpy, dtype)
    src = cuarray.asarray(numpy.ascontiguousarray(h.transpose(numpy.argsort(perm)))).transpose(perm)
    dst = cuarray.empty(shape, dtype)
    assert _transpose.transpose_copy(src, dst)
    numpy.testing.assert_array_equal(dst.get(), h)
    f = cuarray.empty(shape, dtype, order="F")
    ok = _transpose.transpose_copy(dst, f)
    assert ok == (_transpose.plan(shape, dst.strides, f.strides, f.itemsize) is not None)
    if ok:
        numpy.testing.assert_array_equal(f.get(), h)


@gpu
def test_transpose_copy_declines():
    from cuarray._core import _transpose
    a = cuarray.asarray(numpy.arange(64 * 80, dtype=numpy.float32).reshape(64, 80))
    assert not _transpose.transpose_copy(a, cuarray.empty((64, 80), numpy.float32))           # same layout
    assert not _transpose.transpose_copy(a.T, cuarray.empty((80, 64), numpy.float64))         # a cast
    assert not _transpose.transpose_copy(a[:, :64].T, a[:64, :])                              # overlap
    assert not _transpose.transpose_copy(a[:8].T, cuarray.empty((80, 8), numpy.float32))      # too narrow
