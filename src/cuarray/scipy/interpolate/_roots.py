"""Real roots of piecewise polynomials (`PPoly.solve`, `PPoly.roots`).

Per interval and column, the companion matrix of p_i(s) - y (one kernel; leading zero
coefficients dropped, unused rows given a decoupled sentinel eigenvalue), its eigenvalues
in one batched call (`cuarray.linalg.eigvals`, LAPACK's geev algorithm as SciPy's), then
one kernel keeps the real ones inside the interval and adds the breakpoints where the
function jumps across y. Consecutive equal roots (a root on a breakpoint found from both
sides) are reported once, as SciPy does.
"""
import numpy

import cuarray
from cuarray.scipy.interpolate import _kernels


def solve(pp, y, discontinuity, extrapolate):
    c = pp._coefs()
    if c.dtype.kind == "c":
        raise ValueError("Root finding is only for real-valued polynomials")
    k, m = c.shape[0], c.shape[1]
    trailing = c.shape[2:]
    nc = int(numpy.prod(trailing)) if trailing else 1
    total = m * nc
    c2 = c.reshape(k, total)
    if k == 1:   # a constant: one zero leading row makes it a polynomial of degree "1"
        c2 = cuarray.concatenate([cuarray.zeros((1, total)), c2])
    D = c2.shape[0] - 1
    c2 = cuarray.ascontiguousarray(c2)
    a = cuarray.empty((total, D, D))
    deg = cuarray.empty((total,), dtype=numpy.int32)
    out = cuarray.empty((total, D + 3))
    ok = cuarray.empty((total, D + 3), dtype=bool)
    if total:
        _kernels.run("ci_companion", total, [c2, a, deg, y, m, nc], D=D)
        w = cuarray.linalg.eigvals(a)
        wr = cuarray.ascontiguousarray(cuarray.real(w), dtype=numpy.float64)
        wi = cuarray.ascontiguousarray(cuarray.imag(w), dtype=numpy.float64)
        _kernels.run("ci_roots_pick", total, [pp.x, c2, wr, wi, deg, out, ok, y, m, nc,
                                              int(discontinuity), int(extrapolate)], D=D)
    out = cuarray.moveaxis(out.reshape(m, nc, D + 3), 1, 0).reshape(nc, -1)
    ok = cuarray.moveaxis(ok.reshape(m, nc, D + 3), 1, 0).reshape(nc, -1)
    res = []
    for col in range(nc):
        v = out[col][ok[col]]
        if v.size > 1:
            keep = cuarray.concatenate([cuarray.ones(1, dtype=bool), v[1:] != v[:-1]])
            v = v[keep]
        res.append(v)
    if not trailing:
        return res[0]
    arr = numpy.empty(nc, dtype=object)
    for i, v in enumerate(res):
        arr[i] = v
    return arr.reshape(trailing)
