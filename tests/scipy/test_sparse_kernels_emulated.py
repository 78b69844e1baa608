"""The sparse formats' elementwise kernels through the host emulator, against SciPy: one
call of each routine whose kernel no other CPU test reaches (kron, tril/triu, two-operand
alignment, reshape, DIA transpose and diagonal, selections, single entries)."""
import numpy
import scipy.sparse as ss


def _check(got, want):
    got = got.toarray().get() if hasattr(got, "toarray") else got.get()
    want = want.toarray() if hasattr(want, "toarray") else want
    numpy.testing.assert_allclose(got, want)


def test_sparse_kernels_match_scipy(emulated):
    import cuarray.scipy.sparse as S
    a = ss.random(7, 5, density=0.4, random_state=1, format="csr", dtype=numpy.float64)
    b = ss.random(7, 5, density=0.4, random_state=2, format="csr", dtype=numpy.float64)
    A, B = S.csr_matrix(a), S.csr_matrix(b)
    _check(S.kron(A, B), ss.kron(a, b))
    _check(S.tril(A, -1), ss.tril(a, -1))
    _check(S.triu(A, 1), ss.triu(a, 1))
    _check(A.maximum(B), a.maximum(b))
    _check(A.minimum(B), a.minimum(b))
    _check(A != B, a != b)
    _check(A.reshape(5, 7), a.reshape(5, 7))
    _check(A.reshape((5, 7), order="F"), a.reshape((5, 7), order="F"))
    D = S.dia_matrix(ss.dia_matrix(a))
    _check(D, a)
    _check(D.T, a.T)
    _check(D.diagonal(1), a.diagonal(1))
    _check(A.diagonal(-1), a.diagonal(-1))
    assert A.has_sorted_indices
    _check(A[[4, 1, 1]], a[[4, 1, 1]])
    _check(A[:, [3, 0]], a[:, [3, 0]])
    assert float(A[2, 3]) == a[2, 3]
    C, c = A.copy(), a.copy()
    C[2, 0], c[2, 0] = 5.0, 5.0
    _check(C, c)
