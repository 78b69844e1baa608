#!/bin/bash
# Every benchmark group on the device host, one process per group (a failing library call
# cannot poison the rows after it). Prints the table rows; the JSON records go into one
# tarball under $OUT (the device tool returns a limited number of files).
# Usage: bash .device/gpu-run.sh bash tools/gpu/bench.sh
dir=${TMPDIR:-/tmp}/cuarray-bench && rm -rf "$dir" && mkdir -p "$dir"
run() { timeout "$2" python3 -m benchmarks $1 --json "$dir/$3.json" 2>&1 | grep -E "^\||copy ceiling|^[0-9]{4}-" | grep -v "^| ---\|^| benchmark"; }
run "foundation compute" 200 fc
run "indexing manipulation" 150 im
run "sorting" 150 so
run "fft random" 150 fr
for k in matmul einsum solve svd eigh qr cholesky; do run "linalg -k $k" 80 "linalg-$k"; done
[ -n "$OUT" ] && tar czf "$OUT/bench.tgz" -C "$(dirname "$dir")" "$(basename "$dir")"
