"""Small pieces every hand-written kernel module uses: source templates, a cache of built
objects, elementwise Ops declared once and built per dtypes, raw kernels compiled once per
source key and device, their launch, and the grid that fills the device once.
"""
import numpy

from cuarray._core import dtypes as _dt
from cuarray._core.elementwise import Op, Param, _sm_count
from cuarray._runtime.compiler import compile_module
from cuarray._runtime.device import ensure_context, get_device_id
from cuarray._runtime.launch import ArgPacker
from cuarray._runtime.stream import current_stream_ptr


def render(template, **values):
    """A kernel source from `template`, each `${NAME}` replaced by values[NAME]. Every
    placeholder must be given and every value used: a misspelt name fails here, where a
    bare-token replace would quietly leave it (or hit a longer identifier)."""
    import string   # here: its Template regex is compiled at import (start-up time)
    t = string.Template(template)
    names = set(t.get_identifiers())
    if names != set(values):
        raise KeyError(f"template placeholders {sorted(names)} != values {sorted(values)}")
    return t.substitute(values)


class Cache(dict):
    """Objects built once per key (elementwise Ops, plans): `cache(key, build)` returns the
    stored one or stores `build()`. One per module, so keys need not be unique across them.
    Bounded: past `limit` entries the oldest is dropped (keys come from dtypes and flags, so
    only a program cycling through many shapes of key reaches it)."""

    __slots__ = ()
    limit = 4096

    def __call__(self, key, build):
        v = self.get(key)
        if v is None:
            if len(self) >= self.limit:
                del self[next(iter(self))]
            v = self[key] = build()
        return v


class OpTemplate:
    """An elementwise `Op` declared once and built per tuple of dtypes on first use:
    `OpTemplate(name, params, body)(dt0, dt1, ..., G=4)` is the Op `<name>_<dtype chars>_G4`.

    `params`: space-separated `name:role:type` words (role 'in', 'out', 'raw' or 'scalar'),
    type a digit k for the k-th dtype given or a NumPy dtype name ('int64', 'bool'). In
    `body`, ${Tk} is the C type of the k-th dtype and ${G} the value given as G=. `op_kw`
    (preamble=, ...) go to every Op. The call is one dictionary lookup once built."""

    __slots__ = ("name", "params", "body", "op_kw", "_ops")

    def __init__(self, name, params, body, **op_kw):
        self.name, self.body, self.op_kw = name, body, op_kw
        self.params = tuple((n, role, int(t) if t.isdigit() else numpy.dtype(t))
                            for n, role, t in (w.split(":") for w in params.split()))
        bad = [n for n, role, _ in self.params if role not in ("in", "out", "raw", "scalar")]
        if bad:
            raise ValueError(f"{name}: parameters {bad} have no role in, out, raw or scalar")
        self._ops = Cache()

    def __call__(self, *dts, **values):
        key = (dts, *values.values()) if values else dts
        op = self._ops.get(key)
        if op is None:
            op = self._ops(key, lambda: self._build(dts, values))
        return op

    def _build(self, dts, values):
        import string   # here: its Template regex is compiled at import (start-up time)
        subs = {f"T{k}": _dt.ctype(d) for k, d in enumerate(dts)}
        subs.update((k, str(v)) for k, v in values.items())
        name = "_".join([self.name, *(["".join(d.char for d in dts)] if dts else []),
                         *(f"{k}{v}" for k, v in values.items())])
        params = [Param(n, role, dts[t] if isinstance(t, int) else t)
                  for n, role, t in self.params]
        return Op(name, params, string.Template(self.body).substitute(subs), **self.op_kw)


_kernels = {}


def kernel(key, build, options=()):
    """(Function, ArgPacker) for `key`; build() -> (source, kernel name, argument kinds);
    `options`: NVRTC options."""
    k = (key, get_device_id())
    e = _kernels.get(k)
    if e is None:
        src, name, kinds = build()
        e = _kernels[k] = (compile_module(src, tuple(options), name=name).get_function(name),
                           ArgPacker(kinds))
    return e


def resident_blocks(block=256):
    """Blocks of `block` threads that fill every SM once (2048 threads per SM): the grid for
    kernels whose blocks each merge a private result, so more blocks only add merges."""
    return _sm_count() * (2048 // block)


def launch(entry, grid, block, vals, shared=0):
    """Launch a `kernel()` entry on the current stream."""
    ensure_context()
    fn, packer = entry
    fn.launch((grid, 1, 1), (block, 1, 1), packer.pack(vals), shared, current_stream_ptr())
