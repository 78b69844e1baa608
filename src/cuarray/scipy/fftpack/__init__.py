"""cuarray.scipy.fftpack: SciPy's legacy FFT module on cuFFT (cuarray version of
`scipy.fftpack` / `cupyx.scipy.fftpack`)."""
from cuarray.scipy.fftpack._fftpack import (  # noqa: F401
    fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, fftfreq, rfftfreq, fftshift, ifftshift,
    next_fast_len, dct, idct, dst, idst, dctn, idctn, dstn, idstn)
from cuarray.scipy.fft._plan import get_fft_plan  # noqa: F401

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "dct", "idct", "dst", "idst",
           "dctn", "idctn", "dstn", "idstn", "get_fft_plan"]
