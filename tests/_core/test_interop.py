"""__cuda_array_interface__ and DLPack: exchange with Numba, PyTorch and JAX.

The CPU tests drive the capsule and interface code with arrays over made-up device
addresses (nothing dereferences them): struct layouts against dlpack.h, dtype codes
against NumPy's own exporter, export/import round trips, capsule lifetimes, and a
consumer that fails while holding an unconsumed capsule. The `gpu` tests exchange real
arrays with the libraries that are installed and skip, naming it, each one that is not.
"""
import ctypes
import gc
import os
import weakref

import numpy
import pytest

from cuarray._core import dtypes, interop
from cuarray._core.ndarray import ndarray
from cuarray._runtime import memory

_FAKE = 0x7F00_0000_1000  # a made-up device address: no test here reads through it


class _Owner:
    """Stands for the foreign object that owns the memory; weakref-able to watch lifetimes."""


def _fake(shape, dtype, strides=None, offset=0, device_id=0):
    """(ndarray over _FAKE, weakref to its owner); no driver call is made."""
    owner = _Owner()
    mem = memory.UnownedMemory(_FAKE, 1 << 20, owner, device_id)
    a = ndarray(shape, dtype, memptr=memory.MemoryPointer(mem, 0), offset=offset,
                strides=strides)
    return a, weakref.ref(owner)


def _collected(ref):
    gc.collect()
    return ref() is None


class _Producer:
    """A DLPack producer handing out one prepared capsule."""

    def __init__(self, capsule, device=(2, 0)):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


# ---- DLPack structures -------------------------------------------------------------------

@pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="layouts are for 64-bit ABIs")
@pytest.mark.parametrize("struct, size, offsets", [
    (interop.DLDevice, 8, {"device_type": 0, "device_id": 4}),
    (interop.DLDataType, 4, {"code": 0, "bits": 1, "lanes": 2}),
    (interop.DLTensor, 48, {"data": 0, "device": 8, "ndim": 16, "dtype": 20, "shape": 24,
                            "strides": 32, "byte_offset": 40}),
    (interop.DLManagedTensor, 64, {"dl_tensor": 0, "manager_ctx": 48, "deleter": 56}),
    (interop.DLPackVersion, 8, {"major": 0, "minor": 4}),
    (interop.DLManagedTensorVersioned, 80, {"version": 0, "manager_ctx": 8, "deleter": 16,
                                            "flags": 24, "dl_tensor": 32}),
])
def test_struct_layout_matches_dlpack_h(struct, size, offsets):
    assert ctypes.sizeof(struct) == size
    assert {name: getattr(struct, name).offset for name in offsets} == offsets


@pytest.mark.parametrize("dtype", dtypes.SUPPORTED, ids=str)
@pytest.mark.parametrize("versioned", [False, True])
def test_dtype_codes_match_numpys_exporter(dtype, versioned):
    host = numpy.zeros(3, dtype)
    capsule = host.__dlpack__(max_version=(1, 0)) if versioned else host.__dlpack__()
    _, t = interop._tensor(capsule, versioned)
    code = (t.dtype.code, t.dtype.bits, t.dtype.lanes)
    assert code == interop.dlpack_dtype(dtype)
    assert interop.dtype_from_dlpack(*code) == dtype


@pytest.mark.parametrize("dtype, code", [
    (numpy.bool_, (6, 8, 1)), (numpy.int8, (0, 8, 1)), (numpy.uint64, (1, 64, 1)),
    (numpy.float16, (2, 16, 1)), (numpy.float64, (2, 64, 1)),
    (numpy.complex64, (5, 64, 1)), (numpy.complex128, (5, 128, 1)),
])
def test_dtype_codes(dtype, code):
    assert interop.dlpack_dtype(dtype) == code


@pytest.mark.parametrize("code, match", [
    ((4, 16, 1), "bfloat16"), ((10, 8, 1), "float8_e4m3fn"), ((2, 8, 1), "float8"),
    ((5, 32, 1), "complex32"), ((2, 32, 4), "lanes"), ((6, 16, 1), "bool"),
    ((3, 64, 1), "opaque"), ((99, 8, 1), "type code 99"),
])
def test_unsupported_dlpack_dtypes_raise_type_error(code, match):
    with pytest.raises(TypeError, match=match):
        interop.dtype_from_dlpack(*code)


# ---- __cuda_array_interface__ --------------------------------------------------------------

def test_cai_export_contiguous():
    a, _ = _fake((3, 4), numpy.float32)
    desc = interop.cuda_array_interface(a)
    assert desc == {"shape": (3, 4), "typestr": "<f4", "descr": [("", "<f4")],
                    "data": (_FAKE, False), "strides": None, "stream": 1, "version": 3}


def test_cai_export_strided_and_special_shapes():
    a, _ = _fake((3, 4), numpy.complex128, strides=(16, 48))
    desc = interop.cuda_array_interface(a)
    assert desc["strides"] == (16, 48) and desc["typestr"] == "<c16"
    z, _ = _fake((), numpy.bool_)
    desc = interop.cuda_array_interface(z)
    assert desc["shape"] == () and desc["typestr"] == "|b1" and desc["strides"] is None
    e, _ = _fake((0, 5), numpy.int16, offset=64)
    assert interop.cuda_array_interface(e)["data"] == (0, False)  # empty: null pointer


def test_cai_export_reports_current_stream():
    from cuarray._runtime import stream
    a, _ = _fake((2,), numpy.float32)
    s = stream.ExternalStream(0x1234, device_id=0)
    with s:
        assert interop.cuda_array_interface(a)["stream"] == 0x1234
    assert interop.cuda_array_interface(a)["stream"] == 1  # legacy default, never 0


@pytest.mark.parametrize("desc, expected", [
    ({"shape": (2, 3), "typestr": "<f8", "data": (_FAKE, False), "version": 3,
      "strides": None, "stream": None},
     (_FAKE, (2, 3), None, numpy.float64, None)),
    ({"shape": [2, 3], "typestr": "<i4", "data": (_FAKE, True), "version": 3,
      "strides": [4, 8], "stream": 2},
     (_FAKE, (2, 3), (4, 8), numpy.int32, 2)),
    ({"shape": (4,), "typestr": "|b1", "data": (_FAKE, False), "version": 2, "stream": 7},
     (_FAKE, (4,), None, numpy.bool_, None)),  # streams exist from version 3 on
    ({"shape": (), "typestr": "<c8", "data": (_FAKE, False)},
     (_FAKE, (), None, numpy.complex64, None)),  # version 0: no version key
    ({"shape": (0,), "typestr": "<u2", "data": (None, False), "version": 3},
     (0, (0,), None, numpy.uint16, None)),
    ({"shape": (3,), "typestr": "<f2", "data": (_FAKE, False), "version": 1, "mask": None},
     (_FAKE, (3,), None, numpy.float16, None)),
    ({"shape": (3,), "typestr": "<f4", "data": (_FAKE, False), "version": 3, "stream": 0},
     (_FAKE, (3,), None, numpy.float32, 1)),  # forbidden, read as the legacy stream
])
def test_parse_cai(desc, expected):
    ptr, shape, strides, dtype, stream = interop.parse_cuda_array_interface(desc)
    assert (ptr, shape, strides, dtype, stream) == expected
    assert isinstance(dtype, numpy.dtype)


@pytest.mark.parametrize("change, error, match", [
    ({"typestr": "<U4"}, TypeError, "structured dtypes; got"),
    ({"typestr": "|O"}, TypeError, "structured dtypes; got"),
    ({"typestr": "|V8"}, TypeError, "structured dtypes; got"),
    ({"typestr": "<f16"}, TypeError, "long double"),
    ({"mask": (0x1000, False)}, ValueError, "masked"),
    ({"strides": (4,)}, ValueError, "strides"),
])
def test_parse_cai_refuses(change, error, match):
    desc = {"shape": (2, 2), "typestr": "<f4", "data": (_FAKE, False), "version": 3,
            "strides": None, "stream": None}
    desc.update(change)
    with pytest.raises(error, match=match):
        interop.parse_cuda_array_interface(desc)


def test_parse_cai_other_byte_order():
    # Read into a native copy by from_cuda_array_interface (issue: '>i4' gives the right values).
    desc = {"shape": (2,), "typestr": ">i4", "data": (_FAKE, False), "version": 3,
            "strides": None, "stream": None}
    assert interop.parse_cuda_array_interface(desc)[3] == numpy.dtype(">i4")


def test_span():
    assert interop._span(1000, (3, 4), (16, 4), 4) == (1000, 48)
    assert interop._span(1000, (3,), (-8,), 8) == (984, 24)
    assert interop._span(1000, (2, 3), (4, -8), 4) == (984, 24)
    assert interop._span(1000, (), (), 8) == (1000, 8)
    assert interop._span(1000, (3, 0), (0, 4), 4) == (1000, 0)


# ---- DLPack export -------------------------------------------------------------------------

def _read(capsule):
    versioned = interop._capi.PyCapsule_IsValid(capsule, interop._NAME_V) == 1
    m, t = interop._tensor(capsule, versioned)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.ndim else ()
    return versioned, m, t, shape, strides


@pytest.mark.parametrize("versioned", [False, True])
@pytest.mark.parametrize("shape, dtype, strides, offset, el_strides", [
    ((3, 4), numpy.float32, None, 0, (4, 1)),
    ((3, 4), numpy.float32, (4, 12), 0, (1, 3)),         # F order
    ((5,), numpy.int64, (-8,), 32, (-1,)),               # negative stride
    ((2, 3, 2), numpy.complex64, (96, 16, 8), 8, (12, 2, 1)),
    ((), numpy.bool_, None, 0, ()),
])
def test_export_fields(versioned, shape, dtype, strides, offset, el_strides):
    a, _ = _fake(shape, dtype, strides=strides, offset=offset, device_id=3)
    capsule = interop._export(a, versioned, copied=False)
    is_v, m, t, got_shape, got_strides = _read(capsule)
    assert is_v == versioned
    assert (t.device.device_type, t.device.device_id) == (2, 3)
    assert t.data == _FAKE + offset and t.byte_offset == 0
    assert got_shape == shape and got_strides == el_strides
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == interop.dlpack_dtype(dtype)
    if versioned:
        assert m.version.major == 1 and m.flags == 0


def test_export_empty_has_null_data_and_copied_flag():
    a, _ = _fake((0, 3), numpy.float64, offset=16)
    _, m, t, shape, _ = _read(interop._export(a, True, copied=True))
    assert t.data is None and shape == (0, 3)
    assert m.flags == interop.DLPACK_FLAG_BITMASK_IS_COPIED


def test_unconsumed_capsule_releases_the_array():
    a, owner = _fake((4,), numpy.float32)
    capsule = interop._export(a, True, copied=False)
    del a
    assert not _collected(owner)  # the capsule holds the array
    del capsule
    assert _collected(owner)


def test_failing_consumer_keeps_its_exception():
    # NumPy takes the capsule, then refuses a CUDA tensor and drops the capsule while its
    # error is pending: the destructor must leave that error alone.
    a, owner = _fake((4,), numpy.float32)
    producer = _Producer(interop._export(a, True, copied=False))
    del a
    with pytest.raises(RuntimeError, match="device") as info:
        numpy.from_dlpack(producer)
    assert not isinstance(info.value, SystemError)
    del producer, info
    assert _collected(owner)


# ---- DLPack import -------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", dtypes.SUPPORTED, ids=str)
@pytest.mark.parametrize("versioned", [False, True])
def test_export_import_round_trip(dtype, versioned):
    it = numpy.dtype(dtype).itemsize
    a, owner = _fake((3, 4), dtype, strides=(it, 3 * it), offset=2 * it, device_id=1)
    capsule = interop._export(a, versioned, copied=False)
    b = interop.from_dlpack(capsule)
    assert (b._ptr, b.shape, b.strides, b.dtype, b._device_id) == \
        (a._ptr, a.shape, a.strides, a.dtype, 1)
    assert b._f_contig and not b._c_contig
    del a, capsule
    assert not _collected(owner)  # the imported view keeps the exporter's array alive
    del b
    assert _collected(owner)  # dropping it runs the producer's deleter


def test_import_zero_d_and_empty():
    z, _ = _fake((), numpy.complex128, device_id=2)
    b = interop.from_dlpack(interop._export(z, True, copied=False))
    assert b.shape == () and b._ptr == _FAKE and b._device_id == 2
    e, _ = _fake((2, 0, 3), numpy.int8, device_id=2)
    b = interop.from_dlpack(interop._export(e, False, copied=False))
    assert b.shape == (2, 0, 3) and b.size == 0 and b._ptr == 0 and b._device_id == 2


def test_capsule_is_consumed_once():
    a, _ = _fake((4,), numpy.float32)
    capsule = interop._export(a, True, copied=False)
    interop.from_dlpack(capsule)
    with pytest.raises(ValueError, match="consumed multiple times"):
        interop.from_dlpack(capsule)


def test_host_capsule_is_refused_and_left_unconsumed():
    host = numpy.arange(4.0)
    capsule = host.__dlpack__()
    with pytest.raises(TypeError, match=r"cuarray\.asarray\(numpy\.from_dlpack\(x\)\)"):
        interop.from_dlpack(capsule)
    assert interop._capi.PyCapsule_IsValid(capsule, interop._NAME) == 1


def test_host_objects_are_refused():
    with pytest.raises(TypeError, match=r"cuarray\.asarray\(numpy\.from_dlpack\(x\)\)"):
        interop.from_dlpack(numpy.arange(3))
    with pytest.raises(TypeError, match="__dlpack__"):
        interop.from_dlpack([1, 2, 3])
    with pytest.raises(TypeError, match="device type 4"):
        interop.from_dlpack(_Producer(None, device=(4, 0)))


def test_unsupported_dtype_leaves_capsule_unconsumed():
    host = numpy.zeros(2, numpy.float32)
    capsule = host.__dlpack__(max_version=(1, 0))
    _, t = interop._tensor(capsule, True)
    t.device.device_type = 2
    t.dtype.code, t.dtype.bits = 4, 16  # bfloat16
    with pytest.raises(TypeError, match="bfloat16"):
        interop.from_dlpack(capsule)
    assert interop._capi.PyCapsule_IsValid(capsule, interop._NAME_V) == 1


def test_newer_major_version_is_refused_and_released():
    host = numpy.zeros(2, numpy.float32)
    ref = weakref.ref(host)
    capsule = host.__dlpack__(max_version=(1, 0))
    del host
    m, t = interop._tensor(capsule, True)
    t.device.device_type = 2
    m.version.major = 2
    with pytest.raises(BufferError, match="DLPack 2"):
        interop.from_dlpack(capsule)
    assert _collected(ref)  # dlpack.h: the consumer calls the deleter at once


def test_fromDlpack_is_deprecated_alias():
    a, _ = _fake((4,), numpy.float32)
    with pytest.warns(DeprecationWarning, match="from_dlpack"):
        b = interop.fromDlpack(interop._export(a, False, copied=False))
    assert b._ptr == a._ptr


# ---- GPU: real arrays --------------------------------------------------------------------

def _torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA support here")
    return torch


def _numba_cuda():
    cuda = pytest.importorskip("numba.cuda", reason="Numba (numba-cuda) is not installed")
    if not cuda.is_available():
        pytest.skip("Numba cannot use the GPU here")
    return cuda


def _jax():
    # JAX would otherwise take 75% of GPU memory when it starts.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        pytest.skip("JAX has no GPU backend here")
    return jax


class _CAI:
    """A minimal foreign producer: a dict in front of someone else's memory."""

    def __init__(self, desc, keep):
        self.__cuda_array_interface__, self.keep = desc, keep


@pytest.mark.gpu
class TestCudaArrayInterfaceGPU:

    def test_import_is_zero_copy_and_keeps_producer_alive(self):
        import cuarray as cp
        src = cp.arange(12, dtype=cp.float32).reshape(3, 4)
        foreign = _CAI(dict(src.__cuda_array_interface__), src)
        ref = weakref.ref(foreign)
        a = cp.asarray(foreign)
        assert a.data.ptr == src.data.ptr and a.shape == (3, 4) and a.dtype == cp.float32
        del foreign
        assert not _collected(ref)
        a[1, 2] = -1
        assert src[1, 2].item() == -1
        del a
        assert _collected(ref)

    def test_import_strided_zero_d_empty(self):
        import cuarray as cp
        src = cp.arange(24, dtype=cp.int64).reshape(4, 6)
        v = src[::2, 1::3]
        a = interop.from_cuda_array_interface(_CAI(v.__cuda_array_interface__, v))
        assert a.strides == v.strides and a.data.ptr == v.data.ptr
        numpy.testing.assert_array_equal(a.get(), v.get())
        z = cp.asarray(numpy.float64(2.5))
        assert interop.from_cuda_array_interface(_CAI(z.__cuda_array_interface__, z)).item() == 2.5
        e = interop.from_cuda_array_interface(
            _CAI({"shape": (0, 3), "typestr": "<f4", "data": (0, False), "version": 3}, None))
        assert e.shape == (0, 3) and e.size == 0

    def test_import_waits_on_the_producers_stream(self):
        import cuarray as cp
        s = cp.cuda.Stream(non_blocking=True)
        with s:
            src = cp.arange(1 << 22, dtype=cp.float32)  # still running on s, maybe
            desc = dict(src.__cuda_array_interface__)
        assert desc["stream"] == s.ptr
        a = interop.from_cuda_array_interface(_CAI(desc, src))  # read on the null stream
        numpy.testing.assert_array_equal(a.get(), numpy.arange(1 << 22, dtype=numpy.float32))

    def test_numba_round_trip(self):
        import cuarray as cp
        cuda = _numba_cuda()
        x = cp.arange(12, dtype=cp.float64).reshape(3, 4)
        d = cuda.as_cuda_array(x)
        assert d.shape == x.shape and d.strides == x.strides and d.dtype == x.dtype
        assert d.device_ctypes_pointer.value == x.data.ptr
        numpy.testing.assert_array_equal(d.copy_to_host(), x.get())
        new = numpy.arange(12, dtype=numpy.float64).reshape(3, 4) * -1
        d.copy_to_device(new)  # Numba writes, cuarray reads
        numpy.testing.assert_array_equal(x.get(), new)
        x[2, 3] = 42.0  # cuarray writes, Numba reads
        assert d.copy_to_host()[2, 3] == 42.0
        back = cp.asarray(d)
        assert back.data.ptr == x.data.ptr
        del x, back
        gc.collect()
        cp.ones((3, 4), cp.float64)  # would reuse freed memory
        assert d.copy_to_host()[2, 3] == 42.0  # Numba's view keeps the memory alive

    def test_numba_strided_zero_d_empty(self):
        import cuarray as cp
        cuda = _numba_cuda()
        x = cp.arange(30, dtype=cp.int32).reshape(5, 6)[1::2, ::2]
        d = cuda.as_cuda_array(x)
        assert d.strides == x.strides and d.device_ctypes_pointer.value == x.data.ptr
        y = cp.asarray(d)
        assert y.strides == x.strides and y.data.ptr == x.data.ptr
        numpy.testing.assert_array_equal(y.get(), x.get())
        z = cp.asarray(numpy.complex64(1 + 2j))
        assert cuda.as_cuda_array(z).copy_to_host() == numpy.complex64(1 + 2j)
        e = cp.empty((0, 4), cp.float32)
        assert cuda.as_cuda_array(e).shape == (0, 4)
        n = cuda.to_device(numpy.arange(6, dtype=numpy.uint8).reshape(2, 3))
        m = cp.asarray(n)
        assert m.data.ptr == n.device_ctypes_pointer.value
        numpy.testing.assert_array_equal(m.get(), n.copy_to_host())


_TORCH_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.gpu
class TestDLPackTorchGPU:

    @pytest.mark.parametrize("name", _TORCH_DTYPES)
    def test_export_to_torch(self, name):
        import cuarray as cp
        torch = _torch()
        if not hasattr(torch, name):
            pytest.skip(f"this PyTorch has no torch.{name}")
        host = (numpy.arange(12) % 3).astype(name).reshape(3, 4)
        x = cp.asarray(host)
        try:
            t = torch.from_dlpack(x)
        except (RuntimeError, TypeError, BufferError) as e:
            if name.startswith("uint") and name != "uint8":
                pytest.skip(f"this PyTorch cannot import {name} through DLPack: {e}")
            raise
        assert t.device.type == "cuda" and t.data_ptr() == x.data.ptr
        assert t.dtype == getattr(torch, name)
        try:
            values = t.cpu().numpy()
        except (RuntimeError, TypeError) as e:
            pytest.skip(f"this PyTorch cannot copy torch.{name} to NumPy: {e}")
        numpy.testing.assert_array_equal(values, host)

    def test_torch_round_trip_strides_and_writes(self):
        import cuarray as cp
        torch = _torch()
        x = cp.arange(24, dtype=cp.float32).reshape(4, 6).T[1:, ::2]
        t = torch.from_dlpack(x)
        assert t.stride() == tuple(s // 4 for s in x.strides)
        assert t.data_ptr() == x.data.ptr
        t[0, 0] = 100.0
        torch.cuda.synchronize()
        assert x[0, 0].item() == 100.0
        x[1, 1] = -5.0
        assert t[1, 1].item() == -5.0
        y = cp.from_dlpack(t) if hasattr(cp, "from_dlpack") else interop.from_dlpack(t)
        assert y.data.ptr == x.data.ptr and y.strides == x.strides

    def test_import_from_torch(self):
        import cuarray as cp
        torch = _torch()
        t = torch.arange(20, dtype=torch.float64, device="cuda").reshape(4, 5)[:, 1::2]
        for a in (interop.from_dlpack(t), cp.asarray(t)):
            assert a.data.ptr == t.data_ptr()
            assert a.strides == tuple(s * 8 for s in t.stride())
            numpy.testing.assert_array_equal(a.get(), t.cpu().numpy())
        z = interop.from_dlpack(torch.tensor(3.5, device="cuda"))
        assert z.shape == () and z.item() == 3.5
        e = interop.from_dlpack(torch.empty((0, 7), device="cuda"))
        assert e.shape == (0, 7)
        b = interop.from_dlpack(torch.tensor([True, False], device="cuda"))
        assert b.dtype == numpy.bool_ and b.get().tolist() == [True, False]

    def test_torch_tensor_outlives_cuarray_array(self):
        import cuarray as cp
        torch = _torch()
        n = 1 << 16
        x = cp.arange(n, dtype=cp.float32)
        t = torch.from_dlpack(x)
        ref = weakref.ref(x)
        del x
        gc.collect()
        assert ref() is not None  # torch's tensor holds the array
        cp.ones(n, dtype=cp.float32)  # would reuse freed memory
        assert t.double().sum().item() == n * (n - 1) / 2
        del t
        torch.cuda.synchronize()
        assert _collected(ref)

    def test_cuarray_array_outlives_torch_tensor(self):
        torch = _torch()
        t = torch.arange(1 << 16, dtype=torch.float32, device="cuda")
        a = interop.from_dlpack(t)
        del t
        gc.collect()
        torch.zeros(1 << 16, dtype=torch.float32, device="cuda")  # would reuse freed memory
        numpy.testing.assert_array_equal(a.get(), numpy.arange(1 << 16, dtype=numpy.float32))

    def test_consumer_stream_waits(self):
        import cuarray as cp
        torch = _torch()
        n = 1 << 22
        x = cp.arange(n, dtype=cp.float32)  # queued on cuarray's null stream
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            t = torch.from_dlpack(x)  # torch passes s: s must wait for the arange
            total = t.double().sum()
        s.synchronize()
        assert total.item() == n * (n - 1) / 2

    def test_copy_and_host_export(self):
        import cuarray as cp
        torch = _torch()
        x = cp.arange(6, dtype=cp.int32)
        y = interop.from_dlpack(torch.arange(6, dtype=torch.int32, device="cuda"), copy=True)
        numpy.testing.assert_array_equal(y.get(), numpy.arange(6))
        cap = x.__dlpack__(max_version=(1, 0), copy=True)
        assert interop._tensor(cap, True)[0].flags & interop.DLPACK_FLAG_BITMASK_IS_COPIED
        assert interop.from_dlpack(cap).data.ptr != x.data.ptr
        h = numpy.from_dlpack(x, device="cpu") if numpy.lib.NumpyVersion(
            numpy.__version__) >= "2.1.0" else None
        if h is not None:
            numpy.testing.assert_array_equal(h, numpy.arange(6))
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(1, 0), copy=False)
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(2, x.device.id + 1))

    def test_refusals(self):
        torch = _torch()
        with pytest.raises(TypeError, match="bfloat16"):
            interop.from_dlpack(torch.zeros(3, dtype=torch.bfloat16, device="cuda"))
        with pytest.raises(TypeError, match="numpy.from_dlpack"):
            interop.from_dlpack(torch.zeros(3))


@pytest.mark.gpu
class TestDLPackJaxGPU:

    def test_export_to_jax(self):
        import cuarray as cp
        jax = _jax()
        import jax.numpy as jnp
        for dtype in (numpy.float32, numpy.int32, numpy.bool_, numpy.complex64):
            host = (numpy.arange(12) % 2).astype(dtype).reshape(3, 4)
            x = cp.asarray(host)
            j = jnp.from_dlpack(x)
            assert j.dtype == dtype and j.shape == (3, 4)
            numpy.testing.assert_array_equal(numpy.asarray(j), host)
        k = jax.dlpack.from_dlpack(cp.arange(5, dtype=cp.float32))
        numpy.testing.assert_array_equal(numpy.asarray(k), numpy.arange(5, dtype=numpy.float32))

    def test_import_from_jax_and_lifetimes(self):
        import cuarray as cp
        jax = _jax()
        import jax.numpy as jnp
        j = jnp.arange(12, dtype=jnp.float32).reshape(3, 4) * 2
        a = interop.from_dlpack(j)
        assert a.shape == (3, 4) and a.dtype == numpy.float32
        numpy.testing.assert_array_equal(a.get(), numpy.asarray(j))
        del j
        gc.collect()
        jnp.ones((3, 4), jnp.float32).block_until_ready()
        numpy.testing.assert_array_equal(a.get(), numpy.arange(12).reshape(3, 4) * 2)
        x = cp.arange(8, dtype=cp.float64)
        k = jnp.from_dlpack(x)
        del x
        gc.collect()
        cp.zeros(8, dtype=cp.float64)
        numpy.testing.assert_array_equal(numpy.asarray(k), numpy.arange(8.0))
