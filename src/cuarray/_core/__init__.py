"""ndarray, dtypes, shape logic and the kernel engines."""
