"""Dask arrays whose chunks are cuarray arrays: the registration with dask.array, which
cuarray._dask runs once dask.array is imported (see there)."""
import functools
import threading

_done = False
_lock = threading.Lock()


def _einsum(*args, **kwargs):
    import cuarray
    kwargs.pop("casting", None)   # dask passes NumPy's keywords; cuarray.einsum has CuPy's
    kwargs.pop("order", None)
    return cuarray.einsum(*args, **kwargs)


def _to_numpy(data, **kwargs):
    import cuarray
    return cuarray.asnumpy(data, **kwargs)


def _backend():
    """The `dask.config.set({"array.backend": "cuarray"})` entry point: dask.array's creation
    functions (ones, zeros, empty, full, arange, random) then make cuarray chunks."""
    import dask.array as da
    from dask import config
    from dask.array.backends import ArrayBackendEntrypoint
    from dask.utils import Dispatch
    import cuarray

    to_cuarray = Dispatch("to_cuarray_dispatch")
    to_cuarray.register(cuarray.ndarray, lambda data, **kwargs: data)
    to_cuarray.register(object, lambda data, **kwargs: cuarray.asarray(data, **kwargs))

    def with_meta(name, *args, meta=None, **kwargs):
        meta = cuarray.empty(()) if meta is None else meta
        with config.set({"array.backend": "numpy"}):
            return getattr(da, name)(*args, meta=meta, **kwargs)

    class CuarrayBackendEntrypoint(ArrayBackendEntrypoint):
        @classmethod
        def to_backend_dispatch(cls):
            return to_cuarray

        @classmethod
        def to_backend(cls, data, **kwargs):
            if isinstance(data._meta, cuarray.ndarray):
                return data
            return data.map_blocks(to_cuarray, **kwargs)

        @property
        def RandomState(self):
            return cuarray.random.RandomState

        @property
        def default_bit_generator(self):
            return cuarray.random.XORWOW

        # dask.array's own ones, zeros, empty and full with a cuarray meta
        ones = staticmethod(functools.partial(with_meta, "ones"))
        zeros = staticmethod(functools.partial(with_meta, "zeros"))
        empty = staticmethod(functools.partial(with_meta, "empty"))
        full = staticmethod(functools.partial(with_meta, "full"))

        @staticmethod
        def arange(*args, like=None, **kwargs):
            like = cuarray.empty(()) if like is None else like
            with config.set({"array.backend": "numpy"}):
                return da.arange(*args, like=like, **kwargs)

    return CuarrayBackendEntrypoint()


def register():
    """Register cuarray.ndarray with dask.array (chunk type, lookups, sizeof); idempotent."""
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        import cuarray
        from dask.array import backends, chunk_types, dispatch
        from dask.sizeof import sizeof
        nd = cuarray.ndarray
        if not chunk_types.is_valid_chunk_type(nd):
            chunk_types.register_chunk_type(nd)
        dispatch.concatenate_lookup.register(nd, cuarray.concatenate)
        dispatch.take_lookup.register(nd, cuarray.take)
        dispatch.tensordot_lookup.register(nd, cuarray.tensordot)
        dispatch.einsum_lookup.register(nd, _einsum)
        dispatch.empty_lookup.register(nd, cuarray.empty)
        dispatch.percentile_lookup.register(nd, backends.percentile)
        dispatch.numel_lookup.register(nd, backends._numel_arraylike)
        dispatch.nannumel_lookup.register(nd, backends._nannumel)
        dispatch.to_numpy_dispatch.register(nd, _to_numpy)
        sizeof.register(nd, lambda x: int(x.nbytes))
        backends.array_creation_dispatch.register_backend("cuarray", _backend())
        _done = True
