"""unique and the unique_* functions, isin, in1d, intersect1d, union1d, setdiff1d and
setxor1d against NumPy; their kernels compiled by NVRTC for sm_90."""

import numpy
import pytest

import cuarray
from cuarray._routines import sets

from test_sorting import DTYPES, backend, compile_op, special_values  # noqa: F401

_b, _i4, _i8, _u4 = (numpy.dtype(c) for c in ("?", "i4", "i8", "u4"))


# ---- CPU: kernels compile -------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_set_kernels_compile(dtype):
    for eq in (False, True):
        compile_op(sets._starts_op(dtype, eq))
    compile_op(sets._compact_op(dtype, _i4))
    compile_op(sets._take_op(dtype, _i8))
    compile_op(sets._runs_op(dtype, _i4, False, True, True, True, _i8))
    compile_op(sets._runs_op(dtype, _i8, True, True, True, True, _u4))
    compile_op(sets._runs_op(dtype, _i4, False, False, False, False, None))
    compile_op(sets._rowstarts_op(dtype, _u4))
    for inv in (False, True):
        compile_op(sets._isin_op(dtype, inv))
    compile_op(sets._eqnext_op(dtype))
    compile_op(sets._xorkeep_op(dtype))


def test_counts_kernel_compiles():
    compile_op(sets._counts_op())


def test_table_kind_checks():
    a, f = numpy.zeros(1, numpy.int8), numpy.zeros(1)
    with pytest.raises(ValueError, match=r"Invalid kind: 'foo'. Please use None, 'sort' or 'table'."):
        sets._check_kind("foo", a, a)
    with pytest.raises(ValueError, match="only supported for boolean or integer arrays"):
        sets._check_kind("table", a, f)
    sets._check_kind("table", a, a)


# ---- GPU: against NumPy ------------------------------------------------------------------------
def _eq(r, e):
    if isinstance(e, tuple):
        assert isinstance(r, tuple) and len(r) == len(e)
        for x, y in zip(r, e):
            _eq(x, y)
        return
    assert isinstance(r, cuarray.ndarray) and r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape)
    numpy.testing.assert_array_equal(r.get(), e)


def _values(dtype, n, rng):
    x = special_values(dtype, n, rng)
    if numpy.dtype(dtype).kind in "iu" and n:
        x = x % 7 if numpy.dtype(dtype).kind == "u" else x % 7 - 3
    return x.astype(dtype)


FLAGS = [(False, False, False), (True, False, False), (False, True, False), (False, False, True),
         (True, True, True)]


@pytest.mark.gpu
@pytest.mark.parametrize("shape", [(0,), (1,), (50,), (3, 40), (5000,)])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_unique(backend, dtype, shape):
    rng = numpy.random.default_rng(0)
    n = int(numpy.prod(shape))
    x = _values(dtype, max(n, 1), rng)[:n].reshape(shape)
    g = cuarray.asarray(x)
    for ri, rv, rc in FLAGS:
        for eq in (True, False):
            r, e = sets.unique(g, ri, rv, rc, equal_nan=eq), numpy.unique(x, ri, rv, rc, equal_nan=eq)
            if rv and not ri and not eq:
                _inverse_eq(r, e, x)
            else:
                _eq(r, e)


def _inverse_eq(r, e, x):
    """Distinct NaNs (equal_nan=False) take inverse slots in NumPy's unstable sort order:
    compare everything else, and that the inverse rebuilds x."""
    _eq(tuple(v for k, v in enumerate(r) if k != 1), tuple(v for k, v in enumerate(e) if k != 1))
    numpy.testing.assert_array_equal(r[0].get()[r[1].get()], x)  # the inverse is r[1] here


@pytest.mark.gpu
def test_unique_0d_and_noncontiguous():
    x = numpy.array(2.5)
    _eq(sets.unique(cuarray.asarray(x), return_inverse=True), numpy.unique(x, return_inverse=True))
    with pytest.raises(numpy.exceptions.AxisError):
        sets.unique(cuarray.asarray(x), axis=0)
    y = numpy.arange(40.0).reshape(8, 5) % 6
    _eq(sets.unique(cuarray.asarray(y)[::2, ::-1], return_counts=True), numpy.unique(y[::2, ::-1], return_counts=True))


@pytest.mark.gpu
@pytest.mark.parametrize("shape,axis", [((6, 3), 0), ((6, 3), 1), ((4, 3, 2), 1), ((5, 2, 3), -1), ((7,), 0),
                                       ((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((300, 2), 0)])
@pytest.mark.parametrize("dtype", ["?", "i1", "u8", "f4", "F"])
def test_unique_axis(dtype, shape, axis):
    rng = numpy.random.default_rng(1)
    n = int(numpy.prod(shape))
    x = (rng.integers(0, 2, n) if numpy.dtype(dtype).kind != "c" else
         rng.integers(0, 2, n) + 1j * rng.integers(0, 2, n)).astype(dtype).reshape(shape)
    for ri, rv, rc in FLAGS:
        _eq(sets.unique(cuarray.asarray(x), ri, rv, rc, axis=axis), numpy.unique(x, ri, rv, rc, axis=axis))


@pytest.mark.gpu
def test_unique_namedtuples():
    rng = numpy.random.default_rng(2)
    x = _values("f8", 60, rng).reshape(6, 10)
    g = cuarray.asarray(x)
    _eq(sets.unique_values(g), numpy.unique_values(x))
    r, e = sets.unique_counts(g), numpy.unique_counts(x)
    assert r._fields == e._fields
    _eq(tuple(r), tuple(e))
    r, e = sets.unique_inverse(g), numpy.unique_inverse(x)
    assert r._fields == e._fields
    _eq(r.values, e.values)
    numpy.testing.assert_array_equal(r.values.get()[r.inverse_indices.get()], x)
    r, e = sets.unique_all(g), numpy.unique_all(x)
    assert r._fields == e._fields
    _eq(tuple(r), tuple(e))


@pytest.mark.gpu
@pytest.mark.parametrize("dtypes", [("i8", "i8"), ("f4", "f8"), ("u1", "i2"), ("F", "f4"), ("?", "?"), ("e", "i1")])
def test_isin_and_set_operations(backend, dtypes):
    rng = numpy.random.default_rng(3)
    a = _values(dtypes[0], 70, rng).reshape(7, 10)
    b = _values(dtypes[1], 40, rng)
    ga, gb = cuarray.asarray(a), cuarray.asarray(b)
    for inv in (False, True):
        _eq(sets.isin(ga, gb, invert=inv), numpy.isin(a, b, invert=inv))
        _eq(sets.in1d(ga, gb, invert=inv), numpy.isin(a.ravel(), b, invert=inv))
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        _eq(sets.isin(ga, gb, kind="table"), numpy.isin(a, b, kind="table"))
    _eq(sets.intersect1d(ga, gb), numpy.intersect1d(a, b))
    _eq(sets.intersect1d(ga, gb, return_indices=True), numpy.intersect1d(a, b, return_indices=True))
    ua, ub = numpy.unique(a), numpy.unique(b)
    _eq(sets.intersect1d(cuarray.asarray(ua), cuarray.asarray(ub), assume_unique=True, return_indices=True),
        numpy.intersect1d(ua, ub, assume_unique=True, return_indices=True))
    _eq(sets.union1d(ga, gb), numpy.union1d(a, b))
    _eq(sets.setdiff1d(ga, gb), numpy.setdiff1d(a, b))
    _eq(sets.setdiff1d(cuarray.asarray(ua), cuarray.asarray(ub), assume_unique=True),
        numpy.setdiff1d(ua, ub, assume_unique=True))
    _eq(sets.setxor1d(ga, gb), numpy.setxor1d(a, b))
    _eq(sets.setxor1d(cuarray.asarray(ua), cuarray.asarray(ub), assume_unique=True),
        numpy.setxor1d(ua, ub, assume_unique=True))


@pytest.mark.gpu
def test_set_operations_on_empty_and_large():
    e = numpy.array([], numpy.float64)
    x = numpy.array([3.0, 1.0, numpy.nan, 3.0])
    for a, b in [(e, e), (e, x), (x, e), (x[:1], x[:1])]:
        ga, gb = cuarray.asarray(a), cuarray.asarray(b)
        _eq(sets.intersect1d(ga, gb, return_indices=True), numpy.intersect1d(a, b, return_indices=True))
        _eq(sets.union1d(ga, gb), numpy.union1d(a, b))
        _eq(sets.setdiff1d(ga, gb), numpy.setdiff1d(a, b))
        _eq(sets.setxor1d(ga, gb), numpy.setxor1d(a, b))
        _eq(sets.isin(ga, gb), numpy.isin(a, b))
    rng = numpy.random.default_rng(4)
    a, b = rng.integers(0, 10000, 20000), rng.integers(0, 10000, 9000)
    _eq(sets.isin(cuarray.asarray(a), cuarray.asarray(b)), numpy.isin(a, b))
    _eq(sets.intersect1d(cuarray.asarray(a), cuarray.asarray(b), return_indices=True),
        numpy.intersect1d(a, b, return_indices=True))


@pytest.mark.gpu
def test_set_errors():
    g = cuarray.arange(3)
    with pytest.raises(ValueError, match="Invalid kind"):
        sets.isin(g, g, kind="hash")
    with pytest.raises(ValueError, match="'table' method"):
        sets.isin(g, cuarray.zeros(2), kind="table")
    with pytest.raises(TypeError, match="cuarray.asarray"):
        sets.unique(numpy.arange(3))
