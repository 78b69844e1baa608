"""Matrix and vector products (cuarray versions of numpy.matmul, dot, vdot, inner, outer,
tensordot, kron, vecdot, cross and numpy.linalg.matrix_power, multi_dot, ...).

matmul and dot, and the GEMM planning under every product, are in
`_core/_routines_linalg.py` (they are ndarray methods: `a @ b`, `a.dot(b)`).
"""
import operator
import warnings

import numpy

import cuarray
from cuarray._core import _copy
from cuarray._core.ndarray import ndarray
from cuarray._core._routines_linalg import (  # noqa: F401  (matmul, dot: public here)
    GemmPlan, _fmt, _resolve, blas_layout, broadcast_batch, collapse_batch, dot, matmul,
    matmul_nd, plan_matmul)
from cuarray.linalg._util import (
    as_array, assert_2d, assert_stacked_2d, assert_stacked_square,
    normalize_axis, prod)


def vdot(a, b):
    """Dot product of two arrays flattened, conjugating the first (cuarray version of
    `numpy.vdot`). Returns a 0-d array."""
    a = as_array(a, "vdot").ravel()
    b = as_array(b, "vdot").ravel()
    if a.size != b.size:
        raise ValueError(f"vdot: vectors have different lengths ({a.size} and {b.size})")
    if a.dtype.kind == "c":
        a = cuarray.conj(a)
    return dot(a, b)


def inner(a, b):
    """Inner product over the last axes (cuarray version of `numpy.inner`)."""
    a = as_array(a, "inner")
    b = as_array(b, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return cuarray.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"shapes {_fmt(a.shape)} and {_fmt(b.shape)} not aligned: {a.shape[-1]} "
            f"(dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, axes=(-1, -1))


def outer(a, b, out=None):
    """Outer product of two arrays flattened (cuarray version of `numpy.outer`)."""
    a = as_array(a, "outer").ravel()
    b = as_array(b, "outer").ravel()
    return cuarray.multiply(a[:, None], b[None, :], out=out)


def tensordot(a, b, axes=2):
    """Sum of products over the given axes (cuarray version of `numpy.tensordot`)."""
    a = as_array(a, "tensordot")
    b = as_array(b, "tensordot")
    try:
        iter(axes)
    except TypeError:
        n = operator.index(axes)
        if n < 0:
            raise ValueError("axes must be at least 0") from None
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        axes_a, axes_b = axes
    axes_a = [axes_a] if numpy.ndim(axes_a) == 0 else list(axes_a)
    axes_b = [axes_b] if numpy.ndim(axes_b) == 0 else list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    for i, (xa, xb) in enumerate(zip(axes_a, axes_b)):
        xa, xb = operator.index(xa), operator.index(xb)
        if not (-a.ndim <= xa < a.ndim and -b.ndim <= xb < b.ndim) or \
                a.shape[xa] != b.shape[xb]:
            raise ValueError("shape-mismatch for sum")
        axes_a[i], axes_b[i] = xa % a.ndim, xb % b.ndim
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [i for i in range(b.ndim) if i not in axes_b]
    k = prod(a.shape[i] for i in axes_a)
    at = a.transpose(free_a + axes_a).reshape(prod(a.shape[i] for i in free_a), k)
    bt = b.transpose(axes_b + free_b).reshape(k, prod(b.shape[i] for i in free_b))
    res = dot(at, bt)
    return res.reshape([a.shape[i] for i in free_a] + [b.shape[i] for i in free_b])


def kron(a, b):
    """Kronecker product (cuarray version of `numpy.kron`)."""
    a = as_array(a, "kron")
    b = as_array(b, "kron")
    if a.ndim == 0 or b.ndim == 0:
        return cuarray.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    # a's axes at even positions, b's at odd: the product interleaves them.
    a4 = a.reshape([d for s in sa for d in (s, 1)])
    b4 = b.reshape([d for s in sb for d in (1, s)])
    return cuarray.multiply(a4, b4).reshape([x * y for x, y in zip(sa, sb)])


def vecdot(x1, x2, /, *, axis=-1):
    """Vector dot product along `axis`, conjugating the first argument (cuarray version
    of `numpy.vecdot`)."""
    a = as_array(x1, "vecdot")
    b = as_array(x2, "vecdot")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot: Input operand does not have enough dimensions (has 0, "
                         "gufunc core with signature (n),(n)->() requires 1)")
    a = cuarray.moveaxis(a, normalize_axis(axis, a.ndim), -1)
    b = cuarray.moveaxis(b, normalize_axis(axis, b.ndim), -1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0 "
                         f"(size {b.shape[-1]} is different from {a.shape[-1]})")
    dt = _resolve(a.dtype, b.dtype, None, None, "same_kind", "vecdot")
    if a.dtype.kind == "c":
        a = cuarray.conj(a)
    return cuarray.sum(cuarray.multiply(a, b, dtype=dt), axis=-1, dtype=dt)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-element vectors (cuarray version of `numpy.cross`)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = as_array(a, "cross")
    b = as_array(b, "cross")
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = cuarray.moveaxis(a, normalize_axis(axisa, a.ndim, "axisa"), -1)
    b = cuarray.moveaxis(b, normalize_axis(axisb, b.ndim, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif a.shape[-1] == 3:
        a2 = a[..., 2]
        x, y = -(a2 * b1), a2 * b0
    else:
        b2 = b[..., 2]
        x, y = a1 * b2, -(a0 * b2)
    cp = cuarray.stack((x, y, z), axis=-1)
    return cuarray.moveaxis(cp, -1, normalize_axis(axisc, cp.ndim, "axisc"))


def matrix_transpose(x, /):
    """Swap the last two axes (cuarray version of `numpy.matrix_transpose`); a view."""
    x = as_array(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def trace(x, /, *, offset=0, dtype=None):
    """Sum along the diagonals of the last two axes (cuarray version of
    `numpy.linalg.trace`)."""
    x = as_array(x, "linalg.trace")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.diagonal(offset, -2, -1).sum(axis=-1, dtype=dtype)


def matrix_power(a, n):
    """Raise a square matrix (or a stack) to the integer power `n` (cuarray version of
    `numpy.linalg.matrix_power`)."""
    a = as_array(a, "linalg.matrix_power")
    assert_stacked_2d(a)
    assert_stacked_square(a)
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        eye = cuarray.eye(a.shape[-1], dtype=a.dtype)
        return cuarray.ascontiguousarray(cuarray.broadcast_to(eye, a.shape))
    if n < 0:
        from cuarray.linalg._solve import inv
        a = inv(a)
        n = -n
    if n == 1:
        return a
    dt = a.dtype
    result = z = None
    while n > 0:
        z = a if z is None else matmul_nd(z, z, dt)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else matmul_nd(result, z, dt)
    return result


def multi_dot(arrays, *, out=None):
    """Dot product of two or more arrays in the cheapest association order (cuarray
    version of `numpy.linalg.multi_dot`)."""
    arrays = [as_array(x, "linalg.multi_dot") for x in arrays]
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = arrays[0][None, :]
    if last_1d:
        arrays[-1] = arrays[-1][:, None]
    assert_2d(*arrays)
    order = _chain_order([x.shape for x in arrays])
    result = _chain(arrays, order, 0, n - 1)
    if first_1d and last_1d:
        result = result.reshape(())
    elif first_1d or last_1d:
        result = result.ravel()
    return _copy.into_out(result, out, "multi_dot")


def _chain_order(shapes):
    """Matrix-chain DP (Cormen, ch. 15.2) on host shapes: split[i][j] for the best order."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return dot(_chain(arrays, split, i, k), _chain(arrays, split, k + 1, j))


def linalg_outer(x1, x2, /):
    """Outer product of two vectors (cuarray version of `numpy.linalg.outer`)."""
    x1 = as_array(x1, "linalg.outer")
    x2 = as_array(x2, "linalg.outer")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are {x1.ndim=} "
                         f"and {x2.ndim=}.")
    return outer(x1, x2)


def linalg_cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-element vectors (cuarray version of `numpy.linalg.cross`)."""
    x1 = as_array(x1, "linalg.cross")
    x2 = as_array(x2, "linalg.cross")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
            f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return cross(x1, x2, axis=axis)


def linalg_tensordot(x1, x2, /, *, axes=2):
    """cuarray version of `numpy.linalg.tensordot`."""
    return tensordot(x1, x2, axes=axes)


def linalg_matmul(x1, x2, /):
    """cuarray version of `numpy.linalg.matmul`."""
    return matmul(x1, x2)


def linalg_diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes, a view (cuarray version of
    `numpy.linalg.diagonal`)."""
    x = as_array(x, "linalg.diagonal")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.diagonal(offset, -2, -1)

