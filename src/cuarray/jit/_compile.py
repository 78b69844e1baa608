"""Python function -> CUDA C: the translator behind cuarray.jit.

One translation per (function, argument types). Names follow Python's scoping: a name
assigned in the function is local; others are read from the closure, the globals and
the builtins when the kernel is compiled (as CuPy's JIT does). A local assigned once
with a value known at compile time (`n = 256`), an array, shared memory or a tuple is a
compile-time binding; any other local is a C variable whose type is the NumPy promotion
of every value assigned to it (found by re-translating until the types settle).

Arithmetic follows NumPy: each operator or math call is the ufunc-table loop that
`numpy.<ufunc>.resolve_dtypes` picks, with Python literals weak (NEP 50).

`Translator` keeps here its per-pass state, the driver that re-translates until the
types settle, and the C function it emits; its statement and expression methods are the
mixins of _statements.py and _expressions.py.
"""
import ast

from cuarray._core import dtypes as _dt
from cuarray._core.fusion import cast as _cast
from cuarray.jit._expressions import Expressions
from cuarray.jit._source import Generated, Source, cname
from cuarray.jit._statements import Statements
from cuarray.jit._types import Array, Expr, ctype, join, strong


def _assignments(fdef):
    """How many times each name is bound in the function's own body."""
    counts = {}

    def bind(t, n=1):
        if isinstance(t, ast.Name):
            counts[t.id] = counts.get(t.id, 0) + n
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                bind(e, n)
        elif isinstance(t, ast.Starred):
            bind(t.value, n)

    for node in ast.walk(fdef):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                bind(t)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            bind(node.target, 2 if isinstance(node, ast.AugAssign) else 1)
        elif isinstance(node, ast.For):
            bind(node.target, 2)  # a loop variable is assigned once per iteration
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    bind(item.optional_vars)
        elif isinstance(node, ast.NamedExpr):
            bind(node.target)
    return counts


class Translator(Statements, Expressions):
    """Translates one Python function for one tuple of argument types.

    kind: 'global' (an extern "C" __global__ kernel), 'device' (a __device__ function)
    or 'elementwise' (a __device__ function whose `outputs` are reference parameters).
    """

    def __init__(self, func, arg_types, gen, kind, name, mode="python", outputs=(), extra=()):
        self.func = func
        self.src = Source(func)
        self.gen = gen
        self.kind = kind
        self.name = name
        self.mode = mode
        fdef = self.src.fdef
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
            self.err(fdef, "cuarray.jit kernels take plain positional parameters only (no "
                           "*args, **kwargs, keyword-only parameters or defaults)", SyntaxError)
        self.params = [x.arg for x in a.args]
        # Elementwise kernels: outputs (name -> dtype) are reference parameters; `extra` ones
        # are not parameters of the Python function (it returns their value).
        self.outputs = dict(outputs)
        self.extra = [n for n in extra]
        if len(self.params) != len(arg_types):
            raise TypeError(f"{self.src.name}() takes {len(self.params)} arguments but "
                            f"{len(arg_types)} were given")
        self.param_types = dict(zip(self.params, arg_types))
        self.counts = _assignments(fdef)
        for p, t in self.param_types.items():
            if p in self.counts and isinstance(t, Array):
                self.err(fdef, f"parameter {p!r} is an array and cannot be reassigned")
        self.scope = {}
        if func.__closure__:
            for n, c in zip(func.__code__.co_freevars, func.__closure__):
                try:
                    self.scope[n] = c.cell_contents
                except ValueError:
                    pass
        self.n = 0

    # ---- errors -------------------------------------------------------------------------------
    def err(self, node, msg, cls=TypeError):
        lineno, text = self.src.line(node)
        if cls is SyntaxError:
            raise SyntaxError(f"cuarray.jit: {msg}",
                              (self.src.filename, lineno, getattr(node, "col_offset", 0) + 1, text))
        where = f' (line {lineno} of {self.src.filename}, in {self.src.name}: {text.strip()})' \
            if lineno else ""
        raise cls(f"cuarray.jit: {msg}{where}")

    def fresh(self, prefix="_jt"):
        self.n += 1
        return f"{prefix}{self.n}"

    def temp(self, t, code):
        """A fresh local holding `code` (of scalar type `t`), assigned before the statement."""
        name = self.fresh()
        self.decls[name] = ctype(t)
        self.pending.append(f"{name} = {code};")
        return Expr(name, strong(t))

    # ---- driver -------------------------------------------------------------------------------
    def translate(self):
        """Translate, add the C function to `gen`, and return its return type (or None)."""
        assumed = {}
        for _ in range(32):
            self._reset(assumed)
            # Device functions a pass translated with provisional types are dropped with it.
            codes, device = list(self.gen.codes), dict(self.gen.device)
            try:
                body = self._block(self.src.fdef.body, 1)
            except (TypeError, ValueError, IndexError, AttributeError, NameError, OverflowError):
                # A provisional pass (it read variables of unknown type) may fail where the
                # final one does not; retry while it still learns types.
                new = {n: join(seen) for n, seen in self.observed.items()}
                if not self.unknown or new == assumed:
                    raise
                self.gen.codes, self.gen.device = codes, device
                assumed = new
                continue
            new = {n: join(seen) for n, seen in self.observed.items()}
            new = {n: t for n, t in new.items() if t is not None}
            if new == assumed and not self.unknown:
                self.gen.add(self._function(body))
                return self.var_types.get("<return>")
            self.gen.codes, self.gen.device = codes, device
            missing = [n for n in self.unknown if n not in new]
            if missing:
                node = self.unknown[missing[0]]
                self.err(node, f"local variable {missing[0]!r} is read but never assigned a "
                               f"value", NameError)
            assumed = new
        raise TypeError(f"cuarray.jit: the types of the variables of {self.src.name} do not settle")

    def _reset(self, assumed):
        self.var_types = dict(assumed)
        self.observed = {}
        self.bindings = {}
        self.unknown = {}
        self.decls = {}
        self.pending = []
        self.n = 0
        for p, t in self.param_types.items():
            if p in self.counts and p not in self.outputs:
                self.observed[p] = [t]
                self.var_types.setdefault(p, t)

    def _function(self, body):
        params, head = [], []
        for p in self.params:
            t = self.param_types[p]
            c = cname(p)
            if isinstance(t, Array):
                if self.kind == "global":
                    el = _dt.ctype(t.dtype)
                    params.append(f"{el}* _ja_{c}, long long _jn_{c}" +
                                  "".join(f", long long _jh_{c}_{d}" for d in range(t.ndim)) +
                                  "".join(f", long long _js_{c}_{d}" for d in range(t.ndim)))
                    head.append(f"{t.cname} {c}; {c}.data = _ja_{c}; {c}.size = _jn_{c};" +
                                "".join(f" {c}.shape[{d}] = _jh_{c}_{d};" for d in range(t.ndim)) +
                                "".join(f" {c}.strides[{d}] = _js_{c}_{d};" for d in range(t.ndim)))
                else:
                    params.append(f"const {t.cname} {c}")
            elif p in self.outputs:
                params.append(f"{_dt.ctype(t)}& {c}")
            elif p in self.counts:
                params.append(f"const {ctype(t)} _jp_{c}")
                head.append(f"{c} = {_cast(f'_jp_{c}', t, self.var_types[p])};")
            else:
                params.append(f"const {ctype(t)} {c}")
        params += [f"{_dt.ctype(self.outputs[n])}& {cname(n)}" for n in self.extra]
        decls = [f"{ctype(t)} {cname(n)};" for n, t in self.var_types.items()
                 if n != "<return>" and n not in self.bindings and n not in self.outputs
                 and (n not in self.param_types or n in self.counts)]
        decls += [f"{t} {n};" for n, t in self.decls.items()]
        ret = self.var_types.get("<return>")
        if self.kind == "global":
            sig = f'extern "C" __global__ void {self.name}({", ".join(params)})'
        else:
            rt = "void" if ret is None else ctype(ret)
            sig = f"__device__ {rt} {self.name}({', '.join(params)})"
        return "\n".join([sig + " {"] + ["  " + x for x in decls + head] + body + ["}"])



def translate_kernel(func, arg_types, mode="python", name=None):
    """CUDA source of `func` as an extern "C" kernel for `arg_types`; returns (source, name)."""
    from cuarray._runtime.compiler import c_identifier
    name = name or c_identifier(func.__name__)
    gen = Generated()
    Translator(func, list(arg_types), gen, "global", name, mode).translate()
    return gen.source(), name
