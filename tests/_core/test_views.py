"""View-producing operations (reshape, ravel, transpose, T, swapaxes, moveaxis, squeeze,
expand_dims) against NumPy on random layouts: the same shape, strides, flags, byte offset and
values, a view exactly when NumPy gives one, and NumPy's errors. The fast paths for contiguous
inputs and the general paths meet the same checks.

Every array is reached from a fresh owner by the same random chain of slices (negative steps
included), integer indices, new axes, transposes and broadcasts on both sides, so inputs cover
0-d, size-0, size-1, non-contiguous and zero-stride layouts. Runs on the GPU and through the
emulated host device.
"""
import numpy
import pytest

from cuarray._core import shapes
from emulation import emulate, gpu_present

N_CASES = 400


@pytest.fixture(params=["emu", pytest.param("gpu", marks=pytest.mark.gpu)])
def cp(request, monkeypatch):
    if request.param == "emu":
        if gpu_present():
            pytest.skip("a GPU is present: the gpu variant of this test runs instead")
        emulate(monkeypatch, isolate=False)
    import cuarray
    return cuarray


# ---- random layouts, built the same way on both sides -------------------------------------------
def _random_shape(rng, max_ndim=4):
    # Sizes 0 and 1 are common so that empty arrays and unit axes come up often.
    return tuple(int(n) for n in rng.choice([0, 1, 1, 2, 3, 4, 5], rng.integers(0, max_ndim + 1)))


def _random_ops(rng, shape):
    """A chain of basic indices, transposes and broadcasts valid for an array of `shape`."""
    ops = []
    for _ in range(rng.integers(0, 4)):
        kind = rng.choice(["slice", "int", "newaxis", "transpose", "broadcast"])
        nd = len(shape)
        if kind == "slice" and nd:
            key = []
            for n in shape:
                step = int(rng.choice([1, 1, 2, -1, -2, 3]))
                start = int(rng.integers(-n - 1, n + 1)) if n and rng.random() < 0.5 else None
                key.append(slice(start, None, step))
            ops.append(("index", tuple(key)))
        elif kind == "int" and nd and 0 not in shape:
            d = int(rng.integers(nd))
            # (the Ellipsis keeps a 0-d result an array: NumPy gives a scalar without it)
            ops.append(("index", (slice(None),) * d + (int(rng.integers(-shape[d], shape[d])),
                                                       Ellipsis)))
        elif kind == "newaxis":
            d = int(rng.integers(nd + 1))
            ops.append(("index", (slice(None),) * d + (None,)))
        elif kind == "transpose":
            ops.append(("transpose", tuple(int(a) for a in rng.permutation(nd))))
        elif kind == "broadcast":  # zero strides: unit axes stretched, an axis put in front
            ops.append(("broadcast", (int(rng.integers(1, 4)),) + tuple(
                int(rng.integers(2, 4)) if n == 1 and rng.random() < 0.5 else n for n in shape)))
        else:
            continue
        kind, arg = ops[-1]
        shape = (numpy.empty(shape)[arg].shape if kind == "index" else
                 tuple(shape[a] for a in arg) if kind == "transpose" else arg)
    return ops


def _apply(xp, x, ops):
    for kind, arg in ops:
        x = (x[arg] if kind == "index" else x.transpose(arg) if kind == "transpose" else
             xp.broadcast_to(x, arg))
    return x


class Case:
    """One random layout on both sides: `n` and `c` views of owners `n_base` and `c_base`."""

    def __init__(self, cp, rng):
        dtype = rng.choice([numpy.int8, numpy.float32, numpy.complex128])
        shape = _random_shape(rng)
        self.n_base = numpy.arange(numpy.prod(shape, dtype=int), dtype=dtype).reshape(
            shape, order=rng.choice(["C", "F"])).copy(order="K")
        self.c_base = cp.asarray(self.n_base)
        if not self.n_base.size:
            # NumPy 2 gives a new empty array zero strides (views of it keep their own rules);
            # start from the same strides.
            self.c_base = cp.ndarray(shape, dtype, strides=self.n_base.strides)
        assert self.c_base.strides == self.n_base.strides and self.c_base.base is None
        ops = _random_ops(rng, shape)
        self.n, self.c = _apply(numpy, self.n_base, ops), _apply(cp, self.c_base, ops)
        self.check(self.n, self.c, "input")

    def offset(self, x):
        if isinstance(x, numpy.ndarray):
            return x.__array_interface__["data"][0] - self.n_base.__array_interface__["data"][0]
        return x.data.ptr - self.c_base.data.ptr

    def check(self, n, c, what):
        """`c` is laid out as `n`, and a view of the owner exactly when `n` is one."""
        info = f"{what}: input {self.n.shape} strides {self.n.strides} dtype {self.n.dtype}"
        assert c.shape == n.shape, info
        assert c.dtype == n.dtype, info
        assert (c.flags.c_contiguous, c.flags.f_contiguous) == \
            (n.flags.c_contiguous, n.flags.f_contiguous), info
        assert c.size == n.size and c.ndim == n.ndim, info
        view = _owner(n) is self.n_base
        assert (c._mem is self.c_base._mem) == view, info
        if view:
            assert c.strides == n.strides, info
            assert self.offset(c) == self.offset(n), info
            assert c.base is (None if n is self.n_base else self.c_base), info
        else:
            assert (c.base is None) == (n.base is None), info
            if n.size:
                assert c.strides == n.strides, info
        numpy.testing.assert_array_equal(c.get(), n, err_msg=info)


def _owner(x):
    while isinstance(x.base, numpy.ndarray):
        x = x.base
    return x


def _cases(cp, seed):
    rng = numpy.random.default_rng(seed)
    return [(Case(cp, rng), rng) for _ in range(N_CASES)]


def _same_error(f_numpy, f_cuarray):
    """Both raise, the same type and message; or neither does."""
    try:
        want = f_numpy()
    except Exception as e:   # noqa: BLE001 -- whatever NumPy raises, we must raise too
        with pytest.raises(type(e)) as got:
            f_cuarray()
        assert str(got.value) == str(e)
        return None
    return want, f_cuarray()


def _numpy_layouts(seed, n=2000):
    """Random NumPy layouts alone (the planning tests below need no device)."""
    rng = numpy.random.default_rng(seed)
    for _ in range(n):
        shape = _random_shape(rng)
        x = numpy.arange(numpy.prod(shape, dtype=int)).reshape(shape, order=rng.choice(["C", "F"]))
        yield _apply(numpy, x, _random_ops(rng, shape)), rng


# ---- reshape and ravel -----------------------------------------------------------------------
def test_reshape_strides_plan_numpys_views():
    for x, rng in _numpy_layouts(5):
        new = shapes.infer_reshape(x.size, _random_new_shape(rng, x.size))
        for order in "CF":
            if new == x.shape or (x.flags.c_contiguous if order == "C" else x.flags.f_contiguous):
                continue  # no planning: the same strides, or contiguous ones
            try:
                want = x.reshape(new, order=order, copy=False).strides
            except ValueError:
                want = None
            assert shapes.reshape_strides(x.shape, x.strides, x.itemsize, new, order) == want


def test_keep_order_is_numpys_order_k():
    for x, _ in _numpy_layouts(6):
        perm = shapes.keep_order(x.shape, x.strides)
        numpy.testing.assert_array_equal(x.transpose(perm).ravel(), x.ravel("K"))


def _random_new_shape(rng, size):
    """A shape of `size` elements (sometimes with -1), in one of the forms reshape accepts."""
    dims = []
    rest = size
    for _ in range(rng.integers(0, 5)):
        divisors = [d for d in range(1, 6) if rest % d == 0] if rest else [0, 1, 2, 3]
        dims.append(int(rng.choice(divisors)))
        rest = rest // dims[-1] if dims[-1] else rest
    if rest != 1 or not dims:
        dims.append(rest)
    rng.shuffle(dims)
    if rng.random() < 0.3 and size:
        dims[rng.integers(len(dims))] = -1
    if rng.random() < 0.1:
        dims = [numpy.int64(d) for d in dims]
    return tuple(dims)


def _reshape_calls(shape):
    """The spellings of one reshape: varargs, a tuple, a list, and a bare int."""
    calls = [lambda x, order: x.reshape(*shape, order=order),
             lambda x, order: x.reshape(shape, order=order),
             lambda x, order: x.reshape(list(shape), order=order)]
    if len(shape) == 1:
        calls.append(lambda x, order: x.reshape(shape[0], order=order))
    return calls


def test_reshape_matches_numpy(cp):
    for case, rng in _cases(cp, 1):
        shape = _random_new_shape(rng, case.n.size)
        order = str(rng.choice(["C", "C", "F", "A"]))
        for call in _reshape_calls(shape):
            case.check(call(case.n, order), call(case.c, order), f"reshape{shape} order={order}")
        for copy in (True, False, 0):
            r = _same_error(lambda: case.n.reshape(shape, order=order, copy=copy),
                            lambda: case.c.reshape(shape, order=order, copy=copy))
            if r:
                case.check(*r, f"reshape{shape} order={order} copy={copy}")
        r = _same_error(lambda: numpy.reshape(case.n, shape, order=order),
                        lambda: cp.reshape(case.c, shape, order=order))
        case.check(*r, f"cuarray.reshape{shape} order={order}")
        n, c = case.n.view(), case.c.view()
        if _same_error(lambda: setattr(n, "shape", shape), lambda: setattr(c, "shape", shape)):
            case.check(n, c, f"shape = {shape}")


def test_reshape_keeps_strides_of_a_same_shape_view(cp):
    # NumPy hands back a view with the old strides when the shape does not change, even where
    # contiguous strides would differ (unit axes of a contiguous array).
    n = numpy.zeros((3, 8), numpy.float32)[:1, ::2][:, :1]
    c = cp.zeros((3, 8), numpy.float32)[:1, ::2][:, :1]
    assert c.reshape(1, 1).strides == n.reshape(1, 1).strides == (32, 8)
    assert c.reshape(-1, 1).strides == n.reshape(-1, 1).strides


def test_ravel_and_flatten_match_numpy(cp):
    for case, _ in _cases(cp, 2):
        for order in ("C", "F", "A", "K"):
            case.check(case.n.ravel(order), case.c.ravel(order), f"ravel order={order}")
            case.check(numpy.ravel(case.n, order), cp.ravel(case.c, order), f"cuarray.ravel {order}")
            case.check(case.n.flatten(order), case.c.flatten(order), f"flatten order={order}")


@pytest.mark.parametrize("shape,new", [
    ((6,), (4, -1)), ((6,), (-1, -1)), ((6,), (2, -2)), ((6,), (-3, -2)), ((6,), (-1, -6)),
    ((0,), (-1, 0)), ((0, 3), (-1,)), ((6,), (2.0, 3)), ((6,), ("2", 3)), ((6,), (7,)),
    ((6,), ((2, 3),)), ((), (-1, 2)), ((2, 3), None), ((6,), (True, 6)), ((6,), (2**70,)),
    ((6,), (numpy.array([2, 3]),)), ((6,), ()), ((1,), ())])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_reshape_errors(cp, shape, new, layout):
    n = numpy.zeros(shape + (2,), order="C" if layout == "C" else "F")[..., 0]
    c = cp.zeros(shape + (2,), order="C" if layout == "C" else "F")[..., 0]
    if layout == "C":
        n, c = n.copy(), c.copy()
    for order in ("C", "F", "A", "K", "c", None, "x", 1):
        for args in ([new], list(new) if isinstance(new, tuple) else [new]):
            r = _same_error(lambda: n.reshape(*args, order=order),
                            lambda: c.reshape(*args, order=order))
            assert r is None or r[0].shape == r[1].shape


# ---- transposes and axis moves ---------------------------------------------------------------
def test_transpose_family_matches_numpy(cp):
    for case, rng in _cases(cp, 3):
        n, c = case.n, case.c
        nd = n.ndim
        perm = tuple(int(a) - nd * int(rng.integers(2)) for a in rng.permutation(nd))
        case.check(n.T, c.T, "T")
        case.check(n.transpose(), c.transpose(), "transpose()")
        case.check(n.transpose(None), c.transpose(None), "transpose(None)")
        case.check(n.transpose(perm), c.transpose(perm), f"transpose({perm})")
        case.check(n.transpose(*perm), c.transpose(*perm), f"transpose(*{perm})")
        case.check(numpy.transpose(n, perm), cp.transpose(c, perm), f"cuarray.transpose {perm}")
        case.check(numpy.permute_dims(n), cp.permute_dims(c), "permute_dims")
        if nd >= 2:
            case.check(n.mT, c.mT, "mT")
        if nd:
            i, j = (int(a) for a in rng.integers(-nd, nd, 2))
            case.check(n.swapaxes(i, j), c.swapaxes(i, j), f"swapaxes({i}, {j})")
            case.check(numpy.swapaxes(n, i, j), cp.swapaxes(c, i, j), f"cuarray.swapaxes {i} {j}")
            k = int(rng.integers(0, nd + 1))
            src = tuple(int(a) - nd * int(rng.integers(2)) for a in rng.permutation(nd)[:k])
            dst = tuple(int(a) - nd * int(rng.integers(2)) for a in rng.permutation(nd)[:k])
            for s, d in ((src, dst), (list(src), list(dst))) + (((src[0], dst[0]),) if k else ()):
                case.check(numpy.moveaxis(n, s, d), cp.moveaxis(c, s, d), f"moveaxis({s}, {d})")


def test_squeeze_and_expand_dims_match_numpy(cp):
    for case, rng in _cases(cp, 4):
        n, c = case.n, case.c
        case.check(n.squeeze(), c.squeeze(), "squeeze()")
        case.check(numpy.squeeze(n), cp.squeeze(c), "cuarray.squeeze")
        units = [d - n.ndim * int(rng.integers(2)) for d in range(n.ndim) if n.shape[d] == 1]
        some = tuple(units[:int(rng.integers(0, len(units) + 1))])
        case.check(n.squeeze(some), c.squeeze(some), f"squeeze({some})")
        if len(some) == 1:
            case.check(n.squeeze(some[0]), c.squeeze(some[0]), f"squeeze({some[0]})")
        out_nd = n.ndim + int(rng.integers(0, 3))
        axes = tuple(int(a) - out_nd * int(rng.integers(2))
                     for a in rng.permutation(out_nd)[:out_nd - n.ndim])
        case.check(numpy.expand_dims(n, axes), cp.expand_dims(c, axes), f"expand_dims({axes})")
        if len(axes) == 1:
            case.check(numpy.expand_dims(n, axes[0]), cp.expand_dims(c, axes[0]),
                       f"expand_dims({axes[0]})")


@pytest.mark.parametrize("call", [
    lambda xp, a: a.transpose(0, 1), lambda xp, a: a.transpose(0, 0, 1),
    lambda xp, a: a.transpose(0, 1, 3), lambda xp, a: a.transpose(0, 1, -4),
    lambda xp, a: a.transpose((0, 1, 2), 1), lambda xp, a: a.transpose(0, 1, 2.0),
    lambda xp, a: a.transpose([[0, 1, 2]]), lambda xp, a: a.swapaxes(0, 3),
    lambda xp, a: a.swapaxes(-4, 0), lambda xp, a: a.swapaxes(0, 1.0),
    lambda xp, a: xp.swapaxes(a, 3, 0), lambda xp, a: xp.moveaxis(a, 3, 0),
    lambda xp, a: xp.moveaxis(a, 0, -4), lambda xp, a: xp.moveaxis(a, [0, 1], [0]),
    lambda xp, a: xp.moveaxis(a, [0, 0], [0, 1]), lambda xp, a: xp.moveaxis(a, [0, 1], [2, 2]),
    lambda xp, a: xp.moveaxis(a, 0.0, 1), lambda xp, a: a.squeeze(0), lambda xp, a: a.squeeze(3),
    lambda xp, a: a.squeeze((1, 1)), lambda xp, a: a.squeeze(1.0),
    lambda xp, a: xp.expand_dims(a, 4), lambda xp, a: xp.expand_dims(a, (0, 0)),
    lambda xp, a: xp.expand_dims(a, (0, -5)), lambda xp, a: xp.expand_dims(a, 1.0),
    lambda xp, a: a.squeeze([1]), lambda xp, a: a.transpose((0, 1, True)),
    lambda xp, a: a.transpose({0: 1}), lambda xp, a: a.reshape(),
    lambda xp, a: a.reshape(6, order="x"), lambda xp, a: a.reshape(6, copy="yes"),
])
def test_axis_errors(cp, call):
    n = numpy.zeros((2, 1, 3))
    assert _same_error(lambda: call(numpy, n), lambda: call(cp, cp.zeros((2, 1, 3)))) is None
