"""The one reduction engine: sum, prod, min/max, argmin/argmax, mean/var, all/any and
ReductionKernel lower to `ReduceOp.launch`.

The input is viewed as (kept axes K) x (reduced axes R), each collapsed to as few
axes as the strides allow. Two kernel shapes:
- "row": the reduced axis is the fastest in memory: a block per output, threads
  stride along the row (coalesced), then a shared-memory tree;
- "col": otherwise: 32 consecutive outputs per block (coalesced across threads),
  8 thread rows splitting the reduced range, then a tree over those 8.
When there are too few outputs to fill the GPU, the reduced range is split into S
chunks whose partial accumulators go to scratch memory, and a second kernel combines them.
"""

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import _SCALAR_KIND, _sm_count
from cuarray._core.ndarray import ndarray
from cuarray._core.shapes import broadcast_shapes, broadcast_strides, collapse_dims
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context
from cuarray._runtime.peer import check_same_device
from cuarray._runtime.launch import ArgPacker, LaunchPlan
from cuarray._runtime import memory as _memory

_INT32_MAX = 2**31 - 1
_ACC_BYTES = 32  # room for any accumulator cuarray builds (value + index pairs included)

_PRELUDE = r"""
#include <cuarray/core.cuh>
"""


class RParam:
    __slots__ = ("name", "role", "dtype", "ctype")

    def __init__(self, name, role, dtype):
        self.name, self.role, self.dtype = name, role, dtype
        self.ctype = _dt.ctype(dtype)


class ReduceOp:
    """A reduction: `a = identity; a = reduce(a, map(x...)) over R; post_map(a) -> outputs`.

    reduce_expr is an expression of `a` and `b`; map_expr an expression of the inputs
    (and `_j`, the index within the reduced range); post_map_expr statements that set the
    outputs from `a` (and `_n`, the number of reduced elements).
    """

    def __init__(self, name, params, map_expr, reduce_expr, post_map_expr, identity, acc_type,
                 preamble="", options=(), acc_bytes=None, late_preamble="", step_expr=None,
                 unroll=4):
        self.name = c_identifier(name)
        self.params = tuple(params)
        # the C fragments, in the order they run, and the accumulator's start and type
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.acc_type = identity, acc_type
        self.preamble = preamble
        self.late_preamble = late_preamble  # code that needs type_reduce
        # Optional cheaper combine for a thread's own sequential elements, where `b`
        # always comes after `a` in the reduced order (argmax: no index tie-break needed).
        self.step_expr = step_expr
        self.options = tuple(options)
        self.acc_bytes = acc_bytes or _ACC_BYTES
        # elements each thread loads before it combines them (loads in flight per thread)
        self.unroll = unroll
        self._kernels = {}
        self._plans = {}

    def launch(self, args, axes, full_shape=None):
        """args: one per param (inputs shaped like the full array, outputs shaped like the kept
        axes in order, scalars as NumPy scalars); axes: the reduced axes of the full shape.

        The launch plan (collapsed axes, strategy, kernel, argument template) is cached per
        layout, so a warm call only fills in pointers and scalars. Returns the plan it ran
        (None when there are no outputs to write), which callers may `bind` for a warm path.
        """
        dev = ensure_context()
        key = [axes, full_shape]
        for p, a in zip(self.params, args):
            if p.role != "scalar":
                if a._device_id != dev:
                    check_same_device([a], dev)
                key.append(a._shape)
                key.append(a._strides)
                key.append(a.dtype.char)
        key = tuple(key)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._plan(args, axes, full_shape)
            if len(self._plans) > 256:
                self._plans.pop(next(iter(self._plans)))
        if plan is not None:
            plan.run(args)
        return plan

    def _plan(self, args, axes, full_shape):
        ins = [a for p, a in zip(self.params, args) if p.role == "in"]
        outs = [a for p, a in zip(self.params, args) if p.role == "out"]
        shape = full_shape
        if shape is None:
            shape = ins[0]._shape
            for a in ins[1:]:
                if a._shape != shape:
                    shape = broadcast_shapes(*[x._shape for x in ins])
                    break
        keep = [d for d in range(len(shape)) if d not in axes]
        kshape = tuple(shape[d] for d in keep)
        M = 1
        for s in kshape:
            M *= s
        N = 1
        for d in axes:
            N *= shape[d]
        if M == 0:
            return None
        in_strides = [a._strides if a._shape == shape else broadcast_strides(a._shape, a._strides, shape)
                      for a in ins]
        out_strides = [o._strides for o in outs]
        # K axes: order by the first output's strides, merge where every operand is contiguous.
        kst = [[st[d] for d in keep] for st in in_strides] + [list(st) for st in out_strides]
        kdims, kst = _collapse(kshape, kst, len(ins))
        rdims_shape = tuple(shape[d] for d in axes)
        rst = [[st[d] for d in axes] for st in in_strides]
        rdims, rst = _collapse(rdims_shape, rst, 0)
        nk, nr = len(kdims), len(rdims)
        itemsize = ins[0].dtype.itemsize if ins else 1
        row = nr > 0 and N >= 64 and abs(rst[0][-1]) == itemsize
        if row:
            block = 256 if N >= 256 else (128 if N >= 128 else 64)
            grid_x = min(M, _sm_count() * 32)
            per_block = 4 * block
            S = 1
            if M < 2 * _sm_count() * 4:
                S = min(max(1, (_sm_count() * 8) // M), max(1, N // per_block), 1024)
        else:
            block = 256
            grid_x = (M + 31) // 32
            S = 1
            if grid_x < _sm_count() * 8:
                S = min(max(1, (_sm_count() * 8) // grid_x), max(1, N // 64), 1024)
        chunk = (N + S - 1) // S
        lim = max([sum((n - 1) * abs(s[d]) for d, n in enumerate(kdims)) +
                   sum((n - 1) * abs(s2[d]) for d, n in enumerate(rdims))
                   for s, s2 in zip(kst[:len(ins)], rst)] + [0])
        idx64 = M * max(N, 1) > _INT32_MAX - 4096 or lim > _INT32_MAX
        # Fewer than 32 outputs: the second pass gives each output a block of 256 threads
        # (see generate), not one of the eight thread rows of a 32-output column block.
        frow = S > 1 and M < 32
        key = (row, block, nk, nr, idx64, S > 1, frow,
               tuple([a.dtype.char for p, a in zip(self.params, args) if p.role in ("in", "out")]))
        entry = self._kernels.get(key)
        if entry is None:
            entry = self._kernels[key] = self._build(key, args, nk, nr, row, block, idx64, S > 1,
                                                     frow)
        fn, packer, fin, fpacker = entry
        # Argument templates: `fill` lists the slots filled per call from args[k] (a pointer
        # or a scalar); the partial buffer is allocated per call.
        vals, fill = [], []
        fvals, ffill = [], []
        k_in = k_out = 0
        for k, p in enumerate(self.params):
            if p.role == "in":
                fill.append((len(vals), k, False))
                vals.append(0)
                vals.extend(kst[k_in])
                vals.extend(rst[k_in])
                k_in += 1
            elif p.role == "out":
                fill.append((len(vals), k, False))
                ffill.append((len(fvals), k, False))
                vals.append(0)
                fvals.append(0)
                vals.extend(kst[len(ins) + k_out])
                fvals.extend(kst[len(ins) + k_out])
                k_out += 1
            else:
                cplx = p.dtype.kind == "c"
                fill.append((len(vals), k, cplx))
                ffill.append((len(fvals), k, cplx))
                vals += [0, 0] if cplx else [0]
                fvals += [0, 0] if cplx else [0]
        vals.extend(kdims)
        vals.extend(rdims)
        fvals.extend(kdims)
        partial_at = len(vals)
        vals += [0, M, N, chunk]
        fpartial_at = len(fvals)
        fvals += [0, M, S, N]
        if row:
            geom = ((grid_x, S, 1), (block, 1, 1))
        else:
            geom = ((grid_x, S, 1), (32, 8, 1))
        fgeom = ((M, 1, 1), (256, 1, 1)) if frow else (((M + 31) // 32, 1, 1), (32, 8, 1))
        return _Plan(fn, packer, vals, fill, geom, partial_at, S, M * S * self.acc_bytes,
                     fin, fpacker, fvals, ffill, fgeom, fpartial_at)

    def _build(self, key, args, nk, nr, row, block, idx64, split, frow=False):
        src, kinds, fkinds = generate(self, args, nk, nr, row, block, idx64, split, frow)
        mod = compile_module(src, self.options, name=self.name)
        fn = mod.get_function(self.name)
        fin = mod.get_function(self.name + "_final") if split else None
        return fn, ArgPacker(kinds), fin, (ArgPacker(fkinds) if split else None)


class _Plan:
    """A cached launch of one ReduceOp for one layout: the first kernel's LaunchPlan and,
    when the reduced range is split into S > 1 chunks, the second kernel's, each with its
    argument template; a call fills in pointers and scalars, and the partial buffer
    (allocated per call) when there is one."""

    __slots__ = ("first", "fill", "final", "ffill", "partial_bytes")

    def __init__(self, fn, packer, vals, fill, geom, partial_at, S, partial_bytes,
                 fin, fpacker, fvals, ffill, fgeom, fpartial_at):
        # fill / ffill: (position, argument index, complex) of the values a call gives
        self.fill, self.ffill = fill, ffill
        self.partial_bytes = partial_bytes if S > 1 else 0
        split = (partial_at,) if S > 1 else ()
        self.first = LaunchPlan(fn, packer, geom[0], geom[1], vals=vals,
                                slots=_slots(fill) + split)
        self.final = None
        if S > 1:
            self.final = LaunchPlan(fin, fpacker, fgeom[0], fgeom[1], vals=fvals,
                                    slots=_slots(ffill) + (fpartial_at,))

    def run(self, args):
        final = self.final
        _launch_pair(self.first, final, _values(self.fill, args),
                     final and _values(self.ffill, args), self.partial_bytes)

    def bind(self, args):
        """This launch with the scalars of `args` fixed (see _Bound)."""
        return _Bound(self, args)


def _slots(fill):
    """The template positions a call fills, in `_values` order (a complex scalar takes two)."""
    out = []
    for pos, k, cplx in fill:
        out.append(pos)
        if cplx:
            out.append(pos + 1)
    return tuple(out)


def _values(fill, args):
    """The values of `args` for the slots of `fill`: pointers of arrays, scalars as they are."""
    vals = []
    for pos, k, cplx in fill:
        a = args[k]
        if cplx:
            vals.append(a.real)
            vals.append(a.imag)
        else:
            vals.append(a._ptr if type(a) is ndarray else a)
    return vals


class _Bound:
    """A plan with its scalar arguments fixed: a warm call fills in only its arrays' pointers
    (and the partial buffer), so a reduction's warm path (`_reductions._Warm`) needs no
    per-call argument walk."""

    __slots__ = ("first", "final", "fidx", "partial_bytes")

    def __init__(self, plan, args):
        arrays = [k for k, a in enumerate(args) if type(a) is ndarray]
        self.partial_bytes = plan.partial_bytes
        self.first = _bound(plan.first, plan.fill, args, arrays, plan.final is not None)
        self.final = self.fidx = None
        if plan.final is not None:
            self.final = _bound(plan.final, plan.ffill, args, arrays, True)
            # the arrays the second kernel takes (the outputs), by index into run's `arrays`
            self.fidx = tuple(arrays.index(k) for _, k, _ in plan.ffill if k in arrays)

    def run(self, arrays):
        """Launch on `arrays`: the array arguments, in parameter order."""
        fill = []
        for a in arrays:   # (a loop: a list comprehension costs a function call)
            fill.append(a._ptr)
        final = self.final
        if final is None:
            self.first.launch(fill)
            return
        _launch_pair(self.first, final, fill, [arrays[i]._ptr for i in self.fidx],
                     self.partial_bytes)


def _launch_pair(first, final, fill, ffill, partial_bytes):
    """Launch `first` with the values `fill`, and when the reduced range is split (`final`
    not None) the partial buffer appended to both `fill` and `ffill`, then `final`."""
    if final is None:
        first.launch(fill)
        return
    partial = _memory.alloc(partial_bytes)
    fill.append(partial.ptr)
    first.launch(fill)
    ffill.append(partial.ptr)
    final.launch(ffill)


def _bound(lp, fill, args, arrays, split):
    """A copy of LaunchPlan `lp` whose template holds the scalars of `args`: its slots are
    the array pointers (in parameter order), then the partial buffer when `split`."""
    vals = list(lp.vals)
    for pos, v in zip(lp.slots, _values(fill, args)):
        vals[pos] = v
    slots = [pos for pos, k, _ in fill if k in arrays]
    if split:
        slots.append(lp.slots[-1])
    return LaunchPlan(lp.fn, lp.packer, lp.grid, lp.block, vals=vals, slots=slots)


def _collapse(shape, strides_list, ref_idx):
    """Drop size-1 axes, order by the reference operand's strides (largest first), merge
    axes contiguous in every operand. Returns (shape, [strides per operand])."""
    dims = list(range(len(shape)))
    if strides_list and ref_idx < len(strides_list):
        ref = strides_list[ref_idx]
        dims.sort(key=lambda d: -abs(ref[d]))
    return collapse_dims([shape[d] for d in dims], [[st[d] for d in dims] for st in strides_list])


def generate(op, args, nk, nr, row, block, idx64, split, frow=False):
    """CUDA source and argument kinds of the reduction kernel (and of its second pass
    `<name>_final` when `split`; `frow`: that pass reads each output's partials with a block
    of 256 threads, for fewer than 32 outputs)."""
    I = "long long" if idx64 else "int"
    ik = "q" if idx64 else "i"
    sig, kinds = [], []
    fsig, fkinds = [], []
    loads, stores = [], []
    for p, a in zip(op.params, args):
        if p.role == "in":
            S = _dt.ctype(a.dtype)
            k = len(loads)
            sig.append(f"const char* __restrict__ _p{k}" + "".join(f", const {I} _ks{k}_{d}" for d in range(nk))
                       + "".join(f", const {I} _rs{k}_{d}" for d in range(nr)))
            kinds += ["P"] + [ik] * (nk + nr)
            loads.append((p, S, k))
        elif p.role == "out":
            S = _dt.ctype(a.dtype)
            k = len(stores)
            decl = f"char* __restrict__ _q{k}" + "".join(f", const {I} _os{k}_{d}" for d in range(nk))
            sig.append(decl)
            fsig.append(decl)
            kinds += ["P"] + [ik] * nk
            fkinds += ["P"] + [ik] * nk
            stores.append((p, S, k))
        else:
            sig.append(f"const {p.ctype} {p.name}")
            fsig.append(f"const {p.ctype} {p.name}")
            kinds.append(_SCALAR_KIND[p.dtype.char])
            fkinds.append(_SCALAR_KIND[p.dtype.char])
    sig += [f"const {I} _kd{d}" for d in range(nk)] + [f"const {I} _rd{d}" for d in range(nr)]
    kinds += [ik] * (nk + nr)
    fsig += [f"const {I} _kd{d}" for d in range(nk)]
    fkinds += [ik] * nk
    sig += ["type_reduce* __restrict__ _partial", f"const {I} _M", f"const {I} _N", f"const {I} _chunk"]
    kinds += ["P", ik, ik, ik]
    fsig += ["const type_reduce* __restrict__ _partial", f"const {I} _M", f"const {I} _S", f"const {I} _N"]
    fkinds += ["P", ik, ik, ik]

    in_ids = [k for _, _, k in loads]
    out_ids = [k for _, _, k in stores]
    head = [_PRELUDE, op.preamble, f"typedef {op.acc_type} type_reduce;", op.late_preamble,
            "#define REDUCE(a, b) (" + op.reduce_expr + ")",
            "#define STEP(a, b) (" + (op.step_expr or op.reduce_expr) + ")"]
    load_lines = [f"const {p.ctype} {p.name} = cuarray_cast<{p.ctype}>(*(const {S}*)(_p{k} + _ko{k} + _ro{k}));"
                  for p, S, k in loads]

    def post(indent):
        out = [f"{indent}{{ const long long _n = _N; (void)_n;"]
        for p, S, k in stores:
            out.append(f"{indent}  {p.ctype} {p.name};")
        out.append(f"{indent}  {op.post_map_expr};")
        for p, S, k in stores:
            out.append(f"{indent}  *({S}*)(_q{k} + _oo{k}) = cuarray_cast<{S}>({p.name});")
        out.append(f"{indent}}}")
        return out

    def offsets(var, tmp, ndims, dim, ids, acc, stride):
        """Byte offsets of `ids` operands for a linear index `var` over `ndims` axes."""
        lines = [f"{I} {tmp} = {var};"] + [f"{I} {acc}{k} = 0;" for k in ids]
        for d in range(ndims - 1, -1, -1):
            if d:
                lines.append(f"{{ const {I} _c = {tmp} % {dim}{d}; {tmp} /= {dim}{d};" +
                             "".join(f" {acc}{k} += _c * {stride}{k}_{d};" for k in ids) + " }")
            else:
                lines.append("".join(f" {acc}{k} += {tmp} * {stride}{k}_0;" for k in ids))
        return lines

    def out_offsets(var):
        return offsets(var, "_t", nk, "_kd", out_ids, "_oo", "_os")

    def in_k_offsets(var):
        return offsets(var, "_t", nk, "_kd", in_ids, "_ko", "_ks")

    def in_r_offsets(var):
        return offsets(var, "_u", nr, "_rd", in_ids, "_ro", "_rs")

    body = [f'extern "C" __global__ void {op.name}({", ".join(sig)}) {{']
    body += _smem(block if row else 256, "threadIdx.y * blockDim.x + threadIdx.x")
    body.append(f"  const {I} _jbeg = ({I})blockIdx.y * _chunk;")
    body.append(f"  const {I} _jend = _jbeg + _chunk < _N ? _jbeg + _chunk : _N;")
    # the first pass stores its partial when the range is split, the output otherwise
    ind = "      " if row else "    "
    store = ([ind + "if (_partial) { _partial[(long long)blockIdx.y * _M + _m] = a; } else {"]
             + ["  " + ind + x for x in out_offsets("_m")] + post("  " + ind) + [ind + "}"])
    if row:
        body += _row_loop(I, op.identity, in_k_offsets("_m"),
                          _unrolled("_jbeg + threadIdx.x", f"{block}", I, in_r_offsets, load_lines, op),
                          block, store)
    else:
        body += _col_loop(I, op.identity, in_k_offsets("_m"),
                          _unrolled("_jbeg + threadIdx.y", "8", I, in_r_offsets, load_lines, op), store)
    body.append("}")
    if split:
        # Row: a few outputs, each with up to 1024 partials: 256 threads read them with
        # independent loads (a column block had 8 threads per output, 128 loads each).
        ind = "      " if frow else "    "
        store = [ind + x for x in out_offsets("_m")] + post(ind)
        body.append(f'extern "C" __global__ void {op.name}_final({", ".join(fsig)}) {{')
        if frow:
            body += _smem(256, "threadIdx.x")
            body += _row_loop(I, op.identity, [], [
                f"for ({I} _j = _tid; _j < _S; _j += 256) {{ type_reduce b = _partial[_j * _M + _m]; a = REDUCE(a, b); }}"],
                256, store)
        else:
            body += _smem(256, "threadIdx.y * blockDim.x + threadIdx.x")
            body += _col_loop(I, op.identity, [], [
                f"for ({I} _j = threadIdx.y; _j < _S; _j += 8) {{ type_reduce b = _partial[_j * _M + _m]; a = REDUCE(a, b); }}"],
                store)
        body.append("}")
    return "\n".join(head + body), kinds, fkinds


def _smem(n, tid):
    """The shared scratch of `n` accumulators and this thread's index `_tid` in it."""
    return [f"  __shared__ __align__(16) unsigned char _smem[{n} * sizeof(type_reduce)];",
            "  type_reduce* _s = reinterpret_cast<type_reduce*>(_smem);",
            f"  const int _tid = {tid};"]


def _row_loop(I, identity, head, loads, block, store):
    """A 1-D block per output `_m` (grid-strided): `head` and `loads` accumulate `a`, a tree
    of `block` threads combines, thread 0 runs `store`."""
    return ([f"  for ({I} _m = blockIdx.x; _m < _M; _m += gridDim.x) {{"]
            + ["    " + x for x in head] + [f"    type_reduce a = {identity};"]
            + ["    " + x for x in loads] + _row_tree("    ", block)
            + ["    if (_tid == 0) {", "      a = _s[0];"] + store
            + ["    }", "    __syncthreads();", "  }"])


def _col_loop(I, identity, head, loads, store):
    """32 outputs per block, 8 thread rows each: `head` and `loads` accumulate `a`, the rows
    combine, row 0 runs `store`."""
    return ([f"  const {I} _m = ({I})blockIdx.x * 32 + threadIdx.x;",
             f"  type_reduce a = {identity};", "  if (_m < _M) {"]
            + ["    " + x for x in head] + ["    " + x for x in loads] + ["  }"]
            + _col_tree("  ") + ["  if (threadIdx.y == 0 && _m < _M) {"] + store + ["  }"])


def _unrolled(start, step, I, r_offsets, load_lines, op):
    """The accumulation loop, `op.unroll` (default four) elements per step: that many
    independent loads in flight per thread (the reduce itself is a dependent chain)."""
    u = op.unroll
    out = [f"{I} _jb = {start};", f"for (; _jb + {u - 1} * {step} < _jend; _jb += {u} * {step}) {{",
           f"  type_reduce _b[{u}];", "  #pragma unroll", f"  for (int _q = 0; _q < {u}; ++_q) {{",
           f"    const {I} _j = _jb + _q * {step};"]
    out += ["    " + x for x in r_offsets("_j")]
    out += ["    " + x for x in load_lines]
    out += [f"    _b[_q] = {op.map_expr};", "  }",
            "  #pragma unroll", f"  for (int _q = 0; _q < {u}; ++_q) {{ type_reduce b = _b[_q]; a = STEP(a, b); }}", "}"]
    out += [f"for ({I} _j = _jb; _j < _jend; _j += {step}) {{"]
    out += ["  " + x for x in r_offsets("_j")]
    out += ["  " + x for x in load_lines]
    out += [f"  type_reduce b = {op.map_expr};", "  a = STEP(a, b);", "}"]
    return out


def _row_tree(indent, block):
    """Combine the `block` threads' accumulators `a` of a 1-D block into `_s[0]`."""
    out = [f"{indent}_s[_tid] = a;", f"{indent}__syncthreads();"]
    s = block // 2
    while s >= 1:
        out.append(f"{indent}if (_tid < {s}) {{ type_reduce b = _s[_tid + {s}]; a = _s[_tid]; _s[_tid] = REDUCE(a, b); }}")
        out.append(f"{indent}__syncthreads();" if s > 16 else f"{indent}__syncwarp();")
        s //= 2
    return out


def _col_tree(indent):
    out = [f"{indent}_s[_tid] = a;", f"{indent}__syncthreads();"]
    for s in (4, 2, 1):
        out.append(f"{indent}if (threadIdx.y < {s}) {{ type_reduce b = _s[_tid + {s} * 32]; a = _s[_tid]; _s[_tid] = REDUCE(a, b); }}")
        out.append(f"{indent}__syncthreads();")
    out.append(f"{indent}a = _s[threadIdx.x];")
    return out
