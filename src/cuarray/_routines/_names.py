"""Which module of cuarray._routines defines each public routine: `cuarray` imports a
routine module on first use of one of its names (import time is part of every
program's start). tests/_routines/test_names.py keeps this table equal to the
modules' __all__."""

NAMES = {
    # creation_more
    "diag": "creation_more", "diagflat": "creation_more", "eye": "creation_more",
    "frombuffer": "creation_more", "fromfile": "creation_more", "fromfunction": "creation_more",
    "fromiter": "creation_more", "fromstring": "creation_more", "genfromtxt": "creation_more",
    "geomspace": "creation_more", "identity": "creation_more", "linspace": "creation_more",
    "load": "creation_more", "loadtxt": "creation_more", "logspace": "creation_more",
    "meshgrid": "creation_more", "mgrid": "creation_more", "ogrid": "creation_more",
    "save": "creation_more", "savez": "creation_more", "savez_compressed": "creation_more",
    "tri": "creation_more", "tril": "creation_more", "triu": "creation_more",
    "vander": "creation_more",
    # manipulation
    "append": "manipulation", "array_split": "manipulation", "asfortranarray": "manipulation",
    "atleast_1d": "manipulation", "atleast_2d": "manipulation", "atleast_3d": "manipulation",
    "broadcast": "manipulation", "broadcast_arrays": "manipulation",
    "broadcast_shapes": "manipulation", "broadcast_to": "manipulation",
    "column_stack": "manipulation", "concat": "manipulation", "concatenate": "manipulation",
    "delete": "manipulation", "dsplit": "manipulation", "dstack": "manipulation",
    "expand_dims": "manipulation", "flip": "manipulation", "fliplr": "manipulation",
    "flipud": "manipulation", "hsplit": "manipulation", "hstack": "manipulation",
    "insert": "manipulation", "moveaxis": "manipulation", "pad": "manipulation",
    "permute_dims": "manipulation", "ravel": "manipulation", "repeat": "manipulation",
    "require": "manipulation", "reshape": "manipulation", "resize": "manipulation",
    "roll": "manipulation", "rollaxis": "manipulation", "rot90": "manipulation",
    "row_stack": "manipulation", "split": "manipulation", "squeeze": "manipulation",
    "stack": "manipulation", "swapaxes": "manipulation", "tile": "manipulation",
    "transpose": "manipulation", "trim_zeros": "manipulation", "vsplit": "manipulation",
    "vstack": "manipulation",
    # indexing
    "argwhere": "indexing", "choose": "indexing", "compress": "indexing",
    "diag_indices": "indexing", "diag_indices_from": "indexing", "diagonal": "indexing",
    "extract": "indexing", "fill_diagonal": "indexing", "flatnonzero": "indexing",
    "indices": "indexing", "ix_": "indexing", "mask_indices": "indexing", "nonzero": "indexing",
    "place": "indexing", "put": "indexing", "put_along_axis": "indexing", "putmask": "indexing",
    "ravel_multi_index": "indexing", "scatter_add": "indexing", "scatter_max": "indexing",
    "scatter_min": "indexing", "select": "indexing", "take": "indexing",
    "take_along_axis": "indexing", "tril_indices": "indexing", "tril_indices_from": "indexing",
    "triu_indices": "indexing", "triu_indices_from": "indexing", "unravel_index": "indexing",
    # sorting
    "argpartition": "sorting", "argsort": "sorting", "lexsort": "sorting",
    "partition": "sorting", "sort": "sorting", "sort_complex": "sorting",
    # searching
    "searchsorted": "searching",
    # sets
    "in1d": "sets", "intersect1d": "sets", "isin": "sets", "setdiff1d": "sets",
    "setxor1d": "sets", "union1d": "sets", "unique": "sets", "unique_all": "sets",
    "unique_counts": "sets", "unique_inverse": "sets", "unique_values": "sets",
    # statistics
    "average": "statistics", "bincount": "statistics", "convolve": "statistics",
    "corrcoef": "statistics", "correlate": "statistics", "cov": "statistics",
    "digitize": "statistics", "histogram": "statistics", "histogram2d": "statistics",
    "histogram_bin_edges": "statistics", "histogramdd": "statistics", "median": "statistics",
    "nanmedian": "statistics", "nanpercentile": "statistics", "nanquantile": "statistics",
    "percentile": "statistics", "quantile": "statistics",
    # math
    "around": "math", "diff": "math", "ediff1d": "math", "fix": "math", "gradient": "math",
    "i0": "math", "interp": "math", "nan_to_num": "math", "polyadd": "math", "polymul": "math",
    "polysub": "math", "polyval": "math", "real_if_close": "math", "roots": "math",
    "round": "math", "sinc": "math", "trace": "math", "trapezoid": "math", "trapz": "math",
    "unwrap": "math",
    # logic
    "allclose": "logic", "apply_along_axis": "logic", "apply_over_axes": "logic",
    "array_equal": "logic", "array_equiv": "logic", "asarray_chkfinite": "logic",
    "binary_repr": "logic", "can_cast": "logic", "common_type": "logic", "errstate": "logic",
    "geterr": "logic", "geterrcall": "logic", "isclose": "logic", "iscomplex": "logic",
    "iscomplexobj": "logic", "isneginf": "logic", "isposinf": "logic", "isreal": "logic",
    "isrealobj": "logic", "isscalar": "logic", "may_share_memory": "logic",
    "min_scalar_type": "logic", "packbits": "logic", "piecewise": "logic",
    "result_type": "logic", "seterr": "logic", "seterrcall": "logic", "shares_memory": "logic",
    "unpackbits": "logic",
}
