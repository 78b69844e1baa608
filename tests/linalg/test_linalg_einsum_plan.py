"""einsum parsing and planning without a GPU.

The planner is pure Python; the executor is run here on NumPy arrays through a small
stand-in for the device layer (strided views, sums, batched matmul), so the whole
contraction logic is checked against numpy.einsum on a machine with no GPU.
"""
import types

import numpy
import pytest
from numpy.lib.stride_tricks import as_strided

from cuarray.linalg import _einsum


def test_parse_explicit_and_implicit():
    p = _einsum.parse("ij,jk->ik", (2, 2))
    assert p.inputs == (("i", "j"), ("j", "k")) and p.output == ("i", "k")
    assert _einsum.parse("ij,jk", (2, 2)).output == ("i", "k")
    assert _einsum.parse("Ba,aB", (2, 2)).output == ()
    assert _einsum.parse("ba", (2,)).output == ("a", "b")
    assert _einsum.parse("ii", (2,)).output == ()
    assert _einsum.parse(" i j , j k -> i k ", (2, 2)).output == ("i", "k")


def test_parse_ellipsis_right_aligned():
    p = _einsum.parse("...ij,...jk", (4, 2))
    assert p.inputs == ((0, 1, "i", "j"), ("j", "k")) and p.output == (0, 1, "i", "k")
    p = _einsum.parse("i...,i...->...", (3, 2))
    assert p.inputs == (("i", 0, 1), ("i", 1)) and p.output == (0, 1)


@pytest.mark.parametrize("subscripts, shapes", [
    ("ij,jk->ik", [(2, 3), (4, 5)]), ("ij->ik", [(2, 3)]), ("ij->ii", [(2, 3)]),
    ("ijk", [(2, 3)]), ("ij", [(2, 3, 4)]), ("ii", [(2, 3)]), ("i$", [(2, 3)]),
    ("ij,jk", [(2, 3)]), ("ij", [(2, 3), (3, 2)]), ("...i->i", [(2, 3)]), ("i.j", [(2, 3)]),
])
def test_errors_match_numpy(subscripts, shapes):
    ops = [numpy.ones(s) for s in shapes]
    with pytest.raises(ValueError) as ref:
        numpy.einsum(subscripts, *ops)
    with pytest.raises(ValueError) as got:
        p = _einsum.parse(subscripts, tuple(len(s) for s in shapes))
        _einsum.label_sizes(p, tuple(shapes))
    if "broadcast" not in str(ref.value):
        assert str(got.value) == str(ref.value)


def test_sizes_broadcast_and_view_plan():
    p = _einsum.parse("ij,jk", (2, 2))
    sizes = _einsum.label_sizes(p, ((2, 1), (3, 4)))
    assert sizes == {"i": 2, "j": 3, "k": 4}
    assert _einsum.operand_view_plan(("i", "j"), (2, 1), sizes) == (("i",), ((0,),))
    assert _einsum.operand_view_plan(("i", "j", "i"), (2, 3, 2), {"i": 2, "j": 3}) == \
        (("i", "j"), ((0, 2), (1,)))


def test_contraction_paths():
    p = _einsum.parse("ij,jk,kl,lm->im", (2, 2, 2, 2))
    shapes = ((2, 30), (30, 40), (40, 5), (5, 6))
    assert _einsum.contraction_path(p, shapes, False) == [(0, 1), (0, 2), (0, 1)]
    assert len(_einsum.contraction_path(p, shapes, "greedy")) == 3
    assert len(_einsum.contraction_path(p, shapes, "optimal")) == 3
    assert _einsum.contraction_path(p, shapes, ["einsum_path", (2, 3), (0, 1), (0, 1)]) == \
        [(2, 3), (0, 1), (0, 1)]
    with pytest.raises(TypeError):
        _einsum.contraction_path(p, shapes, "fastest")


def test_sublist_format():
    x, y = object(), object()
    s, ops = _einsum.split_operands((x, [0, 1], y, [1, Ellipsis], [0, Ellipsis]))
    assert s == "AB,B...->A..." and ops == [x, y]
    s, ops = _einsum.split_operands((x, [0, 27], y, [27]))
    assert s == "Ab,b" and ops == [x, y]


# -- the executor on NumPy ---------------------------------------------------------------
class _Ptr:
    def __init__(self, a):
        self.a = a


class _Arr(numpy.ndarray):
    def __new__(cls, shape, dtype=float, memptr=None, strides=None):
        return as_strided(memptr.a, shape, strides).view(_Arr)

    @property
    def data(self):
        return _Ptr(self)


@pytest.fixture
def numpy_backend(monkeypatch):
    ns = types.SimpleNamespace(
        ndarray=_Arr, sum=numpy.sum, copyto=numpy.copyto,
        ascontiguousarray=numpy.ascontiguousarray, asfortranarray=numpy.asfortranarray)
    monkeypatch.setattr(_einsum, "cuarray", ns)
    monkeypatch.setattr(_einsum, "matmul_nd", lambda a, b, dt, out=None: numpy.matmul(a, b))
    monkeypatch.setattr(_einsum, "as_array", lambda x, name: numpy.asarray(x).view(_Arr))


CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
    ("i,i", [(5,), (5,)]), ("i,j->ij", [(3,), (4,)]), ("...ij,...jk", [(2, 3, 4), (4, 5)]),
    ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 1)]), ("ijk,kji->", [(2, 3, 4), (4, 3, 2)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]), ("ij,jk", [(2, 1), (3, 4)]), (",i->i", [(), (3,)]),
    ("ijij->ij", [(2, 3, 2, 3)]), ("iji->j", [(2, 3, 2)]), ("bn,anm,bm->ba", [(3, 4), (2, 4, 5), (3, 5)]),
    ("ij,jk->ik", [(0, 4), (4, 5)]), ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
]


@pytest.mark.parametrize("subscripts, shapes", CASES)
@pytest.mark.parametrize("optimize", [False, True, "optimal"])
def test_executor_matches_numpy(numpy_backend, subscripts, shapes, optimize):
    rng = numpy.random.default_rng(0)
    ops = [rng.standard_normal(s) for s in shapes]
    ref = numpy.einsum(subscripts, *ops)
    got = _einsum.einsum(subscripts, *ops, optimize=optimize)
    assert numpy.shape(got) == numpy.shape(ref)
    numpy.testing.assert_allclose(numpy.asarray(got), ref, rtol=1e-10, atol=1e-10)


def test_executor_views(numpy_backend):
    a = numpy.arange(16.0).reshape(4, 4)
    assert numpy.shares_memory(_einsum.einsum("ii->i", a), a)
    assert numpy.shares_memory(_einsum.einsum("ij->ji", a), a)


@pytest.mark.parametrize("op_dtypes, dtype, out_dtype", [
    ("ff", None, "d"), ("dd", None, "f"), ("ff", "d", "f"), ("ff", "f", "d"), ("dd", "f", "d"),
    ("ff", "f", "i"), ("fd", None, None), ("ff", None, None), ("??", None, "l"), ("ll", "d", None),
    ("ff", "i", None), ("FF", None, "d"), ("bB", None, "h"),
])
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_compute_dtype_refuses_what_numpy_refuses(op_dtypes, dtype, out_dtype, casting):
    ops = [numpy.ones((2, 2), c) for c in op_dtypes]
    out = None if out_dtype is None else numpy.zeros((2, 2), out_dtype)
    try:
        numpy.einsum("ij,jk", *ops, dtype=dtype, out=out, casting=casting)
    except TypeError:
        with pytest.raises(TypeError):
            _einsum.compute_dtype([o.dtype for o in ops], dtype, out_dtype and numpy.dtype(out_dtype),
                                  casting)
    else:
        _einsum.compute_dtype([o.dtype for o in ops], dtype, out_dtype and numpy.dtype(out_dtype),
                              casting)


@pytest.mark.parametrize("a, b, dtype, out_dtype, casting", [
    # float32 products of 1e37 and 100 overflow; NumPy computes in `out`'s float64 unless
    # `dtype` says float32.
    (numpy.full((2, 3), 1e37, "f"), numpy.full((3, 2), 100, "f"), None, "d", "safe"),
    (numpy.full((2, 3), 1e37), numpy.full((3, 2), 100.0), "f", "d", "same_kind"),
    # bool operands summed into an int out are counted, not or-ed.
    (numpy.ones((2, 3), bool), numpy.ones((3, 2), bool), None, "l", "safe"),
    # 1 + 1e-8 - 1 is 1e-8 in float64 and 0 in float32.
    (numpy.array([[1, 1e-8, -1]]), numpy.ones((3, 1)), None, "f", "same_kind"),
])
def test_executor_out_and_dtype(numpy_backend, a, b, dtype, out_dtype, casting):
    ref = numpy.zeros((a.shape[0], b.shape[1]), out_dtype)
    got = numpy.zeros_like(ref)
    with numpy.errstate(over="ignore"):
        numpy.einsum("ij,jk", a, b, dtype=dtype, out=ref, casting=casting)
        _einsum.einsum("ij,jk", a, b, dtype=dtype, out=got, casting=casting)
    numpy.testing.assert_array_equal(got, ref)
