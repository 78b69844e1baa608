"""The ufuncs of cuarray.scipy.special: one table row per function, each a cuarray ufunc
(so `out=`, `where=`, `dtype=`, broadcasting and the warm path come with it).

Loops are SciPy's real ones, in SciPy's order, and dtypes resolve as SciPy's ufuncs do:
an exact loop for the operands' dtypes if there is one, else the first loop every operand
casts to safely. Python scalars take part as NumPy's legacy resolver has them (SciPy's ufuncs
resolve through NumPy's legacy rules, so `xlogy(float32_array, 2.0)` is float64 where
`rel_entr(float32_array, 2.0)` is float32). Complex loops are not provided: complex
inputs raise TypeError.
"""
import numpy

from cuarray._core.elementwise import Op, Param
from cuarray._core.ufunc import _Loop, ufunc
from cuarray.scipy.special._loops import _D, _DD, _F, _FF
from cuarray.scipy.special._math import SOURCE

_PY = {bool: numpy.dtype(numpy.bool_), int: numpy.dtype(numpy.int64),
       float: numpy.dtype(numpy.float64), complex: numpy.dtype(numpy.complex128)}


def _scalar_dtype(kind, array_dtypes):
    """The dtype a Python scalar takes among arrays (NumPy's legacy resolution under NEP 50):
    its default dtype alone, else what it promotes to with the arrays' dtypes."""
    if not array_dtypes:
        return _PY[kind]
    return numpy.result_type(*array_dtypes, kind(0))


def resolve(name, types, in_dtypes, dtype=None, casting="same_kind"):
    """(input dtypes, output dtype) of the loop `types` gives for operands of `in_dtypes`
    (numpy dtypes, or Python scalar types), SciPy's way; TypeError when none fits.

    As NumPy's legacy type resolver: a loop matching the operands exactly wins (only when
    none is a Python scalar), else the first loop they all cast to safely, where a Python
    int also fits any integer loop (SciPy's `pdtri(3, float32_array)` takes 'ld->d') and
    a Python float a double one (`lambertw(complex_array, 0, 1e-8)` takes 'Dld->D').
    """
    arrays = [numpy.dtype(d) for d in in_dtypes if not isinstance(d, type)]
    has_py = len(arrays) != len(in_dtypes)
    ins = [_scalar_dtype(d, arrays) if isinstance(d, type) else numpy.dtype(d)
           for d in in_dtypes]
    loops = [(tuple(numpy.dtype(c) for c in t.split("->")[0]), numpy.dtype(t[-1]))
             for t in types]   # multi-output loops have one output dtype throughout
    if dtype is not None:
        dtype = numpy.dtype(dtype)
        for lin, lout in loops:
            if lout == dtype and all(numpy.can_cast(i, li, casting) for i, li in zip(ins, lin)):
                return lin, lout
    else:
        if not has_py or not arrays:
            for lin, lout in loops:
                if tuple(ins) == lin:
                    return lin, lout
        for lin, lout in loops:
            if all(numpy.can_cast(i, li, "safe") or (d is int and li.kind in "iu") or
                   (d is float and li == _PY[float])
                   for d, i, li in zip(in_dtypes, ins, lin)):
                return lin, lout
    if any(i.kind == "c" for i in ins):
        raise TypeError(f"cuarray.scipy.special.{name} has no complex loops (SciPy's complex "
                        f"{name} is not provided)")
    raise TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could "
                    "not be safely coerced to any supported types according to the casting "
                    "rule ''safe''")


class SpecialUfunc(ufunc):
    """A cuarray ufunc computing `cusp_<fn>` of `_math.SOURCE` (cuarray version of a
    `scipy.special` ufunc)."""

    def __init__(self, name, types, fn, doc, preamble=SOURCE):
        # Not ufunc.__init__: there is no numpy.<name> to take the dtype rules from.
        self.__name__ = self.name = name
        nin, nout = (len(p) for p in types[0].split("->"))
        self.nin, self.nout, self.nargs = nin, nout, nin + nout
        self._preamble = preamble
        self.types = list(types)
        self.identity = None
        self.__doc__ = doc
        self._fn = fn
        self._loops = {}
        self._truth = False

    def _resolve(self, key, args, dtype, casting, where):
        dts = []
        for a in args:
            if type(a) in _PY:
                dts.append(type(a))
            else:
                dts.append(a.dtype)
        in_dt, out_dt = resolve(self.__name__, self.types, dts, dtype, casting)
        scalar_idx = tuple(k for k, a in enumerate(args) if not hasattr(a, "_shape"))
        params = [Param(f"in{k}", "scalar" if k in scalar_idx else "in", d)
                  for k, d in enumerate(in_dt)]
        params += [Param(f"out{k}", "out", out_dt) for k in range(self.nout)]
        guard = None
        if where:
            params.append(Param("_where", "in", numpy.dtype(bool)))
            guard = "_where"
        call = ", ".join(f"in{k}" for k in range(self.nin))
        tag = "".join(d.char for d in in_dt) + out_dt.char + "".join(map(str, scalar_idx))
        if self.nout == 1:
            body = f"out0 = cusp_{self._fn}({call});"
        else:   # the C function writes its outputs through references
            outs = ", ".join(f"out{k}" for k in range(self.nout))
            body = f"cusp_{self._fn}({call}, {outs});"
        op = Op(f"cusp_{self.__name__}_{tag}{'_w' if where else ''}", params, body,
                preamble=self._preamble, guard=guard)
        entry = self._loops[key] = _Loop(op, in_dt, (out_dt,) * self.nout, scalar_idx)
        return entry


# name: (loops in SciPy's order, C function, summary)
TABLE = {
    "erf": (_D, "erf", "The error function."),
    "erfc": (_D, "erfc", "The complementary error function, 1 - erf(x)."),
    "erfcx": (_D, "erfcx", "The scaled complementary error function, exp(x**2) * erfc(x)."),
    "erfinv": (_F, "erfinv", "The inverse of the error function."),
    "erfcinv": (_F, "erfcinv", "The inverse of the complementary error function."),
    "gamma": (_D, "gamma", "The gamma function (NaN at the poles, as SciPy)."),
    "gammaln": (_D, "gammaln", "The logarithm of the absolute value of the gamma function."),
    "rgamma": (_D, "rgamma", "The reciprocal of the gamma function."),
    "gammasgn": (_D, "gammasgn", "The sign of the gamma function."),
    "digamma": (_D, "digamma", "The digamma function: the logarithmic derivative of gamma."),
    "psi": (_D, "digamma", "The digamma function (an alias of digamma)."),
    "beta": (_DD, "beta", "The beta function, gamma(a) gamma(b) / gamma(a + b)."),
    "betaln": (_DD, "betaln", "The natural logarithm of the absolute value of beta(a, b)."),
    "expit": (_D, "expit", "The logistic sigmoid, 1 / (1 + exp(-x))."),
    "logit": (_D, "logit", "The logit function, log(p / (1 - p))."),
    "log_expit": (_D, "log_expit", "The logarithm of the logistic sigmoid."),
    "xlogy": (_DD, "xlogy", "x * log(y), 0 where x == 0 (unless y is NaN)."),
    "xlog1py": (_DD, "xlog1py", "x * log1p(y), 0 where x == 0 (unless y is NaN)."),
    "entr": (_F, "entr", "The elementwise entropy, -x log(x)."),
    "rel_entr": (_FF, "rel_entr", "The elementwise relative entropy, x log(x / y)."),
    "kl_div": (_FF, "kl_div", "The elementwise Kullback-Leibler divergence, "
                              "x log(x / y) - x + y."),
    "ndtr": (_D, "ndtr", "The standard normal cumulative distribution function."),
    "ndtri": (_F, "ndtri", "The inverse of ndtr."),
    "log_ndtr": (_D, "log_ndtr", "The logarithm of ndtr, accurate in both tails."),
    "j0": (_D, "j0", "The Bessel function of the first kind of order 0."),
    "j1": (_D, "j1", "The Bessel function of the first kind of order 1."),
    "y0": (_D, "y0", "The Bessel function of the second kind of order 0."),
    "y1": (_D, "y1", "The Bessel function of the second kind of order 1."),
    "i0": (_D, "i0", "The modified Bessel function of the first kind of order 0."),
    "i1": (_D, "i1", "The modified Bessel function of the first kind of order 1."),
    "i0e": (_D, "i0e", "The exponentially scaled modified Bessel function of order 0."),
    "i1e": (_D, "i1e", "The exponentially scaled modified Bessel function of order 1."),
    "exp2": (_D, "exp2", "2**x."),
    "exp10": (_D, "exp10", "10**x."),
    "cbrt": (_D, "cbrt", "The cube root."),
    "expm1": (_D, "expm1", "exp(x) - 1."),
    "log1p": (_D, "log1p", "log(1 + x)."),
    "_zeta": (_FF, "zeta", "The Hurwitz zeta function."),
    "_riemann_zeta": (_D, "zeta", "The Riemann zeta function."),
    "_polygamma": (_FF, "polygamma", "The polygamma function."),
}

UFUNCS = {name: SpecialUfunc(name, types, fn, f"{doc}\n\ncuarray version of "
                             f"`scipy.special.{name}`.")
          for name, (types, fn, doc) in TABLE.items()}


def _more():
    """The ufuncs whose device code lives beside its own table (the preamble of each holds
    only the code it needs)."""
    from cuarray.scipy.special._cdf import SOURCE_CDF, TABLE_CDF
    from cuarray.scipy.special._elementary import SOURCE_ELEMENTARY, TABLE_ELEMENTARY
    from cuarray.scipy.special._lambertw import SOURCE_LAMBERTW, TABLE_LAMBERTW
    for table, source in ((TABLE_CDF, SOURCE_CDF), (TABLE_ELEMENTARY, SOURCE_ELEMENTARY),
                          (TABLE_LAMBERTW, SOURCE_LAMBERTW)):
        for name, (types, fn, doc) in table.items():
            UFUNCS[name] = SpecialUfunc(name, types, fn, f"{doc}\n\ncuarray version of "
                                        f"`scipy.special.{name}`.", source)


_more()
