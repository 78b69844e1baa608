"""cuarray.jit: the Python -> CUDA C translator (CPU: generated code compiles with NVRTC,
clear errors) and the kernels it makes (GPU: results against NumPy)."""
import math

import numpy
import pytest

import cuarray
from cuarray import jit
from cuarray._runtime.compiler import compile_cubin
from cuarray.jit._compile import translate_kernel
from cuarray.jit._types import Array

f16, f32, f64 = (numpy.dtype(c) for c in "efd")
i8, i32, i64, u32 = (numpy.dtype(c) for c in "bilI")
c64, c128 = numpy.dtype("F"), numpy.dtype("D")


def A(dtype, ndim=1, contig=True):
    return Array(dtype, ndim, contig)


def build(kernel, *types):
    """Translate a kernel for argument types and compile it for sm_90 (no GPU needed)."""
    func = kernel._func if isinstance(kernel, jit._JitRawKernel) else kernel
    src, name = translate_kernel(func, types)
    cubin, _ = compile_cubin(src, arch="sm_90", name=name)
    assert cubin
    return src


# ---- the tutorials' kernels ------------------------------------------------------------------
@jit.rawkernel()
def elementwise_copy(x, y, size):
    tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
    ntid = jit.gridDim.x * jit.blockDim.x
    for i in range(tid, size, ntid):
        y[i] = x[i]


@jit.rawkernel()
def saxpy_jit(a, x, y, out):
    i = jit.blockDim.x * jit.blockIdx.x + jit.threadIdx.x
    if i < x.size:
        out[i] = a * x[i] + y[i]


def test_tutorial_kernels_compile():
    src = build(elementwise_copy, A(f32), A(f32), u32)
    assert 'extern "C" __global__ void elementwise_copy(' in src
    assert "const unsigned int size" in src
    src = build(saxpy_jit, f64, A(f32), A(f32), A(f32))
    assert "const double a" in src


# ---- constructs ---------------------------------------------------------------------------------
def k_arith(x, y, n):
    i = jit.grid(1)
    if i < n:
        a = x[i]
        b = a + 1
        b -= 2.5
        b *= 3
        b /= 2
        c = i // 3 + i % 7
        e = a ** 2 - (-a) + (+a)
        s = (i << 2) | (i >> 1) & 5 ^ 3 ^ ~i
        ok = 0 < a <= 10 and not (a == 3) or a != 4
        y[i] = (a if ok else b) + c + e + s


def k_loops(x, y):
    s = 0
    for j in range(x.shape[0]):
        s += x[j]
    for j in range(10, 0, -2):
        if j == 4:
            continue
        elif j == 2:
            s += 100
        else:
            s -= j
    for j in range(3, 10):
        if j > 8:
            break
    k = 0
    while k < 5:
        k += 1
    for j in jit.range(4, unroll=True):
        s += j
    y[0] = s + k


def k_2d(x, y, z):
    i, j = jit.grid(2)
    n, m = x.shape
    if i < n and j < m:
        y[i, j] = x[i, j] * 2 + x.shape[1] + len(x) + x.size
    if i == 0 and j == 0:
        z[-1, -1] = -1


def k_math(x, y):
    i = jit.grid(1)
    if i < x.size:
        v = x[i]
        y[i] = (math.sqrt(v) + math.exp(-v) + cuarray.sin(v) + numpy.cos(v) + abs(v) +
                min(v, 1.0) + max(v, 2, 3) + math.atan2(v, 2.0) + float(i) + int(v) + math.pi)


def k_shared(x, y):
    sm = jit.shared_memory(numpy.float32, 256)
    dyn = jit.shared_memory(numpy.float64, None)
    tid = jit.threadIdx.x
    sm[tid] = x[tid]
    dyn[tid] = x[tid]
    jit.syncthreads()
    v = sm[255 - tid] + dyn[tid]
    jit.syncwarp()
    v = jit.shfl_down_sync(0xffffffff, v, 1)
    y[tid] = v + jit.laneid() + jit.warpsize + jit.gridsize(1)


def k_atomics(a32, a64, u, f, d):
    jit.atomic_add(a32, 0, 1)
    jit.atomic_add(a64, 0, 1)
    jit.atomic_add(u, 0, 1)
    jit.atomic_add(f, 0, 1.5)
    jit.atomic_add(d, 0, 1.5)
    jit.atomic_sub(a32, 1, 1)
    jit.atomic_exch(a64, 1, 5)
    jit.atomic_min(a64, 2, -3)
    jit.atomic_max(a32, 2, 7)
    jit.atomic_inc(u, 1, 10)
    jit.atomic_dec(u, 2, 10)
    jit.atomic_cas(a32, 3, 0, 3)
    jit.atomic_and(a64, 3, 7)
    jit.atomic_or(u, 3, 1)
    jit.atomic_xor(a32, 4, 2)


def helper(a, b):
    if a > b:
        return a - b
    return b - a


@jit.rawkernel(device=True)
def twice(x, i):
    return x[i] * 2


def k_device(x, y):
    i = jit.grid(1)
    if i < x.size:
        y[i] = helper(x[i], 3.0) + twice(x, i)


def k_print(x):
    i = jit.grid(1)
    print("i =", i, x[i], True, sep=" ", end="\n")


def k_complex(z, w):
    i = jit.grid(1)
    w[i] = z[i] * z[i] + 1j + z[i].real + abs(z[i]) + z[i].conj()


def k_half(h):
    i = jit.grid(1)
    h[i] = h[i] * 2 + 1


def k_unpack(x):
    a = x[0]
    b = x[1]
    a, b = b, a
    x[0] = a
    x[1] = b
    c = d = a + b
    x[2] = c + d
    t: numpy.float32 = 3
    x[3] = t


def k_grid3(x):
    i, j, k = jit.grid(3)
    ni, nj, nk = jit.gridsize(3)
    x[i, j, k] = ni + nj + nk


CONSTRUCTS = [
    (k_arith, (A(f32), A(f64), i64)),
    (k_loops, (A(f32), A(f32))),
    (k_2d, (A(f64, 2, False), A(f64, 2), A(i32, 2))),
    (k_math, (A(f32), A(f32))),
    (k_shared, (A(f32), A(f64))),
    (k_atomics, (A(i32), A(i64), A(u32), A(f32), A(f64))),
    (k_device, (A(f64), A(f64))),
    (k_print, (A(f32),)),
    (k_complex, (A(c64), A(c128))),
    (k_half, (A(f16),)),
    (k_unpack, (A(f32),)),
    (k_grid3, (A(i32, 3, False),)),
]


@pytest.mark.parametrize("kernel,types", CONSTRUCTS, ids=[k.__name__ for k, _ in CONSTRUCTS])
def test_construct_compiles(kernel, types):
    build(kernel, *types)


def test_local_types_follow_numpy_promotion():
    src = build(k_loops, A(f32), A(f32))
    assert "double s;" in src          # s = 0, then s += float32: int64 and float32 give float64
    assert "long long k;" in src
    src = build(k_arith, A(f32), A(f64), i64)
    assert "float a;" in src and "float b;" in src and "bool ok;" in src   # b -= 2.5 stays float32


def test_python_literals_are_weak():
    def k(x):
        x[0] = x[0] * 2 + 1.5
    src = build(k, A(f32))
    assert "double" not in src.split("void k(")[1]   # float32 * 2 + 1.5 stays float32
    assert "1.5f" in src


def test_strided_and_contiguous_indexing():
    src = build(k_2d, A(f64, 2, False), A(f64, 2), A(i32, 2))
    assert "x.strides[1]" in src
    src = build(elementwise_copy, A(f32), A(f32), u32)
    assert "y.data[i] = x.data[i];" in src


def test_constant_binding_and_dead_branches():
    N = 128

    def k(x):
        n = 64
        sm = jit.shared_memory(numpy.int32, n + N)
        if x.ndim == 2:
            x[0, 0] = sm[0]
        else:
            x[0] = sm[0]
    src = build(k, A(i32))
    assert "__shared__ int _smem1[192];" in src


def test_specialization_per_dtype_and_ndim():
    def k(x, y):
        y[0] = x[0] + 1
    s1 = build(k, A(f32), A(f32))
    s2 = build(k, A(i8), A(i64))
    assert "float*" in s1 and "signed char*" in s2


def test_mode_cuda_keeps_python_scalars_32bit():
    from cuarray.jit._types import arg_type
    assert arg_type(3, "cuda") == i32 and arg_type(2**40, "cuda") == i64
    assert arg_type(1.5, "cuda") == f32 and arg_type(1.5, "python") == f64
    assert arg_type(3, "python") == i64 and arg_type(True, "python") == numpy.dtype(bool)
    assert arg_type(numpy.uint32(3), "python") == u32


def test_elementwise_and_reduction_kernels_translate():
    @jit.elementwisekernel("T x, T y", "T z")
    def squared_diff(x, y):
        return (x - y) * (x - y)

    @jit.elementwisekernel("float32 x", "float32 y, int32 n")
    def two_outputs(x, y, n):
        y = x * 2  # noqa: F841  (outputs are written by assignment)
        n = int(x)  # noqa: F841

    @jit.reductionkernel("T x", "T y", 0, post_map=lambda a: math.sqrt(a))
    def l2norm(x):
        return x * x

    ek = squared_diff._make((f32, f32, f32))
    assert ek.operation == "_jitew_squared_diff(x, y, z);"
    compile_cubin(ek.preamble + 'extern "C" __global__ void t(float* p) '
                  '{ float c; _jitew_squared_diff(p[0], p[1], c); p[2] = c; }', arch="sm_90")
    ek = two_outputs._make((f32, f32, i32))
    assert ek.operation == "_jitew_two_outputs(x, y, n);"
    compile_cubin(ek.preamble + 'extern "C" __global__ void t(float* p, int* q) '
                  '{ _jitew_two_outputs(p[0], p[1], q[0]); }', arch="sm_90")
    rk = l2norm._make((f32, f32))
    assert rk.map_expr == "cuarray_cast<type_reduce>(_jitmap(x))"
    assert rk.post_map_expr == "y = cuarray_cast<float>(_jitpost(a))"
    compile_cubin(rk.preamble + 'extern "C" __global__ void t(float* p) '
                  '{ p[0] = _jitpost(_cu_add_ff_f(p[1], _jitmap(p[2]))); }', arch="sm_90")


# ---- errors -------------------------------------------------------------------------------------
def e_listcomp(x):
    y = [v for v in range(3)]  # noqa: F841


def e_with(x):
    with open("f"):
        pass


def e_try(x):
    try:
        x[0] = 1
    except Exception:
        pass


def e_nested(x):
    def g():
        pass


def e_is(x):
    if x[0] is None:
        pass


def e_slice(x):
    x[1:3] = 0


def e_floatidx(x):
    x[1.5] = 0


def e_ndim(x):
    x[0, 1] = 0


def e_return(x):
    return x[0]


def e_name(x):
    x[0] = undefined_thing  # noqa: F821


def e_call(x):
    x[0] = numpy.linalg.norm(x)


def e_rangefloat(x):
    for i in range(1.5):
        pass


def e_forlist(x):
    for i in [1, 2]:
        pass


def e_never_assigned(x):
    x[0] = q  # noqa: F821
    if False:
        q = 1  # noqa: F841


def e_matmul(x):
    x[0] = x[0] @ x[1]


def e_star(x, *args):
    pass


def e_reassign_array(x):
    x = 3  # noqa: F841


def e_atomic_type(x):
    jit.atomic_max(x, 0, 1.0)


ERRORS = [
    (e_listcomp, SyntaxError, "list comprehension"), (e_with, SyntaxError, "with statement"),
    (e_try, SyntaxError, "try/except"), (e_nested, SyntaxError, "nested function"),
    (e_is, SyntaxError, "'is'"), (e_slice, SyntaxError, "slicing"),
    (e_floatidx, IndexError, "indices must be integers"),
    (e_ndim, IndexError, "indexed with 1 integer here, not 2"),
    (e_return, TypeError, "cannot return a value"), (e_name, NameError, "undefined_thing"),
    (e_call, TypeError, "calling numpy.linalg.norm"), (e_rangefloat, TypeError, "range() takes integers"),
    (e_forlist, SyntaxError, "range(...)"), (e_never_assigned, NameError, "never assigned"),
    (e_matmul, SyntaxError, "@"), (e_star, SyntaxError, "*args"),
    (e_reassign_array, TypeError, "cannot be reassigned"),
    (e_atomic_type, TypeError, "atomic_max does not support float32"),
]


@pytest.mark.parametrize("func,exc,text", ERRORS, ids=[f.__name__ for f, _, _ in ERRORS])
def test_unsupported_syntax_is_a_clear_error(func, exc, text):
    with pytest.raises(exc) as info:
        translate_kernel(func, (A(f32),))
    msg = str(info.value)
    assert text in msg and "cuarray.jit" in msg
    lineno = func.__code__.co_firstlineno
    if exc is SyntaxError:
        assert info.value.lineno >= lineno and info.value.filename.endswith("test_jit.py")
    else:
        assert "test_jit.py" in msg and f"in {func.__name__}" in msg


def test_interface_errors():
    with pytest.raises(ValueError, match="mode"):
        jit.rawkernel(mode="fast")(k_half)
    k = jit.rawkernel()(k_half)
    with pytest.raises(ValueError, match="call it first"):
        k.cached_code
    with pytest.raises(TypeError, match=r"kernel\[grid, block\]"):
        k[1]
    with pytest.raises(TypeError, match="raw"):
        jit.elementwisekernel("raw T x", "T y")(lambda x: x)
    with pytest.raises(TypeError, match="not in the kernel's parameter"):
        jit.elementwisekernel("T x", "T y")(k_half)
    with pytest.raises(ValueError, match="reduce"):
        jit.reductionkernel("T x", "T y", 0, reduce="avg")(lambda x: x)


def test_host_arguments_are_refused_before_any_launch():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        elementwise_copy((1,), (1,), (numpy.zeros(3), numpy.zeros(3), 3))
    with pytest.raises(TypeError, match="tuple"):
        elementwise_copy((1,), (1,), 3)
    with pytest.raises(TypeError, match="device function"):
        twice((1,), (1,), ())
    with pytest.raises(TypeError, match="kernel"):
        jit.syncthreads()


# ---- GPU: results ---------------------------------------------------------------------------
gpu = pytest.mark.gpu


@gpu
def test_elementwise_copy_tutorial():
    size = cuarray.uint32(2 ** 22)
    x = cuarray.random.normal(size=(size,), dtype=cuarray.float32)
    y = cuarray.empty((size,), dtype=cuarray.float32)
    elementwise_copy((128,), (1024,), (x, y, size))
    assert bool((x == y).all())
    y[:] = 0
    elementwise_copy[128, 1024](x, y, size)
    assert bool((x == y).all())
    assert "elementwise_copy" in elementwise_copy.cached_code


@gpu
def test_saxpy_tutorial():
    n = 1_000_000
    x = cuarray.random.random(n, dtype=cuarray.float32)
    y = cuarray.random.random(n, dtype=cuarray.float32)
    out = cuarray.empty_like(x)
    threads = 256
    blocks = (n + threads - 1) // threads
    saxpy_jit[(blocks,), (threads,)](2.0, x, y, out)
    numpy.testing.assert_allclose(out.get(), (2.0 * x.get().astype(f64) + y.get()).astype(f32),
                                  rtol=1e-6)


@gpu
def test_arith_against_numpy():
    k = jit.rawkernel()(k_arith)
    xn = numpy.linspace(-3, 12, 1000, dtype=f32)
    x, y = cuarray.asarray(xn), cuarray.zeros(1000, f64)
    k((4,), (256,), (x, y, 1000))
    i = numpy.arange(1000, dtype=u32)
    a = xn
    b = (a + 1 - 2.5) * 3 / 2              # float32 throughout (Python literals are weak)
    assert b.dtype == f32
    c = i // 3 + i % 7
    e = a ** 2 - (-a) + a
    s = (i << 2) | (i >> 1) & 5 ^ 3 ^ ~i
    ok = ((0 < a) & (a <= 10) & ~(a == 3)) | (a != 4)
    want = numpy.where(ok, a, b) + c + e + s
    numpy.testing.assert_allclose(y.get(), want, rtol=1e-6)


@gpu
def test_loops_and_2d_strided():
    k = jit.rawkernel()(k_loops)
    x = cuarray.arange(10, dtype=f32)
    y = cuarray.zeros(1, f32)
    k((1,), (1,), (x, y))
    s = 45 - (10 + 8 + 6) + 100 + 6
    assert y.get()[0] == s + 5
    k2 = jit.rawkernel()(k_2d)
    base = cuarray.arange(6 * 8, dtype=f64).reshape(6, 8)
    xv = base[:, ::2]                       # not contiguous
    out = cuarray.zeros((6, 4), f64)
    z = cuarray.zeros((3, 3), i32)
    k2((1, 1), (8, 8), (xv, out, z))
    numpy.testing.assert_array_equal(out.get(), base.get()[:, ::2] * 2 + 4 + 6 + 24)
    assert z.get()[2, 2] == -1 and int(abs(z).sum()) == 1
    out2 = cuarray.zeros((4, 6), f64)
    k2[(1, 1), (8, 8)](xv.T, out2, z)         # a transposed view: another specialization
    numpy.testing.assert_array_equal(out2.get(), base.get()[:, ::2].T * 2 + 6 + 4 + 24)


@gpu
def test_math_and_device_functions():
    k = jit.rawkernel()(k_math)
    xn = numpy.linspace(0.1, 5, 300).astype(f32)
    x, y = cuarray.asarray(xn), cuarray.zeros(300, f32)
    k[2, 256](x, y)
    i = numpy.arange(300)
    want = (numpy.sqrt(xn) + numpy.exp(-xn) + numpy.sin(xn) + numpy.cos(xn) + abs(xn) +
            numpy.minimum(xn, 1) + numpy.maximum(xn, 3) + numpy.arctan2(xn, numpy.float32(2)) +
            i + xn.astype(numpy.int64) + math.pi)
    numpy.testing.assert_allclose(y.get(), want.astype(f32), rtol=1e-5)
    kd = jit.rawkernel()(k_device)
    xd = cuarray.asarray(numpy.arange(10.0))
    yd = cuarray.zeros(10)
    kd[1, 32](xd, yd)
    numpy.testing.assert_array_equal(yd.get(), abs(numpy.arange(10.0) - 3) + 2 * numpy.arange(10.0))


@gpu
def test_shared_memory_block_sum():
    @jit.rawkernel()
    def block_sum(x, out):
        sm = jit.shared_memory(numpy.float32, 256)
        tid = jit.threadIdx.x
        i = jit.blockIdx.x * jit.blockDim.x + tid
        sm[tid] = x[i] if i < x.size else 0
        jit.syncthreads()
        s = 128
        while s > 0:
            if tid < s:
                sm[tid] += sm[tid + s]
            jit.syncthreads()
            s //= 2
        if tid == 0:
            jit.atomic_add(out, 0, sm[0])

    xn = numpy.random.default_rng(0).random(5000).astype(f32)
    out = cuarray.zeros(1, f32)
    block_sum(((5000 + 255) // 256,), (256,), (cuarray.asarray(xn), out))
    numpy.testing.assert_allclose(out.get()[0], xn.sum(dtype=f64), rtol=1e-5)


@gpu
def test_dynamic_shared_memory_and_warp_functions():
    @jit.rawkernel()
    def rev(x, y):
        dyn = jit.shared_memory(numpy.float64, None)
        t = jit.threadIdx.x
        dyn[t] = x[t]
        jit.syncthreads()
        y[t] = dyn[jit.blockDim.x - 1 - t] + jit.shfl_xor_sync(0xffffffff, jit.laneid(), 1)

    x = cuarray.arange(64, dtype=f64)
    y = cuarray.zeros(64, f64)
    rev((1,), (64,), (x, y), shared_mem=64 * 8)
    lane = numpy.arange(64) % 32
    numpy.testing.assert_array_equal(y.get(), numpy.arange(64)[::-1] + (lane ^ 1))


@gpu
def test_atomics():
    k = jit.rawkernel()(k_atomics)
    a32 = cuarray.zeros(5, i32)
    a64 = cuarray.zeros(4, i64)
    u = cuarray.zeros(4, u32)
    f = cuarray.zeros(1, f32)
    d = cuarray.zeros(1, f64)
    k((2,), (64,), (a32, a64, u, f, d))
    n = 128  # threads; inc wraps at 11 values, dec counts down from 10 after 0
    assert a32.get().tolist() == [n, -n, 7, 3, 0]
    assert a64.get().tolist() == [n, 5, -3, 0]
    assert u.get().tolist() == [n, n % 11, (11 - n) % 11, 1]
    assert f.get()[0] == 1.5 * n and d.get()[0] == 1.5 * n


@gpu
def test_complex_half_and_scalars():
    kc = jit.rawkernel()(k_complex)
    zn = (numpy.arange(8) + 1j * numpy.arange(8)[::-1]).astype(c64)
    w = cuarray.zeros(8, c128)
    kc[1, 8](cuarray.asarray(zn), w)
    want = zn * zn + 1j + zn.real + abs(zn) + zn.conj()
    numpy.testing.assert_allclose(w.get(), want, rtol=1e-6)
    kh = jit.rawkernel()(k_half)
    h = cuarray.asarray(numpy.arange(8, dtype=f16))
    kh[1, 8](h)
    numpy.testing.assert_array_equal(h.get(), numpy.arange(8, dtype=f16) * 2 + 1)

    @jit.rawkernel()
    def scalars(o, a, b, c, d):
        o[0] = a
        o[1] = b
        o[2] = c
        o[3] = d
    o = cuarray.zeros(4, f64)
    scalars[1, 1](o, 3, 2.5, True, numpy.float16(0.5))
    assert o.get().tolist() == [3, 2.5, 1, 0.5]


@gpu
def test_jit_elementwise_and_reduction_kernels():
    @jit.elementwisekernel("T x, T y", "T z")
    def squared_diff(x, y):
        return (x - y) * (x - y)

    x = cuarray.arange(10, dtype=f32).reshape(2, 5)
    y = cuarray.arange(5, dtype=f32)
    numpy.testing.assert_array_equal(squared_diff(x, y).get(),
                                     (x.get() - y.get()) ** 2)

    @jit.reductionkernel("T x", "T y", 0, post_map=lambda a: math.sqrt(a))
    def l2norm(x):
        return x * x
    numpy.testing.assert_allclose(l2norm(x, axis=1).get(), numpy.linalg.norm(x.get(), axis=1),
                                  rtol=1e-6)

    @jit.reductionkernel("T x", "T y", None, reduce="max")
    def amax(x):
        return abs(x)
    numpy.testing.assert_array_equal(amax(cuarray.asarray(numpy.array([-5, 3, 4]))).get(), 5)
