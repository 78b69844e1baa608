"""The lazy-import table of cuarray's routines matches what the modules export, and every
top-level name of CuPy 14.2 resolves on cuarray."""
import importlib

import pytest

from cuarray._routines._names import NAMES

# CuPy 14.2's public top-level names (`dir(cupy)` without private names and submodules
# that are implementation details).
CUPY_14_2_NAMES = """
    AxisError ComplexWarning DataSource ElementwiseKernel Inf Infinity
    ModuleDeprecationWarning NAN NINF NZERO NaN PINF PZERO RankWarning RawKernel RawModule
    ReductionKernel TooHardError VisibleDeprecationWarning abs absolute acos acosh add all
    allclose alltrue amax amin angle any append apply_along_axis apply_over_axes arange
    arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort
    argwhere around array array2string array_equal array_equiv array_repr array_split
    array_str asanyarray asarray asarray_chkfinite ascontiguousarray asfarray asfortranarray
    asin asinh asnumpy astype atan atan2 atanh atleast_1d atleast_2d atleast_3d average
    bartlett base_repr binary_repr bincount bitwise_and bitwise_count bitwise_invert
    bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman bool
    bool_ broadcast broadcast_arrays broadcast_shapes broadcast_to byte byte_bounds c_
    can_cast cbrt cdouble ceil cfloat choose clear_memo clip column_stack common_type
    complex128 complex64 complex_ complexfloating compress concat concatenate conj conjugate
    convolve copy copysign copyto corrcoef correlate cos cosh count_nonzero cov cross
    csingle cuda cumprod cumproduct cumsum cumulative_prod cumulative_sum deg2rad degrees
    delete diag diag_indices diag_indices_from diagflat diagonal diff digitize
    disable_experimental_feature_warning disp divide divmod dot double dsplit dstack dtype e
    ediff1d einsum empty empty_like equal euler_gamma exceptions exp exp2 expand_dims expm1
    extract eye fabs fft fill_diagonal find_common_type finfo fix flatiter flatnonzero flip
    fliplr flipud float16 float32 float64 float_ float_power floating floor floor_divide
    fmax fmin fmod format_float_positional format_float_scientific format_parser frexp
    fromDlpack from_dlpack frombuffer fromfile fromfunction fromiter fromstring full
    full_like fuse gcd generic genfromtxt get_array_module get_array_wrap
    get_default_memory_pool get_default_pinned_memory_pool get_printoptions gradient greater
    greater_equal half hamming hanning heaviside histogram histogram2d histogramdd hsplit
    hstack hypot i0 identity iinfo imag in1d index_exp indices inexact inf infty inner int16
    int32 int64 int8 int_ intc integer interp intersect1d intp invert is_available isclose
    iscomplex iscomplexobj isdtype isfinite isfortran isin isinf isnan isneginf isposinf
    isreal isrealobj isscalar issctype issubclass_ issubdtype issubsctype iterable ix_
    kaiser kron lcm ldexp left_shift less less_equal lexsort linalg linspace load loadtxt
    log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor
    logspace long longlong make_aligned_dtype mask_indices matmul matrix_transpose max
    maximum may_share_memory mean median memoize meshgrid mgrid min min_scalar_type minimum
    mintypecode mod modf moveaxis msort multiply nan nan_to_num nanargmax nanargmin
    nancumprod nancumsum nanmax nanmean nanmedian nanmin nanprod nanstd nansum nanvar
    ndarray ndim ndindex negative newaxis nextafter nonzero not_equal number obj2sctype
    ogrid ones ones_like outer packbits pad partition percentile permute_dims pi piecewise
    place poly poly1d polyadd polyfit polymul polynomial polysub polyval positive pow power
    printoptions prod product promote_types ptp put put_along_axis putmask quantile r_
    rad2deg radians random ravel ravel_multi_index real real_if_close reciprocal remainder
    repeat require reshape resize result_type right_shift rint roll rollaxis roots rot90
    round round_ row_stack s_ safe_eval save savetxt savez savez_compressed sctype2char
    searchsorted select set_printoptions set_string_function setdiff1d setxor1d shape
    shares_memory short show_config sign signbit signedinteger sin sinc single singlecomplex
    sinh size sometrue sort sort_complex split sqrt square squeeze stack std subtract sum
    swapaxes take take_along_axis tan tanh tensordot testing tile trace transpose trapezoid
    trapz tri tril tril_indices tril_indices_from trim_zeros triu triu_indices
    triu_indices_from true_divide trunc typename ubyte ufunc uint uint16 uint32 uint64 uint8
    uintc uintp ulong ulonglong union1d unique unique_all unique_counts unique_inverse
    unique_values unpackbits unravel_index unsignedinteger unwrap ushort vander var vdot
    vectorize vsplit vstack where who zeros zeros_like
""".split()

# Left out, with the reason (none at present).
NOT_PROVIDED = set()


def test_table_matches_modules_all():
    by_module = {}
    for name, mod in NAMES.items():
        by_module.setdefault(mod, set()).add(name)
    for mod, names in by_module.items():
        assert set(importlib.import_module(f"cuarray._routines.{mod}").__all__) == names, mod


def test_names_resolve_on_the_package():
    import cuarray
    for name, mod in NAMES.items():
        assert getattr(cuarray, name) is not None, name


def test_every_cupy_name_resolves():
    import cuarray
    missing = [n for n in CUPY_14_2_NAMES if n not in NOT_PROVIDED and not hasattr(cuarray, n)]
    assert missing == []


def test_unknown_attribute_is_attribute_error():
    import cuarray
    assert not hasattr(cuarray, "no_such_name_at_all")
    with pytest.raises(AttributeError, match="no_such_name_at_all"):
        cuarray.no_such_name_at_all
    for sub in ("lib", "polynomial", "exceptions", "linalg", "fft", "random", "testing"):
        assert hasattr(cuarray, sub), sub
    assert cuarray.lib.stride_tricks.as_strided is not None
    assert cuarray.polynomial.polynomial.polyvander is not None
    assert cuarray.polynomial.polyutils.trimseq is not None


def test_numpy1_aliases_and_constants():
    import numpy
    import cuarray
    assert cuarray.Inf == cuarray.PINF == cuarray.Infinity == cuarray.infty == numpy.inf
    assert cuarray.NINF == -numpy.inf and numpy.isnan(cuarray.NaN) and numpy.isnan(cuarray.NAN)
    assert cuarray.PZERO == 0.0 and numpy.signbit(cuarray.NZERO)
    assert cuarray.float_ is numpy.float64 and cuarray.complex_ is numpy.complex128
    assert cuarray.cfloat is numpy.complex128 and cuarray.singlecomplex is numpy.complex64
    assert cuarray.long is numpy.long and cuarray.ulong is numpy.ulong
    assert cuarray.alltrue is cuarray.all and cuarray.sometrue is cuarray.any
    assert cuarray.cumproduct is cuarray.cumprod and cuarray.product is cuarray.prod
    assert cuarray.asanyarray is cuarray.asarray
    assert cuarray.AxisError is numpy.exceptions.AxisError
    assert cuarray.exceptions.RankWarning is numpy.exceptions.RankWarning
    for name in ("find_common_type", "set_string_function", "get_array_wrap", "disp", "safe_eval"):
        with pytest.raises(RuntimeError, match="removed in NumPy v2"):
            getattr(cuarray, name)()


def test_dtype_helpers_of_numpy1():
    import numpy
    import cuarray
    assert cuarray.issubclass_(numpy.int8, numpy.integer) and not cuarray.issubclass_(1, int)
    assert cuarray.obj2sctype("f4") is numpy.float32 and cuarray.obj2sctype(object()) is None
    assert cuarray.obj2sctype(numpy.zeros(2, "i2")) is numpy.int16
    assert cuarray.issubsctype("i4", numpy.signedinteger)
    assert cuarray.sctype2char(numpy.float64) == "d"
    with pytest.raises(ValueError, match="unrecognized type"):
        cuarray.sctype2char(object())
    assert cuarray.issctype(numpy.int32) and not cuarray.issctype(numpy.object_)
    assert not cuarray.issctype(1)
    assert cuarray.mintypecode("if") == numpy.mintypecode("if")
    assert cuarray.typename("d") == numpy.typename("d")
    assert cuarray.isdtype(numpy.dtype("i4"), "integral")


def test_typing_module():
    import typing

    import numpy
    import cuarray
    import cuarray.typing as ct
    assert ct.ArrayLike is numpy.typing.ArrayLike and ct.DTypeLike is numpy.typing.DTypeLike
    assert typing.get_origin(ct.NDArray) is cuarray.ndarray
    alias = ct.NDArray[numpy.float32]
    assert typing.get_args(alias)[1] == numpy.dtype[numpy.float32]
    assert cuarray.typing is ct
