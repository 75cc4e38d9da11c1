#!/bin/sh
# Runs every test: unit test binaries in BUILD/tests, the command-line tests
# in tests/*.sh (given the program's path), and the notebooks when Jupyter
# is installed. Prints one line per test; exits non-zero if any fails.
set -u
B=${1:-build}
fail=0
count=0
for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    count=$((count + 1))
    if out=$("$t" 2>&1); then
        echo "PASS $t"
    else
        echo "FAIL $t"; echo "$out" | tail -n 30; fail=$((fail + 1))
    fi
done
for t in tests/cli_*.sh; do
    [ -f "$t" ] || continue
    count=$((count + 1))
    if out=$(sh "$t" "$B/trapeze" 2>&1); then
        echo "PASS $t"
    else
        echo "FAIL $t"; echo "$out" | tail -n 30; fail=$((fail + 1))
    fi
done
# The Python package (python/trapeze) over this build's library and program.
# A sanitizer build's library cannot be loaded into Python (ASan must come
# first in the process), so it is tested with the plain build only.
if ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan; then
    echo "SKIP python (sanitizer build: the package is tested with the plain build)"
elif /usr/bin/python3 -c 'import pytest, pandas' 2>/dev/null; then
    count=$((count + 1))
    if out=$(PYTHONPATH=python TRAPEZE_LIB="$B/libtrapeze.so" TRAPEZE_PROGRAM="$B/trapeze" \
             /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests 2>&1); then
        echo "PASS python ($(echo "$out" | tail -n 1))"
    else
        echo "FAIL python"; echo "$out" | tail -n 30; fail=$((fail + 1))
    fi
else
    echo "SKIP python (pytest or pandas missing: scripts/install-deps.sh notebooks)"
fi
if command -v jupyter-nbconvert >/dev/null 2>&1 || [ -x /usr/bin/jupyter-nbconvert ]; then
    count=$((count + 1))
    if out=$(scripts/run-notebooks.sh "$B" 2>&1); then
        echo "PASS notebooks"
    else
        echo "FAIL notebooks"; echo "$out" | tail -n 30; fail=$((fail + 1))
    fi
else
    echo "SKIP notebooks (jupyter-nbconvert not installed: scripts/install-deps.sh notebooks)"
fi
echo "$((count - fail))/$count test groups passed"
[ "$fail" -eq 0 ]
