"""User kernels with typed parameters: ElementwiseKernel and ReductionKernel (CuPy's API)."""
import re

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import BLOCK, Op, Param
from cuarray._core.ndarray import ndarray
from cuarray._core.reduction import ReduceOp, RParam
from cuarray._core.shapes import broadcast_shapes, normalize_axes

_PARAM = re.compile(r"^\s*(raw\s+)?([A-Za-z_][\w:<>]*)\s+([A-Za-z_]\w*)\s*$")
_CONTROL = re.compile(r"\b(if|else|for|while|do|switch|case|goto|return|break|continue|asm)\b")


def writes_first(body, names, preamble=""):
    """Whether `body` (an ElementwiseKernel operation) sets each of the outputs `names`
    before anything reads it: a straight line of statements (no braces, control flow or
    preprocessor lines) where each name first appears as `name = <expression without it>`.
    Then outputs the caller passed need not be read in before the body runs (a vector
    load of each: a third more traffic for `o = a * x + y`); anything else reads them in,
    as a body may keep or update what an output held."""
    if "{" in body or "}" in body or "#" in body or _CONTROL.search(body):
        return False
    statements = body.split(";")
    for name in names:
        word = re.compile(rf"(?<![\w.>]){re.escape(name)}\b")
        if "#" in preamble and word.search(preamble):
            return False   # a macro may read it
        for st in statements:
            if not word.search(st):
                continue
            m = re.match(rf"\s*{re.escape(name)}\s*=(?!=)(.*)$", st, re.S)
            if m is None or word.search(m.group(1)) or "&" + name in st.replace(" ", ""):
                return False
            break
        else:
            return False
    return True


class _ParamSpec:
    __slots__ = ("name", "type", "raw", "placeholder")

    def __init__(self, text):
        m = _PARAM.match(text)
        if not m:
            raise ValueError(f"cannot parse kernel parameter {text.strip()!r}: expected "
                             f"'<type> <name>' or 'raw <type> <name>'")
        self.raw = bool(m.group(1))
        tname = m.group(2)
        self.name = m.group(3)
        try:
            self.type = _dt.check_dtype(numpy.dtype(tname))
            self.placeholder = False
        except TypeError:
            self.type = tname
            self.placeholder = True

    def __repr__(self):
        return f"{'raw ' if self.raw else ''}{self.type} {self.name}"


def _parse(params):
    if not params.strip():
        return ()
    specs = tuple(_ParamSpec(p) for p in params.split(","))
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate parameter names in {params!r}")
    return specs


def _host_error(name, x):
    from cuarray._core.host_policy import host_error
    return host_error(name, x, prefix="")


def _bind(kname, specs, args):
    """Bind type placeholders from the arguments (arrays first, then scalars)."""
    types = {}
    for s, a in zip(specs, args):
        if not s.placeholder or not isinstance(a, ndarray):
            continue
        prev = types.get(s.type)
        if prev is not None and prev != a.dtype:
            raise TypeError(f"{kname}: type placeholder {s.type} is bound to both {prev} and "
                            f"{a.dtype} (parameter {s.name})")
        types[s.type] = a.dtype
    for s, a in zip(specs, args):
        if s.placeholder and s.type not in types and a is not None and not isinstance(a, ndarray):
            types[s.type] = numpy.asarray(a).dtype if not isinstance(a, numpy.generic) else a.dtype
    return types


def _param_dtypes(kname, specs, args):
    """(placeholder -> dtype, dtype of every parameter); an unbound placeholder can only
    be an output's, which must then be passed."""
    types = _bind(kname, specs, args)
    dts = []
    for s in specs:
        if not s.placeholder:
            dts.append(s.type)
        elif s.type in types:
            dts.append(types[s.type])
        else:
            raise TypeError(f"{kname}: cannot determine the type {s.type} of output {s.name}: "
                            f"pass the output array explicitly")
    return types, dts


def _scalar(v, dt, kname, pname):
    if isinstance(v, (numpy.ndarray, list, tuple)):
        raise _host_error(kname, v)
    if not isinstance(v, (bool, int, float, complex, numpy.generic)):
        raise TypeError(f"{kname}: parameter {pname} got unsupported type {type(v).__name__}")
    from cuarray._core.dtypes import to_scalar
    return to_scalar(v, dt)


def _block_size(block_size, kname):
    """ElementwiseKernel's block_size=: threads per block, 1 to 1024 (None: the default)."""
    if block_size is None:
        return BLOCK
    if not isinstance(block_size, (int, numpy.integer)) or isinstance(block_size, bool):
        raise TypeError(f"{kname}: block_size must be an int, got {type(block_size).__name__}")
    if not 1 <= block_size <= 1024:
        raise ValueError(f"{kname}: block_size must be between 1 and 1024, got {block_size}")
    return int(block_size)


def _stream_context(stream, kname):
    """The `with` block that makes `stream` (a cuarray Stream or ExternalStream) current."""
    if not hasattr(stream, "__enter__") or not hasattr(stream, "ptr"):
        raise TypeError(f"{kname}: stream must be a cuarray.cuda.Stream, got "
                        f"{type(stream).__name__}")
    return stream


class _UserKernel:
    """What both kinds of user kernel keep: the parsed parameters, the name, preamble and
    compile options, and the ops compiled per binding of the type placeholders."""

    def __init__(self, in_params, out_params, name, preamble, options):
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.name = name
        self.preamble = preamble
        self.options = tuple(options)
        self._ops = {}

    def _roles(self, specs, args, dts, raw):
        """The launch arguments (scalars cast to their bound dtype) and each one's role; with
        `raw`, a `raw` parameter keeps its own role and must be an array."""
        call, roles = [], []
        for s, a, dt in zip(specs, args, dts):
            if raw and s.raw:
                if not isinstance(a, ndarray):
                    raise TypeError(f"{self.name}: raw parameter {s.name} needs a cuarray.ndarray")
                roles.append("raw")
                call.append(a)
            elif isinstance(a, ndarray):
                roles.append("out" if s in self.out_params else "in")
                call.append(a)
            else:
                roles.append("scalar")
                call.append(_scalar(a, dt, self.name, s.name))
        return call, roles


class ElementwiseKernel(_UserKernel):
    """A user elementwise kernel (cuarray version of `cupy.ElementwiseKernel`).

    Called as `kernel(*inputs, *outputs_optional, size=None, block_size=None, stream=None)`:
    inputs broadcast together, outputs are allocated when not given, type placeholders
    (`T x`) bind to the dtypes of the arguments and one kernel is compiled per dtype
    combination. `block_size` is the threads per block (default 256), `stream` the stream
    to launch on (default: the current one).
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="", after_loop="",
                 options=()):
        super().__init__(in_params, out_params, name, preamble, options)
        self.operation = operation
        self.no_return = no_return
        self.return_tuple = return_tuple
        # code before and after the grid-stride loop
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.reduce_dims = reduce_dims
        # Warm path: input dtypes -> (op, output dtypes), for calls whose inputs are all
        # C-contiguous arrays of one shape and whose outputs are allocated here; it skips
        # placeholder binding, broadcasting and the role scan (10.7 -> 4 µs of host time).
        self._warm = {} if self.nin and not any(s.raw for s in self.in_params + self.out_params) \
            else None

    def __call__(self, *args, size=None, block_size=None, stream=None):
        if stream is not None:
            with _stream_context(stream, self.name):
                return self(*args, size=size, block_size=block_size)
        warm = self._warm
        if warm is not None and size is None and block_size is None and len(args) == self.nin:
            shape = args[0]._shape if type(args[0]) is ndarray else None
            key = []
            for a in args:
                if type(a) is not ndarray or not a._c_contig or a._shape != shape:
                    break
                key.append(a.dtype)
            else:
                key = tuple(key)
                entry = warm.get(key)
                if entry is not None:
                    op, out_dts = entry
                    outs = []
                    for dt in out_dts:   # (a loop: a list comprehension costs a function call)
                        outs.append(ndarray._alloc(shape, dt, "C"))
                    n = args[0].size
                    if n:   # the input dtypes fix the outputs': they key the kernel
                        op.launch_flat(list(args) + outs, n, key)
                    return self._result(outs)
        return self._call(args, size, _block_size(block_size, self.name))

    def _result(self, outs):
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _call(self, args, size, block_size):
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{self.name}: wrong number of arguments: expected {self.nin} inputs "
                            f"(and optionally {self.nout} outputs), got {len(args)}")
        ins, outs = list(args[:self.nin]), list(args[self.nin:])
        for a in ins + outs:
            if isinstance(a, (numpy.ndarray, list, tuple)):
                raise _host_error(self.name, a)
        specs = self.in_params + self.out_params
        types, dts = _param_dtypes(self.name, specs, ins + outs + [None] * (self.nout - len(outs)))
        arrays = [a for s, a in zip(self.in_params, ins) if isinstance(a, ndarray) and not s.raw]
        if outs:
            for s, o in zip(self.out_params, outs):
                if not isinstance(o, ndarray):
                    raise TypeError(f"{self.name}: output {s.name} must be a cuarray.ndarray")
        arr_shapes = [a._shape for a in arrays] + [o._shape for s, o in zip(self.out_params, outs)
                                                   if not s.raw]
        if arr_shapes:
            shape = broadcast_shapes(*arr_shapes)
            if size is not None and size != int(numpy.prod(shape)):
                raise ValueError(f"{self.name}: size={size} does not match the array arguments")
        elif size is not None:
            shape = (size,)
        else:
            raise ValueError(f"{self.name}: loop size is undetermined: pass size= when there are "
                             f"no non-raw array arguments")
        if not outs:
            from cuarray._core.ufunc import _order
            order = _order("K", arrays)
            outs = [ndarray._alloc(shape, dt, order) for dt in dts[self.nin:]]
            given = False
        else:
            given = True
            for s, o in zip(self.out_params, outs):
                if not s.raw and o._shape != shape:
                    raise ValueError(f"{self.name}: output {s.name} has shape {o._shape}, expected {shape}")
        call, roles = self._roles(specs, ins + outs, dts, raw=True)
        key = (tuple(dts), tuple(roles), given, block_size)
        op = self._ops.get(key)
        if op is None:
            params = [Param(s.name, r, dt) for s, r, dt in zip(specs, roles, dts)]
            typedefs = "".join(f"typedef {_dt.ctype(dt)} {t};\n" for t, dt in sorted(
                types.items(), key=lambda kv: kv[0]))
            body = self.operation.rstrip()
            if not body.endswith((";", "}")):
                body += ";"  # CuPy accepts an operation without its final semicolon
            load = given and not writes_first(
                body, [sp.name for sp in self.out_params if not sp.raw], self.preamble)
            op = self._ops[key] = Op(self.name, params, body, typedefs + self.preamble,
                                     self.loop_prep, self.after_loop, self.options,
                                     load_outputs=load, block_size=block_size)
        n = 1
        for d in shape:
            n *= d
        if n:
            op.launch(call, size=n if not arrays and not any(r == "out" for r in roles) else None)
        if self._warm is not None and not given and len(arrays) == self.nin and \
                block_size == BLOCK:
            self._warm[tuple(a.dtype for a in arrays)] = (op, dts[self.nin:])
        return self._result(outs)


class ReductionKernel(_UserKernel):
    """A user reduction kernel (cuarray version of `cupy.ReductionKernel`).

    `map_expr` maps the inputs to the reduction type, `reduce_expr` combines `a` and `b`,
    `post_map_expr` writes the outputs from `a`; `identity` is a C expression.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="", options=()):
        super().__init__(in_params, out_params, name, preamble, options)
        # the three C fragments of the reduction, in the order they run
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity = identity
        self.reduce_type = reduce_type

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if stream is not None:
            with _stream_context(stream, self.name):
                return self(*args, out=out, axis=axis, keepdims=keepdims)
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{self.name}: wrong number of arguments: expected {self.nin} inputs, "
                            f"got {len(args)}")
        ins = list(args[:self.nin])
        outs = list(args[self.nin:])
        if out is not None:
            if outs:
                raise TypeError(f"{self.name}: output given twice")
            outs = [out]
        for a in ins:
            if isinstance(a, (numpy.ndarray, list, tuple)):
                raise _host_error(self.name, a)
        specs = self.in_params + self.out_params
        types, dts = _param_dtypes(self.name, specs, ins + outs + [None] * (self.nout - len(outs)))
        arrays = [a for a in ins if isinstance(a, ndarray)]
        if not arrays:
            raise ValueError(f"{self.name}: a reduction needs at least one array input")
        shape = broadcast_shapes(*[a._shape for a in arrays])
        axes = normalize_axes(axis, len(shape))
        kept = tuple(n for d, n in enumerate(shape) if d not in axes)
        out_shape = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdims else kept
        if outs:
            for o in outs:
                if not isinstance(o, ndarray):
                    raise TypeError(f"{self.name}: output must be a cuarray.ndarray")
                if o._shape != out_shape:
                    raise ValueError(f"{self.name}: output has shape {o._shape}, expected {out_shape}")
        else:
            outs = [ndarray._alloc(out_shape, dt) for dt in dts[self.nin:]]
        kept_outs = [o.reshape(kept) if o._shape != kept else o for o in outs]
        call, roles = self._roles(specs, ins + kept_outs, dts, raw=False)
        if self.reduce_type is None:
            acc = dts[self.nin] if self.nout else dts[0]
            acc_c = _dt.ctype(acc)
        else:
            try:
                acc_c = _dt.ctype(_dt.check_dtype(numpy.dtype(self.reduce_type)))
            except TypeError:
                acc_c = self.reduce_type
        key = (tuple(dts), tuple(roles))
        op = self._ops.get(key)
        if op is None:
            params = [RParam(s.name, r, dt) for s, r, dt in zip(specs, roles, dts)]
            typedefs = "".join(f"typedef {_dt.ctype(dt)} {t};\n" for t, dt in sorted(
                types.items(), key=lambda kv: kv[0]))
            ident = self.identity if self.identity not in (None, "") else "type_reduce()"
            op = self._ops[key] = ReduceOp(self.name, params, self.map_expr, self.reduce_expr,
                                           self.post_map_expr, ident, acc_c,
                                           typedefs + self.preamble, self.options)
        if all(o.size for o in outs):
            op.launch(call, axes, shape)
        return outs[0] if self.nout == 1 else tuple(outs)
