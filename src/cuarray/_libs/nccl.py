"""NCCL through nccl4py's low-level bindings (`nccl.bindings.nccl`), an optional dependency.

Install `nccl4py` and an NCCL runtime wheel (`nvidia-nccl-cu12` or `nvidia-nccl-cu13`);
without them `available()` is False and the calls raise ImportError naming what to install.
"""
import ctypes

_n = None
_why = None


def lib():
    global _n, _why
    if _n is None:
        try:
            from nccl.bindings import nccl
        except ImportError as e:
            _why = e
            raise ImportError(
                "NCCL is not available: install nccl4py and an NCCL wheel (pip install "
                "nccl4py nvidia-nccl-cu13, or nvidia-nccl-cu12 with CUDA 12)") from e
        _n = nccl
    return _n


def available():
    try:
        lib()
    except ImportError:
        return False
    return True


def unique_id_bytes(uid):
    """The 128 bytes of an ncclUniqueId, as CuPy gives them: a tuple of signed ints."""
    raw = ctypes.string_at(uid.ptr, 128)
    return tuple(b - 256 if b > 127 else b for b in raw)


def unique_id_from(values):
    """An ncclUniqueId holding the 128 values of `get_unique_id()`."""
    import numpy
    n = lib()
    values = tuple(values)
    if len(values) != 128:
        raise ValueError(f"an NCCL unique id has 128 entries, got {len(values)}")
    data = numpy.zeros(1, dtype=n.unique_id_dtype)
    data["internal"][0] = numpy.array(values, dtype=numpy.int64).astype(numpy.int8)
    return n.UniqueId.from_data(data), data


def init_all(devices):
    """ncclCommInitAll over the device ids `devices`; the comms as the objects the
    bindings' calls take (see `as_comm`)."""
    return [as_comm(h) for h in lib().comm_init_all(len(devices), list(devices))]


def init_rank(nranks, uid, rank):
    """ncclCommInitRank; the comm as the object the bindings' calls take."""
    n = lib()
    try:
        c = n.comm_init_rank(nranks, uid, rank)
    except TypeError:  # bindings that take the struct's address instead of the object
        c = n.comm_init_rank(nranks, uid.ptr, rank)
    return as_comm(c)


def as_comm(handle):
    """`handle` (an int ncclComm_t or the bindings' comm) as what the bindings' calls
    take: nccl4py's typed `Comm` wrapper (it does not convert ints itself, and does not
    destroy the comm when collected), or the int where the bindings have no such type."""
    n = lib()
    kind = getattr(n, "Comm", None)
    if kind is None:
        return int(handle)
    return handle if isinstance(handle, kind) else kind(int(handle))
