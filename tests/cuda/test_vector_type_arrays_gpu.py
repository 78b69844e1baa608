"""Arrays of CUDA's vector types (float4, int2, double3) and of C structs passed to RawKernels
as pointers, vector-type structs and size-one NumPy arrays passed by value: CuPy's
custom-struct kernels (its "Custom user types" section and custom_struct examples),
checked against NumPy and, where installed, CuPy."""
import numpy
import pytest

import cuarray

pytestmark = pytest.mark.gpu


def _vec(base, n, itemsize=None):
    spec = {"names": list("xyzw")[:n], "formats": [base] * n}
    if itemsize is not None:
        spec["itemsize"] = itemsize
    return numpy.dtype(spec)


FLOAT4 = _vec(numpy.float32, 4)
INT2 = _vec(numpy.int32, 2)
DOUBLE3 = _vec(numpy.float64, 3)

VECTORS = r'''
extern "C" __global__ void axpy4(const float4* x, float4* y, float4 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = x[i], w = y[i];
    y[i] = make_float4(a.x * v.x + w.x, a.y * v.y + w.y, a.z * v.z + w.z, a.w * v.w + w.w);
  }
}
extern "C" __global__ void swap2(const int2* x, int2* y, int2 d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = make_int2(x[i].y + d.x, x[i].x * d.y);
}
extern "C" __global__ void add3(const double3* lhs, double3 rhs, double3* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_double3(lhs[i].x + rhs.x, lhs[i].y + rhs.y, lhs[i].z + rhs.z);
}
'''


def _fn(name):
    return cuarray.RawModule(code=VECTORS).get_function(name)


@pytest.mark.parametrize("n", [1, 257, 4096])
def test_float4_arrays(n):
    rng = numpy.random.default_rng(141)
    hx = rng.standard_normal((n, 4)).astype(numpy.float32)
    hy = rng.standard_normal((n, 4)).astype(numpy.float32)
    a = numpy.array([2.0, -1.0, 0.5, 3.0], numpy.float32)
    x = cuarray.asarray(hx.view(FLOAT4)[:, 0])
    y = cuarray.asarray(hy).view(FLOAT4)             # (n, 1): a view of a float32 array
    assert x.dtype == FLOAT4 and x.shape == (n,) and y.shape == (n, 1)
    _fn("axpy4")(((n + 127) // 128,), (128,), (x, y, a.view(FLOAT4)[0], numpy.int32(n)))
    want = a * hx + hy
    numpy.testing.assert_allclose(y.get().view(numpy.float32).reshape(n, 4), want, rtol=1e-6,
                                  atol=1e-6)  # the kernel may fuse a*x + y (one rounding)
    assert x.get().dtype == FLOAT4


def test_int2_arrays_and_size_one_numpy_argument():
    rng = numpy.random.default_rng(142)
    n = 1000
    hx = rng.integers(-1000, 1000, (n, 2), dtype=numpy.int32)
    x = cuarray.asarray(hx.view(INT2)[:, 0])
    y = cuarray.zeros(n, dtype=INT2)
    d = numpy.array([5, -3], numpy.int32).view(INT2)       # a size-one array: by value
    assert isinstance(d, numpy.ndarray) and d.shape == (1,)
    _fn("swap2")((8,), (128,), (x, y, d, numpy.int32(n)))
    got = y.get()
    numpy.testing.assert_array_equal(got["x"], hx[:, 1] + 5)
    numpy.testing.assert_array_equal(got["y"], hx[:, 0] * -3)


def test_double3_as_cupys_builtin_vectors_example():
    """An (N, 3) float64 array read as double3*, the right operand a NumPy double3."""
    rng = numpy.random.default_rng(143)
    n = 8
    lhs = cuarray.asarray(rng.random((n, 3)))
    rhs = rng.random(3)
    out = cuarray.empty_like(lhs)
    _fn("add3")((1,), (n,), (lhs, rhs.view(DOUBLE3), out, numpy.int32(n)))
    numpy.testing.assert_array_equal(out.get(), lhs.get() + rhs[None, :])
    # the same with arrays of double3 itself: itemsize 24, as CUDA's sizeof(double3)
    l3 = lhs.view(DOUBLE3)[:, 0]
    o3 = cuarray.empty(n, dtype=DOUBLE3)
    assert l3.strides == (24,) and o3.nbytes == 24 * n
    _fn("add3")((1,), (n,), (l3, rhs.view(DOUBLE3)[0], o3, numpy.int32(n)))
    numpy.testing.assert_array_equal(o3.get().view(numpy.float64).reshape(n, 3),
                                     lhs.get() + rhs[None, :])


LAYOUT = r'''
struct __align__(16) item { int4 a; signed char b; double c[2]; short1 d; unsigned long long e[3]; };
extern "C" __global__ void layout(unsigned long long* o) {
  const item* p = nullptr;
  o[0] = sizeof(item); o[1] = (unsigned long long)&p->a; o[2] = (unsigned long long)&p->b;
  o[3] = (unsigned long long)&p->c; o[4] = (unsigned long long)&p->d;
  o[5] = (unsigned long long)&p->e;
}
extern "C" __global__ void total(const item* items, const item s, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const item& t = items[i];
    out[i] = t.a.x + t.a.y + t.a.z + t.a.w + t.b + t.c[0] + t.c[1] + t.d.x
             + (double)(t.e[0] + t.e[1] + t.e[2]) + s.a.w * s.c[1] + s.b;
  }
}'''


def _item_dtype():
    """The NumPy dtype of `item`, its offsets read from the compiled struct (CuPy's
    complex_struct example: the layout is the user's to match)."""
    lay = cuarray.zeros(6, dtype=numpy.uint64)
    cuarray.RawKernel(LAYOUT, "layout")((1,), (1,), (lay,))
    size, *offs = lay.get().tolist()
    formats = [_vec(numpy.int32, 4), numpy.int8, (numpy.float64, (2,)), _vec(numpy.int16, 1),
               (numpy.uint64, (3,))]
    return numpy.dtype({"names": list("abcde"), "formats": formats, "offsets": offs,
                        "itemsize": size})


def test_custom_struct_arrays_and_struct_by_value():
    dt = _item_dtype()
    assert dt.itemsize == 80
    rng = numpy.random.default_rng(144)
    n = 200
    h = numpy.zeros(n, dtype=dt)
    h["a"] = rng.integers(-50, 50, (n, 4)).astype(numpy.int32).view(dt["a"])[:, 0]
    h["b"] = rng.integers(-100, 100, n)
    h["c"] = rng.standard_normal((n, 2))
    h["d"] = rng.integers(-9, 9, (n, 1)).astype(numpy.int16).view(dt["d"])[:, 0]
    h["e"] = rng.integers(0, 1000, (n, 3))
    s = numpy.zeros(1, dtype=dt)
    s["a"] = numpy.array([1, 2, 3, 4], numpy.int32).view(dt["a"])
    s["b"], s["c"] = 7, [[0.5, 1.5]]
    items = cuarray.asarray(h)
    out = cuarray.empty(n)
    cuarray.RawKernel(LAYOUT, "total")((2,), (128,), (items, s[0], out, numpy.int32(n)))
    av = numpy.stack([h["a"][f] for f in "xyzw"], axis=1)
    want = (av.sum(1) + h["b"] + h["c"].sum(1) + h["d"]["x"]
            + h["e"].sum(1).astype(numpy.float64) + 4 * 1.5 + 7)
    numpy.testing.assert_allclose(out.get(), want, rtol=1e-12)
    back = items[::2].get()       # a strided view of structs copied back
    numpy.testing.assert_array_equal(back["c"], h["c"][::2])
    numpy.testing.assert_array_equal(back["e"], h["e"][::2])


def test_packed_matrix_by_value():
    """A 5x5 float matrix passed by value (a struct of one sub-array field), 100 bytes."""
    src = r'''struct mat5 { float v[5][5]; };
    extern "C" __global__ void matvec(const mat5 m, const float* x, float* y) {
      int i = threadIdx.x;
      if (i < 5) { float s = 0; for (int j = 0; j < 5; ++j) s += m.v[i][j] * x[j]; y[i] = s; }
    }'''
    mat5 = numpy.dtype({"names": ["dummy"], "formats": [(numpy.float32, (5, 5))]})
    rng = numpy.random.default_rng(145)
    hm = rng.standard_normal(25).astype(numpy.float32)
    hx = rng.standard_normal(5).astype(numpy.float32)
    y = cuarray.zeros(5, dtype=numpy.float32)
    arg = hm.view(mat5)
    assert arg.itemsize == 100
    cuarray.RawKernel(src, "matvec")((1,), (32,), (arg, cuarray.asarray(hx), y))
    numpy.testing.assert_allclose(y.get(), hm.reshape(5, 5) @ hx, rtol=1e-5)


def test_bad_struct_arguments():
    k = _fn("axpy4")
    x = cuarray.zeros(4, dtype=FLOAT4)
    with pytest.raises(TypeError, match="size one"):
        k((1,), (32,), (x, x, numpy.zeros((2, 4), numpy.float32).view(FLOAT4), numpy.int32(4)))
    with pytest.raises(TypeError):
        cuarray.zeros(4, dtype=numpy.dtype([("s", "U2")]))
    with pytest.raises(TypeError):
        x + x


def test_same_results_as_cupy():
    cupy = pytest.importorskip("cupy")
    rng = numpy.random.default_rng(146)
    n = 300
    hx = rng.standard_normal((n, 4)).astype(numpy.float32)
    hy = rng.standard_normal((n, 4)).astype(numpy.float32)
    a = numpy.array([1.5, 2.0, -0.5, 0.25], numpy.float32).view(FLOAT4)
    got = cuarray.asarray(hy)
    _fn("axpy4")((3,), (128,), (cuarray.asarray(hx), got, a, numpy.int32(n)))
    ref = cupy.asarray(hy)
    cupy.RawModule(code=VECTORS).get_function("axpy4")(
        (3,), (128,), (cupy.asarray(hx), ref, a, numpy.int32(n)))
    numpy.testing.assert_array_equal(got.get(), cupy.asnumpy(ref))
