#!/bin/bash
# Every benchmark group on the device host, one process per group (a failing library call
# cannot poison the rows after it). Prints the table rows; the JSON records go into one
# tarball, bench.tgz, in RESULTS_DIR when that is set.
# Usage (from the tree's root, on a GPU host with CuPy): RESULTS_DIR=... bash tools/gpu/bench.sh
dir=${TMPDIR:-/tmp}/cuarray-bench && rm -rf "$dir" && mkdir -p "$dir"
run() { timeout "$2" python3 -m benchmarks $1 --json "$dir/$3.json" 2>&1 | grep -E "^\||copy ceiling|^[0-9]{4}-" | grep -v "^| ---\|^| benchmark"; }
run "foundation compute" 200 fc
run "indexing manipulation" 150 im
run "sorting" 150 so
run "fft random" 150 fr
for k in matmul einsum solve svd eigh qr cholesky; do run "linalg -k $k" 80 "linalg-$k"; done
[ -n "$RESULTS_DIR" ] && tar czf "$RESULTS_DIR/bench.tgz" -C "$(dirname "$dir")" "$(basename "$dir")"
