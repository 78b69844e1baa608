"""cuarray.scipy.fft: SciPy's FFT module on cuFFT (cuarray version of `scipy.fft` /
`cupyx.scipy.fft`)."""
from cuarray.scipy.fft._fft import (  # noqa: F401
    fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft,
    hfft2, ihfft2, hfftn, ihfftn, fftfreq, rfftfreq, fftshift, ifftshift)
from cuarray.scipy.fft._helper import next_fast_len  # noqa: F401

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len"]
