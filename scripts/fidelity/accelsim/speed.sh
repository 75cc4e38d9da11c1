#!/bin/bash
# speed.sh GPU KERNELSLIST: for scripts/compare-accelsim.sh --accelsim "speed.sh {gpu} {trace}".
# For gtx480, first (re)makes the trace's copy with "-binary version = 60" in
# $V60/<tracename>/ if it is missing or older than the trace, then execs run.sh
# (same process, so the caller's child CPU time is Accel-Sim's plus this
# preparation, which is a no-op once the copy exists). Accel-Sim's stdout is
# passed through (compare.py discards it; it does not parse it).
# speed.sh --prepare GPU KERNELSLIST only makes the copy (to keep it out of the
# first timed run).
set -e
prepare_only=
[ "$1" = --prepare ] && { prepare_only=1; shift; }
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
RUN=${ACCELSIM_DIR:-$ROOT/build/accelsim}/run
V60=$RUN/v60
gpu=$1
tr=$(realpath "$2")
src=$(dirname "$tr")
if [ "$gpu" = gtx480 ]; then
    dst=$V60/$(basename "$src")
    stamp=$dst/.v60-source
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$src" ] ||
       [ -n "$(find "$src" -newer "$stamp" -print -quit)" ]; then
        rm -rf "$dst"; mkdir -p "$dst"
        for f in "$src"/*; do
            b=$(basename "$f")
            case $b in
            *.traceg|*.trace) sed '0,/^-binary version = .*/s//-binary version = 60/' "$f" > "$dst/$b" ;;
            *.xz) xz -dc "$f" | sed '0,/^-binary version = .*/s//-binary version = 60/' | xz -c > "$dst/$b" ;;
            *) cp -p "$f" "$dst/$b" ;;
            esac
        done
        echo "$src" > "$stamp"
    fi
fi
[ -n "$prepare_only" ] && exit 0
exec "$(dirname "$0")/run.sh" "$gpu" "$tr"
