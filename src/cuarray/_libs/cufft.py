"""cuFFT plans through nvmath.bindings.cufft.

A plan is one `cufftMakePlanMany64` call: transform lengths `n`, cuFFT's advanced data
layout (embeds, element strides, batch distances) and a batch count. `plan_layout` finds
that layout for arrays as they lie in memory (strided, transposed, sliced), so most
transforms need no copy. `Plan` owns the handle and a work area taken from cuarray's
memory pool (auto-allocation off), and binds itself to the current stream before it runs.

cuFFT's advanced layout addresses element (b, x0, x1, x2) of a batch as
    b * dist + ((x0 * embed[1] + x1) * embed[2] + x2) * stride
(embed[0] is not used for addressing), separately for input and output.
"""
import atexit
import itertools
from typing import NamedTuple

from cuarray._runtime.compiler import device_arch
from cuarray._runtime.device import Device, ensure_context, get_device_id
from cuarray._runtime.memory import alloc
from cuarray._runtime.stream import current_stream_ptr

FORWARD = -1   # CUFFT_FORWARD
INVERSE = 1    # CUFFT_INVERSE

# cufftType codes (cufft.h), by (value type, precision of the complex side).
TYPES = {("C2C", "F"): 0x29, ("R2C", "F"): 0x2a, ("C2R", "F"): 0x2c,
         ("C2C", "D"): 0x69, ("R2C", "D"): 0x6a, ("C2R", "D"): 0x6c}
TYPE_NAMES = {v: k[0] if k[1] == "F" else {"C2C": "Z2Z", "R2C": "D2Z", "C2R": "Z2D"}[k[0]]
              for k, v in TYPES.items()}

# cudaDataType (input, output, execution) of each cufftType, for cufftXtMakePlanMany:
# CUDA_R_32F 0, CUDA_R_64F 1, CUDA_C_32F 4, CUDA_C_64F 5.
_XT_TYPES = {0x29: (4, 4, 4), 0x2a: (0, 4, 4), 0x2c: (4, 0, 4),
             0x69: (5, 5, 5), 0x6a: (1, 5, 5), 0x6c: (5, 1, 5)}

# Batch dimensions that one plan's batch cannot cover run as separate executions of the
# same plan, up to this many; past it a transposing copy is cheaper than the launches.
MAX_LOOPS = 8

_cufft = None
_exiting = False


@atexit.register
def _at_exit():
    global _exiting
    _exiting = True  # libraries may be unloaded already: leave plans to the driver


def _lib():
    global _cufft
    if _cufft is None:
        from nvmath.bindings import cufft
        _cufft = cufft
    return _cufft


class Layout(NamedTuple):
    """A cufftPlanMany layout for one (input, output) pair of arrays; strides in elements.

    `inembed`/`onembed` None means cuFFT's basic (dense) layout. `loops` lists batch
    dimensions left to separate executions: (count, input step, output step) in bytes.
    """
    inembed: tuple
    istride: int
    idist: int
    onembed: tuple
    ostride: int
    odist: int
    batch: int
    loops: tuple = ()


def _embed(shape, strides, itemsize, plan_axes):
    """(embed, innermost stride) of the transformed axes, in elements, or None."""
    lens = [shape[ax] for ax in plan_axes]
    st = []
    for ax in plan_axes:
        q, r = divmod(strides[ax], itemsize)
        if r:
            return None
        st.append(q)
    if len(st) == 1 and lens[0] == 1:
        st[0] = 1  # the stride of a length-1 transform never addresses anything
    if any(s <= 0 for s in st):
        return None
    embed = [lens[0]]
    for i in range(1, len(st)):
        q, r = divmod(st[i - 1], st[i])
        if r or q < lens[i]:
            return None
        embed.append(q)
    return tuple(embed), st[-1]


def plan_layout(in_shape, in_strides, in_itemsize, out_shape, out_strides, out_itemsize,
                plan_axes, max_loops=MAX_LOOPS):
    """The cuFFT layout transforming `plan_axes` (outermost first) of one array into another.

    Strides are in bytes, as NumPy and cuarray give them. The other axes are the batch:
    they must have the same lengths on both sides; runs of them that are contiguous in
    both arrays merge, the longest becomes cuFFT's batch and the rest `loops`. Returns
    None when no such layout exists (the caller copies to a dense layout instead).
    Transformed axes of length 1 are allowed only when there is a single one.
    """
    ins = _embed(in_shape, in_strides, in_itemsize, plan_axes)
    outs = _embed(out_shape, out_strides, out_itemsize, plan_axes)
    if ins is None or outs is None:
        return None
    (inembed, istride), (onembed, ostride) = ins, outs
    dims = []
    for ax in range(len(in_shape)):
        if ax in plan_axes or in_shape[ax] == 1:
            continue
        si, so = in_strides[ax], out_strides[ax]
        if si <= 0 or so <= 0 or si % in_itemsize or so % out_itemsize:
            return None
        dims.append([in_shape[ax], si // in_itemsize, so // out_itemsize])
    dims.sort(key=lambda d: (d[1], d[2]))  # innermost first
    merged = []
    for c, si, so in dims:
        if merged:
            pc, psi, pso = merged[-1]
            if si == psi * pc and so == pso * pc:
                merged[-1][0] *= c
                continue
        merged.append([c, si, so])
    n_in, n_out = 1, 1
    for ax in plan_axes:
        n_in *= in_shape[ax]
        n_out *= out_shape[ax]
    if merged:
        main = max(range(len(merged)), key=lambda k: merged[k][0])
        batch, idist, odist = merged.pop(main)
    else:
        batch, idist, odist = 1, n_in, n_out
    count = 1
    for c, _, _ in merged:
        count *= c
    if count > max_loops:
        return None
    loops = tuple((c, si * in_itemsize, so * out_itemsize) for c, si, so in merged)
    in_lens = tuple(in_shape[ax] for ax in plan_axes)
    out_lens = tuple(out_shape[ax] for ax in plan_axes)
    if (istride == 1 and ostride == 1 and inembed == in_lens and onembed == out_lens
            and (batch == 1 or (idist == n_in and odist == n_out))):
        return Layout(None, 1, n_in, None, 1, n_out, batch, loops)
    return Layout(inembed, istride, idist, onembed, ostride, odist, batch, loops)


def loop_offsets(loops):
    """(input, output) byte offsets of every execution that `loops` asks for."""
    if not loops:
        return ((0, 0),)
    ranges = [range(c) for c, _, _ in loops]
    return tuple((sum(i * lp[1] for i, lp in zip(idx, loops)),
                  sum(i * lp[2] for i, lp in zip(idx, loops)))
                 for idx in itertools.product(*ranges))


def is_alloc_failure(e):
    """True for cuFFT's own allocation failure (CUFFT_ALLOC_FAILED) while making a plan."""
    return getattr(e, "status", None) == 2 and type(e).__name__ == "cuFFTError"


def plan_key(fft_type, n, layout, device_id):
    """The plan cache key: everything cufftMakePlanMany64 is given, and the device."""
    return (fft_type, tuple(n), layout.inembed, layout.istride, layout.idist,
            layout.onembed, layout.ostride, layout.odist, layout.batch, device_id)


class Plan:
    """A cuFFT plan for one `plan_key`, with its work area from cuarray's memory pool.

    The work area is shared by every execution of the plan, whatever the stream, as
    in CuPy: one plan must not run on two streams at the same time.
    """

    __slots__ = ("handle", "key", "fft_type", "work_area", "memsize", "device_id", "_stream",
                 "_exec", "_callbacks", "__weakref__")

    def __init__(self, key, callbacks=None):
        fft_type, n, inembed, istride, idist, onembed, ostride, odist, batch, device_id = key
        if ensure_context() != device_id:
            raise ValueError(f"a cuFFT plan for device {device_id} cannot be made on another "
                             "device")
        cufft = _lib()
        self.handle = None
        self.key, self.fft_type, self.device_id, self._stream = key, fft_type, device_id, None
        self.work_area, self.memsize = None, 0
        h = cufft.create()
        try:
            cufft.set_auto_allocation(h, 0)  # the work area comes from the pool, below
            # load/store callbacks are set between creating and planning (fft/_callbacks.py)
            self._callbacks = None if callbacks is None else callbacks.attach(
                cufft, h, fft_type, "compute_" + device_arch()[3:])
            ie, oe = list(inembed) if inembed else 0, list(onembed) if onembed else 0
            if callbacks is None:
                size = cufft.make_plan_many64(h, len(n), list(n), ie, istride, idist, oe,
                                              ostride, odist, fft_type, batch)
            else:
                # LTO callbacks are planned as nvmath-python plans them: cufftXtMakePlanMany
                # with the data types (same layout, same plan otherwise).
                t_in, t_out, t_exec = _XT_TYPES[fft_type]
                size = cufft.xt_make_plan_many(h, len(n), list(n), ie, istride, idist, t_in,
                                               oe, ostride, odist, t_out, batch, t_exec)
            if size:
                self.work_area = alloc(size)
                cufft.set_work_area(h, self.work_area.ptr)
            self.memsize = size
        except BaseException:
            cufft.destroy(h)
            raise
        self.handle = h
        name = TYPE_NAMES[fft_type]
        fn = getattr(cufft, "exec_" + name.lower())
        if name in ("C2C", "Z2Z"):
            self._exec = fn
        else:
            self._exec = lambda plan, i, o, direction, fn=fn: fn(plan, i, o)

    def execute(self, in_ptr, out_ptr, direction, offsets=((0, 0),)):
        """Run on the current stream from `in_ptr` to `out_ptr` (once per offset pair)."""
        s = current_stream_ptr()
        if s != self._stream:
            _lib().set_stream(self.handle, s)
            self._stream = s
        run, h = self._exec, self.handle
        for di, do in offsets:
            run(h, in_ptr + di, out_ptr + do, direction)

    @property
    def plan_type(self):
        return "PlanMany"

    def __repr__(self):
        return (f"<cuFFT plan {TYPE_NAMES[self.fft_type]} n={self.key[1]} batch={self.key[8]} "
                f"device={self.device_id} work area={self.memsize} bytes>")

    def __del__(self):
        h = getattr(self, "handle", None)
        if h is None or _exiting:
            return
        self.handle = None
        try:
            if get_device_id() == self.device_id:
                ensure_context()  # finalizers may run on a thread that never used CUDA
                _lib().destroy(h)
            else:
                with Device(self.device_id):
                    _lib().destroy(h)
        except Exception:
            pass  # a finalizer must not raise
