"""Bad input across the public API raises what NumPy raises (the same exception class, or
a subclass), with a message that names the problem. One table, run for NumPy and cuarray
with the same arguments."""
import numpy
import pytest

import cuarray

pytestmark = pytest.mark.gpu


def _a(xp, shape=(3, 4), dtype="float32"):
    return xp.arange(int(numpy.prod(shape)), dtype=dtype).reshape(shape)


# (id, call taking xp, words the message must contain (any of them))
CASES = [
    ("reshape size", lambda xp: _a(xp).reshape(5, 5), ("reshape", "size")),
    ("reshape two -1", lambda xp: _a(xp).reshape(-1, -1), ("unknown", "-1")),
    ("sum axis", lambda xp: _a(xp).sum(axis=2), ("axis",)),
    ("sum axis negative", lambda xp: _a(xp).sum(axis=-3), ("axis",)),
    ("sum repeated axis", lambda xp: _a(xp).sum(axis=(0, 0)), ("repeated", "duplicate")),
    ("transpose axes", lambda xp: _a(xp).transpose(0, 0), ("repeated", "axes", "permutation")),
    ("broadcast add", lambda xp: _a(xp) + _a(xp, (4, 3)), ("broadcast",)),
    ("matmul shapes", lambda xp: _a(xp) @ _a(xp), ("mismatch", "shape", "match", "matmul")),
    ("matmul 0-d", lambda xp: xp.matmul(xp.float32(1), _a(xp)), ("scalar", "0", "dimension")),
    ("index too many", lambda xp: _a(xp)[0, 0, 0], ("too many indices",)),
    ("index out of range", lambda xp: _a(xp)[5], ("out of bounds", "out of range")),
    ("index float", lambda xp: _a(xp)[1.5], ("integer", "index")),
    ("bool mask shape", lambda xp: _a(xp)[xp.ones(5, dtype=bool)], ("boolean", "dimension", "match", "shape")),
    ("concatenate ndim", lambda xp: xp.concatenate([_a(xp), _a(xp, (12,))]), ("dimension", "ndim")),
    ("concatenate shape", lambda xp: xp.concatenate([_a(xp), _a(xp, (4, 3))], axis=0), ("dimension", "match", "shape")),
    ("stack shapes", lambda xp: xp.stack([_a(xp), _a(xp, (4, 3))]), ("same shape", "shape")),
    ("zeros negative", lambda xp: xp.zeros(-1), ("negative",)),
    ("dtype unknown", lambda xp: xp.zeros(3, dtype="float99"), ("float99", "data type", "dtype")),
    ("astype casting", lambda xp: _a(xp).astype("int32", casting="safe"), ("cast",)),
    ("ufunc casting out", lambda xp: xp.add(_a(xp), 1.5, out=_a(xp, dtype="int32")), ("cast",)),
    ("ufunc out shape", lambda xp: xp.add(_a(xp), 1, out=_a(xp, (4, 3))), ("shape", "broadcast")),
    ("ufunc wrong nargs", lambda xp: xp.add(_a(xp)), ("argument", "input")),
    ("bitwise on float", lambda xp: xp.bitwise_and(_a(xp), _a(xp)), ("bitwise_and", "not supported")),
    ("linalg non-square", lambda xp: xp.linalg.inv(_a(xp)), ("square",)),
    ("linalg 1-d", lambda xp: xp.linalg.det(_a(xp, (4,))), ("dimension", "at least two")),
    ("cholesky not square", lambda xp: xp.linalg.cholesky(_a(xp)), ("square",)),
    ("split unequal", lambda xp: xp.split(_a(xp, (10,)), 3), ("equal division",)),
    ("repeat negative", lambda xp: xp.repeat(_a(xp, (3,)), -1), ("negative",)),
    ("take axis", lambda xp: xp.take(_a(xp), [0], axis=5), ("axis",)),
    ("sort axis", lambda xp: xp.sort(_a(xp), axis=3), ("axis",)),
    ("argmax empty", lambda xp: xp.argmax(xp.zeros(0)), ("empty",)),
    ("max empty", lambda xp: xp.zeros(0).max(), ("empty", "identity")),
    ("arange zero step", lambda xp: xp.arange(0, 5, 0), ("zero", "step", "division")),
    ("eye negative", lambda xp: xp.eye(-2), ("negative",)),
    ("fft n zero", lambda xp: xp.fft.fft(_a(xp), n=0), ("invalid", "points", "n")),
    ("squeeze non-unit", lambda xp: xp.squeeze(_a(xp), axis=0), ("size", "squeeze", "one")),
    ("moveaxis bad", lambda xp: xp.moveaxis(_a(xp), 0, 4), ("axis",)),
    ("expand_dims bad", lambda xp: xp.expand_dims(_a(xp), 5), ("axis",)),
    ("pad mode", lambda xp: xp.pad(_a(xp), 1, mode="nope"), ("mode", "nope")),
    ("einsum operands", lambda xp: xp.einsum("ij,jk->ik", _a(xp)), ("operand",)),
    ("histogram bins", lambda xp: xp.histogram(_a(xp), bins=-1), ("bins", "positive", "negative")),
]


def _raised(call, xp):
    try:
        call(xp)
    except Exception as e:
        return e
    return None


@pytest.mark.parametrize("name,call,words", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_what_numpy_raises(name, call, words):
    want = _raised(call, numpy)
    assert want is not None, f"the case {name!r} does not raise in NumPy: fix the table"
    got = _raised(call, cuarray)
    assert got is not None, f"cuarray accepted {name!r}; NumPy raises {want!r}"
    want_type = type(want)
    while want_type.__module__.startswith("numpy._"):   # NumPy's private subclasses
        want_type = want_type.__mro__[1]
    assert isinstance(got, want_type), \
        f"{name}: cuarray raised {type(got).__name__}: {got}; NumPy {type(want).__name__}: {want}"
    text = str(got).lower()
    assert any(w.lower() in text for w in words), f"{name}: unhelpful message {got!r}"
