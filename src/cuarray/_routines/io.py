"""Input and output (NumPy reference: "Input and output"): NumPy binary files, text files,
raw binary files, string formatting and printing options.

Files are read and written on the host: loading is an explicit upload, saving an explicit
download (that is what these functions are for). Formatting reads the array's values on the
host and formats them with NumPy's printer, so `set_printoptions` is NumPy's own and governs
both libraries' output, as in CuPy.
"""
import numpy
from numpy import get_printoptions, printoptions, set_printoptions  # noqa: F401

from cuarray._core.ndarray import ndarray
from cuarray._core.transfer import array

__all__ = [
    "load", "save", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "fromfile",
    "array2string", "array_repr", "array_str", "format_float_positional",
    "format_float_scientific", "set_printoptions", "get_printoptions", "printoptions",
    "binary_repr", "base_repr",
]


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """cuarray version of `numpy.fromfile` (read on the host, then uploaded)."""
    return array(numpy.fromfile(file, dtype, count, sep, offset))


def loadtxt(*args, **kwargs):
    """cuarray version of `numpy.loadtxt` (parsed on the host, then uploaded)."""
    kwargs.pop("like", None)
    return array(numpy.loadtxt(*args, **kwargs))


def genfromtxt(*args, **kwargs):
    """cuarray version of `numpy.genfromtxt` (parsed on the host, then uploaded; masked and
    structured results are refused as non-numeric)."""
    kwargs.pop("like", None)
    return array(numpy.genfromtxt(*args, **kwargs))


def _host(x):
    return x.get() if isinstance(x, ndarray) else x


def save(file, arr, allow_pickle=True, **kwargs):
    """cuarray version of `numpy.save` (downloads `arr`, then writes on the host)."""
    numpy.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


def savez(file, *args, **kwds):
    """cuarray version of `numpy.savez` (downloads every array, then writes on the host)."""
    numpy.savez(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, **kwds):
    """cuarray version of `numpy.savez_compressed`."""
    numpy.savez_compressed(file, *[_host(a) for a in args], **{k: _host(v) for k, v in kwds.items()})


class NpzFile:
    """The arrays of an .npz file, each uploaded when read (cuarray version of CuPy's
    `NpzFile`); use it as a context manager or `close()` it."""

    def __init__(self, npz):
        self.npz = npz

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.npz.close()

    def __getitem__(self, key):
        return array(self.npz[key])

    def __contains__(self, key):
        return key in self.npz

    def __iter__(self):
        return iter(self.npz)

    def __len__(self):
        return len(self.npz)

    @property
    def files(self):
        return self.npz.files

    def keys(self):
        return self.npz.keys()

    def close(self):
        self.npz.close()


def load(file, mmap_mode=None, allow_pickle=False, **kwargs):
    """cuarray version of `numpy.load`: .npy arrays are uploaded, .npz files give an `NpzFile`
    that uploads each array when read; pickled objects are returned as they are."""
    obj = numpy.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, **kwargs)
    if isinstance(obj, numpy.ndarray):
        return array(obj)
    if isinstance(obj, numpy.lib.npyio.NpzFile):
        return NpzFile(obj)
    return obj


def savetxt(fname, X, *args, **kwargs):
    """cuarray version of `numpy.savetxt` (downloads `X`, then writes on the host)."""
    numpy.savetxt(fname, _host(X), *args, **kwargs)


# ---- string formatting -------------------------------------------------------------------------
def array2string(a, *args, **kwargs):
    """cuarray version of `numpy.array2string` (reads the values on the host)."""
    return numpy.array2string(_host(a), *args, **kwargs)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """cuarray version of `numpy.array_repr` (reads the values on the host)."""
    return numpy.array_repr(_host(arr), max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """cuarray version of `numpy.array_str` (reads the values on the host)."""
    return numpy.array_str(_host(a), max_line_width, precision, suppress_small)


def format_float_positional(x, *args, **kwargs):
    """cuarray version of `numpy.format_float_positional` (a 0-d array is read first)."""
    return numpy.format_float_positional(_host(x), *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    """cuarray version of `numpy.format_float_scientific` (a 0-d array is read first)."""
    return numpy.format_float_scientific(_host(x), *args, **kwargs)


def binary_repr(num, width=None):
    """cuarray version of `numpy.binary_repr` (a host string; a 0-d array is read first)."""
    if isinstance(num, ndarray):
        num = num.item()
    return numpy.binary_repr(num, width)


def base_repr(number, base=2, padding=0):
    """cuarray version of `numpy.base_repr` (a host string; a 0-d array is read first)."""
    if isinstance(number, ndarray):
        number = number.item()
    return numpy.base_repr(number, base, padding)
