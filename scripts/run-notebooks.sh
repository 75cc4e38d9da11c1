#!/bin/sh
# Executes every notebook headless with Debian's Jupyter (nbconvert); figures
# land in notebooks/figures/, and each executed notebook is also written as
# HTML to BUILD_DIR/notebooks/ (a report to open without Jupyter), which must
# show its figures: at least as many inline PNGs as the PNG files the notebook
# wrote, and a markdown paragraph right before every cell that draws. The
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
started="$B/notebooks/.started"
for nb in notebooks/*.ipynb; do
    touch "$started"
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
    name=$(basename "$nb" .ipynb)
    written=$(find notebooks/figures -name '*.png' -newer "$started" | wc -l)
    inline=$(grep -o '<img src="data:image/png;base64' "$B/notebooks/$name.html" | wc -l)
    if [ "$written" -lt 1 ] || [ "$inline" -lt "$written" ]; then
        echo "$nb: $written figures written, $inline shown in $B/notebooks/$name.html" >&2
        exit 1
    fi
    # every cell that draws has a paragraph before it saying what it shows
    /usr/bin/python3 -c '
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
for i, c in enumerate(cells):
    draws = any("image/png" in o.get("data", {}) for o in c.get("outputs", []))
    if draws and (i == 0 or cells[i - 1]["cell_type"] != "markdown"):
        sys.exit(f"{sys.argv[1]}: cell {i} draws a figure with no markdown paragraph before it")
' "$B/notebooks/$name.ipynb" || exit 1
    echo "executed $nb -> $B/notebooks/$name.{ipynb,html}: $written figures, $inline shown"
done
ls notebooks/figures/*.png
