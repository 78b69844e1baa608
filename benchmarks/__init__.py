"""cuarray's benchmarks against CuPy: `python -m benchmarks [NAME...] [--json PATH] [--quick]`."""
