"""einsum against numpy.einsum, on the GPU."""
import numpy
import pytest

import cuarray
from cuarray.linalg._einsum import einsum

pytestmark = pytest.mark.gpu

_rng = numpy.random.default_rng(0)

CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(30, 40), (40, 50)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]),
    ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("i,i", [(5,), (5,)]), ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk", [(2, 3, 4), (4, 5)]), ("ij...,jk...->ik...", [(2, 3, 5), (3, 4, 1)]),
    ("ijk,kji->", [(2, 3, 4), (4, 3, 2)]), ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("ij,jk", [(2, 1), (3, 4)]), ("Ba,aB", [(2, 3), (3, 2)]), (",i->i", [(), (3,)]),
    ("ijij->ij", [(2, 3, 2, 3)]), ("iji->j", [(2, 3, 2)]), ("ij,kl->ijkl", [(2, 3), (4, 5)]),
    ("bn,anm,bm->ba", [(3, 4), (2, 4, 5), (3, 5)]), ("a,b,c->abc", [(2,), (3,), (4,)]),
    ("ij,jk->ik", [(0, 4), (4, 5)]), ("ij,jk->ik", [(3, 0), (0, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 2), (3, 2), (2, 2, 2, 2), (3, 2), (3, 2)]),
]


def _host(shape, dtype):
    if dtype == "bool":
        return _rng.random(shape) > 0.5
    x = _rng.standard_normal(shape) * 3
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _check(got, ref):
    ref = numpy.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    tol = 1e-4 if ref.dtype.char in "fF" else 1e-10
    numpy.testing.assert_allclose(cuarray.asnumpy(got), ref, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("subscripts, shapes", CASES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32", "bool"])
def test_einsum(subscripts, shapes, dtype):
    ops = [_host(s, dtype) for s in shapes]
    _check(einsum(subscripts, *[cuarray.asarray(o) for o in ops]), numpy.einsum(subscripts, *ops))


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal"])
def test_einsum_optimize(optimize):
    ops = [_host(s, "float64") for s in [(8, 30), (30, 40), (40, 5), (5, 6)]]
    _check(einsum("ij,jk,kl,lm->im", *[cuarray.asarray(o) for o in ops], optimize=optimize),
           numpy.einsum("ij,jk,kl,lm->im", *ops))
    path = numpy.einsum_path("ij,jk,kl,lm->im", *ops, optimize="optimal")[0]
    _check(einsum("ij,jk,kl,lm->im", *[cuarray.asarray(o) for o in ops], optimize=path),
           numpy.einsum("ij,jk,kl,lm->im", *ops))


def test_einsum_sublist_views_out_dtype():
    a, b = _host((3, 4), "float64"), _host((4, 5), "float64")
    da, db = cuarray.asarray(a), cuarray.asarray(b)
    _check(einsum(da, [0, 1], db, [1, 2], [0, 2]), numpy.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    _check(einsum(da, [Ellipsis, 1], db, [1, 2]), numpy.einsum(a, [Ellipsis, 1], b, [1, 2]))
    hsq = _host((4, 4), "float64")
    _check(einsum("ii->i", cuarray.asarray(hsq)), numpy.einsum("ii->i", hsq))
    _check(einsum("ij,jk", da, db, dtype=numpy.float32, casting="same_kind"),
           numpy.einsum("ij,jk", a, b, dtype=numpy.float32, casting="same_kind"))
    out = cuarray.zeros((3, 5))
    assert einsum("ij,jk", da, db, out=out) is out
    _check(out, a @ b)
    with pytest.raises(TypeError):
        einsum("ij", da, dtype=numpy.int32)
    with pytest.raises(ValueError):
        einsum("ij,jk->ik", da, da)
    with pytest.raises(ValueError):
        einsum("ij->ik", da)


@pytest.mark.parametrize("a, b, dtype, out_dtype, casting", [
    # float32 products of 1e37 and 100 overflow: NumPy computes in `out`'s float64 unless
    # `dtype` asks for float32.
    (numpy.full((2, 3), 1e37, "f"), numpy.full((3, 2), 100, "f"), None, "d", "safe"),
    (numpy.full((2, 3), 1e37), numpy.full((3, 2), 100.0), "f", "d", "same_kind"),
    (numpy.ones((2, 3), bool), numpy.ones((3, 2), bool), None, "l", "safe"),
])
def test_einsum_out_sets_compute_dtype(a, b, dtype, out_dtype, casting):
    ref = numpy.zeros((a.shape[0], b.shape[1]), out_dtype)
    with numpy.errstate(over="ignore"):
        numpy.einsum("ij,jk", a, b, dtype=dtype, out=ref, casting=casting)
    out = cuarray.zeros(ref.shape, out_dtype)
    assert einsum("ij,jk", cuarray.asarray(a), cuarray.asarray(b), dtype=dtype, out=out,
                  casting=casting) is out
    numpy.testing.assert_array_equal(cuarray.asnumpy(out), ref)
    if a.dtype.kind == "f":  # a float16 out cannot take float32/64 results under 'safe'
        with pytest.raises(TypeError):
            einsum("ij,jk", cuarray.asarray(a), cuarray.asarray(b),
                   out=cuarray.zeros(ref.shape, "e"))
