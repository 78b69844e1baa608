"""Advanced and boolean indexing (`cuarray._core._indexing`) against NumPy.

CPU tests: key planning (where the advanced axes go, result shapes, NumPy's errors), the
collapsing of result axes, the index width, and the gather, scatter and compaction kernels
compiled by NVRTC for sm_90.

Every behaviour test runs twice: on "emu", a CPU stand-in for the GPU, and on the GPU
(marked `gpu`). The stand-in builds each generated kernel source as host C++ with g++
(and also through NVRTC, so both compilers accept it), runs CUDA threads as host threads
(real threads with barriers where a kernel synchronises; warp ballots and shuffles are
emulated per warp; grids and blocks may be 2-D, as the reduction kernels launch them), and
backs cuarray's allocations with host memory. Random inputs are fresh per test. This module
also lends the stand-in (`xp` fixture, `pytest_generate_tests`) to tests/_core/test_ufunc_at.py,
tests/_core/test_reductions_warm.py and tests/_routines/test_indexing_routines.py.
"""
import contextlib
import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

import numpy
import pytest

import cuarray
from cuarray._core import _compact, _gather_scatter, _index_plan
from cuarray._core import dtypes as _dt
from cuarray._core import shapes as _sh
from cuarray._core import _indexing as ix
from cuarray._core import _copy
from cuarray._runtime import compiler as _compiler

# ---- the CPU stand-in for the GPU -------------------------------------------------------------

_SHIM = r"""
#include <math.h>
#include <cstring>
#include <cstdint>
#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
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
"""
_KERNEL = re.compile(r'extern "C" __global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(([^)]*)\)')


def _split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in out + [cur] if p.strip()]


def _trampolines(source):
    """Host wrappers calling each kernel with its arguments read from a kernelParams array."""
    out = []
    for name, params in _KERNEL.findall(source):
        types_ = [re.sub(r"\w+$", "", p).replace("__restrict__", "").strip() for p in _split_params(params)]
        args = [f"*({t}*)p[{k}]" for k, t in enumerate(types_)]
        out.append(f'extern "C" void cu_tr_{name}(void** p) {{ {name}({", ".join(args)}); }}')
    return "\n".join(out)


class _Function:
    def __init__(self, lib, name, threaded):
        self.lib, self.name, self.threaded = lib, name, threaded
        self.tramp = ctypes.cast(getattr(lib, f"cu_tr_{name}"), ctypes.c_void_p).value

    def launch(self, grid, block, params_address, shared_mem=0, stream_ptr=0):
        assert grid[2] == 1 and block[2] == 1, (grid, block)
        assert grid[0] >= 1 and grid[1] >= 1 and 1 <= block[0] * block[1] <= 1024, (grid, block)
        self.lib.cu_emu_run(self.tramp, grid[0], grid[1], block[0], block[1], params_address,
                            int(self.threaded))

    def launch1d(self, grid, block, params_address, stream_ptr):
        self.launch((grid, 1, 1), (block, 1, 1), params_address, 0, stream_ptr)


class _Module:
    def __init__(self, lib, threaded):
        self.lib, self.threaded = lib, threaded

    def get_function(self, name):
        return _Function(self.lib, name, self.threaded)


class Emulator:
    """Builds kernel sources for the host (kept on disk per source) and runs them."""

    def __init__(self, cxx):
        tag = hashlib.sha256((_SHIM + _compiler.header_hash()).encode()).hexdigest()[:12]
        self.dir = os.path.join(tempfile.gettempdir(), f"cuarray_emu_{os.getuid()}_{tag}")
        os.makedirs(self.dir, exist_ok=True)
        self.flags = [cxx, "-std=c++17", "-O1", "-fPIC", "-pthread", "-Wno-unknown-pragmas",
                      f"-I{_compiler.INCLUDE_DIR}"]
        self.mods = {}
        self.pch = None

    def _header(self):
        """The shim and cuarray's headers, precompiled once (most of each build's time)."""
        if self.pch is None:
            h = os.path.join(self.dir, "pre.h")
            if not os.path.exists(h + ".gch"):
                tmp = f"{h}.{os.getpid()}"
                with open(tmp, "w") as f:
                    f.write(_SHIM + "\n#include <cuarray/core.cuh>\n")
                r = subprocess.run(self.flags + ["-x", "c++-header", tmp, "-o", tmp + ".gch"],
                                   capture_output=True, text=True)
                assert r.returncode == 0, r.stderr[:6000]
                os.replace(tmp, h)
                os.replace(tmp + ".gch", h + ".gch")
            self.pch = h
        return self.pch

    def compile_module(self, source, options=(), name_expressions=(), name="kernel"):
        key = hashlib.sha256(source.encode()).hexdigest()[:24]
        mod = self.mods.get(key)
        if mod is None:
            so = os.path.join(self.dir, key + ".so")
            build = None
            if not os.path.exists(so):
                cpp = os.path.join(self.dir, f"{key}.{os.getpid()}.cpp")
                with open(cpp, "w") as f:
                    f.write(source + "\n" + _trampolines(source))
                build = subprocess.Popen(self.flags + ["-shared", "-include", self._header(), "-o",
                                                       cpp + ".so", cpp], stderr=subprocess.PIPE, text=True)
            _compiler.compile_cubin(source, options, name_expressions, "sm_90", name)  # NVRTC too
            if build is not None:
                err = build.communicate()[1]
                assert build.returncode == 0, err[:6000] + "\n" + source[:4000]
                os.replace(cpp + ".so", so)
                os.unlink(cpp)
            lib = ctypes.CDLL(so)
            lib.cu_emu_run.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                                       ctypes.c_uint, ctypes.c_void_p, ctypes.c_int]
            # real threads where the kernel synchronises or races (atomics); else one by one
            threaded = any(s in source for s in ("__syncthreads", "_sync(", "atomic"))
            mod = self.mods[key] = _Module(lib, threaded)
        return mod

    @staticmethod
    def alloc(nbytes):
        from cuarray._runtime import memory
        buf = numpy.zeros(nbytes + 512, numpy.uint8)
        ptr = (buf.ctypes.data + 255) // 256 * 256
        return memory.MemoryPointer(memory.UnownedMemory(ptr, nbytes, buf, 0), 0)


_EMULATOR = []


def _host_address(host):
    """The bytes of a contiguous host array as they lie (C or F order), as the driver copies them."""
    if isinstance(host, int):
        return host
    if not (host.flags.c_contiguous or host.flags.f_contiguous):
        raise ValueError("host copies need contiguous memory")
    return host.ctypes.data

# Caches of compiled kernels and per-stream scratch: emulated and real ones must never meet.
_CACHES = [("cuarray._core._copy", "_copy_ops"), ("cuarray._core._copy", "_fill_ops"),
           ("cuarray._core._gather_scatter", "_flag_ops"), ("cuarray._core._gather_scatter", "_kernels"),
           ("cuarray._core._compact", "_compact_kernels"), ("cuarray._core._compact", "_mask_ops"),
           ("cuarray._core._ops", "_where_ops"), ("cuarray._core._ufunc_at", "_reduceat_ops"),
           ("cuarray._core.scan", "_ops"), ("cuarray._core.scan", "_status"),
           ("cuarray._core._argwhole", "_kernels"), ("cuarray._core._argwhole", "_part"),
           ("cuarray._core._indexing", "_fast"),
           ("cuarray._core._reductions", "_built"), ("cuarray._core._reductions", "_warm"),
           ("cuarray._routines.creation", "_arange_ops"), ("cuarray._routines.indexing", "_ops")]


def _swap_everywhere(monkeypatch, replacements):
    """Replace functions wherever cuarray's modules hold them, imported aliases included."""
    by_id = {id(old): new for old, new in replacements if old is not None}
    for name, mod in list(sys.modules.items()):
        if mod is not None and (name == "cuarray" or name.startswith("cuarray.")):
            for attr, val in list(vars(mod).items()):
                new = by_id.get(id(val))
                if new is not None:
                    monkeypatch.setattr(mod, attr, new)


def emulate(monkeypatch):
    """Route cuarray's allocations, copies, compiles and launches to the CPU stand-in."""
    import importlib
    from cuarray._core import _ops, elementwise, transfer
    from cuarray._runtime import device, memory, pinned, stream
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no g++ to build the kernels for the CPU stand-in")
    if not _EMULATOR:
        _EMULATOR.append(Emulator(cxx))
    emu = _EMULATOR[0]
    for mod, name in _CACHES:
        m = importlib.import_module(mod)
        if hasattr(m, name):
            monkeypatch.setattr(m, name, {})
    for uf in set(_ops.ALL.values()):
        monkeypatch.setattr(uf, "_loops", {})
    side = {}

    def own_kernels(method):
        def run(self, *args, **kwargs):   # ops made elsewhere keep separate emulated kernels
            names = [n for n in ("_kernels", "_plans") if hasattr(self, n)]   # Op has both
            own = side.setdefault(id(self), {n: {} for n in names})
            saved = [(n, getattr(self, n)) for n in names]
            for n in names:
                setattr(self, n, own[n])
            try:
                return method(self, *args, **kwargs)
            finally:
                for n, v in saved:
                    setattr(self, n, v)
        return run

    from cuarray._core import reduction, scan
    for cls, method in ((elementwise.Op, "launch"), (elementwise.Op, "flat_entry"),
                        (reduction.ReduceOp, "launch"), (scan.ScanOp, "launch")):
        monkeypatch.setattr(cls, method, own_kernels(getattr(cls, method)))
    _swap_everywhere(monkeypatch, [
        (memory.alloc, emu.alloc),
        (getattr(memory, "alloc_mem", None), lambda n: emu.alloc(n).mem),
        (getattr(memory, "memset_zero", None), lambda ptr, n: ctypes.memset(ptr, 0, n)),
        (device.ensure_context, lambda: 0),
        (device.get_device_id, lambda: 0),
        (_compiler.compile_module, emu.compile_module),
        (stream.current_stream_ptr, lambda: 0),
        (_copy.memcpy, lambda dst, src, n: ctypes.memmove(dst, src, n)),
        (elementwise._grid_cap, lambda: 3),    # few blocks: grid-stride loops go round
        (elementwise._sm_count, lambda: 1),    # reductions split their range early
        (pinned.copy_host_to_device, lambda dst, host, nbytes, sp, sync: ctypes.memmove(
            dst, _host_address(host), nbytes)),
        (pinned.copy_device_to_host, lambda host, src, nbytes, sp, sync: ctypes.memmove(
            _host_address(host), src, nbytes)),
    ])
    monkeypatch.setattr(memory.MemoryPointer, "memset_async",
                        lambda self, value, size, stream=None: ctypes.memset(self.ptr, value, size))
    monkeypatch.setattr(transfer, "_device", types.SimpleNamespace(
        Device=lambda i: contextlib.nullcontext(), ensure_context=lambda: 0,
        get_device_id=lambda: 0))


# ---- backends and dtypes for the behaviour tests ---------------------------------------------

ALL = "?bBhHiIlLqQefdFD"
SOME = "?hqfD"          # what the CPU stand-in runs: one dtype per element size, few builds


def dtypes(gpu=ALL, emu=SOME):
    """Run the test for each dtype: all of `gpu` on the GPU, `emu` on the CPU stand-in."""
    def mark(f):
        f._dtypes = (gpu, emu)
        return f
    return mark


def pytest_generate_tests(metafunc):
    if "xp" not in metafunc.fixturenames:
        return
    spec = getattr(metafunc.function, "_dtypes", None)
    if spec is None:
        metafunc.parametrize("xp", ["emu", pytest.param("gpu", marks=pytest.mark.gpu)],
                             indirect=True)
        return
    gpu, emu = spec
    params = [pytest.param("emu", numpy.dtype(c), id=f"emu-{numpy.dtype(c).name}") for c in emu]
    params += [pytest.param("gpu", numpy.dtype(c), marks=pytest.mark.gpu,
                            id=f"gpu-{numpy.dtype(c).name}") for c in gpu]
    metafunc.parametrize(("xp", "dtype"), params, indirect=["xp"])


@pytest.fixture
def xp(request, monkeypatch):
    """cuarray, on the GPU or on the CPU stand-in."""
    if request.param == "emu":
        emulate(monkeypatch)
    return cuarray


def rand(shape, dtype, rng, low=-5, high=5):
    """Fresh random host data of any dtype (bools about half True, complex with both parts)."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) > 0.5
    if dtype.kind == "c":
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dtype)
    if dtype.kind == "u":
        low = 0
    return rng.uniform(low, high, shape).astype(dtype)


@pytest.fixture
def rng():
    return numpy.random.default_rng(1006)


def same(got, want):
    """Exact equality with NumPy: values (NaN equal to NaN), shape and dtype."""
    g = got.get() if isinstance(got, cuarray.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    numpy.testing.assert_array_equal(g, want)


# ---- planning (CPU) ------------------------------------------------------------------------

def _entries(key):
    """A host key as planner entries, masks replaced by NumPy's nonzero arrays."""
    key = key if isinstance(key, tuple) else (key,)
    out = []
    for k in key:
        if isinstance(k, list):
            k = numpy.asarray(k)
            k = k.astype(numpy.intp) if k.size == 0 else k
        if isinstance(k, numpy.ndarray) and k.ndim == 0:
            k = bool(k) if k.dtype == bool else int(k)
        if isinstance(k, numpy.ndarray) and k.dtype == bool:
            out.extend(numpy.nonzero(k))
        else:
            out.append(k)
    return out


def _run_plan(x, plan, entries, start=0):
    """What the gather kernel computes for a plan over x's memory from element `start`, in
    NumPy (wrapping like the kernel)."""
    flat = x.reshape(-1)
    out = numpy.empty(plan.shape, x.dtype)
    arrs = [numpy.broadcast_to(entries[pos], plan.bshape) for pos, _, _, _ in plan.arrays]
    for idx in numpy.ndindex(*plan.shape):
        off = plan.offset
        b = [0] * len(plan.bshape)
        for c, (_, s, j) in zip(idx, plan.dims):
            off += c * s
            if j >= 0:
                b[j] = c
        for arr, (_, n, st, _) in zip(arrs, plan.arrays):
            off += (int(arr[tuple(b)]) % n) * st
        out[idx] = flat[start + off // x.itemsize]
    return out


_M = numpy.array([[True, False, True], [False, True, True]])
KEYS = [
    ([0, 1],), (slice(None), [0, 1]), (0, slice(None), [0, 2]), (slice(None), 0, [0, 2]),
    ([[0], [1]], slice(None), [0, 1, 2]), (Ellipsis, [0, 1]), ([0], None, [0]),
    (None, [0, 1], [[0], [1]], None), (True,), (False, 0), (slice(1, None, -1), [1, 2], slice(None, None, 2)),
    (_M,), (slice(None), _M[:, :, None].repeat(4, 2)[0]), (_M, [1]), (1, _M[1], Ellipsis, 2),
    ([1], Ellipsis, [2]), ([0, 1], True, [1, 0]), (slice(None), [0], Ellipsis, [0]),
    ([-1, -2, 1],), (slice(None), slice(None), slice(None), [[-1]]), (0, 1, [2], 3),
    (numpy.array(1), [0, 1]), ([], slice(None)), (slice(None), [[], []]), (slice(2, 2), [0]),
    (True, Ellipsis, False), ([[1, 0]], [[[0]], [[1]]]),
]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_plan_matches_numpy(key):
    x = numpy.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    entries = _entries(key)
    plan = ix.plan_index(x.shape, x.strides, entries)
    want = x[key]
    assert plan.shape == want.shape
    assert (_run_plan(x, plan, entries) == want).all()


def test_plan_on_a_strided_view():
    x = numpy.arange(6 * 8 * 5).reshape(6, 8, 5)[::-2, 1::3, ::2]
    for key in [([2, 0],), (slice(None), [1, 0, 1]), (0, slice(None), [[2], [0]]), (Ellipsis, [-1, 0])]:
        entries = _entries(key)
        plan = ix.plan_index(x.shape, x.strides, entries)
        base = x.base
        off0 = x.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        same(_run_plan(base, plan, entries, off0 // x.itemsize), x[key])


@pytest.mark.parametrize("key", [
    (0, 0, 0), (Ellipsis, Ellipsis), (numpy.ones((2, 4), bool),), (slice(None), numpy.ones(4, bool)),
    ([0, 1], [0, 1, 2]), (0, [0, 1], [[0, 1, 2]] * 2), (True, [0, 1], [0, 1, 2]), (0, -4),
    (numpy.ones((2, 3, 1), bool),), ([0], 5),
], ids=range(10))
def test_plan_errors_are_numpys(key):
    x = numpy.zeros((2, 3))
    with pytest.raises(IndexError) as want:
        x[key]
    with pytest.raises(IndexError) as got:
        ix.check_key(x.shape, [numpy.asarray(k) if isinstance(k, list) else k for k in key])
        ix.plan_index(x.shape, x.strides, _entries(key))
    assert str(got.value) == str(want.value)


def test_array_indices_out_of_bounds_plan_without_error():
    # they wrap, as in CuPy; the device checks them only under CUARRAY_CHECK_BOUNDS
    assert ix.plan_index((2, 3), (24, 8), [numpy.array([5]), numpy.array([-9])]).shape == (1,)


def test_mask_error_message_names_numpys_axis():
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0; "
                                         "size of axis is 3 but size of corresponding boolean axis is 4"):
        ix.check_key((3,), [numpy.ones(4, bool)])


@pytest.mark.parametrize("k", [1.0, "a", [0.5], [[0.5]], object(), 1j])
def test_invalid_index_types(k):
    with pytest.raises(IndexError) as want:
        numpy.zeros(3)[k]
    with pytest.raises(IndexError) as got:
        ix.normalize_key(k)
    assert str(got.value) == str(want.value)


def test_float_index_arrays_are_refused():
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        ix.normalize_key(numpy.array([1.0]))


def test_normalize_keeps_host_scalars_on_the_host():
    assert ix.normalize_key((numpy.int8(3), numpy.bool_(True), numpy.array(2), numpy.array(False),
                             None, Ellipsis, slice(1))) == [3, True, 2, False, None, Ellipsis, slice(1)]


def test_check_key_axes():
    assert ix.check_key((2, 3, 4, 5), [None, 0, Ellipsis, numpy.ones((4, 5), bool)]) == [0, 0, 1, 2]
    assert ix.check_key((2, 3), [True, [0], None]) == [0, 0, 1]


def test_collapse_keeps_c_order():
    # (2, 3, 1, 4) with contiguous strides merges to one axis; a broken stride keeps two
    assert _sh.collapse_dims([2, 3, 1, 4], [[96, 32, 7, 8]]) == ((24,), [(8,)])
    assert _sh.collapse_dims([2, 3, 4], [[96, 32, 8], [0, 0, 8]]) == ((6, 4), [(32, 8), (0, 8)])
    assert _sh.collapse_dims([1, 1], [[5, 6]]) == ((), [()])


def test_value_strides():
    assert ix.value_strides((1, 1, 4), (32, 32, 8), (2, 4)) == (0, 8)
    assert ix.value_strides((), (), (2, 4)) == (0, 0)
    with pytest.raises(ValueError, match=r"shape mismatch: value array of shape \(3,4\) could not be "
                                         r"broadcast to indexing result of shape \(2,4\)"):
        ix.value_strides((3, 4), (32, 8), (2, 4))
    with pytest.raises(ValueError, match=r"value array of shape \(2,2,4\)"):
        ix.value_strides((2, 2, 4), (64, 32, 8), (2, 4))


class _Idx:
    """A stand-in index array for planning: shape and byte strides only."""

    def __init__(self, shape, dtype=numpy.int64):
        self.shape = self._shape = shape
        self.dtype = numpy.dtype(dtype)
        self._strides = tuple(int(s) for s in numpy.empty(shape, self.dtype).strides)


def test_index_width_goes_64_bit_only_when_needed():
    small = _Idx((1000,))
    plan = ix.plan_index((1 << 20, 4), (16, 4), [small])
    assert _gather_scatter._layout(plan, [small])[-1] is False
    big = ix.plan_index((1 << 29, 4), (16, 4), [small])        # offsets reach 2^33 bytes
    assert _gather_scatter._layout(big, [small])[-1] is True
    many = _Idx((1 << 31,), numpy.int32)
    assert _gather_scatter._layout(ix.plan_index((10,), (4,), [many]), [many])[-1] is True


# ---- kernels compiled by NVRTC (CPU) ----------------------------------------------------------

def _nvrtc(src):
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test")


@pytest.mark.parametrize("nd", [0, 1, 3])
@pytest.mark.parametrize("idx64", [False, True])
def test_gather_and_scatter_compile(nd, idx64):
    idx_types = tuple(_dt.ctype(numpy.dtype(c)) for c in "bBhHiIlLqQ?")
    for mode in ("wrap", "clip"):
        for it in (1, 2, 4, 8, 16):
            _nvrtc(_gather_scatter.gs_source("g", "gather", nd, ("long long", "unsigned char"), idx64, mode, _gather_scatter._RAW[it])[0])
        _nvrtc(_gather_scatter.gs_source("g", "gather", nd, idx_types, idx64, mode, _gather_scatter._RAW[4])[0])
        _nvrtc(_gather_scatter.gs_source("s", "scatter", nd, ("int",), idx64, mode, _gather_scatter._RAW[16],
                            ("scalar", _gather_scatter._RAW[16], ("s", 16, 8)), "*(cu_b16*)_p = _v;")[0])
        _nvrtc(_gather_scatter.gs_source("s", "scatter", nd, (), idx64, mode, _gather_scatter._RAW[2],
                            ("array", _gather_scatter._RAW[2]), "*(unsigned short*)_p = _v;")[0])


def test_scatter_packs_one_kind_per_parameter():
    src, kinds = _gather_scatter.gs_source("s", "scatter", 2, ("int", "long long"), False, "wrap", "float",
                              ("array", "float"), "")
    params = _split_params(_KERNEL.search(src).group(2))
    assert len(params) == len(kinds) == 1 + 3 + 2 * (3 + 2) + 2 * 2 + 1


@pytest.mark.parametrize("mode", ["select", "coords", "place"])
def test_compaction_compiles(mode):
    for m in ("unsigned char", "half", "complex<double>", "long long"):
        for nd in (1, 4):
            _nvrtc(_compact.compact_source("c", m, mode, nd, _gather_scatter._RAW[8]))


# ---- getitem (emu and GPU) ------------------------------------------------------------------------

@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_getitem_keys(xp, key, rng):
    x = rng.standard_normal((2, 3, 4, 5)).astype(numpy.float32)
    same(xp.asarray(x)[key], x[key])


@dtypes()
def test_getitem_dtypes(xp, dtype, rng):
    x = rand((7, 6), dtype, rng)
    d = xp.asarray(x)
    i = rng.integers(-7, 7, 11)
    same(d[i], x[i])
    same(d[:, i % 6], x[:, i % 6])
    same(d[i, i % 6], x[i, i % 6])
    m = rand((7, 6), numpy.bool_, rng)
    same(d[m], x[m])
    same(d[m[:, 0]], x[m[:, 0]])


@pytest.mark.parametrize("view", [lambda a: a, lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[1:, 3]])
@pytest.mark.parametrize("ishape", [(5,), (2, 3), ()])
def test_getitem_repeated_layout(xp, view, ishape, rng):
    """A device index array in the same layouts twice: the second call replays the first's
    launch (getitem's cache) with fresh data, negative indices and a strided index."""
    from cuarray._core import _indexing
    for _ in range(2):
        x = view(rng.standard_normal((9, 8)).astype(numpy.float32))
        i = rng.integers(-x.shape[0], x.shape[0], (2,) + ishape)[::2].reshape(ishape)
        di = xp.asarray(rng.integers(-x.shape[0], x.shape[0], (2,) + ishape))[::2].reshape(ishape)
        di[...] = xp.asarray(i)
        same(view(xp.asarray(numpy.ascontiguousarray(x.base if x.base is not None else x)))[di], x[i])
    assert any(k[4] == di.shape for k in _indexing._fast) or ishape == ()


@pytest.mark.parametrize("view", [lambda a: a.T, lambda a: a[::-1, ::2], lambda a: a[1:, 3],
                                  lambda a: a.T[::2]])
def test_getitem_on_views(xp, view, rng):
    x = rng.standard_normal((9, 8)).astype(numpy.float64)
    v, dv = view(x), view(xp.asarray(x))
    i = rng.integers(0, v.shape[0], 5)
    same(dv[i], v[i])
    same(dv[v > 0], v[v > 0])
    same(dv[..., [0, -1]], v[..., [0, -1]])


@pytest.mark.parametrize("kind", ["list", "numpy", "device", "int32", "uint8", "0d"])
def test_index_kinds(xp, kind, rng):
    x = rng.standard_normal((5, 4)).astype(numpy.float32)
    d = xp.asarray(x)
    i = [3, 0, 4]
    key = {"list": i, "numpy": numpy.array(i), "device": xp.asarray(i),
           "int32": xp.asarray(numpy.array(i, numpy.int32)), "uint8": numpy.array(i, numpy.uint8),
           "0d": xp.asarray(numpy.array(2))}[kind]
    want = x[numpy.array(2)] if kind == "0d" else x[i]
    same(d[key], want)
    same(d[key, 1:], x[2, 1:] if kind == "0d" else x[i, 1:])


def test_out_of_bounds_indices_wrap(xp, rng):
    x = rng.standard_normal(5).astype(numpy.float32)
    i = numpy.array([5, 7, -6, -11, 2])
    same(xp.asarray(x)[i], x[i % 5])
    same(xp.asarray(x)[xp.asarray(i)], x[i % 5])


def test_check_bounds_raises_numpys_error(xp, monkeypatch):
    monkeypatch.setenv("CUARRAY_CHECK_BOUNDS", "1")
    d = xp.asarray(numpy.arange(3.0))
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 3"):
        d[[0, 10]]
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 1 with size 3"):
        xp.asarray(numpy.zeros((2, 3)))[:, [-4]]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[[3]] = 1
    same(d[[-3, 2]], numpy.array([0.0, 2.0]))


def test_empty_and_zero_d(xp):
    x = numpy.arange(12.0).reshape(3, 4)
    d = xp.asarray(x)
    for key in ([], ([], []), numpy.zeros((0, 2), numpy.int64), numpy.zeros((3, 4), bool),
                (slice(0, 0), [1, 2])):
        same(d[key], x[key])
    z = numpy.array(5.0)
    for key in (True, False, (None, True), (Ellipsis, False)):
        same(xp.asarray(z)[key], z[key])
    e = numpy.zeros((0, 3))
    same(xp.asarray(e)[[], 1:], e[[], 1:])
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 0 with size 0"):
        xp.asarray(e)[[0]]


def test_mask_selection_across_tiles(xp, rng):
    n = 3 * 4096 + 123        # several compaction tiles and a partial one
    x = rng.standard_normal(n).astype(numpy.float32)
    d = xp.asarray(x)
    same(d[d > 0.5], x[x > 0.5])
    same(d[xp.asarray(numpy.zeros(n, bool))], x[:0])
    same(d[xp.asarray(numpy.ones(n, bool))], x)
    m = numpy.frombuffer(rng.integers(0, 3, n, numpy.uint8).tobytes(), bool)  # bytes other than 0/1
    same(d[xp.asarray(m)], x[m.view(numpy.uint8) != 0])


# ---- setitem (emu and GPU) ------------------------------------------------------------------------

SET_CASES = [
    ([0, 2], 1.5), ((slice(None), [1, 3]), "row"), (([0, 1], [2, 0]), "vec"), ((Ellipsis, [4]), 7),
    (([[0], [2]], [1, 3]), "grid"), ((1, [0, 2]), "vec"), ((True, 0), 3.0), ((slice(None, None, -1), [0]), "col"),
]


@pytest.mark.parametrize("key,value", SET_CASES, ids=range(len(SET_CASES)))
def test_setitem_keys(xp, key, value, rng):
    x = rng.standard_normal((3, 5)).astype(numpy.float32)
    want = x.copy()
    d = xp.asarray(x)
    shape = want[key].shape
    v = value if not isinstance(value, str) else {
        "row": rng.standard_normal((1, 2)), "vec": rng.standard_normal(shape[-1:]),
        "grid": rng.standard_normal((2, 2)), "col": rng.standard_normal((3, 1))}[value]
    want[key] = v
    d[key] = xp.asarray(v) if isinstance(v, numpy.ndarray) else v
    same(d, want)


@dtypes()
def test_setitem_dtypes(xp, dtype, rng):
    x = rand((6, 5), dtype, rng)
    want = x.copy()
    d = xp.asarray(x)
    v = rand((3, 5), dtype, rng)
    want[[4, 0, 2]] = v
    d[[4, 0, 2]] = xp.asarray(v)
    want[:, [1, 3]] = v[0, 0]
    d[:, [1, 3]] = v[0, 0]
    m = rand((6, 5), numpy.bool_, rng)
    want[m] = v[1, 1]
    d[xp.asarray(m)] = v[1, 1]
    want[~m] = rand(int((~m).sum()), dtype, rng)
    d[xp.asarray(~m)] = xp.asarray(want[~m])
    same(d, want)


def test_setitem_values_cast_and_come_from_the_host(xp):
    x = numpy.zeros((3, 4), numpy.int8)
    d = xp.asarray(x)
    x[[0, 2]] = numpy.array([[1.7, 300.2, -2.5, 4.0]])
    d[[0, 2]] = [[1.7, 300.2, -2.5, 4.0]]
    x[:, [1]] = 2.9
    d[:, [1]] = 2.9
    d2 = xp.asarray(numpy.zeros(3, numpy.float32))
    d2[[1]] = xp.asarray(numpy.array([5], numpy.int64))
    same(d, x)
    same(d2, numpy.array([0, 5, 0], numpy.float32))


def test_setitem_repeated_indices_keep_one_of_the_writes(xp):
    d = xp.asarray(numpy.zeros(4))
    d[[1, 1, 1, 3]] = xp.asarray(numpy.array([10.0, 20.0, 30.0, 5.0]))
    h = d.get()
    assert h[1] in (10.0, 20.0, 30.0) and h[3] == 5.0 and h[0] == h[2] == 0


def test_setitem_from_an_overlapping_view(xp):
    x = numpy.arange(10.0)
    d = xp.asarray(x)
    x[[0, 1, 2, 3, 4]] = x[5:][::-1].copy()
    d[[0, 1, 2, 3, 4]] = d[5:][::-1]
    same(d, x)


def test_mask_assignment_rules(xp, rng):
    x = rng.standard_normal((3, 4))
    x[0, 0] = 1.0
    d = xp.asarray(x)
    m = x > 0
    k = int(m.sum())
    d[xp.asarray(m)] = xp.asarray(numpy.array([9.0]))            # one value: broadcast, no read
    x[m] = 9.0
    same(d, x)
    with pytest.raises(TypeError, match="requires a 0 or 1-dimensional input, input has 2 dimensions"):
        d[xp.asarray(m)] = xp.asarray(numpy.ones((1, k)))
    with pytest.raises(ValueError, match=f"cannot assign {k + 1} input values to the {k} output values"):
        d[xp.asarray(m)] = xp.asarray(numpy.ones(k + 1))
    with pytest.raises(ValueError, match="could not be broadcast to indexing result of shape"):
        d[[0, 1]] = xp.asarray(numpy.ones((3, 4)))


def test_setitem_on_a_view(xp, rng):
    x = rng.standard_normal((6, 8))
    d = xp.asarray(x)
    v, dv = x[::2, 1::2], d[::2, 1::2]
    v[[0, 2], [3, 1]] = -1
    dv[[0, 2], [3, 1]] = -1
    v[v > 0.5] = 0.25
    dv[dv > 0.5] = 0.25
    same(d, x)


# ---- large (GPU) --------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.int8, numpy.complex128])
def test_large(dtype):
    rng = numpy.random.default_rng(1007)
    n = (1 << 22) + 17
    x = rand(n, dtype, rng)
    d = cuarray.asarray(x)
    i = rng.integers(-n, n, n)
    same(d[cuarray.asarray(i)], x[i])
    m = rng.random(n) > 0.3
    same(d[cuarray.asarray(m)], x[m])
    y = x.copy()
    y[i[:1000]] = x[:1000]
    d[cuarray.asarray(i[:1000])] = d[:1000].copy()
    got = d.get()
    keep = numpy.ones(n, bool)
    keep[i[:1000] % n] = False          # repeated positions may hold any of their writes
    same(got[keep], y[keep])
    x2 = rand((2048, 1500), dtype, rng)
    d2 = cuarray.asarray(x2)
    r = rng.integers(0, 2048, 3000)
    same(d2[r, 7:], x2[r, 7:])
    same(d2[:, r[:100] % 1500], x2[:, r[:100] % 1500])
