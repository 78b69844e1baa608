"""CuPy's `cupy.cuda.driver` functions on int handles (contexts, modules, functions, launches)."""
from cuarray._runtime import driver as _driver
from cuarray._runtime.device import context_driver as _drv
from cuarray._runtime.driver import CUDADriverError, check

# CUfunction_attribute, as CuPy names them
CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_PTX_VERSION = 5
CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6
CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
# CUmemorytype
CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_ARRAY, CU_MEMORYTYPE_UNIFIED = 1, 2, 3, 4
CUDA_ERROR_INVALID_VALUE = 1
CUDA_ERROR_NOT_FOUND = 500


def driverGetVersion():
    return _driver.driver_version()


def get_build_version():
    from cuarray._runtime.runtime_api import get_build_version
    return get_build_version()


def ctxGetCurrent():
    """The current CUcontext as an int (0: none)."""
    return int(check(_driver._drv().cuCtxGetCurrent()))


def ctxSetCurrent(ctx):
    drv = _driver._drv()
    check(drv.cuCtxSetCurrent(drv.CUcontext(ctx)))


def ctxSynchronize():
    check(_drv().cuCtxSynchronize())


def deviceGet(device_id):
    _driver.init()
    return int(check(_driver._drv().cuDeviceGet(device_id)))


def deviceGetAttribute(attrib, device):
    drv = _driver._drv()
    return check(drv.cuDeviceGetAttribute(drv.CUdevice_attribute(attrib), drv.CUdevice(device)))


def streamGetCtx(stream):
    return int(check(_drv().cuStreamGetCtx(stream)))


def moduleLoad(filename):
    """Load a cubin, fatbin or PTX file; the CUmodule as an int."""
    return int(check(_drv().cuModuleLoad(str(filename).encode())))


def moduleLoadData(image):
    return int(check(_drv().cuModuleLoadData(bytes(image))))


def moduleUnload(module):
    check(_drv().cuModuleUnload(module))


def moduleGetFunction(module, funcname):
    drv = _drv()
    return int(check(drv.cuModuleGetFunction(drv.CUmodule(module), funcname.encode())))


def moduleGetGlobal(module, varname):
    """(device pointer, size in bytes) of a __device__ variable."""
    drv = _drv()
    ptr, size = check(drv.cuModuleGetGlobal(drv.CUmodule(module), varname.encode()))
    return int(ptr), int(size)


def launchKernel(f, grid_dim_x, grid_dim_y, grid_dim_z, block_dim_x, block_dim_y, block_dim_z,
                 shared_mem_bytes, stream, kernel_params, extra):
    """cuLaunchKernel; `kernel_params` and `extra` are addresses of void* arrays (or 0)."""
    drv = _drv()
    check(drv.cuLaunchKernel(drv.CUfunction(f), grid_dim_x, grid_dim_y, grid_dim_z,
                             block_dim_x, block_dim_y, block_dim_z, shared_mem_bytes, stream,
                             kernel_params, extra))


def launchCooperativeKernel(f, grid_dim_x, grid_dim_y, grid_dim_z, block_dim_x, block_dim_y,
                            block_dim_z, shared_mem_bytes, stream, kernel_params):
    drv = _drv()
    check(drv.cuLaunchCooperativeKernel(drv.CUfunction(f), grid_dim_x, grid_dim_y, grid_dim_z,
                                        block_dim_x, block_dim_y, block_dim_z,
                                        shared_mem_bytes, stream, kernel_params))


def funcGetAttribute(attribute, f):
    drv = _drv()
    return check(drv.cuFuncGetAttribute(drv.CUfunction_attribute(attribute), drv.CUfunction(f)))


def funcSetAttribute(f, attribute, value):
    drv = _drv()
    check(drv.cuFuncSetAttribute(drv.CUfunction(f), drv.CUfunction_attribute(attribute), value))


def occupancyMaxActiveBlocksPerMultiprocessor(func, blockSize, dynamicSMemSize):
    drv = _drv()
    return check(drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(
        drv.CUfunction(func), blockSize, dynamicSMemSize))


def occupancyMaxPotentialBlockSize(func, dynamicSMemSize, blockSizeLimit):
    """(min grid size, block size) that reach the best occupancy."""
    drv = _drv()
    return tuple(check(drv.cuOccupancyMaxPotentialBlockSize(
        drv.CUfunction(func), None, dynamicSMemSize, blockSizeLimit)))


def memGetAddressRange(ptr):
    """(base, size) of the allocation that holds `ptr`."""
    base, size = check(_drv().cuMemGetAddressRange(ptr))
    return int(base), int(size)


__all__ = [n for n in dir() if not n.startswith("_")
           and n not in ("check", "ensure_context")] + ["CUDADriverError"]
