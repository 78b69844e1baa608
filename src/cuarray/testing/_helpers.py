"""Decorators that run one test body with NumPy and with cuarray and compare the results,
and decorators that repeat a body over dtypes or orders (cuarray version of CuPy's
`cupy.testing` helpers: same names, arguments and checks).

The dtype and order decorators parametrise the test for pytest, so each value is its own
test item (`test_x[float16]`); called any other way (a `unittest.TestCase` method, a direct
call) they loop over the values and name the failing one in the exception's notes.
"""
import functools
import importlib
import inspect
import os
import traceback
import unittest

import numpy
import pytest

import cuarray  # a partly initialised module is fine: attributes are read at call time
from cuarray.testing import _array

_SKIPS = (unittest.SkipTest, pytest.skip.Exception)

# Two errors count as the same when they agree on every one of these classes (CuPy's rule):
# a cuarray ValueError where NumPy raises LinAlgError fails; a private ValueError subclass
# where NumPy raises ValueError passes.
_PUBLIC_ERRORS = (
    AttributeError, Exception, IndexError, TypeError, ValueError, NotImplementedError,
    DeprecationWarning, numpy.exceptions.AxisError, numpy.linalg.LinAlgError,
)


# --- running a body with each module --------------------------------------------------

def _call(impl, args, kw):
    """(result, None) or (None, error). An error from the call itself (the body was never
    entered, e.g. a wrong keyword) is the test's own bug and propagates."""
    try:
        return impl(*args, **kw), None
    except (Exception, pytest.skip.Exception) as e:
        if e.__traceback__.tb_next is None:
            raise
        return None, e


def _cuarray_scipy(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name in ("cuarray.scipy", name):  # not written yet, as opposed to broken
            pytest.skip(f"{name} is not available")
        raise


def _side_kwargs(kw, on_cuarray, name, sp_name, scipy_name):
    kw = dict(kw)
    kw[name] = cuarray if on_cuarray else numpy
    if sp_name:
        kw[sp_name] = (_cuarray_scipy("cuarray.scipy.sparse") if on_cuarray
                       else importlib.import_module("scipy.sparse"))
    if scipy_name:
        kw[scipy_name] = (_cuarray_scipy("cuarray.scipy") if on_cuarray
                          else importlib.import_module("scipy"))
    return kw


def _run_both(impl, args, kw, name, sp_name, scipy_name):
    # Both keyword sets are built first so a missing cuarray.scipy skips before either runs.
    kw_c = _side_kwargs(kw, True, name, sp_name, scipy_name)
    kw_n = _side_kwargs(kw, False, name, sp_name, scipy_name)
    return _call(impl, args, kw_c) + _call(impl, args, kw_n)


def _wraps_without(impl, names):
    """functools.wraps, with the injected arguments removed from the signature pytest reads."""
    def decorate(wrapper):
        wrapper = functools.wraps(impl)(wrapper)
        sig = inspect.signature(impl)
        wrapper.__signature__ = sig.replace(
            parameters=[p for p in sig.parameters.values() if p.name not in names])
        return wrapper
    return decorate


# --- comparing errors -------------------------------------------------------------------

def _format(err):
    return "".join(traceback.format_exception(err)).rstrip()


def _errors_compatible(cuarray_error, numpy_error):
    return all(isinstance(cuarray_error, e) == isinstance(numpy_error, e) for e in _PUBLIC_ERRORS)


def _check_errors(cuarray_error, numpy_error, accept_error=False):
    """Pass when both sides raised compatible errors of an accepted type; re-raise a skip
    both sides agree on; otherwise fail naming both errors."""
    if isinstance(cuarray_error, _SKIPS) and isinstance(numpy_error, _SKIPS):
        if type(cuarray_error) is not type(numpy_error):
            raise AssertionError(
                "Both numpy and cuarray were skipped but with different exceptions.")
        if cuarray_error.args != numpy_error.args:
            raise AssertionError(
                "Both numpy and cuarray were skipped but with different causes.")
        raise numpy_error
    if accept_error is True:
        accept_error = Exception
    elif not accept_error:
        accept_error = ()
    if cuarray_error is None and numpy_error is None:
        raise AssertionError("Both cuarray and numpy are expected to raise errors, but not")
    if cuarray_error is None:
        raise AssertionError(
            f"Only numpy raises error\n\n{_format(numpy_error)}") from numpy_error
    if numpy_error is None:
        raise AssertionError(
            f"Only cuarray raises error\n\n{_format(cuarray_error)}") from cuarray_error
    if not _errors_compatible(cuarray_error, numpy_error):
        raise AssertionError(
            f"Different types of errors occurred\n\ncuarray\n{_format(cuarray_error)}\n\n"
            f"numpy\n{_format(numpy_error)}") from cuarray_error
    if not (isinstance(cuarray_error, accept_error) and isinstance(numpy_error, accept_error)):
        raise AssertionError(
            f"Both cuarray and numpy raise exceptions\n\ncuarray\n{_format(cuarray_error)}\n\n"
            f"numpy\n{_format(numpy_error)}") from cuarray_error


# --- comparing results ------------------------------------------------------------------

def _comparable(c, n, sp_name, check_sparse_format):
    """The pair of arrays (or scalars) to compare for one cuarray result and one NumPy result;
    an AssertionError when their kinds do not correspond."""
    if sp_name is not None:
        sparse = importlib.import_module("cuarray.scipy.sparse")
        if sparse.issparse(c):
            import scipy.sparse
            if not scipy.sparse.issparse(n):
                raise AssertionError(f"cuarray returned a sparse matrix, numpy {type(n)}")
            if check_sparse_format and c.format != n.format:
                raise AssertionError(
                    f"sparse formats differ: cuarray {c.format}, numpy {n.format}")
            return c.toarray(), n.toarray()
    if isinstance(c, cuarray.ndarray) and isinstance(n, (numpy.ndarray, numpy.generic)):
        return c, n
    poly1d = getattr(cuarray, "poly1d", None)
    if poly1d is not None and isinstance(c, poly1d) and isinstance(n, numpy.poly1d):
        if c.variable != n.variable:
            raise AssertionError(
                f"poly1d variables differ: cuarray {c.variable!r}, numpy {n.variable!r}")
        return c.coeffs, n.coeffs
    if isinstance(c, numpy.generic) and isinstance(n, numpy.generic):
        return c, n
    if numpy.isscalar(c) and numpy.isscalar(n):
        return numpy.asarray(c), numpy.asarray(n)
    hint = ("\n(a numpy.ndarray from the cuarray run means the data went to the host; "
            "cuarray functions return cuarray.ndarray)" if isinstance(c, numpy.ndarray) else "")
    raise AssertionError(
        "numpy and cuarray returned different types of result:\n"
        f"cuarray: {type(c)}\nnumpy: {type(n)}{hint}")


def _dtype_of(v):
    """The dtype a keyword argument names (numpy.float32, numpy.dtype('f')), else None."""
    if isinstance(v, numpy.dtype) or (isinstance(v, type) and issubclass(v, numpy.generic)):
        return numpy.dtype(v)
    return None


def _positive_masks(impl, args, kw, name, sp_name, scipy_name, count):
    """Where a signed run of the cuarray body gives values >= 0, one mask per result.

    Converting a negative value to an unsigned type is undefined in C++; GPUs and CPUs give
    different answers, so (as CuPy does) only elements that are non-negative in the signed
    counterpart are compared."""
    kw = dict(kw)
    for k, v in kw.items():
        d = _dtype_of(v)
        if d is not None and d.kind == "u":
            kw[k] = numpy.dtype(d.char.lower()).type  # 'B' -> 'b', ..., 'Q' -> 'q'
    result, error = _call(impl, args, _side_kwargs(kw, True, name, sp_name, scipy_name))
    if error is not None:
        raise AssertionError("rerunning the cuarray body with signed dtypes failed") from error
    results = result if isinstance(result, (tuple, list)) else (result,)
    if len(results) != count:
        raise AssertionError("the signed rerun returned a different number of results")
    return [numpy.asarray(_array._to_numpy(r)) >= 0 for r in results]


def _as_tuple(result):
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def _check_results(check_func, c_res, n_res, type_check, contiguous_check, sp_name,
                   check_sparse_format, rerun_signed):
    c_res, n_res = _as_tuple(c_res), _as_tuple(n_res)
    if len(c_res) != len(n_res):
        raise AssertionError(f"cuarray returned {len(c_res)} results, numpy {len(n_res)}")
    pairs = [_comparable(c, n, sp_name, check_sparse_format) for c, n in zip(c_res, n_res)]
    if type_check:
        for c, n in pairs:
            if c.dtype != n.dtype:
                raise AssertionError("ndarrays of different dtypes are returned.\n"
                                     f"cuarray: {c.dtype}\nnumpy: {n.dtype}")
    if contiguous_check:
        for c, n in zip(c_res, n_res):
            if isinstance(n, numpy.ndarray):
                for flag in ("c_contiguous", "f_contiguous"):
                    if getattr(n.flags, flag) and not getattr(c.flags, flag):
                        raise AssertionError(
                            f"The state of {flag} flag is false. "
                            "(cuarray_result:False numpy_result:True)")
    for c, n in pairs:
        if c.shape != n.shape:
            raise AssertionError(f"shapes differ: cuarray {c.shape}, numpy {n.shape}")
    masks = [None] * len(pairs)
    unsigned = [numpy.dtype(c.dtype).kind == "u" for c, _ in pairs]
    if any(unsigned) and rerun_signed is not None:
        masks = [m if u else None for m, u in zip(rerun_signed(len(pairs)), unsigned)]
    for (c, n), mask in zip(pairs, masks):
        if mask is not None:
            if c.shape == ():
                if not mask.all():
                    continue
            else:
                c, n = numpy.asarray(_array._to_numpy(c))[mask], numpy.asarray(n)[mask]
        check_func(c, n)


def _make_decorator(check_func, name, type_check, contiguous_check, accept_error,
                    sp_name=None, scipy_name=None, check_sparse_format=True):
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, not {type(name).__name__}")

    def decorator(impl):
        @_wraps_without(impl, (name, sp_name, scipy_name))
        def test_func(*args, **kw):
            c_res, c_err, n_res, n_err = _run_both(impl, args, kw, name, sp_name, scipy_name)
            if c_err is not None or n_err is not None:
                _check_errors(c_err, n_err, accept_error=accept_error)
                return
            for res, which in ((c_res, "cuarray"), (n_res, "numpy")):
                if res is None:
                    raise AssertionError(
                        f"the test body returned None with {name}={which}; "
                        "it must return the values to compare")
            rerun = None
            kinds = {d.kind for d in map(_dtype_of, kw.values()) if d is not None}
            if "u" in kinds and kinds & set("if"):
                rerun = functools.partial(
                    _positive_masks, impl, args, kw, name, sp_name, scipy_name)
            _check_results(check_func, c_res, n_res, type_check, contiguous_check, sp_name,
                           check_sparse_format, rerun)
        return test_func
    return decorator


def _tolerance(tol):
    """tol as a function of the result dtype: a number, or a dict keyed by dtypes and 'default'."""
    if not isinstance(tol, dict):
        return lambda dtype: tol
    table = {}
    for key, value in tol.items():
        if isinstance(key, str) and key == "default":
            table[key] = value
        elif isinstance(key, numpy.dtype) or isinstance(key, type):
            table[numpy.dtype(key)] = value
        else:
            raise TypeError(
                "Keys of the tolerance dictionary must be dtypes such as numpy.float32, "
                f"or the string 'default'; got {key!r}")

    def resolve(dtype):
        value = table.get(numpy.dtype(dtype), table.get("default"))
        if value is None:
            raise TypeError(f"Can not find tolerance for {numpy.dtype(dtype)}: "
                            "the dictionary has no entry for it and no 'default'")
        return value
    return resolve


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True, name="xp",
                        type_check=True, accept_error=False, sp_name=None, scipy_name=None,
                        contiguous_check=True, *, _check_sparse_format=True):
    """Run the body with `name=numpy` and `name=cuarray` and check the results are close
    (cuarray version of `cupy.testing.numpy_cupy_allclose`).

    `rtol`/`atol` may be dicts mapping dtypes (and `'default'`) to tolerances, chosen by the
    result's dtype. `accept_error`: True, an exception class or a tuple of them; when both
    runs raise compatible errors of that kind the test passes. `sp_name` receives
    `scipy.sparse` / `cuarray.scipy.sparse`, `scipy_name` `scipy` / `cuarray.scipy` (the test
    is skipped while cuarray lacks them). `contiguous_check`: where NumPy's result is C or
    F contiguous, cuarray's must be too.
    """
    rtol_of, atol_of = _tolerance(rtol), _tolerance(atol)
    if not type_check and (isinstance(rtol, dict) or isinstance(atol, dict)):
        raise TypeError(
            "When `type_check` is `False`, `rtol` and `atol` must be supplied as float.")

    def check_func(c, n):
        _array.assert_allclose(c, n, rtol=rtol_of(c.dtype), atol=atol_of(c.dtype),
                               err_msg=err_msg, verbose=verbose)
    return _make_decorator(check_func, name, type_check, contiguous_check, accept_error,
                           sp_name, scipy_name, _check_sparse_format)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp", type_check=True,
                           accept_error=False, sp_name=None, scipy_name=None,
                           strides_check=False):
    """Run the body with NumPy and cuarray and check the results are equal (cuarray version
    of `cupy.testing.numpy_cupy_array_equal`); `strides_check` also compares strides."""
    def check_func(c, n):
        _array.assert_array_equal(c, n, err_msg, verbose, strides_check)
    return _make_decorator(check_func, name, type_check, False, accept_error, sp_name, scipy_name)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp", sp_name=None,
                                scipy_name=None):
    """Check the lists of arrays returned with NumPy and cuarray are equal item by item
    (cuarray version of `cupy.testing.numpy_cupy_array_list_equal`; dtypes are not compared)."""
    def check_func(c, n):
        _array.assert_array_equal(c, n, err_msg, verbose)
    return _make_decorator(check_func, name, False, False, False, sp_name, scipy_name)


def numpy_cupy_raises(name="xp", sp_name=None, scipy_name=None, accept_error=True):
    """Check the body raises with both NumPy and cuarray, and the same kind of error
    (cuarray version of `cupy.testing.numpy_cupy_raises`)."""
    def decorator(impl):
        @_wraps_without(impl, (name, sp_name, scipy_name))
        def test_func(*args, **kw):
            _, c_err, _, n_err = _run_both(impl, args, kw, name, sp_name, scipy_name)
            _check_errors(c_err, n_err, accept_error=accept_error)
        return test_func
    return decorator


# --- repeating a body over values -------------------------------------------------------

def _for_values(name, values, ids):
    """Parametrise `name` over `values` for pytest; loop over them when called directly."""
    values, ids = list(values), list(ids)

    def decorator(impl):
        @functools.wraps(impl)
        def test_func(*args, **kw):
            if name in kw:  # pytest passed one value through the parametrize mark
                return impl(*args, **kw)
            _run_each(impl, args, kw, name, values, ids)

        # pytest only parametrises an argument the signature names without a default.
        sig = inspect.signature(impl)
        params = [p for p in sig.parameters.values() if p.name != name]
        at = next((i for i, p in enumerate(params) if p.kind is p.VAR_KEYWORD), len(params))
        params.insert(at, inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY))
        test_func.__signature__ = sig.replace(parameters=params)
        # Stored by hand (applying the mark as a decorator takes a lambda for a mark
        # argument) and first, so test ids read in decorator order: test_x[float32-C].
        marks = getattr(test_func, "pytestmark", [])
        test_func.pytestmark = [pytest.mark.parametrize(name, values, ids=ids).mark,
                                *(marks if isinstance(marks, list) else [marks])]
        return test_func
    return decorator


def _run_each(impl, args, kw, name, values, ids):
    skipped = None
    for value, label in zip(values, ids):
        try:
            impl(*args, **{**kw, name: value})
        except _SKIPS as e:
            print(f"skipped: {name} = {label} ({e})")
            skipped = skipped or []
            skipped.append(e)
        except Exception as e:
            note = f"cuarray.testing: failed with {name} = {label}"
            if hasattr(e, "add_note"):  # Python >= 3.11; pytest shows notes under the error
                e.add_note(note)
            else:
                print(note)
            raise
    if skipped is not None and len(skipped) == len(values):
        raise skipped[0]


def for_dtypes(dtypes, name="dtype"):
    """Run the test once per dtype in `dtypes`, passing the scalar type (e.g. numpy.float32)
    as `name` (cuarray version of `cupy.testing.for_dtypes`)."""
    types = [numpy.dtype(d).type for d in dtypes]
    return _for_values(name, types, [t.__name__ for t in types])


_complex_dtypes = (numpy.complex64, numpy.complex128)
_regular_float_dtypes = (numpy.float64, numpy.float32)
_float_dtypes = _regular_float_dtypes + (numpy.float16,)
# 'l' and 'q' (and 'L', 'Q') are distinct scalar types even where both are 64-bit.
_signed_dtypes = tuple(numpy.dtype(c).type for c in "bhilq")
_unsigned_dtypes = tuple(numpy.dtype(c).type for c in "BHILQ")
_int_dtypes = _signed_dtypes + _unsigned_dtypes
_int_bool_dtypes = _int_dtypes + (numpy.bool_,)


def _make_all_dtypes(no_float16, no_bool, no_complex):
    return ((_regular_float_dtypes if no_float16 else _float_dtypes)
            + (_int_dtypes if no_bool else _int_bool_dtypes)
            + (() if no_complex else _complex_dtypes))


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False, no_complex=False):
    """Run the test with float64, float32, float16, the signed ints 'bhilq', the unsigned
    'BHILQ', bool, complex64 and complex128 (cuarray version of
    `cupy.testing.for_all_dtypes`); `no_*` drop float16, bool or the complex types."""
    return for_dtypes(_make_all_dtypes(no_float16, no_bool, no_complex), name=name)


def for_float_dtypes(name="dtype", no_float16=False):
    """Run the test with float64, float32 and (unless `no_float16`) float16."""
    return for_dtypes(_regular_float_dtypes if no_float16 else _float_dtypes, name=name)


def for_signed_dtypes(name="dtype"):
    """Run the test with the signed integer types 'bhilq'."""
    return for_dtypes(_signed_dtypes, name=name)


def for_unsigned_dtypes(name="dtype"):
    """Run the test with the unsigned integer types 'BHILQ'."""
    return for_dtypes(_unsigned_dtypes, name=name)


def for_int_dtypes(name="dtype", no_bool=False):
    """Run the test with the signed and unsigned integer types and (unless `no_bool`) bool."""
    return for_dtypes(_int_dtypes if no_bool else _int_bool_dtypes, name=name)


def for_complex_dtypes(name="dtype"):
    """Run the test with complex64 and complex128."""
    return for_dtypes(_complex_dtypes, name=name)


def for_orders(orders, name="order"):
    """Run the test once per memory order in `orders`, passed as `name`
    (cuarray version of `cupy.testing.for_orders`)."""
    orders = list(orders)
    return _for_values(name, orders, [str(o) for o in orders])


def for_CF_orders(name="order"):
    """Run the test with orders None, 'C', 'F', 'c' and 'f' (as CuPy's)."""
    return for_orders([None, "C", "F", "c", "f"], name)


# --- marks ------------------------------------------------------------------------------

def multi_gpu(gpu_num):
    """Mark a test or class as needing `gpu_num` GPUs (cuarray version of
    `cupy.testing.multi_gpu`).

    tests/conftest.py skips it on a machine with fewer devices;
    `CUARRAY_TEST_GPU_LIMIT=n` skips every test needing more than n, as CuPy's
    `CUPY_TEST_GPU_LIMIT` does.
    """
    limit = int(os.environ.get("CUARRAY_TEST_GPU_LIMIT", "-1"))
    marks = (pytest.mark.gpu, pytest.mark.multi_gpu(gpu_num),
             pytest.mark.skipif(0 <= limit < gpu_num,
                                reason=f"{gpu_num} GPUs required, CUARRAY_TEST_GPU_LIMIT={limit}"))

    def decorator(f):
        for mark in marks:
            f = mark(f)
        return f
    return decorator


slow = pytest.mark.slow
