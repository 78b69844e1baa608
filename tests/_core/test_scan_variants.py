"""The look-back scan kernel in each of its shapes: NVRTC compiles every variant (CPU),
and each variant matches NumPy on full, ragged and multi-row inputs (GPU)."""
import itertools

import numpy
import pytest

from cuarray._core import scan
from cuarray._core.scan import ScanOp
from cuarray._runtime import compiler as _compiler

VARIANTS = [dict(block=b, items=i, tile_bytes=32768, vec=v, ticket=t, packed=p, min_blocks=0, keep=True)
            for b, i, v, t, p in itertools.product((128, 256), (8, 16, 32), (False, True), (False, True),
                                                   (False, True))]
# register-lean shapes: values scanned again from shared memory, occupancy asked for
VARIANTS += [dict(block=b, items=i, tile_bytes=32768, vec=False, ticket=t, packed=True, min_blocks=m,
                  keep=False)
             for b, i, m, t in ((256, 16, 8, True), (256, 16, 8, False), (256, 24, 8, True),
                                (128, 16, 16, True), (512, 16, 4, True), (256, 16, 0, True))]


def _ids(cfg):
    return (f"b{cfg['block']}-i{cfg['items']}-{'vec' if cfg['vec'] else 'smem'}-"
            f"{'ticket' if cfg['ticket'] else 'blockidx'}-{'packed' if cfg['packed'] else 'slots'}"
            f"-m{cfg['min_blocks']}-{'keep' if cfg['keep'] else 'rescan'}")


@pytest.mark.parametrize("cfg", VARIANTS, ids=_ids)
@pytest.mark.parametrize("pair", [("f", "f"), ("b", "q"), ("e", "f"), ("D", "D"), ("d", "d")])
def test_lookback_variants_compile(cfg, pair):
    in_dt, acc = numpy.dtype(pair[0]), numpy.dtype(pair[1])
    op = ScanOp("cuarray_test_scan", in_dt, acc, "x", "a + b", None)
    items = max(1, min(cfg["items"], cfg["tile_bytes"] // (cfg["block"] * max(acc.itemsize, 4))))
    packed = cfg["packed"] and acc.itemsize <= 4
    src = op._source_lookback(in_dt, acc, cfg["block"], items, cfg["vec"], cfg["ticket"], False, packed,
                              cfg["min_blocks"], cfg["keep"])
    _compiler.compile_cubin(src, (), (), "sm_90", "cuarray_test_scan")


@pytest.mark.gpu
@pytest.mark.parametrize("cfg", VARIANTS, ids=_ids)
def test_lookback_variants_match_numpy(cfg, monkeypatch):
    import cuarray
    monkeypatch.setattr(scan, "LOOKBACK", cfg)
    monkeypatch.setattr(scan, "_ops", {})
    rng = numpy.random.default_rng(1005)
    for shape, dtype in (((1 << 20) + 37,), "float32"), ((3, 70001), "int8"), ((5, 4096 * 3), "float64"), \
            ((2, 1000), "complex128"), ((1 << 16,), "float16"):
        x = rng.integers(-3, 4, size=shape).astype(dtype)
        if x.dtype.kind == "c":
            x = x + 1j * rng.integers(-3, 4, size=shape)
        got = cuarray.cumsum(cuarray.asarray(x), axis=-1).get()
        want = numpy.cumsum(x, axis=-1, dtype=numpy.float32 if x.dtype == numpy.float16 else None)
        numpy.testing.assert_allclose(got, want, rtol=1e-6 if x.dtype != numpy.float16 else 1e-3)


class _FakeMem:
    def __init__(self, n):
        self.ptr, self.n, self.cleared = 4096, n, False

    def memset_async(self, value, size):
        self.cleared = (value, size) == (0, self.n)


def test_status_words_epochs_and_tickets(monkeypatch):
    """The packed scan's persistent status words (CPU): cleared once when made, a new epoch
    per launch, `ticket0` = tickets handed out before (only by ticketed launches), and a
    fresh cleared buffer when a launch needs more tiles or the epochs run out."""
    monkeypatch.setattr(scan, "_status", {})
    monkeypatch.setattr(scan._memory, "alloc", _FakeMem)
    monkeypatch.setattr(scan, "get_device_id", lambda: 0)
    w = scan._status_words(7, 100, True)
    assert w.mem.cleared and w.cap == 4096 and (w.epoch, w.base, w.launched) == (1, 0, 100)
    w2 = scan._status_words(7, 50, False)
    assert w2 is w and (w.epoch, w.base, w.launched) == (2, 100, 100)
    w3 = scan._status_words(7, 10, True)
    assert w3 is w and (w.epoch, w.base, w.launched) == (3, 100, 110)
    assert scan._status_words(8, 10, True) is not w          # another stream, its own words
    big = scan._status_words(7, 5000, True)
    assert big is not w and big.mem.cleared and big.cap == 8192 and (big.epoch, big.base) == (1, 0)
    big.epoch = scan._EPOCH_LIMIT - 1
    again = scan._status_words(7, 10, True)
    assert again is not big and again.epoch == 1 and again.mem.cleared
