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
    "atleast_1d": "manipulation",
    "atleast_2d": "manipulation", "atleast_3d": "manipulation", "broadcast": "manipulation",
    "broadcast_arrays": "manipulation", "broadcast_shapes": "manipulation",
    "broadcast_to": "manipulation", "expand_dims": "manipulation", "moveaxis": "manipulation",
    "permute_dims": "manipulation", "ravel": "manipulation", "require": "manipulation",
    "reshape": "manipulation", "rollaxis": "manipulation", "squeeze": "manipulation",
    "swapaxes": "manipulation", "transpose": "manipulation",
    # joining
    "array_split": "joining", "column_stack": "joining", "concat": "joining",
    "concatenate": "joining", "dsplit": "joining", "dstack": "joining", "hsplit": "joining",
    "hstack": "joining", "row_stack": "joining", "split": "joining", "stack": "joining",
    "vsplit": "joining", "vstack": "joining",
    # rearranging
    "flip": "rearranging", "fliplr": "rearranging", "flipud": "rearranging",
    "repeat": "rearranging", "roll": "rearranging", "rot90": "rearranging",
    "tile": "rearranging",
    # adding_removing
    "append": "adding_removing", "delete": "adding_removing", "insert": "adding_removing",
    "resize": "adding_removing", "trim_zeros": "adding_removing",
    # padding
    "pad": "padding",
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
    "average": "statistics", "bincount": "histograms", "convolve": "statistics",
    "corrcoef": "statistics", "correlate": "statistics", "cov": "statistics",
    "digitize": "histograms", "histogram": "histograms", "histogram2d": "histograms",
    "histogram_bin_edges": "histograms", "histogramdd": "histograms", "median": "statistics",
    "nanmedian": "statistics", "nanpercentile": "statistics", "nanquantile": "statistics",
    "percentile": "statistics", "quantile": "statistics",
    # math
    "around": "math", "diff": "math", "ediff1d": "math", "fix": "math", "gradient": "math",
    "i0": "math", "interp": "math", "nan_to_num": "math", "polyadd": "math", "polymul": "math",
    "polysub": "math", "polyval": "math", "real_if_close": "math",
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
