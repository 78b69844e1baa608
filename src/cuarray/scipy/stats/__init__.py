"""cuarray.scipy.stats: SciPy's statistics on the GPU (cuarray version of `scipy.stats` /
`cupyx.scipy.stats`): CuPy's functions (entropy, zscore, zmap, trim_mean, boxcox_llf) and
the descriptive statistics, ranks and correlations users reach for most."""
from cuarray.scipy.stats._ranks import (  # noqa: F401
    linregress, mode, pearsonr, rankdata, spearmanr)
from cuarray.scipy.stats._stats import (  # noqa: F401
    boxcox_llf, describe, entropy, gmean, hmean, iqr, kurtosis, moment, sem, skew, trim_mean,
    zmap, zscore)

__all__ = ["boxcox_llf", "describe", "entropy", "gmean", "hmean", "iqr", "kurtosis",
           "linregress", "mode", "moment", "pearsonr", "rankdata", "sem", "skew",
           "spearmanr", "trim_mean", "zmap", "zscore"]
