"""The one elementwise engine: ufuncs, ElementwiseKernel, copies, astype and fill all
lower to `Op.launch`.

A launch plan is derived from the operands' layout:
- "vec":    all arrays 1-D contiguous, same size, pointers aligned: each thread moves
            16-byte vectors (the bandwidth path);
- "contig": the same without alignment;
- "nd":     anything else, after dropping size-1 axes, ordering axes by the first
            output's strides and merging axes that are contiguous in every operand.
One kernel is compiled per (op, dtypes, layout, ndim, index width) and cached with its
`LaunchPlan` (_runtime/launch.py). Each op also remembers the N-d plans of the operand
layouts (shapes, strides, dtypes) it has seen, so that a repeated layout only fills in
its pointers and scalars.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.shapes import broadcast_shapes, broadcast_strides
from cuarray._runtime.compiler import c_identifier, compile_module
from cuarray._runtime.device import ensure_context, get_device_id, properties
from cuarray._runtime.peer import check_same_device
from cuarray._runtime.launch import ArgPacker, LaunchPlan

BLOCK = 256
_INT32_MAX = 2**31 - 1
PLANS_PER_OP = 64   # N-d launch plans kept per op (each a few small tuples)

# Packer kinds for scalars passed by value, by NumPy dtype char.
_SCALAR_KIND = {"?": "?", "b": "b", "B": "B", "h": "h", "H": "H", "i": "i", "I": "I",
                "l": "q", "q": "q", "L": "Q", "Q": "Q", "e": "e", "f": "f", "d": "d",
                "F": "F", "D": "D", "M": "q", "m": "q"}

_PRELUDE = r"""
#include <cuarray/core.cuh>
template<typename T, int N> struct __align__(sizeof(T) * N) cuarray_vec { T v[N]; };
template<typename T, int N, bool C> struct CArray {
  T* data_; long long size_; long long shape_[N > 0 ? N : 1]; long long strides_[N > 0 ? N : 1];
  __device__ long long size() const { return size_; }
  __device__ const long long* shape() const { return shape_; }
  __device__ const long long* strides() const { return strides_; }
  __device__ T& operator[](long long i) const {
    if (C || N <= 1) return N == 1 && !C ? *(T*)((char*)data_ + i * strides_[0]) : data_[i];
    long long off = 0;
    for (int d = N - 1; d >= 0; --d) { long long c = i % shape_[d]; i /= shape_[d]; off += c * strides_[d]; }
    return *(T*)((char*)data_ + off);
  }
  __device__ T& operator[](const long long* idx) const {
    long long off = 0;
    for (int d = 0; d < N; ++d) off += idx[d] * strides_[d];
    return *(T*)((char*)data_ + off);
  }
};
"""


class Param:
    """One kernel parameter. role: 'in', 'out', 'scalar' or 'raw'."""

    __slots__ = ("name", "role", "ctype", "dtype")

    def __init__(self, name, role, dtype):
        self.name = name
        self.role = role
        self.dtype = dtype
        self.ctype = _dt.ctype(dtype)

    def __repr__(self):
        return f"Param({self.name!r}, {self.role!r}, {self.dtype})"


def _sm_count():
    from cuarray._runtime.device import get_device_id
    return properties(get_device_id())["sm_count"]


class Op:
    """An elementwise operation: C body over named parameters, compiled per layout.

    `params` fixes names, roles and compute dtypes; the storage dtype of each array
    comes from the array at launch time and is cast to/from the compute type.
    """

    def __init__(self, name, params, body, preamble="", loop_prep="", after_loop="",
                 options=(), guard=None, load_outputs=False, block_size=BLOCK):
        self.name = c_identifier(name)
        self.params = tuple(params)
        self.body = body
        self.preamble = preamble
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self.guard = guard            # name of a bool 'in' param; body runs only where it holds
        self.load_outputs = load_outputs  # outputs are read by the body (ElementwiseKernel)
        self.block = block_size       # threads per block (ElementwiseKernel's block_size=)
        self._kernels = {}
        self._plans = {}     # N-d operand layouts -> launch plan (see _launch_nd)
        self._array_idx = tuple(k for k, p in enumerate(self.params) if p.role in ("in", "out"))
        roles = [self.params[k].role for k in self._array_idx]
        self._out_idx = roles.index("out") if "out" in roles else 0
        self._has_raw = any(p.role == "raw" for p in self.params)
        self._plain = all(p.role in ("in", "out") for p in self.params)   # arrays only

    def _raw_key(self, args):
        if not self._has_raw:
            return ()
        # A raw parameter's storage dtype changes the generated code as much as its layout.
        return tuple((a.dtype.char, a.ndim, a._c_contig)
                     for p, a in zip(self.params, args) if p.role == "raw")

    # ---- launch -------------------------------------------------------------------------
    def launch(self, args, size=None):
        """Run over `args` (one per param: ndarray, or a NumPy scalar of the param's dtype).

        Outputs must already have the broadcast shape; the caller allocates them.
        """
        dev = ensure_context()
        arrays = [args[k] for k in self._array_idx]
        for a in arrays:
            if a._device_id != dev:
                check_same_device(arrays, dev)
        if not arrays:
            if size is None:
                raise ValueError("an elementwise kernel with no array arguments needs size=")
            if size:
                self._launch_contig(args, arrays, size)
            return
        shape = arrays[0]._shape
        c = f = True
        for a in arrays:    # one loop: two all() over generators cost 0.5 µs
            if a._shape != shape:
                return self._launch_nd(args, arrays)
            c = c and a._c_contig
            f = f and a._f_contig
        if c or f:
            n = 1
            for s in shape:
                n *= s
            if n:
                self._launch_contig(args, arrays, n)
            return
        return self._launch_nd(args, arrays)

    def flat_entry(self, args, aligned):
        """The LaunchPlan of the contiguous kernel for same-shape contiguous operands
        (`args`: one per param), 32-bit indexing; `aligned`: every array pointer is 16-byte
        aligned. A call fills in every value: the pointers and scalars in parameter order,
        then the element count `n`, which also sets the grid. For callers that cache it."""
        arrays = [args[k] for k in self._array_idx]
        vec = 1
        if aligned:
            vec = 16
            for a in arrays:
                vec = min(vec, 16 // a.dtype.itemsize)
        return self._flat_plan(("c", vec, False, tuple([a.dtype.char for a in arrays]),
                                self._raw_key(args)), args, vec, False)

    def _flat_plan(self, key, args, vec, idx64):
        plan = self._kernels.get(key)
        if plan is None:
            fn, packer = self._build(key, args, None, vec, idx64)
            plan = self._kernels[key] = LaunchPlan(fn, packer, block=self.block,
                                                   per=vec * self.block, cap=_grid_cap())
        return plan

    def launch_flat(self, arrays, n, dtypes):
        """`launch` for arrays only (one per param, inputs then outputs), all C-contiguous of
        one shape and `n` > 0 elements, `dtypes` a hashable key of their storage dtypes: the
        kernel for those and the pointers' alignment is one lookup (ElementwiseKernel's warm
        path). Other devices and 64-bit sizes go through `launch`."""
        if n > _INT32_MAX - 4096:
            return self.launch(arrays)
        dev = get_device_id()   # (the launch makes its context current)
        vals = []
        bits = 0
        for a in arrays:
            if a._device_id != dev:
                return self.launch(arrays)
            p = a._ptr
            vals.append(p)
            bits |= p
        key = ("flat", not bits & 15, dtypes)
        plan = self._kernels.get(key)
        if plan is None:
            plan = self._kernels[key] = self.flat_entry(arrays, not bits & 15)
        vals.append(n)
        plan.launch(vals, n)

    def _launch_contig(self, args, arrays, n):
        vec = 16
        for a in arrays:
            it = a.dtype.itemsize
            if 16 // it < vec:
                vec = 16 // it
        if vec > 1:
            for a in arrays:    # each pointer aligned to its vector (a loop: any() costs more)
                if a._ptr % (vec * a.dtype.itemsize):
                    vec = 1
                    break
        idx64 = n > _INT32_MAX - 4096
        key = ("c", vec, idx64, tuple([a.dtype.char for a in arrays]), self._raw_key(args))
        plan = self._kernels.get(key)
        if plan is None:
            plan = self._flat_plan(key, args, vec, idx64)
        vals = self._values(args)
        vals.append(n)
        plan.launch(vals, n)

    def _launch_nd(self, args, arrays):
        # A layout seen before replays its plan: no broadcasting, collapsing or kernel
        # lookup, only pointers and scalars are filled in (launching the copy of a
        # moved-axis view went from 6.4 to 1.8 µs of Python). With arrays alone, the
        # template holds strides and shape and the pointers are its slots.
        key = tuple([(a._shape, a._strides, a.dtype.char) for a in arrays])
        if self._has_raw:
            key += self._raw_key(args)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plan_nd(args, arrays, key)
            if plan is None:
                return
        if self._plain:
            fill = []
            for a in arrays:   # (a loop: a list comprehension costs a function call)
                fill.append(a._ptr)
            plan.launch(fill)
            return
        plan.launch(self._values(args))

    def _values(self, args):
        """The kernel's argument values for `args`: pointers of arrays, scalars and raw
        values as packed."""
        vals = []
        for p, a in zip(self.params, args):
            role = p.role
            if role == "in" or role == "out":
                vals.append(a._ptr)
            elif role == "scalar":
                _append_scalar(vals, a)
            else:
                _append_raw(vals, a)
        return vals

    def _plan_nd(self, args, arrays, key):
        """(function, packer, collapsed strides per array, collapsed shape + size, grid) for
        the N-d layout of `arrays`, remembered under `key`; None when there is no element."""
        shape = arrays[0]._shape
        if any(a._shape != shape for a in arrays):
            shape = broadcast_shapes(*[a._shape for a in arrays])
        n = 1
        for s in shape:
            n *= s
        if n == 0:
            return None
        strides = []
        for a in arrays:
            st = a._strides if a._shape == shape else broadcast_strides(a._shape, a._strides, shape)
            strides.append(st)
        cshape, cstrides = collapse(shape, strides, self._out_idx)
        ndim = len(cshape)
        limit = sum((s - 1) * max(abs(st[d]) for st in cstrides) for d, s in enumerate(cshape)) \
            if ndim else 0
        idx64 = n > _INT32_MAX - 4096 or limit > _INT32_MAX
        kkey = ("n", ndim, idx64, tuple([a.dtype.char for a in arrays]), self._raw_key(args))
        entry = self._kernels.get(kkey)
        if entry is None:
            entry = self._kernels[kkey] = self._build(kkey, args, ndim, 1, idx64)
        # The argument template: strides and shape are fixed by the layout; pointers,
        # scalars and raw arrays' descriptions are the slots filled per call.
        vals, slots = [], []
        k = 0
        for p, a in zip(self.params, args):
            role = p.role
            if role == "in" or role == "out":
                slots.append(len(vals))
                vals.append(0)
                vals.extend(cstrides[k])
                k += 1
            else:
                m = (2 if numpy.dtype(p.dtype).kind == "c" else 1) if role == "scalar" else 2 + 2 * a.ndim
                slots.extend(range(len(vals), len(vals) + m))
                vals.extend([0] * m)
        vals.extend(cshape)
        vals.append(n)
        fn, packer = entry
        grid = min((n + self.block - 1) // self.block, _grid_cap())
        if len(self._plans) >= PLANS_PER_OP:
            self._plans.clear()   # bounded; clear() cannot race another thread's insert
        plan = self._plans[key] = LaunchPlan(fn, packer, grid, self.block, vals=vals,
                                             slots=slots)
        return plan

    # ---- code generation ------------------------------------------------------------------
    def _build(self, key, args, ndim, vec, idx64):
        storage = []
        for p, a in zip(self.params, args):
            if p.role in ("in", "out", "raw"):
                storage.append(a.dtype)
            else:
                storage.append(p.dtype)
        raw_info = []
        for p, a in zip(self.params, args):
            if p.role == "raw":
                raw_info.append((a.ndim, a._c_contig))
            else:
                raw_info.append(None)
        src, kinds = generate(self, storage, raw_info, ndim, vec, idx64)
        mod = compile_module(src, self.options, name=self.name)
        return mod.get_function(self.name), ArgPacker(kinds)


def _grid_cap():
    """Blocks to launch at most for elementwise kernels (their loops are grid-stride).

    Measured on an H200 (2^28-element a + b): one 16-byte vector per thread, i.e. an
    uncapped grid, reached 97-103% of copy bandwidth where a cap of 32 blocks per SM
    gave 94-97%; the cap only bounds absurd grids.
    """
    return 1 << 24


def _append_scalar(vals, v):
    if isinstance(v, (numpy.complexfloating, complex)):
        vals.append(v.real)
        vals.append(v.imag)
    else:
        vals.append(v)


def _append_raw(vals, a):
    vals.append(a._ptr)
    vals.append(a.size)
    vals.extend(a._shape)
    vals.extend(a._strides)


def collapse(shape, strides_list, out_idx=0):
    """Drop size-1 axes, order axes by the output's strides, merge contiguous runs."""
    dims = [d for d, s in enumerate(shape) if s != 1]
    ref = strides_list[out_idx] if strides_list else None
    if ref is not None and len(dims) > 1:
        dims.sort(key=lambda d: -abs(ref[d]))
    cshape = []
    cstrides = [[] for _ in strides_list]
    for d in dims:
        if cshape:
            n = shape[d]
            if all(st[-1] == strides[d] * n for st, strides in zip(cstrides, strides_list)):
                cshape[-1] *= n
                for st, strides in zip(cstrides, strides_list):
                    st[-1] = strides[d]
                continue
        cshape.append(shape[d])
        for st, strides in zip(cstrides, strides_list):
            st.append(strides[d])
    return tuple(cshape), [tuple(st) for st in cstrides]


def generate(op, storage, raw_info, ndim, vec, idx64):
    """CUDA source for `op` and the ArgPacker kinds of its parameters.

    ndim None: 1-D contiguous layout moving `vec` elements per thread; otherwise the
    N-d layout with byte strides.
    """
    I = "long long" if idx64 else "int"
    ik = "q" if idx64 else "i"
    sig, kinds = [], []
    loads, pre = [], []
    arr_k = 0
    for p, st, raw in zip(op.params, storage, raw_info):
        S = _dt.ctype(st)
        C = p.ctype
        if p.role == "scalar":
            sig.append(f"const {C} {p.name}")
            kinds.append(_SCALAR_KIND[numpy.dtype(st).char])
        elif p.role == "raw":
            rn, rc = raw
            sig.append(f"{S}* _rp_{p.name}, long long _rs_{p.name}" +
                       "".join(f", long long _rsh_{p.name}_{d}" for d in range(rn)) +
                       "".join(f", long long _rst_{p.name}_{d}" for d in range(rn)))
            kinds += ["P", "q"] + ["q"] * (2 * rn)
            pre.append(f"CArray<{S}, {rn}, {'true' if rc else 'false'}> {p.name}; "
                       f"{p.name}.data_ = _rp_{p.name}; {p.name}.size_ = _rs_{p.name};" +
                       "".join(f" {p.name}.shape_[{d}] = _rsh_{p.name}_{d};"
                               f" {p.name}.strides_[{d}] = _rst_{p.name}_{d};" for d in range(rn)))
        else:
            const = "const " if p.role == "in" else ""
            if ndim is None:
                sig.append(f"{const}{S}* __restrict__ _p{arr_k}")
                kinds.append("P")
            else:
                sig.append(f"{const}char* __restrict__ _p{arr_k}" +
                           "".join(f", const {I} _st{arr_k}_{d}" for d in range(ndim)))
                kinds += ["P"] + [ik] * ndim
            loads.append((p, S, C, arr_k))
            arr_k += 1
    if ndim is not None:
        sig += [f"const {I} _sh{d}" for d in range(ndim)]
        kinds += [ik] * ndim
    sig.append(f"const {I} _n")
    kinds.append(ik)
    body = op.body
    guard = op.guard
    lines = [_PRELUDE, op.preamble,
             f'extern "C" __global__ void {op.name}({", ".join(sig)}) {{']
    lines += [f"  {x}" for x in pre]
    lines.append(f"  struct {{ {I} n; __device__ {I} size() const {{ return n; }} }} _ind; _ind.n = _n;")
    if op.loop_prep:
        lines.append(op.loop_prep)
    stride = f"({I})blockDim.x * gridDim.x"
    start = f"({I})blockIdx.x * blockDim.x + threadIdx.x"

    def element(ptr_of, i_expr, indent):
        out = [f"{indent}const long long i = {i_expr}; (void)i;"]
        for p, S, C, k in loads:
            src = ptr_of(k, S)
            if p.role == "in":
                out.append(f"{indent}const {C} {p.name} = cuarray_cast<{C}>({src});")
            elif S == C:
                out.append(f"{indent}{C}& {p.name} = {src};")
            else:
                if op.load_outputs:
                    out.append(f"{indent}{C} {p.name} = cuarray_cast<{C}>({src});")
                else:
                    out.append(f"{indent}{C} {p.name}{{}};")
        if guard:
            out.append(f"{indent}if ({guard}) {{")
        out.append(f"{indent}{body}")
        for p, S, C, k in loads:
            if p.role == "out" and S != C:
                out.append(f"{indent}{ptr_of(k, S)} = cuarray_cast<{S}>({p.name});")
        if guard:
            out.append(f"{indent}}}")
        return out

    if ndim is None and vec > 1:
        lines.append(f"  for ({I} _b = ({start}) * {vec}; _b < _n; _b += {stride} * {vec}) {{")
        lines.append(f"    if (_b + {vec} <= _n) {{")
        for p, S, C, k in loads:
            if p.role == "in" or op.load_outputs or guard:
                lines.append(f"      cuarray_vec<{S}, {vec}> _v{k} = "
                             f"*reinterpret_cast<const cuarray_vec<{S}, {vec}>*>(_p{k} + _b);")
            else:
                lines.append(f"      cuarray_vec<{S}, {vec}> _v{k};")
        lines.append("      #pragma unroll")
        lines.append(f"      for (int _k = 0; _k < {vec}; ++_k) {{")
        lines += element(lambda k, S: f"_v{k}.v[_k]", "_b + _k", "        ")
        lines.append("      }")
        for p, S, C, k in loads:
            if p.role == "out":
                lines.append(f"      *reinterpret_cast<cuarray_vec<{S}, {vec}>*>(_p{k} + _b) = _v{k};")
        lines.append("    } else {")
        lines.append(f"      for ({I} _i = _b; _i < _n; ++_i) {{")
        lines += element(lambda k, S: f"_p{k}[_i]", "_i", "        ")
        lines.append("      }")
        lines.append("    }")
        lines.append("  }")
    elif ndim is None:
        lines.append(f"  for ({I} _i = {start}; _i < _n; _i += {stride}) {{")
        lines += element(lambda k, S: f"_p{k}[_i]", "_i", "    ")
        lines.append("  }")
    else:
        lines.append(f"  for ({I} _i = {start}; _i < _n; _i += {stride}) {{")
        if ndim:
            lines.append(f"    {I} _r = _i;" + "".join(f" {I} _o{k} = 0;" for k in range(arr_k)))
            for d in range(ndim - 1, -1, -1):
                if d:
                    lines.append(f"    {{ const {I} _c = _r % _sh{d}; _r /= _sh{d};" +
                                 "".join(f" _o{k} += _c * _st{k}_{d};" for k in range(arr_k)) + " }")
                else:
                    lines.append("    " + "".join(f" _o{k} += _r * _st{k}_0;" for k in range(arr_k)))
            ptr = lambda k, S: f"*(({S}*)(_p{k} + _o{k}))"
        else:
            ptr = lambda k, S: f"*(({S}*)_p{k})"
        lines += element(ptr, "_i", "    ")
        lines.append("  }")
    if op.after_loop:
        lines.append(op.after_loop)
    lines.append("}")
    return "\n".join(lines), kinds
