"""cuFFT load and store callbacks given as CUDA source (cuarray version of
`cupy.fft.config.set_cufft_callbacks`).

Callbacks are linked into cuFFT's kernels at plan time as LTO-IR (cufftXtSetJITCallback,
the mechanism behind nvmath-python's FFT prologs and epilogs): NVRTC compiles the source
with `-dlto`, cuFFT links it with nvJitLink. No nvcc or static cuFFT is needed, so both
of CuPy's forms are accepted and run this way (`cb_ver` 'legacy' or 'jit'):

- a legacy-style source that defines `d_loadCallbackPtr` / `d_storeCallbackPtr` (the
  callback is the function it points to);
- a source with a `__device__` function named by `cb_load_name` / `cb_store_name` (or
  the only `__device__` function in the source).

The callback's signature is cuFFT's: load `T f(void* data, size_t offset, void*
callerInfo, void* sharedPtr)`, store `void f(void* data, size_t offset, T element, void*
callerInfo, void* sharedPtr)`, with T `cufftComplex`, `cufftDoubleComplex`, `cufftReal`
or `cufftDoubleReal` as the transform reads or writes. `cb_load_data` / `cb_store_data`
(MemoryPointer) arrive as `callerInfo`. Plans made inside the block carry the callbacks
and are cached apart from plain ones.
"""
import ctypes
import re
import threading

_tls = threading.local()

_PRELUDE = r"""
#include <cuarray/cucomplex.cuh>
typedef cuComplex cufftComplex;
typedef cuDoubleComplex cufftDoubleComplex;
typedef float cufftReal;
typedef double cufftDoubleReal;
typedef cufftComplex (*cufftCallbackLoadC)(void*, size_t, void*, void*);
typedef cufftDoubleComplex (*cufftCallbackLoadZ)(void*, size_t, void*, void*);
typedef cufftReal (*cufftCallbackLoadR)(void*, size_t, void*, void*);
typedef cufftDoubleReal (*cufftCallbackLoadD)(void*, size_t, void*, void*);
typedef void (*cufftCallbackStoreC)(void*, size_t, cufftComplex, void*, void*);
typedef void (*cufftCallbackStoreZ)(void*, size_t, cufftDoubleComplex, void*, void*);
typedef void (*cufftCallbackStoreR)(void*, size_t, cufftReal, void*, void*);
typedef void (*cufftCallbackStoreD)(void*, size_t, cufftDoubleReal, void*, void*);
"""

# cufftXtCallbackType by (load?, element type)
_CB_TYPE = {("load", "cufftComplex"): 0, ("load", "cufftDoubleComplex"): 1,
            ("load", "cufftReal"): 2, ("load", "cufftDoubleReal"): 3,
            ("store", "cufftComplex"): 4, ("store", "cufftDoubleComplex"): 5,
            ("store", "cufftReal"): 6, ("store", "cufftDoubleReal"): 7}
# element types a plan of each cufftType reads and writes
_ELEMENTS = {0x29: ("cufftComplex", "cufftComplex"), 0x2a: ("cufftReal", "cufftComplex"),
             0x2c: ("cufftComplex", "cufftReal"), 0x69: ("cufftDoubleComplex",) * 2,
             0x6a: ("cufftDoubleReal", "cufftDoubleComplex"),
             0x6c: ("cufftDoubleComplex", "cufftDoubleReal")}
_SUFFIX = {"cufftComplex": "Complex", "cufftDoubleComplex": "DoubleComplex",
           "cufftReal": "Real", "cufftDoubleReal": "DoubleReal"}


def default_name(kind, elem):
    """The function cuFFT looks up in the LTO-IR when no symbol name is given (the C++
    function `cufftJITCallbackLoadComplex(void*, unsigned long long, void*, void*)`,
    `cufftJITCallbackStoreReal(void*, unsigned long long, cufftReal, void*, void*)`, ...);
    nvmath-python names its prologs and epilogs so too."""
    return "cufftJITCallback" + ("Load" if kind == "load" else "Store") + _SUFFIX[elem]


def current():
    """The callbacks of the innermost `set_cufft_callbacks` block on this thread, or None."""
    stack = getattr(_tls, "stack", None)
    return stack[-1] if stack else None


def _function_name(source, pointer_var, given, what):
    if given:
        return given
    m = re.search(pointer_var + r"\s*=\s*&?\s*([A-Za-z_]\w*)\s*;", source)
    if m:
        return m.group(1)
    names = re.findall(r"__device__\s+(?:__forceinline__\s+|inline\s+|static\s+)*"
                       r"[A-Za-z_][\w:<>]*\s*\*?\s*([A-Za-z_]\w*)\s*\(", source)
    if len(names) == 1:
        return names[0]
    raise ValueError(f"cannot tell which function is the {what} callback: define "
                     f"{pointer_var} or pass cb_{what}_name=")


def _trampoline(kind, elem, name):
    # A wrapper under cuFFT's default name and exact LTO signature (offset unsigned long
    # long, C++ linkage) calls the user's function; the link inlines it away.
    cb = default_name(kind, elem)
    if name == cb:
        return ""
    if kind == "load":
        return (f"\n__device__ {elem} {cb}(void* p, unsigned long long o, void* i, void* s) "
                f"{{ return {name}(p, o, i, s); }}\n")
    return (f"\n__device__ void {cb}(void* p, unsigned long long o, {elem} e, void* i, "
            f"void* s) {{ {name}(p, o, e, i, s); }}\n")


class set_cufft_callbacks:
    """Use cuFFT load/store callbacks in the `with` block (cuarray version of
    `cupy.fft.config.set_cufft_callbacks`); see the module's notes for the source forms."""

    def __init__(self, cb_load=None, cb_store=None, cb_load_aux_arr=None, *,
                 cb_store_aux_arr=None, cb_load_name=None, cb_store_name=None,
                 cb_load_data=None, cb_store_data=None, cb_ver="legacy", nvrtc_options=()):
        if cb_ver not in ("legacy", "jit"):
            raise ValueError(f"cb_ver must be 'legacy' or 'jit', got {cb_ver!r}")
        if not cb_load and not cb_store:
            raise ValueError("give cb_load and/or cb_store (CUDA source strings)")
        self.cb_load, self.cb_store = cb_load or "", cb_store or ""
        self.cb_ver = cb_ver
        self._nvrtc_options = tuple(nvrtc_options)
        self._names = {}
        if self.cb_load:
            self._names["load"] = _function_name(self.cb_load, "d_loadCallbackPtr",
                                                 cb_load_name, "load")
        if self.cb_store:
            self._names["store"] = _function_name(self.cb_store, "d_storeCallbackPtr",
                                                  cb_store_name, "store")
        self._data = {"load": _data_ptr(cb_load_data, cb_load_aux_arr),
                      "store": _data_ptr(cb_store_data, cb_store_aux_arr)}
        self._alive = (cb_load_data, cb_store_data, cb_load_aux_arr, cb_store_aux_arr)
        # what plans hold on to: (load, store) sources, names and data pointers
        self.key = (self.cb_load, self.cb_store, tuple(sorted(self._names.items())),
                    self._data["load"], self._data["store"], self._nvrtc_options)

    def __enter__(self):
        stack = getattr(_tls, "stack", None)
        if stack is None:
            stack = _tls.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _tls.stack.pop()

    def __repr__(self):
        return f"<cuFFT callbacks: {', '.join(sorted(self._names)) or 'none'}>"

    def attach(self, cufft, handle, fft_type, arch):
        """Set the callbacks on a created, not yet planned cuFFT handle; returns the
        objects that must live as long as the plan."""
        from cuarray._runtime import lto
        lto.load_nvjitlink()
        keep = []
        elements = dict(zip(("load", "store"), _ELEMENTS[fft_type]))
        for kind in self._names:
            elem = elements[kind]
            ir, _ = lto.compile_lto(self.source(kind, elem), (), self._nvrtc_options, arch,
                                    name=f"cufft_{kind}_cb")
            info = (ctypes.c_void_p * 1)(self._data[kind] or None)
            irbuf = ctypes.create_string_buffer(ir, len(ir))
            # No symbol name (NULL), as nvmath-python passes: cuFFT then links the function
            # of its default name, which `source` defines.
            cufft.xt_set_jit_callback(handle, 0, ctypes.addressof(irbuf), len(ir),
                                      _CB_TYPE[(kind, elem)], ctypes.addressof(info))
            keep += [info, irbuf]
        return keep

    def source(self, kind, elem):
        """The CUDA source compiled to LTO-IR for the `kind` ('load'/'store') callback of a
        plan whose element there is `elem` (a cufft type name)."""
        return _PRELUDE + (self.cb_load if kind == "load" else self.cb_store) + \
            _trampoline(kind, elem, self._names[kind])


def _data_ptr(data, aux_arr):
    if data is not None and aux_arr is not None:
        raise ValueError("give cb_*_data or cb_*_aux_arr, not both")
    if data is not None:
        return int(data.ptr)
    if aux_arr is not None:
        return int(aux_arr.data.ptr)
    return 0
