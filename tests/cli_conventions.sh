#!/bin/sh
# The command line's conventions, the same in every command: "--name=value"
# is "--name value"; exit status 2 for a bad command line, 1 for a failure
# at run time (a file missing or malformed), each with one message; and an
# Accel-Sim trace is named as Accel-Sim users name it: the folder holding
# kernelslist.g, wherever a trace is taken; the NVBit tracer's unprocessed
# output gets the step that makes a trace of it.
# Usage: sh tests/cli_conventions.sh build/trapeze
MAX_ERR_LINES=2   # a usage error adds a "(try --help)" line
. "$(dirname "$0")/lib/cli.sh"

# status WANT NAME CMD...: exit status WANT, and at most MAX_ERR_LINES on stderr
status() {
    st_want=$1 st_name=$2
    shift 2
    "$@" >"$D/stdout" 2>"$D/stderr"
    st_got=$?
    [ "$st_got" = "$st_want" ] || fail "$st_name: exit status $st_got, expected $st_want: $(head -c 300 "$D/stderr")"
    [ "$(wc -l <"$D/stderr")" -le "$MAX_ERR_LINES" ] || fail "$st_name: more than one message: $(cat "$D/stderr")"
}
says() { grep -qF -- "$1" "$D/stderr" || fail "$2: stderr lacks '$1': $(cat "$D/stderr")"; }

printf -- '-gpgpu_n_clusters fast\n' >"$D/bad.config"
imp="ncu tests/data/ncu/details-metrics.csv --workload hotspot --sync relaunch --h 1 --samples $D/s.csv"

# --- a bad command line: 2, for every command, in both spellings
for cmd in "ghostzone hotspot" "sim vecadd" "trace export --out $D/t vecadd" "calibrate hotspot" \
           "validate hotspot" "locality vecadd" "group vecadd" "import $imp" "sleep vecadd"; do
    name=${cmd%% *}
    status 2 "$name --bogus" $T $cmd --gpu gtx480 --bogus 1
    says "unknown option '--bogus'" "$name --bogus"
    status 2 "$name --bogus=1" $T $cmd --gpu gtx480 --bogus=1
    says "unknown option '--bogus'" "$name --bogus=1"
done
status 2 "unknown command" $T bogus
# trace check and opcodes: their --json from a table too (-h is help, not a trace)
for cmd in "trace check $D/none" "trace opcodes"; do
    status 2 "${cmd% $D/none} --bogus" $T $cmd --bogus 1
    says "unknown option '--bogus'" "${cmd% $D/none} --bogus"
    status 2 "${cmd% $D/none} --json" $T $cmd --json
    says "--json needs a value" "${cmd% $D/none} --json"
done
status 0 "trace check -h" $T trace check -h

# --- a file missing or malformed at run time: 1, with --gpu=FILE read as --gpu FILE
for cmd in "ghostzone hotspot" "sim vecadd" "trace export --out $D/t vecadd" \
           "calibrate --out $D/c.ini hotspot" "locality vecadd" "group vecadd" "import $imp" \
           "sleep vecadd"; do
    name=${cmd%% *}
    status 1 "$name missing --gpu" $T $cmd --gpu "$D/missing.config"
    says "$D/missing.config: cannot open" "$name missing --gpu"
    status 1 "$name --gpu=missing" $T $cmd --gpu="$D/missing.config"
    says "$D/missing.config: cannot open" "$name --gpu=missing"
    status 1 "$name malformed --gpu" $T $cmd --gpu="$D/bad.config"
    says "$D/bad.config" "$name malformed --gpu"
done
status 1 "validate missing --gpu" $T validate --gpu="$D/missing.config" --calibration=data/calibrations/gtx480.ini hotspot
says "$D/missing.config: cannot open" "validate missing --gpu"
for model in group sleep; do
    status 1 "validate --model $model missing --gpu" $T validate --model $model --gpu="$D/missing.config" vecadd
    says "$D/missing.config: cannot open" "validate --model $model missing --gpu"
done
status 1 "validate missing calibration" $T validate --gpu=gtx480 --calibration="$D/missing.ini" hotspot
says "$D/missing.ini: cannot open" "validate missing calibration"
status 1 "import missing export" $T import ncu "$D/none.csv" --gpu=gtx480 --workload=hotspot --sync=fence --stages=2 --h=1 --samples="$D/s.csv"
status 1 "trace check missing" $T trace check "$D/none"
status 1 "sim missing grouping" $T sim --gpu gtx480 --grouping="$D/none.csv" vecadd
status 1 "sim missing power" $T sim --gpu gtx480 --power="$D/none.ini" vecadd

# --- "--name=value" gives what "--name value" gives
$T ghostzone --gpu gtx480 --csv "$D/a.csv" hotspot >/dev/null 2>&1 || fail "ghostzone --csv FILE"
$T ghostzone --gpu=gtx480 --csv="$D/b.csv" hotspot >/dev/null 2>&1 || fail "ghostzone --csv=FILE"
cmp -s "$D/a.csv" "$D/b.csv" || fail "ghostzone: --csv=FILE differs from --csv FILE"
$T sim --gpu=gtx480 vecadd n=1024 >"$D/eq" 2>/dev/null || fail "sim --gpu=gtx480"
$T sim --gpu gtx480 vecadd n=1024 >"$D/sp" 2>/dev/null
cmp -s "$D/eq" "$D/sp" || fail "sim: --gpu=gtx480 differs from --gpu gtx480"

# --- traces as Accel-Sim users name them: the folder
$T trace export --gpu=gtx480 --out="$D/tr" vecadd n=1024 >/dev/null || fail "trace export"
$T sim --gpu gtx480 --trace "$D/tr/kernelslist.g" >"$D/by_list" 2>/dev/null || fail "sim --trace LIST"
for dir in "$D/tr" "$D/tr/"; do
    $T sim --gpu gtx480 --trace "$dir" >"$D/by_dir" 2>"$D/err" || fail "sim --trace $dir: $(cat "$D/err")"
    cmp -s "$D/by_list" "$D/by_dir" || fail "sim --trace $dir differs from the list"
done
$T sim --gpu=gtx480 --trace="$D/tr" >/dev/null 2>&1 || fail "sim --trace=DIR"
$T trace check "$D/tr" >"$D/out" 2>"$D/err" || fail "trace check DIR: $(cat "$D/err")"
grep -q "kernel-1.traceg: vecadd" "$D/out" || fail "trace check DIR: $(cat "$D/out")"
$T locality --trace "$D/tr" >"$D/out" 2>"$D/err" || fail "locality --trace DIR: $(cat "$D/err")"
grep -q "kernel vecadd: 4 TBs" "$D/out" || fail "locality --trace DIR: $(cat "$D/out")"
$T group --gpu gtx480 --trace "$D/tr" --no-sim >"$D/out" 2>"$D/err" || fail "group --trace DIR: $(cat "$D/err")"
mkdir "$D/empty"
status 1 "folder without a trace" $T sim --gpu gtx480 --trace "$D/empty"
says "$D/empty: a folder without kernelslist.g" "folder without a trace"

# the tracer's unprocessed output (kernelslist, kernel-N.trace): the hint
mkdir "$D/raw"
cp "$D/tr/kernel-1.traceg" "$D/raw/kernel-1.trace"
printf 'MemcpyHtoD,0x7f1234000000,4096\nkernel-1.trace\n' >"$D/raw/kernelslist"
hint="post-traces-processing $D/raw), which writes kernelslist.g and kernel-N.traceg"
status 1 "unprocessed folder" $T sim --gpu gtx480 --trace "$D/raw"
says "$D/raw: no kernelslist.g; the folder holds the NVBit tracer's unprocessed output" "unprocessed folder"
says "$hint" "unprocessed folder"
status 1 "unprocessed list" $T locality --trace "$D/raw/kernelslist"
says "$D/raw/kernelslist:2: kernel-1.trace is the NVBit tracer's unprocessed output" "unprocessed list"
says "$hint" "unprocessed list"
status 1 "unprocessed kernel" $T trace check "$D/raw/kernel-1.trace"
says "$D/raw/kernel-1.trace: a kernel trace, not a kernelslist.g" "unprocessed kernel"
says "$hint" "unprocessed kernel"
rm "$D/raw/kernelslist"
status 1 "folder of .trace files" $T group --gpu gtx480 --trace "$D/raw" --no-sim
says "$hint" "folder of .trace files"
status 1 "a processed kernel trace as the list" $T sim --gpu gtx480 --trace "$D/tr/kernel-1.traceg"
says "a kernel trace, not a kernelslist.g: give the folder holding kernelslist.g" "processed kernel as list"
finish cli_conventions
