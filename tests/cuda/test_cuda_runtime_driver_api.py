"""cuarray.cuda.runtime / driver / function / device / compiler against NumPy and CuPy."""
import ctypes

import numpy
import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import driver, runtime

pytestmark = pytest.mark.gpu

_SRC = r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
__device__ int counter;
'''


def test_device_queries():
    assert runtime.getDeviceCount() >= 1 and runtime.getDevice() == 0
    props = runtime.getDeviceProperties(0)
    d = cuda.Device(0)
    assert props["major"] * 10 + props["minor"] == int(d.compute_capability)
    assert props["totalGlobalMem"] == d.mem_info[1]
    assert isinstance(props["name"], bytes) and props["name"].decode() == d.name
    assert props["maxThreadsDim"][0] == 1024 and len(props["maxGridSize"]) == 3
    assert runtime.deviceGetAttribute(runtime.cudaDevAttrComputeCapabilityMajor, 0) == \
        props["major"]
    assert runtime.deviceGetAttribute(runtime.cudaDevAttrMultiProcessorCount, 0) == \
        props["multiProcessorCount"]
    free, total = runtime.memGetInfo()
    assert 0 < free <= total == props["totalGlobalMem"]
    assert runtime.driverGetVersion() >= 12000
    assert runtime.runtimeGetVersion() >= 12000 and runtime.get_build_version() >= 12000
    assert cuda.get_local_runtime_version() >= 12000
    assert runtime.is_hip is False
    bus = runtime.deviceGetPCIBusId(0)
    assert runtime.deviceGetByPCIBusId(bus) == 0


def test_properties_match_cupy():
    cupy = pytest.importorskip("cupy")
    ours = runtime.getDeviceProperties(0)
    theirs = cupy.cuda.runtime.getDeviceProperties(0)
    common = set(ours) & set(theirs)
    assert {"name", "totalGlobalMem", "multiProcessorCount", "major", "minor",
            "sharedMemPerBlock", "warpSize", "l2CacheSize"} <= common
    for k in ("name", "totalGlobalMem", "multiProcessorCount", "major", "minor",
              "sharedMemPerBlock", "warpSize", "l2CacheSize", "maxThreadsPerBlock"):
        assert ours[k] == theirs[k], k


def test_bad_device_ids_raise_with_the_code():
    for bad in (-1, 1000):
        with pytest.raises(runtime.CUDARuntimeError) as e:
            runtime.setDevice(bad)
        assert e.value.status == runtime.errorInvalidDevice
        assert str(e.value).startswith("cudaErrorInvalidDevice")
        with pytest.raises(runtime.CUDARuntimeError) as e:
            runtime.getDeviceProperties(bad)
        assert e.value.status == 101
    with pytest.raises(runtime.CUDARuntimeError):
        cuda.Device(1000)
    assert runtime.getDevice() == 0


def test_malloc_memcpy_memset_free():
    rng = numpy.random.default_rng(5)
    h = rng.standard_normal(257)
    n = h.nbytes
    p = runtime.malloc(n)
    try:
        runtime.memcpy(p, h.ctypes.data, n, runtime.memcpyHostToDevice)
        back = numpy.empty_like(h)
        runtime.memcpy(back.ctypes.data, p, n, runtime.memcpyDeviceToHost)
        numpy.testing.assert_array_equal(back, h)
        q = runtime.malloc(n)
        s = runtime.streamCreate()
        runtime.memcpyAsync(q, p, n, runtime.memcpyDeviceToDevice, s)
        runtime.memsetAsync(q, 0, 8, s)
        runtime.streamSynchronize(s)
        runtime.memcpy(back.ctypes.data, q, n, runtime.memcpyDefault)
        assert back[0] == 0 and (back[1:] == h[1:]).all()
        runtime.memset(q, 0xFF, n)
        runtime.memcpy(back.ctypes.data, q, n, runtime.memcpyDeviceToHost)
        assert (back.view(numpy.uint8) == 0xFF).all()
        attrs = runtime.pointerGetAttributes(q)
        assert attrs.type == runtime.memoryTypeDevice and attrs.device == 0
        runtime.free(q)
        runtime.streamDestroy(s)
    finally:
        runtime.free(p)
    with pytest.raises(runtime.CUDARuntimeError) as e:
        runtime.memcpy(0, 0, 8, 9)
    assert e.value.status == runtime.errorInvalidValue


def test_host_alloc_and_events():
    n = 1 << 20
    hp = runtime.hostAlloc(n, runtime.hostAllocPortable)
    try:
        assert runtime.pointerGetAttributes(hp).type == runtime.memoryTypeHost
        start, end = runtime.eventCreate(), runtime.eventCreateWithFlags(
            runtime.eventBlockingSync)
        s = runtime.streamCreateWithFlags(runtime.streamNonBlocking)
        d = runtime.mallocAsync(n, s)
        runtime.eventRecord(start, s)
        runtime.memcpyAsync(d, hp, n, runtime.memcpyHostToDevice, s)
        runtime.eventRecord(end, s)
        runtime.eventSynchronize(end)
        assert runtime.eventQuery(end) == 0 and runtime.streamQuery(s) == 0
        assert runtime.eventElapsedTime(start, end) >= 0
        runtime.freeAsync(d, s)
        runtime.streamSynchronize(s)
        for ev in (start, end):
            runtime.eventDestroy(ev)
        runtime.streamDestroy(s)
    finally:
        runtime.freeHost(hp)


def _cubin():
    from cuarray._runtime.compiler import compile_cubin, device_arch
    cubin, _ = compile_cubin(_SRC, ("-std=c++17",), (), device_arch(), "axpy")
    return cubin


def test_driver_module_and_launch():
    rng = numpy.random.default_rng(6)
    hx = rng.standard_normal(1000).astype(numpy.float32)
    hy = rng.standard_normal(1000).astype(numpy.float32)
    x, y = cuarray.asarray(hx), cuarray.asarray(hy)
    mod = driver.moduleLoadData(_cubin())
    try:
        f = driver.moduleGetFunction(mod, "axpy")
        assert driver.funcGetAttribute(driver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) > 0
        ptr, size = driver.moduleGetGlobal(mod, "counter")
        assert ptr != 0 and size == 4
        vals = [ctypes.c_uint64(x.data.ptr), ctypes.c_uint64(y.data.ptr), ctypes.c_float(2.0),
                ctypes.c_int(1000)]
        params = (ctypes.c_void_p * 4)(*[ctypes.addressof(v) for v in vals])
        driver.launchKernel(f, 4, 1, 1, 256, 1, 1, 0, 0, ctypes.addressof(params), 0)
        runtime.deviceSynchronize()
        numpy.testing.assert_allclose(y.get(), hy + 2 * hx, rtol=1e-6)
        blocks = driver.occupancyMaxActiveBlocksPerMultiprocessor(f, 256, 0)
        assert blocks >= 1
        assert driver.ctxGetCurrent() != 0
    finally:
        driver.moduleUnload(mod)
    with pytest.raises(driver.CUDADriverError):
        driver.moduleLoadData(b"not a module")


def test_function_module_from_file(tmp_path):
    path = tmp_path / "axpy.cubin"
    path.write_bytes(_cubin())
    mod = cuda.function.Module()
    mod.load_file(str(path))
    f = mod.get_function("axpy")
    assert f.num_regs > 0 and f.max_threads_per_block > 0 and f.ptr != 0
    rng = numpy.random.default_rng(7)
    hx = rng.standard_normal(300).astype(numpy.float32)
    x = cuarray.asarray(hx)
    y = cuarray.zeros(300, dtype=numpy.float32)
    f((2,), (256,), (x, y, numpy.float32(3), numpy.int32(300)))
    numpy.testing.assert_allclose(y.get(), 3 * hx, rtol=1e-6)
    f.linear_launch(300, (x, y.data, numpy.float32(-3), numpy.int32(300)))
    numpy.testing.assert_allclose(y.get(), 0, atol=1e-6)
    g = mod.get_global_var("counter")
    assert isinstance(g, cuda.MemoryPointer) and g.ptr != 0
    with pytest.raises(FileNotFoundError):
        cuda.function.Module().load_file(str(tmp_path / "missing.cubin"))
    with pytest.raises(AttributeError):
        mod.get_function("no_such_kernel")


def test_compile_with_cache():
    mod = cuda.compiler.compile_with_cache(_SRC)
    f = mod.get_function("axpy")
    x = cuarray.ones(10, dtype=numpy.float32)
    y = cuarray.ones(10, dtype=numpy.float32)
    f((1,), (32,), (x, y, numpy.float32(1), numpy.int32(10)))
    assert (y.get() == 2).all()
    assert cuda.compiler.get_nvrtc_version() >= (12, 0)
    with pytest.raises(cuda.compiler.CompileException) as e:
        cuda.compiler.compile_with_cache("__global__ void broken( { }")
    assert "error" in e.value.get_message()
    with pytest.raises(ValueError, match="arch"):
        cuda.compiler.compile_with_cache(_SRC, arch="sm_35")


def test_device_handles():
    d = cuda.Device()
    h = d.cublas_handle
    assert isinstance(h, int) and h != 0
    assert cuda.device.get_cublas_handle() == h
    assert d.cusolver_handle != 0 and d.cusparse_handle != 0
    assert cuda.device.get_device_id() == 0


def test_structured_scalar_arguments():
    """C structs passed by value from NumPy structured scalars, as CuPy documents."""
    src = r'''
    struct Params { float scale; int offset; double bias; };
    struct __align__(8) Pair { float x; float y; };
    extern "C" __global__ void k(const Params p, const Pair q, double* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = p.scale * i + p.offset + p.bias + q.x * q.y;
    }'''
    params_t = numpy.dtype([("scale", numpy.float32), ("offset", numpy.int32),
                            ("bias", numpy.float64)], align=True)
    pair_t = numpy.dtype({"names": ["x", "y"], "formats": [numpy.float32] * 2,
                          "itemsize": 8, "aligned": True})
    p = numpy.array((1.5, 3, 0.25), dtype=params_t)[()]
    q = numpy.array((2.0, 4.0), dtype=pair_t)[()]
    assert isinstance(p, numpy.void)
    out = cuarray.empty(100, dtype=numpy.float64)
    cuarray.RawKernel(src, "k")((1,), (128,), (p, q, out, numpy.int32(100)))
    i = numpy.arange(100)
    numpy.testing.assert_allclose(out.get(), 1.5 * i + 3 + 0.25 + 8.0)


def test_vector_type_scalar_arguments():
    """float4 / double2 passed by value from NumPy dtypes with x, y, z, w fields."""
    src = r'''
    extern "C" __global__ void k(int a, float4 v, char b, double2 d, double* out) {
        out[0] = a; out[1] = v.x; out[2] = v.y; out[3] = v.z; out[4] = v.w;
        out[5] = b; out[6] = d.x; out[7] = d.y;
    }'''
    float4 = numpy.dtype({"names": ["x", "y", "z", "w"], "formats": [numpy.float32] * 4})
    double2 = numpy.dtype({"names": ["x", "y"], "formats": [numpy.float64] * 2})
    v = numpy.array([1.5, 2.5, 3.5, 4.5], dtype=numpy.float32).view(float4)[0]
    d = numpy.array([-1.25, 8.0]).view(double2)[0]
    out = cuarray.zeros(8)
    cuarray.RawKernel(src, "k")((1,), (1,), (numpy.int32(7), v, numpy.int8(3), d, out))
    assert out.get().tolist() == [7, 1.5, 2.5, 3.5, 4.5, 3, -1.25, 8.0]
