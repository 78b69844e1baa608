"""The benchmark harness, re-exported: bench_*.py files import from here.

The timers, the row registry and the report live in `cuarray._bench` so that the
user-facing `python -m cuarray bench` and `python -m benchmarks` share one copy.
"""
from cuarray._bench.harness import *  # noqa: F401,F403
from cuarray._bench.harness import GROUPS  # noqa: F401  (the one registry, by identity)
