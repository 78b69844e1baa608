"""cuarray version of `cupy.polynomial`: the `polynomial` (power series, lowest degree
first) and `polyutils` modules."""
from cuarray.polynomial import polynomial  # noqa: F401
from cuarray.polynomial import polyutils  # noqa: F401
