"""The loop lists the special-function tables share: each ufunc's type signatures in SciPy's
order (the first that takes the inputs safely is used)."""
_F, _D = ["f->f", "d->d"], ["d->d", "f->f"]
_FF, _DD = ["ff->f", "dd->d"], ["dd->d", "ff->f"]
_FFF = ["fff->f", "ddd->d"]
_LFD = ["ld->d", "ff->f", "dd->d"]
