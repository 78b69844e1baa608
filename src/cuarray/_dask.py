"""Dask arrays whose chunks are cuarray arrays (`pip install cuarray[dask]`).

Dask finds a chunk type's concatenate, tensordot, take, einsum and percentile in
`dask.array.dispatch`'s lookups and refuses to wrap types it does not know
(`dask.array.chunk_types`). Dask registers CuPy itself; cuarray registers here. It also
registers the "cuarray" array backend (`dask.config.set({"array.backend": "cuarray"})`).
`import cuarray` installs a hook that runs `register()` once `dask.array` is imported (at once if
it already is), so `dask.array.from_array(cuarray_array, chunks=...)` works with no
further step and `import cuarray` never imports Dask. The registration itself is in
cuarray._dask_backend, loaded with dask.array (start-up time is measured).
"""
import sys


class _AfterDaskArray:
    """A meta path finder that finds nothing itself: when `dask.array` is about to load, it
    wraps the loader so that `register()` runs right after the package has executed. (Not
    derived from importlib.abc.MetaPathFinder: importing that module costs ~6 ms.)"""

    def find_spec(self, name, path, target=None):
        if name != "dask.array":
            return None
        import importlib.machinery
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


def register():
    """Register cuarray.ndarray with dask.array (chunk type, lookups, sizeof); idempotent."""
    from cuarray._dask_backend import register
    register()
