"""Thrust-style algorithms inside cuarray.jit kernels (cuarray version of
`cupyx.jit.thrust`; as in CuPy, no custom comparators or operators).

Each call runs in the calling thread, in order, over iterators from `x.begin()`/`x.end()`
(`x` a 1-D array or a row `x[i]` of one): what Thrust does for `thrust::seq`, and for
`thrust::device`/`thrust::host` in device code without dynamic parallelism. The device
code is cuarray's own (no Thrust headers)::

    @jit.rawkernel()
    def sort_rows(x):
        row = x[jit.threadIdx.x]
        jit.thrust.sort(jit.thrust.device, row.begin(), row.end())

`sort` is a heapsort (O(n log n), not stable, as thrust::sort promises no stability);
`stable_sort` and the `*_by_key` sorts are insertion sorts (stable, O(n^2)): meant for the
short per-thread ranges these calls are made on.
"""

import numpy

from cuarray._core import dtypes as _dt
from cuarray.jit._builtins import _Func
from cuarray.jit._iterators import CODE as _ITER_CODE
from cuarray.jit._iterators import Iter
from cuarray.jit._types import BOOL, INT32, Const, Expr, Tuple, strong, type_of

CODE = r"""template <class I> struct _jit_value;
template <class T> struct _jit_value<_jit_iter<T>> { typedef T type; };
template <class I> __device__ void _jit_sift(I a, long long root, long long n) {
  typedef typename _jit_value<I>::type T;
  while (2 * root + 1 < n) {
    long long c = 2 * root + 1;
    if (c + 1 < n && a[c] < a[c + 1]) ++c;
    if (!(a[root] < a[c])) return;
    T t = a[root]; a[root] = a[c]; a[c] = t;
    root = c;
  }
}
template <class I> __device__ void _jit_thrust_sort(I f, I l) {
  typedef typename _jit_value<I>::type T;
  const long long n = l - f;
  for (long long s = n / 2 - 1; s >= 0; --s) _jit_sift(f, s, n);
  for (long long e = n - 1; e > 0; --e) {
    T t = f[0]; f[0] = f[e]; f[e] = t;
    _jit_sift(f, 0, e);
  }
}
template <class I> __device__ void _jit_thrust_stable_sort(I f, I l) {
  typedef typename _jit_value<I>::type T;
  const long long n = l - f;
  for (long long i = 1; i < n; ++i) {
    T v = f[i]; long long j = i;
    for (; j > 0 && v < f[j - 1]; --j) f[j] = f[j - 1];
    f[j] = v;
  }
}
template <class I, class J> __device__ void _jit_thrust_sort_by_key(I k, I l, J v) {
  typedef typename _jit_value<I>::type K;
  typedef typename _jit_value<J>::type V;
  const long long n = l - k;
  for (long long i = 1; i < n; ++i) {
    K key = k[i]; V val = v[i]; long long j = i;
    for (; j > 0 && key < k[j - 1]; --j) { k[j] = k[j - 1]; v[j] = v[j - 1]; }
    k[j] = key; v[j] = val;
  }
}
template <class I, class T> __device__ T _jit_thrust_reduce(I f, I l, T init) {
  for (; f != l; ++f) init = init + *f;
  return init;
}
template <class I, class T> __device__ int _jit_thrust_count(I f, I l, T v) {
  int c = 0;
  for (; f != l; ++f) c += (*f == v);
  return c;
}
template <class I, class T> __device__ void _jit_thrust_fill(I f, I l, T v) {
  for (; f != l; ++f) *f = v;
}
template <class I, class O> __device__ O _jit_thrust_copy(I f, I l, O o) {
  for (; f != l; ++f, ++o) *o = *f;
  return o;
}
template <class I, class T> __device__ I _jit_thrust_find(I f, I l, T v) {
  for (; f != l; ++f) if (*f == v) return f;
  return l;
}
template <class I, class J> __device__ bool _jit_thrust_equal(I f, I l, J g) {
  for (; f != l; ++f, ++g) if (!(*f == *g)) return false;
  return true;
}
template <class I, class J, class T> __device__ T _jit_thrust_inner_product(I f, I l, J g, T init) {
  for (; f != l; ++f, ++g) init = init + *f * *g;
  return init;
}
template <class I, class O> __device__ O _jit_thrust_inclusive_scan(I f, I l, O o) {
  if (f == l) return o;
  typename _jit_value<O>::type acc = *f;
  *o = acc;
  for (++f, ++o; f != l; ++f, ++o) { acc = acc + *f; *o = acc; }
  return o;
}
template <class I, class O, class T> __device__ O _jit_thrust_exclusive_scan(I f, I l, O o, T init) {
  typename _jit_value<O>::type acc = init;
  for (; f != l; ++f, ++o) { const typename _jit_value<O>::type v = *f; *o = acc; acc = acc + v; }
  return o;
}
template <class I, class O> __device__ O _jit_thrust_adjacent_difference(I f, I l, O o) {
  if (f == l) return o;
  typename _jit_value<I>::type prev = *f;
  *o = prev;
  for (++f, ++o; f != l; ++f, ++o) { const typename _jit_value<I>::type v = *f; *o = v - prev; prev = v; }
  return o;
}
template <class I> __device__ I _jit_thrust_is_sorted_until(I f, I l) {
  if (f == l) return l;
  for (I n = f + 1; n != l; ++n, ++f) if (*n < *f) return n;
  return l;
}
template <class I, class T> __device__ I _jit_thrust_lower_bound(I f, I l, T v) {
  long long n = l - f;
  while (n > 0) { const long long h = n / 2; if (f[h] < v) { f = f + (h + 1); n -= h + 1; } else n = h; }
  return f;
}
template <class I, class T> __device__ I _jit_thrust_upper_bound(I f, I l, T v) {
  long long n = l - f;
  while (n > 0) { const long long h = n / 2; if (!(v < f[h])) { f = f + (h + 1); n -= h + 1; } else n = h; }
  return f;
}
template <class I, class T> __device__ bool _jit_thrust_binary_search(I f, I l, T v) {
  I p = _jit_thrust_lower_bound(f, l, v);
  return p != l && !(v < *p);
}
template <class M, class I, class O> __device__ O _jit_thrust_gather(M m, M ml, I in, O o) {
  for (; m != ml; ++m, ++o) *o = in[*m];
  return o;
}
template <class I, class M, class O> __device__ void _jit_thrust_scatter(I f, I l, M m, O o) {
  for (; f != l; ++f, ++m) o[*m] = *f;
}
template <class I, class T> __device__ void _jit_thrust_sequence(I f, I l, T init, T step) {
  for (T v = init; f != l; ++f, v = v + step) *f = v;
}
template <class I, class T> __device__ void _jit_thrust_replace(I f, I l, T a, T b) {
  for (; f != l; ++f) if (*f == a) *f = b;
}
template <class I, class O, class T> __device__ O _jit_thrust_replace_copy(I f, I l, O o, T a, T b) {
  for (; f != l; ++f, ++o) *o = (*f == a) ? b : *f;
  return o;
}
template <class I, class T> __device__ I _jit_thrust_remove(I f, I l, T v) {
  I o = f;
  for (; f != l; ++f) if (!(*f == v)) { *o = *f; ++o; }
  return o;
}
template <class I, class O, class T> __device__ O _jit_thrust_remove_copy(I f, I l, O o, T v) {
  for (; f != l; ++f) if (!(*f == v)) { *o = *f; ++o; }
  return o;
}
template <class I> __device__ void _jit_thrust_reverse(I f, I l) {
  for (long long i = 0, j = (l - f) - 1; i < j; ++i, --j) {
    typename _jit_value<I>::type t = f[i]; f[i] = f[j]; f[j] = t;
  }
}
template <class I, class O> __device__ O _jit_thrust_reverse_copy(I f, I l, O o) {
  while (l != f) { --l; *o = *l; ++o; }
  return o;
}
template <class I, class J> __device__ J _jit_thrust_swap_ranges(I f, I l, J g) {
  for (; f != l; ++f, ++g) { typename _jit_value<I>::type t = *f; *f = *g; *g = t; }
  return g;
}
template <class T> struct _jit_const_iter {
  T v;
  long long i;
  __device__ T operator*() const { return v; }
  __device__ T operator[](long long) const { return v; }
  __device__ _jit_const_iter operator+(long long n) const { return _jit_const_iter{v, i + n}; }
  __device__ _jit_const_iter operator-(long long n) const { return _jit_const_iter{v, i - n}; }
  __device__ long long operator-(const _jit_const_iter& o) const { return i - o.i; }
  __device__ _jit_const_iter& operator++() { ++i; return *this; }
  __device__ _jit_const_iter& operator--() { --i; return *this; }
  __device__ bool operator==(const _jit_const_iter& o) const { return i == o.i; }
  __device__ bool operator!=(const _jit_const_iter& o) const { return i != o.i; }
};
template <class T> struct _jit_value<_jit_const_iter<T>> { typedef T type; };
template <class T> struct _jit_count_iter {
  T v;
  __device__ T operator*() const { return v; }
  __device__ T operator[](long long k) const { return (T)(v + k); }
  __device__ _jit_count_iter operator+(long long n) const { return _jit_count_iter{(T)(v + n)}; }
  __device__ _jit_count_iter operator-(long long n) const { return _jit_count_iter{(T)(v - n)}; }
  __device__ long long operator-(const _jit_count_iter& o) const { return (long long)(v - o.v); }
  __device__ _jit_count_iter& operator++() { v = (T)(v + 1); return *this; }
  __device__ _jit_count_iter& operator--() { v = (T)(v - 1); return *this; }
  __device__ bool operator==(const _jit_count_iter& o) const { return v == o.v; }
  __device__ bool operator!=(const _jit_count_iter& o) const { return v != o.v; }
};
template <class T> struct _jit_value<_jit_count_iter<T>> { typedef T type; };
template <class I, class J> __device__ void _jit_thrust_mismatch(I f, I l, J g, I& a, J& b) {
  for (; f != l && *f == *g; ++f, ++g) { }
  a = f; b = g;
}
template <class K, class V, class O> __device__ O _jit_thrust_inclusive_scan_by_key(K k, K kl, V v, O o) {
  typename _jit_value<O>::type acc = 0;
  for (long long j = 0; k != kl; ++k, ++v, ++o, ++j) {
    if (j == 0 || !(*k == k[-1])) acc = *v; else acc = acc + *v;
    *o = acc;
  }
  return o;
}
template <class K, class V, class O, class T>
__device__ O _jit_thrust_exclusive_scan_by_key(K k, K kl, V v, O o, T init) {
  typename _jit_value<O>::type acc = init;
  for (long long j = 0; k != kl; ++k, ++v, ++o, ++j) {
    if (j == 0 || !(*k == k[-1])) acc = init;
    const typename _jit_value<O>::type x = *v;
    *o = acc;
    acc = acc + x;
  }
  return o;
}
template <class K, class V, class KO, class VO>
__device__ void _jit_thrust_reduce_by_key(K k, K kl, V v, KO ko, VO vo, KO& ke, VO& ve) {
  if (k == kl) { ke = ko; ve = vo; return; }
  typename _jit_value<KO>::type key = *k;
  typename _jit_value<VO>::type acc = *v;
  for (++k, ++v; k != kl; ++k, ++v) {
    if (*k == key) { acc = acc + *v; continue; }
    *ko = key; *vo = acc; ++ko; ++vo;
    key = *k; acc = *v;
  }
  *ko = key; *vo = acc;
  ke = ko + 1; ve = vo + 1;
}
template <class K, class V> __device__ void _jit_thrust_unique_by_key(K k, K kl, V v, K& ke, V& ve) {
  if (k == kl) { ke = k; ve = v; return; }
  K ok = k; V ov = v;
  for (++k, ++v; k != kl; ++k, ++v)
    if (!(*k == *ok)) { ++ok; ++ov; *ok = *k; *ov = *v; }
  ke = ok + 1; ve = ov + 1;
}
// Set operations on sorted ranges; `w` selects what is kept: 1 only-in-first, 2 both (from
// the first), 4 only-in-second; union keeps 1|2|4, difference 1, intersection 2,
// symmetric difference 1|4. Values (by_key) travel with their keys.
template <int W, bool KV, class I1, class I2, class O, class V1, class V2, class VO>
__device__ void _jit_set_op(I1 f1, I1 l1, I2 f2, I2 l2, O o, V1 v1, V2 v2, VO vo, O& oe, VO& ve) {
  while (f1 != l1 && f2 != l2) {
    if (*f1 < *f2) {
      if (W & 1) { *o = *f1; ++o; if (KV) { *vo = *v1; ++vo; } }
      ++f1; if (KV) ++v1;
    } else if (*f2 < *f1) {
      if (W & 4) { *o = *f2; ++o; if (KV) { *vo = *v2; ++vo; } }
      ++f2; if (KV) ++v2;
    } else {
      if (W & 2) { *o = *f1; ++o; if (KV) { *vo = *v1; ++vo; } }
      ++f1; ++f2; if (KV) { ++v1; ++v2; }
    }
  }
  for (; f1 != l1; ++f1) { if (W & 1) { *o = *f1; ++o; if (KV) { *vo = *v1; ++vo; } } if (KV) ++v1; }
  for (; f2 != l2; ++f2) { if (W & 4) { *o = *f2; ++o; if (KV) { *vo = *v2; ++vo; } } if (KV) ++v2; }
  oe = o; ve = vo;
}
template <class I> __device__ I _jit_thrust_unique(I f, I l) {
  if (f == l) return l;
  I o = f;
  for (I n = f + 1; n != l; ++n) if (!(*n == *o)) { ++o; *o = *n; }
  return o + 1;
}"""


class _ValueIter(Iter):
    """An iterator computing its values (make_constant_iterator, make_counting_iterator)."""

    __slots__ = ()
    template = None

    @property
    def cname(self):
        return f"{self.template}<{_dt.ctype(self.dtype)}>"


class _ConstIter(_ValueIter):
    __slots__ = ()
    template = "_jit_const_iter"


class _CountIter(_ValueIter):
    __slots__ = ()
    template = "_jit_count_iter"


class _Policy:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<cuarray.jit.thrust.{self.name}>"


host = _Policy("host")
device = _Policy("device")
seq = _Policy("seq")


def _policy(tr, node, name, p):
    if not (isinstance(p, Const) and isinstance(p.value, _Policy)):
        tr.err(node, f"thrust.{name} takes an execution policy first (jit.thrust.device, "
                     f"jit.thrust.seq or jit.thrust.host)")


def _iter(tr, node, name, v, what):
    if not (isinstance(v, Expr) and isinstance(v.type, Iter)):
        tr.err(node, f"thrust.{name}: {what} must be an iterator (x.begin(), x.end(), "
                     f"x.begin() + n)")
    return v.type


def _out(tr, node, name, v, what):
    t = _iter(tr, node, name, v, what)
    if isinstance(t, _ValueIter):
        tr.err(node, f"thrust.{name}: {what} must iterate over an array (it is written)")
    return t


def _temps(tr, fname, args, types):
    """Call `fname(args..., &t1, &t2...)` before the statement; the temporaries' values."""
    tr.gen.add(_ITER_CODE)
    tr.gen.add(CODE)
    names = []
    for t in types:
        name = tr.fresh("_jti")
        tr.decls[name] = t.cname
        names.append(name)
    tr.pending.append(f"{fname}({', '.join(list(args) + names)});")
    return [Expr(n, t) for n, t in zip(names, types)]


def _same(tr, node, name, a, b):
    if a.type != b.type:
        tr.err(node, f"thrust.{name}: first and last must iterate over the same type")


def _value(tr, node, v, dt):
    if type_of(v) is None:
        tr.err(node, f"expected a number, got {v!r}")
    return tr.cast(v, dt, node)


def _call(tr, fname, args, rtype):
    tr.gen.add(_ITER_CODE)
    tr.gen.add(CODE)
    return Expr(f"_jit_thrust_{fname}({', '.join(args)})", rtype)


def _range_fn(name, nvalues, ret, extra_iters=0):
    """A function of (policy, first, last, *iterators, *values) returning `ret`: 'void',
    'first' (an iterator like first), 'out' (like the last iterator argument), 'bool',
    'count' or 'value' (the element type)."""
    def emit(tr, node, *args, **kwargs):
        if kwargs:
            tr.err(node, f"thrust.{name} does not take {sorted(kwargs)} (no custom operators)")
        _policy(tr, node, name, args[0] if args else None)
        if len(args) < 3:
            tr.err(node, f"thrust.{name} takes (policy, first, last, ...)")
        policy, first, last, *rest = args
        it = _iter(tr, node, name, first, "first")
        _iter(tr, node, name, last, "last")
        _same(tr, node, name, first, last)
        if len(rest) != extra_iters + nvalues:
            tr.err(node, f"thrust.{name} takes {2 + extra_iters + nvalues} arguments after the "
                         f"policy, got {2 + len(rest)}")
        iters = list(rest[:extra_iters])
        others = [_iter(tr, node, name, v, "an output or second range") for v in iters]
        vals = [_value(tr, node, v, it.dtype) for v in rest[extra_iters:]]
        args = [first.code, last.code] + [v.code for v in iters] + vals
        rtype = {"void": None, "first": it, "bool": BOOL, "count": INT32,
                 "out": others[-1] if others else it, "value": it.dtype}[ret]
        return _call(tr, name, args, rtype)
    return _Func(f"thrust.{name}", emit, f"thrust::{name} over iterators, run by the calling "
                                          f"thread.")


def _reduce(tr, node, policy, first, last, init=None):
    _policy(tr, node, "reduce", policy)
    it = _iter(tr, node, "reduce", first, "first")
    _same(tr, node, "reduce", first, last)
    if init is None:
        return _call(tr, "reduce", [first.code, last.code, f"({_dt.ctype(it.dtype)})0"], it.dtype)
    t = strong(type_of(init)) if type_of(init) is not None else None
    if t is None:
        tr.err(node, "thrust.reduce's init must be a number")
    return _call(tr, "reduce", [first.code, last.code, tr.cast(init, t, node)], t)


def _inner_product(tr, node, policy, first1, last1, first2, init):
    _policy(tr, node, "inner_product", policy)
    _iter(tr, node, "inner_product", first1, "first1")
    _same(tr, node, "inner_product", first1, last1)
    _iter(tr, node, "inner_product", first2, "first2")
    t = strong(type_of(init)) if type_of(init) is not None else None
    if t is None:
        tr.err(node, "thrust.inner_product's init must be a number")
    return _call(tr, "inner_product", [first1.code, last1.code, first2.code,
                                       tr.cast(init, t, node)], t)


def _scan(exclusive):
    name = "exclusive_scan" if exclusive else "inclusive_scan"

    def emit(tr, node, policy, first, last, result, init=None):
        _policy(tr, node, name, policy)
        _iter(tr, node, name, first, "first")
        _same(tr, node, name, first, last)
        out = _iter(tr, node, name, result, "result")
        args = [first.code, last.code, result.code]
        if exclusive:
            args.append("0" if init is None else _value(tr, node, init, out.dtype))
        elif init is not None:
            tr.err(node, "thrust.inclusive_scan takes no init")
        return _call(tr, name, args, out)
    return _Func(f"thrust.{name}", emit, f"thrust::{name} over iterators, run by the calling "
                                          f"thread.")


def _search(name, ret):
    def emit(tr, node, policy, first, last, *args):
        _policy(tr, node, name, policy)
        it = _iter(tr, node, name, first, "first")
        _same(tr, node, name, first, last)
        if len(args) == 1:
            v = _value(tr, node, args[0], it.dtype)
            return _call(tr, name, [first.code, last.code, v], BOOL if ret == "bool" else it)
        if len(args) == 3:  # the vector form: one answer per value in [vfirst, vlast)
            vf, vl, res = args
            _iter(tr, node, name, vf, "values_first")
            _same(tr, node, name, vf, vl)
            out = _iter(tr, node, name, res, "result")
            k = tr.fresh("_jts")
            one = f"_jit_thrust_{name}({first.code}, {last.code}, {vf.code}[{k}])"
            if ret != "bool":
                one = f"({one} - {first.code})"
            tr.gen.add(_ITER_CODE)
            tr.gen.add(CODE)
            tr.pending.append(f"for (long long {k} = 0; {k} < ({vl.code} - {vf.code}); ++{k}) "
                              f"{res.code}[{k}] = ({_dt.ctype(out.dtype)})({one});")
            return Expr(f"({res.code} + ({vl.code} - {vf.code}))", out)
        tr.err(node, f"thrust.{name} takes (policy, first, last, value) or (policy, first, "
                     f"last, values_first, values_last, result); custom comparisons are not "
                     f"supported")
    return _Func(f"thrust.{name}", emit, f"thrust::{name}, run by the calling thread.")


def _sequence(tr, node, policy, first, last, init=None, step=None):
    _policy(tr, node, "sequence", policy)
    it = _iter(tr, node, "sequence", first, "first")
    _same(tr, node, "sequence", first, last)
    a = "0" if init is None else _value(tr, node, init, it.dtype)
    b = "1" if step is None else _value(tr, node, step, it.dtype)
    c = _dt.ctype(it.dtype)
    return _call(tr, "sequence", [first.code, last.code, f"({c})({a})", f"({c})({b})"], None)


def _by_key(name, fname):
    def emit(tr, node, policy, keys_first, keys_last, values_first):
        _policy(tr, node, name, policy)
        _iter(tr, node, name, keys_first, "keys_first")
        _same(tr, node, name, keys_first, keys_last)
        _iter(tr, node, name, values_first, "values_first")
        return _call(tr, fname, [keys_first.code, keys_last.code, values_first.code], None)
    return _Func(f"thrust.{name}", emit, f"thrust::{name}, run by the calling thread (stable).")


def _gather(tr, node, policy, map_first, map_last, input_first, result):
    _policy(tr, node, "gather", policy)
    m = _iter(tr, node, "gather", map_first, "map_first")
    _same(tr, node, "gather", map_first, map_last)
    if m.dtype.kind not in "iu":
        tr.err(node, "thrust.gather's map must hold integers")
    _iter(tr, node, "gather", input_first, "input_first")
    out = _iter(tr, node, "gather", result, "result")
    return _call(tr, "gather", [map_first.code, map_last.code, input_first.code, result.code],
                 out)


def _scatter(tr, node, policy, first, last, map_first, result):
    _policy(tr, node, "scatter", policy)
    _iter(tr, node, "scatter", first, "first")
    _same(tr, node, "scatter", first, last)
    m = _iter(tr, node, "scatter", map_first, "map")
    if m.dtype.kind not in "iu":
        tr.err(node, "thrust.scatter's map must hold integers")
    _iter(tr, node, "scatter", result, "result")
    return _call(tr, "scatter", [first.code, last.code, map_first.code, result.code], None)


sort = _range_fn("sort", 0, "void")
stable_sort = _range_fn("stable_sort", 0, "void")
sort_by_key = _by_key("sort_by_key", "sort_by_key")
stable_sort_by_key = _by_key("stable_sort_by_key", "sort_by_key")
reduce = _Func("thrust.reduce", _reduce, "thrust::reduce (a sum), run by the calling thread.")
count = _range_fn("count", 1, "count")
fill = _range_fn("fill", 1, "void")
copy = _range_fn("copy", 0, "out", extra_iters=1)
find = _range_fn("find", 1, "first")
equal = _range_fn("equal", 0, "bool", extra_iters=1)
inner_product = _Func("thrust.inner_product", _inner_product,
                      "thrust::inner_product, run by the calling thread.")
inclusive_scan = _scan(False)
exclusive_scan = _scan(True)
adjacent_difference = _range_fn("adjacent_difference", 0, "out", extra_iters=1)
is_sorted_until = _range_fn("is_sorted_until", 0, "first")
lower_bound = _search("lower_bound", "iter")
upper_bound = _search("upper_bound", "iter")
binary_search = _search("binary_search", "bool")
gather = _Func("thrust.gather", _gather, "thrust::gather, run by the calling thread.")
scatter = _Func("thrust.scatter", _scatter, "thrust::scatter, run by the calling thread.")
sequence = _Func("thrust.sequence", _sequence, "thrust::sequence, run by the calling thread.")
replace = _range_fn("replace", 2, "void")
replace_copy = _range_fn("replace_copy", 2, "out", extra_iters=1)
remove = _range_fn("remove", 1, "first")
remove_copy = _range_fn("remove_copy", 1, "out", extra_iters=1)
reverse = _range_fn("reverse", 0, "void")
reverse_copy = _range_fn("reverse_copy", 0, "out", extra_iters=1)
swap_ranges = _range_fn("swap_ranges", 0, "out", extra_iters=1)
unique = _range_fn("unique", 0, "first")


def _make_iterator(name, template, cls):
    def emit(tr, node, x, i=None):
        t = type_of(x)
        if t is None:
            tr.err(node, f"thrust.{name} takes a number")
        dt = strong(t)
        v = tr.cast(x, dt, node)
        tr.gen.add(_ITER_CODE)
        tr.gen.add(CODE)
        if cls is _ConstIter:
            start = "0" if i is None else tr.cast(i, numpy.dtype(numpy.int64), node)
            return Expr(f"{template}<{_dt.ctype(dt)}>{{{v}, {start}}}", cls(dt))
        if i is not None:
            tr.err(node, f"thrust.{name} takes one value")
        return Expr(f"{template}<{_dt.ctype(dt)}>{{{v}}}", cls(dt))
    return _Func(f"thrust.{name}", emit, f"thrust::{name}.")


def _mismatch(tr, node, policy, first1, last1, first2):
    _policy(tr, node, "mismatch", policy)
    a = _iter(tr, node, "mismatch", first1, "first1")
    _same(tr, node, "mismatch", first1, last1)
    b = _iter(tr, node, "mismatch", first2, "first2")
    return Tuple(_temps(tr, "_jit_thrust_mismatch", [first1.code, last1.code, first2.code],
                        [a, b]))


def _equal_range(tr, node, policy, first, last, value):
    lo = lower_bound._emit(tr, node, policy, first, last, value)
    hi = upper_bound._emit(tr, node, policy, first, last, value)
    return Tuple([lo, hi])


def _scan_by_key(exclusive):
    name = "exclusive_scan_by_key" if exclusive else "inclusive_scan_by_key"

    def emit(tr, node, policy, first1, last1, first2, result, init=None):
        _policy(tr, node, name, policy)
        _iter(tr, node, name, first1, "first1")
        _same(tr, node, name, first1, last1)
        _iter(tr, node, name, first2, "first2")
        out = _out(tr, node, name, result, "result")
        args = [first1.code, last1.code, first2.code, result.code]
        if exclusive:
            args.append("0" if init is None else _value(tr, node, init, out.dtype))
        elif init is not None:
            tr.err(node, "thrust.inclusive_scan_by_key takes no init")
        return _call(tr, name, args, out)
    return _Func(f"thrust.{name}", emit, f"thrust::{name}, run by the calling thread.")


def _reduce_by_key(tr, node, policy, keys_first, keys_last, values_first, keys_output,
                   values_output):
    name = "reduce_by_key"
    _policy(tr, node, name, policy)
    _iter(tr, node, name, keys_first, "keys_first")
    _same(tr, node, name, keys_first, keys_last)
    _iter(tr, node, name, values_first, "values_first")
    ko = _out(tr, node, name, keys_output, "keys_output")
    vo = _out(tr, node, name, values_output, "values_output")
    return Tuple(_temps(tr, "_jit_thrust_reduce_by_key",
                        [keys_first.code, keys_last.code, values_first.code, keys_output.code,
                         values_output.code], [ko, vo]))


def _unique_by_key(tr, node, policy, keys_first, keys_last, values_first):
    name = "unique_by_key"
    _policy(tr, node, name, policy)
    k = _out(tr, node, name, keys_first, "keys_first")
    _same(tr, node, name, keys_first, keys_last)
    v = _out(tr, node, name, values_first, "values_first")
    return Tuple(_temps(tr, "_jit_thrust_unique_by_key",
                        [keys_first.code, keys_last.code, values_first.code], [k, v]))


_SETS = {"set_difference": 1, "set_intersection": 2, "set_symmetric_difference": 5,
         "set_union": 7}


def _set_op(name):
    w = _SETS[name]

    def emit(tr, node, policy, first1, last1, first2, last2, result):
        _policy(tr, node, name, policy)
        _iter(tr, node, name, first1, "first1")
        _same(tr, node, name, first1, last1)
        _iter(tr, node, name, first2, "first2")
        _same(tr, node, name, first2, last2)
        out = _out(tr, node, name, result, "result")
        r = result.code
        end, _ = _temps(tr, f"_jit_set_op<{w}, false>",
                        [first1.code, last1.code, first2.code, last2.code, r, r, r, r],
                        [out, out])
        return end
    return _Func(f"thrust.{name}", emit, f"thrust::{name} of sorted ranges, run by the calling "
                                          f"thread.")


def _set_op_by_key(name):
    w = _SETS[name]

    def emit(tr, node, policy, keys_first1, keys_last1, keys_first2, keys_last2, *rest):
        n = f"{name}_by_key"
        _policy(tr, node, n, policy)
        _iter(tr, node, n, keys_first1, "keys_first1")
        _same(tr, node, n, keys_first1, keys_last1)
        _iter(tr, node, n, keys_first2, "keys_first2")
        _same(tr, node, n, keys_first2, keys_last2)
        if name == "set_intersection":  # values come from the first range only
            if len(rest) != 3:
                tr.err(node, f"thrust.{n} takes (policy, keys_first1, keys_last1, keys_first2, "
                             f"keys_last2, values_first1, keys_result, values_result)")
            values_first1, keys_result, values_result = rest
            values_first2 = values_first1
        else:
            if len(rest) != 4:
                tr.err(node, f"thrust.{n} takes (policy, keys_first1, keys_last1, keys_first2, "
                             f"keys_last2, values_first1, values_first2, keys_result, "
                             f"values_result)")
            values_first1, values_first2, keys_result, values_result = rest
        _iter(tr, node, n, values_first1, "values_first1")
        _iter(tr, node, n, values_first2, "values_first2")
        ko = _out(tr, node, n, keys_result, "keys_result")
        vo = _out(tr, node, n, values_result, "values_result")
        return Tuple(_temps(tr, f"_jit_set_op<{w}, true>",
                            [keys_first1.code, keys_last1.code, keys_first2.code,
                             keys_last2.code, keys_result.code, values_first1.code,
                             values_first2.code, values_result.code], [ko, vo]))
    return _Func(f"thrust.{name}_by_key", emit,
                 f"thrust::{name}_by_key of sorted ranges, run by the calling thread.")


make_constant_iterator = _make_iterator("make_constant_iterator", "_jit_const_iter", _ConstIter)
make_counting_iterator = _make_iterator("make_counting_iterator", "_jit_count_iter", _CountIter)
mismatch = _Func("thrust.mismatch", _mismatch, "thrust::mismatch, run by the calling thread.")
equal_range = _Func("thrust.equal_range", _equal_range,
                    "thrust::equal_range (lower and upper bound), run by the calling thread.")
inclusive_scan_by_key = _scan_by_key(False)
exclusive_scan_by_key = _scan_by_key(True)
reduce_by_key = _Func("thrust.reduce_by_key", _reduce_by_key,
                      "thrust::reduce_by_key (sums of runs of equal keys), run by the calling "
                      "thread.")
unique_by_key = _Func("thrust.unique_by_key", _unique_by_key,
                      "thrust::unique_by_key, run by the calling thread.")
set_difference = _set_op("set_difference")
set_intersection = _set_op("set_intersection")
set_symmetric_difference = _set_op("set_symmetric_difference")
set_union = _set_op("set_union")
set_difference_by_key = _set_op_by_key("set_difference")
set_intersection_by_key = _set_op_by_key("set_intersection")
set_symmetric_difference_by_key = _set_op_by_key("set_symmetric_difference")
set_union_by_key = _set_op_by_key("set_union")


def _is_sorted(tr, node, policy, first, last):
    r = is_sorted_until._emit(tr, node, policy, first, last)
    return Expr(f"({r.code} == {last.code})", BOOL)


is_sorted = _Func("thrust.is_sorted", _is_sorted, "thrust::is_sorted, run by the calling thread.")

__all__ = ["host", "device", "seq", "sort", "stable_sort", "sort_by_key", "stable_sort_by_key",
           "reduce", "count", "fill", "copy", "find", "equal", "inner_product", "inclusive_scan",
           "exclusive_scan", "adjacent_difference", "is_sorted", "is_sorted_until",
           "lower_bound", "upper_bound", "binary_search", "gather", "scatter", "sequence",
           "replace", "replace_copy", "remove", "remove_copy", "reverse", "reverse_copy",
           "swap_ranges", "unique", "make_constant_iterator", "make_counting_iterator",
           "mismatch", "equal_range", "inclusive_scan_by_key", "exclusive_scan_by_key",
           "reduce_by_key", "unique_by_key", "set_difference", "set_intersection",
           "set_symmetric_difference", "set_union", "set_difference_by_key",
           "set_intersection_by_key", "set_symmetric_difference_by_key", "set_union_by_key"]
