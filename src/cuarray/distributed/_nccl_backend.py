"""`NCCLBackend`: CuPy's `cupyx.distributed.NCCLBackend` on cuarray.cuda.nccl.

One process per GPU. Rank 0 makes the NCCL unique id and shares it through the group's
TCP store; every rank then builds its communicator on its current device. Collectives
run on the given stream (default: the current stream) and return at once, as NCCL's do.
"""
from cuarray._core.ndarray import ndarray
from cuarray._runtime import stream as _stream
from cuarray._runtime.device import get_device_id
from cuarray.distributed._store import TCPStore

# NCCL's data types (ncclDataType_t) for NumPy's type characters, CuPy's table. Complex
# numbers travel as pairs of reals (sums only).
_NCCL_TYPE = {"b": 0, "B": 1, "i": 2, "I": 3, "l": 4, "q": 4, "L": 5, "Q": 5,
              "e": 6, "f": 7, "d": 8, "F": 7, "D": 8}
_NCCL_OP = {"sum": 0, "prod": 1, "max": 2, "min": 3}


def _dtype_and_count(array, op=None):
    ch = array.dtype.char
    code = _NCCL_TYPE.get(ch)
    if code is None:
        raise TypeError(f"Unknown dtype {array.dtype} for NCCL")
    count = array.size
    if ch in "FD":
        if op not in (None, "sum"):
            raise ValueError(f"op {op!r} is not defined for complex arrays (only 'sum' is)")
        count *= 2
    return code, count


def _op(op):
    try:
        return _NCCL_OP[op]
    except (KeyError, TypeError):   # CuPy raises RuntimeError here
        raise RuntimeError(f"Unknown op {op!r} for NCCL: expected one of "
                           f"{sorted(_NCCL_OP)}") from None


def _check(*arrays):
    for a in arrays:
        if not isinstance(a, ndarray):
            raise TypeError(f"NCCLBackend takes cuarray arrays, got {type(a).__name__}")
        if not (a._c_contig or a._f_contig):   # CuPy raises RuntimeError here
            raise RuntimeError("NCCL requires arrays to be either c- or f-contiguous; use "
                               "cuarray.ascontiguousarray(x)")
        if a._device_id != get_device_id():
            raise ValueError(f"an array on device {a._device_id} was given to a collective "
                             f"on device {get_device_id()}")


def _sptr(stream):
    return _stream.current_stream_ptr() if stream is None else stream.ptr


class NCCLBackend:
    """Collectives over NCCL between processes (cuarray version of
    `cupyx.distributed.NCCLBackend`); MPI rendezvous (`use_mpi=True`) is not offered."""

    def __init__(self, n_devices, rank, host="127.0.0.1", port=13333, use_mpi=False):
        from cuarray.cuda import nccl
        if use_mpi:
            raise ValueError("use_mpi=True needs MPI, which cuarray does not use; rendezvous "
                             "goes through the TCP store (use_mpi=False)")
        if not isinstance(n_devices, int) or n_devices < 1:
            raise ValueError(f"n_devices must be a positive int, got {n_devices!r}")
        if not isinstance(rank, int) or not 0 <= rank < n_devices:
            raise ValueError(f"rank must be in 0..{n_devices - 1}, got {rank!r}")
        if not nccl.available:   # before the rendezvous, where the other ranks would wait
            raise RuntimeError("NCCL is not available: install nccl4py and the NCCL wheel of "
                               "your CUDA (pip install cuarray[nccl] nvidia-nccl-cu12 or -cu13)")
        self._n_devices = n_devices
        self.rank = rank
        self._store = TCPStore(host, port, rank, n_devices)
        if rank == 0:
            self._store.set("nccl_id", list(nccl.get_unique_id()))
        uid = self._store.get("nccl_id")
        self._comm = nccl.NcclCommunicator(n_devices, tuple(uid), rank)

    # -- point-to-point and collectives ----------------------------------------------------
    def all_reduce(self, in_array, out_array, op="sum", stream=None):
        _check(in_array, out_array)
        self._same(in_array, out_array)
        dt, count = _dtype_and_count(in_array, op)
        self._comm.allReduce(in_array.data.ptr, out_array.data.ptr, count, dt, _op(op),
                             _sptr(stream))

    def reduce(self, in_array, out_array, root=0, op="sum", stream=None):
        _check(in_array, out_array)
        self._root(root)
        self._same(in_array, out_array)
        dt, count = _dtype_and_count(in_array, op)
        self._comm.reduce(in_array.data.ptr, out_array.data.ptr, count, dt, _op(op), root,
                          _sptr(stream))

    def broadcast(self, in_out_array, root=0, stream=None):
        _check(in_out_array)
        self._root(root)
        dt, count = _dtype_and_count(in_out_array)
        ptr = in_out_array.data.ptr
        self._comm.broadcast(ptr, ptr, count, dt, root, _sptr(stream))

    def reduce_scatter(self, in_array, out_array, count, op="sum", stream=None):
        """Reduce `in_array` (n_devices * count elements) over the ranks; rank r gets the
        r-th block of `count` elements in `out_array`."""
        _check(in_array, out_array)
        self._sizes(in_array, count * self._n_devices, out_array, count)
        dt, _ = _dtype_and_count(in_array, op)
        scale = 2 if in_array.dtype.kind == "c" else 1
        self._comm.reduceScatter(in_array.data.ptr, out_array.data.ptr, count * scale, dt,
                                 _op(op), _sptr(stream))

    def all_gather(self, in_array, out_array, count, stream=None):
        """Every rank's `count` elements of `in_array`, in rank order, into `out_array`."""
        _check(in_array, out_array)
        self._sizes(in_array, count, out_array, count * self._n_devices)
        dt, _ = _dtype_and_count(in_array)
        scale = 2 if in_array.dtype.kind == "c" else 1
        self._comm.allGather(in_array.data.ptr, out_array.data.ptr, count * scale, dt,
                             _sptr(stream))

    def send(self, array, peer, stream=None):
        _check(array)
        self._peer(peer)
        dt, count = _dtype_and_count(array)
        self._comm.send(array.data.ptr, count, dt, peer, _sptr(stream))

    def recv(self, out_array, peer, stream=None):
        _check(out_array)
        self._peer(peer)
        dt, count = _dtype_and_count(out_array)
        self._comm.recv(out_array.data.ptr, count, dt, peer, _sptr(stream))

    def send_recv(self, in_array, out_array, peer, stream=None):
        """Send `in_array` to `peer` and receive `out_array` from it, in one NCCL group."""
        _check(in_array, out_array)
        self._peer(peer)
        from cuarray.cuda import nccl
        s = _sptr(stream)
        dts, ns = _dtype_and_count(in_array)
        dtr, nr = _dtype_and_count(out_array)
        nccl.groupStart()
        try:
            self._comm.send(in_array.data.ptr, ns, dts, peer, s)
            self._comm.recv(out_array.data.ptr, nr, dtr, peer, s)
        finally:
            nccl.groupEnd()

    def scatter(self, in_array, out_array, root=0, stream=None):
        """Rank r receives `in_array[r]` of the root (in_array: shape (n_devices, ...))."""
        self._rooted(in_array, out_array, root, stream, to_root=False)

    def gather(self, in_array, out_array, root=0, stream=None):
        """The root's `out_array[r]` receives rank r's `in_array`."""
        self._rooted(out_array, in_array, root, stream, to_root=True)

    def _rooted(self, blocks, piece, root, stream, to_root):
        """Scatter (root's `blocks[r]` to rank r's `piece`) or, with `to_root`, gather."""
        _check(piece)
        self._root(root)
        from cuarray.cuda import nccl
        s = _sptr(stream)
        dt, n = _dtype_and_count(piece)
        at_root = self.rank == root
        if at_root:
            _check(blocks)
            self._blocks(blocks, piece)
        nccl.groupStart()
        try:
            if to_root:
                self._comm.send(piece.data.ptr, n, dt, root, s)
            if at_root:
                move = self._comm.recv if to_root else self._comm.send
                step = piece.nbytes
                for r in range(self._n_devices):
                    move(blocks.data.ptr + r * step, n, dt, r, s)
            if not to_root:
                self._comm.recv(piece.data.ptr, n, dt, root, s)
        finally:
            nccl.groupEnd()

    def all_to_all(self, in_array, out_array, stream=None):
        """Rank r sends `in_array[p]` to rank p and receives rank p's block r in
        `out_array[p]` (both of shape (n_devices, ...))."""
        _check(in_array, out_array)
        self._same(in_array, out_array)
        if in_array.ndim == 0 or in_array.shape[0] != self._n_devices:
            raise ValueError(f"all_to_all needs arrays whose first axis is n_devices "
                             f"({self._n_devices}), got shape {in_array.shape}")
        from cuarray.cuda import nccl
        s = _sptr(stream)
        dt, n = _dtype_and_count(in_array[0])
        step = in_array.nbytes // self._n_devices
        nccl.groupStart()
        try:
            for r in range(self._n_devices):
                self._comm.send(in_array.data.ptr + r * step, n, dt, r, s)
                self._comm.recv(out_array.data.ptr + r * step, n, dt, r, s)
        finally:
            nccl.groupEnd()

    def barrier(self):
        """Wait until every rank has reached this point (through the TCP store)."""
        self._store.barrier()

    def stop(self):
        """Destroy the communicator and close the store (rank 0 shuts its server down)."""
        if self._comm is not None:
            self._comm.destroy()
            self._comm = None
        self._store.stop()

    # -- argument checks -------------------------------------------------------------------
    def _root(self, root):
        if not isinstance(root, int) or not 0 <= root < self._n_devices:
            raise ValueError(f"root must be a rank in 0..{self._n_devices - 1}, got {root!r}")

    def _peer(self, peer):
        if not isinstance(peer, int) or not 0 <= peer < self._n_devices:
            raise ValueError(f"peer must be a rank in 0..{self._n_devices - 1}, got {peer!r}")

    @staticmethod
    def _same(a, b):
        if a.dtype != b.dtype or a.size != b.size:
            raise ValueError(f"input ({a.dtype}, {a.size} elements) and output ({b.dtype}, "
                             f"{b.size} elements) must match")

    @staticmethod
    def _sizes(a, na, b, nb):
        if a.dtype != b.dtype:
            raise ValueError(f"input dtype {a.dtype} and output dtype {b.dtype} differ")
        if a.size < na or b.size < nb:
            raise ValueError(f"arrays too small: input holds {a.size} elements (needs {na}), "
                             f"output {b.size} (needs {nb})")

    def _blocks(self, whole, part):
        if whole.dtype != part.dtype or whole.size != part.size * self._n_devices:
            raise ValueError(f"the root's array ({whole.dtype}, {whole.size} elements) must "
                             f"hold n_devices ({self._n_devices}) blocks like ({part.dtype}, "
                             f"{part.size} elements)")
