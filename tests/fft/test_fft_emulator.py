"""cuFFT's advanced data layout emulated with NumPy, and a CPU stand-in for device arrays.

`emulate` executes a plan key exactly as cuFFT's documentation defines the layout, on host
memory; `backend("fake", monkeypatch)` swaps cuarray arrays, plans and kernels for NumPy
ones, so the whole transform pipeline of `cuarray.fft` (argument rules, cropping and
padding, plan splitting, layouts, in-place passes, transposing fallbacks, `out`, scaling)
runs without a GPU. `backend("gpu")` gives the real thing; the transform tests run on both.

The tests in this file check `cufft.plan_layout` against the emulator on random strided
arrays.
"""
import ctypes

import numpy as np
import pytest

from cuarray._libs import cufft as _cufft

_VT = {code: key for key, code in _cufft.TYPES.items()}


# ---- the emulator ---------------------------------------------------------------------------

def _offsets(lens, embed, stride):
    """Element offsets, of shape `lens`, of cuFFT's advanced layout."""
    k = len(lens)
    idx = np.zeros(lens, dtype=np.int64)
    mult = stride
    for d in reversed(range(k)):
        shape = [1] * k
        shape[d] = lens[d]
        idx = idx + (np.arange(lens[d], dtype=np.int64) * mult).reshape(shape)
        mult *= embed[d]
    return idx


def _host_view(ptr, count, dtype):
    buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(buf, dtype=dtype)


def emulate(key, in_ptr, out_ptr, direction, offsets=((0, 0),)):
    """Run the plan `key` (from `cufft.plan_key`) on host memory, as cuFFT would.

    Its 1-D C2R lets the imaginary parts of the 0 and n/2 terms leak into the result (the
    result for such inputs is undefined in cuFFT), so only callers that drop them match
    NumPy.
    """
    fft_type, n, inembed, istride, idist, onembed, ostride, odist, batch, _ = key
    vt, prec = _VT[fft_type]
    cdt = np.dtype(np.complex64 if prec == "F" else np.complex128)
    rdt = np.dtype(np.float32 if prec == "F" else np.float64)
    idt, odt = (rdt if vt == "R2C" else cdt), (rdt if vt == "C2R" else cdt)
    n = list(n)
    half = n[:-1] + [n[-1] // 2 + 1]
    in_lens, out_lens = (half if vt == "C2R" else n), (half if vt == "R2C" else n)
    iidx = _offsets(in_lens, inembed or in_lens, istride)
    oidx = _offsets(out_lens, onembed or out_lens, ostride)
    icount = (batch - 1) * idist + int(iidx.max()) + 1
    ocount = (batch - 1) * odist + int(oidx.max()) + 1
    axes = tuple(range(len(n)))
    results = []
    for di, do in offsets:  # read everything first: in-place plans overwrite their input
        src = _host_view(in_ptr + di, icount, idt)
        for b in range(batch):
            x = src[b * idist + iidx].astype(np.complex128 if vt != "R2C" else np.float64)
            if vt == "R2C":
                y = np.fft.rfftn(x, axes=axes)
            elif vt == "C2R":
                y = np.fft.irfftn(x, s=n, axes=axes, norm="forward")
                if len(n) == 1:  # C2R leaks the imaginary parts NumPy ignores, as cuFFT may
                    y = y + x[0].imag + (x[-1].imag * (-1.0) ** np.arange(n[0])
                                         if n[0] % 2 == 0 else 0)
            elif direction == _cufft.FORWARD:
                y = np.fft.fftn(x, axes=axes)
            else:
                y = np.fft.ifftn(x, axes=axes, norm="forward")
            results.append((do, b, y))
    for do, b, y in results:
        _host_view(out_ptr + do, ocount, odt)[b * odist + oidx] = y.astype(odt)


# ---- a CPU stand-in for cuarray -------------------------------------------------------------

class FakeArray:
    """The part of cuarray.ndarray that cuarray.fft uses, over a NumPy array."""

    def __init__(self, a):
        self.np = a

    @classmethod
    def _alloc(cls, shape, dtype, order="C"):
        return cls(np.empty(shape, dtype, order=order))

    shape = _shape = property(lambda self: self.np.shape)
    strides = _strides = property(lambda self: self.np.strides)
    _ptr = property(lambda self: self.np.__array_interface__["data"][0])
    _c_contig = property(lambda self: self.np.flags.c_contiguous)
    dtype = property(lambda self: self.np.dtype)
    size = property(lambda self: self.np.size)
    ndim = property(lambda self: self.np.ndim)
    nbytes = property(lambda self: self.np.nbytes)
    T = property(lambda self: FakeArray(self.np.T))
    imag = property(lambda self: FakeArray(self.np.imag))
    real = property(lambda self: FakeArray(self.np.real))

    @property
    def data(self):
        arr = self.np

        class _Data:
            @staticmethod
            def memset_async(value, nbytes):
                assert value == 0 and nbytes == arr.nbytes and arr.flags.c_contiguous
                arr[...] = 0
        return _Data()

    def transpose(self, *axes):
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = tuple(axes[0])
        return FakeArray(self.np.transpose(axes or None))

    def copy(self, order="C"):
        return FakeArray(self.np.copy(order=order))

    def astype(self, dtype):
        f = self.np.flags
        return FakeArray(self.np.astype(dtype, order="F" if f.f_contiguous and not f.c_contiguous
                                        else "C"))

    def fill(self, value):
        self.np.fill(value)

    def __getitem__(self, key):
        return FakeArray(self.np[key])

    def __setitem__(self, key, value):
        self.np[key] = value.np if isinstance(value, FakeArray) else value


class FakePlan:
    plan_type = "PlanMany"
    made = 0

    def __init__(self, key):
        FakePlan.made += 1
        self.key, self.fft_type, self.memsize, self.device_id = key, key[0], 0, key[-1]

    def execute(self, in_ptr, out_ptr, direction, offsets=((0, 0),)):
        align = 8 if _VT[self.fft_type][1] == "F" else 16  # cuFFT's pointer alignment
        for di, do in offsets:
            assert (in_ptr + di) % align == 0 and (out_ptr + do) % align == 0, "misaligned"
        emulate(self.key, in_ptr, out_ptr, direction, offsets)


class FakeOp:
    def __init__(self, kind, dtype):
        self.kind, self.dtype = kind, np.dtype(dtype)

    def launch(self, args):
        kind = self.kind
        if kind == "conj":
            x, y = args
            y.np[...] = np.conj(x.np.astype(self.dtype))
        else:
            x, f, y = args
            v = x.np.astype(self.dtype)
            y.np[...] = (np.conj(v) if kind == "conj_scale" else v) * f


class FakeFreqOp:
    def __init__(self, cd, wrap):
        self.cd, self.wrap = cd, wrap

    def launch(self, args):
        n, big_n, f, out = args
        k = np.arange(out.size)
        if self.wrap:
            k = np.where(k < big_n, k, k - n)
        out.np[...] = k.astype(self.cd) * f


class _FakeDevice:
    def __init__(self, device=None):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


class Backend:
    """Moves host arrays to the array type under test and back."""

    def __init__(self, name):
        self.name = name

    def asarray(self, a):
        a = np.asarray(a)
        if self.name == "fake":
            return FakeArray(a.copy())
        import cuarray
        return cuarray.asarray(a)

    def asnumpy(self, x):
        if self.name == "fake":
            assert isinstance(x, FakeArray), type(x)
            return x.np.copy()
        import cuarray
        assert isinstance(x, cuarray.ndarray), type(x)
        return cuarray.asnumpy(x)

    def empty(self, shape, dtype):
        if self.name == "fake":
            return FakeArray._alloc(tuple(shape), np.dtype(dtype))
        import cuarray
        return cuarray.empty(shape, dtype)

    def is_array(self, x):
        if self.name == "fake":
            return isinstance(x, FakeArray)
        import cuarray
        return isinstance(x, cuarray.ndarray)


def backend(name, monkeypatch):
    """The backend `name`; for "fake", patch cuarray.fft to run on NumPy stand-ins."""
    from cuarray.fft import _fft, _helper, config
    if name == "fake":
        monkeypatch.setattr(_fft, "ndarray", FakeArray)
        monkeypatch.setattr(_helper, "ndarray", FakeArray)
        monkeypatch.setattr(_helper, "Device", _FakeDevice)
        monkeypatch.setattr(_fft, "ensure_context", lambda: 0)
        monkeypatch.setattr(config, "get_device_id", lambda: 0)
        monkeypatch.setattr(_cufft, "Plan", FakePlan)
        monkeypatch.setattr(_fft, "_op", lambda kind, dtype: FakeOp(kind, dtype))
        monkeypatch.setattr(_helper, "_freq_op", lambda cd, wrap: FakeFreqOp(cd, wrap))
    clear_plan_caches()
    monkeypatch.setattr(config, "enable_nd_planning", True)
    return Backend(name)


def clear_plan_caches():
    """Forget this thread's plans: fake and real plans share keys, so tests must never let
    one side find the other's."""
    from cuarray.fft import config
    config._caches().clear()


# ---- plan_layout against the emulator -------------------------------------------------------

def _dense_like(a, shape, dtype):
    """NumPy version of cuarray.fft's output allocation: a's axis order, dense."""
    perm = sorted(range(a.ndim), key=lambda i: -abs(a.strides[i]))
    inv = np.argsort(perm)
    return np.empty([shape[p] for p in perm], dtype).transpose(inv)


def _run_layout(a, out, plan_axes, vt, n, direction=_cufft.FORWARD):
    """Emulate the plan_layout plan from `a` to `out`; returns False when there is none."""
    lay = _cufft.plan_layout(a.shape, a.strides, a.itemsize, out.shape, out.strides,
                             out.itemsize, plan_axes)
    if lay is None:
        return False
    prec = "F" if a.dtype in (np.float32, np.complex64) else "D"
    key = _cufft.plan_key(_cufft.TYPES[(vt, prec)], n, lay, 0)
    offs = _cufft.loop_offsets(lay.loops)
    emulate(key, a.__array_interface__["data"][0], out.__array_interface__["data"][0],
            direction, offs)
    return True


def _random_view(rs, dtype):
    ndim = rs.randint(1, 5)
    shape = tuple(rs.randint(1, 6, size=ndim))
    base = rs.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        base = base + 1j * rs.standard_normal(shape)
    base = base.astype(dtype)
    a = base.transpose(rs.permutation(ndim))
    key = []
    for d in range(ndim):
        step = rs.choice([1, 1, 1, 2, -1])
        key.append(slice(None, None, step))
    return a[tuple(key)]


@pytest.mark.parametrize("seed", range(200))
def test_plan_layout_c2c_random_views(seed):
    rs = np.random.RandomState(seed)
    a = _random_view(rs, np.complex128)
    cand = [ax for ax in range(a.ndim) if a.shape[ax] > 1] or [0]
    k = rs.randint(1, min(3, len(cand)) + 1)
    axes = list(rs.choice(cand, size=k, replace=False))
    plan_axes = tuple(sorted(axes, key=lambda ax: -a.strides[ax]))
    out = _dense_like(a, a.shape, a.dtype)
    n = [a.shape[ax] for ax in plan_axes]
    if _run_layout(a, out, plan_axes, "C2C", n):
        np.testing.assert_allclose(out, np.fft.fftn(a, axes=plan_axes), atol=1e-9)


@pytest.mark.parametrize("seed", range(100))
def test_plan_layout_r2c_c2r_random_views(seed):
    rs = np.random.RandomState(1000 + seed)
    a = _random_view(rs, np.float64)
    last = rs.randint(a.ndim)
    others = [ax for ax in range(a.ndim) if ax != last and a.shape[ax] > 1]
    k = rs.randint(0, min(2, len(others)) + 1) if a.shape[last] > 1 else 0
    plan_axes = tuple(sorted(rs.choice(others, size=k, replace=False),
                             key=lambda ax: -a.strides[ax])) + (last,)
    plan_axes = tuple(int(x) for x in plan_axes)
    oshape = list(a.shape)
    oshape[last] = a.shape[last] // 2 + 1
    out = _dense_like(a, oshape, np.complex128)
    n = [a.shape[ax] for ax in plan_axes]
    if not _run_layout(a, out, plan_axes, "R2C", n):
        return
    want = np.fft.rfftn(a, axes=plan_axes)
    np.testing.assert_allclose(out, want, atol=1e-9)
    # and back: C2R from that spectrum to a dense real array
    back = _dense_like(out, a.shape, np.float64)
    if _run_layout(out.copy(), back, plan_axes, "C2R", n, _cufft.INVERSE):
        np.testing.assert_allclose(back, a * np.prod(n), atol=1e-8)


@pytest.mark.parametrize("shape,axes", [
    ((8,), (0,)), ((4, 6), (1,)), ((4, 6), (0,)), ((3, 4, 5), (1, 2)), ((3, 4, 5), (0, 1)),
    ((3, 4, 5), (0, 2)), ((2, 3, 4, 5), (1, 2, 3)), ((3, 4, 5), (0, 1, 2))])
def test_plan_layout_dense_c_order_always_fits(shape, axes):
    a = np.random.RandomState(0).standard_normal(shape).astype(np.complex64)
    out = np.empty_like(a)
    assert _run_layout(a, out, axes, "C2C", [shape[ax] for ax in axes])
    np.testing.assert_allclose(out, np.fft.fftn(a, axes=axes), rtol=1e-4, atol=1e-4)


def test_plan_layout_basic_for_trailing_axes():
    a = np.empty((6, 4, 8), np.complex64)
    lay = _cufft.plan_layout(a.shape, a.strides, 8, a.shape, a.strides, 8, (1, 2))
    assert lay == _cufft.Layout(None, 1, 32, None, 1, 32, 6, ())
    r = np.empty((6, 4, 8), np.float32)
    c = np.empty((6, 4, 5), np.complex64)
    lay = _cufft.plan_layout(r.shape, r.strides, 4, c.shape, c.strides, 8, (1, 2))
    assert lay == _cufft.Layout(None, 1, 32, None, 1, 20, 6, ())


def test_plan_layout_strided_batch_for_leading_axis():
    a = np.empty((16, 5), np.complex64)  # fft along axis 0: stride 5, batch of 5 at distance 1
    lay = _cufft.plan_layout(a.shape, a.strides, 8, a.shape, a.strides, 8, (0,))
    assert (lay.istride, lay.idist, lay.batch, lay.loops) == (5, 1, 5, ())


def test_plan_layout_middle_axis_loops_or_gives_up():
    a = np.empty((3, 16, 5), np.complex64)  # batch dims 3 and 5 cannot merge
    lay = _cufft.plan_layout(a.shape, a.strides, 8, a.shape, a.strides, 8, (1,))
    assert lay.batch == 5 and lay.loops == ((3, 16 * 5 * 8, 16 * 5 * 8),)
    b = np.empty((9, 16, 11), np.complex64)  # 9 executions: a transposed copy is cheaper
    assert _cufft.plan_layout(b.shape, b.strides, 8, b.shape, b.strides, 8, (1,)) is None


def test_plan_layout_refuses_what_cufft_cannot_address():
    a = np.empty((4, 6), np.complex64)
    r = a[:, ::-1]  # negative stride
    assert _cufft.plan_layout(r.shape, r.strides, 8, r.shape, (48, 8), 8, (1,)) is None
    b = np.broadcast_to(np.empty(6, np.complex64), (4, 6))  # stride 0 batch
    assert _cufft.plan_layout(b.shape, b.strides, 8, (4, 6), (48, 8), 8, (1,)) is None
    # axes listed against memory order do not nest
    assert _cufft.plan_layout(a.shape, a.strides, 8, a.shape, a.strides, 8, (1, 0)) is None


def test_loop_offsets():
    assert _cufft.loop_offsets(()) == ((0, 0),)
    assert _cufft.loop_offsets(((2, 10, 100), (3, 1, 7))) == (
        (0, 0), (1, 7), (2, 14), (10, 100), (11, 107), (12, 114))


def test_plan_key_and_type_names():
    lay = _cufft.Layout(None, 1, 8, None, 1, 8, 4)
    key = _cufft.plan_key(_cufft.TYPES[("C2C", "F")], [8], lay, 0)
    assert key == (0x29, (8,), None, 1, 8, None, 1, 8, 4, 0)
    assert hash(key) == hash(tuple(key))
    assert {_cufft.TYPE_NAMES[_cufft.TYPES[k]] for k in _cufft.TYPES} == {
        "C2C", "R2C", "C2R", "Z2Z", "D2Z", "Z2D"}


def test_emulator_matches_numpy_for_basic_layout():
    x = np.random.RandomState(3).standard_normal((3, 10)).astype(np.complex128)
    y = np.empty_like(x)
    lay = _cufft.Layout(None, 1, 10, None, 1, 10, 3)
    emulate(_cufft.plan_key(0x69, [10], lay, 0), x.ctypes.data, y.ctypes.data, _cufft.FORWARD)
    np.testing.assert_allclose(y, np.fft.fft(x), atol=1e-12)
    x0 = x.copy()  # in place, as cuFFT allows with identical layouts
    emulate(_cufft.plan_key(0x69, [10], lay, 0), x.ctypes.data, x.ctypes.data, _cufft.INVERSE)
    np.testing.assert_allclose(x, np.fft.ifft(x0, norm="forward"), atol=1e-12)


def test_random_layouts_mostly_fit():
    # the solver is worth having only if it covers most views without copies
    rs = np.random.RandomState(7)
    fits = 0
    for _ in range(300):
        a = _random_view(rs, np.complex64)
        axes = (int(rs.randint(a.ndim)),)
        out = _dense_like(a, a.shape, a.dtype)
        if _cufft.plan_layout(a.shape, a.strides, 8, out.shape, out.strides, 8, axes):
            fits += 1
    assert fits > 150
