"""Where the translator's input and output live: a Python function's parsed source, the
C names of its variables, and the generated compilation unit."""
import ast
import inspect
import linecache
import textwrap

PRELUDE = """#include <cuarray/core.cuh>
template <class T, int N> struct _jit_array {
  T* data;
  long long size;
  long long shape[N > 0 ? N : 1];
  long long strides[N > 0 ? N : 1];
};
// x[i] of an N-d array: the M-d sub-array at byte offset `off` (M = N - number of indices)
template <int M, class T, int N>
__device__ __forceinline__ _jit_array<T, M> _jit_view(const _jit_array<T, N>& a, long long off) {
  _jit_array<T, M> r;
  r.data = (T*)((char*)a.data + off);
  r.size = 1;
  for (int d = 0; d < M; ++d) {
    r.shape[d] = a.shape[N - M + d];
    r.strides[d] = a.strides[N - M + d];
    r.size *= r.shape[d];
  }
  return r;
}"""

_RESERVED = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while bool true false class delete new this template typename
namespace operator private protected public virtual friend throw try catch explicit mutable
using export asm typeid wchar_t const_cast static_cast dynamic_cast reinterpret_cast and or
not xor bitand bitor compl and_eq or_eq not_eq xor_eq alignas alignof char16_t char32_t
constexpr decltype noexcept nullptr static_assert thread_local concept requires
threadIdx blockIdx blockDim gridDim warpSize half float16 complex
sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh exp exp2 expm1 log log2
log10 log1p sqrt cbrt pow fabs floor ceil trunc rint round fmod hypot isnan isinf isfinite
signbit copysign nextafter fmin fmax min max abs real imag conj arg norm modf frexp ldexp
printf assert""".split())


def cname(name):
    """C name of a Python local or parameter (C keywords and CUDA names are renamed)."""
    if name in _RESERVED or name.startswith("_"):
        return f"_u{name}"
    return name


class Source:
    """The parsed definition of a Python function, for translation and error messages."""

    def __init__(self, func):
        if not inspect.isfunction(func):
            raise TypeError(f"cuarray.jit translates Python functions, not {type(func).__name__}")
        try:
            lines, first = inspect.getsourcelines(func)
            filename = inspect.getsourcefile(func) or "<unknown>"
        except (OSError, TypeError) as e:
            raise TypeError(f"cuarray.jit needs the Python source of {func.__qualname__} and "
                            f"cannot read it ({e}); define kernels in a file, a notebook cell or "
                            f"IPython, not at the plain interactive prompt") from None
        self.filename = filename
        self.name = func.__name__
        if func.__name__ == "<lambda>":
            self.fdef, self.offset = self._lambda(func, filename, first, len(lines)), 0
            self.lines = linecache.getlines(filename)
        else:
            tree = ast.parse(textwrap.dedent("".join(lines)))
            self.fdef = tree.body[0]
            self.offset = first - 1
            self.lines = lines
            self.first = first

    @staticmethod
    def _lambda(func, filename, first, n):
        tree = ast.parse("".join(linecache.getlines(filename)))
        names = list(func.__code__.co_varnames[:func.__code__.co_argcount])
        found = [x for x in ast.walk(tree) if isinstance(x, ast.Lambda)
                 and first <= x.lineno < first + n and [a.arg for a in x.args.args] == names]
        if len(found) != 1:
            raise TypeError(f"cuarray.jit cannot tell which lambda on line {first} of {filename} "
                            f"is {func!r}; define it with def")
        lam = found[0]
        ret = ast.Return(lam.body)
        ast.copy_location(ret, lam)
        fdef = ast.FunctionDef(name="_lambda", args=lam.args, body=[ret], decorator_list=[],
                               returns=None, type_params=[])
        return ast.copy_location(fdef, lam)

    def line(self, node):
        """(absolute line number, text of that line)."""
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            return None, ""
        if self.offset:
            text = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
            return lineno + self.offset, text.rstrip()
        text = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        return lineno, text.rstrip()


class Generated:
    """The pieces of one compilation unit: helper and device functions in definition order."""

    def __init__(self):
        self.codes = []
        self.device = {}  # (function, argument types) -> (C name, return type); None: in progress

    def add(self, code):
        if code not in self.codes:
            self.codes.append(code)

    def source(self):
        return PRELUDE + "\n\n" + "\n\n".join(self.codes) + "\n"
