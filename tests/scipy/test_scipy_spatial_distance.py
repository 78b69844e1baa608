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


@pytest.mark.parametrize("shape", [((300, 64), (140, 64)), ((130, 37), (129, 37)),
                                   ((1, 16), (300, 16)), ((257, 20), (3, 20))])
def test_cdist_float32_tiles(cp, shape):
    """float32 points in one kernel of 128 x 128 tiles: whole and partial tiles, 16-byte
    loads (n a multiple of 4) and not, an odd column count (no paired stores), points on
    top of each other (distance 0, the clamp at 0), and `out=`."""
    from cuarray.scipy.spatial import distance
    rng = np.random.default_rng(shape[0][1])
    a = rng.standard_normal(shape[0]).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    a[0] = b[-1]
    # near 0 a distance is the root of float32 rounding in |a|^2 + |b|^2 - 2 a.b
    atol = 2e-3 * np.sqrt(shape[0][1] / 16)
    for metric in ("euclidean", "sqeuclidean"):
        got = distance.cdist(cp.asarray(a), cp.asarray(b), metric).get()
        want = sd.cdist(a.astype(np.float64), b.astype(np.float64), metric)
        assert got.dtype == np.float64 and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=atol)
        assert got[0, -1] < atol
    out = cp.full(want.shape, -1.0)
    assert distance.cdist(cp.asarray(a), cp.asarray(b), "euclidean", out=out) is out
    np.testing.assert_allclose(out.get(), sd.cdist(a.astype(np.float64), b.astype(np.float64)),
                               rtol=2e-4, atol=atol)
    got = distance.pdist(cp.asarray(a), "euclidean")
    np.testing.assert_allclose(got.get(), sd.pdist(a.astype(np.float64)), rtol=2e-4,
                               atol=atol)


@pytest.mark.gpu
def test_cdist_float32_tiles_on_a_stream(gpu_cp):
    """A larger problem on a non-default current stream: the kernel is ordered after the
    stream's own work."""
    from cuarray.scipy.spatial import distance
    rng = np.random.default_rng(13)
    a = rng.random((1000, 64)).astype(np.float32)
    b = rng.random((4096, 64)).astype(np.float32)
    want = sd.cdist(a.astype(np.float64), b.astype(np.float64))
    with gpu_cp.cuda.Stream(non_blocking=True) as s:
        xa = gpu_cp.asarray(a) * 1   # queued on the stream just before the cdist
        got = distance.cdist(xa, gpu_cp.asarray(b), "euclidean")
        sq = distance.cdist(xa, gpu_cp.asarray(b), "sqeuclidean")
        s.synchronize()
    np.testing.assert_allclose(got.get(), want, rtol=2e-4, atol=1e-6)
    np.testing.assert_allclose(sq.get(), want ** 2, rtol=2e-4, atol=1e-6)
