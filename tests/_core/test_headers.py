"""cuarray's device headers (include/cuarray/*.cuh): NVRTC compiles them alone and fast;
cuarray_cast gives NumPy's results for every dtype pair (host build by g++, and on a GPU);
half and complex<T> offer the interface CuPy kernels use."""
import ctypes
import os
import re
import shutil
import subprocess
import time
import warnings

import numpy
import pytest

from cuarray._core import dtypes

import ufunc_cases

INCLUDE = os.path.join(os.path.dirname(dtypes.__file__), "include")
CHARS = "?bBhHiIqQefdFD"  # one char per C type ('l' is 'q')


def nvrtc_compile(source):
    pytest.importorskip("cuda.core")
    from cuda.core import Program, ProgramOptions
    opts = ProgramOptions(arch="sm_90", std="c++17", include_path=[INCLUDE])
    return Program(source, "c++", opts).compile("cubin")


def test_headers_include_nothing_from_the_toolkit():
    for f in os.listdir(os.path.join(INCLUDE, "cuarray")):
        text = open(os.path.join(INCLUDE, "cuarray", f)).read()
        for inc in re.findall(r"#include\s*[<\"]([^>\"]+)", text):
            assert inc.startswith("cuarray/"), f"{f} includes {inc}"


def test_trivial_kernel_compiles_fast():
    """The header is parsed on every first use of a kernel: keep it cheap (~40 ms total,
    of which the header ~5 ms, measured with NVRTC 13 on one core)."""
    src = ('#include <cuarray/core.cuh>\nextern "C" __global__ void k(const float* p, float* q, long long n) {\n'
           "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x"
           " * gridDim.x) { const float in0 = cuarray_cast<float>(p[i]); float out0; out0 = in0 + in0;"
           " q[i] = cuarray_cast<float>(out0); }\n}")
    best = min(_timed(nvrtc_compile, src) for _ in range(3))
    assert best < 0.3, f"a trivial kernel took {best * 1000:.0f} ms to compile"


def _timed(f, *args):
    t = time.perf_counter()
    f(*args)
    return time.perf_counter() - t


def _cast_source(device):
    lines = ["#include <math.h>\n#include <cuarray/core.cuh>" if not device else "#include <cuarray/core.cuh>"]
    for i, s in enumerate(CHARS):
        S = dtypes.ctype(s)
        outs = ", ".join(f"{dtypes.ctype(d)}* q{j}" for j, d in enumerate(CHARS))
        body = " ".join(f"q{j}[i] = cuarray_cast<{dtypes.ctype(d)}>(p[i]);" for j, d in enumerate(CHARS))
        if device:
            lines.append(f'extern "C" __global__ void c{i}(const {S}* p, {outs}, long long n) {{\n'
                         f"  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;"
                         f" i += (long long)blockDim.x * gridDim.x) {{ {body} }}\n}}")
        else:
            lines.append(f'extern "C" void c{i}(const {S}* p, {outs}, long long n) {{\n'
                         f"  for (long long i = 0; i < n; ++i) {{ {body} }}\n}}")
    return "\n".join(lines)


def test_casts_compile_for_every_pair():
    nvrtc_compile(_cast_source(device=True))


def cast_inputs(src):
    rng = numpy.random.default_rng(1)
    x = numpy.concatenate([ufunc_cases.edges(src), ufunc_cases.random(src, 200, rng)])
    d = numpy.dtype(src)
    if d.kind in "fc":  # values that land in every integer range, and halfway cases
        extra = numpy.array([0.5, 1.5, 2.5, -2.5, 127.9, -128.9, 255.5, 65504.0, 65519.0, 65520.0, 1e-8, 2049.0])
        with numpy.errstate(over="ignore"):
            x = numpy.concatenate([x, extra.astype(src)])
    if d.kind in "iu":  # integers that round when they become half, float, double
        big = [v for v in (2049, 65519, 65520, 2**24 + 1, 2**53 + 1) if v <= numpy.iinfo(d).max]
        x = numpy.concatenate([x, numpy.array(big, dtype=src)])
    return x


def defined(x, dst):
    """Where NumPy's cast of `x` to `dst` is defined (float -> int out of range is not)."""
    d = numpy.dtype(dst)
    if x.dtype.kind not in "fc" or d.kind not in "iu":
        return numpy.ones(x.shape, bool)
    r = x.real.astype(numpy.float64)
    info = numpy.iinfo(d)
    with numpy.errstate(invalid="ignore"):
        t = numpy.trunc(r)
        return numpy.isfinite(r) & (t >= info.min) & (t <= float(info.max) * (1 - 2**-52))


def expected_cast(x, dst):
    with warnings.catch_warnings(), numpy.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # ComplexWarning: the imaginary part is dropped, as cuarray does
        return x.astype(dst)


def _compare_cast(src, dst, x, got):
    exp = expected_cast(x, dst)
    ok = defined(x, dst)
    bad = ok & (ufunc_cases.mismatch_mask(got, exp, exact=True))
    idx = numpy.flatnonzero(bad)
    return [f"{numpy.dtype(src)} -> {numpy.dtype(dst)}: {len(idx)} differ, e.g. "
            + "; ".join(f"{x[i]!r} -> {got[i]!r}, numpy {exp[i]!r}" for i in idx[:3])] if len(idx) else []


@pytest.fixture(scope="module")
def host_casts(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("no g++ to build the headers for the host")
    tmp = tmp_path_factory.mktemp("host_casts")
    (tmp / "casts.cpp").write_text(_cast_source(device=False))
    r = subprocess.run([gxx, "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{INCLUDE}", "-o", str(tmp / "casts.so"),
                        str(tmp / "casts.cpp")], capture_output=True, text=True)
    if r.returncode and "_Float16" in r.stderr:
        pytest.skip("this g++ has no _Float16")
    assert r.returncode == 0, r.stderr[:5000]
    return ctypes.CDLL(str(tmp / "casts.so"))


def _host_cast(lib, x):
    """{dst char: x cast by cuarray_cast} from the host build."""
    outs = [numpy.empty(len(x), dtype=d) for d in CHARS]
    fn = getattr(lib, f"c{CHARS.index(x.dtype.char.replace('l', 'q'))}")
    fn(ctypes.c_void_p(x.ctypes.data), *[ctypes.c_void_p(o.ctypes.data) for o in outs], ctypes.c_longlong(len(x)))
    return dict(zip(CHARS, outs))


@pytest.mark.parametrize("src", CHARS)
def test_casts_match_numpy(host_casts, src):
    x = cast_inputs(src)
    fails = []
    for dst, got in _host_cast(host_casts, x).items():
        fails += _compare_cast(src, dst, x, got)
    assert not fails, "\n".join(fails)


def test_out_of_range_float_to_int_wraps_as_x86_numpy(host_casts):
    """Undefined in C and NumPy; cuarray goes through a wider signed integer, which gives
    x86 NumPy's answer whenever the value fits there (and never traps)."""
    x = numpy.array([-1.0, 300.0, -129.0, 70000.0, 3e9, -3e9])
    got = _host_cast(host_casts, x)
    assert list(got["B"]) == [255, 44, 127, 112, 0, 0]
    assert list(got["b"]) == [-1, 44, 127, 112, 0, 0]
    assert list(got["h"][:4]) == [-1, 300, -129, 4464]
    assert list(got["H"][:4]) == [65535, 300, 65407, 4464]
    assert list(got["I"][:4]) == [4294967295, 300, 4294967167, 70000] and got["I"][4] == 3000000000
    assert got["Q"][0] == 2**64 - 1 and got["Q"][2] == 2**64 - 129


def test_half_conversions_are_numpys_roundings(host_casts):
    """Every float16 bit pattern to float, and float32/float64 to float16 with ties and
    subnormals (the host build's _Float16; the device build's cvt.rn is checked on a GPU)."""
    h = numpy.arange(65536, dtype=numpy.uint16).view(numpy.float16)
    got = _host_cast(host_casts, h)["f"]
    assert not ufunc_cases.mismatch_mask(got, h.astype(numpy.float32), exact=True).any()
    rng = numpy.random.default_rng(2)
    bits = numpy.concatenate([rng.integers(0, 2**32, 200000, dtype=numpy.uint64).astype(numpy.uint32),
                              (numpy.arange(65536, dtype=numpy.uint32) << 13) + 0x1000])  # exact ties
    for src in ("f", "d"):
        with numpy.errstate(all="ignore"):  # signaling NaNs among the bit patterns
            x = bits.view(numpy.float32).astype(src)
            if src == "d":
                x = x + x * 2.0**-30  # bits below float32's
        got = _host_cast(host_casts, x)["e"]
        with numpy.errstate(all="ignore"):
            assert not ufunc_cases.mismatch_mask(got, x.astype(numpy.float16), exact=True).any(), src


def test_complex_and_half_interface_compiles():
    """What CuPy kernels write with thrust::complex and float16."""
    nvrtc_compile(r"""
#include <cuarray/core.cuh>
extern "C" __global__ void k(complex<float>* z, complex<double>* w, float16* h, float* f, bool* b) {
  complex<float> a = z[0], c(1.0f, 2.0f), d = 3.0f;
  a += c; a -= d; a *= c; a /= d;
  z[1] = a * 2.0f + 1.0f / a - 2.0f * conj(a) + exp(a) * log(a) / sqrt(a) + pow(a, 2.0f) + pow(a, c);
  f[0] = a.real() + a.imag() + real(a) + imag(a) + abs(a) + arg(a) + norm(a);
  z[2].real(f[1]); z[2].imag(f[2]);
  b[0] = a == c || a != d || a == 0.0f || isnan(a) || isinf(a) || isfinite(a);
  w[0] = complex<double>(a) + sin(w[1]) * cos(w[2]) / tan(w[3]) + sinh(w[1]) - cosh(w[1]) + tanh(w[1])
       + asin(w[1]) + acos(w[1]) + atan(w[1]) + asinh(w[1]) + acosh(w[1]) + atanh(w[1])
       + log10(w[1]) + log2(w[1]) + exp2(w[1]) + expm1(w[1]) + log1p(w[1]);
  float16 x = h[0], y = 2.5f, zz = 3;
  h[1] = x + y * zz - x / y;   // through float, rounded once when stored
  h[2] = sin(x) + 1;
  b[1] = x < y && x != zz && isnan(x) && !isinf(y);
  f[3] = x;
  h[3] = cuarray_cast<half>(w[0]);
}
""")


# ---- on a GPU: the device build (PTX cvt for half) through the public astype ------------------
@pytest.mark.gpu
@pytest.mark.parametrize("src", CHARS)
def test_casts_on_gpu_match_numpy(src):
    import cuarray
    x = cast_inputs(src)
    a = cuarray.asarray(x)
    fails = []
    for dst in CHARS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = cuarray.asnumpy(a.astype(dst))
        fails += _compare_cast(src, dst, x, got)
    assert not fails, "\n".join(fails)


@pytest.mark.gpu
def test_half_conversions_on_gpu():
    import cuarray
    h = numpy.arange(65536, dtype=numpy.uint16).view(numpy.float16)
    got = cuarray.asnumpy(cuarray.asarray(h).astype(numpy.float32))
    assert not ufunc_cases.mismatch_mask(got, h.astype(numpy.float32), exact=True).any()
    rng = numpy.random.default_rng(2)
    bits = numpy.concatenate([rng.integers(0, 2**32, 1 << 20, dtype=numpy.uint64).astype(numpy.uint32),
                              (numpy.arange(65536, dtype=numpy.uint32) << 13) + 0x1000])
    for src in ("f", "d"):
        with numpy.errstate(all="ignore"):
            x = bits.view(numpy.float32).astype(src)
            if src == "d":
                x = x + x * 2.0**-30
            got = cuarray.asnumpy(cuarray.asarray(x).astype(numpy.float16))
            bad = ufunc_cases.mismatch_mask(got, x.astype(numpy.float16), exact=True)
        assert not bad.any(), f"{src}: {x[bad][:4]!r} -> {got[bad][:4]!r}"
