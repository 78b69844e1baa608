"""cuFFT load/store callbacks from CUDA source: LTO compilation and plan wiring (CPU), and
transforms with callbacks on a GPU."""
import ctypes

import numpy
import pytest

import cuarray
from cuarray.fft import _callbacks, config

LEGACY_LOAD = r'''
__device__ cufftComplex CB_ConvertInputC(void* dataIn, size_t offset, void* callerInfo,
                                         void* sharedPtr) {
    cufftComplex x = ((cufftComplex*)dataIn)[offset];
    x.x *= 2.5f;
    x.y *= 2.5f;
    return x;
}
__device__ cufftCallbackLoadC d_loadCallbackPtr = CB_ConvertInputC;
'''

JIT_STORE = r'''
__device__ void store_times_index(void* dataOut, unsigned long long offset, cufftComplex e,
                                  void* callerInfo, void* sharedPtr) {
    float k = (float)(offset % 4);
    ((cufftComplex*)dataOut)[offset] = make_cuComplex(e.x * k, e.y * k);
}
'''

DOUBLE_LOAD_WITH_DATA = r'''
__device__ cufftDoubleReal load_scaled(void* dataIn, size_t offset, void* callerInfo,
                                       void* sharedPtr) {
    double s = *(double*)callerInfo;
    return ((cufftDoubleReal*)dataIn)[offset] * s;
}
'''


class _FakeCufft:
    def __init__(self):
        self.calls = []

    def xt_set_jit_callback(self, handle, name_ptr, ir_ptr, size, cb_type, info_ptr):
        name = ctypes.string_at(name_ptr).decode() if name_ptr else None
        ir = ctypes.string_at(ir_ptr, size)
        self.calls.append((handle, name, len(ir), cb_type))


@pytest.fixture
def fake_link(monkeypatch):
    from cuarray._runtime import lto
    monkeypatch.setattr(lto, "load_nvjitlink", lambda: None)
    return _FakeCufft()


def test_names_are_found():
    cb = _callbacks.set_cufft_callbacks(cb_load=LEGACY_LOAD, cb_store=JIT_STORE, cb_ver="jit")
    assert cb._names == {"load": "CB_ConvertInputC", "store": "store_times_index"}
    cb = _callbacks.set_cufft_callbacks(cb_store=JIT_STORE, cb_store_name="store_times_index")
    assert cb._names == {"store": "store_times_index"}
    with pytest.raises(ValueError, match="cb_ver"):
        _callbacks.set_cufft_callbacks(cb_load=LEGACY_LOAD, cb_ver="other")
    with pytest.raises(ValueError, match="cb_load"):
        _callbacks.set_cufft_callbacks()
    with pytest.raises(ValueError, match="which function"):
        _callbacks.set_cufft_callbacks(cb_load="__device__ int a(); __device__ int b();")


@pytest.mark.parametrize("fft_type,load_t,store_t", [(0x29, 0, 4), (0x2a, 2, 4), (0x2c, 0, 6),
                                                    (0x69, 1, 5), (0x6a, 3, 5), (0x6c, 1, 7)])
def test_callbacks_compile_to_lto_for_each_plan_type(fake_link, fft_type, load_t, store_t):
    elem_in, elem_out = _callbacks._ELEMENTS[fft_type]
    load = (f"__device__ {elem_in} my_load(void* d, size_t o, void* i, void* s) "
            f"{{ return (({elem_in}*)d)[o]; }}")
    store = (f"__device__ void my_store(void* d, size_t o, {elem_out} e, void* i, void* s) "
             f"{{ (({elem_out}*)d)[o] = e; }}")
    cb = _callbacks.set_cufft_callbacks(cb_load=load, cb_store=store, cb_ver="jit")
    keep = cb.attach(fake_link, 7, fft_type, "compute_90")
    assert len(keep) == 4  # the IR and the callerInfo array of each callback
    got = sorted(fake_link.calls, key=lambda c: c[3])
    # no symbol name: cuFFT links the function of its default name
    assert [(c[0], c[1], c[3]) for c in got] == [(7, None, load_t), (7, None, store_t)]
    assert all(c[2] > 0 for c in got)


def _exported_functions(source):
    # PTX of the same source lists the external device functions the LTO-IR defines.
    import re
    from cuda.bindings import nvrtc
    from cuarray._runtime.compiler import INCLUDE_DIR
    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), b"cb.cu", 0, [], [])
    try:
        opts = [b"-arch=compute_90", b"-rdc=true", f"-I{INCLUDE_DIR}".encode(), b"--std=c++17"]
        assert nvrtc.nvrtcCompileProgram(prog, len(opts), opts)[0] == 0
        size = nvrtc.nvrtcGetPTXSize(prog)[1]
        ptx = b" " * size
        nvrtc.nvrtcGetPTX(prog, ptx)
    finally:
        nvrtc.nvrtcDestroyProgram(prog)
    return set(re.findall(r"\.visible \.func[^\n]*?\s(\w+)\(", ptx.decode()))


@pytest.mark.parametrize("kind,elem,mangled", [
    ("load", "cufftComplex", "_Z27cufftJITCallbackLoadComplexPvyS_S_"),
    ("load", "cufftDoubleReal", "_Z30cufftJITCallbackLoadDoubleRealPvyS_S_"),
    ("store", "cufftComplex", "_Z28cufftJITCallbackStoreComplexPvy6float2S_S_"),
    ("store", "cufftDoubleComplex", "_Z34cufftJITCallbackStoreDoubleComplexPvy7double2S_S_"),
    ("store", "cufftReal", "_Z25cufftJITCallbackStoreRealPvyfS_S_")])
def test_source_defines_cuffts_default_callback(kind, elem, mangled):
    # cuFFT's default names with the LTO signature (offset unsigned long long), mangled as
    # nvmath-python names its prologs and epilogs.
    pytest.importorskip("cuda.bindings.nvrtc")
    if kind == "load":
        src = (f"__device__ {elem} my_cb(void* d, size_t o, void* i, void* s) "
               f"{{ return (({elem}*)d)[o]; }}")
        cb = _callbacks.set_cufft_callbacks(cb_load=src, cb_ver="jit")
    else:
        src = (f"__device__ void my_cb(void* d, size_t o, {elem} e, void* i, void* s) "
               f"{{ (({elem}*)d)[o] = e; }}")
        cb = _callbacks.set_cufft_callbacks(cb_store=src, cb_ver="jit")
    assert mangled in _exported_functions(cb.source(kind, elem))
    # a source that already defines the default-named function is used as it is
    name = _callbacks.default_name(kind, elem)
    own = src.replace("my_cb", name).replace("size_t o", "unsigned long long o")
    cb = _callbacks.set_cufft_callbacks(**{f"cb_{kind}": own}, cb_ver="jit")
    assert mangled in _exported_functions(cb.source(kind, elem))
    legacy = _callbacks.set_cufft_callbacks(cb_load=LEGACY_LOAD)
    assert "_Z27cufftJITCallbackLoadComplexPvyS_S_" in _exported_functions(
        legacy.source("load", "cufftComplex"))


def test_context_nests_and_unwinds():
    assert _callbacks.current() is None
    with config.set_cufft_callbacks(cb_load=LEGACY_LOAD) as a:
        assert _callbacks.current() is a
        with config.set_cufft_callbacks(cb_store=JIT_STORE) as b:
            assert _callbacks.current() is b
        assert _callbacks.current() is a
    assert _callbacks.current() is None


def test_set_cufft_gpus_refuses():
    with pytest.raises(ValueError, match="at least 2"):
        config.set_cufft_gpus(1)
    with pytest.raises(ValueError, match="at least 2"):
        config.set_cufft_gpus([0])
    with pytest.raises(ValueError, match="int or a list"):
        config.set_cufft_gpus("0,1")
    assert config.use_multi_gpus is False


# ---------------------------------------------------------------- GPU

@pytest.mark.gpu
def test_load_and_store_callbacks_transform():
    rng = numpy.random.default_rng(70)
    h = (rng.standard_normal(64) + 1j * rng.standard_normal(64)).astype(numpy.complex64)
    x = cuarray.asarray(h)
    with config.set_cufft_callbacks(cb_load=LEGACY_LOAD):
        y = cuarray.fft.fft(x)
    numpy.testing.assert_allclose(y.get(), numpy.fft.fft(2.5 * h), rtol=1e-4, atol=1e-3)
    with config.set_cufft_callbacks(cb_load=LEGACY_LOAD, cb_store=JIT_STORE, cb_ver="jit"):
        z = cuarray.fft.fft(x)
    want = numpy.fft.fft(2.5 * h) * (numpy.arange(64) % 4)
    numpy.testing.assert_allclose(z.get(), want, rtol=1e-4, atol=1e-3)
    # outside the block, plain plans again
    numpy.testing.assert_allclose(cuarray.fft.fft(x).get(), numpy.fft.fft(h), rtol=1e-4,
                                  atol=1e-4)


@pytest.mark.gpu
def test_real_callback_with_caller_data():
    rng = numpy.random.default_rng(71)
    h = rng.standard_normal((3, 40))
    scale = cuarray.asarray(numpy.array([0.5]))
    with config.set_cufft_callbacks(cb_load=DOUBLE_LOAD_WITH_DATA, cb_load_data=scale.data,
                                    cb_ver="jit"):
        y = cuarray.fft.rfft(cuarray.asarray(h))
    numpy.testing.assert_allclose(y.get(), numpy.fft.rfft(0.5 * h), rtol=1e-10, atol=1e-10)


@pytest.mark.gpu
def test_multi_gpu_switch_refuses():
    config.use_multi_gpus = True
    try:
        with pytest.raises(RuntimeError, match="multi-GPU"):
            cuarray.fft.fft(cuarray.ones(8, dtype=numpy.complex64))
    finally:
        config.use_multi_gpus = False
    if cuarray.cuda.runtime.getDeviceCount() < 2:
        with pytest.raises(ValueError, match="do not exist"):
            config.set_cufft_gpus([0, 1])
