"""Linear filtering along an axis (cuarray version of `scipy.signal.lfilter` and
friends). The FIR part is a direct kernel (an FFT convolution for long numerators), the
recurrence a parallel scan (`_iir_scan`): no sequential pass over the samples."""
import numpy

import cuarray
from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray.scipy.signal import _kernels as _k
from cuarray.scipy.signal._iir_scan import MAX_STATE, recurrence, sos_cascade, tf_filter

__all__ = ["lfilter", "lfiltic", "lfilter_zi", "sosfilt", "sosfilt_zi", "filtfilt",
           "sosfiltfilt", "deconvolve"]

_FIR = r"""
extern "C" __global__ void fir_rows(const {T}* x, const {T}* b, {T}* v, long long N,
                                    long long nb, long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long n = t % N;
    const {T}* row = x + (t - n);
    const long long top = n + 1 < nb ? n + 1 : nb;
    {T} acc = {T}(0);
    for (long long j = 0; j < top; ++j) acc += b[j] * row[n - j];
    v[t] = acc;
  }
}

// The final state of the transposed direct form II after the row (SciPy's zf).
extern "C" __global__ void lfilter_zf(const {T}* x, const {T}* y, const {T}* b, const {T}* a,
                                      const {T}* zi, {T}* zf, long long N, long long K,
                                      long long total) {
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / (K - 1), i = t % (K - 1);
    {T} acc = {T}(0);
    for (long long m = i + 1; m < K; ++m) {
      const long long n = N + i - m;
      if (n >= 0) acc += b[m] * x[s * N + n] - a[m] * y[s * N + n];
    }
    if (zi != 0 && N + i < K - 1) acc += zi[s * (K - 1) + N + i];
    zf[t] = acc;
  }
}
"""


def _coeffs(v, name):
    if isinstance(v, ndarray):
        return v
    return cuarray.asarray(numpy.asarray(v))


def _filter_dtype(*dts):
    dt = numpy.result_type(*dts)
    if dt.kind in "biu":
        return numpy.dtype(numpy.float64)
    if dt.kind not in "fc" or dt == numpy.float16:
        return numpy.dtype(numpy.float32) if dt == numpy.float16 else numpy.dtype(numpy.float64)
    return dt


def _rows(x, axis):
    """x with `axis` last, as C-contiguous rows (S, N), and the moved shape."""
    xm = cuarray.moveaxis(x, axis, -1)
    shape = xm.shape
    S = 1
    for n in shape[:-1]:
        S *= n
    return cuarray.ascontiguousarray(xm).reshape(S, shape[-1]), shape


def _unrows(r, shape, axis):
    return cuarray.moveaxis(r.reshape(shape), -1, axis)


def _lfilter_rows(b, a, X, Zi, p):
    """y (and zf when Zi is not None) of rows X (S, N) for normalised b, a of length K;
    the recurrence has order p (a[p+1:] are zero)."""
    S, N = X.shape
    K = b.size
    dt = X.dtype
    if K <= 128 or N == 0:
        V = cuarray.empty((S, N), dt)
        _k.launch(_k.kernel(_FIR, "fir_rows", T=_k.ctype(dt)), S * N,
                  (X, b, V, N, K, S * N))
    else:
        from cuarray.scipy.signal._convolution import fftconvolve
        V = cuarray.ascontiguousarray(
            fftconvolve(X, b.reshape(1, -1), axes=-1)[:, :N].astype(dt, copy=False))
    if Zi is not None and N and K > 1:
        m = min(N, K - 1)
        V[:, :m] += Zi[:, :m]
    recurrence(a[:p + 1], V)
    if Zi is None:
        return V, None
    zf = cuarray.empty((S, K - 1), dt)
    _k.launch(_k.kernel(_FIR, "lfilter_zf", T=_k.ctype(dt)), S * (K - 1),
              (X, V, b, a, Zi, zf, N, K, S * (K - 1)))
    return V, zf


def _normalise(b, a, dt):
    b = b.astype(dt).ravel()
    a = a.astype(dt).ravel()
    a0 = a[0:1].copy()
    K = max(a.size, b.size)
    bb = cuarray.zeros(K, dt)
    aa = cuarray.zeros(K, dt)
    bb[:b.size] = b / a0
    aa[:a.size] = a / a0
    return bb, aa


def lfilter(b, a, x, axis=-1, zi=None):
    """cuarray version of `scipy.signal.lfilter` (the recurrence runs as a parallel scan).

    `b` and `a` may be host sequences (copied to the device); `x` must be a cuarray array."""
    if not isinstance(x, ndarray):
        raise not_device_error("lfilter", x, "cuarray.scipy.signal.")
    b, a = _coeffs(b, "b"), _coeffs(a, "a")
    if b.ndim != 1 or a.ndim != 1:
        raise ValueError("object of too small depth for desired array" if 0 in (b.ndim, a.ndim)
                         else "object too deep for desired array")
    if a.size == 0 or b.size == 0:
        raise ValueError("Empty coefficient arrays are not supported")
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = _axis(axis, x.ndim)
    dt = _filter_dtype(b.dtype, a.dtype, x.dtype,
                       *(() if zi is None else (_coeffs(zi, "zi").dtype,)))
    bb, aa = _normalise(b, a, dt)
    K = bb.size
    X, shape = _rows(x.astype(dt, copy=False), axis)
    Zi = None
    if zi is not None:
        zi = _coeffs(zi, "zi")
        expected = list(x.shape)
        expected[axis] = K - 1
        expected = tuple(expected)
        if zi.shape != expected:
            ok = zi.ndim == x.ndim and all(
                z == e or (z == 1 and d != axis) for d, (z, e) in enumerate(zip(zi.shape,
                                                                              expected)))
            if not ok:
                raise ValueError(f"Unexpected shape for zi: expected {expected}, found "
                                 f"{zi.shape}.")
            zi = cuarray.broadcast_to(zi, expected)
        Zi, _ = _rows(zi.astype(dt, copy=False), axis)
    if 1 < a.size and K - 1 <= MAX_STATE and X.shape[1]:
        # IIR: one state-space scan in SciPy's own structure (zi is its state).
        Y, zf = tf_filter(bb, aa, X, Zi)
    else:
        Y, zf = _lfilter_rows(bb, aa, X, Zi, a.size - 1)
    y = _unrows(Y, shape, axis)
    if zi is None:
        return y
    zshape = shape[:-1] + (K - 1,)
    return y, _unrows(zf, zshape, axis)


def _axis(axis, ndim):
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise numpy.exceptions.AxisError(axis, ndim)
    return axis % ndim


def lfiltic(b, a, y, x=None):
    """cuarray version of `scipy.signal.lfiltic`."""
    b, a, y = _coeffs(b, "b"), _coeffs(a, "a"), _coeffs(y, "y")
    N = a.size - 1
    M = b.size - 1
    K = max(M, N)
    dt = _filter_dtype(a.dtype, b.dtype, y.dtype,
                       *(() if x is None else (_coeffs(x, "x").dtype,)))
    a = a.astype(dt)
    b = b.astype(dt)
    a0 = a[0:1].copy()
    if N > 0:
        a = a / a0
        b = b / a0
    zi = cuarray.zeros(K, dt)
    if x is None:
        x = cuarray.zeros(M, dt)
    else:
        x = _coeffs(x, "x").astype(dt)
        if x.size < M:
            x = cuarray.concatenate((x, cuarray.zeros(M - x.size, dt)))
    if y.size < N:
        y = cuarray.concatenate((y.astype(dt), cuarray.zeros(N - y.size, dt)))
    y = y.astype(dt)
    for m in range(M):
        zi[m] = cuarray.sum(b[m + 1:] * x[:M - m])
    for m in range(N):
        zi[m] -= cuarray.sum(a[m + 1:] * y[:N - m])
    return zi


def lfilter_zi(b, a):
    """cuarray version of `scipy.signal.lfilter_zi` (solved with cuarray.linalg).

    Leading zeros of `a` are not stripped (that needs its values on the host); a[0] must
    be non-zero."""
    b, a = _coeffs(b, "b").ravel(), _coeffs(a, "a").ravel()
    if a.size < 1:
        raise ValueError("There must be at least one nonzero `a` coefficient.")
    dt = _filter_dtype(b.dtype, a.dtype)
    a0 = a[0:1].astype(dt)
    b = b.astype(dt) / a0
    a = a.astype(dt) / a0
    n = max(a.size, b.size)
    if a.size < n:
        a = cuarray.concatenate((a, cuarray.zeros(n - a.size, dt)))
    elif b.size < n:
        b = cuarray.concatenate((b, cuarray.zeros(n - b.size, dt)))
    if n == 1:
        return cuarray.zeros(0, dt)
    # I - companion(a).T: a[1:] down the first column, -1 on the superdiagonal.
    m = cuarray.eye(n - 1, dtype=dt)
    m[:, 0] += a[1:]
    if n > 2:
        idx = cuarray.arange(n - 2)
        m[idx, idx + 1] -= 1
    rhs = b[1:] - a[1:] * b[0]
    return cuarray.linalg.solve(m, rhs)


def _check_sos(sos):
    sos = _coeffs(sos, "sos")
    if sos.ndim != 2:
        raise ValueError("sos array must be 2D")
    n_sections, m = sos.shape
    if m != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    return sos, n_sections


def sosfilt_zi(sos):
    """cuarray version of `scipy.signal.sosfilt_zi`."""
    sos, n_sections = _check_sos(sos)
    dt = _filter_dtype(sos.dtype)
    zi = cuarray.empty((n_sections, 2), dt)
    scale = cuarray.ones(1, dt)
    for k in range(n_sections):
        b = sos[k, :3]
        a = sos[k, 3:]
        zi[k] = scale * lfilter_zi(b, a)
        scale = scale * (cuarray.sum(b) / cuarray.sum(a))
    return zi


def sosfilt(sos, x, axis=-1, zi=None):
    """cuarray version of `scipy.signal.sosfilt` (the whole cascade is one parallel scan
    whose state is every section's two delays)."""
    if not isinstance(x, ndarray):
        raise not_device_error("sosfilt", x, "cuarray.scipy.signal.")
    sos, n_sections = _check_sos(sos)
    if x.ndim == 0:
        raise ValueError("x must be at least 1-D")
    axis = _axis(axis, x.ndim)
    dts = [sos.dtype, x.dtype] + ([] if zi is None else [_coeffs(zi, "zi").dtype])
    dt = _filter_dtype(*dts)
    X, shape = _rows(x.astype(dt, copy=False), axis)
    Zi = None
    if zi is not None:
        zi = _coeffs(zi, "zi")
        expected = (n_sections,) + tuple(x.shape[:axis]) + (2,) + tuple(x.shape[axis + 1:])
        if zi.shape != expected:
            raise ValueError(f"Invalid zi shape. With axis={axis}, an input with shape "
                             f"{x.shape}, and an sos array with {n_sections} sections, zi "
                             f"must have shape {expected}, got {zi.shape}.")
        # (sections, ..., 2, ...) -> rows (S, sections * 2): each row's state vector
        rows = [_rows(zi[k].astype(dt, copy=False), axis)[0] for k in range(n_sections)]
        Zi = cuarray.stack(rows, axis=1).reshape(X.shape[0], 2 * n_sections)
    sos = sos.astype(dt)
    sos = sos / sos[:, 3:4]
    Y, zf = sos_cascade(sos, X, Zi)
    y = _unrows(Y, shape, axis)
    if zi is None:
        return y
    zshape = shape[:-1] + (2,)
    zf = zf.reshape(X.shape[0], n_sections, 2)
    return y, cuarray.stack([_unrows(cuarray.ascontiguousarray(zf[:, k, :]), zshape, axis)
                             for k in range(n_sections)])


def _axis_slice(a, start=None, stop=None, step=None, axis=-1):
    sl = [slice(None)] * a.ndim
    sl[axis] = slice(start, stop, step)
    return a[tuple(sl)]


def _ext(x, n, axis, kind):
    if n < 1:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(f"The extension length n ({n}) is too big. It must not exceed "
                         f"x.shape[axis]-1, which is {x.shape[axis] - 1}.")
    left = _axis_slice(x, start=0, stop=1, axis=axis)
    right = _axis_slice(x, start=-1, axis=axis)
    if kind == "constant":
        reps = [1] * x.ndim
        reps[axis] = n
        return cuarray.concatenate((cuarray.tile(left, reps), x, cuarray.tile(right, reps)),
                                   axis=axis)
    lext = _axis_slice(x, start=n, stop=0, step=-1, axis=axis)
    rext = _axis_slice(x, start=-2, stop=-(n + 2), step=-1, axis=axis)
    if kind == "odd":
        lext, rext = 2 * left - lext, 2 * right - rext
    return cuarray.concatenate((lext, x, rext), axis=axis)


def _validate_pad(padtype, padlen, x, axis, ntaps):
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(f"Unknown value '{padtype}' given to padtype.  padtype must be "
                         "'even', 'odd', 'constant', or None.")
    if padtype is None:
        padlen = 0
    edge = ntaps * 3 if padlen is None else padlen
    if x.shape[axis] <= edge:
        raise ValueError(f"The length of the input vector x must be greater than padlen, "
                         f"which is {edge}.")
    ext = _ext(x, edge, axis, padtype) if padtype is not None and edge > 0 else x
    return edge, ext


def _filtfilt_gust(b, a, x, axis, irlen):
    """Gustafsson's forward-backward filter: the initial states of both passes solve a
    least-squares problem (cuarray.linalg.lstsq) that removes the transients."""
    order = max(a.size, b.size) - 1
    if order == 0:
        return (b[0] / a[0]) ** 2 * x
    x = cuarray.swapaxes(x, axis, -1)
    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    dt = _filter_dtype(b.dtype, a.dtype)
    zi = cuarray.zeros(order, dt)
    zi[0] = 1
    Obs = cuarray.zeros((m, order), dt)
    Obs[:, 0] = lfilter(b, a, cuarray.zeros(m, dt), zi=zi)[0]
    for k in range(1, order):
        Obs[k:, k] = Obs[:-k, 0]
    Obsr = Obs[::-1]
    S = lfilter(b, a, Obsr, axis=0)
    Sr = S[::-1]
    if m == n:
        M = cuarray.concatenate((Sr - Obs, Obsr - S), axis=1)
        W = cuarray.concatenate((Sr, Obsr), axis=1)
    else:
        M = cuarray.zeros((2 * m, 2 * order), dt)
        M[:m, :order] = Sr - Obs
        M[m:, order:] = Obsr - S
        W = cuarray.zeros((2 * m, 2 * order), dt)
        W[:m, :order] = Sr
        W[m:, order:] = Obsr
    y_f = lfilter(b, a, x)
    y_fb = lfilter(b, a, y_f[..., ::-1])[..., ::-1]
    y_b = lfilter(b, a, x[..., ::-1])[..., ::-1]
    y_bf = lfilter(b, a, y_b)
    d = y_bf - y_fb
    if m != n:
        d = cuarray.concatenate((d[..., :m], d[..., -m:]), axis=-1)
    rhs = d.reshape(-1, d.shape[-1]).T
    ic = cuarray.linalg.lstsq(M.astype(rhs.dtype), rhs, rcond=None)[0].T
    wic = (ic @ W.T.astype(ic.dtype)).reshape(d.shape)
    y = y_fb.copy()
    if m == n:
        y += wic
    else:
        y[..., :m] += wic[..., :m]
        y[..., -m:] += wic[..., -m:]
    return cuarray.swapaxes(y, axis, -1)


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    """cuarray version of `scipy.signal.filtfilt`."""
    if method not in ("pad", "gust"):
        raise ValueError("method must be 'pad' or 'gust'.")
    if not isinstance(x, ndarray):
        raise not_device_error("filtfilt", x, "cuarray.scipy.signal.")
    b, a = _coeffs(b, "b").ravel(), _coeffs(a, "a").ravel()
    axis = _axis(axis, x.ndim)
    if method == "gust":
        return _filtfilt_gust(b, a, x, axis, irlen)
    edge, ext = _validate_pad(padtype, padlen, x, axis, max(a.size, b.size))
    zi = lfilter_zi(b, a)
    zshape = [1] * x.ndim
    zshape[axis] = zi.size
    zi = zi.reshape(zshape)
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = lfilter(b, a, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = lfilter(b, a, _axis_slice(y, step=-1, axis=axis), axis=axis, zi=zi * y0)
    y = _axis_slice(y, step=-1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return y


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    """cuarray version of `scipy.signal.sosfiltfilt` (reads the count of trivial
    sections, which sets the pad length, on the host)."""
    if not isinstance(x, ndarray):
        raise not_device_error("sosfiltfilt", x, "cuarray.scipy.signal.")
    sos, n_sections = _check_sos(sos)
    axis = _axis(axis, x.ndim)
    ntaps = 2 * n_sections + 1
    ntaps -= min(int(cuarray.sum(sos[:, 2] == 0)), int(cuarray.sum(sos[:, 5] == 0)))
    edge, ext = _validate_pad(padtype, padlen, x, axis, ntaps)
    zi = sosfilt_zi(sos)
    zshape = [1] * x.ndim
    zshape[axis] = 2
    zi = zi.reshape([n_sections] + zshape)
    x0 = _axis_slice(ext, stop=1, axis=axis)
    y, _ = sosfilt(sos, ext, axis=axis, zi=zi * x0)
    y0 = _axis_slice(y, start=-1, axis=axis)
    y, _ = sosfilt(sos, _axis_slice(y, step=-1, axis=axis), axis=axis, zi=zi * y0)
    y = _axis_slice(y, step=-1, axis=axis)
    if edge > 0:
        y = _axis_slice(y, start=edge, stop=-edge, axis=axis)
    return y


def deconvolve(signal, divisor):
    """cuarray version of `scipy.signal.deconvolve`."""
    num = _coeffs(signal, "signal")
    den = _coeffs(divisor, "divisor")
    if num.ndim != 1:
        raise ValueError("signal must be 1-D.")
    if den.ndim != 1:
        raise ValueError("divisor must be 1-D.")
    N, D = num.size, den.size
    if D > N:
        return cuarray.zeros(0), num
    impulse = cuarray.zeros(N - D + 1, _filter_dtype(num.dtype, den.dtype))
    impulse[0] = 1
    quot = lfilter(num, den, impulse)
    from cuarray.scipy.signal._convolution import convolve
    rem = num - convolve(den, quot, mode="full")
    return quot, rem
