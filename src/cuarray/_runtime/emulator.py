"""A CUDA device emulated on the host, behind the driver interface: `HostDriver` answers the
cuda.bindings driver calls cuarray makes, with host memory standing for device memory, and
runs every kernel source cuarray generates by building it for the host with g++.

What it runs is the generated CUDA C itself (the same source NVRTC compiles for the GPU),
so the CPU tests check the real kernels. `HOST_SHIM` makes that source host C++: CUDA's
keywords defined away, `blockIdx`/`threadIdx` thread-local globals, and host versions of
the intrinsics the kernels use (barriers, warp ballots and shuffles, atomics) and of the
CUDA math functions glibc lacks (erfinv, normcdfinv, cyl_bessel_i0 ..., accurate enough to
test the code around them, not to stand for CUDA's own). A launch runs the blocks one
after another; a kernel that synchronises its threads or uses atomics runs each block's
threads as host threads, any other kernel runs them one after another. Grids and blocks
may be 2-D. Libraries (cuBLAS, cuSOLVER, cuSPARSE, cuFFT, CUB) are not emulated.

`install(setattr)` makes the emulated device the current driver; tests do it through a
fixture (`setattr` = monkeypatch.setattr, which undoes it), tools/host_overhead.py with a
driver whose launches do nothing.
"""
import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading

import numpy

HOST_SHIM = r"""
#include <math.h>
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#include <stdint.h>
#include <string.h>
#include <cmath>
#include <type_traits>
#include <utility>
struct dim3 { unsigned x = 1, y = 1, z = 1; };
thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __noinline__
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct cu_emu_barrier {
  std::mutex m; std::condition_variable cv; unsigned n, count = 0, gen = 0;
  explicit cu_emu_barrier(unsigned n_) : n(n_) {}
  void wait() {
    std::unique_lock<std::mutex> l(m); unsigned g = gen;
    if (++count == n) { count = 0; ++gen; cv.notify_all(); } else cv.wait(l, [&] { return gen != g; });
  }
};
static cu_emu_barrier* cu_block_bar = nullptr;
static std::vector<cu_emu_barrier*> cu_warp_bars;
static unsigned long long cu_xch[1024];
// Warps are runs of 32 consecutive linear thread ids, as on the GPU.
inline unsigned cu_tid() { return threadIdx.y * blockDim.x + threadIdx.x; }
inline void __syncthreads() { cu_block_bar->wait(); }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline void cu_warp_wait() { cu_warp_bars[cu_tid() / 32]->wait(); }
inline void __syncwarp(unsigned = 0xffffffffu) { cu_warp_wait(); }
inline unsigned cu_lanes() { return std::min(32u, blockDim.x * blockDim.y - (cu_tid() & ~31u)); }
inline unsigned __ballot_sync(unsigned, bool p) {
  const unsigned t = cu_tid(), base = t & ~31u;
  cu_xch[t] = p; cu_warp_wait();
  unsigned r = 0; for (unsigned l = 0; l < cu_lanes(); ++l) if (cu_xch[base + l]) r |= 1u << l;
  cu_warp_wait(); return r;
}
template <class T> T cu_shfl(T v, int src) {
  const unsigned t = cu_tid(), base = t & ~31u;
  unsigned long long b = 0; std::memcpy(&b, &v, sizeof(T)); cu_xch[t] = b; cu_warp_wait();
  T r = v; if (src >= 0 && (unsigned)src < cu_lanes()) std::memcpy(&r, &cu_xch[base + src], sizeof(T));
  cu_warp_wait(); return r;
}
template <class T> T __shfl_sync(unsigned, T v, int src) { return cu_shfl(v, src); }
inline int __any_sync(unsigned m, int p) { return __ballot_sync(m, p) != 0u; }
inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
inline unsigned __match_any_sync(unsigned, unsigned long long k) {
  const unsigned t = cu_tid(), base = t & ~31u;
  cu_xch[t] = k; cu_warp_wait();
  unsigned r = 0; for (unsigned l = 0; l < cu_lanes(); ++l) if (cu_xch[base + l] == k) r |= 1u << l;
  cu_warp_wait(); return r;
}
template <class T> T __shfl_up_sync(unsigned, T v, unsigned d) { return cu_shfl(v, (int)(cu_tid() & 31u) - (int)d); }
template <class T> T __shfl_down_sync(unsigned, T v, unsigned d) { return cu_shfl(v, (int)(cu_tid() & 31u) + (int)d); }
template <class T> T __shfl_xor_sync(unsigned, T v, int m) { return cu_shfl(v, (int)((cu_tid() & 31u) ^ (unsigned)m)); }
template <class T> T cu_cas(T* p, T c, T v) { T e = c; __atomic_compare_exchange(p, &e, &v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return e; }
inline int atomicCAS(int* p, int c, int v) { return cu_cas(p, c, v); }
inline unsigned atomicCAS(unsigned* p, unsigned c, unsigned v) { return cu_cas(p, c, v); }
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long c, unsigned long long v) { return cu_cas(p, c, v); }
template <class T, class F> T cu_rmw(T* p, F f) {
  T old; __atomic_load(p, &old, __ATOMIC_SEQ_CST);
  while (true) { T nw = f(old); T e = old; if (__atomic_compare_exchange(p, &e, &nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old; old = e; }
}
template <class T> T atomicAdd(T* p, T v) { return cu_rmw(p, [&](T x) { return (T)(x + v); }); }
template <class T> T atomicMax(T* p, T v) { return cu_rmw(p, [&](T x) { return x > v ? x : v; }); }
template <class T> T atomicMin(T* p, T v) { return cu_rmw(p, [&](T x) { return x < v ? x : v; }); }
template <class T> T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> T atomicExch(T* p, T v) { T r; __atomic_exchange(p, &v, &r, __ATOMIC_SEQ_CST); return r; }
extern "C" void cu_emu_run(void (*tr)(void**), unsigned gx, unsigned gy, unsigned bx, unsigned by,
                           void** params, int threaded) {
  const unsigned nt = bx * by;
  auto enter = [=](unsigned b, unsigned t) {
    gridDim.x = gx; gridDim.y = gy; blockDim.x = bx; blockDim.y = by;
    blockIdx.x = b % gx; blockIdx.y = b / gx; threadIdx.x = t % bx; threadIdx.y = t / bx;
  };
  for (unsigned b = 0; b < gx * gy; ++b) {
    if (!threaded) {
      for (unsigned t = 0; t < nt; ++t) { enter(b, t); tr(params); }
      continue;
    }
    cu_emu_barrier block(nt); cu_block_bar = &block;
    std::vector<cu_emu_barrier*> warps;
    for (unsigned w = 0; w < (nt + 31) / 32; ++w) warps.push_back(new cu_emu_barrier(std::min(32u, nt - 32 * w)));
    cu_warp_bars = warps;
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nt; ++t)
      th.emplace_back([=] { enter(b, t); tr(params); });
    for (auto& x : th) x.join();
    for (auto* w : warps) delete w;
  }
}
// ---- CUDA functions glibc lacks (host stand-ins) -------------------------------------
struct uint2 { unsigned x, y; };
static inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct alignas(8) float2 { float x, y; };
static inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
static inline double2 make_double2(double x, double y) { return {x, y}; }
// cache-hinted loads: plain loads on the host
template <class T> static inline T __ldcs(const T* p) { return *p; }
template <class T> static inline T __ldg(const T* p) { return *p; }
template <class T> static inline T __ldcg(const T* p) { return *p; }
template <class T> static inline void __stcs(T* p, T v) { *p = v; }
static inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline void sincospi(double x, double* s, double* c) { *s = sin(M_PI * x); *c = cos(M_PI * x); }
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
// Calls a kernel with its arguments read from a kernelParams array (types from its signature).
template <class T>
using cuarray_bare_t = typename std::remove_cv<typename std::remove_reference<T>::type>::type;
template <class... A, std::size_t... I>
static void cuarray_call_(void (*f)(A...), void** a, std::index_sequence<I...>) {
  f(*reinterpret_cast<cuarray_bare_t<A>*>(a[I])...);
}
template <class... A> static void cuarray_call(void (*f)(A...), void** a) {
  cuarray_call_(f, a, std::index_sequence_for<A...>{});
}
"""

_KERNEL = re.compile(r"extern\s+\"C\"\s+__global__\s+void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(")
_THREADED = ("__syncthreads", "_sync(", "atomic")   # kernels whose threads meet


def have_compiler():
    return shutil.which("g++") is not None


class _HostModule:
    """One kernel source built for the host: `run(name, grid, block, params)`."""

    def __init__(self, so, threaded):
        self.lib = ctypes.CDLL(so)
        self.lib.cu_emu_run.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint,
                                        ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p, ctypes.c_int]
        self.threaded = threaded

    def run(self, name, grid, block, params):
        if grid[2] != 1 or block[2] != 1:
            raise RuntimeError("the host emulation runs 1-D and 2-D grids and blocks only")
        tramp = ctypes.cast(getattr(self.lib, f"cu_tr_{name}"), ctypes.c_void_p).value
        self.lib.cu_emu_run(tramp, grid[0], grid[1], block[0], block[1], params,
                            int(self.threaded))


class HostBuilder:
    """Builds kernel sources for the host, kept on disk per source (the shim and cuarray's
    headers are precompiled once: most of each build's time)."""

    def __init__(self, include_dir, header_tag=""):
        cxx = shutil.which("g++")
        if cxx is None:
            raise RuntimeError("the host emulation needs g++")
        tag = hashlib.sha256((HOST_SHIM + header_tag).encode()).hexdigest()[:12]
        self.dir = os.path.join(tempfile.gettempdir(), f"cuarray_emu_{os.getuid()}_{tag}")
        os.makedirs(self.dir, exist_ok=True)
        self.flags = [cxx, "-std=c++17", "-O1", "-fPIC", "-pthread", "-w", f"-I{include_dir}"]
        self._lock = threading.Lock()
        self._mods = {}
        self._pch = None

    def _header(self):
        if self._pch is None:
            h = os.path.join(self.dir, "pre.h")
            if not os.path.exists(h + ".gch"):
                tmp = f"{h}.{os.getpid()}"
                with open(tmp, "w") as f:
                    f.write(HOST_SHIM + "\n#include <cuarray/core.cuh>\n")
                r = subprocess.run(self.flags + ["-x", "c++-header", tmp, "-o", tmp + ".gch"],
                                   capture_output=True, text=True)
                if r.returncode:
                    raise RuntimeError(f"host build of the shim failed:\n{r.stderr[:6000]}")
                os.replace(tmp, h)
                os.replace(tmp + ".gch", h + ".gch")
            self._pch = h
        return self._pch

    def module(self, source):
        key = hashlib.sha256(source.encode()).hexdigest()[:24]
        with self._lock:
            mod = self._mods.get(key)
            if mod is None:
                so = os.path.join(self.dir, key + ".so")
                if not os.path.exists(so):
                    self._build(source, so)
                mod = self._mods[key] = _HostModule(so, any(s in source for s in _THREADED))
            return mod

    def _build(self, source, so):
        tramps = "\n".join(f'extern "C" void cu_tr_{n}(void** p) {{ cuarray_call({n}, p); }}'
                           for n in dict.fromkeys(_KERNEL.findall(source)))
        cpp = os.path.join(self.dir, f"{os.path.basename(so)}.{os.getpid()}.cpp")
        with open(cpp, "w") as f:
            f.write(source + "\n" + tramps + "\n")
        r = subprocess.run(self.flags + ["-shared", "-include", self._header(), "-o", cpp + ".so",
                                         cpp], capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"host build failed:\n{r.stderr[:6000]}\n{source[:4000]}")
        os.replace(cpp + ".so", so)
        os.unlink(cpp)


# Bytes before and after each block that an emulated kernel must not write: a write there
# would hit the host heap on the CPU (another allocation on the GPU). Checked at free.
_GUARD = 64
OVERRUNS = []   # sizes of the blocks whose guard bytes a kernel overwrote


class HostMemory:
    """A host block posing as a device allocation (ptr, size, device_id)."""

    def __init__(self, size):
        self._buf = numpy.empty(size + 256 + 2 * _GUARD, dtype=numpy.uint8)
        base = self._buf.ctypes.data
        self.ptr = (base + _GUARD + 255) // 256 * 256 if size else 0
        self.size = size
        self.device_id = 0
        if size:
            off = self.ptr - base
            # views made now: __del__ may run while the interpreter shuts down
            self._guards = (self._buf[off - _GUARD:off], self._buf[off + size:off + size + _GUARD])
            for g in self._guards:
                g.fill(0xA5)

    def __del__(self):
        if self.size and any((g != 0xA5).any() for g in self._guards):
            OVERRUNS.append(self.size)


def host_alloc(size):
    """An allocator (`cuarray.cuda.set_allocator` style) handing out host memory."""
    from cuarray._runtime.memory_blocks import MemoryPointer
    return MemoryPointer(HostMemory(size), 0)


class HostDriver:
    """The driver calls cuarray makes, answered on the host (one device, "sm_90", one SM)."""

    def __init__(self, builder=None):
        from cuda.bindings import driver
        self._real = driver
        self._builder = builder
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

    def cuMemcpyDtoH(self, dst, src, n):
        return self.cuMemcpyAsync(dst, src, n, 0)

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

    def cuPointerGetAttribute(self, attr, ptr):
        # Host memory from cuMemHostAlloc is pinned (CU_MEMORYTYPE_HOST); for other host
        # memory the driver answers CUDA_ERROR_INVALID_VALUE, as here.
        ptr = int(ptr)
        for base, buf in self._host.items():
            if base <= ptr < base + buf.nbytes - 64:
                return (0, 1)
        return (1, 0)

    def cuMemHostAlloc(self, size, flags):
        buf = numpy.empty(size + 64, dtype=numpy.uint8)
        ptr = (buf.ctypes.data + 63) // 64 * 64
        self._host[ptr] = buf
        return (0, ptr)

    def cuMemFreeHost(self, ptr):
        self._host.pop(int(ptr), None)
        return (0,)

    # streams and events: everything already happened
    def cuStreamCreateWithPriority(self, flags, priority):
        self._streams = getattr(self, "_streams", 0) + 1
        return (0, 0x1000 + self._streams)

    def _done(self, *args):
        return (0,)

    cuStreamDestroy = cuStreamSynchronize = cuStreamQuery = cuStreamWaitEvent = _done
    cuEventRecord = cuEventSynchronize = cuEventQuery = cuEventDestroy = _done

    def cuEventCreate(self, flags):
        return (0, 1)

    # modules and launches: a "cubin" is the kernel source (see compile_cubin_for_host)
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

    def cuKernelGetAttribute(self, attr, kernel, dev):
        A = self._real.CUfunction_attribute
        return (0, {A.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: 1024,
                    A.CU_FUNC_ATTRIBUTE_NUM_REGS: 32}.get(attr, 0))

    def cuKernelGetFunction(self, kernel):
        return (0, kernel)

    def cuLaunchKernel(self, kernel, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        source, name = self._kernels[kernel]
        self._builder.module(source).run(name, (gx, gy, gz), (bx, by, bz), params)
        return (0,)

    def cuLaunchCooperativeKernel(self, kernel, gx, gy, gz, bx, by, bz, shared, stream, params):
        return self.cuLaunchKernel(kernel, gx, gy, gz, bx, by, bz, shared, stream, params, 0)


def compile_cubin_for_host(real):
    """A compile_cubin that still compiles for sm_90 with NVRTC (so every kernel the
    emulation runs is known to build for the GPU) and hands back the source, the "cubin"
    HostDriver loads."""
    def compile_cubin(source, options, name_expressions, arch, name):
        if name_expressions:
            raise RuntimeError("the host emulation does not lower name expressions")
        real(source, options, name_expressions, arch, name)
        return source, {}
    return compile_cubin


def install(setattr, drv):
    """Make `drv` (a HostDriver) the driver, with fresh device, context and module state
    and host memory as the allocator. `setattr(obj, name, value)` does each change
    (monkeypatch.setattr undoes them when a test ends)."""
    from cuarray._runtime import compiler, device, driver, memory, memory_blocks
    setattr(driver, "_drv", lambda: drv)
    setattr(driver, "_state", None)
    setattr(memory_blocks, "_d", drv)
    setattr(memory, "_current_allocator", host_alloc)
    setattr(device, "_tls", threading.local())
    setattr(device, "_contexts", {})
    setattr(device, "_props", {})
    setattr(compiler, "compile_cubin", compile_cubin_for_host(compiler.compile_cubin))
    setattr(compiler, "_modules", {})
