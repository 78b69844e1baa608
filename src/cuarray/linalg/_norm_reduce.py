"""Vector norms as one pass of the reduction engine: |x| (or |x|**2, |x|**p, x != 0) is
mapped, summed or max/min-ed and finished (sqrt, **(1/p)) in the same kernel, so a norm
along an axis reads its input once, as a `sum` does.

Dtypes follow `numpy.linalg.norm`: integer and bool inputs give float64, complex inputs
their real type; float16 accumulates in float32 (as cuarray's sums) and rounds once.
"""
import os

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core._reductions import _kept, _prepare_out
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._core.shapes import normalize_axes
from cuarray.linalg import _norm_axis

_f16 = numpy.dtype(numpy.float16)
_f32 = numpy.dtype(numpy.float32)
_f64 = numpy.dtype(numpy.float64)

_HELPERS = r"""
template<class A, class T> __device__ __forceinline__ A _nrm_abs(const T& x) {
  const A v = cuarray_cast<A>(x); return v < A(0) ? -v : v; }
template<class A, class T> __device__ __forceinline__ A _nrm_abs(const complex<T>& z) {
  return (A)cuarray_hypot(z.re, z.im); }
template<class A, class T> __device__ __forceinline__ A _nrm_sq(const T& x) {
  const A v = cuarray_cast<A>(x); return v * v; }
template<class A, class T> __device__ __forceinline__ A _nrm_sq(const complex<T>& z) {
  const A r = z.re, i = z.im; return r * r + i * i; }
template<class A, class T> __device__ __forceinline__ A _nrm_nz(const T& x) {
  return cuarray_nonzero(x) ? A(1) : A(0); }
"""

# kind -> (map, reduce, post, identity). `a`, `b`: accumulators; `_p`, `_rp`: ord and 1/ord.
# max/min keep the first NaN they meet (NumPy's max(abs(x)) propagates NaN).
_KINDS = {
    "l2": ("_nrm_sq<type_reduce>(in0)", "a + b", "out0 = sqrt(a)", "0"),
    "l1": ("_nrm_abs<type_reduce>(in0)", "a + b", "out0 = a", "0"),
    "l0": ("_nrm_nz<type_reduce>(in0)", "a + b", "out0 = a", "0"),
    "max": ("_nrm_abs<type_reduce>(in0)", "(a != a || a > b) ? a : b", "out0 = a", "0"),
    "min": ("_nrm_abs<type_reduce>(in0)", "(a != a || a < b) ? a : b", "out0 = a",
            "(type_reduce)(1.0 / 0.0)"),
    "lp": ("pow(_nrm_abs<type_reduce>(in0), _p)", "a + b", "out0 = pow(a, _rp)", "0"),
}
_ops = {}
# Elements a thread loads before combining them. Eight, not the engine's four: a norm of a
# 4096x4096 float32 along either axis gives each thread 16-64 elements, and twice the
# loads in flight per thread hide more of the memory latency. CUARRAY_NORM_UNROLL=4
# selects the engine's default (for measurement).
UNROLL = int(os.environ.get("CUARRAY_NORM_UNROLL", "8"))


def result_dtype(dtype):
    """numpy.linalg.norm's result dtype for an input dtype."""
    if dtype.kind in "biu":
        return _f64
    return numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype


def kind_of(ord):
    """The kernel family of a vector norm order; ValueError for a string order."""
    if ord is None:
        return "l2"
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if ord == numpy.inf:
        return "max"
    if ord == -numpy.inf:
        return "min"
    if ord == 0:
        return "l0"
    if ord == 1:
        return "l1"
    if ord == 2:
        return "l2"
    return "lp"


def norm_op(kind, in_dtype, res):
    """The ReduceOp of one norm family for one input dtype (cached)."""
    key = (kind, in_dtype.char, res.char, UNROLL)
    op = _ops.get(key)
    if op is None:
        acc = _f32 if res == _f16 else res
        mp, red, post, ident = _KINDS[kind]
        params = [RParam("in0", "in", in_dtype), RParam("out0", "out", res)]
        if kind == "lp":
            params += [RParam("_p", "scalar", acc), RParam("_rp", "scalar", acc)]
        op = _ops[key] = ReduceOp(f"cuarray_norm_{kind}_{in_dtype.char}{res.char}", params, mp,
                                  red, post, ident, _dt.ctype(acc), _HELPERS, unroll=UNROLL)
    return op


_plans = {}   # (layout, ord, axis, keepdims) -> _norm_axis.Plan: a repeat launches at once


def vector_norm_reduce(x, ord, axis, keepdims):
    """The vector norm of `x` (a cuarray array) over `axis` (None, an int or a tuple: the
    reduced axes are treated as one vector), in one reduction kernel."""
    key = (x._shape, x.dtype, x._c_contig, x._ptr & 15, x._device_id, ord, axis, keepdims)
    try:
        plan = _plans.get(key)
    except TypeError:   # an unhashable ord: refused below
        plan = key = None
    if plan is not None:
        return plan(x)
    kind = kind_of(ord)
    shape = x._shape
    axes = normalize_axes(axis, x.ndim)
    if kind in ("max", "min") and 0 in [shape[d] for d in axes]:
        raise ValueError(f"zero-size array to reduction operation "
                         f"{'maximum' if kind == 'max' else 'minimum'} which has no identity")
    res = result_dtype(x.dtype)
    outa, _ = _prepare_out(None, shape, axes, keepdims, res, "linalg.norm")
    if outa.size == 0:
        return outa
    if len(axes) == 1 and res == x.dtype and _norm_axis.applies(x, kind, axes[0]):
        plan = _norm_axis.Plan(x, kind, axes[0], outa._shape)
        if key is not None:
            if len(_plans) >= 256:
                _plans.clear()
            _plans[key] = plan
        return plan(x)
    op = norm_op(kind, x.dtype, res)
    args = [x, _kept(outa, shape, axes)]
    if kind == "lp":
        acc = _f32 if res == _f16 else res
        p = float(ord)
        # NumPy raises |x| to ord and the sum to reciprocal(ord) in the result's dtype
        args += [acc.type(p), numpy.reciprocal(acc.type(p))]
    op.launch(args, axes, shape)
    return outa
