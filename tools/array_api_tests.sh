#!/bin/bash
# Runs the public Array API test suite (data-apis/array-api-tests) against cuarray's main
# namespace, skipping the tests listed in tools/array_api_skips.txt.
#
# ARRAY_API_TESTS_DIR: a checkout of data-apis/array-api-tests with its `array-api`
#   submodule (git clone --recursive). Nothing of the suite lives in this repository.
# ARRAY_API_TESTS_DEPS (optional): a folder with the suite's own dependencies (hypothesis,
#   ndindex, pytest-json-report; `pip install --target DIR -r requirements.txt`), for hosts
#   that cannot install packages; it goes on PYTHONPATH.
# MAX_EXAMPLES: Hypothesis examples per test (default 200).
# Usage, from the repository root on a GPU host:
#   ARRAY_API_TESTS_DIR=/path/to/array-api-tests bash tools/array_api_tests.sh [pytest args]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=${ARRAY_API_TESTS_DIR:?set ARRAY_API_TESTS_DIR to a checkout of data-apis/array-api-tests}
if [ ! -d "$suite/array-api/spec" ]; then
    echo "$suite has no array-api submodule: run git submodule update --init there" >&2
    exit 2
fi
# Lines of the skips file are "test-id  # reason"; the suite matches whole lines, so it
# gets the ids alone.
skips=$(mktemp)
trap 'rm -f "$skips"' EXIT
sed -e 's/[[:space:]]*#.*$//' -e '/^[[:space:]]*$/d' "$root/tools/array_api_skips.txt" > "$skips"
export ARRAY_API_TESTS_MODULE=cuarray
export PYTHONPATH="$root/src${ARRAY_API_TESTS_DEPS:+:$ARRAY_API_TESTS_DEPS}${PYTHONPATH:+:$PYTHONPATH}"
cd "$suite"
# The whole suite unless the arguments name some of its files.
target=array_api_tests/
for a in "$@"; do [[ $a == array_api_tests* ]] && target=; done
# No Hypothesis deadline: the first call with a new dtype or shape class compiles a kernel
# (NVRTC, tens of ms to a second), which says nothing about the function's speed.
python3 -m pytest -q -p no:cacheprovider --max-examples "${MAX_EXAMPLES:-200}" \
    --disable-deadline --skips-file "$skips" -rfE $target "$@"
