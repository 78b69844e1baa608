"""`matmul` of two distributed 2-D arrays."""
import numpy

import cuarray
from cuarray._runtime.device import Device
from cuarray.distributed.array import _index
from cuarray.distributed.array._array import DistributedArray, _Chunk, _assign, _on
from cuarray.distributed.array._modes import SUM


def matmul(a, b, out=None):
    """Matrix product of two distributed 2-D arrays (cuarray version of
    `cupyx.distributed.array.matmul`); the result is in SUM mode.

    With both operands in SUM mode every element lives in one chunk, so a @ b is the sum
    over chunk pairs (ca, cb) of ca[:, K] @ cb[K, :], K the columns of ca that are rows of
    cb. Each product runs on ca's device (cb's rows peer-copied there) and becomes a chunk
    covering ca's rows and cb's columns.
    """
    for x in (a, b):
        if not isinstance(x, DistributedArray):
            raise TypeError(f"matmul takes DistributedArrays, got {type(x).__name__}")
        if x.ndim != 2:
            raise ValueError(f"matmul needs 2-D distributed arrays, got {x.ndim}-D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"matmul: mismatch in core dimension ({a.shape} @ {b.shape})")
    sa, sb = a.change_mode(SUM), b.change_mode(SUM)
    dtype = numpy.result_type(a.dtype, b.dtype)
    chunks = {}
    for dev, ca in sa._items():
        for _, cb in sb._items():
            k = _index._intersect1(ca.region[1], cb.region[0])
            if not len(k):
                continue
            kl_a = _index.local((k,), (ca.region[1],))[0]
            kl_b = _index.local((k,), (cb.region[0],))[0]
            with Device(dev):
                right = _on(dev, cb.array[kl_b, :])
                p = cuarray.matmul(ca.array[:, kl_a], right)
            if p.dtype != dtype:
                with Device(dev):
                    p = p.astype(dtype)
            chunks.setdefault(dev, []).append(_Chunk(p, (ca.region[0], cb.region[1])))
    if not chunks:   # no column of a meets a row of b: the product is zero
        dev = next(iter(sa._chunks))
        with Device(dev):
            z = cuarray.zeros((a.shape[0], b.shape[1]), dtype)
        chunks[dev] = [_Chunk(z, (range(a.shape[0]), range(b.shape[1])))]
    res = DistributedArray((a.shape[0], b.shape[1]), dtype, chunks, SUM, a._comms)
    if out is not None:
        _assign(out, res)
        return out
    return res
