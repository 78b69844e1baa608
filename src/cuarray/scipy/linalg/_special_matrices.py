"""Structured matrices (cuarray versions of scipy.linalg.block_diag, kron, toeplitz,
circulant, hankel). The Toeplitz family is one kernel each: element (i, j) reads the
generating vector at an index computed from i and j. Leading dimensions of the vectors
are batch dimensions, as in SciPy 1.17."""
import functools

import numpy

from cuarray._core.elementwise import Op, Param
from cuarray._core.host_policy import host_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.linalg._util import as_array

_i64 = numpy.dtype(numpy.int64)

# The index into each batch's generating vector of element (r, c), per structure.
_INDEX = {
    "toeplitz": "m - 1 + c - r",     # vals = [c reversed, r[1:]]
    "hankel": "r + c",               # vals = [c, r[1:]]
    "circulant": "(r - c + m) % m",  # vals = c
}


@functools.cache
def _structured_op(kind, dt):
    return Op(f"cuarray_linalg_{kind}_{dt.char}",
              [Param("v", "raw", dt), Param("m", "scalar", _i64), Param("n", "scalar", _i64),
               Param("L", "scalar", _i64), Param("y", "out", dt)],
              f"const long long b = i / (m * n), e = i - b * m * n, r = e / n, c = e - r * n; "
              f"y = v[b * L + ({_INDEX[kind]})];")


def _structured(kind, vals, m, n):
    """(batch..., m, n) from `vals` (batch..., L): out[..., r, c] = vals[..., index]."""
    dt = vals.dtype
    op = _structured_op(kind, dt)
    vals = vals if vals._c_contig else vals.copy()
    out = ndarray._alloc(vals.shape[:-1] + (m, n), dt)
    if out.size:
        op.launch([vals, numpy.int64(m), numpy.int64(n), numpy.int64(vals.shape[-1]), out])
    return out


def _batched(c, r):
    from cuarray._routines.manipulation import broadcast_shapes, broadcast_to
    batch = broadcast_shapes(c.shape[:-1], r.shape[:-1])
    return (broadcast_to(c, batch + c.shape[-1:]), broadcast_to(r, batch + r.shape[-1:]))


def _vec(x, name):
    x = as_array(x, name)
    return x.reshape(1) if x.ndim == 0 else x


def toeplitz(c, r=None):
    """The Toeplitz matrix with first column c and first row r (r[0] ignored); r defaults
    to conj(c) (cuarray version of `scipy.linalg.toeplitz`)."""
    from cuarray._core._ops import conjugate
    from cuarray._routines.joining import concatenate
    c = _vec(c, "toeplitz")
    r = conjugate(c) if r is None else _vec(r, "toeplitz")
    c, r = _batched(c, r)
    vals = concatenate((c[..., ::-1], r[..., 1:]), axis=-1)
    return _structured("toeplitz", vals, c.shape[-1], r.shape[-1])


def hankel(c, r=None):
    """The Hankel matrix with first column c and last row r (r[0] ignored); r defaults to
    zeros (cuarray version of `scipy.linalg.hankel`)."""
    from cuarray._routines.creation import zeros_like
    from cuarray._routines.joining import concatenate
    c = _vec(c, "hankel")
    r = zeros_like(c) if r is None else _vec(r, "hankel")
    c, r = _batched(c, r)
    vals = concatenate((c, r[..., 1:]), axis=-1)
    return _structured("hankel", vals, c.shape[-1], r.shape[-1])


def circulant(c):
    """The circulant matrix whose first column is c (cuarray version of
    `scipy.linalg.circulant`)."""
    c = _vec(c, "circulant")
    n = c.shape[-1]
    return _structured("circulant", c, n, n)


def block_diag(*arrs):
    """The block-diagonal matrix of the given 0-, 1- or 2-D arrays (cuarray version of
    `scipy.linalg.block_diag`); 1-D arrays are rows, as SciPy."""
    from cuarray._routines.creation import zeros
    if not arrs:
        arrs = (numpy.zeros(0),)
    mats = []
    for k, a in enumerate(arrs):
        a = a if isinstance(a, ndarray) else _host(a)
        if a.ndim > 2:
            bad = [j for j, x in enumerate(arrs)
                   if (x.ndim if hasattr(x, "ndim") else numpy.ndim(x)) > 2]
            raise ValueError(f"arguments in the following positions have dimension greater "
                             f"than 2: {bad}")
        mats.append(a.reshape((1,) * (2 - a.ndim) + a.shape))
    dtype = numpy.result_type(*[m.dtype for m in mats])
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    out = zeros((rows, cols), dtype=dtype)
    r = c = 0
    for m in mats:
        if m.size:
            out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r += m.shape[0]
        c += m.shape[1]
    return out


def _host(a):
    """A Python scalar (or the empty default block) as a device array; host arrays are
    refused, as everywhere (no hidden transfers)."""
    if isinstance(a, (numpy.ndarray, list, tuple)) and numpy.size(a):
        raise host_error("block_diag", a, "cuarray.scipy.linalg.")
    from cuarray._core.transfer import asarray
    return asarray(numpy.asarray(a))


def kron(a, b):
    """The Kronecker product (cuarray version of `scipy.linalg.kron`)."""
    from cuarray.linalg._products import kron as _kron
    return _kron(as_array(a, "kron"), as_array(b, "kron"))
