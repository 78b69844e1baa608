"""cuarray.scipy.fft: SciPy's FFT module on cuFFT (cuarray version of `scipy.fft` /
`cupyx.scipy.fft`). The module is a SciPy uarray backend:
`with scipy.fft.set_backend(cuarray.scipy.fft): scipy.fft.fft(gpu_array)` runs here."""
from cuarray.scipy.fft._backend import (  # noqa: F401
    __ua_convert__, __ua_domain__, __ua_function__)
from cuarray.scipy.fft._fft import (  # noqa: F401
    fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2, rfftn, irfftn, hfft, ihfft,
    hfft2, ihfft2, hfftn, ihfftn, fftfreq, rfftfreq, fftshift, ifftshift)
from cuarray.scipy.fft._fftlog import fht, fhtoffset, ifht  # noqa: F401
from cuarray.scipy.fft._helper import next_fast_len  # noqa: F401
from cuarray.scipy.fft._plan import get_fft_plan  # noqa: F401
from cuarray.scipy.fft._realtransforms import (  # noqa: F401
    dct, dctn, dst, dstn, idct, idctn, idst, idstn)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "dct", "idct",
           "dst", "idst", "dctn", "idctn", "dstn", "idstn", "fht", "ifht", "fhtoffset",
           "get_fft_plan"]
