"""ndarray.get(blocking=False): the copy is queued on the stream and lands in `out` once the
stream is synchronized (pinned `out`), as CuPy's get does."""
import numpy


def test_nonblocking_get_into_pinned_memory(cp, rng):
    host = rng.random(5000, dtype=numpy.float32)
    a = cp.asarray(host)
    out = cp.empty_pinned(host.shape, numpy.float32)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        b = a * 2
        r = b.get(stream=s, out=out, blocking=False)
    s.synchronize()
    assert r is out
    numpy.testing.assert_array_equal(out, host * 2)


def test_nonblocking_get_of_a_strided_view_and_without_out(cp, rng):
    host = rng.random((40, 60), dtype=numpy.float32)
    a = cp.asarray(host)
    out = cp.empty_pinned((40, 30), numpy.float32)
    a[:, ::2].get(out=out, blocking=False)
    cp.cuda.get_current_stream().synchronize()
    numpy.testing.assert_array_equal(out, host[:, ::2])
    got = a.T.get(blocking=False)
    cp.cuda.get_current_stream().synchronize()
    numpy.testing.assert_array_equal(got, host.T)


def test_blocking_arguments_of_asarray_and_asnumpy(cp, rng):
    host = rng.random(3000, dtype=numpy.float32)
    a = cp.asarray(host, blocking=True)
    b = cp.array(host, blocking=False)
    out = cp.empty_pinned(host.shape, numpy.float32)
    assert cp.asnumpy(a + b, out=out, blocking=False) is out
    cp.cuda.get_current_stream().synchronize()
    numpy.testing.assert_array_equal(out, host * 2)
