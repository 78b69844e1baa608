"""matmul planning without a GPU: which operands need copies, and cuBLAS's view of the rest.

The plan is checked by executing it on NumPy memory: an emulated column-major GEMM reads
the operands through the planned transposes, leading dimensions and batch strides.
"""
import itertools

import numpy
import pytest
from numpy.lib.stride_tricks import as_strided

from cuarray.linalg._products import blas_layout, collapse_batch, plan_matmul


def _colmajor(base, offset, rows, cols, ld):
    isz = base.itemsize
    return as_strided(base[offset:], (rows, cols), (isz, ld * isz))


def _op(m, t):
    return m if t == 0 else m.T if t == 1 else m.conj().T


def _flat(x):
    """(flat element buffer, element offset of x[0, ..., 0]) for a view with strides >= 0."""
    base = x
    while base.base is not None and isinstance(base.base, numpy.ndarray):
        base = base.base
    flat = base.ravel(order="K")  # a view: base owns contiguous memory
    off = (x.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // x.itemsize
    return flat, off


def _run(a, b):
    """Plan a @ b, copy operands as the plan asks, and execute it the way cuBLAS would."""
    copies = 0
    while True:
        plan = plan_matmul(a.shape, a.strides, b.shape, b.strides, a.itemsize, True)
        if plan.copy is None:
            break
        which, full = plan.copy
        x = b if which else a
        if full:
            x = numpy.broadcast_to(x, plan.batch + x.shape[-2:])
        x = numpy.ascontiguousarray(x)
        a, b = (a, x) if which else (x, b)
        copies += 1
    c = numpy.full(plan.batch + (plan.m, plan.n), numpy.nan, a.dtype)
    if c.size == 0 or plan.k == 0:
        return c, copies, plan
    transa, transb, M, N, K, ldb, sb, lda, sa, ldc, sc, count, big = plan.blas_args
    fa, oa = _flat(a)
    fb, ob = _flat(b)
    fc = c.reshape(-1)
    for z in range(count):
        first = _colmajor(fb, ob + z * sb, M if transa == 0 else K, K if transa == 0 else M, ldb)
        second = _colmajor(fa, oa + z * sa, K if transb == 0 else N, N if transb == 0 else K, lda)
        _colmajor(fc, z * sc, M, N, ldc)[...] = _op(first, transa) @ _op(second, transb)
    return c, copies, plan


def _layouts(x):
    yield "C", x
    yield "F", numpy.asfortranarray(x)
    t = numpy.ascontiguousarray(numpy.swapaxes(x, -1, -2))
    yield "T", numpy.swapaxes(t, -1, -2)
    wide = numpy.zeros(x.shape[:-1] + (x.shape[-1] + 3,), x.dtype)
    wide[..., :x.shape[-1]] = x
    yield "slice", wide[..., :x.shape[-1]]
    step = numpy.zeros(x.shape[:-2] + (2 * x.shape[-2], 2 * x.shape[-1]), x.dtype)
    step[..., ::2, ::2] = x
    yield "step", step[..., ::2, ::2]


SHAPES = [((3, 4), (4, 5)), ((1, 4), (4, 1)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
          ((2, 1, 3, 4), (5, 4, 2)), ((6, 3, 4), (1, 4, 5)), ((2, 2, 3, 4), (2, 1, 4, 5)),
          ((7, 1), (1, 6)), ((0, 4), (4, 3)), ((3, 0), (0, 2))]


@pytest.mark.parametrize("sa, sb", SHAPES)
def test_plan_executes_like_numpy(sa, sb):
    rng = numpy.random.default_rng(0)
    a0 = rng.standard_normal(sa) + 1j * rng.standard_normal(sa)
    b0 = rng.standard_normal(sb) + 1j * rng.standard_normal(sb)
    for (_, a), (_, b) in itertools.product(_layouts(a0), _layouts(b0)):
        c, _, _ = _run(a, b)
        ref = a0 @ b0
        assert c.shape == ref.shape
        if ref.size and a0.shape[-1]:
            numpy.testing.assert_allclose(c, ref, rtol=1e-12, atol=1e-12)


def test_no_copy_for_c_f_and_transposed_views():
    rng = numpy.random.default_rng(1)
    a = rng.standard_normal((64, 32))
    b = rng.standard_normal((48, 32))
    for x, y in [(a, b.T), (a.T.copy().T, b.T), (numpy.asfortranarray(a), b.T.copy()), (a[:, :20], b[:20].T)]:
        _, copies, _ = _run(x, y)
        assert copies == 0
    _, copies, _ = _run(a[:, ::2], b[::2].T.copy())
    assert copies == 1


def test_stack_against_one_matrix_is_one_gemm():
    a = numpy.ones((10, 16, 8))
    b = numpy.ones((8, 4))
    c, copies, plan = _run(a, b)
    assert copies == 0 and plan.blas_args[11] == 1 and plan.blas_args[3] == 160
    numpy.testing.assert_array_equal(c, a @ b)
    plan = plan_matmul((10, 40, 40), (6400, 160, 4), (10, 40, 40), (6400, 160, 4), 4, True)
    assert plan.blas_args[11] == 10 and plan.copy is None


def test_collapse_batch():
    assert collapse_batch((2, 3), (2, 3), (12, 4)) == 4
    assert collapse_batch((2, 3), (3,), (4,)) is None        # broadcast outer, strided inner
    assert collapse_batch((2, 3), (1, 1), (0, 0)) == 0
    assert collapse_batch((2, 3), (2, 1), (4, 0)) is None
    assert collapse_batch((1, 5), (5,), (7,)) == 7
    assert collapse_batch((), (), ()) == 0


def test_blas_layout():
    assert blas_layout(3, 4, 4, 1) == ("R", 4)
    assert blas_layout(3, 4, 1, 3) == ("C", 3)
    assert blas_layout(3, 4, 8, 1) == ("R", 8)              # a column slice of a wider array
    assert blas_layout(3, 4, 8, 2) is None                  # every other column
    assert blas_layout(1, 4, 0, 2) == ("C", 2)              # a strided row vector
    assert blas_layout(4, 1, 2, 0) == ("R", 2)              # a strided column vector
    assert blas_layout(3, 4, 0, 1) is None                  # broadcast rows


def test_kernel_plan_takes_any_strides():
    plan = plan_matmul((2, 3, 4), (96, 8, 16), (4, 5), (40, -8), 8, False)
    assert plan.copy is None
    assert plan.kernel_args == ((12, 1, 2), (0, 5, -1))
