#!/bin/bash
# speed.sh GPU KERNELSLIST: for scripts/compare-accelsim.sh --accelsim "speed.sh {gpu} {trace}".
# Where the GPU's runs take another binary version than the trace's 70 (gtx480: 60,
# the Pascal opcode map; rtx3070: 86, h100 and a100: 80, the Ampere map), first (re)makes the
# trace's copy with "-binary version = V" in $RUN/vV/<tracename>/ if it is missing or
# older than the trace, then execs run.sh (same process, so the caller's child CPU time
# is Accel-Sim's plus this preparation, which is a no-op once the copy exists).
# Accel-Sim's stdout is passed through (compare.py discards it; it does not parse it).
# speed.sh --prepare GPU KERNELSLIST only makes the copy (to keep it out of the
# first timed run); speed.sh --version GPU prints V (nothing for qv100).
set -e
case $1 in
--version)
    case $2 in gtx480) echo 60 ;; rtx3070) echo 86 ;; h100|a100) echo 80 ;; esac
    exit 0 ;;
esac
prepare_only=
[ "$1" = --prepare ] && { prepare_only=1; shift; }
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
RUN=${ACCELSIM_DIR:-$ROOT/build/accelsim}/run
gpu=$1
tr=$(realpath "$2")
src=$(dirname "$tr")
ver=$("$0" --version "$gpu")
if [ -n "$ver" ]; then
    dst=$RUN/v$ver/$(basename "$src")
    stamp=$dst/.v$ver-source
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$src" ] ||
       [ -n "$(find "$src" -newer "$stamp" -print -quit)" ]; then
        rm -rf "$dst"; mkdir -p "$dst"
        v="0,/^-binary version = .*/s//-binary version = $ver/"
        for f in "$src"/*; do
            b=$(basename "$f")
            case $b in
            *.traceg|*.trace) sed "$v" "$f" > "$dst/$b" ;;
            *.xz) xz -dc "$f" | sed "$v" | xz -c > "$dst/$b" ;;
            *) cp -p "$f" "$dst/$b" ;;
            esac
        done
        echo "$src" > "$stamp"
    fi
fi
[ -n "$prepare_only" ] && exit 0
exec "$(dirname "$0")/run.sh" "$gpu" "$tr"
