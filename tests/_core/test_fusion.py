"""cuarray.fuse: tracing (CPU: dtypes against NumPy, generated kernels compile) and fused
kernels' results (GPU, against NumPy)."""
from types import SimpleNamespace

import numpy
import pytest

import cuarray
from cuarray._core import reduction
from cuarray._core.elementwise import generate
from cuarray._core.fusion import ArgSpec, Fusion, fuse, literal, ufunc_function
from cuarray._runtime.compiler import compile_cubin

cp = cuarray


@fuse(kernel_name="squared_diff")
def squared_diff(x, y):
    return (x - y) * (x - y)


@fuse()(kernel_name="sum_of_products")
def sum_of_products(x, y):
    return cp.sum(x * y, axis=-1)


@fuse
def many(x, y, a):
    z = cp.where(x > 0, cp.sqrt(abs(x)), -x) + numpy.sin(y) * a
    return z.astype(numpy.float32), abs(z) ** 2, divmod(x, 2)[0]


@fuse()
def post(x, s):
    return cp.max(x * 2, axis=0) / s + 1


@fuse()
def clipped(x):
    return cp.clip(x, 0, 5) + x.real + cp.exp2(x)


def _key(args):
    """Arguments for Fusion._build: (dtype, ndim) pairs become array stand-ins."""
    return [ArgSpec(*a) if isinstance(a, tuple) else a for a in args]


def _host_args(args):
    out = []
    for a in args:
        if isinstance(a, tuple):
            dt, ndim = a
            out.append(numpy.ones((2,) * ndim, dt))
        else:
            out.append(a)
    return out


def _on_numpy(f):
    """The Python function of fused `f` with `cp` meaning numpy: NumPy's answer."""
    import types
    g = dict(f.func.__globals__, cp=numpy, cuarray=numpy)
    return types.FunctionType(f.func.__code__, g, f.func.__name__)


def _compile(k):
    """Generate and NVRTC-compile the kernel of a traced specialization."""
    if k.kind == "elementwise":
        storage = [p.dtype for p in k.op.params]
        src, _ = generate(k.op, storage, [None] * len(storage), 2, 1, False)
    else:
        args = [SimpleNamespace(dtype=p.dtype) for p in k.op.params]
        src, _, _ = reduction.generate(k.op, args, 1, 1, True, 256, False, True)
    assert compile_cubin(src, arch="sm_90")[0]
    return src


f16, f32, f64, i8, i32, i64 = (numpy.dtype(c) for c in "efdbil")
CASES = [
    (squared_diff, ((f32, 1), (f32, 1))),
    (squared_diff, ((f32, 2), 3)),
    (squared_diff, ((i8, 1), (i32, 2))),
    (squared_diff, ((f16, 1), 2.5)),
    (squared_diff, ((i32, 1), numpy.float32(2))),
    (squared_diff, ((numpy.dtype(bool), 1), True)),
    (many, ((f32, 2), (f16, 1), 1.5)),
    (many, ((i32, 2), (i8, 1), numpy.complex64(1j))),
    (clipped, ((f32, 1),)),
    (clipped, ((numpy.dtype("F"), 1),)),
]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # NumPy's reference
@pytest.mark.parametrize("f,args", CASES, ids=lambda v: getattr(v, "name", None))
def test_traced_dtypes_match_numpy_and_compile(f, args):
    try:
        want = _on_numpy(f)(*_host_args(args))
    except TypeError as e:   # NumPy refuses (bool - bool): so does the trace
        with pytest.raises(TypeError, match="boolean subtract"):
            f._build(_key(args))
        assert "boolean subtract" in str(e)
        return
    k = f._build(_key(args))
    assert k.kind == "elementwise"
    want = want if isinstance(want, tuple) else (want,)
    assert [numpy.dtype(d) for d in k.outputs] == [w.dtype for w in want]
    src = _compile(k)
    assert f"void {f.name}(" in src


@pytest.mark.parametrize("f,args,res", [
    (sum_of_products, ((f64, 2), (f32, 2)), f64),
    (sum_of_products, ((i8, 2), (i8, 2)), i64),
    (sum_of_products, ((f16, 2), (f16, 2)), f16),
    (post, ((i32, 2), 2.0), f64),
    (fuse(lambda x: cp.mean(x * 2, axis=0)), ((i32, 2),), f64),
    (fuse(lambda x: (x - 1).mean()), ((f16, 1),), f16),
    (fuse(lambda x, y: cp.any(x > y)), ((f32, 2), 0.5), numpy.dtype(bool)),
    (fuse(lambda x: numpy.all(x, axis=-1, keepdims=True)), ((i8, 3),), numpy.dtype(bool)),
])
def test_reduction_is_traced_into_one_reduce_op(f, args, res):
    k = f._build(_key(args))
    assert k.kind == "reduction" and k.outputs == [res]
    src = _compile(k)
    assert "_fuse_map(" in src and "_red(" in src


def _helper(v):
    return cp.sqrt(abs(v)) + cp.sqrt(4.0)


@fuse
def calls_helper(x):
    return _helper(x) * 2


@fuse
def calls_fused(x, y):
    return squared_diff(x, y) + 1


def test_closures_lambdas_and_methods_trace():
    # A closure over a module (the reported bug: "arg 5 (closure) must be tuple").
    def make(xp):
        return fuse(lambda v: xp.tanh(xp.sin(v) + 0.1 * v))

    k = make(cuarray)._build(_key([(f32, 1)]))
    src = _compile(k)
    assert "_cu_tanh_f_f" in src and "0.10000000149011612f" in src

    class Scaled:
        factor = 2

        def apply(self, x):
            return x * self.factor + numpy.float32(1)

    k = fuse(Scaled().apply)._build(_key([(i8, 2)]))
    assert k.outputs == [numpy.dtype(numpy.float32)]


def test_helper_functions_and_constants_are_traced():
    k = calls_fused._build(_key([(f32, 1), (f32, 1)]))
    assert k.kind == "elementwise" and "_cu_subtract_ff_f" in _compile(k)
    k = calls_helper._build(_key([(f32, 1)]))
    # sqrt(4.0) is NumPy's float64 scalar 2.0, which is not weak: float32 + it is float64.
    assert k.outputs == [(numpy.sqrt(numpy.ones(1, f32)) + numpy.sqrt(4.0)).dtype] == [f64]
    src = _compile(k)
    assert "_cu_sqrt_f_f" in src and ", 2.0)" in src


def test_fuse_decorator_forms():
    def f(x):
        return x + 1
    assert isinstance(fuse(f), Fusion) and fuse(f).name == "f"
    assert fuse()(f).name == "f"
    assert fuse(kernel_name="k")(f).name == "k"
    assert fuse()(kernel_name="k2")(f).name == "k2"
    assert squared_diff.__name__ == "squared_diff" and squared_diff.name == "squared_diff"
    with pytest.raises(TypeError):
        fuse(f, f)


def test_numpy_arguments_run_the_python_function():
    x, y = numpy.arange(4.0), numpy.ones(4)
    numpy.testing.assert_array_equal(squared_diff(x, y), (x - y) ** 2)
    assert squared_diff(3, 1) == 4
    assert not squared_diff._kernels


def test_trace_errors():
    @fuse
    def branchy(x):
        if x > 0:
            return x
        return -x

    @fuse
    def two_reductions(x):
        return cp.sum(x) + cp.sum(x)

    @fuse
    def mixes(x):
        return cp.sum(x) + x

    with pytest.raises(TypeError, match="truth value"):
        branchy._build(_key([(f32, 1)]))
    with pytest.raises(TypeError, match="one reduction"):
        two_reductions._build(_key([(f32, 1)]))
    with pytest.raises(TypeError, match="reduction"):
        mixes._build(_key([(f32, 1)]))
    with pytest.raises(TypeError, match="keyword"):
        squared_diff(numpy.ones(2), y=numpy.ones(2))


def test_ufunc_function_and_literals():
    name, code = ufunc_function("add", (f32, f32), (f32,))
    assert name == "_cu_add_ff_f" and "out0 = in0 + in1;" in code
    name, code = ufunc_function("divmod", (i32, i32), (i32, i32))
    assert "int& out0, int& out1" in code
    assert literal(1.5, f32) == "1.5f" and literal(2, i64) == "2LL"
    assert literal(-2**63, i64) == "(-9223372036854775807LL - 1)"
    assert literal(True, numpy.dtype(bool)) == "true"
    assert literal(numpy.inf, f64) == "cuarray_f64(9218868437227405312ull)"
    assert literal(1 + 2j, numpy.dtype("F")) == "complex<float>(1.0f, 2.0f)"
    with pytest.raises(OverflowError):
        literal(300, numpy.dtype(numpy.uint8))


def test_public_name():
    assert cuarray.fuse is fuse


# ---- GPU ------------------------------------------------------------------------------------
gpu = pytest.mark.gpu


@gpu
def test_squared_diff_tutorial():
    x = cp.arange(10, dtype=cp.float32)
    y = x[::-1]
    r = squared_diff(x, y)
    assert r.dtype == numpy.float32
    numpy.testing.assert_array_equal(r.get(), (numpy.arange(10) - numpy.arange(10)[::-1]) ** 2)
    assert len(squared_diff._kernels) >= 1


@gpu
@pytest.mark.parametrize("args", [((f32, (3, 4)), (f32, (4,))), ((i8, (5,)), 3),
                                  ((f64, ()), (f32, (2, 3))), ((i32, (6,)), numpy.float32(0.5))])
def test_elementwise_against_numpy(args):
    rng = numpy.random.default_rng(0)
    host, dev = [], []
    for a in args:
        if isinstance(a, tuple):
            h = numpy.asarray(rng.random(a[1]) * 10).astype(a[0])
            host.append(h)
            dev.append(cp.asarray(h))
        else:
            host.append(a)
            dev.append(a)
    r = squared_diff(*dev)
    want = squared_diff.func(*host)
    assert r.dtype == want.dtype and r.shape == want.shape
    numpy.testing.assert_allclose(r.get(), want, rtol=1e-6)


@gpu
def test_several_outputs_and_numpy_ufuncs():
    xn = numpy.linspace(-4, 4, 12, dtype=f32).reshape(3, 4)
    yn = numpy.linspace(0, 1, 4).astype(f16)
    got = many(cp.asarray(xn), cp.asarray(yn), 1.5)
    want = _on_numpy(many)(xn, yn, 1.5)
    assert len(got) == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        numpy.testing.assert_allclose(g.get(), w, rtol=2e-3)


@gpu
def test_reductions_against_numpy():
    xn = numpy.arange(24, dtype=f32).reshape(2, 3, 4)
    yn = numpy.linspace(1, 2, 4, dtype=f32)
    x, y = cp.asarray(xn), cp.asarray(yn)
    r = sum_of_products(x, y)
    numpy.testing.assert_allclose(r.get(), numpy.sum(xn * yn, axis=-1), rtol=1e-6)

    @fuse
    def total(a, b):
        return cp.sum(a * b)

    @fuse
    def kd(a):
        return (a + 1).max(axis=(0, 2), keepdims=True)

    numpy.testing.assert_allclose(total(x, y).get(), numpy.sum(xn * yn), rtol=1e-6)
    assert total(x, y).shape == ()
    assert kd(x).shape == (1, 3, 1)
    numpy.testing.assert_array_equal(kd(x).get(), (xn + 1).max(axis=(0, 2), keepdims=True))
    pn = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
    numpy.testing.assert_allclose(post(cp.asarray(pn), 4.0).get(), _on_numpy(post)(pn, 4.0))


@gpu
def test_mixed_host_and_device_arguments_are_refused():
    with pytest.raises(TypeError, match="cuarray.asarray"):
        squared_diff(cp.arange(3.0), numpy.arange(3.0))


def test_same_function_same_kernel_source():
    # The compiler caches modules by source on disk: a fused function traced in another
    # process (another Fusion object) must generate the very same source.
    def f(x, y):
        return cp.tanh(x * y + 1)

    srcs = {_compile(Fusion(f)._build(_key([(f32, 2), (f32, 2)]))) for _ in range(2)}
    assert len(srcs) == 1
    other = _compile(Fusion(f)._build(_key([(f64, 2), (f32, 2)])))
    assert other not in srcs
