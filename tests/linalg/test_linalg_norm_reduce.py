"""The one-kernel vector norms: dtypes, order families and generated sources (NVRTC, no GPU)."""
import os

import numpy
import pytest

from cuarray._core import dtypes as _dt
from cuarray._core.reduction import generate
from cuarray.linalg import _norm_reduce

cuda_core = pytest.importorskip("cuda.core")
INCLUDE = os.path.join(os.path.dirname(_dt.__file__), "include")
DTYPES = "?bBhHiIlLefdFD"


def _compile(src):
    opts = cuda_core.ProgramOptions(arch="sm_90", std="c++17", include_path=[INCLUDE])
    return cuda_core.Program(src, "c++", opts).compile("cubin")


@pytest.mark.parametrize("dtype", DTYPES)
def test_result_dtype_matches_numpy(dtype):
    x = numpy.ones((2, 3), dtype)
    for ord in (None, 0, 1, 2, 3.5, numpy.inf, -numpy.inf, -1):
        assert _norm_reduce.result_dtype(x.dtype) == numpy.linalg.norm(x, ord, axis=1).dtype


def test_kinds():
    k = _norm_reduce.kind_of
    assert [k(o) for o in (None, 2, 2.0, 1, 0, numpy.inf, -numpy.inf, 3, -1, 0.5)] == \
        ["l2", "l2", "l2", "l1", "l0", "max", "min", "lp", "lp", "lp"]
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        k("fro")


@pytest.mark.parametrize("kind", sorted(_norm_reduce._KINDS))
@pytest.mark.parametrize("dtype", "?iefdFD")
def test_sources_compile(kind, dtype):
    dt = numpy.dtype(dtype)
    res = _norm_reduce.result_dtype(dt)
    op = _norm_reduce.norm_op(kind, dt, res)
    args = [numpy.empty(1, dt), numpy.empty(1, res)] + [None] * (len(op.params) - 2)
    # the row shape (axis=1 of C data), the column shape split in two passes (axis=0)
    for nk, nr, row, split in [(1, 1, True, False), (1, 1, False, True)]:
        src, _, _ = generate(op, args, nk, nr, row, 256, False, split)
        assert _compile(src) is not None


def test_one_op_per_family_and_dtype():
    f = numpy.dtype("f")
    a = _norm_reduce.norm_op("l2", f, f)
    assert _norm_reduce.norm_op("l2", f, f) is a
    assert _norm_reduce.norm_op("l1", f, f) is not a
    # complex input, real accumulator and output
    c = _norm_reduce.norm_op("l2", numpy.dtype("F"), f)
    assert c.acc_type == "float" and c.params[1].dtype == f
    # float16 accumulates in float32
    assert _norm_reduce.norm_op("lp", numpy.dtype("e"), numpy.dtype("e")).acc_type == "float"


def test_unroll_is_selectable(monkeypatch):
    f = numpy.dtype("f")
    args = [numpy.empty(1, f), numpy.empty(1, f)]
    for u in (4, 8):
        monkeypatch.setattr(_norm_reduce, "UNROLL", u)
        op = _norm_reduce.norm_op("l2", f, f)
        assert op.unroll == u
        src, _, _ = generate(op, args, 1, 1, True, 256, False, False)
        assert f"type_reduce _b[{u}];" in src and f"_jb += {u} * 256" in src
        assert _compile(src) is not None
