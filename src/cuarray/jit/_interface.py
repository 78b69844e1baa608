"""The cuarray.jit decorators: `rawkernel` (CuPy's), and `elementwisekernel` /
`reductionkernel`, which put a translated Python function inside an ElementwiseKernel or
ReductionKernel."""
import functools

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.fusion import literal, ufunc_function
from cuarray._core.ndarray import ndarray
from cuarray._core.raw import RawKernel, _dims_cache, launch_dims
from cuarray._runtime import stream as _stream
from cuarray._runtime.device import ensure_context
from cuarray._runtime.launch import ArgPacker
from cuarray.jit import _compile
from cuarray.jit._types import Array, arg_type

_KIND = {"?": "?", "b": "b", "B": "B", "h": "h", "H": "H", "i": "i", "I": "I", "l": "q", "q": "q",
         "L": "Q", "Q": "Q", "e": "e", "f": "f", "d": "d", "F": "F", "D": "D"}
_MODES = ("python", "numpy", "cuda")
_PY_SCALARS = (bool, int, float, complex)


class _JitRawKernel:
    """A Python function compiled to a CUDA kernel (cuarray version of
    `cupyx.jit._interface._JitRawKernel`).

    `kernel(grid, block, args, shared_mem=0, stream=None)` (RawKernel style) or
    `kernel[grid, block](*args)` (Numba style; `kernel[grid, block, stream, shared_mem]`
    too). One kernel is compiled per argument types: arrays by (dtype, ndim, C-contiguity),
    scalars by their C type (Python int -> int64, float -> float64, bool -> bool).
    """

    def __init__(self, func, mode, device):
        if mode not in _MODES:
            raise ValueError(f"jit.rawkernel mode must be one of {_MODES}, got {mode!r}")
        self._func = func
        self._mode = mode
        self._device = device
        self._cache = {}
        self._codes = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        return f"<cuarray.jit kernel {self.__name__}>"

    def _types(self, args):
        return tuple(arg_type(a, self._mode) for a in args)

    def _source(self, types):
        code = self._codes.get(types)
        if code is None:
            code = self._codes[types] = _compile.translate_kernel(self._func, types, self._mode)
        return code

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        """Launch on `grid` x `block` threads with `args` (a tuple)."""
        if self._device:
            raise TypeError(f"{self.__name__} is a device function (jit.rawkernel(device=True)): "
                            f"call it from a kernel")
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"kernel arguments must be a tuple: {self.__name__}(grid, block, "
                            f"(x, y, ...)); got {type(args).__name__}")
        key = []
        by_type = self._mode != "cuda"   # (mode='cuda' types a Python int by its value)
        for a in args:
            t = type(a)
            if t is ndarray:
                key.append((a.dtype, len(a._shape), a._c_contig))
            elif by_type and t in _PY_SCALARS:
                key.append(t)
            elif isinstance(a, numpy.generic):
                key.append(a.dtype)
            else:
                key.append(arg_type(a, self._mode))
        key.append(ensure_context())   # (after the arguments: theirs are the errors to raise)
        key = tuple(key)
        entry = self._cache.get(key)
        if entry is None:
            entry = self._cache[key] = self._build(args)
        fn, packer, layout, coop = entry
        vals = []
        for a, k in zip(args, layout):
            if k == "a":
                vals.append(a._ptr)
                vals.append(a.size)
                vals.extend(a._shape)
                vals.extend(a._strides)
            elif k == "c":
                vals.append(a.real)
                vals.append(a.imag)
            else:
                vals.append(a)
        sp = _stream.current_stream_ptr() if stream is None else stream.ptr
        try:
            params = packer.pack(vals)
        except Exception as e:  # struct.error: a Python int beyond its C type
            raise OverflowError(f"cannot pass the arguments of {self.__name__}: {e}") from None
        g = _dims_cache.get(grid) if type(grid) is tuple else None
        if g is None:
            g = launch_dims(grid, "grid")
        b = _dims_cache.get(block) if type(block) is tuple else None
        if b is None:
            b = launch_dims(block, "block")
        if coop:  # cg.this_grid().sync(): all blocks must be resident at once
            fn.launch_cooperative(g, b, params, shared_mem, sp)
        else:
            fn.launch(g, b, params, shared_mem, sp)

    def _build(self, args):
        types = self._types(args)
        src, name = self._source(types)
        fn = RawKernel(src, name).kernel
        kinds, layout = [], []
        for t in types:
            if isinstance(t, Array):
                kinds += ["P", "q"] + ["q"] * (2 * t.ndim)
                layout.append("a")
            else:
                kinds.append(_KIND[t.char])
                layout.append("c" if t.kind == "c" else "s")
        return fn, ArgPacker(kinds), tuple(layout), "_jit_grid_sync()" in src

    def __getitem__(self, config):
        """Numba-style launch configuration: `kernel[grid, block](*args)`."""
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("launch a jit kernel as kernel[grid, block](*args) (optionally "
                            "kernel[grid, block, stream, shared_mem])")
        grid, block = config[0], config[1]
        stream = config[2] if len(config) > 2 and config[2] != 0 else None
        shared = config[3] if len(config) > 3 else 0

        def launch(*args, shared_mem=shared, stream=stream):
            self(grid, block, args, shared_mem=shared_mem, stream=stream)
        return launch

    @property
    def cached_codes(self):
        """CUDA source of every specialization compiled so far, by argument types."""
        return {k: v[0] for k, v in self._codes.items()}

    @property
    def cached_code(self):
        """CUDA source of the first specialization compiled."""
        codes = self.cached_codes
        if not codes:
            raise ValueError(f"{self.__name__} has not been compiled yet: call it first")
        return next(iter(codes.values()))


def rawkernel(*, mode="cuda", device=False):
    """A decorator that compiles a Python function into a CUDA kernel (cuarray version of
    `cupyx.jit.rawkernel`).

    `mode='cuda'` (the default, as in CuPy 14) passes Python int/float/complex arguments as
    32-bit types where they fit; `mode='python'` (or 'numpy') as int64/float64/complex128.
    `device=True` makes a device function, callable only from kernels.
    """
    def wrapper(func):
        return _JitRawKernel(func, mode, device)
    return wrapper


# ---- elementwise and reduction kernels from Python functions -----------------------------------
def _bound_dtypes(kname, specs, args, nout_given, nout):
    from cuarray._core.kernel import _bind
    types = _bind(kname, specs, list(args) + [None] * (nout - nout_given))
    dts = []
    for s in specs:
        if s.placeholder:
            if s.type not in types:
                raise TypeError(f"{kname}: cannot determine the type {s.type} of {s.name}: pass "
                                f"the output array explicitly")
            dts.append(types[s.type])
        else:
            dts.append(s.type)
    return tuple(dts)


def _concrete(specs, dts):
    return ", ".join(f"{dt.name} {s.name}" for s, dt in zip(specs, dts))


def _params_of(func, names, what):
    import inspect
    params = list(inspect.signature(func).parameters)
    unknown = [p for p in params if p not in names]
    if unknown:
        raise TypeError(f"{what}: parameter(s) {unknown} of {func.__name__} are not in the "
                        f"kernel's parameter lists {sorted(names)}")
    return params


class _JitElementwiseKernel:
    """An ElementwiseKernel whose operation is a Python function (translated per dtypes)."""

    def __init__(self, func, in_params, out_params, name, options, **kwargs):
        from cuarray._core.kernel import _parse
        self._func = func
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        for s in self.in_params + self.out_params:
            if s.raw:
                raise TypeError(f"jit.elementwisekernel: raw parameter {s.name} is not supported; "
                                f"use jit.rawkernel for kernels that index arrays freely")
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.name = name
        self.options = tuple(options)
        self.kwargs = kwargs
        names = [s.name for s in self.in_params + self.out_params]
        self._fparams = _params_of(func, names, "jit.elementwisekernel")
        missing = [s.name for s in self.out_params if s.name not in self._fparams]
        if len(missing) > 1:
            raise TypeError(f"jit.elementwisekernel: outputs {missing} are not parameters of "
                            f"{func.__name__}; a function may return one output only")
        self._extra = missing
        self._kernels = {}
        functools.update_wrapper(self, func)

    def __call__(self, *args, size=None, block_size=None, stream=None):
        if len(args) not in (self.nin, self.nin + self.nout):
            raise TypeError(f"{self.name}: wrong number of arguments: expected {self.nin} inputs "
                            f"(and optionally {self.nout} outputs), got {len(args)}")
        specs = self.in_params + self.out_params
        dts = _bound_dtypes(self.name, specs, args, len(args) - self.nin, self.nout)
        k = self._kernels.get(dts)
        if k is None:
            k = self._kernels[dts] = self._make(dts)
        return k(*args, size=size, block_size=block_size, stream=stream)

    def _make(self, dts):
        from cuarray._core.kernel import ElementwiseKernel
        specs = self.in_params + self.out_params
        by_name = {s.name: dt for s, dt in zip(specs, dts)}
        outs = {s.name: dt for s, dt in zip(self.out_params, dts[self.nin:])}
        gen = _compile.Generated()
        fname = f"_jitew_{self.name}"
        _compile.Translator(self._func, [by_name[p] for p in self._fparams], gen, "elementwise",
                            fname, outputs=outs, extra=self._extra).translate()
        op = f"{fname}({', '.join(self._fparams + self._extra)});"
        return ElementwiseKernel(_concrete(self.in_params, dts[:self.nin]),
                                 _concrete(self.out_params, dts[self.nin:]), op, self.name,
                                 preamble=gen.source(), options=self.options, **self.kwargs)


def elementwisekernel(in_params, out_params, name=None, *, options=(), no_return=False,
                      return_tuple=False):
    """A decorator making an ElementwiseKernel from a Python function (cuarray's
    counterpart of the `@cupyx.jit.elementwisekernel` that CuPy's tutorials mention).

    The function's parameters are named after `in_params` and `out_params` (CuPy's
    ElementwiseKernel syntax, type placeholders included); it assigns the outputs, or
    returns the value of a single output that it leaves out of its parameters::

        @jit.elementwisekernel('T x, T y', 'T z')
        def squared_diff(x, y):
            return (x - y) * (x - y)
    """
    def wrapper(func):
        return _JitElementwiseKernel(func, in_params, out_params, name or func.__name__, options,
                                     no_return=no_return, return_tuple=return_tuple)
    return wrapper


_REDUCE = {"+": "add", "add": "add", "sum": "add", "*": "multiply", "multiply": "multiply",
           "prod": "multiply", "max": "maximum", "maximum": "maximum", "min": "minimum",
           "minimum": "minimum"}


class _JitReductionKernel:
    """A ReductionKernel whose map (and optionally reduce and post-map) are Python functions."""

    def __init__(self, func, in_params, out_params, identity, reduce, post_map, reduce_type,
                 name, options):
        from cuarray._core.kernel import _parse
        self._func = func
        self.in_params = _parse(in_params)
        self.out_params = _parse(out_params)
        if len(self.out_params) != 1:
            raise TypeError("jit.reductionkernel makes kernels with exactly one output")
        self.nin = len(self.in_params)
        if not (callable(reduce) or reduce in _REDUCE):
            raise ValueError(f"jit.reductionkernel: reduce must be a function of (a, b) or one of "
                             f"{sorted(_REDUCE)}, got {reduce!r}")
        self.identity = identity
        self.reduce = reduce
        self.post_map = post_map
        self.reduce_type = None if reduce_type is None else _dt.check_dtype(reduce_type)
        self.name = name
        self.options = tuple(options)
        self._fparams = _params_of(func, [s.name for s in self.in_params], "jit.reductionkernel")
        self._kernels = {}
        functools.update_wrapper(self, func)

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        specs = self.in_params + self.out_params
        given = len(args) - self.nin + (out is not None)
        call_args = list(args) + ([out] if out is not None else [])
        dts = _bound_dtypes(self.name, specs, call_args, given, 1)
        k = self._kernels.get(dts)
        if k is None:
            k = self._kernels[dts] = self._make(dts)
        return k(*args, out=out, axis=axis, keepdims=keepdims, stream=stream)

    def _make(self, dts):
        from cuarray._core import _reductions
        from cuarray._core.kernel import ReductionKernel
        acc = self.reduce_type or dts[self.nin]
        by_name = {s.name: dt for s, dt in zip(self.in_params, dts)}
        gen = _compile.Generated()
        tr = _compile.Translator(self._func, [by_name[p] for p in self._fparams], gen, "device",
                                 "_jitmap")
        if tr.translate() is None:
            raise TypeError(f"jit.reductionkernel: {self._func.__name__} must return the value "
                            f"to reduce")
        map_expr = f"cuarray_cast<type_reduce>(_jitmap({', '.join(self._fparams)}))"
        if callable(self.reduce):
            _compile.Translator(self.reduce, [acc, acc], gen, "device", "_jitred").translate()
            reduce_expr = "cuarray_cast<type_reduce>(_jitred(a, b))"
        else:
            uname = _REDUCE[self.reduce]
            loop = getattr(numpy, uname).resolve_dtypes((acc, acc, None))
            fname, code = ufunc_function(uname, loop[:2], loop[2:])
            gen.add(code)
            reduce_expr = f"cuarray_cast<type_reduce>({fname}(a, b))"
        oname = self.out_params[0].name
        if self.post_map is None:
            post = f"{oname} = a"
        else:
            _compile.Translator(self.post_map, [acc], gen, "device", "_jitpost").translate()
            post = f"{oname} = cuarray_cast<{_dt.ctype(dts[self.nin])}>(_jitpost(a))"
        if self.identity is None:
            if not isinstance(self.reduce, str) or _REDUCE[self.reduce] not in ("maximum",
                                                                               "minimum"):
                raise TypeError("jit.reductionkernel needs an identity for this reduction")
            ident = _reductions._sentinel(_REDUCE[self.reduce], acc)
        else:
            ident = self.identity
        return ReductionKernel(_concrete(self.in_params, dts[:self.nin]),
                               _concrete(self.out_params, dts[self.nin:]), map_expr, reduce_expr,
                               post, literal(ident, acc), self.name, reduce_type=acc.name,
                               preamble=gen.source(), options=self.options)


def reductionkernel(in_params, out_params, identity=None, *, reduce="+", post_map=None,
                    reduce_type=None, name=None, options=()):
    """A decorator making a ReductionKernel from a Python map function (cuarray's
    counterpart of the `@cupyx.jit.reductionkernel` that CuPy's tutorials mention).

    The function takes the inputs (named as in `in_params`) and returns the value to
    reduce. `reduce` is '+', '*', 'max', 'min' or a function of (a, b); `post_map` an
    optional function of the reduced value `a` giving the output::

        @jit.reductionkernel('T x', 'T y', 0, post_map=lambda a: math.sqrt(a))
        def l2norm(x):
            return x * x
    """
    def wrapper(func):
        return _JitReductionKernel(func, in_params, out_params, identity, reduce, post_map,
                                   reduce_type, name or func.__name__, options)
    return wrapper
