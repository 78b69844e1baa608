"""The statements of the cuarray.jit translator: assignments, augmented assignments,
if / while / for-range, return, and the blocks they form.

A mixin of `_compile.Translator`, apart from it so that statements and expressions
(_expressions.py) each read on their own; it uses the translator's per-pass state
(`pending`, `observed`, `var_types`, `bindings`, ...) and its expression methods.
"""
import ast
import builtins

import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.fusion import literal
from cuarray.jit import _builtins as B
from cuarray.jit._expressions import _BINOPS
from cuarray.jit._source import cname
from cuarray.jit._types import (INT64, UNKNOWN, Array, Const, Expr, Tuple, describe, is_weak, join,
                                strong, type_of)


class Statements:
    """Statement translation for `_compile.Translator` (each method returns C lines)."""

    def _block(self, stmts, depth):
        out = []
        ind = "  " * depth
        for s in stmts:
            saved, self.pending = self.pending, []
            lines = self._stmt(s, depth)
            pre, self.pending = self.pending, saved
            out += [ind + p for p in pre] + lines
        return out

    def _stmt(self, s, d):
        ind = "  " * d
        if isinstance(s, ast.Expr):
            v = self.expr(s.value)
            if isinstance(v, Expr) and v.code:
                return [f"{ind}{v.code};"]
            return []  # a docstring or another value without effect
        if isinstance(s, ast.Assign):
            v = self.expr(s.value)
            out = []
            if len(s.targets) > 1 and isinstance(v, Expr) and type_of(v) is not None:
                v = self.temp(v.type, v.code)  # evaluate once for `a = b = f(x)`
            for t in s.targets:
                out += self._assign(t, v, d, s)
            return out
        if isinstance(s, ast.AugAssign):
            return self._augassign(s, d)
        if isinstance(s, ast.AnnAssign):
            return self._annassign(s, d)
        if isinstance(s, ast.If):
            test = self.expr(s.test)
            if isinstance(test, Const):
                return self._block(s.body if test.value else s.orelse, d)
            out = [f"{ind}if ({self.cond(test, s.test)}) {{"] + self._block(s.body, d + 1)
            if s.orelse:
                out += [f"{ind}}} else {{"] + self._block(s.orelse, d + 1)
            return out + [f"{ind}}}"]
        if isinstance(s, ast.For):
            return self._for(s, d)
        if isinstance(s, ast.While):
            if s.orelse:
                self.err(s, "while ... else is not supported", SyntaxError)
            test = self.expr(s.test)
            if self.pending:
                self.err(s, "this while condition cannot be translated (it declares values)")
            return [f"{ind}while ({self.cond(test, s.test)}) {{"] + self._block(s.body, d + 1) + \
                [f"{ind}}}"]
        if isinstance(s, ast.Break):
            return [f"{ind}break;"]
        if isinstance(s, ast.Continue):
            return [f"{ind}continue;"]
        if isinstance(s, ast.Pass):
            return []
        if isinstance(s, ast.Return):
            return self._return(s, d)
        what = {ast.FunctionDef: "a nested function definition", ast.ClassDef: "a class definition",
                ast.Lambda: "lambda", ast.With: "a with statement", ast.Try: "try/except",
                ast.Raise: "raise", ast.Assert: "assert", ast.Delete: "del",
                ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Import: "import",
                ast.ImportFrom: "import"}.get(type(s), type(s).__name__)
        self.err(s, f"{what} is not supported in a kernel", SyntaxError)

    def _return(self, s, d):
        ind = "  " * d
        if s.value is None:
            return [f"{ind}return;"]
        v = self.expr(s.value)
        if self.kind == "global":
            self.err(s, "a kernel cannot return a value; write results into an output array")
        if self.kind == "elementwise":
            if len(self.extra) != 1:
                self.err(s, "return in an elementwise kernel needs exactly one output parameter, "
                            "left out of the function's parameters")
            (o, dt), = self.outputs.items()
            return [f"{ind}{cname(o)} = {self.cast(v, dt, s)};", f"{ind}return;"]
        t = type_of(v)
        if t is None:
            self.err(s, f"a device function returns numbers only, not {describe(v)}")
        if t is UNKNOWN:
            return []
        self.observed.setdefault("<return>", []).append(strong(t))
        rt = self.var_types.get("<return>") or strong(t)
        return [f"{ind}return {self.cast(v, rt, s)};"]

    def _annassign(self, s, d):
        if not isinstance(s.target, ast.Name) or s.value is None:
            self.err(s, "annotations are supported as `name: dtype = value` only", SyntaxError)
        ann = self.expr(s.annotation)
        try:
            dt = _dt.check_dtype(numpy.dtype(ann.value)) if isinstance(ann, Const) else None
        except TypeError:
            dt = None
        if dt is None:
            self.err(s, "the annotation of a local variable must be a NumPy dtype or scalar type")
        self.observed.setdefault(s.target.id, []).append(dt)
        v = self.expr(s.value)
        return self._assign(s.target, v, d, s)

    def _assign(self, t, v, d, node):
        ind = "  " * d
        if isinstance(t, ast.Name):
            return self._assign_name(t.id, v, d, node)
        if isinstance(t, (ast.Tuple, ast.List)):
            items = self._unpack(v, len(t.elts), node)
            fixed = [self.temp(x.type, x.code) if isinstance(x, Expr) and type_of(x) is not None
                     else x for x in items]
            out = []
            for tt, x in zip(t.elts, fixed):
                out += self._assign(tt, x, d, node)
            return out
        if isinstance(t, ast.Subscript):
            ref, dt = self._element_of(t)
            return [f"{ind}{ref} = {self.cast(v, dt, node)};"]
        if isinstance(t, ast.Attribute):
            self.err(node, "assigning to attributes is not supported in a kernel", SyntaxError)
        self.err(node, f"cannot assign to {type(t).__name__}", SyntaxError)

    def _unpack(self, v, n, node):
        if isinstance(v, Tuple):
            items = list(v.items)
        elif isinstance(v, Const) and isinstance(v.value, (tuple, list)):
            items = [Const(x) for x in v.value]
        else:
            self.err(node, f"cannot unpack {describe(v)}; only tuples (x.shape, jit.grid(2), "
                           f"(a, b)) unpack")
        if len(items) != n:
            self.err(node, f"cannot unpack {len(items)} values into {n} names", ValueError)
        return items

    def _assign_name(self, name, v, d, node):
        ind = "  " * d
        if name in self.params and isinstance(self.param_types[name], Array):
            self.err(node, f"parameter {name!r} is an array and cannot be reassigned")
        if name in self.outputs:
            return [f"{ind}{cname(name)} = {self.cast(v, self.outputs[name], node)};"]
        t = type_of(v)
        if t is UNKNOWN:
            return []
        once = self.counts.get(name, 0) <= 1
        if t is None or (once and isinstance(v, Const)):
            if not once:
                self.err(node, f"{name!r} is assigned {describe(v)} and also assigned elsewhere; "
                               f"names bound to arrays, tuples or modules are assigned once")
            if isinstance(v, Tuple):
                v = Tuple([self.temp(x.type, x.code) if isinstance(x, Expr) and type_of(x) else x
                           for x in v.items])
            elif isinstance(v, Expr) and v.type is None:
                self.err(node, "this call returns nothing; it cannot be assigned")
            self.bindings[name] = v
            return []
        st = strong(t)
        self.observed.setdefault(name, []).append(st)
        vt = self.var_types.get(name) or st
        return [f"{ind}{cname(name)} = {self.cast(v, vt, node)};"]

    def _augassign(self, s, d):
        ind = "  " * d
        opname = _BINOPS.get(type(s.op))
        if opname is None:
            self.err(s, f"operator {type(s.op).__name__} is not supported", SyntaxError)
        rhs = self.expr(s.value)
        t = s.target
        if isinstance(t, ast.Name):
            cur = self._name(t)
            return self._assign_name(t.id, self.ufunc(opname, [cur, rhs], s), d, s)
        if isinstance(t, ast.Subscript):
            ref, dt = self._element_of(t)
            v = self.ufunc(opname, [Expr(ref, dt), rhs], s)
            return [f"{ind}{ref} = {self.cast(v, dt, s)};"]
        self.err(s, f"cannot assign to {type(t).__name__}", SyntaxError)

    def _stores_to_arrays(self, body):
        """Whether `body` assigns to an element of an array argument or updates one
        atomically (`x[i] = v`, `x[i] += v`, `jit.atomic_add(x, i, v)`)."""
        def is_array(node):
            while isinstance(node, ast.Subscript):
                node = node.value
            return isinstance(node, ast.Name) and \
                isinstance(self.param_types.get(node.id), Array)
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                    targets = [node.target]
                elif isinstance(node, ast.Call) and node.args and \
                        getattr(node.func, "attr", "").startswith("atomic_"):
                    targets = [ast.Subscript(value=node.args[0])]
                else:
                    continue
                if any(isinstance(t, ast.Subscript) and is_array(t) for t in targets):
                    return True
        return False

    def _for(self, s, d):
        ind = "  " * d
        if s.orelse:
            self.err(s, "for ... else is not supported", SyntaxError)
        it = s.iter
        rng = self.expr(it.func) if isinstance(it, ast.Call) else None
        if not (isinstance(rng, Const) and (rng.value is builtins.range or rng.value is B.range)):
            self.err(s, "for loops must iterate over range(...) or jit.range(...)", SyntaxError)
        if not isinstance(s.target, ast.Name):
            self.err(s, "a for loop's target must be one name", SyntaxError)
        args = [self.expr(a) for a in it.args]
        unroll = None
        for kw in it.keywords:
            if kw.arg == "unroll" and rng.value is B.range:
                unroll = self.expr(kw.value)
            else:
                self.err(it, f"range() got an unexpected keyword argument {kw.arg!r}")
        if not 1 <= len(args) <= 3:
            self.err(it, f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (Const(0), args[0], Const(1)) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else Const(1))
        for a in (start, stop, step):
            t = type_of(a)
            if t is None or (not is_weak(t) and t.kind not in "iub?") or t is float:
                self.err(it, f"range() takes integers, got {describe(a)}")
        T = join([a.type for a in (start, stop, step) if isinstance(a, Expr)]) or INT64
        if T.kind == "b":
            T = INT64
        for a in (start, stop, step):
            if isinstance(a, Const):
                info = numpy.iinfo(T)
                if not info.min <= int(a.value) <= info.max:
                    T = INT64
        if isinstance(step, Const) and int(step.value) == 0:
            self.err(it, "range() arg 3 must not be zero", ValueError)
        out = [f"{ind}{{"]
        codes = []
        for a, what in ((stop, "_stop"), (step, "_step")):
            if isinstance(a, Const):
                codes.append(literal(a.value, T))
            else:
                n = self.fresh(what)
                out.append(f"{ind}  const {_dt.ctype(T)} {n} = {self.cast(a, T, it)};")
                codes.append(n)
        stop_c, step_c = codes
        i = self.fresh("_i")
        if isinstance(step, Const):
            test = f"{i} < {stop_c}" if int(step.value) > 0 else f"{i} > {stop_c}"
        elif isinstance(step.type, numpy.dtype) and step.type.kind == "u":
            # an unsigned step counts up (CuPy's rule too)
            test = f"{i} < {stop_c}"
        else:
            test = f"({step_c} > 0 ? {i} < {stop_c} : {i} > {stop_c})"
        if unroll is None and not isinstance(step, Const) and self._stores_to_arrays(s.body):
            # A grid-stride loop that writes an argument array: NVRTC's unrolling computes
            # a trip count (a 64-bit division) in every thread, which is most of the work
            # of a thread that runs one iteration, and gains nothing elsewhere: without
            # knowing the arrays apart it may not move a later iteration's loads above a
            # store, so iterations do not overlap either way.
            unroll = Const(False)
        if unroll is not None:
            if not isinstance(unroll, Const):
                self.err(it, "jit.range's unroll must be known when the kernel is compiled")
            u = unroll.value
            if u is True:
                out.append("#pragma unroll")
            elif u is False:
                out.append("#pragma unroll 1")
            elif isinstance(u, int) and u > 0:
                out.append(f"#pragma unroll {u}")
            elif u is not None:
                self.err(it, f"jit.range's unroll must be a bool or a positive int, got {u!r}")
        out.append(f"{ind}  for ({_dt.ctype(T)} {i} = {self.cast(start, T, it)}; {test}; "
                   f"{i} += {step_c}) {{")
        saved, self.pending = self.pending, []
        assign = self._assign_name(s.target.id, Expr(i, T), d + 2, s)
        pre, self.pending = self.pending, saved
        out += [f"{ind}    {p}" for p in pre] + assign
        out += self._block(s.body, d + 2)
        return out + [f"{ind}  }}", f"{ind}}}"]
