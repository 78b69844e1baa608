"""The dtype-resolution check of cuarray.scipy.special's ufuncs, with SciPy's
`resolve_dtypes` as the reference (imported by the special-function test modules)."""
import itertools

import numpy as np
import pytest

from cuarray.scipy.special._ufuncs import UFUNCS, resolve


def check_resolution(ref, name, kinds, free=None):
    """Each combination of `kinds` (dtype chars, Python scalar types) over the first `free`
    inputs (all by default; float64 for the rest) resolves to SciPy's loop, or raises
    TypeError where SciPy's does."""
    uf = UFUNCS[name]
    free = uf.nin if free is None else min(free, uf.nin)
    for combo in itertools.product(kinds, repeat=free):
        combo = combo + ("d",) * (uf.nin - free)
        ins = [np.dtype(c) if isinstance(c, str) else c for c in combo]
        try:
            want = ref.resolve_dtypes(tuple(ins) + (None,))
        except TypeError:
            with pytest.raises(TypeError):
                resolve(name, uf.types, ins)
            continue
        lin, lout = resolve(name, uf.types, ins)
        assert tuple(lin) + (lout,) == want, (name, combo)
