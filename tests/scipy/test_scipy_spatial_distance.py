"""cuarray.scipy.spatial.distance against scipy.spatial.distance: every metric through its
kernel (GPU, and the host emulation without one) and the GEMM path of the Euclidean
distances (GPU)."""
import numpy as np
import pytest
import scipy.spatial as sps
import scipy.spatial.distance as sd

from cuarray.scipy.spatial._distance import METRICS

# CuPy's own metrics, which SciPy lacks: their definitions in NumPy
_EXTRA = {
    "hellinger": lambda u, v: np.sqrt(np.sum((np.sqrt(u) - np.sqrt(v)) ** 2)) / np.sqrt(2),
    "kl_divergence": lambda u, v: np.sum(np.where(u > 0, u * np.log(u / v), 0.0)),
}


def _want(a, b, metric, **kw):
    if metric in _EXTRA:
        return np.array([[_EXTRA[metric](u, v) for v in b] for u in a])
    if metric in ("hamming", "russellrao"):
        return sd.cdist(a.astype(bool) if metric == "russellrao" else a,
                        b.astype(bool) if metric == "russellrao" else b, metric)
    return sd.cdist(a, b, metric, **kw)


def _inputs(metric, rng, shape_a, shape_b):
    a, b = rng.random(shape_a) + 0.05, rng.random(shape_b) + 0.05
    if metric in ("hamming", "russellrao"):
        a, b = np.round(a), np.round(b)
    return a, b


@pytest.mark.parametrize("metric", list(METRICS))
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_cdist_kernels(cp, metric, dt):
    from cuarray.scipy.spatial import distance
    rng = np.random.default_rng(len(metric))
    a, b = _inputs(metric, rng, (7, 5), (4, 5))
    a, b = a.astype(dt), b.astype(dt)
    kw = dict(p=3.0) if metric == "minkowski" else {}
    want = _want(a.astype(np.float64), b.astype(np.float64), metric, **kw)
    got = distance.cdist(cp.asarray(a), cp.asarray(b), metric, **kw)
    assert got.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-14)
    if metric not in _EXTRA:
        pw = sd.pdist(a.astype(np.float64) if metric != "russellrao" else a.astype(bool),
                      metric, **kw)
        np.testing.assert_allclose(distance.pdist(cp.asarray(a), metric, **kw).get(), pw,
                                   rtol=1e-12, atol=1e-14)
    one = getattr(distance, metric)(cp.asarray(a[0]), cp.asarray(b[0]), **kw)
    np.testing.assert_allclose(float(one), want[0, 0], rtol=1e-12, atol=1e-14)


def test_aliases_minkowski_and_errors(cp):
    from cuarray.scipy.spatial import distance
    rng = np.random.default_rng(1)
    a, b = rng.random((5, 3)), rng.random((6, 3))
    for alias, name in (("e", "euclidean"), ("cb", "cityblock"), ("cos", "cosine"),
                        ("sqe", "sqeuclidean"), ("matching", "hamming")):
        np.testing.assert_allclose(distance.cdist(cp.asarray(a), cp.asarray(b), alias).get(),
                                   sd.cdist(a, b, name), rtol=1e-12)
    for p in (1, 2, np.inf, 0.5):
        np.testing.assert_allclose(
            distance.cdist(cp.asarray(a), cp.asarray(b), "minkowski", p=p).get(),
            sd.cdist(a, b, "minkowski", p=p), rtol=1e-12)
        np.testing.assert_allclose(distance.distance_matrix(cp.asarray(a), cp.asarray(b),
                                                            p=p).get(),
                                   sps.distance_matrix(a, b, p=p), rtol=1e-12)
    with pytest.raises(ValueError, match="Unknown Distance Metric"):
        distance.cdist(cp.asarray(a), cp.asarray(b), "bogus")
    with pytest.raises(ValueError, match="same number of columns"):
        distance.cdist(cp.asarray(a), cp.asarray(b[:, :2]))
    with pytest.raises(ValueError, match="2-dimensional"):
        distance.cdist(cp.asarray(a[0]), cp.asarray(b))
    with pytest.raises(TypeError, match="cuarray.asarray"):
        distance.cdist(a, cp.asarray(b))
    with pytest.raises(TypeError, match="callable"):
        distance.cdist(cp.asarray(a), cp.asarray(b), lambda u, v: 0)
    e = distance.cdist(cp.zeros((0, 3)), cp.asarray(b))
    assert e.shape == (0, 6)


@pytest.mark.gpu
@pytest.mark.parametrize("dt,rtol", [(np.float64, 1e-9), (np.float32, 2e-4)])
def test_cdist_gemm_path(gpu_cp, dt, rtol):
    from cuarray.scipy.spatial import distance
    rng = np.random.default_rng(9)
    a, b = rng.random((300, 64)).astype(dt), rng.random((200, 64)).astype(dt)
    for metric in ("euclidean", "sqeuclidean"):
        got = distance.cdist(gpu_cp.asarray(a), gpu_cp.asarray(b), metric)
        np.testing.assert_allclose(got.get(), sd.cdist(a, b, metric), rtol=rtol)
    got = distance.pdist(gpu_cp.asarray(a), "euclidean")
    np.testing.assert_allclose(got.get(), sd.pdist(a, "euclidean"), rtol=rtol)


@pytest.mark.gpu
@pytest.mark.parametrize("n", [16, 37])
def test_cdist_float32_chunks(gpu_cp, n, monkeypatch):
    # float32 products by chunks of 128 rows (the smallest): whole chunks and a partial
    # one, and points on top of each other (distance 0)
    from cuarray.scipy.spatial import _distance, distance
    monkeypatch.setattr(_distance, "_CHUNK_BYTES", 1)
    rng = np.random.default_rng(n)
    a = rng.standard_normal((300, n)).astype(np.float32)
    b = rng.standard_normal((140, n)).astype(np.float32)
    b[7] = a[3]
    for metric in ("euclidean", "sqeuclidean"):
        got = distance.cdist(gpu_cp.asarray(a), gpu_cp.asarray(b), metric).get()
        want = sd.cdist(a.astype(np.float64), b.astype(np.float64), metric)
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-3)
        assert got[3, 7] < 2e-3


@pytest.mark.parametrize("root,nb", [(True, 300), (False, 300), (True, 301)])
def test_distances_from_a_product(cp, root, nb):
    # the pass that turns a chunk of the float32 product into float64 distances, alone
    # (rows of whole 16-byte vectors, and not)
    from cuarray.scipy.spatial import _distance
    rng = np.random.default_rng(5)
    a = rng.standard_normal((9, 20)).astype(np.float32)
    b = rng.standard_normal((nb, 20)).astype(np.float32)
    aa = cp.asarray((a.astype(np.float64) ** 2).sum(1))
    bb = cp.asarray((b.astype(np.float64) ** 2).sum(1))
    out = cp.asarray(np.full((9, nb), -1.0))
    g = cp.asarray(a[4:] @ b.T)                      # rows 4.. of the product
    _distance.distances_from_product(aa, bb, g, root, out, 4)
    got = out.get()
    want = sd.cdist(a.astype(np.float64), b.astype(np.float64),
                    "euclidean" if root else "sqeuclidean")
    assert (got[:4] == -1).all()
    np.testing.assert_allclose(got[4:], want[4:], rtol=1e-4, atol=1e-4)


def _emulated():
    from cuarray._runtime import driver, emulator
    return isinstance(driver._drv(), emulator.HostDriver)


@pytest.mark.parametrize("dt,rtol", [(np.float32, 1e-4)])
def test_cdist_gemm_chunks(cp, monkeypatch, dt, rtol):
    """The chunked GEMM path of float32 points with chunks of 8 rows of XA (the last one
    short), the two scratch buffers taking turns; the product is NumPy's on the host
    emulation."""
    from cuarray.scipy.spatial import _distance, distance
    real_rows, real_nd = _distance._product_rows, _distance.matmul_nd
    shapes = []

    def rows(h, XA, XBT, r0, k, buf):
        shapes.append(((k, XA.shape[1]), (k, XBT.shape[1])))
        if not _emulated():
            return real_rows(h, XA, XBT, r0, k, buf)
        buf[:k] = cp.asarray(XA[r0:r0 + k].get() @ XBT.get())

    def gemm(a, b, dtype, out=None):
        shapes.append((a.shape, None if out is None else out.shape))
        if not _emulated():
            return real_nd(a, b, dtype, out)
        return cp.asarray(a.get() @ b.get())

    monkeypatch.setattr(_distance, "_product_rows", rows)
    monkeypatch.setattr(_distance, "matmul_nd", gemm)
    if _emulated():
        monkeypatch.setattr(_distance, "_side_handle", lambda: None)
    monkeypatch.setattr(_distance, "_CHUNK_BYTES", 8 * 37 * np.dtype(dt).itemsize + 3)
    monkeypatch.setattr(_distance, "_CHUNK_ALIGN", 4)
    rng = np.random.default_rng(12)
    a, b = rng.random((43, 20)).astype(dt), rng.random((37, 20)).astype(dt)
    a[5] = b[3]   # a zero distance: the clamp at 0
    for metric in ("euclidean", "sqeuclidean"):
        shapes.clear()
        got = distance.cdist(cp.asarray(a), cp.asarray(b), metric)
        assert got.dtype == np.float64 and got.shape == (43, 37)
        want = sd.cdist(a.astype(np.float64), b.astype(np.float64), metric)
        np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-6 if dt == np.float32
                                   else 1e-12)
        assert got.get()[5, 3] == pytest.approx(0, abs=1e-3 if dt == np.float32 else 1e-6)
        assert [s[0][0] for s in shapes] == [8, 8, 8, 8, 8, 3]
        assert all(s[1] == s[0][:1] + (37,) for s in shapes)
    out = cp.full((43, 37), -1.0)
    r = distance.cdist(cp.asarray(a), cp.asarray(b), "euclidean", out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), sd.cdist(a.astype(np.float64),
                                                   b.astype(np.float64)), rtol=rtol, atol=1e-6)
    # a problem within one chunk: one GEMM
    shapes.clear()
    got = distance.pdist(cp.asarray(a[:8]), "euclidean")
    np.testing.assert_allclose(got.get(), sd.pdist(a[:8].astype(np.float64)), rtol=rtol,
                               atol=1e-6)
    assert len(shapes) == 1


@pytest.mark.gpu
@pytest.mark.parametrize("dt,rtol", [(np.float64, 1e-9), (np.float32, 2e-4)])
def test_cdist_gemm_chunks_default_size_on_a_stream(gpu_cp, dt, rtol):
    """Chunks of the default size (the last one short) on a non-default current stream:
    the GEMMs and passes are ordered after the stream's own work."""
    from cuarray.scipy.spatial import _distance, distance
    rng = np.random.default_rng(13)
    mb = 4096
    rows = _distance._CHUNK_BYTES // (mb * 4)
    a = rng.random((rows + rows // 2 + 7, 64)).astype(dt)
    b = rng.random((mb, 64)).astype(dt)
    want = sd.cdist(a.astype(np.float64), b.astype(np.float64))
    with gpu_cp.cuda.Stream(non_blocking=True) as s:
        xa = gpu_cp.asarray(a) * 1   # queued on the stream just before the cdist
        got = distance.cdist(xa, gpu_cp.asarray(b), "euclidean")
        sq = distance.cdist(xa, gpu_cp.asarray(b), "sqeuclidean")
        s.synchronize()
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=1e-6)
    np.testing.assert_allclose(sq.get(), want ** 2, rtol=rtol, atol=1e-6)
