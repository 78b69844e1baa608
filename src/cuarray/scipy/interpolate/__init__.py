"""cuarray version of `cupyx.scipy.interpolate` (SciPy's `scipy.interpolate` on the GPU).

Each private module re-exports its public names here, one import line per module.
"""
