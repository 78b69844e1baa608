"""Fourier-domain filters (cuarray version of `scipy.ndimage`'s fourier chapter).

One generated kernel per (filter, rank, dtypes): each thread turns its flat index into
coordinates, each coordinate into a frequency in cycles per sample (FFT order, or i / n
along `axis` for the output of a real FFT of length n), and multiplies the input by the
filter's transfer function there.
"""
import numpy

import cuarray
from cuarray._core import dtypes as _dt
from cuarray.scipy.ndimage import _filter_kernels as _k
from cuarray.scipy.ndimage._util import (check_axis, check_input, contiguous,
                                         normalize_sequence, work_output)

# The transfer function at frequencies f0..f(nd-1) with per-axis parameters p0..: `h`.
TRANSFER = {
    "gaussian": "double e = 0;{sum}\n    const double h = exp(-2.0 * ND_PI * ND_PI * e);",
    "uniform": "double h = 1;{prod}",
    "ellipsoid": "double rr = 0;{rsum}\n    const double r = ND_PI * sqrt(rr);\n"
                 "    const double h = r == 0 ? 1.0 : {shape};",
    "shift": "double ph = 0;{phase}\n    const complex<double> h(cos(ph), -sin(ph));",
}
_ELLIPSOID = {1: "sin(r) / r", 2: "2.0 * j1(r) / r", 3: "3.0 * (sin(r) - r * cos(r)) / (r * r * r)"}


def fourier_source(name, kind, nd, tin, tout, acc, axis, real_n):
    """CUDA source of a Fourier filter over a C-contiguous array of rank `nd`."""
    sig = [f"const {tin}* __restrict__ in", f"{tout}* __restrict__ out", "const long long n"]
    sig += [f"const long long sh{d}" for d in range(nd)]
    sig += [f"const double p{d}" for d in range(nd)]
    sig.append("const double rn")
    L = [_k.PRELUDE, "#define ND_PI 3.141592653589793238462643383279502884",
         f'extern "C" __global__ void {name}({", ".join(sig)}) {{',
         "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; "
         "i += (long long)blockDim.x * gridDim.x) {",
         "    long long q = i;"]
    for d in range(nd - 1, -1, -1):
        L.append(f"    const long long o{d} = q % sh{d}; q /= sh{d};")
        if real_n and d == axis:
            L.append(f"    const double f{d} = (double)o{d} / rn;")
        else:
            L.append(f"    const double f{d} = (double)(o{d} < (sh{d} + 1) / 2 ? o{d} : "
                     f"o{d} - sh{d}) / (double)sh{d};")
    body = TRANSFER[kind].format(
        sum="".join(f"\n    e += p{d} * p{d} * f{d} * f{d};" for d in range(nd)),
        prod="".join(f"\n    {{ const double a = ND_PI * f{d} * p{d}; "
                     f"if (a != 0) h *= sin(a) / a; }}" for d in range(nd)),
        rsum="".join(f"\n    rr += (f{d} * p{d}) * (f{d} * p{d});" for d in range(nd)),
        phase="".join(f"\n    ph += 2.0 * ND_PI * f{d} * p{d};" for d in range(nd)),
        shape=_ELLIPSOID.get(nd, "1.0"))
    L += [f"    {body}",
          f"    out[i] = cuarray_cast<{tout}>(cuarray_cast<{acc}>(in[i]) * h);",
          "  }", "}"]
    return "\n".join(L) + "\n"


def _output(output, input, complex_only):
    """SciPy's output rules for the Fourier filters."""
    allowed = (numpy.complex64, numpy.complex128) if complex_only else \
        (numpy.complex64, numpy.complex128, numpy.float32, numpy.float64)
    if output is None:
        if complex_only:
            dt = numpy.complex64 if input.dtype == numpy.complex64 else numpy.complex128
        else:
            dt = input.dtype if input.dtype.type in allowed[:3] else numpy.float64
        return cuarray.zeros(input.shape, dtype=dt)
    if isinstance(output, cuarray.ndarray):
        if output.shape != input.shape:
            raise RuntimeError("output shape not correct")
        if output.dtype.type not in allowed:
            raise RuntimeError("output type not supported")
        return output
    if numpy.dtype(output).type not in allowed:
        raise RuntimeError("output type not supported")
    return cuarray.zeros(input.shape, dtype=output)


def _fourier(kind, input, params, n, axis, output):
    input = check_input(input)
    out = _output(output, input, kind == "shift")
    nd = input.ndim
    if kind == "ellipsoid":
        if nd > 3:
            raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    params = [float(p) for p in normalize_sequence(params, nd, "sigma" if kind == "gaussian"
                                                   else "size" if kind != "shift" else "shift")]
    axis = check_axis(axis, nd) if nd else 0
    if input.size == 0:
        return out
    real_n = n >= 0 if n is not None else False
    src = contiguous(input)
    target, finish = work_output(out, [input])
    acc = "complex<double>" if (kind == "shift" or input.dtype.kind == "c") else "double"
    tin, tout = _dt.ctype(src.dtype), _dt.ctype(target.dtype)
    key = ("fourier", kind, nd, src.dtype.char, target.dtype.char, axis, real_n)

    def build():
        name = f"nd_fourier_{kind}_{nd}d_{_k._code(src.dtype)}{_k._code(target.dtype)}_{axis}_{int(real_n)}"
        return name, fourier_source(name, kind, nd, tin, tout, acc, axis, real_n), \
            ["P", "P", "q"] + ["q"] * nd + ["d"] * nd + ["d"]
    entry = _k._get(key, build)
    _k._launch(entry, src.size, [src._ptr, target._ptr, src.size] + list(src.shape) + params +
               [float(n if real_n else 1)])
    return finish()


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """cuarray version of `scipy.ndimage.fourier_gaussian`."""
    return _fourier("gaussian", input, sigma, n, axis, output)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """cuarray version of `scipy.ndimage.fourier_uniform`."""
    return _fourier("uniform", input, size, n, axis, output)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """cuarray version of `scipy.ndimage.fourier_ellipsoid`."""
    return _fourier("ellipsoid", input, size, n, axis, output)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """cuarray version of `scipy.ndimage.fourier_shift`."""
    return _fourier("shift", input, shift, n, axis, output)
