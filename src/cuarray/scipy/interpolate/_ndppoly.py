"""Tensor-product piecewise polynomials (cuarray version of `scipy.interpolate.NdPPoly`).

c has shape (k_0, ..., k_{n-1}, m_0, ..., m_{n-1}, ...). Evaluation is one kernel (per
axis the interval and the powers, then the sum over the k_0 ... k_{n-1} coefficients);
derivatives, antiderivatives and integrals work along one axis at a time with the 1-D
PPoly transforms.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels
from cuarray.scipy.interpolate._ppoly import PPoly, _fall, _fix_continuity, asdevice, coef_dtype

__all__ = ["NdPPoly"]

_f64 = numpy.dtype(numpy.float64)


def _coords(x, ndim):
    if isinstance(x, tuple) and len(x) == 1:
        x = x[0]
    if isinstance(x, tuple):
        arrs = cuarray.broadcast_arrays(*[asdevice(a).astype(_f64) for a in x])
        return cuarray.stack(arrs, axis=-1)
    x = asdevice(x).astype(_f64, copy=False)
    return x.reshape(-1, 1) if x.ndim == 1 and ndim == 1 else x


class NdPPoly:
    """cuarray version of `scipy.interpolate.NdPPoly`."""

    def __init__(self, c, x, extrapolate=None):
        self.x = tuple(cuarray.ascontiguousarray(asdevice(v), dtype=_f64) for v in x)
        c = asdevice(c)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        if any(v.ndim != 1 for v in self.x):
            raise ValueError("x arrays must all be 1-dimensional")
        if any(v.size < 2 for v in self.x):
            raise ValueError("x arrays must all contain at least 2 points")
        if c.ndim < 2 * ndim:
            raise ValueError("c must have at least 2*len(x) dimensions")
        bad = cuarray.stack([cuarray.any(v[1:] - v[:-1] < 0) for v in self.x]).get()
        if bad.any():
            raise ValueError("x-coordinates are not in increasing order")
        if any(a != b.size - 1 for a, b in zip(c.shape[ndim:2 * ndim], self.x)):
            raise ValueError("x and c do not agree on the number of intervals")
        self.c = cuarray.ascontiguousarray(c, dtype=coef_dtype(c.dtype))

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None):
        """Construct without checks."""
        self = object.__new__(cls)
        self.c = c
        self.x = x
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x, nu=None, extrapolate=None):
        """Evaluate (or the derivatives `nu`, one order per axis) at x (..., ndim)."""
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        x = _coords(x, ndim)
        shape = x.shape
        if shape[-1] != ndim:
            raise ValueError(f"points must have {ndim} coordinates, got {shape[-1]}")
        x = cuarray.ascontiguousarray(x.reshape(-1, ndim))
        if nu is None:
            nu = (0,) * ndim
        else:
            nu = tuple(int(v) for v in numpy.atleast_1d(numpy.asarray(nu)))
            if len(nu) != ndim:
                raise ValueError("invalid number of derivative orders nu")
        c = self.c if self.c._c_contig else cuarray.ascontiguousarray(self.c)
        ks = c.shape[:ndim]
        trailing = c.shape[2 * ndim:]
        nc = int(numpy.prod(trailing)) if trailing else 1
        n = x.shape[0]
        out = cuarray.empty((n, nc), dtype=c.dtype)
        if n and nc:
            full = c.shape[:2 * ndim] + (nc,)
            st = [1] * (2 * ndim)   # element strides in units of nc
            for d in range(2 * ndim - 2, -1, -1):
                st[d] = st[d + 1] * full[d + 1]
            lens = [v.size for v in self.x]
            xoff = numpy.concatenate([[0], numpy.cumsum(lens)[:-1]]).astype(numpy.int64)
            host = [xoff, numpy.array([v - 1 for v in lens], numpy.int64), numpy.array(ks, numpy.int32),
                    numpy.array(nu, numpy.int32), numpy.array(st[:ndim], numpy.int64),
                    numpy.array(st[ndim:], numpy.int64)]
            dev = [cuarray.asarray(h) for h in host]
            _kernels.run("ci_ndppoly", n, [cuarray.concatenate(list(self.x))] + dev +
                         [c, x, out, n, nc, int(extrapolate)], dtype=c.dtype, K=max(ks), D=ndim)
        return out.reshape(shape[:-1] + trailing)

    def _axis_first(self, axis):
        """c with axis's order and interval axes moved to the front, and the permutation."""
        ndim = len(self.x)
        perm = [axis, ndim + axis] + [d for d in range(self.c.ndim) if d not in (axis, ndim + axis)]
        return self.c.transpose(perm), perm

    def _put_back(self, c, perm):
        inv = numpy.argsort(perm)
        return cuarray.ascontiguousarray(c.transpose(tuple(inv)))

    def derivative(self, nu):
        """The partial derivative of orders nu (one per axis) as an NdPPoly."""
        p = self.construct_fast(self.c, self.x, self.extrapolate)
        for axis, n in enumerate(nu):
            p = p._derivative_1d(n, axis)
        return p

    def antiderivative(self, nu):
        """The antiderivative of orders nu (one per axis) as an NdPPoly."""
        p = self.construct_fast(self.c, self.x, self.extrapolate)
        for axis, n in enumerate(nu):
            p = p._derivative_1d(-n, axis)
        return p

    def _derivative_1d(self, nu, axis):
        if nu == 0:
            return self
        c, perm = self._axis_first(axis % len(self.x))
        k = c.shape[0]
        rest = (1,) * (c.ndim - 1)
        if nu > 0:
            if nu >= k:
                c2 = cuarray.zeros((1,) + c.shape[1:], dtype=c.dtype)
            else:
                f = numpy.array([_fall(k - 1 - q, nu) for q in range(k - nu)])
                c2 = c[:k - nu] * cuarray.asarray(f).reshape((-1,) + rest)
        else:
            nu = -nu
            f = numpy.array([1.0 / _fall(k - 1 - q + nu, nu) for q in range(k)])
            c2 = cuarray.zeros((k + nu,) + c.shape[1:], dtype=c.dtype)
            c2[:k] = c * cuarray.asarray(f).reshape((-1,) + rest)
            _fix_continuity(c2, self.x[axis], nu)
        return self.construct_fast(self._put_back(c2, perm), self.x, self.extrapolate)

    def integrate_1d(self, a, b, axis, extrapolate=None):
        """The integral over [a, b] along `axis`: an NdPPoly of one axis fewer (an array
        for a 1-D polynomial)."""
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        axis = int(axis) % ndim
        c, _ = self._axis_first(axis)
        c = cuarray.ascontiguousarray(c)
        p = PPoly.construct_fast(c.reshape(c.shape[0], c.shape[1], -1), self.x[axis], extrapolate)
        out = p.integrate(a, b, extrapolate=extrapolate)
        if ndim == 1:
            return out.reshape(c.shape[2:])
        return self.construct_fast(out.reshape(c.shape[2:]), self.x[:axis] + self.x[axis + 1:],
                                   extrapolate)

    def integrate(self, ranges, extrapolate=None):
        """The integral over the box [a_0, b_0] x ... x [a_{n-1}, b_{n-1}]."""
        ndim = len(self.x)
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        if not hasattr(ranges, "__len__") or len(ranges) != ndim:
            raise ValueError("Range not a sequence of correct length")
        p = self
        for a, b in ranges:
            p = p.integrate_1d(a, b, axis=0, extrapolate=extrapolate)
        return p
