"""The look-back scan kernel in each of its shapes: NVRTC compiles every variant (CPU),
and each variant matches NumPy on full, ragged and multi-row inputs (GPU)."""
import itertools

import numpy
import pytest

from cuarray._core import scan
from cuarray._core.scan import ScanOp
from cuarray._runtime import compiler as _compiler

VARIANTS = [dict(block=b, items=i, tile_bytes=32768, vec=v, ticket=t, packed=p)
            for b, i, v, t, p in itertools.product((128, 256), (8, 16, 32), (False, True), (False, True),
                                                   (False, True))]


def _ids(cfg):
    return (f"b{cfg['block']}-i{cfg['items']}-{'vec' if cfg['vec'] else 'smem'}-"
            f"{'ticket' if cfg['ticket'] else 'blockidx'}-{'packed' if cfg['packed'] else 'slots'}")


@pytest.mark.parametrize("cfg", VARIANTS, ids=_ids)
@pytest.mark.parametrize("pair", [("f", "f"), ("b", "q"), ("e", "f"), ("D", "D"), ("d", "d")])
def test_lookback_variants_compile(cfg, pair):
    in_dt, acc = numpy.dtype(pair[0]), numpy.dtype(pair[1])
    op = ScanOp("cuarray_test_scan", in_dt, acc, "x", "a + b", None)
    items = max(1, min(cfg["items"], cfg["tile_bytes"] // (cfg["block"] * max(acc.itemsize, 4))))
    packed = cfg["packed"] and acc.itemsize <= 4
    src = op._source_lookback(in_dt, acc, cfg["block"], items, cfg["vec"], cfg["ticket"], False, packed)
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test_scan")


@pytest.mark.gpu
@pytest.mark.parametrize("cfg", VARIANTS, ids=_ids)
def test_lookback_variants_match_numpy(cfg, monkeypatch):
    import cuarray
    monkeypatch.setattr(scan, "LOOKBACK", cfg)
    monkeypatch.setattr(scan, "_ops", {})
    rng = numpy.random.default_rng()
    for shape, dtype in (((1 << 20) + 37,), "float32"), ((3, 70001), "int8"), ((5, 4096 * 3), "float64"), \
            ((2, 1000), "complex128"), ((1 << 16,), "float16"):
        x = rng.integers(-3, 4, size=shape).astype(dtype)
        if x.dtype.kind == "c":
            x = x + 1j * rng.integers(-3, 4, size=shape)
        got = cuarray.cumsum(cuarray.asarray(x), axis=-1).get()
        want = numpy.cumsum(x, axis=-1, dtype=numpy.float32 if x.dtype == numpy.float16 else None)
        numpy.testing.assert_allclose(got, want, rtol=1e-6 if x.dtype != numpy.float16 else 1e-3)
