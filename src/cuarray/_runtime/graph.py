"""CUDA graphs by stream capture (cuarray version of `cupy.cuda.graph`).

`Stream.begin_capture()` starts recording the work queued on a stream; `end_capture()`
returns a `Graph` whose `launch()` replays it with one driver call.

Memory: while a stream captures, the caching pool serves that stream's requests from
a private arena of its own (keyed by a capture ident instead of the stream handle), so
a captured kernel never gets memory that eager work may be using, and temporaries freed
during the capture are reused only by later captured work, in the graph's own order.
The arena belongs to the graph afterwards: its blocks stay reserved while the graph
lives (the graph's kernels write there on every launch), and go back to the pool, to
the stream of the last launch, when the graph is collected.

Capture runs in relaxed mode by default, as CuPy's does: the pool may then ask the
driver for a new block in the middle of a capture. Synchronising a capturing stream (a
value read back to the host, `Stream.synchronize()`) is refused by the driver with
CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and ends the capture as invalidated; it is raised
as `CUDARuntimeError`.
"""
import itertools
import threading

from cuarray._runtime import driver as _driver
from cuarray._runtime.device import ensure_context
from cuarray._runtime.driver import CUDARuntimeError, check

# stream handle -> capture ident; the pool reads it on every allocation (empty: one test)
captures = {}
_blocks = {}        # capture ident -> [(pool, head chunk)] of blocks made during the capture
_to_retire = []     # (ident, stream handle) that found a pool busy when their graph died
_counter = itertools.count(1)
_lock = threading.Lock()

_MODES = {0: "CU_STREAM_CAPTURE_MODE_GLOBAL", 1: "CU_STREAM_CAPTURE_MODE_THREAD_LOCAL",
          2: "CU_STREAM_CAPTURE_MODE_RELAXED"}
_STATUS_INVALIDATED = 2


def note_block(pool, chunk):
    """The pool made a new block for a capture arena (its first chunk, `chunk.stream` the ident)."""
    with _lock:
        _blocks.setdefault(chunk.stream, []).append((pool, chunk))


def begin_capture(stream, mode=None):
    if stream.ptr in (0, 1, 2):
        raise RuntimeError("cannot capture on the null stream or the per-thread default "
                           "stream; capture on a stream made with cuarray.cuda.Stream()")
    if mode is None:
        mode = 2
    if mode not in _MODES:
        raise ValueError(f"unknown capture mode {mode!r}: use 0 (global), 1 (thread-local) "
                         f"or 2 (relaxed)")
    drv = _driver._drv()
    ensure_context()
    check(drv.cuStreamBeginCapture(stream.ptr, getattr(drv.CUstreamCaptureMode, _MODES[mode])))
    captures[stream.ptr] = ("capture", next(_counter))


def is_capturing(stream):
    """True while `stream` captures; raises when the capture was invalidated (as CuPy)."""
    ensure_context()
    status = int(check(_driver._drv().cuStreamIsCapturing(stream.ptr)))
    if status == _STATUS_INVALIDATED:
        raise CUDARuntimeError(901, "cudaErrorStreamCaptureInvalidated: the capture on this "
                                    "stream was invalidated by an operation not allowed "
                                    "during capture; call end_capture() to end it")
    return status != 0


def end_capture(stream):
    """End the capture on `stream` and instantiate it: a `Graph`."""
    ident = captures.pop(stream.ptr, None)
    drv = _driver._drv()
    ensure_context()
    try:
        graph = check(drv.cuStreamEndCapture(stream.ptr))
    except CUDARuntimeError:
        # Nothing captured will ever run: the arena can go back to the stream at once.
        if ident is not None:
            _retire(ident, stream.ptr)
        raise
    try:
        exec_ = check(drv.cuGraphInstantiate(graph, 0))
    except BaseException:
        drv.cuGraphDestroy(graph)
        if ident is not None:
            _retire(ident, stream.ptr)
        raise
    return Graph(graph, exec_, ident, stream)


class Graph:
    """An instantiated CUDA graph (cuarray version of `cupy.cuda.Graph`).

    Made by `Stream.end_capture()`. `launch(stream=None)` replays it on `stream` (default:
    the current stream); `upload(stream=None)` loads it onto the device ahead of the
    first launch. The arrays created during the capture are the graph's inputs and
    outputs: keep them, write inputs in place and read outputs after a launch.
    """

    __slots__ = ("_graph", "_exec", "_ident", "_stream_ptr", "device_id", "__weakref__")

    def __init__(self, graph, exec_, ident, stream):
        self._graph = graph
        self._exec = exec_
        self._ident = ident
        self._stream_ptr = stream.ptr
        self.device_id = stream.device_id

    def _sp(self, stream):
        if stream is None:
            from cuarray._runtime.stream import current_stream_ptr
            return current_stream_ptr()
        return stream.ptr

    def launch(self, stream=None):
        sp = self._sp(stream)
        ensure_context()
        check(_driver._drv().cuGraphLaunch(self._exec, sp))
        self._stream_ptr = sp

    def upload(self, stream=None):
        ensure_context()
        check(_driver._drv().cuGraphUpload(self._exec, self._sp(stream)))

    def debug_dot_str(self, flags=0):
        """The graph in Graphviz's dot language (cuGraphDebugDotPrint)."""
        import os
        import tempfile
        fd, path = tempfile.mkstemp(suffix=".dot")
        os.close(fd)
        try:
            check(_driver._drv().cuGraphDebugDotPrint(self._graph, path.encode(), flags))
            with open(path) as f:
                return f.read()
        finally:
            os.unlink(path)

    def __del__(self):
        try:
            drv = _driver._drv()
            drv.cuGraphExecDestroy(self._exec)
            drv.cuGraphDestroy(self._graph)
        except Exception:
            pass
        if self._ident is not None:
            _retire(self._ident, self._stream_ptr)


def _retire(ident, stream_ptr):
    """Give a dead capture's blocks back to `stream_ptr`'s arena of their pools.

    Work launched from the graph may still be queued on that stream; handing the memory
    to the same stream keeps later reuse ordered after it. A pool whose lock is taken
    (a finalizer running inside the pool) is retried by `retire_pending`.
    """
    with _lock:
        entries = _blocks.pop(ident, [])
    by_pool = {}
    for pool, head in entries:
        by_pool.setdefault(id(pool), (pool, []))[1].append(head)
    for pool, heads in by_pool.values():
        if not pool._lock.acquire(False):
            with _lock:
                _blocks.setdefault(ident, []).extend((pool, h) for h in heads)
                _to_retire.append((ident, stream_ptr))
            continue
        try:
            _move(pool, ident, heads, stream_ptr)
        finally:
            pool._lock.release()


def _move(pool, ident, heads, stream_ptr):
    from cuarray._runtime.memory_pool import _Arena
    old = pool._arenas.pop(ident, None)
    new = pool._arenas.get(stream_ptr)
    if new is None:
        new = pool._arenas[stream_ptr] = _Arena()
    for head in heads:
        c = head
        while c is not None:
            if c.free and old is not None:
                old.remove(c)
                c.stream = stream_ptr
                new.add(c)
            else:
                c.stream = stream_ptr  # lent: returns to the stream's arena when freed
            c = c.next


def retire_pending():
    """Retry the retirements that found a pool busy."""
    with _lock:
        pending = _to_retire[:]
        del _to_retire[:]
    for ident, sp in pending:
        _retire(ident, sp)
