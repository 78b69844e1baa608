"""cuarray.scipy.linalg: SciPy's dense linear algebra on the GPU (cuarray version of
`scipy.linalg` / `cupyx.scipy.linalg`), on cuBLAS and cuSOLVER."""
from cuarray.scipy.linalg._decomp import eigh, norm, pinv, qr, svd  # noqa: F401
from cuarray.scipy.linalg._expm import expm  # noqa: F401
from cuarray.scipy.linalg._matrix_builders import (  # noqa: F401
    bandwidth, companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard,
    helmert, hilbert, khatri_rao, leslie)
from cuarray.scipy.linalg._solve import (  # noqa: F401
    cho_factor, cho_solve, det, inv, lu, lu_factor, lu_solve, solve, solve_triangular)
from cuarray.scipy.linalg._special_matrices import (  # noqa: F401
    block_diag, circulant, hankel, kron, toeplitz)
from cuarray.scipy.linalg._util import LinAlgError, LinAlgWarning  # noqa: F401
from cuarray.scipy.fft._backend import protocol as _protocol

# SciPy's uarray protocol, as CuPy offers it (domain "numpy.scipy.linalg")
__ua_domain__ = "numpy.scipy.linalg"
__ua_function__, __ua_convert__ = _protocol("cuarray.scipy.linalg")

__all__ = ["solve", "solve_triangular", "lu_factor", "lu_solve", "lu", "cho_factor",
           "cho_solve", "inv", "det", "norm", "pinv", "svd", "qr", "eigh", "block_diag", "kron",
           "toeplitz", "circulant", "hankel", "expm", "LinAlgError", "LinAlgWarning",
           "bandwidth", "companion", "convolution_matrix", "dft", "fiedler",
           "fiedler_companion", "hadamard", "helmert", "hilbert", "khatri_rao", "leslie"]
