#!/bin/bash
# Runs the public Array API test suite (data-apis/array-api-tests) against cuarray's main
# namespace, skipping the tests listed in tools/array_api_skips.txt, on a host without
# internet access: everything the suite needs comes from one folder.
#
# Usage, from the repository root:
#   bash tools/array_api_tests.sh [VENDOR_DIR] [pytest args]
#
# VENDOR_DIR (default: .array-api-tests, which git ignores) holds
#   - a copy of data-apis/array-api-tests (the folder holding `array_api_tests/`) with its
#     `array-api` submodule checked out (`spec/` and `src/array_api_stubs/`), either inside
#     it or anywhere else under VENDOR_DIR;
#   - wheels (*.whl, anywhere under VENDOR_DIR) of the suite's dependencies: hypothesis,
#     ndindex, pytest-json-report and what they need (attrs, sortedcontainers,
#     pytest-metadata), installed with `pip install --no-index --target`.
# Environment:
#   ARRAY_API_TESTS_DIR   the suite's folder, when it is not under VENDOR_DIR
#   ARRAY_API_TESTS_DEPS  where the wheels are installed (default VENDOR_DIR/.deps; kept
#                         between runs, reinstalled when the set of wheels changes)
#   MAX_EXAMPLES          Hypothesis examples per test (default 200)
#   PYTHON                the interpreter (default python3)
# Output: the pytest log and a one-line summary (VENDOR_DIR/array_api_tests.log and
# VENDOR_DIR/array_api_summary.txt; also printed last), and a JSON report when
# pytest-json-report is installed. The exit status is pytest's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-python3}

vendor="$root/.array-api-tests"
if [ $# -gt 0 ] && [ -d "$1" ]; then
    vendor=$(cd "$1" && pwd)
    shift
elif [ $# -gt 0 ] && [[ $1 != -* && $1 != array_api_tests* ]]; then
    echo "array_api_tests.sh: $1 is not a folder (give the vendor folder first)" >&2
    exit 2
fi

die() { echo "array_api_tests.sh: $*" >&2; exit 2; }

# ---- the suite and its spec submodule ---------------------------------------------------
suite=${ARRAY_API_TESTS_DIR:-}
if [ -z "$suite" ]; then
    [ -d "$vendor" ] || die "no folder $vendor: place the suite and the wheels there"
    init=$(find -L "$vendor" -maxdepth 4 -path '*/array_api_tests/__init__.py' -not -path '*/.deps/*' \
           2>/dev/null | sort | head -n 1)
    [ -n "$init" ] || die "no copy of data-apis/array-api-tests (array_api_tests/__init__.py) under $vendor"
    suite=$(dirname "$(dirname "$init")")
fi
suite=$(cd "$suite" && pwd)
spec="$suite/array-api"
if [ ! -d "$spec/spec" ] || [ ! -d "$spec/src/array_api_stubs" ]; then
    stubs=$(find -L "$vendor" "$suite" -maxdepth 5 -type d -path '*/src/array_api_stubs' \
            2>/dev/null | sort | head -n 1)
    [ -n "$stubs" ] || die "no array-api spec (spec/ and src/array_api_stubs/) in $suite/array-api or under $vendor"
    spec=$(dirname "$(dirname "$stubs")")
    [ -d "$spec/spec" ] || die "$spec has src/array_api_stubs but no spec/"
    # Newer suites read the spec's place from ARRAY_API_REPO_PATH, older ones only look
    # in their own array-api folder: give them a link there.
    export ARRAY_API_REPO_PATH="$spec"
    if [ ! -e "$suite/array-api" ] || [ -z "$(ls -A "$suite/array-api" 2>/dev/null)" ]; then
        rmdir "$suite/array-api" 2>/dev/null || true
        ln -s "$spec" "$suite/array-api"
    fi
fi

# ---- the suite's dependencies, from the vendored wheels -----------------------------------
# Only the suite's own packages are taken from VENDOR_DIR (it may carry other wheels too).
need='^(hypothesis|ndindex|pytest_json_report|pytest_metadata|attrs|sortedcontainers|exceptiongroup)-'
deps=${ARRAY_API_TESTS_DEPS:-$vendor/.deps}
importable() { PYTHONPATH="$deps${PYTHONPATH:+:$PYTHONPATH}" "$py" -c "import hypothesis, ndindex, pytest_jsonreport" 2>/dev/null; }
mapfile -t wheels < <(find -L "$vendor" "$suite" -name '*.whl' -not -path '*/.deps/*' 2>/dev/null \
                      | awk -F/ -v re="$need" '$NF ~ re' | sort -u)
if [ ${#wheels[@]} -gt 0 ] && ! { [ -n "${ARRAY_API_TESTS_DEPS:-}" ] && importable; }; then
    stamp="$deps/.wheels"
    want=$(printf '%s\n' "${wheels[@]##*/}")
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || ! importable; then
        # A folder of our own is made afresh; one given in ARRAY_API_TESTS_DEPS is added to.
        [ -z "${ARRAY_API_TESTS_DEPS:-}" ] && rm -rf "$deps"
        mkdir -p "$deps"
        links=()
        while IFS= read -r d; do links+=(--find-links "$d"); done \
            < <(printf '%s\n' "${wheels[@]}" | xargs -n1 dirname | sort -u)
        # With their dependencies when the folder has them all; else each wheel alone.
        if ! "$py" -m pip install -q --no-index --upgrade --target "$deps" "${links[@]}" \
                hypothesis ndindex pytest-json-report 2>"$deps/.pip.log"; then
            echo "array_api_tests.sh: pip could not resolve every dependency from the wheels" \
                 "($(tail -n 1 "$deps/.pip.log")); installing each wheel without dependencies" >&2
            "$py" -m pip install -q --no-index --no-deps --upgrade --target "$deps" "${wheels[@]}"
        fi
        echo "$want" > "$stamp"
    fi
fi
importable || die "hypothesis, ndindex and pytest-json-report do not import: put their wheels under $vendor (or set ARRAY_API_TESTS_DEPS)"
export PYTHONPATH="$root/src:$deps${PYTHONPATH:+:$PYTHONPATH}"
"$py" -c "import cuarray" || die "cuarray does not import from $root/src"
report=()
if "$py" -c "import pytest_jsonreport" 2>/dev/null; then
    report=(--json-report --json-report-file="$vendor/array_api_report.json")
fi

# ---- the run -----------------------------------------------------------------------------
# Lines of the skips file are "test-id  # reason"; the suite matches whole lines, so it
# gets the ids alone.
skips=$(mktemp)
trap 'rm -f "$skips"' EXIT
sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d' "$root/tools/array_api_skips.txt" > "$skips"
nskips=$(wc -l < "$skips")
export ARRAY_API_TESTS_MODULE=${ARRAY_API_TESTS_MODULE:-cuarray}
examples=${MAX_EXAMPLES:-200}
log="$vendor/array_api_tests.log"
summary="$vendor/array_api_summary.txt"
mkdir -p "$vendor"
cd "$suite"
# The whole suite unless the arguments name some of its files.
target=array_api_tests/
for a in "$@"; do [[ $a == array_api_tests* ]] && target=; done
# No Hypothesis deadline: the first call with a new dtype or shape class compiles a kernel
# (NVRTC, tens of ms to a second), which says nothing about the function's speed.
set +e
"$py" -m pytest -q -p no:cacheprovider --max-examples "$examples" --disable-deadline \
    --skips-file "$skips" -rfE "${report[@]}" $target "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# pytest's own last line ("N failed, M passed, K skipped in T s"), or what ended the run.
result=$( { grep -E '^(=+ )?[0-9]+ (passed|failed|errors?|skipped|deselected)|no tests ran' "$log" || true; } \
         | tail -n 1 | sed -e 's/^=* *//' -e 's/ *=*$//')
[ -n "$result" ] || result="no pytest summary (exit status $status; see $log)"
line="array-api-tests (ARRAY_API_TESTS_MODULE=$ARRAY_API_TESTS_MODULE, --max-examples $examples, $nskips skips listed): $result [exit $status]"
echo "$line" > "$summary"
echo "$line"
exit "$status"
