"""Building sparse matrices: eye, identity, diags, spdiags, random, rand (cuarray
versions of `scipy.sparse`'s functions of the same names)."""
import operator
import warnings

import numpy

from cuarray._core.ndarray import ndarray
from cuarray.scipy.sparse import _kernels as K
from cuarray.scipy.sparse._base import as_family, check_dtype
from cuarray.scipy.sparse._coo import coo_matrix
from cuarray.scipy.sparse._csc import csc_matrix
from cuarray.scipy.sparse._csr import csr_matrix
from cuarray.scipy.sparse._dia import dia_matrix


def _arange(n, dtype):
    from cuarray._routines.creation import arange
    return arange(n, dtype=dtype)


def _ones(shape, dtype):
    from cuarray._routines.creation import ones
    return ones(shape, dtype=dtype)


def eye(m, n=None, k=0, dtype=float, format=None):
    """Ones on diagonal k of an m x n matrix (cuarray version of `scipy.sparse.eye`);
    a dia_matrix unless `format` names another."""
    n = m if n is None else n
    m, n, k = operator.index(m), operator.index(n), operator.index(k)
    dtype = check_dtype(dtype)
    if m == n and k == 0 and format in ("csr", "csc", "coo"):
        idt = K.index_dtype(n)
        if format == "coo":
            return coo_matrix._from_parts(_ones(n, dtype), _arange(n, idt), _arange(n, idt),
                                          (n, n), True)
        cls = csr_matrix if format == "csr" else csc_matrix
        return cls._from_parts(_ones(n, dtype), _arange(n, idt), _arange(n + 1, idt), (n, n),
                               True)
    data = _ones((1, max(0, min(m + k, n))), dtype)
    return dia_matrix((data, numpy.array([k])), shape=(m, n)).asformat(format)


def identity(n, dtype="d", format=None):
    """The n x n identity (cuarray version of `scipy.sparse.identity`)."""
    return eye(n, n, dtype=dtype, format=format)


_NoValue = object()


def _is_scalar(x):
    return numpy.isscalar(x) or (isinstance(x, ndarray) and x.ndim == 0)


def _as_1d(x):
    if isinstance(x, ndarray):
        return x.reshape(1) if x.ndim == 0 else x
    from cuarray._core.transfer import asarray
    return asarray(numpy.atleast_1d(numpy.asarray(x)))


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NoValue):
    """A sparse matrix from diagonals (cuarray version of `scipy.sparse.diags`).

    Diagonals may be cuarray arrays or host sequences; the offsets are host integers. As
    SciPy's `diags`, the default dtype is `numpy.common_type` of the diagonals (with
    SciPy's FutureWarning where that differs from their result type).
    """
    if _is_scalar(offsets):
        if len(diagonals) == 0 or _is_scalar(diagonals[0]):
            diagonals = [_as_1d(diagonals)]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    else:
        diagonals = [_as_1d(d) for d in diagonals]
    offsets = numpy.atleast_1d(offsets.get() if isinstance(offsets, ndarray) else offsets)
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = diagonals[0].shape[0] + abs(int(offsets[0]))
        shape = (m, m)
    protos = [numpy.empty(0, d.dtype) for d in diagonals]
    if dtype is None:
        dtype = numpy.result_type(*protos)
    elif dtype is _NoValue:
        dtype = numpy.dtype(numpy.common_type(*protos))
        future = numpy.result_type(*protos)
        if dtype != future:
            warnings.warn(
                f"Input has data type {future}, but the output has been cast to {dtype}.  In "
                "the future, the output data type will match the input. To avoid this "
                "warning, set the `dtype` parameter to `None` to have the output dtype match "
                "the input, or set it to the desired output data type.",
                FutureWarning, stacklevel=2)
    dtype = check_dtype(dtype)
    m, n = shape
    width = max(0, max(min(m + int(o), n - int(o)) + max(0, int(o)) for o in offsets))
    data = K._zeros((len(offsets), width), dtype)
    kmax = min(m, n)
    for j, (diagonal, offset) in enumerate(zip(diagonals, offsets)):
        offset = int(offset)
        k = max(0, offset)
        length = min(m + offset, n - offset, kmax)
        if length < 0:
            raise ValueError(f"Offset {offset} (index {j}) out of bounds")
        if diagonal.shape[0] != 1 and diagonal.shape[0] < length:
            raise ValueError(f"Diagonal length (index {j}: {diagonal.shape[0]} at offset "
                             f"{offset}) does not agree with array size ({m}, {n}).")
        if length:
            data[j, k:k + length] = diagonal[..., :length] if diagonal.shape[0] != 1 \
                else diagonal
    return dia_matrix((data, offsets), shape=(m, n)).asformat(format)


def spdiags(data, diags, m=None, n=None, format=None):
    """A sparse matrix from the rows of `data` placed on diagonals `diags` (cuarray
    version of `scipy.sparse.spdiags`)."""
    if m is None and n is None:
        m = n = len(data[0]) if not isinstance(data, ndarray) else data.shape[-1]
    elif n is None:
        m, n = m
    return dia_matrix((data, diags), shape=(m, n)).asformat(format)


def _random_state(random_state):
    import cuarray.random as cr
    if random_state is None:
        return cr.get_random_state()
    if isinstance(random_state, (int, numpy.integer)):
        return cr.RandomState(int(random_state))
    return random_state


def random(m, n, density=0.01, format="coo", dtype=None, random_state=None, data_rvs=None):
    """A random m x n sparse matrix with round(density * m * n) stored values (cuarray
    version of `scipy.sparse.random`).

    Positions are drawn without replacement on the GPU; values come from `data_rvs(k)`
    (a callable returning a cuarray array) or uniformly from [0, 1). `random_state` is
    None, a seed, or a cuarray RandomState/Generator. Without `data_rvs` the dtype must
    be floating or complex.
    """
    if density < 0 or density > 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dtype = check_dtype(dtype or numpy.float64)
    m, n = operator.index(m), operator.index(n)
    mn = m * n
    k = int(round(density * mn))
    rs = _random_state(random_state)
    draw = getattr(rs, "random_sample", None) or rs.random
    idx = _distinct_positions(rs, draw, mn, k)
    # SciPy draws column-major positions.
    from cuarray._core._ops import floor_divide, subtract, multiply
    j = floor_divide(idx, max(m, 1))
    i = subtract(idx, multiply(j, m))
    if data_rvs is not None:
        vals = data_rvs(k)
        vals = vals if isinstance(vals, ndarray) else _as_1d(vals)
        vals = vals.astype(dtype, copy=False)
    else:
        if dtype.kind not in "fc":
            raise TypeError(f"random: values of dtype {dtype} need data_rvs (uniform draws "
                            "are floating point)")
        vals = draw(size=k).astype(dtype, copy=False)
        if dtype.kind == "c":
            vals = vals + 1j * draw(size=k).astype(dtype, copy=False)
    return coo_matrix((vals, (i, j)), shape=(m, n)).asformat(format)


def _distinct_positions(rs, draw, mn, k):
    """k distinct integers of [0, mn) in random order. Dense draws permute every position
    (sorted random keys); sparse ones draw about 2k with replacement, keep the distinct
    ones (reading their count synchronises; rarely, too few repeat the draw) and take k of
    them at random."""
    from cuarray._routines.sorting import argsort
    if k == 0:
        return K._empty((0,), numpy.int64)
    if 4 * k >= mn:
        return argsort(draw(size=mn))[:k]
    from cuarray._routines.sets import unique
    integers = getattr(rs, "randint", None) or rs.integers
    while True:
        cand = unique(integers(0, mn, size=2 * k + 16, dtype=numpy.int64))
        if cand.size >= k:
            return K.gather(cand, argsort(draw(size=cand.size))[:k])


def rand(m, n, density=0.01, format="coo", dtype=None, random_state=None):
    """`random` with uniform values (cuarray version of `scipy.sparse.rand`)."""
    return random(m, n, density, format, dtype, random_state)


# ---- sparse-array constructors ----------------------------------------------------------

def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """`eye` as a sparse array (cuarray version of `scipy.sparse.eye_array`)."""
    return as_family(eye(m, n, k=k, dtype=dtype, format=format), "array")


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NoValue):
    """`diags` as a sparse array (cuarray version of `scipy.sparse.diags_array`)."""
    return as_family(diags(diagonals, offsets, shape=shape, format=format, dtype=dtype),
                     "array")


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None,
                 data_sampler=None, random_state=None):
    """`random` as a sparse array of `shape` (cuarray version of
    `scipy.sparse.random_array`); `data_sampler(size=k)` draws the values."""
    m, n = shape
    rvs = None if data_sampler is None else (lambda k: data_sampler(size=k))
    state = rng if rng is not None else random_state
    return as_family(random(m, n, density, format, dtype, state, rvs), "array")
