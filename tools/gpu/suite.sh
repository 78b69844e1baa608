#!/bin/bash
# The whole GPU suite on the device host, one pytest process per test file: a sticky CUDA
# error (illegal address) in one file cannot spread to the others. Prints the totals, every
# file that failed or timed out, and the failing tests; the logs go to logs.tgz in
# RESULTS_DIR when that is set.
# Usage (from the tree's root, on a GPU host): RESULTS_DIR=... bash tools/gpu/suite.sh
# PAR: files in parallel (default 8); TMO: seconds per file (default 400: the largest file,
# tests/_core/test_reductions.py, takes ~170 s alone on an H100 and longer when sharing).
# SHARD=i/n: only every n-th file starting at the i-th (1-based), so that a run with an
# empty kernel cache can be split over several commands of bounded length.
export CUARRAY_TEST_GPU=require
logs=${TMPDIR:-/tmp}/cuarray-gpu-logs
rm -rf "$logs" && mkdir -p "$logs"
run() {
    f=$1; n=$(echo "$f" | tr '/' '_')
    timeout "${TMO:-400}" python3 -m pytest -q -p no:cacheprovider --tb=line -m gpu "$f" > "$logs/$n.log" 2>&1
    rc=$?
    echo "$rc $f :: $(tail -1 "$logs/$n.log")"
}
export -f run
export logs
find tests -name "test_*.py" | sort | awk -v s="${SHARD:-1/1}" \
    'BEGIN { split(s, p, "/") } (NR - 1) % p[2] == p[1] - 1' |
    xargs -P "${PAR:-8}" -I{} bash -c 'run {}' > "$logs/summary.txt"
cat "$logs"/*.log | grep -E "(passed|failed|skipped|error).* in [0-9.]+s" | python3 -c "
import re, sys
tot = {}
for line in sys.stdin:
    for n, k in re.findall(r'(\d+) (passed|failed|skipped|errors?|xfailed|xpassed|deselected)', line):
        tot[k] = tot.get(k, 0) + int(n)
print('TOTAL', tot)"
echo "files that failed (rc 1), errored, or timed out (rc 124):"
grep -vE "^(0|5) " "$logs/summary.txt"
grep -h "^FAILED\|^ERROR" "$logs"/*.log | cut -c1-200 | head -60
[ -n "$RESULTS_DIR" ] && tar czf "$RESULTS_DIR/logs.tgz" -C "$(dirname "$logs")" "$(basename "$logs")"
