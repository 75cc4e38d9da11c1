#!/bin/sh
# End-to-end tests of `trapeze calibrate`: an interrupted calibration
# (SIGKILL after some rows) resumes without loss (every planned id exactly
# once, the calibration file byte-identical to an uninterrupted run's), the
# thread count changes no byte, the calibration feeds `trapeze ghostzone`,
# and bad input gives one message, a non-zero exit and no output file.
# Usage: sh tests/cli_calibrate.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

# small: 9 micro-benchmarks (the fence barrier at 5 block counts), a profiling pair and the two issue probes, 8 stencil samples
# Under the sanitizers the stencil samples are those of a 2e6 sweep (1.86 M
# warp instructions, not 3.52 M; the micro-benchmarks' 1.18 M and the
# profiling runs' 1.59 M are the same): the same 21 rows, kill, resume and
# threads, a quarter less CPU in a group made of these runs.
sweep=5e6
case "$T" in *build-san*) sweep=2e6 ;; esac
ARGS="--gpu gtx480 --budget 8 --stages 1 --sweep-budget $sweep poisson"
rows() { [ -f "$1" ] && tail -n +2 "$1" | wc -l || echo 0; }

# --- uninterrupted, one thread
"$T" calibrate $ARGS --samples "$D/a.csv" --out "$D/a.ini" >"$D/a.out" 2>"$D/a.err" \
    || fail "calibrate: $(cat "$D/a.err")"
total=$(rows "$D/a.csv")
[ "$total" -eq 21 ] || fail "expected 21 samples, got $total"
grep -q '^\[ghostzone\]' "$D/a.ini" && grep -q '^cpi_stderr = ' "$D/a.ini" \
    && grep -q '^\[profile.Poisson\]' "$D/a.ini" || fail "calibration file content: $(cat "$D/a.ini")"
grep -q 'CV MAPE' "$D/a.out" || fail "no cross-validated error printed"

# --- killed with SIGKILL after a few rows, then restarted
"$T" calibrate $ARGS --samples "$D/b.csv" --out "$D/b.ini" >/dev/null 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && [ "$(rows "$D/b.csv")" -lt 3 ]; do sleep 0.01; done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
done_before=$(rows "$D/b.csv")
[ ! -e "$D/b.ini" ] && [ "$done_before" -lt "$total" ] \
    || fail "the run finished before the kill ($done_before rows): nothing was tested"
"$T" calibrate $ARGS --samples "$D/b.csv" --out "$D/b.ini" >/dev/null 2>"$D/b.err" \
    || fail "resume: $(cat "$D/b.err")"
ids=$(cut -d, -f1 "$D/b.csv" | tail -n +2 | sort)
[ "$(echo "$ids" | uniq | wc -l)" -eq "$total" ] && [ -z "$(echo "$ids" | uniq -d)" ] \
    || fail "resumed log: ids not each exactly once"
[ "$ids" = "$(cut -d, -f1 "$D/a.csv" | tail -n +2 | sort)" ] || fail "resumed log: other ids"
cmp -s "$D/a.ini" "$D/b.ini" || fail "resumed calibration differs from the uninterrupted one"
cmp -s "$D/a.csv" "$D/b.csv" || fail "resumed samples.csv differs (rows are rewritten in plan order)"

# --- two threads: the same bytes
"$T" calibrate $ARGS --threads 2 --samples "$D/c.csv" --out "$D/c.ini" >/dev/null 2>&1 \
    || fail "calibrate --threads 2"
cmp -s "$D/a.ini" "$D/c.ini" && cmp -s "$D/a.csv" "$D/c.csv" || fail "--threads 2 changed the output"
# --- one sample left and two threads: its simulation runs on both (one budget), the same bytes
head -n -1 "$D/a.csv" >"$D/r.csv"
"$T" calibrate $ARGS --threads 2 --samples "$D/r.csv" --out "$D/r.ini" >/dev/null 2>&1 \
    || fail "calibrate --threads 2, one sample pending"
cmp -s "$D/a.ini" "$D/r.ini" && cmp -s "$D/a.csv" "$D/r.csv" \
    || fail "a sample simulated on two threads changed the output"

# --- MPI: 2 ranks on loopback, the same bytes as the serial run
if mpi_usable; then
    mpirun2 calibrate $ARGS --samples "$D/m.csv" --out "$D/m.ini" \
        >"$D/m.out" 2>&1 || fail "mpirun -n 2 calibrate: $(cat "$D/m.out")"
    cmp -s "$D/a.ini" "$D/m.ini" && cmp -s "$D/a.csv" "$D/m.csv" || fail "MPI changed the output"
fi

# --- the calibration drives the model
"$T" ghostzone --gpu data/gpus/gtx480.config --calibration "$D/a.ini" data/workloads/poisson.ini \
    >"$D/gz.out" 2>&1 || fail "ghostzone --calibration: $(cat "$D/gz.out")"
grep -q '^Poisson *gtx480 *relaunch' "$D/gz.out" || fail "ghostzone output: $(cat "$D/gz.out")"

# --- bad input
expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/x.ini" "$T" calibrate "$@" --out "$D/x.ini"; }
expect_error "no gpu" "--gpu FILE is required" poisson
expect_error "bad budget" "--budget: expected a number from 1 to 4096, got '0'" --gpu gtx480 --budget 0
expect_error "fractional threads" "expected a whole number, got '1.5'" --gpu gtx480 --threads 1.5
expect_error "missing gpu" "nope.config" --gpu nope.config poisson
expect_error "unknown workload" "nothing.ini" --gpu gtx480 nothing.ini
printf 'sample_id,kind\n' >"$D/bad.csv"
expect_error "bad samples header" "bad.csv:1: not a samples log" --gpu gtx480 --samples "$D/bad.csv" poisson
cp "$D/a.csv" "$D/torn.csv"
sed -i '5s/,relaunch,1,/,relaunch,1x,/' "$D/torn.csv"
expect_error "malformed row" "torn.csv:5: field h: expected an integer in [1, 2147483647], got '1x'" \
    --gpu gtx480 --samples "$D/torn.csv" poisson

# --- nothing finished is lost, whatever the file holds
# a NUL byte in row 5: refused, the log unchanged (it used to be cut to 4 rows)
cp "$D/a.csv" "$D/nul.csv"
printf '\000' | dd of="$D/nul.csv" bs=1 seek=$(($(head -n 5 "$D/a.csv" | wc -c) + 3)) conv=notrunc 2>/dev/null
cp "$D/nul.csv" "$D/nul.before"
expect_error "NUL byte" "nul.csv:6: a NUL byte in the row" --samples "$D/nul.csv" $ARGS
cmp -s "$D/nul.csv" "$D/nul.before" || fail "NUL byte: the log was changed"
# a gzip file given as --samples: refused, unchanged (it used to be overwritten)
gzip -c "$D/a.csv" >"$D/gz.csv"
cp "$D/gz.csv" "$D/gz.before"
expect_error "gzip log" "gz.csv:1: not a samples log" --samples "$D/gz.csv" $ARGS
cmp -s "$D/gz.csv" "$D/gz.before" || fail "gzip log: the file was changed"
# a hand-appended measured row without a final newline is used, not dropped
cp "$D/a.csv" "$D/hand.csv"
grep ',sim,' "$D/a.csv" | head -n 1 | sed 's/^[^,]*,sim,/lab-1,measured,/' | tr -d '\n' >>"$D/hand.csv"
"$T" calibrate $ARGS --samples "$D/hand.csv" --out "$D/hand.ini" >"$D/hand.out" 2>"$D/hand.err" \
    || fail "hand-appended row: $(cat "$D/hand.err")"
grep -q "hand.csv:23: the last row had no final newline; kept it" "$D/hand.err" \
    || fail "hand-appended row: no note: $(cat "$D/hand.err")"
[ "$(rows "$D/hand.csv")" -eq 22 ] && tail -n 1 "$D/hand.csv" | grep -q '^lab-1,measured,' \
    || fail "hand-appended row: not kept"
grep -q '^9 observations' "$D/hand.out" || fail "hand-appended row not fitted: $(cat "$D/hand.out")"
# a second run on a log in use fails at once, and adds nothing
cp "$D/a.csv" "$D/busy.csv"
flock "$D/busy.csv" sh -c "touch '$D/held'; sleep 30" &
holder=$!
while [ ! -e "$D/held" ]; do sleep 0.01; done
expect_error "log in use" "busy.csv: in use by another run" --samples "$D/busy.csv" $ARGS
kill $holder 2>/dev/null
wait $holder 2>/dev/null
cmp -s "$D/busy.csv" "$D/a.csv" || fail "log in use: the log was changed"
# a write that fails (a file-size limit stands in for a full disk): the
# calibration file's error gives the system's reason, leaves nothing
(trap '' XFSZ; ulimit -f 1; exec "$T" calibrate $ARGS --samples "$D/a.csv" --out "$D/full.ini") \
    >/dev/null 2>"$D/full.err" && fail "disk full: exit status 0"
grep -q "full.ini: cannot write: File too large" "$D/full.err" \
    || fail "disk full: no reason given: $(cat "$D/full.err")"
[ ! -e "$D/full.ini" ] || fail "disk full: a calibration file was left"
ls "$D" | grep -q '^full\.ini\..*\.tmp$' && fail "disk full: a temporary file was left"
"$T" calibrate --help | grep -q '^usage: trapeze calibrate' || fail "--help"

# --- re-reads only where a data cache holds them: the GTX 280 (no L1D, no L2)
# refitted with loop_reread and loop_once asked for keeps Meng's IterMem and holds
# rho at 1 (every load is a DRAM read); the GTX 480's default structure fits rho_L
cp data/calibrations/gtx280-samples.csv "$D/s280.csv"
"$T" calibrate --gpu gtx280 --structure at-size,loop_reread,loop_once --samples "$D/s280.csv" --out "$D/280.ini" \
    >/dev/null 2>"$D/err" || fail "gtx280 refit: $(cat "$D/err")"
grep -qx 'halo_reread = 1' "$D/280.ini" && grep -qx 'partial_round = 1' "$D/280.ini" \
    && ! grep -q '^loop_' "$D/280.ini" || fail "gtx280 re-reads: $(grep -e reread -e partial -e loop_ "$D/280.ini")"
cp data/calibrations/gtx480-samples.csv "$D/s480.csv"
"$T" calibrate --gpu gtx480 --samples "$D/s480.csv" --out "$D/480.ini" >/dev/null 2>"$D/err" \
    || fail "gtx480 refit: $(cat "$D/err")"
grep -qx 'loop_reread = 1' "$D/480.ini" && grep -qx 'partial_round = 1' "$D/480.ini" \
    && awk -F' = ' '$1 == "loop_reread_fraction" { ok = $2 < 1 } END { exit !ok }' "$D/480.ini" \
    || fail "gtx480 default structure: $(grep -e reread -e partial "$D/480.ini")"
# the relaunch turnaround is the chase micro-benchmark's latency, held: written as measured
chase=$(awk -F, '$2 == "micro" && $3 == "chase" { print $13 }' "$D/s480.csv")
[ -n "$chase" ] && awk -F' = ' -v c="$chase" '$1 == "turnaround_cycles" { ok = $2 == c + 0 } END { exit !ok }' "$D/480.ini" \
    || fail "turnaround: chase $chase, $(grep turnaround "$D/480.ini")"
# round_staging's wait and the halo re-reads both price a fence stage's staging: rho is
# held at 1 with it (the shipped V100 fit puts it at 0 without it)
awk -F' = ' '$1 == "halo_reread" { ok = $2 < 1e-6 } END { exit !ok }' data/calibrations/v100.ini \
    || fail "the shipped V100 rho is no longer ~0: $(grep '^halo_reread =' data/calibrations/v100.ini)"
cp data/calibrations/v100-samples.csv "$D/s100.csv"
"$T" calibrate --gpu v100 --samples "$D/s100.csv" --structure at-size,loop_once,round_staging \
    --out "$D/100.ini" >"$D/out" 2>"$D/err" || fail "v100 round_staging refit: $(cat "$D/err")"
grep -qx 'round_staging = 1' "$D/100.ini" && grep -qx 'halo_reread = 1' "$D/100.ini" \
    && grep -Eq '^halo_reread +1 +0$' "$D/out" \
    || fail "round_staging: rho not held: $(grep -e halo -e staging "$D/100.ini" "$D/out")"

finish cli_calibrate
