"""Issue 18: `cuarray.scipy.signal` against `cupyx.scipy.signal`, one process, same inputs.

Inputs are float32 noise from a fixed seed; filter coefficients are float32 too, so both
libraries filter in float32.
"""
import numpy

from benchmarks.harness import Group, Target, device_time

signal = Group("signal", "scipy.signal: convolution, IIR filters, spectra, resampling, peaks")


def _sig(xp):
    if xp.__name__ == "cupy":
        import cupyx.scipy.signal
        return cupyx.scipy.signal
    import cuarray.scipy.signal
    return cuarray.scipy.signal


def _noise(xp, shape, seed=0):
    rs = numpy.random.default_rng(seed)
    return xp.asarray(rs.standard_normal(shape).astype(numpy.float32))


# Butterworth low-pass coefficients (order 8, Wn 0.2; 4 sections for sosfilt), written out
# so that the rows do not depend on either library's filter design.
_B8 = [2.3959e-05, 1.9167e-04, 6.7085e-04, 1.3417e-03, 1.6771e-03, 1.3417e-03, 6.7085e-04,
       1.9167e-04, 2.3959e-05]
_A8 = [1.0, -4.7845, 10.4450, -13.6040, 11.4452, -6.3904, 2.2967, -0.4860, 0.0462]
_SOS4 = [[2.3959e-05, 4.7918e-05, 2.3959e-05, 1.0, -1.0457, 0.2833],
         [1.0, 2.0, 1.0, 1.0, -1.0943, 0.3621],
         [1.0, 2.0, 1.0, 1.0, -1.2017, 0.5193],
         [1.0, 2.0, 1.0, 1.0, -1.4428, 0.7904]]


@signal.row("fftconvolve 2^22 by 2^12 float32", unit="ms", target=Target.ratio("<=", 1.0))
def fftconvolve(xp, ctx):
    s = _sig(xp)
    a, b = _noise(xp, 1 << 22), _noise(xp, 1 << 12, 1)
    return device_time(lambda: s.fftconvolve(a, b), xp, repeat=ctx.repeat)


@signal.row("oaconvolve 2^24 by 511 float32", unit="ms", target=Target.ratio("<=", 1.0))
def oaconvolve(xp, ctx):
    s = _sig(xp)
    a, b = _noise(xp, 1 << 24), _noise(xp, 511, 1)
    return device_time(lambda: s.oaconvolve(a, b), xp, repeat=ctx.repeat)


@signal.row("lfilter order-8 IIR along 2^24 float32", unit="ms",
            target=Target.ratio("<=", 0.5))
def lfilter(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, 1 << 24)
    b = xp.asarray(numpy.array(_B8, numpy.float32))
    a = xp.asarray(numpy.array(_A8, numpy.float32))
    return device_time(lambda: s.lfilter(b, a, x), xp, repeat=ctx.repeat)


@signal.row("sosfilt 4 sections, 1024 channels × 2^16 float32", unit="ms",
            target=Target.ratio("<=", 1.0))
def sosfilt(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, (1024, 1 << 16))
    sos = xp.asarray(numpy.array(_SOS4, numpy.float32))
    return device_time(lambda: s.sosfilt(sos, x), xp, repeat=ctx.repeat)


@signal.row("welch 2^24 float32, nperseg 4096", unit="ms", target=Target.ratio("<=", 1.0))
def welch(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, 1 << 24)
    return device_time(lambda: s.welch(x, nperseg=4096), xp, repeat=ctx.repeat)


@signal.row("stft 2^22 float32 (nperseg 256)", unit="ms", target=Target.ratio("<=", 1.0))
def stft(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, 1 << 22)
    return device_time(lambda: s.stft(x), xp, repeat=ctx.repeat)


@signal.row("resample_poly 2^24 float32, up 3 down 2", unit="ms",
            target=Target.ratio("<=", 1.0))
def resample_poly(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, 1 << 24)
    return device_time(lambda: s.resample_poly(x, 3, 2), xp, repeat=ctx.repeat)


@signal.row("find_peaks 2^24 float32 noise", unit="ms", target=Target.ratio("<=", 1.0))
def find_peaks(xp, ctx):
    s = _sig(xp)
    x = _noise(xp, 1 << 24)
    return device_time(lambda: s.find_peaks(x), xp, repeat=ctx.repeat)
