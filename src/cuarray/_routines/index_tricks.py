"""Index tricks (NumPy reference: "Indexing routines", generating index arrays): `r_` and
`c_` build device arrays by concatenation; `s_`, `index_exp` and `ndindex` are NumPy's own
(they make host index objects only)."""
import numpy
from numpy import index_exp, ndindex, s_  # noqa: F401

from cuarray._core.ndarray import ndarray

__all__ = ["r_", "c_", "s_", "index_exp", "ndindex"]


class AxisConcatenator:
    """Translates slices, arrays and scalars into one concatenation along an axis (the
    engine of `r_` and `c_`, NumPy's rules). A string first entry picks the axis (`'1'`) or
    the axis, minimum ndim and where 1-D inputs go (`'0,2,1'`); NumPy's matrix directives
    `'r'`/`'c'` are refused, cuarray having no matrix class."""

    def __init__(self, axis=0, matrix=False, ndmin=1, trans1d=-1):
        self.axis = axis
        self.matrix = matrix
        self.trans1d = trans1d
        self.ndmin = ndmin

    def __getitem__(self, key):
        from cuarray._core.transfer import array
        from cuarray._routines.creation import arange
        from cuarray._routines.creation_more import linspace
        from cuarray._routines.joining import concatenate
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        if not isinstance(key, tuple):
            key = (key,)
        objs, scalars, array_dtypes = [], [], []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                step = 1 if item.step is None else item.step
                start = 0 if item.start is None else item.start
                if isinstance(step, (complex, numpy.complexfloating)):
                    newobj = linspace(start, item.stop, num=int(abs(step)))
                else:
                    newobj = arange(start, item.stop, step)
                if ndmin > 1:
                    newobj = array(newobj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        newobj = newobj.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise ValueError(f"the matrix directive {item!r} is not supported: cuarray "
                                     f"has no matrix class")
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError(f"unknown special directive {item!r}") from e
            elif type(item) in numpy.ScalarType:
                scalar = True
                newobj = array(item, ndmin=ndmin)
            else:
                item_ndim = item.ndim if isinstance(item, ndarray) else numpy.ndim(item)
                newobj = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    defaxes = list(range(ndmin))
                    newobj = newobj.transpose(defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2])
            objs.append(newobj)
            if scalar:
                scalars.append((len(objs) - 1, item))
            else:
                array_dtypes.append(newobj.dtype)
        # NumPy 2: Python scalars are weak, NumPy scalars count by their dtype.
        final = numpy.result_type(*array_dtypes, *[v for _, v in scalars])
        for i, _ in scalars:
            objs[i] = objs[i].astype(final)
        return concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


class RClass(AxisConcatenator):
    """cuarray version of `numpy.r_`: concatenation along the first axis."""

    def __init__(self):
        super().__init__(0)


class CClass(AxisConcatenator):
    """cuarray version of `numpy.c_`: 1-D inputs become columns, joined along the last axis."""

    def __init__(self):
        super().__init__(-1, ndmin=2, trans1d=0)


r_ = RClass()
c_ = CClass()
