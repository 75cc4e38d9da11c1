#!/bin/sh
# Executes every notebook headless with Debian's Jupyter (nbconvert) after
# producing the CSV files they read; figures land in notebooks/figures/.
# Usage: scripts/run-notebooks.sh [BUILD_DIR]
set -eu
B=${1:-build}
root=$(pwd)
"$B/trapeze" ghostzone --csv "$B/ghostzone.csv" >/dev/null 2>&1
export TRAPEZE_GZ_CSV="$root/$B/ghostzone.csv"
export TRAPEZE_FIG_DIR="$root/notebooks/figures"
mkdir -p "$B/notebooks"
for nb in notebooks/*.ipynb; do
    # Debian's Jupyter runs on Debian's python3, whatever python3 is on PATH
    /usr/bin/python3 -m nbconvert --to notebook --execute "$nb" \
        --output-dir "$B/notebooks" --ExecutePreprocessor.timeout=600 >/dev/null 2>"$B/notebooks/nbconvert.log" || {
        cat "$B/notebooks/nbconvert.log" >&2
        exit 1
    }
    echo "executed $nb -> $B/notebooks/$(basename "$nb")"
done
ls notebooks/figures/*.png
