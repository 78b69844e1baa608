#!/bin/bash
# Benchmark groups on a GPU host, one process per group (a failing library call cannot
# poison the rows after it). Prints the table rows; the JSON records go into one tarball,
# bench.tgz, in RESULTS_DIR when that is set.
# Usage (from the tree's root, on a GPU host with CuPy):
#   RESULTS_DIR=... bash tools/gpu/bench.sh [GROUP ...]     (default: every group)
# TMO: seconds per group (default 200).
dir=${TMPDIR:-/tmp}/cuarray-bench && rm -rf "$dir" && mkdir -p "$dir"
run() { timeout "${TMO:-200}" python3 -m benchmarks $1 --json "$dir/$2.json" 2>&1 | grep -E "^\||copy ceiling|^[0-9]{4}-" | grep -v "^| ---\|^| benchmark"; }
if [ $# -gt 0 ]; then
    for g in "$@"; do run "$g" "$g"; done
else
    run "foundation compute" fc
    run "indexing manipulation" im
    run "sorting" so
    run "fft random" fr
    for k in matmul einsum solve svd eigh qr cholesky; do run "linalg -k $k" "linalg-$k"; done
    for g in kernels cuda sparse ndimage signal scipy16 interpolate spatial fidelity multigpu; do run "$g" "$g"; done
fi
[ -n "$RESULTS_DIR" ] && tar czf "$RESULTS_DIR/bench.tgz" -C "$(dirname "$dir")" "$(basename "$dir")"
