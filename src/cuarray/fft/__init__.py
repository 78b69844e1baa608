"""Discrete Fourier transforms on cuFFT (cuarray version of `numpy.fft` / `cupy.fft`)."""
from cuarray.fft import config  # noqa: F401
from cuarray.fft._fft import (  # noqa: F401
    fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft)
from cuarray.fft._helper import fftfreq, rfftfreq, fftshift, ifftshift  # noqa: F401

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
