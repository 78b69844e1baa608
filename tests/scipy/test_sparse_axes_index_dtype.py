"""`swapaxes`, `permute_dims`, `matrix_transpose`, `get_index_dtype` and
`safely_cast_index_arrays` of cuarray.scipy.sparse against SciPy's.

Tests taking `cp` run on the GPU and, without one, in the host emulation (conftest.py).
"""
import numpy as np
import pytest
import scipy.sparse as ssp


def _host(shape, seed, dtype=np.float64):
    return ssp.random(*shape, density=0.4, format="coo", dtype=dtype,
                      random_state=np.random.default_rng(seed))


def _dev(cp, h, fmt, family):
    from cuarray.scipy import sparse
    cls = sparse.coo_array if family == "array" else sparse.coo_matrix
    return cls((cp.asarray(h.data), (cp.asarray(h.row), cp.asarray(h.col))),
               shape=h.shape).asformat(fmt)


def _same(got, want):
    g = got.toarray().get()
    w = want.toarray()
    assert g.shape == w.shape
    np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("family", ["array", "matrix"])
def test_swapaxes_permute_dims(cp, fmt, family):
    from cuarray.scipy import sparse
    h = _host((4, 6), 3)
    hs = (ssp.coo_array if family == "array" else ssp.coo_matrix)(h).asformat(fmt)
    A = _dev(cp, h, fmt, family)
    for a1, a2 in [(0, 1), (1, 0), (-1, 0), (-2, -1)]:
        got, want = sparse.swapaxes(A, a1, a2), ssp.swapaxes(hs, a1, a2)
        assert got.format == want.format == "coo"
        assert sparse.issparse(got) and isinstance(got, sparse.sparray) == (family == "array")
        _same(got, want)
    same = sparse.swapaxes(A, 1, -1)
    assert same.format == fmt and same is not A
    _same(same, hs)
    for axes in [None, (1, 0), (-1, -2)]:
        got = sparse.permute_dims(A, axes, copy=True)
        want = ssp.permute_dims(hs, axes, copy=True)
        assert got.format == want.format == "coo"
        _same(got, want)
    # without copy, SciPy permutes a COO input in place and returns it
    B = _dev(cp, h, fmt, family)
    got = sparse.permute_dims(B)
    assert (got is B) == (fmt == "coo") and got.format == "coo"
    _same(got, hs.T)
    assert sparse.permute_dims(A, (0, 1)) is A
    C = sparse.permute_dims(A, (0, -1), copy=True)
    assert C is not A and C.format == fmt
    _same(C, hs)
    T = sparse.permute_dims(A, copy=True)
    T.data[...] = 0
    _same(A, hs)  # the copy shares nothing with A
    _same(sparse.matrix_transpose(A), hs.T)


def test_swapaxes_permute_dims_1d(cp):
    from cuarray.scipy import sparse
    v = np.array([0.0, 2.0, 0.0, -1.5, 3.0])
    A = sparse.coo_array(cp.asarray(v))
    assert A.ndim == 1
    np.testing.assert_array_equal(sparse.swapaxes(A, 0, -1).toarray().get(), v)
    np.testing.assert_array_equal(sparse.permute_dims(A).toarray().get(), v)
    assert sparse.permute_dims(A) is A
    with pytest.raises(ValueError):
        sparse.swapaxes(A, 0, 1)
    with pytest.raises(ValueError):
        sparse.matrix_transpose(A)


def test_axes_errors(cp):
    from cuarray.scipy import sparse
    A = sparse.csr_array(cp.asarray(np.eye(3)))
    hs = ssp.csr_array(np.eye(3))
    bad_swaps = [(0, 2), (-3, 0), (0, 1.0), (0, "1")]
    for a1, a2 in bad_swaps:
        with pytest.raises(ValueError):
            ssp.swapaxes(hs, a1, a2)
        with pytest.raises(ValueError, match="axis"):
            sparse.swapaxes(A, a1, a2)
    for axes in [(0, 0), (0,), (0, 1, 2), (1, 2)]:
        with pytest.raises(ValueError):
            ssp.permute_dims(hs, axes)
        with pytest.raises(ValueError):
            sparse.permute_dims(A, axes)
    with pytest.raises(TypeError):
        ssp.permute_dims(hs, (0, 1.5))
    with pytest.raises(TypeError, match="integer"):
        sparse.permute_dims(A, (0, 1.5))
    for f, args in [(sparse.swapaxes, (0, 1)), (sparse.permute_dims, ()),
                    (sparse.matrix_transpose, ())]:
        with pytest.raises(TypeError, match="sparse"):
            f(cp.eye(3), *args)


def test_get_index_dtype(cp):
    from cuarray.scipy import sparse
    big = np.array([0, 2 ** 31], dtype=np.int64)
    small64 = np.array([-5, 2 ** 31 - 1], dtype=np.int64)
    cases = [
        dict(), dict(maxval=10), dict(maxval=2 ** 31 - 1), dict(maxval=2 ** 31),
        dict(arrays=(np.arange(3, dtype=np.int32),)),
        dict(arrays=(np.arange(3, dtype=np.int16), np.arange(2, dtype=np.uint8))),
        dict(arrays=(small64,)), dict(arrays=(small64,), check_contents=True),
        dict(arrays=(big,), check_contents=True), dict(arrays=small64, check_contents=True),
        dict(arrays=(np.zeros(0, np.int64),), check_contents=True),
        dict(arrays=(np.arange(3, dtype=np.uint32),), check_contents=True),
        dict(arrays=(np.arange(3.0),), check_contents=True),
        dict(arrays=(np.arange(3, dtype=np.int32),), maxval=2 ** 40),
    ]
    for kw in cases:
        want = ssp.get_index_dtype(**kw)
        host = sparse.get_index_dtype(**kw)
        dev_kw = dict(kw)
        if "arrays" in kw:
            arrs = kw["arrays"]
            dev_kw["arrays"] = (cp.asarray(arrs) if isinstance(arrs, np.ndarray)
                                else tuple(cp.asarray(a) for a in arrs))
        dev = sparse.get_index_dtype(**dev_kw)
        assert host is want and dev is want, (kw, want, host, dev)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_safely_cast_index_arrays(cp, fmt):
    from cuarray.scipy import sparse
    h = _host((5, 7), 11)
    hs = ssp.coo_array(h).asformat(fmt)
    A = _dev(cp, h, fmt, "array")
    for dt in [np.int32, np.int64, np.int16]:
        got = sparse.safely_cast_index_arrays(A, dt)
        want = ssp.safely_cast_index_arrays(hs, dt)
        got_t = got if isinstance(got, tuple) else (got,)
        want_t = want if isinstance(want, tuple) else (want,)
        assert len(got_t) == len(want_t)
        for g, w in zip(got_t, want_t):
            assert g.dtype == np.dtype(dt)
            if fmt != "dia":  # cuarray's DIA may order its diagonals differently
                np.testing.assert_array_equal(g.get(), w)
            else:
                np.testing.assert_array_equal(np.sort(g.get()), np.sort(w))
    # arrays already of the dtype are returned as they are
    same = sparse.safely_cast_index_arrays(A, A.offsets.dtype if fmt == "dia" else
                                           A.coords[0].dtype if fmt == "coo" else
                                           A.indices.dtype)
    first = same if fmt == "dia" else same[0]
    orig = A.offsets if fmt == "dia" else A.coords[0] if fmt == "coo" else A.indices
    assert first is orig


def test_safely_cast_index_arrays_errors(cp):
    from cuarray.scipy import sparse
    n = 300
    h = ssp.coo_array((np.ones(2), ([0, n - 1], [1, n - 2])), shape=(n, n))
    for fmt, what in [("csr", "indices"), ("csc", "indices"), ("coo", "coords")]:
        hs = h.asformat(fmt)
        A = _dev(cp, h, fmt, "array")
        with pytest.raises(ValueError, match=what):
            ssp.safely_cast_index_arrays(hs, np.int8)
        with pytest.raises(ValueError, match=f"{what} values too large for SuperLU"):
            sparse.safely_cast_index_arrays(A, np.int8, msg="SuperLU")
    # many entries: indptr overflows int8 though the shape fits
    d = ssp.coo_array(np.ones((10, 20)))
    with pytest.raises(ValueError, match="indptr"):
        sparse.safely_cast_index_arrays(_dev(cp, d, "csr", "array"), np.int8)
    # the shape does not fit, the values do: no error
    small = ssp.coo_array((np.ones(1), ([1], [2])), shape=(n, n))
    r, c = sparse.safely_cast_index_arrays(_dev(cp, small, "coo", "array"), np.int8)
    assert r.dtype == np.int8 and r.get().tolist() == [1] and c.get().tolist() == [2]
    with pytest.raises(TypeError, match="sparse"):
        sparse.safely_cast_index_arrays(cp.eye(2))
    with pytest.raises(ValueError, match="integer"):
        sparse.safely_cast_index_arrays(_dev(cp, small, "coo", "array"), np.float32)
