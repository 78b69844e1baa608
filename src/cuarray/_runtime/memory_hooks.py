"""Memory hooks: callbacks around the caching pool's allocations and frees (cuarray version
of `cupy.cuda.memory_hook`).

A hook is active on the thread that entered it (`with hook:`), as in CuPy. The pool
tests one module-level dict (`threads`) per allocation and free, empty unless some thread
has a hook, so hooks cost nothing measurable when none is on.

Callbacks and their keyword arguments, as CuPy's:
  alloc_preprocess / alloc_postprocess   device_id, mem_size (, mem_ptr)
      around a new block taken from the driver (or the pool's allocator);
  malloc_preprocess / malloc_postprocess device_id, size, mem_size (, mem_ptr, pmem_id)
      around every allocation from the pool (`size` asked, `mem_size` rounded);
  free_preprocess / free_postprocess     device_id, mem_size, mem_ptr, pmem_id
      around a pooled block's return to the pool.
"""
import threading

threads = {}   # thread ident -> {name: hook}, in entry order; only threads with hooks
_lock = threading.Lock()


class MemoryHook:
    """Base class of memory hooks (cuarray version of `cupy.cuda.memory_hook.MemoryHook`).

    Subclasses set `name` and override the callbacks they need. `with hook:` turns it on
    for this thread; hooks with different names nest.
    """

    name = "MemoryHook"

    def __enter__(self):
        tid = threading.get_ident()
        with _lock:
            mine = threads.get(tid, {})
            if self.name in mine:
                raise RuntimeError(f"memory hook {self.name!r} is already active on this "
                                   f"thread; give nested hooks different names")
            mine = dict(mine)
            mine[self.name] = self
            threads[tid] = mine
        return self

    def __exit__(self, *exc):
        tid = threading.get_ident()
        with _lock:
            mine = dict(threads.get(tid, {}))
            mine.pop(self.name, None)
            if mine:
                threads[tid] = mine
            else:
                threads.pop(tid, None)

    def _nothing(self, **kwargs):
        """Does nothing: a hook overrides the events it records."""

    alloc_preprocess = alloc_postprocess = _nothing
    malloc_preprocess = malloc_postprocess = _nothing
    free_preprocess = free_postprocess = _nothing


def get_memory_hooks():
    """This thread's active hooks, by name (a copy)."""
    return dict(threads.get(threading.get_ident(), {}))


def _mine():
    return threads.get(threading.get_ident())


def _call(method, **kwargs):
    hooks = _mine()
    if hooks:
        for h in list(hooks.values()):
            getattr(h, method)(**kwargs)


def malloc_pre(device_id, size, mem_size):
    _call("malloc_preprocess", device_id=device_id, size=size, mem_size=mem_size)


def malloc_post(device_id, size, mem):
    _call("malloc_postprocess", device_id=device_id, size=size, mem_size=mem.size,
          mem_ptr=mem.ptr, pmem_id=id(mem._chunk))


def alloc_pre(device_id, mem_size):
    _call("alloc_preprocess", device_id=device_id, mem_size=mem_size)


def alloc_post(device_id, mem_size, mem_ptr):
    _call("alloc_postprocess", device_id=device_id, mem_size=mem_size, mem_ptr=mem_ptr)


def free_pre(device_id, mem_size, mem_ptr, pmem_id):
    _call("free_preprocess", device_id=device_id, mem_size=mem_size, mem_ptr=mem_ptr,
          pmem_id=pmem_id)


def free_post(device_id, mem_size, mem_ptr, pmem_id):
    _call("free_postprocess", device_id=device_id, mem_size=mem_size, mem_ptr=mem_ptr,
          pmem_id=pmem_id)
