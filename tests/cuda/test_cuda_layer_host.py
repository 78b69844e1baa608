"""cuarray.cuda's host-side parts (no GPU): names, constants, NVTX calls, paths, pinned shapes."""
import ctypes
import importlib

import numpy
import pytest

import cuarray
from cuarray import cuda
from cuarray._runtime import profiler as _prof
from cuarray._runtime import runtime_api


SUBMODULES = {
    "stream": ["Stream", "ExternalStream", "Event", "get_current_stream", "get_elapsed_time"],
    "memory": ["MemoryPointer", "Memory", "UnownedMemory", "MemoryPool", "MemoryAsyncPool",
               "OutOfMemoryError", "alloc", "set_allocator", "get_allocator", "using_allocator",
               "malloc_async", "BaseMemory", "SingleDeviceMemoryPool", "PooledMemory"],
    "pinned_memory": ["PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool",
                      "alloc_pinned_memory", "set_pinned_memory_allocator"],
    "function": ["Module", "Function"],
    "graph": ["Graph"],
    "device": ["Device", "get_device_id", "get_cublas_handle"],
    "runtime": ["getDeviceCount", "getDevice", "setDevice", "getDeviceProperties",
                "deviceGetAttribute", "memGetInfo", "malloc", "free", "memcpy", "memcpyAsync",
                "memset", "streamCreate", "streamDestroy", "streamSynchronize", "eventCreate",
                "eventRecord", "eventSynchronize", "eventElapsedTime", "runtimeGetVersion",
                "driverGetVersion", "get_build_version", "is_hip", "CUDARuntimeError",
                "memcpyHostToDevice", "memcpyDeviceToHost", "memcpyDeviceToDevice",
                "memcpyDefault", "memcpyHostToHost"],
    "driver": ["ctxGetCurrent", "moduleLoad", "moduleLoadData", "moduleGetFunction",
               "launchKernel", "CUDADriverError", "funcGetAttribute"],
    "compiler": ["compile_with_cache", "get_nvrtc_version", "CompileException"],
    "nvtx": ["RangePush", "RangePop", "Mark", "MarkC", "RangePushC"],
    "profiler": ["start", "stop"],
    "memory_hook": ["MemoryHook"],
    "memory_hooks": ["DebugPrintHook", "LineProfileHook"],
    "nccl": ["NcclCommunicator", "get_unique_id", "NCCL_SUM", "NCCL_FLOAT32", "groupStart"],
    "cufft": ["Plan1d", "PlanNd", "get_current_plan", "CUFFT_C2C", "CUFFT_FORWARD"],
    "cublas": ["sgemm", "setStream", "create", "CUBLAS_OP_N", "CUBLASError"],
    "cusolver": ["dpotrf_bufferSize", "create", "CUSOLVER_EIG_MODE_VECTOR"],
    "cusparse": ["spMV", "createCsr", "CUSPARSE_INDEX_32I"],
    "curand": ["createGenerator", "generateUniform", "CURAND_RNG_PSEUDO_DEFAULT"],
    "texture": ["ChannelFormatDescriptor", "CUDAarray", "ResourceDescriptor",
                "TextureDescriptor", "TextureObject", "SurfaceObject"],
}


@pytest.mark.parametrize("mod", sorted(SUBMODULES))
def test_submodules_import_with_cupys_names(mod):
    m = importlib.import_module(f"cuarray.cuda.{mod}")
    assert getattr(cuda, mod) is m
    for name in SUBMODULES[mod]:
        assert getattr(m, name) is not None, f"cuarray.cuda.{mod}.{name}"


def test_top_level_names():
    for name in ("Graph", "Module", "Function", "MemoryHook", "get_cuda_path", "get_nvcc_path",
                 "get_local_runtime_version", "Device", "Stream", "compile_with_cache"):
        assert getattr(cuda, name) is not None, name
    assert cuda.Graph is cuda.graph.Graph
    assert cuda.Device is cuda.device.Device
    for name in ("empty_pinned", "zeros_pinned", "empty_like_pinned", "zeros_like_pinned"):
        assert callable(getattr(cuarray, name))


def test_runtime_constants_and_errors():
    r = cuda.runtime
    assert (r.memcpyHostToHost, r.memcpyHostToDevice, r.memcpyDeviceToHost,
            r.memcpyDeviceToDevice, r.memcpyDefault) == (0, 1, 2, 3, 4)
    assert r.cudaDevAttrComputeCapabilityMajor == 75
    assert r.cudaDevAttrMaxThreadsPerBlock == 1
    assert r.cudaDevAttrMultiProcessorCount == 16
    assert r.streamCaptureModeRelaxed == 2 and r.errorInvalidDevice == 101
    with pytest.raises(AttributeError):
        r.cudaDevAttrNoSuchThing
    assert runtime_api.error_name(101) == "cudaErrorInvalidDevice"
    assert runtime_api.error_name(900) == "cudaErrorStreamCaptureUnsupported"
    with pytest.raises(r.CUDARuntimeError, match="cudaErrorInvalidValue") as e:
        r.memcpy(0, 0, 8, 17)
    assert e.value.status == 1
    assert issubclass(cuda.driver.CUDADriverError, r.CUDARuntimeError)


class _FakeNVTX:
    def __init__(self):
        self.calls = []

    def _ex(self, what, attr):
        a = ctypes.cast(attr, ctypes.POINTER(_prof._EventAttributes)).contents
        self.calls.append((what, a.message.decode(), a.color))

    def nvtxRangePushA(self, msg):
        self.calls.append(("push", msg.decode(), None))

    def nvtxRangePushEx(self, attr):
        self._ex("push", attr)

    def nvtxRangePop(self):
        self.calls.append(("pop",))

    def nvtxMarkA(self, msg):
        self.calls.append(("mark", msg.decode(), None))

    def nvtxMarkEx(self, attr):
        self._ex("mark", attr)


def test_nvtx_calls(monkeypatch):
    lib = _FakeNVTX()
    monkeypatch.setattr(_prof, "_lib", lib)
    nvtx = cuda.nvtx
    monkeypatch.setattr(nvtx, "_quiet", False)   # as under a profiler
    assert nvtx.available
    nvtx.RangePush("a")
    nvtx.RangePush("b", 1)
    nvtx.RangePushC("c", 0xFF123456)
    nvtx.Mark("m", 5)
    nvtx.Mark("plain")
    nvtx.MarkC("mc", 0x80ABCDEF)
    for _ in range(3):
        nvtx.RangePop()
    assert lib.calls == [("push", "a", None), ("push", "b", 0xFF0000FF),
                         ("push", "c", 0xFF123456), ("mark", "m", 0xFFFF0000),
                         ("mark", "plain", None), ("mark", "mc", 0x80ABCDEF),
                         ("pop",), ("pop",), ("pop",)]


def test_nvtx_without_library_does_nothing(monkeypatch):
    monkeypatch.setattr(_prof, "_lib", False)
    monkeypatch.setattr(cuda.nvtx, "_quiet", False)
    assert not cuda.nvtx.available
    cuda.nvtx.RangePush("x", 2)
    cuda.nvtx.Mark("y")
    cuda.nvtx.RangePop()


def test_time_range_as_decorator_and_context(monkeypatch):
    lib = _FakeNVTX()
    monkeypatch.setattr(_prof, "_lib", lib)
    from cuarray.profiler import time_range

    @time_range(color_id=0)
    def work(x):
        return x + 1

    assert work(1) == 2
    with time_range("block", argb_color=0xFF00FF00):
        pass
    assert lib.calls == [("push", "work", 0xFF00FF00), ("pop",),
                         ("push", "block", 0xFF00FF00), ("pop",)]


def test_cuda_and_nvcc_paths(monkeypatch, tmp_path):
    from cuarray._runtime import paths
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "nvcc").write_text("")
    monkeypatch.setattr(paths, "_cuda_path", 0)
    monkeypatch.setenv("CUDA_PATH", str(tmp_path))
    monkeypatch.delenv("NVCC", raising=False)
    assert cuda.get_cuda_path() == str(tmp_path)
    assert cuda.get_nvcc_path() == str(tmp_path / "bin" / "nvcc")
    monkeypatch.setenv("NVCC", "nvcc -ccbin g++")
    assert cuda.get_nvcc_path() == "nvcc -ccbin g++"
    monkeypatch.setattr(paths, "_cuda_path", 0)


class _FakePinned:
    """Host memory standing in for a pinned block: `as_numpy` as PinnedMemoryPointer's."""

    def __init__(self, n):
        self.buf = numpy.zeros(n, dtype=numpy.uint8)
        self.buf[:] = 0xAB

    def as_numpy(self, n):
        return self.buf[:n]


@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 4), 5])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128, numpy.int8])
def test_pinned_helpers_shapes(monkeypatch, shape, dtype):
    from cuarray._routines import pinned
    made = []
    monkeypatch.setattr(pinned, "alloc_pinned_memory",
                        lambda n: made.append(n) or _FakePinned(n))
    a = cuarray.empty_pinned(shape, dtype)
    want = numpy.empty(shape, dtype)
    assert isinstance(a, numpy.ndarray) and a.shape == want.shape and a.dtype == want.dtype
    z = cuarray.zeros_pinned(shape, dtype, order="F")
    assert (z == 0).all() and z.shape == want.shape
    if z.ndim > 1:
        assert z.flags.f_contiguous
    like = cuarray.zeros_like_pinned(numpy.ones((2, 3), order="F"), dtype=dtype)
    assert like.shape == (2, 3) and like.dtype == dtype and like.flags.f_contiguous
    assert (like == 0).all()
    e = cuarray.empty_like_pinned(numpy.ones((2, 3)), shape=(4,))
    assert e.shape == (4,) and e.dtype == numpy.float64
    assert all(n == 0 or n >= numpy.dtype(dtype).itemsize for n in made)


def test_pinned_helpers_errors():
    with pytest.raises(ValueError, match="negative"):
        cuarray.empty_pinned((2, -1))
    with pytest.raises(ValueError, match="order"):
        cuarray.empty_pinned(3, order="X")
    with pytest.raises(TypeError):
        cuarray.zeros_pinned(3, dtype="not a dtype")


def test_nccl_unique_id_round_trip():
    pytest.importorskip("nccl.bindings.nccl", reason="nccl4py is not installed")
    from cuarray._libs import nccl as lib
    values = tuple(range(-64, 64))
    uid, _keep = lib.unique_id_from(values)
    assert lib.unique_id_bytes(uid) == values
    with pytest.raises(ValueError, match="128"):
        lib.unique_id_from((1, 2, 3))


def test_texture_and_struct_kernels_compile():
    """The GPU tests' kernels compile with NVRTC (texture/surface intrinsics, structs)."""
    from cuarray._runtime.compiler import compile_cubin
    src = r'''
    struct Params { float scale; int offset; double bias; };
    extern "C" __global__ void k(cudaTextureObject_t t, cudaSurfaceObject_t s, const Params p,
                                 float* out) {
        float v = tex2D<float>(t, 0.5f, 0.5f) * p.scale + p.offset + p.bias;
        surf2Dwrite(v, s, 0, 0);
        out[0] = v;
    }'''
    cubin, _ = compile_cubin(src, (), (), "sm_90", "k")
    assert cubin[:4] == b"\x7fELF"


def test_library_name_mapping():
    from cuarray._libs.bindings import snake
    assert snake("sgemmStridedBatched") == "sgemm_strided_batched"
    assert snake("spMV_bufferSize") == "sp_mv_buffer_size"
    assert snake("setPseudoRandomGeneratorSeed") == "set_pseudo_random_generator_seed"
    assert snake("spGEMM_workEstimation") == "sp_gemm_work_estimation"
    assert snake("dgesvd_bufferSize") == "dgesvd_buffer_size"


def test_vector_type_arguments_are_aligned_as_cuda():
    from cuarray._core import raw
    from cuarray._runtime.launch import ArgPacker
    float4 = numpy.dtype({"names": ["x", "y", "z", "w"], "formats": [numpy.float32] * 4})
    double2 = numpy.dtype({"names": ["x", "y"], "formats": [numpy.float64] * 2})
    pair = numpy.dtype([("a", numpy.float32), ("b", numpy.float32)], align=True)  # plain struct
    v4 = numpy.arange(4, dtype=numpy.float32).view(float4)[0]
    d2 = numpy.arange(2, dtype=numpy.float64).view(double2)[0]
    p = numpy.zeros(1, dtype=pair)[0]
    kinds, vals = raw._marshal((numpy.int32(1), v4, numpy.int8(2), d2, numpy.int32(3), p))
    assert kinds == ("i", ("s", 16, 16), "b", ("s", 16, 16), "i", ("s", 8, 4))
    packer = ArgPacker(kinds)
    base = packer._ptrs[0]
    offsets = [packer._ptrs[i] - base for i in range(len(kinds))]
    assert offsets == [0, 16, 32, 48, 64, 68]
    addr = packer.pack(vals)
    import ctypes
    buf = ctypes.string_at(base, 76)
    assert numpy.frombuffer(buf[16:32], numpy.float32).tolist() == [0, 1, 2, 3]
    assert numpy.frombuffer(buf[48:64], numpy.float64).tolist() == [0, 1]
    assert addr == packer.address


def test_nvtx_skips_the_library_without_a_profiler(monkeypatch):
    lib = _FakeNVTX()
    monkeypatch.setattr(_prof, "_lib", lib)
    monkeypatch.delenv("NVTX_INJECTION64_PATH", raising=False)
    monkeypatch.delenv("NVTX_INJECTION32_PATH", raising=False)
    assert not _prof.injection_configured()
    monkeypatch.setattr(cuda.nvtx, "_quiet", True)
    cuda.nvtx.RangePush("x")
    cuda.nvtx.Mark("y", 1)
    cuda.nvtx.RangePop()
    assert lib.calls == []
    monkeypatch.setenv("NVTX_INJECTION64_PATH", "/opt/tool/libinject.so")
    assert _prof.injection_configured()
