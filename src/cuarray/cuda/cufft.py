"""CuPy's `cupy.cuda.cufft`: cuFFT plans you make yourself (`Plan1d`, `PlanNd`).

A plan entered as a context manager (`with plan: cuarray.fft.fft(x)`) runs the
transforms of `cuarray.fft` inside the block, instead of a cached plan; a transform
the plan does not fit raises ValueError, as in CuPy. Plans own their work area, taken
from cuarray's memory pool.
"""
import numpy

from cuarray._core.host_policy import not_device_error
from cuarray._core.ndarray import ndarray
from cuarray._libs import cufft as _cufft
from cuarray._libs import cufft_context as _ctx
from cuarray._runtime.device import ensure_context

CUFFT_C2C, CUFFT_R2C, CUFFT_C2R = 0x29, 0x2a, 0x2c
CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D = 0x69, 0x6a, 0x6c
CUFFT_FORWARD, CUFFT_INVERSE = -1, 1
_TYPES = (CUFFT_C2C, CUFFT_R2C, CUFFT_C2R, CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D)
# (input dtype, output dtype) by plan type
_DTYPES = {CUFFT_C2C: ("complex64", "complex64"), CUFFT_R2C: ("float32", "complex64"),
           CUFFT_C2R: ("complex64", "float32"), CUFFT_Z2Z: ("complex128", "complex128"),
           CUFFT_D2Z: ("float64", "complex128"), CUFFT_Z2D: ("complex128", "float64")}

get_current_plan = _ctx.get_current_plan


def getVersion():
    """cuFFT's version number (e.g. 12000)."""
    ensure_context()
    return _cufft._lib().get_version()


def _check_type(fft_type):
    if fft_type not in _TYPES:
        raise ValueError(f"unknown cuFFT type {fft_type!r}: use one of CUFFT_C2C, CUFFT_R2C, "
                         f"CUFFT_C2R, CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D")


class _PlanBase:
    def _make(self, fft_type, n, inembed, istride, idist, onembed, ostride, odist, batch):
        _check_type(fft_type)
        if batch < 1 or any(x < 1 for x in n):
            raise ValueError(f"cuFFT plan lengths and batch must be positive, got n={n}, "
                             f"batch={batch}")
        dev = ensure_context()
        key = (fft_type, tuple(n), inembed, istride, idist, onembed, ostride, odist, batch, dev)
        self.fft_type = fft_type
        self.batch = batch
        self._plan = _cufft.Plan(key)

    @property
    def plan(self):
        """The cufftHandle as an int."""
        return int(self._plan.handle)

    @property
    def work_area(self):
        return self._plan.work_area

    def __enter__(self):
        _ctx.push(self)
        return self

    def __exit__(self, *exc):
        _ctx.pop()

    def get_output_array(self, a, order="C"):
        """A new array of the shape and dtype this plan writes for input `a`."""
        import cuarray
        return cuarray.empty(self._out_shape(a), dtype=_DTYPES[self.fft_type][1], order=order)

    def fft(self, a, out, direction):
        """Run the plan from `a` into `out` (both contiguous, of the plan's dtypes) on the
        current stream; `direction` is CUFFT_FORWARD or CUFFT_INVERSE."""
        for x in (a, out):
            if not isinstance(x, ndarray):
                raise not_device_error("Plan.fft", x, "cuarray.cuda.cufft.")
        din, dout = _DTYPES[self.fft_type]
        if a.dtype != din or out.dtype != dout:
            raise ValueError(f"this plan reads {din} and writes {dout}, got {a.dtype} and "
                             f"{out.dtype}")
        if direction not in (CUFFT_FORWARD, CUFFT_INVERSE):
            raise ValueError(f"direction must be CUFFT_FORWARD (-1) or CUFFT_INVERSE (1), "
                             f"got {direction!r}")
        need_in, need_out = self._sizes()
        if a.size != need_in or out.size != need_out:
            raise ValueError(f"this plan reads {need_in} and writes {need_out} elements, got "
                             f"arrays of {a.size} and {out.size}")
        if not (a._c_contig or a._f_contig) or not (out._c_contig or out._f_contig):
            raise ValueError("Plan.fft needs contiguous arrays")
        self._plan.execute(a._ptr, out._ptr, direction)

    def __repr__(self):
        return f"<{type(self).__name__} {self._plan!r}>"


class Plan1d(_PlanBase):
    """A batched 1-D cuFFT plan (cuarray version of `cupy.cuda.cufft.Plan1d`).

    `nx` points per transform (the real length for R2C/C2R), `batch` transforms of
    dense rows. Multi-GPU plans (`devices`) are not available.
    """

    def __init__(self, nx, fft_type, batch, devices=None, out=None):
        if devices is not None and len(devices) > 1:
            raise ValueError("multi-GPU cuFFT plans are not available in cuarray; "
                             "leave devices=None")
        self.nx = int(nx)
        n_in = n_out = self.nx
        if fft_type in (CUFFT_R2C, CUFFT_D2Z):
            n_out = self.nx // 2 + 1
        elif fft_type in (CUFFT_C2R, CUFFT_Z2D):
            n_in = self.nx // 2 + 1
        self._n_in, self._n_out = n_in, n_out
        self._make(fft_type, (self.nx,), None, 1, n_in, None, 1, n_out, int(batch))
        self.gpus = None

    def _sizes(self):
        return self._n_in * self.batch, self._n_out * self.batch

    def _out_shape(self, a):
        return a.shape[:-1] + (self._n_out,)


class PlanNd(_PlanBase):
    """An n-D (n <= 3) cuFFT plan with cuFFT's advanced layout (cuarray version of
    `cupy.cuda.cufft.PlanNd`). `inembed`/`onembed` None means dense; `order` 'C' only
    (cuFFT plans are row-major); `last_axis`/`last_size` describe the real axis of
    R2C/C2R plans as in CuPy."""

    def __init__(self, shape, inembed, istride, idist, onembed, ostride, odist, fft_type,
                 batch, order, last_axis, last_size):
        shape = tuple(int(x) for x in shape)
        if not 1 <= len(shape) <= 3:
            raise ValueError(f"cuFFT plans have 1 to 3 dimensions, got shape {shape}")
        if order != "C":
            raise ValueError("PlanNd supports order='C' only (transpose F-ordered data's axes)")
        self.shape, self.order = shape, order
        self.last_axis, self.last_size = last_axis, last_size
        inembed = tuple(inembed) if inembed is not None else None
        onembed = tuple(onembed) if onembed is not None else None
        self._make(fft_type, shape, inembed, int(istride), int(idist), onembed, int(ostride),
                   int(odist), int(batch))
        n_in = n_out = int(numpy.prod(shape))
        half = shape[:-1] + (shape[-1] // 2 + 1,)
        if fft_type in (CUFFT_R2C, CUFFT_D2Z):
            n_out = int(numpy.prod(half))
        elif fft_type in (CUFFT_C2R, CUFFT_Z2D):
            n_in = int(numpy.prod(half))
        self._n_in, self._n_out = n_in, n_out

    def _sizes(self):
        return self._n_in * self.batch, self._n_out * self.batch

    def _out_shape(self, a):
        if self.fft_type in (CUFFT_R2C, CUFFT_D2Z):
            return a.shape[:-1] + (a.shape[-1] // 2 + 1,)
        if self.fft_type in (CUFFT_C2R, CUFFT_Z2D):
            return a.shape[:-1] + (self.last_size if self.last_size else self.shape[-1],)
        return a.shape
