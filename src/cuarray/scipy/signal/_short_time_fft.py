"""The parametrized short-time Fourier transform (cuarray version of
`scipy.signal.ShortTimeFFT` and `closest_STFT_dual_window`).

Windows, signals and spectra are device arrays. All slices of the signal are gathered
into one (..., slices, window) array and transformed by one batched FFT; the inverse
overlap-adds the windowed slices in ceil(m_num / hop) contiguous strided additions (the
slices' pieces at one offset inside the window tile the signal without overlapping). The
bookkeeping of slice indices is host arithmetic on integers; where it depends on the
window's values (which of its ends are zero), the first and last non-zero sample are read
once per window."""
import math
from functools import partial

import numpy

import cuarray
from cuarray._core.ndarray import ndarray
from cuarray.scipy import fft as _fft

__all__ = ["ShortTimeFFT", "closest_STFT_dual_window"]

_FFT_MODES = ("twosided", "centered", "onesided", "onesided2X")
_PADDINGS = ("zeros", "edge", "even", "odd")
_PAD_KW = {"zeros": {"mode": "constant"}, "edge": {"mode": "edge"},
           "even": {"mode": "reflect", "reflect_type": "even"},
           "odd": {"mode": "reflect", "reflect_type": "odd"}}


def _dev(v):
    return v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v))


def _all_finite(v):
    return bool(cuarray.all(cuarray.isfinite(v)))


def _overlap(w, hop):
    """sum over k of w shifted by k * hop (both ways), the window's periodic overlap."""
    out = w.copy()
    m = w.shape[0]
    for k in range(hop, m, hop):
        out[k:] += w[:-k]
        out[:-k] += w[k:]
    return out


def _dual_canonical(win, hop):
    """The canonical dual window win / sum_k |win[. - k hop]|^2 (ValueError if none)."""
    if hop > win.shape[0]:
        raise ValueError(f"hop={hop!r} is larger than window length of {win.shape[0]} => "
                         "STFT not invertible!")
    if win.dtype.kind in "biu":
        raise ValueError("Parameter 'win' cannot be of integer type, but "
                         f"win.dtype={win.dtype!r} => STFT not invertible!")
    DD = _overlap(win.real ** 2 + win.imag ** 2 if win.dtype.kind == "c" else win ** 2, hop)
    res = numpy.finfo(win.dtype).resolution
    if not bool(cuarray.all(DD >= res * cuarray.max(DD))):
        raise ValueError("Short-time Fourier Transform not invertible!")
    return win / DD


def closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True):
    """cuarray version of `scipy.signal.closest_STFT_dual_window`. alpha is a 0-d device
    array when scaled (1.0 otherwise)."""
    win = _dev(win)
    desired_dual = cuarray.ones_like(win) if desired_dual is None else _dev(desired_dual)
    if not (win.ndim == 1 and win.shape == desired_dual.shape):
        raise ValueError("Parameters `win` and `desired_dual` are not 1d arrays of equal "
                         f"length (win.shape={win.shape!r}, "
                         f"desired_dual.shape={desired_dual.shape!r})!")
    if not _all_finite(win):
        raise ValueError("Parameter win must have finite entries!")
    if not _all_finite(desired_dual):
        raise ValueError("Parameter desired_dual must have finite entries!")
    if not (isinstance(hop, (int, numpy.integer)) and 1 <= hop <= win.shape[0]):
        raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and "
                         f"len(win)={win.shape[0]!r}!")
    w_d = _dual_canonical(win, hop)
    q_d = w_d * _overlap(cuarray.conj(win) * desired_dual, hop)
    if not scaled:
        return w_d + desired_dual - q_d, 1.0
    num = cuarray.sum(cuarray.conj(q_d) * w_d)
    den = cuarray.sum(q_d.real * q_d.real) + (cuarray.sum(q_d.imag * q_d.imag)
                                              if q_d.dtype.kind == "c" else 0)
    ok = (cuarray.abs(num) > 0) & (den > numpy.finfo(w_d.dtype).resolution)
    if not bool(ok):
        raise ValueError("Unable to calculate scaled closest dual window due to numerically "
                         "unstable scaling factor! Try setting parameter `scaled` to False.")
    alpha = num / den
    return w_d + alpha * (desired_dual - q_d), alpha


class ShortTimeFFT:
    """cuarray version of `scipy.signal.ShortTimeFFT`: windows, spectra, `t` and `f` are
    device arrays; the scaling factors are host floats (read once per window)."""

    _dual_win = None
    _fft_mode = "onesided"
    _scaling = None
    _fac_mag = None
    _fac_psd = None
    _nz = None

    def __init__(self, win, hop, fs, *, fft_mode="onesided", mfft=None, dual_win=None,
                 scale_to=None, phase_shift=0):
        win = _dev(win)
        if not (win.ndim == 1 and win.size > 0):
            raise ValueError(f"Parameter win must be 1d, but win.shape={win.shape!r}!")
        if not _all_finite(win):
            raise ValueError("Parameter win must have finite entries!")
        if not (isinstance(hop, (int, numpy.integer)) and hop >= 1):
            raise ValueError(f"Parameter hop={hop!r} is not an integer >= 1!")
        self._win, self._hop, self.fs = win, int(hop), fs
        self.mfft = win.shape[0] if mfft is None else mfft
        if dual_win is not None:
            dual_win = _dev(dual_win)
            if dual_win.shape != win.shape:
                raise ValueError(f"dual_win.shape={dual_win.shape!r} must equal "
                                 f"win.shape={win.shape!r}!")
            if not _all_finite(dual_win):
                raise ValueError("Parameter dual_win must be a finite array!")
        self._dual_win = dual_win
        if scale_to is not None:
            self.scale_to(scale_to)
        self.fft_mode, self.phase_shift = fft_mode, phase_shift

    # ---- construction ------------------------------------------------------------------
    @classmethod
    def from_dual(cls, dual_win, hop, fs, *, fft_mode="onesided", mfft=None, scale_to=None,
                  phase_shift=0):
        """The STFT whose dual window is dual_win (its window: the canonical dual)."""
        dual_win = _dev(dual_win)
        return cls(_dual_canonical(dual_win, hop), hop, fs, fft_mode=fft_mode, mfft=mfft,
                   dual_win=dual_win, scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_window(cls, win_param, fs, nperseg, noverlap, *, symmetric_win=False,
                    fft_mode="onesided", mfft=None, scale_to=None, phase_shift=0):
        """The STFT of a window from get_window, hop nperseg - noverlap."""
        from cuarray.scipy.signal.windows import get_window
        win = get_window(win_param, nperseg, fftbins=not symmetric_win)
        return cls(win, hop=nperseg - noverlap, fs=fs, fft_mode=fft_mode, mfft=mfft,
                   scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_win_equals_dual(cls, desired_win, hop, fs, *, fft_mode="onesided", mfft=None,
                             scale_to=None, phase_shift=0):
        """The STFT closest to desired_win whose window is its own dual."""
        desired_win = _dev(desired_win)
        if not (desired_win.ndim == 1 and desired_win.size > 0):
            raise ValueError("Parameter desired_win is not 1d, but "
                             f"desired_win.shape={desired_win.shape!r}!")
        if desired_win.dtype.kind in "biu":
            raise ValueError("Parameter desired_win cannot be of integer type, but "
                             f"desired_win.dtype={desired_win.dtype!r} => cast to float | "
                             "complex ")
        if not _all_finite(desired_win):
            raise ValueError("Parameter desired_win must have finite entries!")
        m = desired_win.shape[0]
        if not (isinstance(hop, (int, numpy.integer)) and 1 <= hop <= m):
            raise ValueError(f"Parameter hop={hop!r} is not an integer between 1 and "
                             f"len(desired_win)={m!r}!")
        if scale_to not in ("magnitude", "psd", "unitary", None):
            raise ValueError(f"Parameter scale_to={scale_to!r} not in ['magnitude', 'psd', "
                             "'unitary', None]!")
        mfft = m if mfft is None else mfft
        s_fac = math.sqrt(mfft) if scale_to == "unitary" else 1
        # the norm of each residue class m::hop, by one reduction over a (rows, hop) view
        rows = -(-m // hop)
        padded = cuarray.zeros(rows * hop, desired_win.dtype)
        padded[:m] = desired_win
        mag = padded.reshape(rows, hop)
        mag = mag.real ** 2 + mag.imag ** 2 if mag.dtype.kind == "c" else mag ** 2
        norms = cuarray.sqrt(cuarray.sum(mag, axis=0))
        res = numpy.finfo(desired_win.dtype).resolution * cuarray.max(desired_win)
        if not bool(cuarray.all(norms > res)):
            raise ValueError("Parameter desired_win does not have valid STFT dual window "
                             f"for hop={hop!r}!")
        win = desired_win / cuarray.tile(norms, rows)[:m]
        sft = cls(win / s_fac, hop, fs, fft_mode=fft_mode, mfft=mfft, dual_win=win * s_fac,
                  phase_shift=phase_shift, scale_to=None if scale_to == "unitary" else scale_to)
        if scale_to == "unitary":
            sft._scaling = scale_to
        return sft

    # ---- parameters --------------------------------------------------------------------
    @property
    def win(self):
        return self._win

    @property
    def hop(self):
        return self._hop

    @property
    def T(self):
        return 1 / self._fs

    @T.setter
    def T(self, v):
        if not v > 0:
            raise ValueError(f"Sampling interval T={v} must be positive!")
        self._fs = 1 / v

    @property
    def fs(self):
        return self._fs

    @fs.setter
    def fs(self, v):
        if not v > 0:
            raise ValueError(f"Sampling frequency fs={v} must be positive!")
        self._fs = v

    @property
    def fft_mode(self):
        return self._fft_mode

    @fft_mode.setter
    def fft_mode(self, t):
        if t not in _FFT_MODES:
            raise ValueError(f"fft_mode='{t}' not in {_FFT_MODES}!")
        if t in ("onesided", "onesided2X") and self.win.dtype.kind == "c":
            raise ValueError(f"One-sided spectra, i.e., fft_mode='{t}', are not allowed for "
                             "complex-valued windows!")
        if t == "onesided2X" and self.scaling is None:
            raise ValueError(f"For scaling is None, fft_mode='{t}' is invalid!Do "
                             "scale_to('psd') or scale_to('magnitude')!")
        self._fft_mode = t

    @property
    def mfft(self):
        return self._mfft

    @mfft.setter
    def mfft(self, n_):
        if not n_ >= self.m_num:
            raise ValueError(f"Attribute mfft={n_} needs to be at least the window length "
                             f"m_num={self.m_num}!")
        self._mfft = n_

    @property
    def scaling(self):
        return self._scaling

    def scale_to(self, scaling):
        """Scale the window (and its dual) to 'magnitude' or 'psd'."""
        if scaling not in ("magnitude", "psd"):
            raise ValueError(f"scaling={scaling!r} not in {{'magnitude', 'psd'}}!")
        if self._scaling == scaling:
            return
        s_fac = self.fac_psd if scaling == "psd" else self.fac_magnitude
        self._win = self._win * s_fac
        if self._dual_win is not None:
            self._dual_win = self._dual_win / s_fac
        self._fac_mag, self._fac_psd = None, None
        self._scaling = scaling

    @property
    def phase_shift(self):
        return self._phase_shift

    @phase_shift.setter
    def phase_shift(self, v):
        if v is None:
            self._phase_shift = v
            return
        if not isinstance(v, (int, numpy.integer)):
            raise ValueError(f"phase_shift={v} has the unit samples. Hence it needs to be an "
                             "int or it may be None!")
        if not -self.mfft < v < self.mfft:
            raise ValueError("-mfft < phase_shift < mfft does not hold for "
                             f"mfft={self.mfft}, phase_shift={v}!")
        self._phase_shift = v

    @property
    def dual_win(self):
        if self._dual_win is None:
            self._dual_win = _dual_canonical(self.win, self.hop)
        return self._dual_win

    @property
    def invertible(self):
        try:
            return self.dual_win.shape[0] > 0
        except ValueError:
            return False

    @property
    def fac_magnitude(self):
        if self.scaling == "magnitude":
            return 1
        if self._fac_mag is None:
            self._fac_mag = 1 / abs(complex(cuarray.sum(self.win)))
        return self._fac_mag

    @property
    def fac_psd(self):
        if self.scaling == "psd":
            return 1
        if self._fac_psd is None:
            self._fac_psd = 1 / math.sqrt(float(cuarray.sum(self._w2())) / self.T)
        return self._fac_psd

    # ---- geometry of the slices ------------------------------------------------------
    @property
    def m_num(self):
        return self.win.shape[0]

    @property
    def m_num_mid(self):
        return self.m_num // 2

    def _w2(self):
        w = self.win
        return w.real ** 2 + w.imag ** 2 if w.dtype.kind == "c" else w ** 2

    def _nonzero_ends(self):
        """(first, last) index of the window's non-zero samples, (m_num, -1) if none; read
        once per window."""
        if self._nz is None or self._nz[0] is not self._win:
            nz = self._w2() != 0
            m = self.m_num
            if bool(cuarray.any(nz)):
                ends = cuarray.stack([cuarray.argmax(nz), cuarray.argmax(nz[::-1])]).get()
                self._nz = (self._win, (int(ends[0]), m - 1 - int(ends[1])))
            else:
                self._nz = (self._win, (m, -1))
        return self._nz[1]

    def _tail_zero(self, k):
        """all(w2[-k:] == 0) for 0 < k (the whole window when k >= m_num)."""
        return self._nonzero_ends()[1] < self.m_num - k

    def _head_zero(self, k):
        """all(w2[:k] == 0) for 0 < k."""
        return self._nonzero_ends()[0] >= min(k, self.m_num)

    def _pre_padding(self):
        n0 = -self.m_num_mid
        for p_, n_ in enumerate(range(n0, n0 - self.m_num - 1, -self.hop)):
            n_next = n_ - self.hop
            if n_next + self.m_num <= 0 or self._tail_zero(-n_next):
                return n_, -p_
        raise RuntimeError("the pre-padding search ran past the window")

    @property
    def k_min(self):
        return self._pre_padding()[0]

    @property
    def p_min(self):
        return self._pre_padding()[1]

    def _post_padding(self, n):
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        q1 = n // self.hop
        k1 = q1 * self.hop - self.m_num_mid
        for q_, k_ in enumerate(range(k1, n + self.m_num, self.hop), start=q1):
            n_next = k_ + self.hop
            if n_next >= n or self._head_zero(n - n_next):
                return k_ + self.m_num, q_ + 1
        raise RuntimeError("the post-padding search ran past the signal")

    def k_max(self, n):
        return self._post_padding(n)[0]

    def p_max(self, n):
        return self._post_padding(n)[1]

    def p_num(self, n):
        return self.p_max(n) - self.p_min

    @property
    def lower_border_end(self):
        m0 = self._nonzero_ends()[0]
        k0 = -self.m_num_mid + m0
        for q_, k_ in enumerate(range(k0, self.hop + 1, self.hop)):
            if k_ + self.hop >= 0:
                return k_ + self.m_num, q_ + 1
        return 0, max(self.p_min, 0)

    def upper_border_begin(self, n):
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        q2 = n // self.hop + 1
        q1 = max((n - self.m_num) // self.hop - 1, -1)
        for q_ in range(q2, q1, -1):
            k_ = q_ * self.hop + (self.m_num - self.m_num_mid)
            if k_ <= n or self._tail_zero(k_ - n):
                return (q_ + 1) * self.hop - self.m_num_mid, q_ + 1
        raise RuntimeError("the upper border search ran past the signal")

    @property
    def delta_t(self):
        return self.T * self.hop

    def p_range(self, n, p0=None, p1=None):
        p_max = self.p_max(n)
        p0_ = self.p_min if p0 is None else p0
        p1_ = p_max if p1 is None else p1
        if not self.p_min <= p0_ < p1_ <= p_max:
            raise ValueError(f"Invalid Parameter p0={p0!r}, p1={p1!r}, i.e., "
                             f"self.p_min={self.p_min!r} <= p0 < p1 <= p_max={p_max!r} does "
                             f"not hold for signal length n={n!r}!")
        return p0_, p1_

    def t(self, n, p0=None, p1=None, k_offset=0):
        if not (isinstance(n, (int, numpy.integer)) and n > 0):
            raise ValueError(f"Parameter n={n!r} is not a positive integer!")
        p0, p1 = self.p_range(n, p0, p1)
        return cuarray.arange(p0, p1) * self.delta_t + k_offset * self.T

    def nearest_k_p(self, k, left=True):
        p_q, remainder = divmod(k, self.hop)
        if remainder == 0:
            return k
        return p_q * self.hop if left else (p_q + 1) * self.hop

    @property
    def delta_f(self):
        return 1 / (self.mfft * self.T)

    @property
    def f_pts(self):
        return self.mfft // 2 + 1 if self.onesided_fft else self.mfft

    @property
    def onesided_fft(self):
        return self.fft_mode in ("onesided", "onesided2X")

    @property
    def f(self):
        if self.onesided_fft:
            return cuarray.fft.rfftfreq(self.mfft, self.T)
        f = cuarray.fft.fftfreq(self.mfft, self.T)
        return f if self.fft_mode == "twosided" else cuarray.fft.fftshift(f)

    def extent(self, n, axes_seq="tf", center_bins=False):
        if axes_seq not in ("tf", "ft"):
            raise ValueError(f"Parameter axes_seq={axes_seq!r} not in ['tf', 'ft']!")
        if self.onesided_fft:
            q0, q1 = 0, self.f_pts
        elif self.fft_mode == "centered":
            q0 = -(self.mfft // 2)
            q1 = self.mfft // 2 if self.mfft % 2 == 0 else self.mfft // 2 + 1
        else:
            raise ValueError(f"Attribute fft_mode={self.fft_mode} must be in ['centered', "
                             "'onesided', 'onesided2X']")
        p0, p1 = self.p_min, self.p_max(n)
        c = 0.5 if center_bins else 0.0
        t0, t1 = self.delta_t * (p0 - c), self.delta_t * (p1 - c)
        f0, f1 = self.delta_f * (q0 - c), self.delta_f * (q1 - c)
        return (t0, t1, f0, f1) if axes_seq == "tf" else (f0, f1, t0, t1)

    # ---- transforms ------------------------------------------------------------------
    def _shift(self):
        return (self.phase_shift + self.m_num_mid) % self.m_num

    def _fft_func(self, x):
        """The FFT of windowed slices along the last axis, as fft_mode asks."""
        if self.phase_shift is not None:
            if x.shape[-1] < self.mfft:
                pad = [(0, 0)] * (x.ndim - 1) + [(0, self.mfft - x.shape[-1])]
                x = cuarray.pad(x, pad)
            x = cuarray.roll(x, -self._shift(), axis=-1)
        if self.fft_mode == "twosided":
            return _fft.fft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "centered":
            return cuarray.fft.fftshift(_fft.fft(x, n=self.mfft, axis=-1), axes=-1)
        X = _fft.rfft(x, n=self.mfft, axis=-1)
        if self.fft_mode == "onesided2X":
            fac = math.sqrt(2) if self.scaling == "psd" else 2
            X[..., 1:-1 if self.mfft % 2 == 0 else None] *= fac
        return X

    def _ifft_func(self, X):
        if self.fft_mode == "twosided":
            x = _fft.ifft(X, n=self.mfft, axis=-1)
        elif self.fft_mode == "centered":
            x = _fft.ifft(cuarray.fft.ifftshift(X, axes=-1), n=self.mfft, axis=-1)
        elif self.fft_mode == "onesided":
            x = _fft.irfft(X, n=self.mfft, axis=-1)
        else:
            Xc = X.copy()
            fac = math.sqrt(2) if self.scaling == "psd" else 2
            Xc[..., 1:-1 if self.mfft % 2 == 0 else None] /= fac
            x = _fft.irfft(Xc, n=self.mfft, axis=-1)
        if self.phase_shift is None:
            return x[..., :self.m_num]
        return cuarray.roll(x, self._shift(), axis=-1)[..., :self.m_num]

    def _slices(self, x, k_off, p0, p1, padding):
        """Slices p0..p1-1 of x (last axis) as one (..., p1 - p0, m_num) gather."""
        if padding not in _PADDINGS:
            raise ValueError(f"Parameter padding={padding!r} not in {_PADDINGS}!")
        n, n1 = x.shape[-1], (p1 - p0) * self.hop
        k0 = p0 * self.hop - self.m_num_mid + k_off
        k1 = k0 + n1 + self.m_num
        i0, i1 = max(k0, 0), min(k1, n)
        width = [(0, 0)] * (x.ndim - 1) + [(-min(k0, 0), max(k1 - n, 0))]
        x1 = cuarray.pad(x[..., i0:i1], width, **_PAD_KW[padding])
        idx = (cuarray.arange(0, n1, self.hop)[:, None] + cuarray.arange(self.m_num)[None, :])
        return cuarray.take(x1, idx, axis=-1)

    def stft(self, x, p0=None, p1=None, *, k_offset=0, padding="zeros", axis=-1):
        """cuarray version of `scipy.signal.ShortTimeFFT.stft`."""
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset, padding=padding,
                                 axis=axis)

    def stft_detrend(self, x, detr, p0=None, p1=None, *, k_offset=0, padding="zeros",
                     axis=-1):
        """cuarray version of `scipy.signal.ShortTimeFFT.stft_detrend` (a callable detr
        is called once per slice, as SciPy does)."""
        x = _dev(x)
        if self.onesided_fft and x.dtype.kind == "c":
            raise ValueError(f"Complex-valued `x` not allowed for self.fft_mode="
                             f"{self.fft_mode!r}'! Set property `fft_mode` to 'twosided' or "
                             "'centered'.")
        if isinstance(detr, str):
            from cuarray.scipy.signal._hilbert_detrend import detrend
            detr = partial(detrend, type=detr)
            vectorized = True
        elif detr is None or callable(detr):
            vectorized = False
        else:
            raise ValueError(f"Parameter detr={detr!r} is not a str, function or None!")
        n = x.shape[axis]
        m2p = self.m_num - self.m_num_mid
        if not n >= m2p:
            e_str = f"len(x)={len(x)!r}" if x.ndim == 1 else f"of axis={axis!r} of {x.shape}"
            raise ValueError(f"{e_str} must be >= ceil(m_num/2) = {m2p}!")
        if x.ndim > 1:
            x = cuarray.moveaxis(x, axis, -1)
        p0, p1 = self.p_range(n, p0, p1)
        xs = self._slices(x, k_offset, p0, p1, padding)
        if detr is not None:
            if vectorized:  # detrend works along the last axis, slice by slice
                xs = detr(xs)
            else:
                xs = cuarray.stack([detr(xs[..., p, :]) for p in range(p1 - p0)], axis=-2)
        S = self._fft_func(xs * cuarray.conj(self.win)).astype(numpy.complex128, copy=False)
        S = cuarray.swapaxes(S, -1, -2)
        if x.ndim > 1:
            return cuarray.moveaxis(S, -2, axis if axis >= 0 else axis - 1)
        return S

    def spectrogram(self, x, y=None, detr=None, *, p0=None, p1=None, k_offset=0,
                    padding="zeros", axis=-1):
        """cuarray version of `scipy.signal.ShortTimeFFT.spectrogram`."""
        Sx = self.stft_detrend(x, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        if y is None or y is x:
            return Sx.real ** 2 + Sx.imag ** 2
        Sy = self.stft_detrend(y, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        return Sx * cuarray.conj(Sy)

    def istft(self, S, k0=0, k1=None, *, f_axis=-2, t_axis=-1):
        """cuarray version of `scipy.signal.ShortTimeFFT.istft`."""
        S = _dev(S)
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis!r} may not be equal to t_axis={t_axis!r}!")
        if S.shape[f_axis] != self.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]!r} must be equal to "
                             f"self.f_pts={self.f_pts!r} (S.shape={S.shape!r})!")
        n_min = self.m_num - self.m_num_mid
        q_num = self.p_num(n_min)
        if not S.shape[t_axis] >= q_num:
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]!r} needs to have at least "
                             f"{q_num} slices (S.shape={S.shape!r})!")
        if t_axis != S.ndim - 1 or f_axis != S.ndim - 2:
            t_axis = S.ndim + t_axis if t_axis < 0 else t_axis
            f_axis = S.ndim + f_axis if f_axis < 0 else f_axis
            S = cuarray.moveaxis(S, (f_axis, t_axis), (-2, -1))
        q_max = S.shape[-1] + self.p_min
        k_max = (q_max - 1) * self.hop + self.m_num - self.m_num_mid
        k1 = k_max if k1 is None else k1
        if not self.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"(self.k_min={self.k_min!r}) <= (k0={k0!r}) < (k1={k1!r}) <= "
                             f"(k_max={k_max!r}) is false!")
        num_pts = k1 - k0
        if not num_pts >= n_min:
            raise ValueError(f"(k1={k1!r}) - (k0={k0!r}) = {num_pts} has to be at least the "
                             f"half the window length {n_min}!")
        q0 = k0 // self.hop + self.p_min if k0 >= 0 else k0 // self.hop
        q1 = min(self.p_max(k1), q_max)
        dt = numpy.float64 if self.onesided_fft else numpy.complex128
        x = cuarray.zeros(S.shape[:-2] + (num_pts,), dt)
        if q1 > q0:
            sl = S[..., :, q0 - self.p_min:q1 - self.p_min]
            xs = self._ifft_func(cuarray.swapaxes(sl, -1, -2)) * self.dual_win
            xs = xs.astype(dt, copy=False)
            self._overlap_add(x, xs, q0, k0)
        if x.ndim > 1:
            x = cuarray.moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x

    def _overlap_add(self, x, xs, q0, k0):
        """x[k - k0] += xs[q, k - (q0 + q) hop + m_num_mid] for every slice q: window piece
        b (samples b hop .. b hop + hop - 1) of all slices tiles a contiguous range."""
        hop, m = self.hop, self.m_num
        nq, n = xs.shape[-2], x.shape[-1]
        lead = xs.shape[:-2]
        for b in range(-(-m // hop)):
            w = min(hop, m - b * hop)
            piece = xs[..., b * hop:b * hop + w]
            if w < hop:
                piece = cuarray.pad(piece, [(0, 0)] * (piece.ndim - 1) + [(0, hop - w)])
            flat = piece.reshape(lead + (nq * hop,))
            start = q0 * hop - self.m_num_mid + b * hop - k0  # position of flat[0] in x
            lo, hi = max(start, 0), min(start + nq * hop, n)
            if lo < hi:
                x[..., lo:hi] += flat[..., lo - start:hi - start]
