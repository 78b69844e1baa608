"""Issue 18: `cuarray.scipy.signal` against `cupyx.scipy.signal`, one process, same inputs.

Inputs are float32 noise from a fixed seed; filter coefficients are float32 too, so both
libraries filter in float32.
"""
import numpy

from benchmarks.harness import Group, Skip, Target, device_time

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
_B8 = [2.395964410377617e-05, 1.9167715283020936e-04, 6.708700349057328e-04,
       1.3417400698114655e-03, 1.677175087264332e-03, 1.3417400698114655e-03,
       6.708700349057328e-04, 1.9167715283020936e-04, 2.395964410377617e-05]
_A8 = [1.0, -4.784514894995809, 10.445041065534665, -13.457719890241556, 11.12933103916398,
       -6.025260397297651, 2.0792738030118767, -0.4172171569897821, 0.03720010070484524]
_SOS4 = [[2.395964410377617e-05, 4.791928820755234e-05, 2.395964410377617e-05, 1.0,
          -1.0263514742610553, 0.26864019099379005],
         [1.0, 2.0, 1.0, 1.0, -1.0868584613628944, 0.343430940165366],
         [1.0, 2.0, 1.0, 1.0, -1.2197253651240232, 0.5076634651740437],
         [1.0, 2.0, 1.0, 1.0, -1.4515795942478362, 0.794251053241888]]


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


def _conv_variant(name, n, k, **settings):
    """fftconvolve/oaconvolve with cuarray's overlap-add settings forced (CuPy's figure is
    the same as in the plain row), so the defaults can be checked by measurement."""
    def row(xp, ctx):
        s = _sig(xp)
        a, b = _noise(xp, n), _noise(xp, k, 1)
        f = getattr(s, name)
        if xp.__name__ != "cuarray":
            return device_time(lambda: f(a, b), xp, repeat=ctx.repeat)
        from cuarray.scipy.signal import _convolution as conv
        saved = {key: getattr(conv, key) for key in settings}
        for key, v in settings.items():
            setattr(conv, key, v)
        try:
            return device_time(lambda: f(a, b), xp, repeat=ctx.repeat)
        finally:
            for key, v in saved.items():
                setattr(conv, key, v)
    return row


signal.row("fftconvolve 2^22 by 2^12 float32 [one transform]", unit="ms")(
    _conv_variant("fftconvolve", 1 << 22, 1 << 12, OA_IN_FFTCONVOLVE=False))
signal.row("fftconvolve 2^22 by 2^12 float32 [2-3-5-7 blocks]", unit="ms")(
    _conv_variant("fftconvolve", 1 << 22, 1 << 12, OA_BLOCKS="scipy"))
signal.row("oaconvolve 2^24 by 511 float32 [2-3-5-7 blocks]", unit="ms")(
    _conv_variant("oaconvolve", 1 << 24, 511, OA_BLOCKS="scipy"))


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


@signal.row("max_len_seq nbits 24 (2^24 - 1 samples)", unit="ms", target=Target.ratio("<=", 1.0))
def max_len_seq(xp, ctx):
    s = _sig(xp)
    return device_time(lambda: s.max_len_seq(24), xp, repeat=ctx.repeat)


@signal.row("place_poles YT, 8 states, 4 inputs", unit="ms", target=Target.ratio("<=", 1.0))
def place_poles(xp, ctx):
    s = _sig(xp)
    rs = numpy.random.default_rng(3)
    A, B = xp.asarray(rs.standard_normal((8, 8))), xp.asarray(rs.standard_normal((8, 4)))
    poles = [-1.0, -2.0, -3.0, -4.0, -1 + 1j, -1 - 1j, -2 + 3j, -2 - 3j]
    return device_time(lambda: s.place_poles(A, B, poles), xp, warmup=1,
                       repeat=min(ctx.repeat, 5))


@signal.row("residue, degree 6 over degree 8", unit="ms", target=Target.ratio("<=", 1.0))
def residue(xp, ctx):
    s = _sig(xp)
    rs = numpy.random.default_rng(4)
    b, a = xp.asarray(rs.standard_normal(7)), xp.asarray(rs.standard_normal(9))
    return device_time(lambda: s.residue(b, a), xp, repeat=min(ctx.repeat, 5))


@signal.row("ShortTimeFFT.stft 2^22 float32, hann 256, hop 128", unit="ms")
def short_time_fft(xp, ctx):
    if xp.__name__ == "cupy":
        raise Skip("CuPy 14.2 has no ShortTimeFFT")
    s = _sig(xp)
    x = _noise(xp, 1 << 22)
    sft = s.ShortTimeFFT.from_window("hann", 1.0, 256, 128)
    return device_time(lambda: sft.stft(x), xp, repeat=ctx.repeat)


@signal.row("envelope 2^22 float32, band (1, 4096)", unit="ms")
def envelope(xp, ctx):
    if xp.__name__ == "cupy":
        raise Skip("CuPy 14.2 has no envelope")
    s = _sig(xp)
    x = _noise(xp, 1 << 22)
    return device_time(lambda: s.envelope(x, (1, 4096)), xp, repeat=ctx.repeat)
