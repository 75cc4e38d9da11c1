#!/bin/sh
# The Python package installs itself: in a fresh venv over Debian's python3
# (its pandas, numpy, setuptools and wheel: no network), `pip install ./python`
# and the wheel `make python-wheel` builds each bring libtrapeze.so and data/
# inside the package, so the README's Python example runs from another folder
# with no variable set, on the bundled library and data (TRAPEZE_LIB and
# TRAPEZE_DATA still override them); the build leaves
# nothing in python/; `pip uninstall` leaves nothing in the venv. Then
# `make install-python` into a scratch DESTDIR gives an importable package
# with its dist-info, and `make uninstall` removes both.
# Usage: sh tests/cli_python_install.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
B=$(cd "$(dirname "$T")" && pwd)
root=$(pwd)
PY=/usr/bin/python3
if ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan; then
    echo "SKIP: a sanitizer build's library cannot be loaded into Python"
    exit 0
fi
if ! $PY -c 'import ensurepip, venv, pandas, numpy, setuptools, wheel' 2>/dev/null; then
    echo "SKIP: Debian's python3-venv, -pandas, -setuptools or -wheel missing (scripts/install-deps.sh python)"
    exit 0
fi
awk '/^```python$/ {on = 1; next} /^```/ {on = 0} on {print}' README.md >"$D/example.py"
grep -q 'trapeze.ghostzone(' "$D/example.py" || fail "no Python example in README.md"
cat >>"$D/example.py" <<'PY'
import os, sys
here = os.path.dirname(trapeze.__file__)
assert trapeze.library_path() == os.path.join(here, "lib", "libtrapeze.so"), trapeze.library_path()
assert trapeze.data_dir() == os.path.join(here, "data"), trapeze.data_dir()
print("ok", sys.prefix)
PY
ls_tree() { find python -name __pycache__ -prune -o -print | sort; }
ls_tree >"$D/tree.before"
mkdir -p "$D/elsewhere"

# run_example VENV: the README's example from another folder, no variable set
run_example() {
    (cd "$D/elsewhere" && env -i PATH=/usr/bin:/bin HOME="$D" "$1/bin/python" "$D/example.py") \
        >"$D/py.out" 2>&1 || fail "README example in $1: $(tail -3 "$D/py.out")"
    grep -q "^ok $1\$" "$D/py.out" || fail "README example in $1: $(tail -2 "$D/py.out")"
}
# uninstall VENV: pip removes the package, and nothing of it is left
uninstall() {
    "$1/bin/pip" uninstall -y -q trapeze >"$D/pip.out" 2>&1 || fail "pip uninstall: $(tail -3 "$D/pip.out")"
    left=$(find "$1" -path '*trapeze*' | head -3)
    [ -z "$left" ] || fail "left after pip uninstall: $left"
}

$PY -m venv --system-site-packages "$D/venv" || fail "venv"
V="$D/venv"
# the dependencies are honoured (Debian's pandas and numpy satisfy them: no --no-deps)
TRAPEZE_BUILD_DIR="$B" "$V/bin/pip" install -q --no-build-isolation --no-cache-dir ./python \
    >"$D/pip.out" 2>&1 || fail "pip install ./python: $(tail -5 "$D/pip.out")"
"$V/bin/pip" show trapeze 2>/dev/null | grep -q '^Requires: numpy, pandas' \
    || fail "pandas and numpy not declared: $("$V/bin/pip" show trapeze 2>&1 | grep Requires)"
run_example "$V"
# the variables still override what the package bundles
(cd "$D/elsewhere" && env -i PATH=/usr/bin:/bin TRAPEZE_LIB="$B/libtrapeze.so" \
    TRAPEZE_DATA="$root/data" "$V/bin/python" -c \
    'import os, trapeze; print(trapeze.library_path(), trapeze.data_dir())') >"$D/py.out" 2>&1
[ "$(cat "$D/py.out")" = "$B/libtrapeze.so $root/data" ] || fail "TRAPEZE_LIB, TRAPEZE_DATA: $(cat "$D/py.out")"
uninstall "$V"

# the wheel make builds, from this build's library
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" -o "$B/libtrapeze.so" python-wheel >"$D/make.out" 2>&1 \
    || fail "make python-wheel: $(tail -3 "$D/make.out")"
whl=$(ls "$B"/python/dist/trapeze-*-py3-none-*.whl 2>/dev/null)
[ -n "$whl" ] || fail "no wheel in $B/python/dist"
# the same sources give the same bytes (dated by the last commit, not by mtimes)
if [ -n "$whl" ]; then
    cp "$whl" "$D/first.whl"
    touch python/trapeze/_lib.py   # a new mtime, the same content
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" -o "$B/libtrapeze.so" \
        python-wheel >"$D/make.out" 2>&1 || fail "make python-wheel again: $(tail -3 "$D/make.out")"
    cmp -s "$D/first.whl" "$whl" || fail "make python-wheel twice: different wheels"
fi
if [ -n "$whl" ]; then
    "$V/bin/pip" install -q --no-cache-dir "$whl" >"$D/pip.out" 2>&1 \
        || fail "pip install $whl: $(tail -3 "$D/pip.out")"
    run_example "$V"
    uninstall "$V"
fi
ls_tree >"$D/tree.after"
cmp -s "$D/tree.before" "$D/tree.after" || fail "the build left in python/: $(diff "$D/tree.before" "$D/tree.after" | grep '^>' | head -3)"

# make install-python into a scratch root, then make uninstall
R="$D/root"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" -o "$B/libtrapeze.so" -o python-wheel DESTDIR="$R" PREFIX=/usr \
    PYDIR=/site install-python >"$D/make.out" 2>&1 || fail "make install-python: $(tail -3 "$D/make.out")"
[ -f "$R/site/trapeze-0.1.0.dist-info/RECORD" ] || fail "install-python wrote no dist-info"
(cd "$D/elsewhere" && env -i PATH=/usr/bin:/bin PYTHONPATH="$R/site" $PY -c \
    'import trapeze; assert trapeze.ghostzone("pathfinder").set_index("sync").loc["relaunch", "h"] == 12') \
    >"$D/py.out" 2>&1 || fail "installed package: $(tail -3 "$D/py.out")"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" DESTDIR="$R" PREFIX=/usr PYDIR=/site uninstall >/dev/null 2>&1
left=$(find "$R" -path '*trapeze*' | head -3)
[ -z "$left" ] || fail "left after make uninstall: $left"
finish cli_python_install
