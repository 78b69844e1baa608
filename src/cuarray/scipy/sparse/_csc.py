"""Compressed Sparse Column format (cuarray version of `scipy.sparse.csc_matrix` and
`scipy.sparse.csc_array`)."""
from cuarray.scipy.sparse._base import format_classes
from cuarray.scipy.sparse._compressed import _compressed_matrix


class _csc_base(_compressed_matrix):
    """What csc_matrix and csc_array share: the constructors of CSR, with `indptr` over
    columns and `indices` holding row indices. Products with dense operands run on
    cuSPARSE's CSC support (float and complex values) or through CSR (other dtypes)."""

    format = "csc"
    _major = 1


csc_matrix, csc_array = format_classes(_csc_base)
