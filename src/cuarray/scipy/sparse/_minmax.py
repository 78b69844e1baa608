"""max, min, argmax and argmin of sparse matrices (SciPy's `_minmax_mixin` semantics):
implicit zeros take part unless `explicit=True`; ties go to the first position in
row-major order, as NumPy's.

One thread per line of a canonical compressed matrix (rows for axis=1, columns for
axis=0) finds the line's extreme among its stored values and, where the line has
implicit zeros, the first of them. Whole-matrix results reduce the per-row ones.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param
from cuarray.scipy.sparse._data import canonical


def _lines(A, axis):
    """A canonical CSR (axis=1) or CSC (axis=0) of A."""
    return canonical(A.tocsr() if axis == 1 else A.tocsc())


def _line_extremes(C, greater, explicit, skipnan=False):
    """(value, index) of each line's extreme: int64 minor index of its first occurrence.
    NaN wins (NumPy's max), or is skipped with `skipnan` (nanmax; an all-NaN line gives
    NaN)."""
    from cuarray.scipy.sparse import _kernels as K
    pt, jt, dt = C.indptr.dtype, C.indices.dtype, C.dtype
    T = _dt.ctype(dt)
    better = ">" if greater else "<"
    nan = dt.kind == "f"
    skipnan = skipnan and nan
    if skipnan:
        take = f"!isnan(v) && (bi < 0 || v {better} best)"
    else:
        take = f"bi < 0 || v {better} best" + (" || (isnan(v) && !isnan(best))" if nan else "")
    tie = f"!(best {better} v) && !(v {better} best)" + (" && !isnan(best)" if nan else "")
    op = K._op(("extreme", pt.char, jt.char, dt.char, greater, skipnan), lambda: Op(
        f"cuarray_sp_extreme_{K._chars(pt, jt, dt)}_{int(greater)}{int(skipnan)}",
        [Param("p", "raw", pt), Param("q", "raw", jt), Param("x", "raw", dt),
         Param("n", "scalar", K._i64), Param("ex", "scalar", numpy.dtype(bool)),
         Param("val", "out", dt), Param("arg", "out", K._i64)],
        f"const long long b = p[i], e = p[i + 1]; {T} best = cuarray_cast<{T}>(0); "
        f"long long bi = -1, gap = 0, nans = 0; {T} nanv = best; "
        f"for (long long j = b; j < e; ++j) {{ const {T} v = x[j]; "
        + ("if (isnan(v)) { nanv = v; ++nans; } " if skipnan else "") +
        f"if ({take}) {{ best = v; bi = q[j]; }} "
        f"if ((long long)q[j] == gap) ++gap; }} "
        f"if (!ex && e - b < n) {{ const {T} v = cuarray_cast<{T}>(0); "
        f"if (bi < 0 || v {better} best) {{ best = v; bi = gap; }} "
        f"else if ({tie} && gap < bi) bi = gap; }} "
        + ("if (bi < 0 && nans) best = nanv; " if skipnan else "") +
        "val = best; arg = bi < 0 ? 0 : bi;"))
    n_lines = C.indptr.size - 1
    val, arg = K._empty((n_lines,), dt), K._empty((n_lines,), K._i64)
    if n_lines:
        n_minor = C.shape[1] if C.format == "csr" else C.shape[0]
        op.launch([C.indptr, C.indices, C.data, numpy.int64(n_minor), numpy.bool_(explicit),
                   val, arg])
    return val, arg


def _check(A, axis, name):
    if A.dtype.kind == "c":
        raise TypeError(f"cuarray sparse {name} does not order complex values")
    if axis is not None and axis not in (0, 1, -1, -2):
        raise ValueError("axis out of range")
    M, N = A.shape
    if axis is None and M * N == 0:
        raise ValueError(f"zero-size array to reduction operation {name} which has no "
                         "identity")
    if axis is not None:
        axis %= 2
        if (N if axis == 1 else M) == 0:
            raise ValueError("zero-size array to reduction operation")
    return axis


def _first_extreme(val, greater):
    """0-d int64: the first position of val's extreme (NaN first, as NumPy's argmax),
    found by the reduction engine's min over the positions that hold it."""
    from cuarray._core._ops import equal, isnan, logical_or, where
    from cuarray._core._reductions import amax, amin
    from cuarray._routines.creation import arange
    m = (amax if greater else amin)(val)
    hit = equal(val, m)
    if val.dtype.kind == "f":
        hit = logical_or(hit, isnan(val))
    pos = arange(val.size, dtype=numpy.int64)
    return amin(where(hit, pos, numpy.int64(val.size)))


class MinMaxMixin:
    """max/min/argmax/argmin of cuarray's sparse matrices (mixed into the base class)."""

    def _extreme(self, axis, greater, explicit, name, out, skipnan=False):
        axis = _check(self, axis, name)
        if out is not None:
            raise ValueError("Sparse arrays do not support an 'out' parameter.")
        if axis is None:
            from cuarray._core import _reductions as R
            val, _ = _line_extremes(_lines(self, 1), greater, explicit, skipnan)
            if skipnan and val.dtype.kind == "f":
                from cuarray._core._ops import isnan, where
                nan = isnan(val)
                fill = val.dtype.type(-numpy.inf if greater else numpy.inf)
                m = (R.amax if greater else R.amin)(where(nan, fill, val))
                return where(R.all(nan), val.dtype.type(numpy.nan), m)
            return (R.amax if greater else R.amin)(val)
        val, _ = _line_extremes(_lines(self, axis), greater, explicit, skipnan)
        if self._family == "array":
            return self._cls("coo")(val)  # a 1-D COO array, as SciPy's
        shape = (1, val.size) if axis == 0 else (val.size, 1)
        return self._cls("coo")(val.reshape(shape))

    def max(self, axis=None, out=None, *, explicit=False):
        """The largest value (a 0-d array) or, along an axis, the line maxima in COO
        form: shape (1, N) or (M, 1) for matrices, 1-D for sparse arrays."""
        return self._extreme(axis, True, explicit, "maximum", out)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._extreme(axis, False, explicit, "minimum", out)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        """`max` ignoring NaN (an all-NaN line gives NaN, as NumPy's nanmax)."""
        return self._extreme(axis, True, explicit, "nanmax", out, skipnan=True)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        """`min` ignoring NaN."""
        return self._extreme(axis, False, explicit, "nanmin", out, skipnan=True)

    def _arg(self, axis, greater, explicit, name, out):
        axis = _check(self, axis, name)
        if out is not None:
            raise ValueError("Sparse types do not support an 'out' parameter.")
        if axis is None:
            from cuarray.scipy.sparse._kernels import gather
            val, arg = _line_extremes(_lines(self, 1), greater, explicit)
            r = _first_extreme(val, greater).reshape(1)
            return (r * self.shape[1] + gather(arg, r)).reshape(())
        _, arg = _line_extremes(_lines(self, axis), greater, explicit)
        if self._family == "array":
            return arg
        return arg.reshape((1, arg.size) if axis == 0 else (arg.size, 1))

    def argmax(self, axis=None, out=None, *, explicit=False):
        """Position of the first maximum: a flat row-major index (0-d int64 array) or,
        along an axis, int64 indices ((1, N)/(M, 1) for matrices, 1-D for arrays)."""
        return self._arg(axis, True, explicit, "argmax", out)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._arg(axis, False, explicit, "argmin", out)
