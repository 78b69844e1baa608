"""cuarray.testing: the NumPy/cuarray comparison decorators, dtype and order loops, test
arrays, assertions, and the GPU skip logic of tests/conftest.py.

Most tests run without a GPU: the comparison decorators are driven with a stand-in for
cuarray whose arrays live on the host (`host_cuarray`), so every check they make is
exercised; the `gpu` tests at the end repeat the essentials with real cuarray arrays.
"""
import os
import re
import subprocess
import sys
import textwrap
import types
import unittest
from pathlib import Path

import numpy
import pytest

import cuarray
from cuarray import testing
from cuarray.testing import _array, _helpers


# --- a host-memory stand-in for cuarray ---------------------------------------------------

class HostArray:
    """Plays cuarray.ndarray: a NumPy array behind the attributes the helpers read."""

    def __init__(self, a):
        self._a = a

    dtype = property(lambda self: self._a.dtype)
    shape = property(lambda self: self._a.shape)
    strides = property(lambda self: self._a.strides)
    flags = property(lambda self: self._a.flags)


@pytest.fixture
def host_cuarray(monkeypatch):
    """Make the helpers treat a namespace of HostArray functions as cuarray."""
    fake = types.SimpleNamespace(
        ndarray=HostArray,
        asnumpy=lambda a: numpy.array(a._a),
        asarray=lambda a, dtype=None, order=None: HostArray(numpy.asarray(a, dtype, order=order)),
    )
    monkeypatch.setattr(_helpers, "cuarray", fake)
    monkeypatch.setattr(_array, "cuarray", fake)
    return fake


def on(xp, a):
    """`a` as the module `xp` would return it: a HostArray on the cuarray side."""
    return a if xp is numpy else HostArray(numpy.asarray(a))


# --- dtype and order decorators -----------------------------------------------------------

def _types(chars):
    return [numpy.dtype(c).type for c in chars]


# CuPy's lists, in CuPy's order: floats (64, 32, 16), 'bhilq', 'BHILQ', bool, complex.
_DTYPE_CASES = [
    ("for_all_dtypes", {}, "dfebhilqBHILQ?FD"),
    ("for_all_dtypes", {"no_float16": True}, "dfbhilqBHILQ?FD"),
    ("for_all_dtypes", {"no_bool": True}, "dfebhilqBHILQFD"),
    ("for_all_dtypes", {"no_complex": True}, "dfebhilqBHILQ?"),
    ("for_float_dtypes", {}, "dfe"),
    ("for_float_dtypes", {"no_float16": True}, "df"),
    ("for_signed_dtypes", {}, "bhilq"),
    ("for_unsigned_dtypes", {}, "BHILQ"),
    ("for_int_dtypes", {}, "bhilqBHILQ?"),
    ("for_int_dtypes", {"no_bool": True}, "bhilqBHILQ"),
    ("for_complex_dtypes", {}, "FD"),
    ("for_dtypes", {"dtypes": "fd"}, "fd"),
]


@pytest.mark.parametrize("helper, kwargs, chars", _DTYPE_CASES,
                         ids=[f"{h}({','.join(k)})" for h, k, _ in _DTYPE_CASES])
def test_dtype_decorators_iterate_cupys_lists(helper, kwargs, chars):
    seen = []
    f = getattr(testing, helper)(**kwargs)(lambda dtype: seen.append(dtype))
    f()  # called directly: loops
    assert seen == _types(chars)
    (mark,) = [m for m in f.pytestmark if m.name == "parametrize"]
    assert mark.args == ("dtype", _types(chars))


def test_long_and_longlong_are_both_tested():
    # Both are int64 on Linux but distinct scalar types; CuPy tests both.
    dtypes = _types("lq")
    assert dtypes[0] is not dtypes[1] and numpy.dtype(dtypes[0]) == numpy.dtype(dtypes[1])


def test_order_decorators():
    seen = []
    testing.for_CF_orders()(lambda order: seen.append(order))()
    assert seen == [None, "C", "F", "c", "f"]
    seen.clear()
    testing.for_orders(["C", "F"], name="o")(lambda o: seen.append(o))()
    assert seen == ["C", "F"]


def test_decorator_name_argument():
    seen = []
    f = testing.for_float_dtypes(name="t", no_float16=True)(lambda t: seen.append(t))
    f()
    assert seen == [numpy.float64, numpy.float32]


def test_stacked_loops_run_the_product():
    seen = []

    @testing.for_signed_dtypes(name="a")
    @testing.for_CF_orders()
    def f(a, order):
        seen.append((a, order))
    f()
    assert len(seen) == 5 * 5 and len(set(seen)) == 25


def test_signature_names_the_parameter_without_default():
    # pytest only parametrises arguments the signature names with no default.
    @testing.for_all_dtypes()
    def f(self, x, dtype=numpy.float32):
        pass
    params = f.__signature__.parameters
    assert list(params) == ["self", "x", "dtype"]
    assert params["dtype"].default is params["dtype"].empty
    assert params["dtype"].kind is params["dtype"].KEYWORD_ONLY


def test_single_value_from_pytest_runs_once():
    seen = []
    f = testing.for_all_dtypes()(lambda dtype: seen.append(dtype))
    f(dtype=numpy.int8)
    assert seen == [numpy.int8]


def test_loop_failure_names_the_value():
    @testing.for_float_dtypes()
    def f(dtype):
        assert dtype != numpy.float32
    with pytest.raises(AssertionError) as info:
        f()
    assert "cuarray.testing: failed with dtype = float32" in info.value.__notes__


def test_loop_skips_one_value_and_runs_the_rest():
    seen = []

    @testing.for_float_dtypes()
    def f(dtype):
        if dtype == numpy.float16:
            pytest.skip("no half here")
        seen.append(dtype)
    f()
    assert seen == [numpy.float64, numpy.float32]


def test_loop_all_skipped_is_a_skip():
    @testing.for_complex_dtypes()
    def f(dtype):
        raise unittest.SkipTest("nothing")
    with pytest.raises(unittest.SkipTest):
        f()


@testing.for_float_dtypes()
@testing.for_orders(["C", "F"])
def test_pytest_collects_one_item_per_value(dtype, order, request):
    assert dtype in (numpy.float64, numpy.float32, numpy.float16)
    assert request.node.callspec.params == {"dtype": dtype, "order": order}


class TestUnittestStyle(unittest.TestCase):
    # pytest does not parametrise unittest methods: the decorator loops instead.
    seen = []

    @testing.for_int_dtypes(no_bool=True)
    def test_loops(self, dtype):
        self.seen.append(dtype)
        if dtype is numpy.ulonglong:
            assert self.seen == _types("bhilqBHILQ")


# --- numpy_cupy_* decorators --------------------------------------------------------------

def test_allclose_passes_and_fails(host_cuarray):
    @testing.numpy_cupy_allclose(rtol=1e-3)
    def close(xp):
        return on(xp, numpy.array([1.0, 2.0]) * (1.0005 if xp is not numpy else 1.0))
    close()

    @testing.numpy_cupy_allclose()
    def far(xp):
        return on(xp, numpy.array([1.0, 2.0]) * (1.1 if xp is not numpy else 1.0))
    with pytest.raises(AssertionError, match="Not equal to tolerance"):
        far()


def test_allclose_passes_the_modules(host_cuarray):
    seen = []

    @testing.numpy_cupy_allclose(name="mod")
    def f(mod):
        seen.append(mod)
        return on(mod, numpy.zeros(2))
    f()
    assert seen == [host_cuarray, numpy]
    assert "mod" not in f.__signature__.parameters


def test_allclose_tolerance_by_dtype(host_cuarray):
    def make(dtype, rtol):
        @testing.numpy_cupy_allclose(rtol=rtol)
        def f(xp):
            a = numpy.array([1.0, 2.0], dtype)
            return on(xp, a * dtype(1.01) if xp is not numpy else a)
        return f
    make(numpy.float32, {numpy.float32: 0.1, "default": 0})()
    make(numpy.float32, {"default": 0.1})()
    with pytest.raises(AssertionError):
        make(numpy.float64, {numpy.float32: 0.1, "default": 1e-7})()
    with pytest.raises(TypeError, match="Can not find tolerance"):
        make(numpy.float64, {numpy.float32: 0.1})()
    with pytest.raises(TypeError, match="Keys of the tolerance"):
        testing.numpy_cupy_allclose(rtol={1: 0.1})
    with pytest.raises(TypeError, match="type_check"):
        testing.numpy_cupy_allclose(rtol={"default": 0.1}, type_check=False)


def test_type_check(host_cuarray):
    def body(xp):
        return on(xp, numpy.arange(3, dtype=numpy.float32 if xp is numpy else numpy.float64))
    with pytest.raises(AssertionError, match="different dtypes"):
        testing.numpy_cupy_allclose()(body)()
    testing.numpy_cupy_allclose(type_check=False)(body)()


def test_contiguous_check(host_cuarray):
    def body(xp):
        a = numpy.arange(6.0).reshape(2, 3)
        return on(xp, a if xp is numpy else numpy.asfortranarray(a))
    with pytest.raises(AssertionError, match="c_contiguous"):
        testing.numpy_cupy_allclose()(body)()
    testing.numpy_cupy_allclose(contiguous_check=False)(body)()
    testing.numpy_cupy_array_equal()(body)()  # array_equal does not check contiguity


def test_shape_mismatch(host_cuarray):
    @testing.numpy_cupy_array_equal()
    def f(xp):
        return on(xp, numpy.zeros((2, 3) if xp is numpy else (3, 2)))
    with pytest.raises(AssertionError, match="shapes differ"):
        f()


def test_result_kinds(host_cuarray):
    @testing.numpy_cupy_array_equal()
    def scalars(xp):
        return 3.5, numpy.int32(4)  # Python and NumPy scalars on both sides
    scalars()

    @testing.numpy_cupy_array_equal()
    def zero_dim(xp):  # CuPy's reductions give 0-d arrays where NumPy gives scalars
        return on(xp, numpy.float64(2.0)) if xp is not numpy else numpy.float64(2.0)
    zero_dim()

    @testing.numpy_cupy_array_equal()
    def host_result(xp):
        return numpy.zeros(3)  # a NumPy array from the cuarray run: data left the GPU
    with pytest.raises(AssertionError, match="went to the host"):
        host_result()

    @testing.numpy_cupy_array_equal()
    def nothing(xp):
        pass
    with pytest.raises(AssertionError, match="returned None"):
        nothing()


def test_tuple_results(host_cuarray):
    @testing.numpy_cupy_array_equal()
    def f(xp):
        return on(xp, numpy.arange(3)), on(xp, numpy.ones(2))
    f()

    @testing.numpy_cupy_array_equal()
    def g(xp):
        return (on(xp, numpy.arange(3)),) * (2 if xp is numpy else 1)
    with pytest.raises(AssertionError, match="1 results, numpy 2"):
        g()

    @testing.numpy_cupy_array_list_equal()
    def h(xp):
        return [on(xp, numpy.arange(3)), on(xp, numpy.arange(2, dtype=numpy.int8))]
    h()


def test_strides_check(host_cuarray):
    def body(xp):
        a = numpy.arange(6).reshape(2, 3)
        return on(xp, a if xp is numpy else numpy.asfortranarray(a))
    testing.numpy_cupy_array_equal()(body)()
    with pytest.raises(AssertionError, match="Strides are not equal"):
        testing.numpy_cupy_array_equal(strides_check=True)(body)()


def _raiser(cuarray_error, numpy_error):
    def body(xp):
        error = numpy_error if xp is numpy else cuarray_error
        if error is not None:
            raise error("boom")
        return on(xp, numpy.zeros(1))
    return body


class _MyValueError(ValueError):
    pass


@pytest.mark.parametrize("c_err, n_err, accept, ok", [
    (ValueError, ValueError, True, True),
    (ValueError, ValueError, ValueError, True),
    (ValueError, ValueError, (TypeError, ValueError), True),
    (ValueError, ValueError, False, False),
    (ValueError, ValueError, TypeError, False),
    (_MyValueError, ValueError, True, True),  # agree on every public error class
    (ValueError, TypeError, True, False),
    (ValueError, numpy.linalg.LinAlgError, True, False),
    (IndexError, numpy.exceptions.AxisError, True, False),
    (ValueError, None, True, False),
    (None, ValueError, True, False),
])
def test_accept_error(host_cuarray, c_err, n_err, accept, ok):
    f = testing.numpy_cupy_allclose(accept_error=accept)(_raiser(c_err, n_err))
    if ok:
        f()
    else:
        with pytest.raises(AssertionError):
            f()


def test_numpy_cupy_raises(host_cuarray):
    testing.numpy_cupy_raises()(_raiser(TypeError, TypeError))()
    testing.numpy_cupy_raises(accept_error=TypeError)(_raiser(TypeError, TypeError))()
    with pytest.raises(AssertionError, match="expected to raise"):
        testing.numpy_cupy_raises()(_raiser(None, None))()
    with pytest.raises(AssertionError, match="Only numpy"):
        testing.numpy_cupy_raises()(_raiser(None, TypeError))()
    with pytest.raises(AssertionError, match="Different types"):
        testing.numpy_cupy_raises()(_raiser(KeyError, IndexError))()


def test_both_sides_skipping_skips(host_cuarray):
    @testing.numpy_cupy_allclose()
    def f(xp):
        pytest.skip("same reason")
    with pytest.raises(pytest.skip.Exception, match="same reason"):
        f()

    @testing.numpy_cupy_allclose()
    def g(xp):
        pytest.skip(f"reason {xp is numpy}")
    with pytest.raises(AssertionError, match="different causes"):
        g()


def test_bad_call_is_not_mistaken_for_a_library_error(host_cuarray):
    @testing.numpy_cupy_allclose(accept_error=True)
    def f(xp):
        return on(xp, numpy.zeros(1))
    with pytest.raises(TypeError, match="unexpected keyword"):
        f(nonsense=1)


def test_dtype_loop_around_comparison(host_cuarray):
    seen = []

    @testing.for_all_dtypes()
    @testing.numpy_cupy_array_equal()
    def f(xp, dtype):
        seen.append(dtype)
        return testing.shaped_arange((2, 3), xp, dtype)
    f()
    assert seen == [t for t in _types("dfebhilqBHILQ?FD") for _ in "cn"]


class TestMethodStyle:
    # CuPy's usual stack on a method: pytest parametrises dtype and supplies the fixture.
    @testing.for_all_dtypes()
    @testing.numpy_cupy_allclose()
    def test_method(self, host_cuarray, xp, dtype):
        assert xp in (numpy, host_cuarray)
        return testing.shaped_random((2, 3), xp, dtype)


def test_unsigned_results_compare_only_where_signed_is_nonnegative(host_cuarray):
    # Casting -1 to an unsigned type is undefined; CuPy compares only where the signed
    # counterpart is >= 0. The cuarray side here disagrees exactly at that element.
    def make(bad_index):
        @testing.for_dtypes([numpy.uint8], name="dst")
        @testing.for_dtypes([numpy.float32], name="src")
        @testing.numpy_cupy_array_equal()
        def f(xp, src, dst):
            a = numpy.array([-1, 2, 3], src).astype(dst)
            if xp is not numpy and numpy.dtype(dst).kind == "u":
                a[bad_index] = 7
            return on(xp, a)
        return f
    make(0)()
    with pytest.raises(AssertionError):
        make(1)()


def test_scipy_modules_skip_while_cuarray_lacks_them(host_cuarray, monkeypatch):
    monkeypatch.setitem(sys.modules, "cuarray.scipy", None)
    monkeypatch.setitem(sys.modules, "cuarray.scipy.sparse", None)
    for kw in ({"scipy_name": "scp"}, {"sp_name": "sp"}):
        @testing.numpy_cupy_allclose(**kw)
        def f(xp, **modules):
            return on(xp, numpy.zeros(1))
        with pytest.raises(pytest.skip.Exception, match="cuarray.scipy"):
            f()


# --- test arrays and assertions -----------------------------------------------------------

def _as_test_values(k, dtype):
    # CuPy's rule: bool takes the parity of the counter, complex gets k + kj.
    if dtype is numpy.bool_:
        return k % 2 == 0
    return (k + 1j * k if numpy.dtype(dtype).kind == "c" else k).astype(dtype)


@testing.for_all_dtypes()
def test_shaped_arange(dtype):
    a = testing.shaped_arange((2, 3), numpy, dtype)
    assert a.dtype == dtype and a.shape == (2, 3)
    numpy.testing.assert_array_equal(a, _as_test_values(numpy.arange(1, 7).reshape(2, 3), dtype))
    r = testing.shaped_reverse_arange((2, 3), numpy, dtype)
    assert r.dtype == dtype
    numpy.testing.assert_array_equal(
        r, _as_test_values(numpy.arange(6, 0, -1).reshape(2, 3), dtype))


def test_shaped_arange_order_and_default_dtype():
    a = testing.shaped_arange((2, 3), numpy, order="F")
    assert a.dtype == numpy.float32 and a.flags.f_contiguous and not a.flags.c_contiguous
    assert a[1, 0] == 4  # values follow C order whatever the layout
    assert testing.shaped_arange(4, numpy).tolist() == [1, 2, 3, 4]


@testing.for_all_dtypes()
def test_shaped_random(dtype):
    a = testing.shaped_random((3, 4), numpy, dtype, scale=5, seed=3)
    assert a.dtype == dtype and a.shape == (3, 4)
    rs = numpy.random.RandomState(3)  # CuPy's values: the legacy Mersenne Twister stream
    if dtype is numpy.bool_:
        expected = rs.randint(2, size=(3, 4))
    elif numpy.dtype(dtype).kind == "c":
        expected = (rs.rand(3, 4) + 1j * rs.rand(3, 4)) * 5
    else:
        expected = rs.rand(3, 4) * 5
    numpy.testing.assert_array_equal(a, expected.astype(dtype))


def test_shaped_random_leaves_global_state_alone():
    numpy.random.seed(123)
    before = numpy.random.get_state()[1].copy()
    testing.shaped_random((5,), numpy)
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before)
    assert testing.shaped_random((2, 2), numpy, order="F").flags.f_contiguous


def test_assertions_on_numpy_and_host_arrays(host_cuarray):
    x = numpy.array([1.0, 2.0])
    for a, b in ((x, x), (HostArray(x), x), (x, HostArray(x + 1e-9))):
        testing.assert_allclose(a, b, rtol=1e-6)
        testing.assert_array_almost_equal(a, b)
        testing.assert_array_less(a, numpy.asarray(_array._to_numpy(b)) + 1)
    testing.assert_array_equal(HostArray(x), x)
    with pytest.raises(AssertionError):
        testing.assert_allclose(x, x + 1)
    with pytest.raises(AssertionError):
        testing.assert_array_equal(HostArray(x), x + 1, err_msg="custom")
    with pytest.raises(AssertionError):
        testing.assert_array_less(x, x)
    with pytest.raises(AssertionError):
        testing.assert_array_almost_equal(x, x + 1e-3, decimal=6)


def test_assert_array_list_equal():
    a = [numpy.arange(3), numpy.ones(2)]
    testing.assert_array_list_equal(a, [numpy.arange(3), numpy.ones(2)])
    with pytest.raises(AssertionError, match="different types"):
        testing.assert_array_list_equal(a, tuple(a))
    with pytest.raises(AssertionError, match="List size"):
        testing.assert_array_list_equal(a, a[:1])
    with pytest.raises(AssertionError, match="List or tuple"):
        testing.assert_array_list_equal(numpy.arange(3), numpy.arange(3))
    with pytest.raises(AssertionError, match="item 1"):
        testing.assert_array_list_equal(a, [numpy.arange(3), numpy.zeros(2)])


# --- marks --------------------------------------------------------------------------------

def _plain():
    def f():
        pass
    return f


def test_marks(monkeypatch):
    assert [m.name for m in testing.slow(_plain()).pytestmark] == ["slow"]
    g = testing.multi_gpu(2)(_plain())
    marks = {m.name: m for m in g.pytestmark}
    assert marks["multi_gpu"].args == (2,) and "gpu" in marks
    assert marks["skipif"].args == (False,)
    monkeypatch.setenv("CUARRAY_TEST_GPU_LIMIT", "1")
    h = testing.multi_gpu(2)(_plain())
    assert [m.args for m in h.pytestmark if m.name == "skipif"] == [(True,)]


# --- tests/conftest.py and pytest's view of the decorators, in a child pytest -------------

_CHILD_TESTS = """
import unittest
import numpy
import pytest
from cuarray import testing

def test_cpu():
    pass

@pytest.mark.gpu
def test_gpu():
    pass

@testing.multi_gpu(64)
def test_many_gpus():
    pass

@testing.for_float_dtypes()
def test_dtype_fails(dtype):
    assert dtype is not numpy.float16

class TestLoop(unittest.TestCase):
    @testing.for_signed_dtypes()
    def test_loop_fails(self, dtype):
        assert dtype is not numpy.int32
"""


def _child_pytest(tmp_path, env_value):
    conftest = Path(__file__).parents[1] / "conftest.py"
    (tmp_path / "conftest.py").write_text(conftest.read_text())
    (tmp_path / "test_child.py").write_text(textwrap.dedent(_CHILD_TESTS))
    env = dict(os.environ, PYTHONPATH=str(Path(cuarray.testing.__file__).parents[2]))
    env.pop("CUARRAY_TEST_GPU", None)
    if env_value is not None:
        env["CUARRAY_TEST_GPU"] = env_value
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    return out.returncode, out.stdout + out.stderr


def test_conftest_skips_or_runs_gpu_tests(tmp_path):
    code, log = _child_pytest(tmp_path, None)
    assert "cuarray: " in log  # the header line
    assert "PASSED test_child.py::test_cpu" in log
    if "cuarray: no CUDA GPU: " in log:
        assert len(re.findall(r"SKIPPED \[1\] test_child.py:\d+: no CUDA GPU: ", log)) == 2
    else:
        assert "PASSED test_child.py::test_gpu" in log
        assert "needs 64 CUDA GPUs, this machine has" in log
    # pytest reports the failing dtype in the item id; a unittest method names it in a note.
    assert "FAILED test_child.py::test_dtype_fails[float16]" in log
    assert "PASSED test_child.py::test_dtype_fails[float32]" in log
    assert "cuarray.testing: failed with dtype = int32" in log
    assert code == 1


def test_conftest_require_turns_the_skip_into_a_failure(tmp_path):
    code, log = _child_pytest(tmp_path, "require")
    if "cuarray: no CUDA GPU: " in log:
        assert "ERROR test_child.py::test_gpu" in log
        assert "CUARRAY_TEST_GPU=require, but there is no CUDA GPU" in log
    else:
        assert "PASSED test_child.py::test_gpu" in log
    assert code == 1


def test_conftest_refuses_unknown_setting(tmp_path):
    code, log = _child_pytest(tmp_path, "maybe")
    assert code == pytest.ExitCode.USAGE_ERROR and "must be 'require' or unset" in log


# --- with real cuarray arrays -------------------------------------------------------------

@pytest.mark.gpu
class TestOnGPU:

    @testing.for_all_dtypes()
    @testing.for_orders(["C", "F"])
    def test_shaped_arange_matches_numpy(self, dtype, order):
        a = testing.shaped_arange((2, 3, 4), cuarray, dtype, order)
        assert isinstance(a, cuarray.ndarray) and a.dtype == dtype
        assert a.flags.f_contiguous == (order == "F")
        numpy.testing.assert_array_equal(
            cuarray.asnumpy(a), testing.shaped_arange((2, 3, 4), numpy, dtype, order))

    @testing.for_all_dtypes()
    def test_shaped_random_and_reverse_match_numpy(self, dtype):
        numpy.testing.assert_array_equal(
            cuarray.asnumpy(testing.shaped_random((4, 5), dtype=dtype)),
            testing.shaped_random((4, 5), numpy, dtype))
        numpy.testing.assert_array_equal(
            cuarray.asnumpy(testing.shaped_reverse_arange((4, 5), dtype=dtype)),
            testing.shaped_reverse_arange((4, 5), numpy, dtype))

    @testing.for_all_dtypes()
    @testing.numpy_cupy_array_equal(strides_check=True)
    def test_decorator_with_cuarray(self, xp, dtype):
        return testing.shaped_arange((3, 2), xp, dtype, order="F")

    def test_decorator_sees_a_difference(self):
        @testing.numpy_cupy_allclose()
        def f(xp):
            make = testing.shaped_arange if xp is numpy else testing.shaped_reverse_arange
            return make((3,), xp)
        with pytest.raises(AssertionError, match="Not equal to tolerance"):
            f()

    def test_assertions_take_cuarray_arrays(self):
        a = testing.shaped_arange((2, 3), cuarray, numpy.float64)
        testing.assert_allclose(a, testing.shaped_arange((2, 3), numpy, numpy.float64))
        testing.assert_array_equal(a, a)
        testing.assert_array_list_equal([a], [cuarray.asnumpy(a)])
        with pytest.raises(AssertionError):
            testing.assert_array_less(a, a)
