"""cuSOLVER dense handles: one per (device, thread), bound to the current stream at every use.

Each handle carries the objects its calls need: a `cusolverDnParams_t` for the 64-bit
generic API (Xgetrf, Xpotrf, Xsyevd, Xgesvd, Xgesvdp, Xgeev, ...) and the Jacobi
parameter objects for syevj/gesvdj (default tolerance, sorted results).
"""
from nvmath.bindings import cusolverDn
from nvmath.bindings import cusolverDn as lib  # noqa: F401  (the typed functions, for callers)

from cuarray._libs._handles import PerThread

EIG_NOVECTOR, EIG_VECTOR = 0, 1


class Solver:
    """A cuSOLVER handle and its parameter objects."""

    __slots__ = ("ptr", "params", "syevj", "gesvdj")

    def __init__(self):
        self.ptr = cusolverDn.create()
        self.params = cusolverDn.create_params()
        self.syevj = cusolverDn.create_syevj_info()
        self.gesvdj = cusolverDn.create_gesvdj_info()
        # NumPy's orders: eigenvalues ascending, singular values descending.
        cusolverDn.xsyevj_set_sort_eig(self.syevj, 1)
        cusolverDn.xgesvdj_set_sort_eig(self.gesvdj, 1)


_solvers = PerThread(Solver, lambda solver, s: cusolverDn.set_stream(solver.ptr, s))


def get_solver(purpose=None):
    """The `Solver` of this thread and the current device, on the current stream.

    `purpose` names a separate handle: Xgesvdp gets its own (on an H100 it raised
    INTERNAL_ERROR on a handle that had run other solvers, and succeeded on a fresh one).
    """
    return _solvers.get(purpose)


def missing_function_error():
    """The exception nvmath raises when the loaded library lacks a symbol."""
    from nvmath.bindings._internal.utils import FunctionNotFoundError
    return FunctionNotFoundError
