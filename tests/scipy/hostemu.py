"""Run cuarray's device code on the host, for CPU tests of code built on elementwise
kernels (cuarray.scipy's sparse formats, special functions, packing kernels...).

`emulate(monkeypatch)` swaps three things:
- the CUDA driver for a stand-in whose "device memory" is host memory: copies and memsets
  are memmove/memset, streams and events do nothing;
- NVRTC modules for host builds: every kernel source cuarray compiles is built by g++
  (CUDA keywords defined away, `blockIdx`/`threadIdx` plain globals) and launched by
  running its blocks and threads one after another. That is exact for kernels whose
  threads do not talk to each other: every elementwise `Op`, and the raw kernels that are
  grid-stride loops;
- the routines built on block-cooperative kernels or libraries (scans, sorts, reductions,
  compaction, unique, vector dot products and norms) for NumPy stand-ins reading and
  writing the same host memory.
Library calls (cuBLAS, cuSOLVER, cuSPARSE, cuFFT) are not emulated.

It is meant for machines without a GPU (the fixture that uses it skips when one is
present: the same tests then run for real). CUDA math functions that glibc lacks
(erfinv, normcdfinv, erfcx, cyl_bessel_i0 ...) get host definitions below, accurate
enough to test the code around them, not to stand for CUDA's own.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import threading

import numpy
import pytest

from cuarray._core import dtypes as _dt

INCLUDE = os.path.join(os.path.dirname(_dt.__file__), "include")
CACHE = os.path.join(os.environ.get("TMPDIR", "/tmp"), "cuarray_hostemu_cache")

PRELUDE = r"""
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <cmath>
#include <type_traits>
#include <utility>
struct cuarray_dim3 { unsigned x, y, z; };
static cuarray_dim3 threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1},
                    gridDim = {1, 1, 1};
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
struct uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
static inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
static inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline void sincospi(double x, double* s, double* c) { *s = sin(M_PI * x); *c = cos(M_PI * x); }
// ---- CUDA math functions glibc lacks (host stand-ins) ----------------------------------
static inline double erfinv(double y) {
  if (y <= -1) return y == -1 ? -INFINITY : NAN;
  if (y >= 1) return y == 1 ? INFINITY : NAN;
  double x = 0;  // Newton on erf from a rough start
  const double a = 0.147, l = log(1 - y * y), t = 2 / (M_PI * a) + l / 2;
  x = copysign(sqrt(sqrt(t * t - l / a) - t), y);
  for (int k = 0; k < 4; ++k) x -= (erf(x) - y) / (2 / sqrt(M_PI) * exp(-x * x));
  return x;
}
static inline float erfinvf(float y) { return (float)erfinv(y); }
static inline double erfcx(double x);
static inline double erfcinv(double y) {
  if (y <= 0) return y == 0 ? INFINITY : NAN;
  if (y >= 2) return y == 2 ? -INFINITY : NAN;
  if (y > 1) return -erfcinv(2 - y);
  if (y > 1e-8) {
    double x = erfinv(1 - y);
    for (int k = 0; k < 3; ++k) x += (erfc(x) - y) / (2 / sqrt(M_PI) * exp(-x * x));
    return x;
  }
  // tiny y: Newton on log(erfc(x)) = log(erfcx(x)) - x^2
  double x = sqrt(-log(y));
  for (int k = 0; k < 30; ++k) {
    const double e = erfcx(x), g = log(e) - x * x - log(y);
    x += g * sqrt(M_PI) * e / 2;
  }
  return x;
}
static inline float erfcinvf(float y) { return (float)erfcinv(y); }
static inline double erfcx(double x) {  // (declared above)
  if (x < 25) return exp(x * x) * erfc(x);
  const double r = 1 / (x * x);  // asymptotic series: sum (-1)^k (2k-1)!! / (2x^2)^k
  double term = 1, sum = 1;
  for (int k = 1; k < 8; ++k) { term *= -(2 * k - 1) * r / 2; sum += term; }
  return sum / (x * sqrt(M_PI));
}
static inline float erfcxf(float x) { return (float)erfcx(x); }
static inline double normcdf(double x) { return 0.5 * erfc(-x / M_SQRT2); }
static inline float normcdff(float x) { return (float)normcdf(x); }
static inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2 * p); }
static inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
static inline double cyl_bessel_i0(double x) {
  if (x != x || fabs(x) > 713) return fabs(x) > 713 ? INFINITY : x;  // libstdc++ throws
  return std::cyl_bessel_i(0.0, fabs(x));
}
static inline float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0(x); }
static inline double cyl_bessel_i1(double x) {
  if (x != x || fabs(x) > 713) return x != x ? x : copysign(INFINITY, x);
  const double v = std::cyl_bessel_i(1.0, fabs(x)); return x < 0 ? -v : v;
}
static inline float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1(x); }
// exact reduction to |r| <= 1/2, as CUDA's sinpi/cospi
static inline double sinpi(double x) {
  const double n = nearbyint(x), r = x - n;
  const double v = sin(M_PI * r); return fmod(n, 2.0) != 0 ? -v : v;
}
static inline double cospi(double x) {
  const double n = nearbyint(x), r = x - n;
  const double v = cos(M_PI * r); return fmod(n, 2.0) != 0 ? -v : v;
}
static inline float sinpif(float x) { return (float)sinpi(x); }
static inline float cospif(float x) { return (float)cospi(x); }
static inline double rcbrt(double x) { return 1 / cbrt(x); }
static inline float rcbrtf(float x) { return 1 / cbrtf(x); }
"""

_ENTRY = r"""
template <class T>
using cuarray_bare_t = typename std::remove_cv<typename std::remove_reference<T>::type>::type;
template <class... A, std::size_t... I>
static void cuarray_call_(void (*f)(A...), void** a, std::index_sequence<I...>) {
  f(*reinterpret_cast<cuarray_bare_t<A>*>(a[I])...);
}
template <class... A> static void cuarray_call(void (*f)(A...), void** a) {
  cuarray_call_(f, a, std::index_sequence_for<A...>{});
}
extern "C" void cuarray_host_entry(void** a, unsigned gx, unsigned bx) {
  gridDim.x = gx; blockDim.x = bx;
  for (unsigned b = 0; b < gx; ++b) {
    blockIdx.x = b;
    for (unsigned t = 0; t < bx; ++t) { threadIdx.x = t; cuarray_call(KERNEL, a); }
  }
}
"""

_lock = threading.Lock()
_built = {}


def build(source, name):
    """A ctypes entry `(void** args, unsigned grid, unsigned block)` running kernel `name`
    of `source` on the host; cached on disk by source."""
    key = hashlib.sha256((PRELUDE + source + name).encode()).hexdigest()[:24]
    with _lock:
        fn = _built.get(key)
        if fn is not None:
            return fn
        os.makedirs(CACHE, exist_ok=True)
        so = os.path.join(CACHE, f"{key}.so")
        if not os.path.exists(so):
            cxx = shutil.which("g++") or shutil.which("c++")
            if cxx is None:
                raise RuntimeError("no C++ compiler for the host emulation")
            src = PRELUDE + source + _ENTRY.replace("KERNEL", name)
            cpp = os.path.join(CACHE, f"{key}.cpp")
            with open(cpp, "w") as fh:
                fh.write(src)
            tmp = so + f".{os.getpid()}.tmp"
            r = subprocess.run([cxx, "-std=c++17", "-O1", "-shared", "-fPIC", "-w",
                                f"-I{INCLUDE}", "-o", tmp, cpp], capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError(f"host build of {name} failed:\n{r.stderr[:6000]}")
            os.replace(tmp, so)
        lib = ctypes.CDLL(so)
        fn = lib.cuarray_host_entry
        fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
        fn.restype = None
        _built[key] = (lib, fn)
        return _built[key]


# ---- host memory posing as device memory ------------------------------------------------------

class HostMem:
    """A host block with the attributes of a device allocation (ptr, size, device_id)."""

    def __init__(self, size):
        self._buf = numpy.empty(size + 256, dtype=numpy.uint8)
        base = self._buf.ctypes.data
        self.ptr = (base + 255) // 256 * 256 if size else 0
        self.size = size
        self.device_id = 0


def host_alloc(size):
    from cuarray._runtime.memory import MemoryPointer
    return MemoryPointer(HostMem(size), 0)


class FakeDriver:
    """The driver calls cuarray makes, done on the host."""

    def __init__(self):
        from cuda.bindings import driver
        self._real = driver
        self._libraries = {}
        self._kernels = {}
        self._host = {}

    def __getattr__(self, name):
        if name.startswith("CU") and not name.startswith("cu"):
            return getattr(self._real, name)  # enums and types
        raise AttributeError(f"the host emulation has no driver call {name}")

    # device and context
    def cuInit(self, flags):
        return (0,)

    def cuDeviceGetCount(self):
        return (0, 1)

    def cuDeviceGet(self, i):
        return (0, i)

    def cuDevicePrimaryCtxRetain(self, dev):
        return (0, 1)

    def cuCtxSetCurrent(self, ctx):
        return (0,)

    def cuCtxSynchronize(self):
        return (0,)

    def cuDriverGetVersion(self):
        return (0, 13000)

    def cuDeviceGetName(self, n, dev):
        return (0, b"host emulation\0")

    def cuDeviceTotalMem(self, dev):
        return (0, 1 << 34)

    def cuMemGetInfo(self):
        return (0, 1 << 33, 1 << 34)

    def cuDeviceGetAttribute(self, attr, dev):
        A = self._real.CUdevice_attribute
        vals = {A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: 9,
                A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: 0,
                A.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: 1,
                A.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 1024}
        return (0, vals.get(attr, 0))

    # memory
    def cuMemcpyAsync(self, dst, src, n, stream):
        ctypes.memmove(int(dst), int(src), n)
        return (0,)

    cuMemcpyHtoDAsync = cuMemcpyDtoHAsync = cuMemcpyAsync

    def cuMemcpyPeerAsync(self, dst, dctx, src, sctx, n, stream):
        return self.cuMemcpyAsync(dst, src, n, stream)

    def cuMemsetD8Async(self, ptr, value, n, stream):
        ctypes.memset(int(ptr), value, n)
        return (0,)

    def cuMemsetD16Async(self, ptr, value, n, stream):
        numpy.frombuffer((ctypes.c_uint16 * n).from_address(int(ptr)), numpy.uint16)[:] = value
        return (0,)

    def cuMemsetD32Async(self, ptr, value, n, stream):
        numpy.frombuffer((ctypes.c_uint32 * n).from_address(int(ptr)), numpy.uint32)[:] = value
        return (0,)

    def cuKernelGetAttribute(self, attr, kernel, dev):
        A = self._real.CUfunction_attribute
        return (0, {A.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 1024,
                    A.CU_FUNC_ATTRIBUTE_NUM_REGS: 32}.get(attr, 0))

    def cuPointerGetAttribute(self, attr, ptr):
        # As the driver for host memory it did not allocate: not pinned (uploads then
        # stage through a pinned buffer from cuMemHostAlloc).
        return (1, 0)   # CUDA_ERROR_INVALID_VALUE

    def cuMemHostAlloc(self, size, flags):
        buf = numpy.empty(size + 64, dtype=numpy.uint8)
        ptr = (buf.ctypes.data + 63) // 64 * 64
        self._host[ptr] = buf
        return (0, ptr)

    def cuMemFreeHost(self, ptr):
        self._host.pop(int(ptr), None)
        return (0,)

    # streams and events: everything already happened
    def cuStreamSynchronize(self, s):
        return (0,)

    def cuStreamQuery(self, s):
        return (0,)

    def cuStreamWaitEvent(self, s, e, f):
        return (0,)

    def cuEventCreate(self, flags):
        return (0, 1)

    def cuEventRecord(self, e, s):
        return (0,)

    def cuEventSynchronize(self, e):
        return (0,)

    def cuEventQuery(self, e):
        return (0,)

    def cuEventDestroy(self, e):
        return (0,)

    # modules and launches
    def cuLibraryLoadData(self, image, *args):
        handle = len(self._libraries) + 1
        self._libraries[handle] = image
        return (0, handle)

    def cuLibraryUnload(self, lib):
        return (0,)

    def cuLibraryGetKernel(self, lib, name):
        handle = len(self._kernels) + 1
        self._kernels[handle] = (self._libraries[lib], name.decode())
        return (0, handle)

    def cuLaunchKernel(self, kernel, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        if gy * gz * by * bz != 1:
            raise RuntimeError("the host emulation runs 1-D grids only")
        source, name = self._kernels[kernel]
        _, fn = build(source, name)
        fn(params, gx, bx)
        return (0,)


def _compile_cubin_checked(real):
    """compile_cubin that still compiles for sm_90 with NVRTC (so every kernel the
    emulation runs is also known to build for the GPU) but hands back the source, which is
    the "cubin" the stand-in driver loads."""
    def compile_cubin(source, options, name_expressions, arch, name):
        if name_expressions:
            raise RuntimeError("the host emulation does not lower name expressions")
        real(source, options, name_expressions, arch, name)
        return source, {}
    return compile_cubin


# ---- NumPy stand-ins for block-cooperative routines -------------------------------------------

def _up(x):
    from cuarray._core.transfer import asarray
    x = numpy.asarray(x)
    return asarray(x if x.flags.c_contiguous else x.copy())  # keeps 0-d results 0-d


def _host(x):
    from cuarray._core.ndarray import ndarray
    return x.get() if isinstance(x, ndarray) else x


def _standins():
    def cumsum(a, axis=None, dtype=None, out=None):
        r = _up(numpy.cumsum(_host(a), axis=axis, dtype=dtype))
        if out is not None:
            out[...] = r
            return out
        return r

    def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
        return _up(numpy.argsort(_host(a), axis=axis, kind="stable"))

    def sort(a, axis=-1, kind=None, order=None, *, stable=None):
        return _up(numpy.sort(_host(a), axis=axis, kind="stable"))

    def reduction(f):
        def g(a, axis=None, *args, **kw):
            kw.pop("out", None)
            return _up(numpy.asarray(f(_host(a), axis=axis, **{k: v for k, v in kw.items()
                                                                if k in ("dtype", "keepdims")})))
        return g

    def flatnonzero(a):
        return _up(numpy.flatnonzero(_host(a)))

    def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
               **kw):
        r = numpy.unique(_host(ar), return_index, return_inverse, return_counts, axis)
        return tuple(_up(x) for x in r) if isinstance(r, tuple) else _up(r)

    def dot(a, b, out=None):
        return _up(numpy.dot(_host(a), _host(b)))

    def vdot(a, b):
        return _up(numpy.vdot(_host(a), _host(b)))

    def norm(x, ord=None, axis=None, keepdims=False):
        return _up(numpy.linalg.norm(_host(x), ord, axis, keepdims))

    return {
        ("cuarray.linalg._products", "dot"): dot,
        ("cuarray.linalg._products", "vdot"): vdot,
        ("cuarray._core._routines_linalg", "dot"): dot,
        ("cuarray.linalg", "norm"): norm,
        ("cuarray._core.scan", "cumsum"): cumsum,
        ("cuarray._routines.sorting", "argsort"): argsort,
        ("cuarray._routines.sorting", "sort"): sort,
        ("cuarray._core._routines_sorting", "argsort"): argsort,
        ("cuarray._core._routines_sorting", "sort"): sort,
        ("cuarray._core._reductions", "amax"): reduction(numpy.max),
        ("cuarray._core._reductions", "amin"): reduction(numpy.min),
        ("cuarray._core._reductions", "sum"): reduction(numpy.sum),
        ("cuarray._core._reductions", "all"): reduction(numpy.all),
        ("cuarray._core._reductions", "any"): reduction(numpy.any),
        ("cuarray._core._reductions", "count_nonzero"): reduction(numpy.count_nonzero),
        ("cuarray._routines.indexing", "flatnonzero"): flatnonzero,
        ("cuarray._routines.sets", "unique"): unique,
    }


_FAKE = []


def emulate(monkeypatch):
    """Patch cuarray to run on the host for the rest of the test (monkeypatch undoes it).

    One stand-in driver serves the whole session: kernel caches that outlive a test keep
    handles it still resolves.
    """
    import importlib
    from cuarray._runtime import compiler, device, driver, memory, memory_blocks
    if not _FAKE:
        _FAKE.append(FakeDriver())
    fake = _FAKE[0]
    monkeypatch.setattr(driver, "_drv", lambda: fake)
    monkeypatch.setattr(driver, "_state", None)
    monkeypatch.setattr(memory_blocks, "_d", fake)
    monkeypatch.setattr(memory, "_current_allocator", host_alloc)
    monkeypatch.setattr(device, "_tls", threading.local())
    monkeypatch.setattr(device, "_contexts", {})
    monkeypatch.setattr(device, "_props", {})
    monkeypatch.setattr(compiler, "compile_cubin", _compile_cubin_checked(compiler.compile_cubin))
    monkeypatch.setattr(compiler, "_modules", {})
    for (mod, name), f in _standins().items():
        monkeypatch.setattr(importlib.import_module(mod), name, f)
    return fake


BACKENDS = ["emu", pytest.param("gpu", marks=pytest.mark.gpu)]


def backend(request, monkeypatch):
    """cuarray for a test parametrized over BACKENDS: on the GPU, or through this
    emulation on machines without one (skipped where that variant cannot run)."""
    if request.param == "emu":
        if gpu_present():
            pytest.skip("a GPU is present: the gpu variant of this test runs instead")
        if not have_compiler():
            pytest.skip("no C++ compiler for the host emulation")
        emulate(monkeypatch)
    import cuarray
    return cuarray


def have_compiler():
    return bool(shutil.which("g++") or shutil.which("c++"))


def gpu_present():
    try:
        import cuarray
        return cuarray.is_available()
    except Exception:
        return False
