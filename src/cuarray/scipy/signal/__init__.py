"""cuarray.scipy.signal: SciPy's signal processing on the GPU (cuarray version of
`scipy.signal` / `cupyx.scipy.signal`).

Beyond CuPy 14.2's documented names it also has SciPy's remez, ShortTimeFFT,
closest_STFT_dual_window, envelope, firwin_2d and find_peaks_cwt.
"""
from cuarray.scipy.signal import windows  # noqa: F401
from cuarray.scipy.signal.windows import get_window  # noqa: F401
from cuarray.scipy.signal._convolution import *  # noqa: F401,F403
from cuarray.scipy.signal._lfilter import *  # noqa: F401,F403
from cuarray.scipy.signal._order_filters import *  # noqa: F401,F403
from cuarray.scipy.signal._hilbert_detrend import *  # noqa: F401,F403
from cuarray.scipy.signal._fir_design import *  # noqa: F401,F403
from cuarray.scipy.signal._resample import *  # noqa: F401,F403
from cuarray.scipy.signal._spectral import *  # noqa: F401,F403
from cuarray.scipy.signal._peaks import *  # noqa: F401,F403
from cuarray.scipy.signal._waveforms import *  # noqa: F401,F403
from cuarray.scipy.signal._savgol import *  # noqa: F401,F403
from cuarray.scipy.signal._splines import *  # noqa: F401,F403
from cuarray.scipy.signal._freq_response import *  # noqa: F401,F403
from cuarray.scipy.signal._lombscargle import *  # noqa: F401,F403
from cuarray.scipy.signal._zpk2sos import *  # noqa: F401,F403
from cuarray.scipy.signal._iir_design import *  # noqa: F401,F403
from cuarray.scipy.signal._tf_transforms import *  # noqa: F401,F403
from cuarray.scipy.signal._order_selection import *  # noqa: F401,F403
from cuarray.scipy.signal._state_space import *  # noqa: F401,F403
from cuarray.scipy.signal._czt import *  # noqa: F401,F403
from cuarray.scipy.signal._wavelets import *  # noqa: F401,F403
from cuarray.scipy.signal._elliptic import *  # noqa: F401,F403
from cuarray.scipy.signal._dlsim import *  # noqa: F401,F403
from cuarray.scipy.signal._ltisys import *  # noqa: F401,F403
from cuarray.scipy.signal._residues import *  # noqa: F401,F403
from cuarray.scipy.signal._max_len_seq import *  # noqa: F401,F403
from cuarray.scipy.signal._gammatone import *  # noqa: F401,F403
from cuarray.scipy.signal._place_poles import *  # noqa: F401,F403
from cuarray.scipy.signal._short_time_fft import *  # noqa: F401,F403
from cuarray.scipy.signal._peaks_cwt import *  # noqa: F401,F403
from cuarray.scipy.signal._remez import *  # noqa: F401,F403
