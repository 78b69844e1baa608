"""Kernel argument packing and marshalling (CPU) and launches (GPU)."""
import ctypes
import struct

import numpy
import pytest

from cuarray._runtime.launch import ArgPacker
from cuarray._core.raw import _marshal


def _params(packer, n):
    base = ctypes.addressof(packer._buf)
    return [packer._ptrs[i] - base for i in range(n)]


def test_packer_alignment_and_values():
    p = ArgPacker(("b", "d", "P", "e", "F", "D", "?", ("s", 12, 4)))
    addr = p.pack([3, 2.5, 0x1234, 1.5, 1.0, 2.0, 3.0, 4.0, True, b"abcdefghijkl"])
    assert addr == ctypes.addressof(p._ptrs)
    offs = _params(p, 8)
    assert offs == [0, 8, 16, 24, 32, 48, 64, 68]
    raw = bytes(p._buf)
    assert struct.unpack_from("<d", raw, 8)[0] == 2.5
    assert struct.unpack_from("<Q", raw, 16)[0] == 0x1234
    assert struct.unpack_from("<e", raw, 24)[0] == 1.5
    assert struct.unpack_from("<ff", raw, 32) == (1.0, 2.0)
    assert struct.unpack_from("<dd", raw, 48) == (3.0, 4.0)
    assert raw[68:80] == b"abcdefghijkl"


def test_packer_per_thread_buffers():
    import threading
    p = ArgPacker(("i",))
    seen = []
    t = threading.Thread(target=lambda: seen.append(p.pack([5])))
    t.start()
    t.join()
    assert seen[0] != p.pack([6])


def test_marshal_rules():
    kinds, vals = _marshal((numpy.float32(1), numpy.int8(2), 3, 4.0, True, 1 + 2j, numpy.complex64(3j), None))
    assert kinds == ("f", "b", "q", "d", "?", "D", "F", "P")
    assert vals == [1.0, 2, 3, 4.0, True, 1.0, 2.0, 0.0, 3.0, 0]


def test_marshal_struct():
    dt = numpy.dtype([("a", numpy.int32), ("b", numpy.float64)], align=True)
    s = numpy.zeros((), dt)[()]
    kinds, vals = _marshal((s,))
    assert kinds == (("s", 16, 8),) and vals == [s.tobytes()]


@pytest.mark.parametrize("bad", ["x", [1, 2], numpy.zeros(3), object()])
def test_marshal_refuses(bad):
    with pytest.raises(TypeError, match="unsupported type"):
        _marshal((bad,))
