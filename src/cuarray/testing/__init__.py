"""Test helpers with CuPy's `cupy.testing` names: NumPy/cuarray comparison decorators,
dtype and order loops, test arrays and assertions."""
from cuarray.testing._array import (  # noqa: F401
    assert_allclose, assert_array_almost_equal, assert_array_equal, assert_array_less,
    assert_array_list_equal, shaped_arange, shaped_random, shaped_reverse_arange,
)
from cuarray.testing._helpers import (  # noqa: F401
    for_all_dtypes, for_CF_orders, for_complex_dtypes, for_dtypes, for_float_dtypes,
    for_int_dtypes, for_orders, for_signed_dtypes, for_unsigned_dtypes, multi_gpu,
    numpy_cupy_allclose, numpy_cupy_array_equal, numpy_cupy_array_list_equal,
    numpy_cupy_raises, slow,
)
