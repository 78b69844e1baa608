"""CuPy's `cupy.cuda.device`: devices and the library handles kept per device."""
from cuarray._runtime import device as _device
from cuarray._runtime.device import get_device_id  # noqa: F401


class Device(_device.Device):
    """A CUDA device (cuarray version of `cupy.cuda.Device`).

    The library handles are this thread's for the device, bound to the current stream,
    given as ints (as CuPy's).
    """

    __slots__ = ()

    def _handle(self, get):
        with self:
            return int(get())

    @property
    def cublas_handle(self):
        from cuarray._libs import cublas
        return self._handle(cublas.get_handle)

    @property
    def cusolver_handle(self):
        from cuarray._libs import cusolver
        return self._handle(lambda: cusolver.get_solver().ptr)

    @property
    def cusparse_handle(self):
        from cuarray._libs import cusparse
        return self._handle(cusparse.get_handle)

    @property
    def cusolver_sp_handle(self):
        from cuarray._libs import cusparse
        return self._handle(cusparse.get_solver_sp)


def get_cublas_handle():
    """This thread's cuBLAS handle for the current device (an int)."""
    return Device().cublas_handle


def get_cusolver_handle():
    return Device().cusolver_handle


def get_cusparse_handle():
    return Device().cusparse_handle


def get_cusolver_sp_handle():
    return Device().cusolver_sp_handle


def get_compute_capability():
    """The current device's compute capability as a string ('90')."""
    return Device().compute_capability
