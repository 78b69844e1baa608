"""Every argument ElementwiseKernel, ReductionKernel and var/std accept is honoured or
refused: `block_size=` and `stream=` reach the launch, unknown keywords are a TypeError,
`mean=` replaces the computed mean. Values run on the emulated host device ("emu") and
on the GPU ("gpu")."""
import numpy
import pytest

import cuarray
from emulation import host_driver, pytest_generate_tests, rand  # noqa: F401  (the hook)


def _kernel():
    return cuarray.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "args_mul_add")


def test_unknown_constructor_keywords_are_refused():
    with pytest.raises(TypeError):
        cuarray.ElementwiseKernel("T x", "T y", "y = x", "k", block_size=128)
    with pytest.raises(TypeError):
        cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "k", stream=None)


def test_unknown_call_keywords_are_refused():
    with pytest.raises(TypeError):
        _kernel()(1.0, 2.0, grid=3)
    red = cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "args_sum")
    with pytest.raises(TypeError):
        red(1.0, block_size=32)


@pytest.mark.parametrize("bad, error", [(0, ValueError), (2048, ValueError), (1.5, TypeError),
                                        (True, TypeError)])
def test_bad_block_size_is_refused(bad, error):
    x = cuarray.ndarray.__new__(cuarray.ndarray)  # never reached: the check comes first
    with pytest.raises(error, match="block_size"):
        _kernel()(x, x, block_size=bad)


def test_bad_stream_is_refused():
    with pytest.raises(TypeError, match="stream"):
        _kernel()(1.0, 2.0, stream=7)


@pytest.fixture
def launches(emulated, monkeypatch):
    """(block, stream) of every launch on the emulated device during the test."""
    drv = host_driver()
    seen = []
    real = type(drv).cuLaunchKernel

    def record(kernel, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        seen.append(((bx, by, bz), int(stream)))
        return real(drv, kernel, gx, gy, gz, bx, by, bz, shared, stream, params, extra)

    monkeypatch.setattr(drv, "cuLaunchKernel", record)
    return seen


@pytest.mark.parametrize("block_size", [None, 32, 1024])
def test_block_size_reaches_the_launch(launches, block_size):
    rng = numpy.random.default_rng(7)
    a, b = rng.standard_normal(1000), rng.standard_normal(1000)
    k = _kernel()
    for _ in range(2):   # the second call of a kernel takes its warm path where it may
        z = k(cuarray.asarray(a), cuarray.asarray(b), block_size=block_size)
        numpy.testing.assert_allclose(z.get(), a * b + a)
    assert [blk for blk, _ in launches] == [(block_size or 256, 1, 1)] * 2


def test_stream_reaches_the_launch(launches):
    rng = numpy.random.default_rng(8)
    a = rng.standard_normal(300)
    s = cuarray.cuda.Stream()
    z = _kernel()(cuarray.asarray(a), cuarray.asarray(a), stream=s)
    red = cuarray.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "args_sum")
    total = red(z, stream=s)
    numpy.testing.assert_allclose(z.get(), a * a + a)
    numpy.testing.assert_allclose(total.get(), (a * a + a).sum())
    assert launches and all(stream == s.ptr for _, stream in launches)
    assert cuarray.cuda.get_current_stream().ptr != s.ptr   # the stream was current only inside
    del s   # destroyed now, by the emulated driver that made it


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_var_std_take_the_given_mean(xp, name, axis):
    rng = numpy.random.default_rng(9)
    h = rand((5, 7), numpy.float64, rng)
    a = xp.asarray(h)
    m = numpy.mean(h, axis=axis, keepdims=True)
    f = getattr(xp, name)
    got = f(a, axis=axis, mean=xp.asarray(m))
    numpy.testing.assert_allclose(got.get(), getattr(numpy, name)(h, axis=axis, mean=m))
    # A mean that is not the mean gives NumPy's result for it too: it is used, not recomputed.
    off = m + 1.0
    got = f(a, axis=axis, mean=xp.asarray(off), ddof=1)
    numpy.testing.assert_allclose(got.get(), getattr(numpy, name)(h, axis=axis, mean=off, ddof=1))
    if name in ("var", "std"):
        got = getattr(a, name)(axis=axis, mean=xp.asarray(off), ddof=1)
        numpy.testing.assert_allclose(got.get(), getattr(h, name)(axis=axis, mean=off, ddof=1))


def test_ddof_and_correction_together_are_refused():
    a = cuarray.ndarray.__new__(cuarray.ndarray)  # never reached: the check comes first
    for f in (cuarray.var, cuarray.std):
        with pytest.raises(ValueError, match="correction"):
            f(a, ddof=1, correction=1)


@pytest.mark.parametrize("body,names,expected", [
    ("o = a * x + y;", ["o"], True), ("o = x; o *= 2;", ["o"], True), ("t = x; o = t;", ["o"], True),
    ("z = x + y; w = x - y", ["z", "w"], True), ("o = x > 0 ? x : 0", ["o"], True),
    ("o += x;", ["o"], False), ("if (x > 0) o = x;", ["o"], False), ("o = o + x;", ["o"], False),
    ("f(o); o = 1;", ["o"], False), ("z = w; w = 1", ["z", "w"], False), ("o == x;", ["o"], False),
    ("o.x = 1;", ["o"], False), ("y = x", ["o"], False), ("{ o = x; }", ["o"], False),
])
def test_outputs_written_first(body, names, expected):
    from cuarray._core.kernel import writes_first
    assert writes_first(body, names) is expected


def test_outputs_written_first_not_through_a_macro():
    from cuarray._core.kernel import writes_first
    assert not writes_first("o = x;", ["o"], "#define KEEP(v) (o + (v))")
    assert writes_first("o = x;", ["o"], "#define N 4")


def test_given_outputs_keep_what_the_body_does_not_set(xp, rng):
    # Only a body that sets an output before reading it skips reading the given output in:
    # a conditional set keeps the old values, an update adds to them.
    if xp is numpy:
        pytest.skip("cuarray's ElementwiseKernel")
    x = rand(1003, numpy.float32, rng)
    old = rand(1003, numpy.float32, rng)
    cases = [("o = a * x + o2;", lambda: 2 * x + old),
             ("if (x > 0) o = x;", lambda: numpy.where(x > 0, x, old)),
             ("o += x;", lambda: old + x)]
    for k, (body, want) in enumerate(cases):
        if "o2" in body:
            kern = xp.ElementwiseKernel("float32 a, float32 x, float32 o2", "float32 o", body,
                                        f"given_out_{k}")
            out = xp.asarray(old * 0 + 7)
            kern(numpy.float32(2), xp.asarray(x), xp.asarray(old), out)
        else:
            kern = xp.ElementwiseKernel("float32 x", "float32 o", body, f"given_out_{k}")
            out = xp.asarray(old)
            kern(xp.asarray(x), out)
        numpy.testing.assert_allclose(out.get(), want(), rtol=1e-6)
        assert [op.load_outputs for op in kern._ops.values()] == [k > 0]


def test_kernels_made_and_dropped_in_turn_run_their_own_code(xp, rng):
    # One signature, a new kernel each time, the last one dropped first: each call runs its
    # own operation (the emulated device once mixed up ops that reused a dropped op's id).
    if xp is numpy:
        pytest.skip("cuarray's ElementwiseKernel")
    x = rand(100, numpy.float32, rng)
    for k in range(12):
        kern = xp.ElementwiseKernel("float32 x", "float32 o", f"o = x + {k}.0f;", f"in_turn_{k}")
        out = xp.asarray(x)
        kern(xp.asarray(x), out)
        numpy.testing.assert_allclose(out.get(), x + k)
