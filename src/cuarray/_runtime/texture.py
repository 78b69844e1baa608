"""Texture and surface objects and CUDA arrays (cuarray version of `cupy.cuda.texture`).

Built on the CUDA runtime (cuda.bindings.runtime), whose descriptors are the ones CuPy's
API mirrors; the runtime works in the same primary context as the rest of cuarray. A
`TextureObject` or `SurfaceObject` is passed to a RawKernel as its 64-bit handle
(`cudaTextureObject_t` / `cudaSurfaceObject_t` in the kernel).
"""
import numpy

from cuarray._runtime.device import ensure_context
from cuarray._runtime.driver import CUDARuntimeError

# CuPy's runtime constants for textures
cudaChannelFormatKindSigned, cudaChannelFormatKindUnsigned = 0, 1
cudaChannelFormatKindFloat, cudaChannelFormatKindNone = 2, 3
cudaResourceTypeArray, cudaResourceTypeMipmappedArray = 0, 1
cudaResourceTypeLinear, cudaResourceTypePitch2D = 2, 3
cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror = 0, 1, 2
cudaAddressModeBorder = 3
cudaFilterModePoint, cudaFilterModeLinear = 0, 1
cudaReadModeElementType, cudaReadModeNormalizedFloat = 0, 1
cudaArrayDefault, cudaArraySurfaceLoadStore = 0, 2

_rt = None


def _runtime():
    global _rt
    if _rt is None:
        from cuda.bindings import runtime
        _rt = runtime
    ensure_context()
    return _rt


def _check(ret, what):
    err = ret[0]
    if int(err) != 0:
        from cuarray._runtime.runtime_api import error_name
        raise CUDARuntimeError(int(err), f"{error_name(int(err))} ({what})")
    return ret[1] if len(ret) == 2 else ret[1:]


class ChannelFormatDescriptor:
    """Bits per channel (x, y, z, w) and their kind (signed, unsigned, float)."""

    def __init__(self, x, y, z, w, f):
        if f not in (0, 1, 2, 3):
            raise ValueError(f"unknown channel format kind {f!r}")
        for bits in (x, y, z, w):
            if bits not in (0, 8, 16, 32):
                raise ValueError(f"channel widths are 0, 8, 16 or 32 bits, got {(x, y, z, w)}")
        self.x, self.y, self.z, self.w, self.f = x, y, z, w, f
        self._desc = None

    def _cuda(self):
        if self._desc is None:
            d = _runtime().cudaChannelFormatDesc()
            d.x, d.y, d.z, d.w = self.x, self.y, self.z, self.w
            d.f = _runtime().cudaChannelFormatKind(self.f)
            self._desc = d
        return self._desc

    @property
    def ptr(self):
        return self._cuda().getPtr()

    def get_channel_format(self):
        return {"x": self.x, "y": self.y, "z": self.z, "w": self.w, "f": self.f}

    @property
    def itemsize(self):
        return (self.x + self.y + self.z + self.w) // 8

    @property
    def channels(self):
        return sum(1 for b in (self.x, self.y, self.z, self.w) if b)


class _Owned:
    """An object holding a runtime handle (its attribute `_handle`; `ptr` is 0 until it is
    made) that the runtime function `_destroy` releases when the object is collected."""

    def __del__(self):
        if getattr(self, "ptr", 0):
            try:
                getattr(_rt, self._destroy)(getattr(self, self._handle))
            except Exception:
                pass


class CUDAarray(_Owned):
    """A CUDA array (cudaArray) of 1 to 3 dimensions, for textures and surfaces (cuarray
    version of `cupy.cuda.texture.CUDAarray`). `height=0` makes it 1-D, `depth=0` 2-D."""

    _destroy, _handle = "cudaFreeArray", "_arr"

    def __init__(self, desc, width, height=0, depth=0, flags=0):
        if width <= 0 or height < 0 or depth < 0 or (depth and not height):
            raise ValueError(f"invalid CUDA array extent ({width}, {height}, {depth})")
        rt = _runtime()
        self.desc, self.width, self.height, self.depth, self.flags = \
            desc, width, height, depth, flags
        self.ndim = 3 if depth else (2 if height else 1)
        self.ptr = 0
        if depth:
            ext = rt.make_cudaExtent(width, height, depth)
            arr = _check(rt.cudaMalloc3DArray(desc._cuda(), ext, flags), "cudaMalloc3DArray")
        else:
            arr = _check(rt.cudaMallocArray(desc._cuda(), width, height, flags),
                         "cudaMallocArray")
        self._arr = arr
        self.ptr = int(arr)

    def _shape(self):
        """The NumPy shape (rows last-fastest) a copy must have: (depth,) height, width x channels."""
        per = self.desc.channels
        shape = (self.width * per,) if per > 1 else (self.width,)
        if self.ndim >= 2:
            shape = (self.height,) + shape
        if self.ndim == 3:
            shape = (self.depth,) + shape
        return shape

    def _check_array(self, arr, what):
        if hasattr(arr, "__cuda_array_interface__"):   # a device array (cuarray's, or any)
            on_device = True
        elif isinstance(arr, numpy.ndarray):
            on_device = False
        else:
            raise TypeError(f"{what} takes a cuarray or numpy array, not {type(arr).__name__}")
        if not arr.flags.c_contiguous:
            raise ValueError(f"{what} needs a C-contiguous array")
        width_bytes = self.width * self.desc.itemsize
        rows = max(self.height, 1) * max(self.depth, 1)
        if arr.nbytes != width_bytes * rows:
            raise ValueError(f"{what}: the array holds {arr.nbytes} bytes, this CUDA array "
                             f"{width_bytes * rows} (shape {self._shape()} of "
                             f"{self.desc.itemsize // max(self.desc.channels, 1)}-byte items)")
        ptr = arr.__cuda_array_interface__["data"][0] if on_device else arr.ctypes.data
        return ptr, on_device, width_bytes

    def _copy(self, arr, stream, to_array):
        from cuarray._runtime.stream import current_stream_ptr
        rt = _runtime()
        what = "copy_from" if to_array else "copy_to"
        ptr, on_device, width_bytes = self._check_array(arr, what)
        s = current_stream_ptr() if stream is None else stream.ptr
        K = rt.cudaMemcpyKind
        if to_array:
            kind = K.cudaMemcpyDeviceToDevice if on_device else K.cudaMemcpyHostToDevice
        else:
            kind = K.cudaMemcpyDeviceToDevice if on_device else K.cudaMemcpyDeviceToHost
        if self.ndim < 3:
            h = max(self.height, 1)
            if to_array:
                _check(rt.cudaMemcpy2DToArrayAsync(self._arr, 0, 0, ptr, width_bytes,
                                                   width_bytes, h, kind, s), what)
            else:
                _check(rt.cudaMemcpy2DFromArrayAsync(ptr, width_bytes, self._arr, 0, 0,
                                                     width_bytes, h, kind, s), what)
        else:
            p = rt.cudaMemcpy3DParms()
            pitched = rt.make_cudaPitchedPtr(ptr, width_bytes, self.width, self.height)
            if to_array:
                p.srcPtr, p.dstArray = pitched, self._arr
            else:
                p.srcArray, p.dstPtr = self._arr, pitched
            p.extent = rt.make_cudaExtent(self.width, self.height, self.depth)
            p.kind = kind
            _check(rt.cudaMemcpy3DAsync(p, s), what)
        if not on_device:
            _check(rt.cudaStreamSynchronize(s), what)  # the host buffer may be pageable

    def copy_from(self, in_arr, stream=None):
        """Copy a C-contiguous cuarray or NumPy array of matching size into this array."""
        self._copy(in_arr, stream, True)

    def copy_to(self, out_arr, stream=None):
        """Copy this array into a C-contiguous cuarray or NumPy array of matching size."""
        self._copy(out_arr, stream, False)


class ResourceDescriptor:
    """What a texture or surface reads (cuarray version of
    `cupy.cuda.texture.ResourceDescriptor`): a CUDAarray (`cuArr`), or linear/pitched
    device memory (`arr`, a cuarray array, with `chDesc` and sizes)."""

    def __init__(self, restype, cuArr=None, arr=None, chDesc=None, sizeInBytes=0, width=0,
                 height=0, pitchInBytes=0):
        rt = _runtime()
        d = rt.cudaResourceDesc()
        if restype == cudaResourceTypeArray:
            if not isinstance(cuArr, CUDAarray):
                raise TypeError("a cudaResourceTypeArray resource needs cuArr=CUDAarray(...)")
            d.resType = rt.cudaResourceType.cudaResourceTypeArray
            d.res.array.array = cuArr._arr
        elif restype in (cudaResourceTypeLinear, cudaResourceTypePitch2D):
            if arr is None or chDesc is None:
                raise TypeError("linear and pitch-2D resources need arr= and chDesc=")
            if restype == cudaResourceTypeLinear:
                d.resType = rt.cudaResourceType.cudaResourceTypeLinear
                d.res.linear.devPtr = arr.data.ptr
                d.res.linear.desc = chDesc._cuda()
                d.res.linear.sizeInBytes = sizeInBytes or arr.nbytes
            else:
                d.resType = rt.cudaResourceType.cudaResourceTypePitch2D
                d.res.pitch2D.devPtr = arr.data.ptr
                d.res.pitch2D.desc = chDesc._cuda()
                d.res.pitch2D.width, d.res.pitch2D.height = width, height
                d.res.pitch2D.pitchInBytes = pitchInBytes
        else:
            raise ValueError(f"resource type {restype!r} is not supported: use "
                             f"cudaResourceTypeArray, Linear or Pitch2D")
        self.restype, self.cuArr, self.arr, self.chDesc = restype, cuArr, arr, chDesc
        self.sizeInBytes, self.width, self.height = sizeInBytes, width, height
        self.pitchInBytes = pitchInBytes
        self._desc = d

    def get_resource_desc(self):
        return {"restype": self.restype, "cuArr": self.cuArr, "arr": self.arr,
                "chDesc": self.chDesc, "sizeInBytes": self.sizeInBytes, "width": self.width,
                "height": self.height, "pitchInBytes": self.pitchInBytes}


class TextureDescriptor:
    """How a texture is sampled (cuarray version of `cupy.cuda.texture.TextureDescriptor`)."""

    def __init__(self, addressModes=None, filterMode=0, readMode=0, sRGB=None,
                 borderColors=None, normalizedCoords=None, maxAnisotropy=None):
        rt = _runtime()
        d = rt.cudaTextureDesc()
        modes = list(addressModes or ())
        if len(modes) > 3:
            raise ValueError("at most three address modes (one per dimension)")
        d.addressMode = [rt.cudaTextureAddressMode(m) for m in modes] + \
            [rt.cudaTextureAddressMode(0)] * (3 - len(modes))
        d.filterMode = rt.cudaTextureFilterMode(filterMode)
        d.readMode = rt.cudaTextureReadMode(readMode)
        if sRGB is not None:
            d.sRGB = int(sRGB)
        if borderColors is not None:
            colors = [float(c) for c in borderColors]
            if len(colors) > 4:
                raise ValueError("at most four border colors")
            d.borderColor = colors + [0.0] * (4 - len(colors))
        if normalizedCoords is not None:
            d.normalizedCoords = int(normalizedCoords)
        if maxAnisotropy is not None:
            d.maxAnisotropy = int(maxAnisotropy)
        self.addressModes, self.filterMode, self.readMode = tuple(modes), filterMode, readMode
        self.sRGB, self.borderColors = sRGB, borderColors
        self.normalizedCoords, self.maxAnisotropy = normalizedCoords, maxAnisotropy
        self._desc = d

    def get_texture_desc(self):
        return {"addressModes": self.addressModes, "filterMode": self.filterMode,
                "readMode": self.readMode, "sRGB": self.sRGB,
                "borderColors": self.borderColors, "normalizedCoords": self.normalizedCoords,
                "maxAnisotropy": self.maxAnisotropy}


class TextureObject(_Owned):
    """A texture object (cudaTextureObject_t) over a resource (cuarray version of
    `cupy.cuda.texture.TextureObject`); `ptr` is the handle a kernel receives."""

    _destroy, _handle = "cudaDestroyTextureObject", "ptr"

    def __init__(self, ResDesc, TexDesc):
        rt = _runtime()
        self.ResDesc, self.TexDesc = ResDesc, TexDesc
        self.ptr = 0
        self.ptr = int(_check(rt.cudaCreateTextureObject(ResDesc._desc, TexDesc._desc, None),
                              "cudaCreateTextureObject"))


class SurfaceObject(_Owned):
    """A surface object (cudaSurfaceObject_t) over a CUDAarray made with
    `cudaArraySurfaceLoadStore` (cuarray version of `cupy.cuda.texture.SurfaceObject`)."""

    _destroy, _handle = "cudaDestroySurfaceObject", "ptr"

    def __init__(self, ResDesc):
        if ResDesc.restype != cudaResourceTypeArray:
            raise ValueError("a surface object reads a CUDA array (cudaResourceTypeArray)")
        rt = _runtime()
        self.ResDesc = ResDesc
        self.ptr = 0
        self.ptr = int(_check(rt.cudaCreateSurfaceObject(ResDesc._desc),
                              "cudaCreateSurfaceObject"))
