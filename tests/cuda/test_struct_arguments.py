"""Structured dtypes on the RawKernel argument path, as CuPy's custom-struct kernels use them:
arrays of structs made, copied, viewed and passed as pointers; structs and size-one NumPy
arrays passed by value. Packing and dtype checks run on the CPU; values on the emulated
host device ("emu") and on the GPU ("gpu"), with user-defined structs (g++ builds the
emulated kernels, so CUDA's own vector types are left to test_vector_type_arrays_gpu.py)."""
import ctypes

import numpy
import pytest

import cuarray
from cuarray._core import dtypes, raw
from cuarray._runtime.launch import ArgPacker
from emulation import pytest_generate_tests  # noqa: F401  (the xp hook)

VEC4 = numpy.dtype({"names": ["x", "y", "z", "w"], "formats": [numpy.float32] * 4})
# {char a; double b; int c;} as a C compiler lays it out: offsets 0, 8, 16, size 24
PADDED = numpy.dtype([("a", numpy.int8), ("b", numpy.float64), ("c", numpy.int32)], align=True)
MAT5 = numpy.dtype({"names": ["m"], "formats": [(numpy.float32, (5, 5))]})


def _packed(kinds, vals):
    """The argument bytes ArgPacker lays out, one bytes object per argument."""
    p = ArgPacker(kinds)
    p.pack(vals)
    ends = [p._ptrs[i + 1] for i in range(len(kinds) - 1)] + [p._ptrs[0] + p.size]
    return [ctypes.string_at(p._ptrs[i], ends[i] - p._ptrs[i]) for i in range(len(kinds))]


# ---- CPU: dtype checks and argument packing ----------------------------------------------
def test_storage_dtypes_accept_numeric_structs_only():
    assert dtypes.check_storage_dtype(VEC4) == VEC4
    assert dtypes.check_storage_dtype(PADDED).itemsize == 24
    assert dtypes.check_storage_dtype(MAT5).itemsize == 100
    nested = numpy.dtype([("p", VEC4), ("n", numpy.int64)], align=True)
    assert dtypes.check_storage_dtype(nested) == nested
    swapped = numpy.dtype([("a", ">f4"), ("b", ">i8")])
    native = dtypes.check_storage_dtype(swapped)
    assert native.isnative and native.names == ("a", "b") and native.itemsize == 12
    assert dtypes.check_storage_dtype(numpy.float32) == numpy.float32
    for bad in (numpy.dtype([("s", "U3")]), numpy.dtype([("o", object)]), numpy.dtype("V8"),
                numpy.dtype([("t", "M8[s]")]), numpy.dtype([("q", [("u", "S2")])]), "U4"):
        with pytest.raises(TypeError):
            dtypes.check_storage_dtype(bad)


def test_size_one_numpy_arrays_are_passed_by_value():
    """CuPy passes a numpy.ndarray of size one by value: its scalar, with the same C type."""
    float3 = numpy.dtype({"names": ["x", "y", "z"], "formats": [numpy.float32] * 3})
    v = numpy.array([1.5, -2.0, 4.25], dtype=numpy.float32).view(float3)   # shape (1,)
    m = numpy.arange(25, dtype=numpy.float32).view(MAT5)
    kinds, vals = raw._marshal((v, numpy.array([[7]], dtype=numpy.int16), m, numpy.array(2.5)))
    assert kinds == (("s", 12, 4), "h", ("s", 100, 4), "d")
    got = _packed(kinds, vals)
    assert numpy.frombuffer(got[0][:12], numpy.float32).tolist() == [1.5, -2.0, 4.25]
    assert numpy.frombuffer(got[1][:2], numpy.int16).tolist() == [7]
    numpy.testing.assert_array_equal(numpy.frombuffer(got[2][:100], numpy.float32),
                                     numpy.arange(25, dtype=numpy.float32))
    assert numpy.frombuffer(got[3], numpy.float64).tolist() == [2.5]


def test_struct_bytes_keep_their_padding_and_byte_order():
    s = numpy.array((-3, 0.75, 11), dtype=PADDED)
    big = numpy.dtype([("a", ">i4"), ("b", ">f8")])
    b = numpy.array((258, -1.5), dtype=big)[()]
    raw_bytes = numpy.zeros(1, dtype="V6")
    raw_bytes.view(numpy.uint8)[:] = [1, 2, 3, 4, 5, 6]
    kinds, vals = raw._marshal((s, b, raw_bytes))
    assert kinds == (("s", 24, 8), ("s", 12, 8), ("s", 6, 1))
    got = _packed(kinds, vals)
    back = numpy.frombuffer(got[0][:24], PADDED)[0]
    assert (back["a"], back["b"], back["c"]) == (-3, 0.75, 11)
    native = numpy.frombuffer(got[1][:12], big.newbyteorder("="))[0]   # native bytes now
    assert (native["a"], native["b"]) == (258, -1.5)
    assert list(got[2][:6]) == [1, 2, 3, 4, 5, 6]


def test_numpy_arrays_of_other_sizes_are_refused():
    with pytest.raises(TypeError, match="size one"):
        raw._marshal((numpy.zeros(3, numpy.float32),))
    with pytest.raises(TypeError, match="size one"):
        raw._marshal((numpy.zeros((0,), VEC4),))


def test_struct_arrays_refuse_numeric_work(emulated):
    a = emulated.zeros(4, dtype=VEC4)
    with pytest.raises(TypeError):
        a + 1
    with pytest.raises(TypeError):
        a.astype(numpy.float32)
    with pytest.raises(TypeError):
        emulated.empty(3, dtype=numpy.dtype([("s", "U3")]))


# ---- values: emulated host device and GPU ------------------------------------------------
def _vec4_host(rng, n):
    return rng.standard_normal((n, 4)).astype(numpy.float32).view(VEC4)[:, 0]


def test_struct_arrays_round_trip(xp):
    rng = numpy.random.default_rng(131)
    h = _vec4_host(rng, 37)
    a = xp.asarray(h)
    assert a.dtype == VEC4 and a.shape == (37,) and a.strides == (16,) and a.nbytes == 37 * 16
    got = a.get()
    assert got.dtype == VEC4
    numpy.testing.assert_array_equal(got.view(numpy.float32), h.view(numpy.float32))
    # strided views copy back element by element (a byte-wise copy kernel)
    numpy.testing.assert_array_equal(a[::3].get().view(numpy.float32),
                                     h[::3].copy().view(numpy.float32))
    numpy.testing.assert_array_equal(a[::-2].copy().get().view(numpy.float32),
                                     h[::-2].copy().view(numpy.float32))
    hp = numpy.zeros((3, 5), dtype=PADDED)
    hp["a"] = rng.integers(-100, 100, (3, 5))
    hp["b"] = rng.standard_normal((3, 5))
    hp["c"] = rng.integers(-1000, 1000, (3, 5))
    p = xp.array(hp, order="F")
    assert p.flags.f_contiguous and p.strides == (24, 72)
    back = p.get()
    for f in "abc":
        numpy.testing.assert_array_equal(back[f], hp[f])
    numpy.testing.assert_array_equal(p.T.copy().get()["b"], hp.T["b"])
    z = xp.zeros((2, 3), dtype=PADDED)
    assert z.get().tobytes() == bytes(2 * 3 * 24)
    e = xp.empty_like(p)
    assert e.dtype == PADDED and e.shape == (3, 5)
    e[...] = p
    numpy.testing.assert_array_equal(e.get()["c"], hp["c"])
    s = xp.ndarray((4,), dtype=VEC4)
    s.set(h[:4])
    numpy.testing.assert_array_equal(s.get().view(numpy.float32), h[:4].view(numpy.float32))
    assert xp.empty(0, dtype=VEC4).get().shape == (0,)


def test_views_between_floats_and_vectors(xp):
    rng = numpy.random.default_rng(132)
    h = rng.standard_normal((6, 4)).astype(numpy.float32)
    a = xp.asarray(h)
    v = a.view(VEC4)
    assert v.shape == (6, 1) and v.dtype == VEC4
    numpy.testing.assert_array_equal(v.get().view(numpy.float32), h)
    numpy.testing.assert_array_equal(v.view(numpy.float32).get(), h)


SCALE = r'''
struct vec4 { float x, y, z, w; };
struct params { signed char a; double b; int c; };
extern "C" __global__ void scale(const vec4* in, vec4* out, const params p, vec4 shift, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vec4 v = in[i];
    out[i].x = v.x * (float)p.b + shift.x + p.a;
    out[i].y = v.y * (float)p.b + shift.y + p.c;
    out[i].z = v.z * (float)p.b + shift.z;
    out[i].w = v.w * (float)p.b + shift.w;
  }
}'''


def test_kernel_on_struct_arrays_with_structs_by_value(xp):
    rng = numpy.random.default_rng(133)
    n = 300
    h = _vec4_host(rng, n)
    p = numpy.array((3, 1.5, -7), dtype=PADDED)[()]                  # numpy.void
    shift = numpy.array([0.5, -1.0, 2.0, 0.25], numpy.float32).view(VEC4)   # size-one array
    a = xp.asarray(h)
    out = xp.empty_like(a)
    k = xp.RawKernel(SCALE, "scale")
    k((2,), (64,), (a, out, p, shift, numpy.int32(n)))
    f = h.view(numpy.float32).reshape(n, 4)
    want = f * numpy.float32(1.5) + shift.view(numpy.float32)
    want[:, 0] += 3
    want[:, 1] += -7
    numpy.testing.assert_allclose(out.get().view(numpy.float32).reshape(n, 4), want, rtol=1e-6,
                                  atol=1e-6)  # the kernel may fuse a*x + y (one rounding)
    # the same kernel on a strided view's copy and an F-ordered 2-D array of structs
    b = xp.asarray(h.reshape(15, 20), order="F")
    o2 = xp.zeros((15, 20), dtype=VEC4, order="F")
    k((1,), (128,), (b, o2, p, shift, numpy.int32(n)))
    # kernels see memory order: element by element, the same map
    numpy.testing.assert_allclose(o2.get().view(numpy.float32).reshape(15, 20, 4),
                                  want.reshape(15, 20, 4), rtol=1e-6,
                                  atol=1e-6)
