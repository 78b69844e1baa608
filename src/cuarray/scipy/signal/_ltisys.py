"""Linear time-invariant system classes (cuarray version of `scipy.signal.lti`, `dlti`,
`TransferFunction`, `ZerosPolesGain`, `StateSpace`): containers of device arrays whose
conversions and simulations are cuarray's functions. StateSpace systems add, subtract,
multiply and divide as SciPy's (the other representations have no arithmetic, as in SciPy)."""
import numpy

import cuarray
from cuarray._core.ndarray import ndarray

__all__ = ["lti", "dlti", "TransferFunction", "ZerosPolesGain", "StateSpace"]


def _dev(v):
    return v if isinstance(v, ndarray) else cuarray.asarray(numpy.asarray(v, dtype=float)
                                                            if not numpy.iscomplexobj(v)
                                                            else numpy.asarray(v))


class LinearTimeInvariant:
    """Common base of the system classes: the time base (`dt`, None for continuous)."""

    _dt = None

    @property
    def dt(self):
        return self._dt

    def to_tf(self):
        """The system as a TransferFunction."""
        from cuarray.scipy.signal._dlsim import _tf_of
        from cuarray.scipy.signal._iir_design import zpk2tf
        if isinstance(self, TransferFunction):
            return self
        parts = self._tuple()
        if isinstance(self, ZerosPolesGain):
            num, den = zpk2tf(*parts)
        else:
            num, den = _tf_of(parts, False)[1]
        return TransferFunction(num, den, dt=self._dt)

    def to_zpk(self):
        """The system as a ZerosPolesGain."""
        from cuarray.scipy.signal._iir_design import tf2zpk
        if isinstance(self, ZerosPolesGain):
            return self
        tf = self.to_tf()
        return ZerosPolesGain(*tf2zpk(tf.num, tf.den), dt=self._dt)

    def to_ss(self):
        """The system as a StateSpace."""
        from cuarray.scipy.signal._state_space import tf2ss
        if isinstance(self, StateSpace):
            return self
        tf = self.to_tf()
        return StateSpace(*tf2ss(tf.num, tf.den), dt=self._dt)

    def _system(self):
        t = self._tuple()
        return t if self._dt is None else t + (self._dt,)


class lti(LinearTimeInvariant):
    """cuarray version of `scipy.signal.lti`: lti(num, den), lti(zeros, poles, gain) or
    lti(A, B, C, D) make the matching representation."""

    def __new__(cls, *system):
        if cls is lti:
            kinds = {2: TransferFunction, 3: ZerosPolesGain, 4: StateSpace}
            if len(system) not in kinds:
                raise ValueError("Needs 2, 3 or 4 arguments.")
            return kinds[len(system)](*system)
        return super().__new__(cls)

    def impulse(self, X0=None, T=None, N=None):
        from cuarray.scipy.signal._dlsim import impulse
        return impulse(self._system(), X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        from cuarray.scipy.signal._dlsim import step
        return step(self._system(), X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        from cuarray.scipy.signal._dlsim import lsim
        return lsim(self._system(), U, T, X0=X0)

    def bode(self, w=None, n=100):
        from cuarray.scipy.signal._dlsim import bode
        return bode(self._system(), w=w, n=n)

    def freqresp(self, w=None, n=10000):
        from cuarray.scipy.signal._dlsim import freqresp
        return freqresp(self._system(), w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        from cuarray.scipy.signal._dlsim import cont2discrete
        d = cont2discrete(self._tuple(), dt, method=method, alpha=alpha)
        rep = next(r for r in (TransferFunction, ZerosPolesGain, StateSpace)
                   if isinstance(self, r))
        return rep(*d[:-1], dt=d[-1])


class dlti(LinearTimeInvariant):
    """cuarray version of `scipy.signal.dlti` (dt=True stands for an unspecified step,
    taken as 1 in simulations, as in SciPy)."""

    def __new__(cls, *system, **kwargs):
        if cls is dlti:
            kinds = {2: TransferFunction, 3: ZerosPolesGain, 4: StateSpace}
            if len(system) not in kinds:
                raise ValueError("Needs 2, 3 or 4 arguments.")
            return kinds[len(system)](*system, dt=kwargs.get("dt", True))
        return super().__new__(cls)

    def _system(self):
        dt = 1.0 if self._dt is True else float(self._dt)
        return self._tuple() + (dt,)

    def impulse(self, x0=None, t=None, n=None):
        from cuarray.scipy.signal._dlsim import dimpulse
        return dimpulse(self._system(), x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        from cuarray.scipy.signal._dlsim import dstep
        return dstep(self._system(), x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        from cuarray.scipy.signal._dlsim import dlsim
        return dlsim(self._system(), u, t=t, x0=x0)

    def bode(self, w=None, n=100):
        from cuarray.scipy.signal._dlsim import dbode
        return dbode(self._system(), w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        from cuarray.scipy.signal._dlsim import dfreqresp
        return dfreqresp(self._system(), w=w, n=n, whole=whole)


def _pick_base(dt):
    return lti if dt is None else dlti


class _Representation:
    def __new__(cls, *system, **kwargs):
        dt = kwargs.get("dt")
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            other = system[0]
            conv = {TransferFunction: "to_tf", ZerosPolesGain: "to_zpk",
                    StateSpace: "to_ss"}
            for klass, name in conv.items():
                if issubclass(cls, klass):
                    return getattr(other, name)()
        base = _pick_base(dt)
        name = cls.__name__.split("Continuous")[0].split("Discrete")[0]
        target = _CLASSES[(name, base)]
        return object.__new__(target)


class TransferFunction(_Representation, LinearTimeInvariant):
    """cuarray version of `scipy.signal.TransferFunction` (num, den normalised as SciPy)."""

    def __init__(self, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return
        from cuarray.scipy.signal._tf_transforms import normalize
        self.num, self.den = normalize(*system)
        self._dt = kwargs.get("dt")

    def _tuple(self):
        return (self.num, self.den)

    @property
    def zeros(self):
        return self.to_zpk().zeros

    @property
    def poles(self):
        return self.to_zpk().poles


class ZerosPolesGain(_Representation, LinearTimeInvariant):
    """cuarray version of `scipy.signal.ZerosPolesGain`."""

    def __init__(self, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return
        z, p, k = system
        self.zeros = cuarray.atleast_1d(_dev(z))
        self.poles = cuarray.atleast_1d(_dev(p))
        self.gain = k
        self._dt = kwargs.get("dt")

    def _tuple(self):
        return (self.zeros, self.poles, self.gain)


def _dot(x, y):
    """numpy.dot of system matrices and scalars or (host or device) matrices."""
    if numpy.ndim(x) == 0 or numpy.ndim(y) == 0:
        return x * y
    x = x if isinstance(x, ndarray) else cuarray.asarray(x)
    y = y if isinstance(y, ndarray) else cuarray.asarray(y)
    return cuarray.dot(x, y)


def _operand(other):
    return isinstance(other, (StateSpace, ndarray, numpy.ndarray, float, complex, numpy.number,
                              int))


class StateSpace(_Representation, LinearTimeInvariant):
    """cuarray version of `scipy.signal.StateSpace`."""

    # numpy and cuarray arrays leave binary operators with a system to the system
    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __init__(self, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return
        from cuarray.scipy.signal._state_space import abcd_normalize
        self.A, self.B, self.C, self.D = abcd_normalize(*system)
        self._dt = kwargs.get("dt")

    def _tuple(self):
        return (self.A, self.B, self.C, self.D)

    @property
    def poles(self):
        return cuarray.linalg.eigvals(self.A)

    def _new(self, a, b, c, d):
        dt = numpy.result_type(a.dtype, b.dtype, c.dtype, d.dtype)
        return StateSpace(*(cuarray.asarray(m, dtype=dt) for m in (a, b, c, d)),
                          **({} if self._dt is None else {"dt": self._dt}))

    def __mul__(self, other):
        """self(s) * other(s): other's output feeds self (a series connection), or a scalar
        or matrix scaling the input."""
        if not _operand(other):
            return NotImplemented
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                return NotImplemented
            if self.dt != other.dt:
                raise TypeError("Cannot multiply systems with different `dt`.")
            n1, n2 = self.A.shape[0], other.A.shape[0]
            a = cuarray.vstack((cuarray.hstack((self.A, _dot(self.B, other.C))),
                                cuarray.hstack((cuarray.zeros((n2, n1)), other.A))))
            b = cuarray.vstack((_dot(self.B, other.D), other.B))
            c = cuarray.hstack((self.C, _dot(self.D, other.C)))
            d = _dot(self.D, other.D)
            return self._new(a, b, c, d)
        return self._new(self.A, _dot(self.B, other), self.C, _dot(self.D, other))

    def __rmul__(self, other):
        if not _operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        return self._new(self.A, self.B, _dot(other, self.C), _dot(other, self.D))

    def __neg__(self):
        return StateSpace(self.A, self.B, -self.C, -self.D,
                          **({} if self._dt is None else {"dt": self._dt}))

    def __add__(self, other):
        """The parallel connection of two systems, or a static gain added to D."""
        if not _operand(other):
            return NotImplemented
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                raise TypeError(f"Cannot add {type(self)} and {type(other)}")
            if self.dt != other.dt:
                raise TypeError("Cannot add systems with different `dt`.")
            from cuarray.scipy.linalg import block_diag
            return self._new(block_diag(self.A, other.A), cuarray.vstack((self.B, other.B)),
                             cuarray.hstack((self.C, other.C)), self.D + other.D)
        other = cuarray.atleast_2d(other if isinstance(other, ndarray)
                                   else cuarray.asarray(numpy.asarray(other)))
        if self.D.shape != other.shape:
            raise ValueError("Cannot add systems with incompatible dimensions "
                             f"({self.D.shape} and {other.shape})")
        return self._new(self.A, self.B, self.C, self.D + other)

    def __sub__(self, other):
        if not _operand(other):
            return NotImplemented
        return self.__add__(-other)

    def __radd__(self, other):
        if not _operand(other):
            return NotImplemented
        return self.__add__(other)

    def __rsub__(self, other):
        if not _operand(other):
            return NotImplemented
        return (-self).__add__(other)

    def __truediv__(self, other):
        if not _operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        if isinstance(other, (numpy.ndarray, ndarray)) and other.ndim > 0:
            raise ValueError("Cannot divide StateSpace by non-scalar numpy arrays")
        return self.__mul__(1 / other)


def _make(name, base, rep):
    return type(name, (rep, base), {"__module__": __name__})


_CLASSES = {}
for _rep in (TransferFunction, ZerosPolesGain, StateSpace):
    _n = _rep.__name__
    _CLASSES[(_n, lti)] = _make(_n + "Continuous", lti, _rep)
    _CLASSES[(_n, dlti)] = _make(_n + "Discrete", dlti, _rep)
