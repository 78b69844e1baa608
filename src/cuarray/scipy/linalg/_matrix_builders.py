"""More structured matrices and array utilities (cuarray versions of
`scipy.linalg.hadamard`, `leslie`, `companion`, `fiedler_companion`, `helmert`, `hilbert`,
`dft`, `fiedler`, `convolution_matrix`, `bandwidth`, `khatri_rao`), built on the device
from index grids."""
import math
import operator

import numpy

import cuarray as cp
from cuarray.scipy.linalg._special_matrices import toeplitz
from cuarray.scipy.linalg._util import as_array


def hilbert(n):
    """The Hilbert matrix 1 / (i + j + 1) (cuarray version of `scipy.linalg.hilbert`)."""
    i = cp.arange(operator.index(n), dtype=numpy.float64)
    return 1.0 / (i[:, None] + i[None, :] + 1.0)


def hadamard(n, dtype=int):
    """Sylvester's Hadamard matrix of order n, a power of 2 (cuarray version of
    `scipy.linalg.hadamard`)."""
    n = operator.index(n)
    lg2 = int(math.log(n, 2)) if n >= 1 else 0
    if n < 1 or 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a power of 2")
    h = cp.ones((1, 1), dtype=dtype)
    for _ in range(lg2):
        h = cp.concatenate([cp.concatenate([h, h], axis=1),
                            cp.concatenate([h, -h], axis=1)], axis=0)
    return h


def dft(n, scale=None):
    """The discrete Fourier transform matrix exp(-2 pi i j k / n) (cuarray version of
    `scipy.linalg.dft`)."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; {scale!r} is not valid.")
    n = operator.index(n)
    j = cp.arange(n, dtype=numpy.int64)
    # j k reduced mod n first: the angle keeps its precision for large n
    ang = ((j[:, None] * j[None, :]) % n).astype(numpy.float64) * (-2 * math.pi / n)
    m = cp.cos(ang) + 1j * cp.sin(ang)
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m


def helmert(n, full=False):
    """The Helmert matrix of order n (cuarray version of `scipy.linalg.helmert`); without
    `full` the first row is left out."""
    n = operator.index(n)
    i = cp.arange(n)
    h = (i[None, :] < i[:, None]).astype(numpy.float64) - cp.diag(i.astype(numpy.float64))
    d = (i * (i + 1)).astype(numpy.float64)
    h[0] = 1
    d[0] = n
    hf = h / cp.sqrt(d)[:, None]
    return hf if full else hf[1:]


def _vec(x, name):
    x = as_array(x, name)
    if x.ndim != 1:
        raise ValueError(f"Incorrect shape for `{name}` argument: it must be 1-D.")
    return x


def leslie(f, s):
    """The Leslie matrix of fecundity f and survival s (cuarray version of
    `scipy.linalg.leslie`)."""
    f, s = as_array(f, "leslie"), as_array(s, "leslie")
    if f.ndim != 1 or s.ndim != 1:
        raise ValueError("Incorrect shape for f and s. Both must be 1-D.")
    if f.size != s.size + 1:
        raise ValueError("Incorrect lengths for f and s. The length of s along the last "
                         "axis must be one less than the length of f.")
    if s.size == 0:
        raise ValueError("The length of s must be at least 1.")
    n = f.size
    dt = numpy.result_type(f.dtype, s.dtype)
    a = cp.zeros((n, n), dtype=dt)
    a[0] = f
    idx = cp.arange(n - 1)
    a[idx + 1, idx] = s
    return a


def companion(a):
    """The companion matrix of the polynomial a (cuarray version of
    `scipy.linalg.companion`); checks a[0] != 0 (reads one value)."""
    a = _vec(a, "a")
    if a.size < 2:
        raise ValueError("The length of `a` must be at least 2.")
    if bool(a[0] == 0):
        raise ValueError("The first coefficient in `a` must not be zero.")
    dt = numpy.result_type(a.dtype, numpy.float64) if a.dtype.kind in "biu" else a.dtype
    first = -a[1:].astype(dt) / a[0]
    n = a.size
    c = cp.zeros((n - 1, n - 1), dtype=first.dtype)
    c[0] = first
    idx = cp.arange(n - 2)
    c[idx + 1, idx] = 1
    return c


def fiedler_companion(a):
    """The Fiedler companion matrix of the polynomial a, a pentadiagonal matrix with the
    roots of a as eigenvalues (cuarray version of `scipy.linalg.fiedler_companion`);
    batches over a's leading axes and checks the leading coefficients (reads one flag).
    """
    a = as_array(a, "fiedler_companion")
    if a.ndim == 0:
        a = a.reshape(1)
    batch, m = a.shape[:-1], a.shape[-1]
    if m <= 1:
        return cp.empty(batch + (0,), dtype=a.dtype)
    if m == 2:  # SciPy checks no leading zero here
        return (-(a[..., 1:] / a[..., :1])).reshape(batch + (1, 1))
    if bool((a[..., 0] == 0).any()):
        raise ValueError("Leading coefficient is zero.")
    a = a / a[..., :1]
    n = m - 1
    c = cp.zeros(batch + (n, n), dtype=a.dtype)
    # Odd columns j carry -a[j + 1] above the diagonal (row j - 1) and a 1 below it (row
    # j + 2); even columns j >= 2 a 1 in row j - 2 (SciPy's layout), and column 0 holds
    # -a[1] and 1.
    odd = cp.arange(1, n, 2)
    c[..., odd - 1, odd] = -a[..., 2::2]
    low = odd[odd + 1 < n]
    c[..., low + 1, low] = -a[..., 3::2]
    one = cp.arange(2, n, 2)
    c[..., one - 2, one] = 1
    sub = odd[odd + 2 < n]
    c[..., sub + 2, sub] = 1
    c[..., 0, 0] = -a[..., 1]
    c[..., 1, 0] = 1
    return c


def fiedler(a):
    """The symmetric Fiedler matrix |a_i - a_j| (cuarray version of
    `scipy.linalg.fiedler`)."""
    a = as_array(a, "fiedler")
    if a.ndim != 1:
        raise ValueError("Input 'a' must be a 1D array.")
    return cp.abs(a[:, None] - a[None, :])


def convolution_matrix(a, n, mode="full"):
    """The matrix A with A @ v == convolve(a, v, mode) (cuarray version of
    `scipy.linalg.convolution_matrix`)."""
    a = as_array(a, "convolution_matrix")
    n = operator.index(n)
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    if a.ndim != 1:
        raise ValueError("convolution_matrix expects a one-dimensional array as input")
    if a.size == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', 'same')")
    m = a.size
    col = cp.concatenate([a, cp.zeros(n - 1, dtype=a.dtype)])
    row = cp.concatenate([a[:1], cp.zeros(n - 1, dtype=a.dtype)])
    full = toeplitz(col, row)
    lo, hi = min(m, n), max(m, n)
    if mode == "same":
        start = (lo - 1) // 2
        return full[start:start + hi]
    if mode == "valid":
        return full[lo - 1:hi]
    return full


def bandwidth(a):
    """(lower, upper) bandwidth of a 2-D array: the farthest non-zero diagonal below and
    above the main one (cuarray version of `scipy.linalg.bandwidth`; reads two ints)."""
    a = as_array(a, "bandwidth")
    if a.ndim != 2:
        raise ValueError("Input array must be 2D.")
    if a.size == 0:
        return 0, 0
    i = cp.arange(a.shape[0])[:, None]
    j = cp.arange(a.shape[1])[None, :]
    nz = a != 0
    lower = cp.amax(cp.where(nz & (i > j), i - j, 0))
    upper = cp.amax(cp.where(nz & (j > i), j - i, 0))
    return int(lower), int(upper)


def khatri_rao(a, b):
    """The column-wise Kronecker product (cuarray version of `scipy.linalg.khatri_rao`)."""
    a, b = as_array(a, "khatri_rao"), as_array(b, "khatri_rao")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[1] != b.shape[1]:
        raise ValueError("The number of columns for both arrays should be equal.")
    c = a[:, None, :] * b[None, :, :]
    return c.reshape((-1,) + a.shape[1:])
