#!/bin/sh
# Executes every notebook headless with Debian's Jupyter (nbconvert); figures
# land in notebooks/figures/, and each executed notebook is also written as
# HTML to BUILD_DIR/notebooks/ (a report to open without Jupyter). The
# notebooks use the Python package (python/trapeze) over BUILD_DIR's library;
# a sanitizer build's library cannot be loaded into Python, so with one the
# notebooks are skipped (the plain build runs them).
# Usage: scripts/run-notebooks.sh [BUILD_DIR]
set -eu
B=${1:-build}
root=$(pwd)
if ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan; then
    echo "skipped: $B is a sanitizer build"
    exit 0
fi
export TRAPEZE_LIB="$root/$B/libtrapeze.so"
export TRAPEZE_PROGRAM="$root/$B/trapeze"
export TRAPEZE_FIG_DIR="$root/notebooks/figures"
mkdir -p "$B/notebooks"
for nb in notebooks/*.ipynb; do
    # Debian's Jupyter runs on Debian's python3, whatever python3 is on PATH
    /usr/bin/python3 -m nbconvert --to notebook --execute "$nb" \
        --output-dir "$B/notebooks" --ExecutePreprocessor.timeout=600 >/dev/null 2>"$B/notebooks/nbconvert.log" || {
        cat "$B/notebooks/nbconvert.log" >&2
        exit 1
    }
    /usr/bin/python3 -m nbconvert --to html "$B/notebooks/$(basename "$nb")" \
        --output-dir "$B/notebooks" >/dev/null 2>>"$B/notebooks/nbconvert.log" || {
        cat "$B/notebooks/nbconvert.log" >&2
        exit 1
    }
    echo "executed $nb -> $B/notebooks/$(basename "$nb" .ipynb).{ipynb,html}"
done
ls notebooks/figures/*.png
