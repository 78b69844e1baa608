"""CuPy's `cupy.cuda.nccl`: NCCL communicators over nccl4py (an optional dependency).

`get_unique_id()` gives the id one rank makes and shares; every rank then builds
`NcclCommunicator(nranks, uid, rank)` on its own device (or one process builds one per
device with `NcclCommunicator.initAll(devices)`) and calls the collectives with device
pointers (ints, or cuarray arrays), an element count, an `NCCL_*` data type, an `NCCL_*`
reduction and a stream handle (an int or a Stream), as in CuPy. Calls from one thread to
several communicators go between `groupStart()` and `groupEnd()`. `available` tells
whether NCCL can be loaded.
"""
from cuarray._libs import nccl as _nccl
from cuarray._runtime.device import Device, ensure_context, get_device_id

NCCL_INT8 = NCCL_CHAR = 0
NCCL_UINT8 = 1
NCCL_INT32 = NCCL_INT = 2
NCCL_UINT32 = 3
NCCL_INT64 = 4
NCCL_UINT64 = 5
NCCL_FLOAT16 = NCCL_HALF = 6
NCCL_FLOAT32 = NCCL_FLOAT = 7
NCCL_FLOAT64 = NCCL_DOUBLE = 8
NCCL_BFLOAT16 = 9
NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN, NCCL_AVG = 0, 1, 2, 3, 4


def __getattr__(name):
    if name == "available":
        return _nccl.available()
    if name == "NcclError":
        return _nccl.lib().NCCLError
    raise AttributeError(f"module 'cuarray.cuda.nccl' has no attribute {name!r}")


def get_unique_id():
    """A new NCCL unique id: a tuple of 128 ints to send to the other ranks."""
    return _nccl.unique_id_bytes(_nccl.lib().get_unique_id())


def get_version():
    """cuarray version of `cupy.cuda.nccl.get_version`."""
    return int(_nccl.lib().get_version())


def get_build_version():
    """The NCCL version nccl4py loads (it is not built against one)."""
    return get_version()


def groupStart():
    """cuarray version of `cupy.cuda.nccl.groupStart`."""
    _nccl.lib().group_start()


def groupEnd():
    """cuarray version of `cupy.cuda.nccl.groupEnd`."""
    _nccl.lib().group_end()


def _ptr(x):
    """A device address or stream handle from an int, a cuarray array, a MemoryPointer or a
    Stream (CuPy takes ints only)."""
    if isinstance(x, int):
        return x
    data = getattr(x, "data", None)
    if data is not None and hasattr(data, "ptr"):
        return data.ptr
    ptr = getattr(x, "ptr", None)
    return int(ptr) if ptr is not None else int(x)


class NcclCommunicator:
    """One rank of an NCCL communicator on the current device (cuarray version of
    `cupy.cuda.nccl.NcclCommunicator`)."""

    def __init__(self, ndev, commId, rank):
        if not 0 <= rank < ndev:
            raise ValueError(f"rank {rank} is outside 0..{ndev - 1}")
        ensure_context()
        self._lib = _nccl.lib()
        uid, self._uid_data = _nccl.unique_id_from(commId)
        self._handle = _nccl.init_rank(ndev, uid, rank)  # what the bindings' calls take
        self._comm = int(self._handle)
        self._device = get_device_id()

    @staticmethod
    def initAll(devices):
        """One communicator per device of this process (ncclCommInitAll): `devices` is a
        count n (devices 0..n-1) or a list of device ids; rank i runs on devices[i]."""
        if isinstance(devices, int):
            devices = list(range(devices))
        devices = [int(d) for d in devices]
        if not devices:
            raise ValueError("initAll needs at least one device")
        if len(set(devices)) != len(devices):
            raise ValueError(f"initAll was given a device twice: {devices}")
        for d in devices:
            with Device(d):
                ensure_context()
        comms = []
        for d, handle in zip(devices, _nccl.init_all(devices)):
            c = NcclCommunicator.__new__(NcclCommunicator)
            c._lib, c._uid_data, c._device = _nccl.lib(), None, d
            c._handle, c._comm = handle, int(handle)
            comms.append(c)
        return comms

    @property
    def comm(self):
        """The ncclComm_t handle as an int (0 once destroyed)."""
        return self._comm

    def _c(self):
        if not self._comm:
            raise RuntimeError("this NcclCommunicator was destroyed")
        return self._handle

    def destroy(self):
        if self._comm:
            self._lib.comm_destroy(self._handle)
            self._comm, self._handle = 0, None

    def abort(self):
        if self._comm:
            self._lib.comm_abort(self._handle)
            self._comm, self._handle = 0, None

    def __del__(self):
        # A constructor that failed before NCCL made the comm leaves nothing to destroy.
        if getattr(self, "_handle", None) is None:
            return
        try:
            self.destroy()
        except Exception:
            pass

    def device_id(self):
        return int(self._lib.comm_cu_device(self._c()))

    def rank_id(self):
        return int(self._lib.comm_user_rank(self._c()))

    def size(self):
        return int(self._lib.comm_count(self._c()))

    def check_async_error(self):
        err = int(self._lib.comm_get_async_error(self._c()))
        if err:
            raise self._lib.NCCLError(err)

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        self._lib.all_reduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, self._c(),
                             _ptr(stream))

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        self._lib.reduce(_ptr(sendbuf), _ptr(recvbuf), count, datatype, op, root, self._c(),
                         _ptr(stream))

    def broadcast(self, sendbuf, recvbuf, count, datatype, root, stream):
        self._lib.broadcast(_ptr(sendbuf), _ptr(recvbuf), count, datatype, root, self._c(),
                            _ptr(stream))

    def bcast(self, buff, count, datatype, root, stream):
        self._lib.bcast(_ptr(buff), count, datatype, root, self._c(), _ptr(stream))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        self._lib.reduce_scatter(_ptr(sendbuf), _ptr(recvbuf), recvcount, datatype, op,
                                 self._c(), _ptr(stream))

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        self._lib.all_gather(_ptr(sendbuf), _ptr(recvbuf), count, datatype, self._c(),
                             _ptr(stream))

    def send(self, sendbuf, count, datatype, peer, stream):
        self._lib.send(_ptr(sendbuf), count, datatype, peer, self._c(), _ptr(stream))

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._lib.recv(_ptr(recvbuf), count, datatype, peer, self._c(), _ptr(stream))
