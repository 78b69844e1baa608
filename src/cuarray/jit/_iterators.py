"""Iterators over 1-D arrays in cuarray.jit kernels (`x.begin()`, `x.end()`), as
`cupyx.jit.thrust` takes them: a byte pointer and a byte stride, so views of any layout
(a row of an F-ordered array) iterate in index order.

`it + n`, `it - n`, `it2 - it1` (a distance), `it[k]`, `it == it2` and `it != it2` work
as for C++ random-access iterators.
"""
import ast

import numpy

from cuarray._core import dtypes as _dt
from cuarray.jit._types import INT64, Expr, Keyed, type_of

CODE = r"""template <class T> struct _jit_iter {
  char* p;
  long long s;
  __device__ T& operator*() const { return *(T*)p; }
  __device__ T& operator[](long long i) const { return *(T*)(p + i * s); }
  __device__ _jit_iter operator+(long long n) const { return _jit_iter{p + n * s, s}; }
  __device__ _jit_iter operator-(long long n) const { return _jit_iter{p - n * s, s}; }
  __device__ long long operator-(const _jit_iter& o) const { return s ? (p - o.p) / s : 0; }
  __device__ _jit_iter& operator++() { p += s; return *this; }
  __device__ _jit_iter& operator--() { p -= s; return *this; }
  __device__ bool operator==(const _jit_iter& o) const { return p == o.p; }
  __device__ bool operator!=(const _jit_iter& o) const { return p != o.p; }
};
template <class T, int N> __device__ __forceinline__ _jit_iter<T> _jit_begin(const _jit_array<T, N>& a) {
  return _jit_iter<T>{(char*)a.data, N ? a.strides[N - 1] : (long long)sizeof(T)};
}
template <class T, int N> __device__ __forceinline__ _jit_iter<T> _jit_end(const _jit_array<T, N>& a) {
  return _jit_begin(a) + a.size;
}"""


class Iter(Keyed):
    """The translator type of an iterator over elements of `dtype`."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = _dt.check_dtype(dtype)

    def _key(self):
        return (type(self).__name__, self.dtype)

    def __repr__(self):
        return f"iterator({self.dtype})"

    @property
    def cname(self):
        return f"_jit_iter<{_dt.ctype(self.dtype)}>"

    def subscript(self, tr, base, index, node):
        return Expr(f"{base.code}[{tr.cast(index, INT64, node)}]", self.dtype)

    def binop(self, tr, op, left, right, node):
        """`it + n`, `n + it`, `it - n`, `it - it2`; None for other operators."""
        lt = left.type if isinstance(left, Expr) else None
        rt = right.type if isinstance(right, Expr) else None
        if isinstance(op, ast.Sub) and isinstance(lt, Iter) and isinstance(rt, Iter):
            if lt != rt:
                tr.err(node, f"cannot subtract iterators over {rt.dtype} and {lt.dtype}")
            return Expr(f"({left.code} - {right.code})", INT64)
        if isinstance(op, (ast.Add, ast.Sub)):
            it, n = (left, right) if isinstance(lt, Iter) else (right, left)
            if isinstance(op, ast.Sub) and it is right:
                tr.err(node, "an iterator can be subtracted from an iterator only")
            t = type_of(n)
            if t is None or t is float or t is complex or \
                    (isinstance(t, numpy.dtype) and t.kind not in "iu"):
                tr.err(node, "iterators move by integers")
            sign = "-" if isinstance(op, ast.Sub) else "+"
            return Expr(f"({it.code} {sign} {tr.cast(n, INT64, node)})", it.type)
        tr.err(node, "iterators support +, - and comparisons with == and != only")

    def compare(self, tr, op, left, right, node):
        if not (isinstance(left, Expr) and isinstance(right, Expr) and left.type == right.type):
            tr.err(node, "an iterator compares with an iterator of the same array type only")
        if isinstance(op, ast.Eq):
            return Expr(f"({left.code} == {right.code})", numpy.dtype(numpy.bool_))
        if isinstance(op, ast.NotEq):
            return Expr(f"({left.code} != {right.code})", numpy.dtype(numpy.bool_))
        tr.err(node, "iterators compare with == and != only")


def begin_end(tr, arr, which, node):
    """`arr.begin()` / `arr.end()` for a 1-D array (or a 1-D view x[i] of one)."""
    if arr.type.ndim != 1:
        tr.err(node, f"{which}() iterates over 1-D arrays; index a row first (x[i].{which}())")
    tr.gen.add(CODE)
    return Expr(f"_jit_{which}({arr.code})", Iter(arr.type.dtype))
