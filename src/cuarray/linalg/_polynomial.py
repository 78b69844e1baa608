"""roots (cuarray version of `numpy.roots`): the one polynomial routine that needs linear
algebra (eigenvalues of the companion matrix), so it sits above `cuarray.linalg`;
`cuarray.roots` loads it on first use. The other polynomial routines are in
`_routines/math.py`."""
import numpy

from cuarray._core import _ops as _u
from cuarray._core import _reductions as _r
from cuarray._routines.creation import ones, zeros
from cuarray._routines.creation_more import diag
from cuarray._routines.joining import hstack, stack
from cuarray._routines.manipulation import atleast_1d
from cuarray._routines.math import _coeffs
from cuarray.linalg import eigvals

_f64 = numpy.dtype(numpy.float64)
_i64 = numpy.dtype(numpy.int64)

__all__ = ["roots"]


def roots(p):
    """cuarray version of `numpy.roots`: eigenvalues of the companion matrix. Reads where the
    leading and trailing zeros end on the host (synchronises once)."""
    p = atleast_1d(_coeffs(p, "roots"))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = _u.not_equal(p, 0)
    first, back, anyv = (int(v) for v in stack([_r.argmax(nz), _r.argmax(nz[::-1]),
                                                _r.any(nz).astype(_i64)]).get()) \
        if p.size else (0, 0, 0)
    if not anyv:
        return zeros((0,), _f64)
    last = p._shape[0] - 1 - back
    trailing_zeros = p._shape[0] - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(_f64)
    N = p._shape[0]
    if N > 1:
        A = diag(ones((N - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = eigvals(A)
    else:
        r = zeros((0,), _f64)
    return hstack((r, zeros((trailing_zeros,), r.dtype)))
