"""Dask arrays whose chunks are cuarray arrays (`pip install cuarray[dask]`).

Dask finds a chunk type's concatenate, tensordot, take, einsum and percentile in
`dask.array.dispatch`'s lookups and refuses to wrap types it does not know
(`dask.array.chunk_types`). Dask registers CuPy itself; cuarray registers here. It also
registers the "cuarray" array backend (`dask.config.set({"array.backend": "cuarray"})`).
`import cuarray` installs a hook that runs `register()` once `dask.array` is imported (at once if
it already is), so `dask.array.from_array(cuarray_array, chunks=...)` works with no
further step and `import cuarray` never imports Dask.
"""
import functools
import importlib.machinery
import sys
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


class _AfterDaskArray:
    """A meta path finder that finds nothing itself: when `dask.array` is about to load, it
    wraps the loader so that `register()` runs right after the package has executed. (Not
    derived from importlib.abc.MetaPathFinder: importing that module costs ~6 ms.)"""

    def find_spec(self, name, path, target=None):
        if name != "dask.array" or _done:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            try:
                register()
            except ImportError:   # an incomplete Dask: leave it to fail on its own terms
                pass
        spec.loader.exec_module = exec_module
        return spec


def install():
    """Register now if dask.array is loaded, else when it is."""
    if "dask.array" in sys.modules:
        try:
            register()
        except ImportError:
            pass
    elif not any(isinstance(f, _AfterDaskArray) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterDaskArray())
