"""einsum (cuarray version of `numpy.einsum`).

The subscripts are parsed and planned on the host (pure Python, cached). Each operand
first becomes a strided view that takes repeated labels as diagonals and drops size-1
axes broadcast against other operands; labels no one else needs are summed away; then
operands are contracted pairwise, in the order `numpy.einsum_path` picks for
`optimize`, each contraction being one batched GEMM (batch, left, contracted) @
(batch, contracted, right) through matmul.
"""
import functools
import string

import numpy

import cuarray
from cuarray.linalg._products import matmul_nd
from cuarray.linalg._util import as_array, prod

_LETTERS = frozenset(string.ascii_letters)


class Parsed:
    """Labels per operand and for the output; the dims an ellipsis stands for are labelled
    0..E-1 (ints), right-aligned across operands as broadcasting aligns them."""

    __slots__ = ("inputs", "output", "subscripts")

    def __init__(self, inputs, output, subscripts):
        self.inputs, self.output, self.subscripts = inputs, output, subscripts


def _sublist_to_str(sub):
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        else:
            s = int(s)
            if not 0 <= s < 52:
                raise ValueError(f"subscript is not within the valid range [0, 52): {s}")
            out.append(chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26))
    return "".join(out)


def split_operands(args):
    """(subscripts string, operands) from either of einsum's calling conventions."""
    if not args:
        raise ValueError("must specify the einstein sum subscripts string and at least one "
                         "operand, or at least one operand and its corresponding subscripts list")
    if isinstance(args[0], str):
        return args[0], list(args[1:])
    ops, subs = list(args[0::2]), [_sublist_to_str(s) for s in args[1::2]]
    out = None
    if len(args) % 2 == 1:
        out = _sublist_to_str(args[-1])
        ops = ops[:-1]
    s = ",".join(subs) + ("" if out is None else "->" + out)
    return s, ops


def _labels(term, where):
    """Labels of one term, with None where '...' stands."""
    out = []
    i = 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "...":
                raise ValueError("einstein sum subscripts string contains a '.' that is not "
                                 "part of an ellipsis ('...')" + where)
            if None in out:
                raise ValueError("einstein sum subscripts string contains more than one "
                                 "ellipsis ('...')" + where)
            out.append(None)
            i += 3
            continue
        if c not in _LETTERS:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             f"subscripts must be letters")
        out.append(c)
        i += 1
    return out


@functools.lru_cache(maxsize=1024)
def parse(subscripts, ndims):
    """Parse `subscripts` for operands of the given numbers of dimensions."""
    s = "".join(subscripts.split())
    if "->" in s:
        lhs, rhs = s.split("->", 1)
        if "->" in rhs or "-" in rhs or ">" in rhs:
            raise ValueError("einstein sum subscript string does not contain proper '->' "
                             "output specified")
    else:
        if "-" in s or ">" in s:
            raise ValueError("einstein sum subscript string does not contain proper '->' "
                             "output specified")
        lhs, rhs = s, None
    terms = lhs.split(",")
    # NumPy's wording, which counts from the subscripts' side.
    if len(terms) > len(ndims):
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if len(terms) < len(ndims):
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    raw = [_labels(t, f" in operand {i}") for i, t in enumerate(terms)]
    ell = []
    for i, (labels, nd) in enumerate(zip(raw, ndims)):
        named = len(labels) - (None in labels)
        if None in labels:
            if named > nd:
                raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                                 f"for operand {i}")
            ell.append(nd - named)
        else:
            if named > nd:
                raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                                 f"for operand {i}")
            if named < nd:
                raise ValueError("operand has more dimensions than subscripts given in einstein "
                                 "sum, but no '...' ellipsis provided to broadcast the extra "
                                 "dimensions.")
            ell.append(0)
    n_ell = max(ell, default=0)
    inputs = []
    for labels, e in zip(raw, ell):
        expanded = []
        for c in labels:
            expanded.extend(range(n_ell - e, n_ell) if c is None else [c])
        inputs.append(tuple(expanded))
    if rhs is None:
        counts = {}
        for labels in inputs:
            for c in labels:
                if isinstance(c, str):
                    counts[c] = counts.get(c, 0) + 1
        output = tuple(range(n_ell)) + tuple(sorted(c for c, n in counts.items() if n == 1))
    else:
        out_labels = _labels(rhs, " in the output")
        seen = set()
        for c in out_labels:
            if c is None:
                continue
            if c in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript "
                                 f"'{c}' multiple times")
            seen.add(c)
            if not any(c in labels for labels in inputs):
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{c}' which never appeared in an input")
        if None not in out_labels and n_ell > 0:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, "
                             "but no '...' ellipsis provided to broadcast the extra dimensions.")
        output = []
        for c in out_labels:
            output.extend(range(n_ell) if c is None else [c])
        output = tuple(output)
    return Parsed(tuple(inputs), output, s)


def label_sizes(parsed, shapes):
    """Size of every label after broadcasting; ValueError where operands disagree."""
    sizes = {}
    for i, (labels, shape) in enumerate(zip(parsed.inputs, shapes)):
        own = {}
        for c, n in zip(labels, shape):
            if c in own and own[c] != n:
                raise ValueError(f"dimensions in operand {i} for collapsing index '{c}' don't "
                                 f"match ({own[c]} != {n})")
            own[c] = n
        for c, n in own.items():
            m = sizes.get(c, 1)
            if n != 1 and m != 1 and n != m:
                raise ValueError(f"operands could not be broadcast together: einstein sum "
                                 f"subscript {_show(c)} has sizes {m} and {n}")
            sizes[c] = max(m, n) if n != 1 and m != 1 else (n if m == 1 else m)
    return sizes


def _show(c):
    return f"'{c}'" if isinstance(c, str) else "'...'"


def operand_view_plan(labels, shape, sizes):
    """For one operand: (new labels, axis groups) giving its diagonal/broadcast-free view.

    Each kept label takes the axes it labels (several for a diagonal); size-1 axes whose
    label is larger elsewhere are dropped (they broadcast).
    """
    new, groups = [], []
    for ax, (c, n) in enumerate(zip(labels, shape)):
        if n == 1 and sizes[c] != 1:
            continue
        if c in new:
            groups[new.index(c)].append(ax)
        else:
            new.append(c)
            groups.append([ax])
    return tuple(new), tuple(tuple(g) for g in groups)


def contraction_path(parsed, shapes, optimize):
    """Pairs of operand positions to contract, NumPy's convention (the result of each
    step is appended to the end of the operand list)."""
    n = len(parsed.inputs)
    if n == 1:
        return []
    if n == 2:
        return [(0, 1)]
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return [tuple(p) for p in optimize[1:]]
    if optimize is False or optimize is None:
        return [(0, 1)] + [(0, n - 2 - i) for i in range(n - 2)]
    mode = "greedy" if optimize is True else optimize
    if mode not in ("greedy", "optimal"):
        raise TypeError(f"Did not understand the path (optimize): {optimize!r}")
    dummies = [numpy.broadcast_to(numpy.empty((), numpy.float64), s) for s in shapes]
    path, _ = numpy.einsum_path(parsed.subscripts, *dummies, optimize=mode)
    return [tuple(p) for p in path[1:]]


@functools.lru_cache(maxsize=1024)
def plan(subscripts, shapes, optimize_key):
    """Everything about an einsum call that depends only on the host-side inputs."""
    optimize = optimize_key if not isinstance(optimize_key, tuple) else list(optimize_key)
    parsed = parse(subscripts, tuple(len(s) for s in shapes))
    sizes = label_sizes(parsed, shapes)
    views = [operand_view_plan(l, s, sizes) for l, s in zip(parsed.inputs, shapes)]
    path = contraction_path(parsed, shapes, optimize)
    return parsed, sizes, views, path


def _view(x, groups):
    if len(groups) == x.ndim and all(len(g) == 1 and g[0] == i for i, g in enumerate(groups)):
        return x
    shape = tuple(x.shape[g[0]] for g in groups)
    strides = tuple(sum(x.strides[a] for a in g) for g in groups)
    return cuarray.ndarray(shape, x.dtype, memptr=x.data, strides=strides)


def _cast(x, dt, keep_view):
    return x if keep_view and x.dtype == dt else x.astype(dt, copy=False)


def _sum_away(x, labels, needed):
    """Sum the axes whose labels are not in `needed`, in x's dtype (NumPy's einsum)."""
    axes = tuple(i for i, c in enumerate(labels) if c not in needed)
    if not axes:
        return x, labels
    x = cuarray.sum(x, axis=axes, dtype=x.dtype)
    return x, tuple(c for c in labels if c in needed)


def _contract(x, lx, y, ly, keep, sizes, dtype):
    x, lx = _sum_away(x, lx, keep | set(ly))
    y, ly = _sum_away(y, ly, keep | set(lx))
    batch = [c for c in lx if c in ly and c in keep]
    inner = [c for c in lx if c in ly and c not in keep]
    left = [c for c in lx if c not in ly]
    right = [c for c in ly if c not in lx]
    size = lambda cs: prod(sizes[c] for c in cs)  # noqa: E731
    xt = x.transpose([lx.index(c) for c in batch + left + inner])
    yt = y.transpose([ly.index(c) for c in batch + inner + right])
    xt = xt.reshape(size(batch), size(left), size(inner))
    yt = yt.reshape(size(batch), size(inner), size(right))
    z = matmul_nd(xt, yt, dtype)
    labels = tuple(batch + left + right)
    return z.reshape(tuple(sizes[c] for c in labels)), labels


def compute_dtype(op_dtypes, dtype, out_dtype, casting):
    """The dtype einsum computes in, as NumPy's C einsum picks it: `dtype`, else the common
    dtype of the operands and `out` (so float32 operands summed into a float64 `out` are
    summed in float64). Operands are cast to it, and `out` both read from and written
    from it, under `casting`; TypeError otherwise, before any work is done."""
    if dtype is None:
        dt = numpy.result_type(*op_dtypes, *(() if out_dtype is None else (out_dtype,)))
    else:
        dt = numpy.dtype(dtype)
    casts = [(d, dt, f"operand {i}") for i, d in enumerate(op_dtypes)]
    if out_dtype is not None:
        casts += [(out_dtype, dt, "the output"), (dt, out_dtype, "the output")]
    for src, dst, what in casts:
        if not numpy.can_cast(src, dst, casting):
            raise TypeError(f"einsum: cannot cast {what} from {src!r} to {dst!r} according to "
                            f"the rule '{casting}'")
    return dt


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Evaluate the Einstein summation convention (cuarray version of `numpy.einsum`).

    Takes NumPy's subscripts (ellipsis, repeated labels as diagonals, implicit output)
    and both calling conventions. `optimize` (False, True, 'greedy', 'optimal' or an
    explicit ['einsum_path', ...] list) picks the pairwise contraction order, each
    contraction being one batched GEMM. Like NumPy, results that need no arithmetic
    (a transpose, a diagonal) are views; `order='C'`/`'F'` asks for a contiguous result.
    Without `dtype`, an `out` joins the operands in setting the computation dtype, as in
    NumPy's C einsum, whatever `optimize` is (NumPy's BLAS path computes in the operands').
    """
    subscripts, ops = split_operands(operands)
    ops = [as_array(x, "einsum") for x in ops]
    if not ops:
        raise ValueError("No input operands")
    if out is not None:
        out = as_array(out, "einsum")
    dt = compute_dtype([x.dtype for x in ops], dtype, None if out is None else out.dtype, casting)
    key = tuple(optimize) if isinstance(optimize, list) else optimize
    parsed, sizes, views, path = plan(subscripts, tuple(x.shape for x in ops), key)
    output = parsed.output
    # One operand needing no cast stays a view ('ii->i', 'ij->ji'), as NumPy's; operands of a
    # contraction are laid out as before (astype's copy of a strided diagonal view).
    single = len(ops) == 1
    cur = [(_cast(_view(x, groups), dt, single), labels) for x, (labels, groups) in zip(ops, views)]
    # Sum, in each operand, the labels no other operand and not the output needs.
    for i, (x, labels) in enumerate(cur):
        others = set(output)
        for j, (_, lj) in enumerate(cur):
            if j != i:
                others.update(lj)
        cur[i] = _sum_away(x, labels, others)
    for step in path:
        group = sorted(step, reverse=True)
        taken = [cur.pop(i) for i in group][::-1]
        while len(taken) > 1:
            (x, lx), (y, ly) = taken[0], taken[1]
            keep = set(output)
            for _, l in cur + taken[2:]:
                keep.update(l)
            taken = [_contract(x, lx, y, ly, keep, sizes, dt)] + taken[2:]
        cur.append(taken[0])
    if len(cur) != 1:
        raise ValueError(f"einsum: the contraction path {optimize!r} leaves {len(cur)} operands")
    (x, labels), = cur
    x, labels = _sum_away(x, labels, set(output))
    result = x.transpose([labels.index(c) for c in output]) if labels != output else x
    if out is not None:
        if out.shape != result.shape:
            raise ValueError(f"einsum: output array has shape {out.shape}, the result has "
                             f"shape {result.shape}")
        cuarray.copyto(out, result, casting=casting)
        return out
    if order in ("C", "c"):
        return cuarray.ascontiguousarray(result)
    if order in ("F", "f"):
        return cuarray.asfortranarray(result)
    return result
