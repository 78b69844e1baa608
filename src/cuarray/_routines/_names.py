"""Which module of cuarray._routines defines each public routine: `cuarray` imports a
routine module on first use of one of its names (import time is part of every
program's start). tests/_routines/test_names.py keeps this table equal to the
modules' __all__."""

NAMES = {
    # creation_more
    "diag": "creation_more", "diagflat": "creation_more", "eye": "creation_more",
    "frombuffer": "creation_more", "fromfunction": "creation_more", "fromiter": "creation_more",
    "fromstring": "creation_more", "geomspace": "creation_more", "identity": "creation_more",
    "linspace": "creation_more", "logspace": "creation_more", "meshgrid": "creation_more",
    "mgrid": "creation_more", "ogrid": "creation_more", "tri": "creation_more",
    "tril": "creation_more", "triu": "creation_more", "vander": "creation_more",
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
    "i0": "math", "interp": "math", "nan_to_num": "math", "real_if_close": "math",
    "round": "math", "sinc": "math", "trace": "math", "trapezoid": "math", "trapz": "math",
    "unwrap": "math",
    # logic
    "allclose": "logic", "array_equal": "logic", "array_equiv": "logic",
    "asarray_chkfinite": "logic", "isclose": "logic", "iscomplex": "logic", "iscomplexobj": "logic",
    "isfortran": "logic", "isneginf": "logic", "isposinf": "logic", "isreal": "logic",
    "isrealobj": "logic", "isscalar": "logic",
    # functional
    "apply_along_axis": "functional", "apply_over_axes": "functional", "piecewise": "functional",
    "vectorize": "functional",
    # bits
    "packbits": "bits", "unpackbits": "bits",
    # floating_errors
    "errstate": "floating_errors", "geterr": "floating_errors", "geterrcall": "floating_errors",
    "seterr": "floating_errors", "seterrcall": "floating_errors",
    # dtype_routines
    "finfo": "dtype_routines", "iinfo": "dtype_routines",
    "can_cast": "dtype_routines", "common_type": "dtype_routines", "isdtype": "dtype_routines",
    "issctype": "dtype_routines", "issubclass_": "dtype_routines", "issubsctype": "dtype_routines",
    "min_scalar_type": "dtype_routines", "mintypecode": "dtype_routines",
    "obj2sctype": "dtype_routines", "result_type": "dtype_routines",
    "sctype2char": "dtype_routines", "typename": "dtype_routines",
    # io
    "array2string": "io", "array_repr": "io", "array_str": "io", "base_repr": "io",
    "binary_repr": "io", "format_float_positional": "io", "format_float_scientific": "io",
    "fromfile": "io", "genfromtxt": "io", "get_printoptions": "io", "load": "io", "loadtxt": "io",
    "printoptions": "io", "save": "io", "savetxt": "io", "savez": "io", "savez_compressed": "io",
    "set_printoptions": "io",
    # window
    "bartlett": "window", "blackman": "window", "hamming": "window", "hanning": "window",
    "kaiser": "window",
    # misc
    "byte_bounds": "misc", "clear_memo": "misc", "may_share_memory": "misc", "memoize": "misc",
    "shares_memory": "misc", "show_config": "misc", "iterable": "misc", "who": "misc",
    # basic_operations
    "ndim": "basic_operations", "shape": "basic_operations", "size": "basic_operations",
    # index_tricks
    "c_": "index_tricks", "index_exp": "index_tricks", "ndindex": "index_tricks",
    "r_": "index_tricks", "s_": "index_tricks",
    # numpy1
    "DataSource": "numpy1", "alltrue": "numpy1", "asfarray": "numpy1", "cumproduct": "numpy1",
    "disp": "numpy1", "find_common_type": "numpy1", "format_parser": "numpy1",
    "get_array_wrap": "numpy1", "msort": "numpy1", "product": "numpy1", "round_": "numpy1",
    "safe_eval": "numpy1", "set_string_function": "numpy1", "sometrue": "numpy1",
    # array_api
    "__array_namespace_info__": "array_api", "astype": "array_api",
    "cumulative_prod": "array_api", "cumulative_sum": "array_api",
    "unstack": "array_api",
    # pinned (cupyx's pinned-memory helpers)
    "empty_pinned": "pinned", "empty_like_pinned": "pinned", "zeros_pinned": "pinned",
    "zeros_like_pinned": "pinned",
}
