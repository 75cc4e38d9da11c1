#!/bin/sh
# scripts/regenerate-data.sh with a stand-in for trapeze (no simulation): a
# progress line per step, the simulator's fingerprint recorded per file (PROVENANCE
# and the calibration's [meta]), a log of unknown or other provenance removed
# before its step and one of this simulator resumed, --check telling stale
# files, and an unknown step refused.
# Usage: sh tests/cli_regenerate.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
R="$(dirname "$0")/../scripts/regenerate-data.sh"
# the stand-in appends a line to every file named after --samples, --sweep-log,
# --out, --csv or --curve, as a run that simulated one more sample would
cat >"$D/fake" <<'FAKE'
#!/bin/sh
# (the fingerprint's short `sim` runs succeed even then)
[ "$1" = sim ] || [ -z "${FAKE_FAIL:-}" ] || { echo "run" >>"$FAKE_FAIL"; exit 1; }
# a simulation's header and row: its cycles (FAKE_SIM; only on the GPU
# FAKE_SIM_GPU when set), an L1 access count (FAKE_L1: a counter the
# ghost-zone files never read), then a wall time that differs per run
if [ "$1" = sim ]; then
    c=${FAKE_SIM:-0}
    while [ "$1" != --csv ]; do
        [ "$1" = --gpu ] && [ -n "${FAKE_SIM_GPU:-}" ] && [ "$2" != "$FAKE_SIM_GPU" ] && c=0
        shift
    done
    printf 'kernel,cycles,l1_accesses,wall_s\nk,%s,%s,%s\n' "$c" "${FAKE_L1:-0}" "$$" >"$2"
    exit 0
fi
while [ $# -gt 0 ]; do
    case $1 in
    --samples|--sweep-log|--csv|--curve) echo "run" >>"$2"; shift ;;
    --out) printf '[meta]\nsource = fake\n[ghostzone]\n' >"$2"; shift ;;
    esac
    shift
done
FAKE
chmod +x "$D/fake"
mkdir -p "$D/data/calibrations" "$D/data/validation"
echo "old simulator's sample" >"$D/data/calibrations/gtx480-samples.csv"
export TRAPEZE="$D/fake" DATA="$D/data"
sim=$(sh "$R" --fingerprint gtx480) || fail "--fingerprint"
echo "$sim" | grep -q '^fp-[0-9a-f]\{12\}$' || fail "fingerprint: $sim"
# the fingerprint ignores the wall time (the last column) and follows the counters
[ "$(sh "$R" --fingerprint gtx480)" = "$sim" ] || fail "fingerprint changes with the wall time"
[ "$(FAKE_SIM=1 sh "$R" --fingerprint gtx480)" != "$sim" ] || fail "fingerprint blind to a counter"
# one per GPU: its own runs and config; a change to another GPU leaves it
[ "$(sh "$R" --fingerprint v100)" != "$sim" ] || fail "one fingerprint for two GPUs"
[ "$(FAKE_SIM=1 FAKE_SIM_GPU=v100 sh "$R" --fingerprint gtx480)" = "$sim" ] \
    || fail "gtx480's fingerprint follows the V100's runs"
# the ghost-zone files' fingerprint: the cycles, not a counter they never read
gz=$(sh "$R" --fingerprint gtx480 gz)
echo "$gz" | grep -q '^gz-[0-9a-f]\{12\}$' || fail "gz fingerprint: $gz"
[ "$(FAKE_SIM=1 sh "$R" --fingerprint gtx480 gz)" != "$gz" ] || fail "gz fingerprint blind to the cycles"
[ "$(FAKE_L1=5 sh "$R" --fingerprint gtx480 gz)" = "$gz" ] || fail "gz fingerprint follows the L1 accesses"
[ "$(FAKE_L1=5 sh "$R" --fingerprint gtx480)" != "$sim" ] || fail "fingerprint blind to the L1 accesses"
MAX_ERR_LINES=1 expect_failure "--fingerprint without a GPU" "--fingerprint GPU" "$D/none" \
    sh "$R" --fingerprint

sh "$R" cal-gtx480 2>"$D/err" || fail "cal-gtx480: $(cat "$D/err")"
grep -q '^\[1/1\] cal-gtx480: started .* simulator '"$gz" "$D/err" || fail "progress: $(cat "$D/err")"
grep -q '^\[1/1\] cal-gtx480: done in [0-9]* s' "$D/err" || fail "timing: $(cat "$D/err")"
grep -q 'gtx480-samples.csv: made on simulator (unknown)' "$D/err" || fail "removal said: $(cat "$D/err")"
# the old log is gone: the stand-in's one run alone
[ "$(cat "$D/data/calibrations/gtx480-samples.csv")" = "run" ] || fail "old log kept"
awk -F, -v s="$gz" '$1 ~ /gtx480.ini$/ && $2 ~ "^" s { ok = 1 } END { exit !ok }' "$D/data/PROVENANCE.csv" \
    || fail "PROVENANCE: $(cat "$D/data/PROVENANCE.csv")"
[ "$(head -1 "$D/data/PROVENANCE.csv")" = "file,simulator,simulator_commit,head_commit,seconds,finished_utc,command" ] \
    || fail "PROVENANCE header"
sed -n '2p' "$D/data/calibrations/gtx480.ini" | grep -q "^simulator = $gz" \
    || fail "[meta] stamp: $(cat "$D/data/calibrations/gtx480.ini")"
# same simulator and checkout, finished: nothing to redo, its recorded time kept
secs=$(awk -F, '$1 ~ /gtx480.ini$/ { print $5 }' "$D/data/PROVENANCE.csv")
sed -i 's/^\([^,]*gtx480[-a-z]*\.[a-z]*,[^,]*,[^,]*,[^,]*,\)[0-9]*,/\1777,/' "$D/data/PROVENANCE.csv"
sh "$R" cal-gtx480 2>"$D/err" || fail "rerun: $(cat "$D/err")"
grep -q 'cal-gtx480: already done' "$D/err" || fail "rerun not skipped: $(cat "$D/err")"
[ "$(grep -c run "$D/data/calibrations/gtx480-samples.csv")" -eq 1 ] || fail "finished step rerun"
grep -q 'gtx480.ini,[^,]*,[^,]*,[^,]*,777,' "$D/data/PROVENANCE.csv" || fail "recorded time lost (was $secs)"
# another checkout (a model change refits): rerun, the log resumed, not removed,
# its cost the earlier run's (777 s) and this one's
sed -i 's/^\([^,]*gtx480[-a-z]*\.[a-z]*,[^,]*,[^,]*,\)[^,]*,/\10000000,/' "$D/data/PROVENANCE.csv"
sh "$R" cal-gtx480 2>"$D/err" || fail "rerun: $(cat "$D/err")"
[ "$(grep -c run "$D/data/calibrations/gtx480-samples.csv")" -eq 2 ] || fail "log not resumed"
awk -F, '$1 ~ /gtx480.ini$/ && $5 >= 777 && $5 < 800 { ok = 1 } END { exit !ok }' "$D/data/PROVENANCE.csv" \
    || fail "earlier time not added: $(cat "$D/data/PROVENANCE.csv")"
# a lower bound recorded before ("N+": its run was interrupted once) is added
# to and stays a lower bound: a rerun from the finished log must not say 0+
sed -i 's/^\([^,]*gtx480[-a-z]*\.[a-z]*,[^,]*,[^,]*,\)[^,]*,[^,]*,/\10000000,500+,/' "$D/data/PROVENANCE.csv"
sh "$R" cal-gtx480 2>"$D/err" || fail "rerun after a lower bound: $(cat "$D/err")"
awk -F, '$1 ~ /gtx480-samples.csv$/ && $5 ~ /^5[0-9][0-9]\+$/ { ok = 1 } END { exit !ok }' "$D/data/PROVENANCE.csv" \
    || fail "lower bound lost: $(grep gtx480-samples "$D/data/PROVENANCE.csv")"
# one PROVENANCE row per file
[ "$(grep -c 'gtx480.ini,' "$D/data/PROVENANCE.csv")" -eq 1 ] || fail "PROVENANCE rows repeated"
[ "$(grep -c '^simulator' "$D/data/calibrations/gtx480.ini")" -eq 1 ] || fail "stamp repeated"
# --check: current files, the other steps' files missing, a file of no provenance unknown
echo old >"$D/data/calibrations/v100.ini"
if sh "$R" --check >"$D/out"; then fail "--check passed with files missing"; fi
grep -q '^current .*gtx480.ini' "$D/out" || fail "--check lists: $(cat "$D/out")"
grep -q '^MISSING .*validation/gtx280-curve.csv' "$D/out" || fail "--check missing: $(cat "$D/out")"
grep -q '^UNKNOWN .*calibrations/v100.ini' "$D/out" || fail "--check unknown: $(cat "$D/out")"
# made on another simulator: stale, and its log is removed before the step
sed -i 's/^\([^,]*gtx480-samples.csv\),[^,]*,/\1,0000000,/' "$D/data/PROVENANCE.csv"
if sh "$R" --check >"$D/out"; then fail "--check passed a stale file"; fi
grep -q '^STALE .*gtx480-samples.csv (made on 0000000' "$D/out" || fail "stale: $(cat "$D/out")"
sh "$R" cal-gtx480 2>"$D/err" || fail "third run: $(cat "$D/err")"
[ "$(cat "$D/data/calibrations/gtx480-samples.csv")" = "run" ] || fail "stale log kept"
# the size sweeps are three steps (2-D benchmarks, unseen stencils, the others) of three files
sh "$R" sizes-gtx480-small 2>"$D/err" || fail "sizes: $(cat "$D/err")"
grep -q '^\[3/3\] sizes-gtx480-others (1,16): done' "$D/err" || fail "sizes progress: $(cat "$D/err")"
for f in gtx480-sizes-main.csv gtx480-sizes-unseen-points.csv gtx480-sizes-others-sweep.csv; do
    grep -q "validation/$f," "$D/data/PROVENANCE.csv" || fail "PROVENANCE lacks $f"
done
# an interrupted step: non-zero exit, its log kept as this simulator's (incomplete), resumed
if FAKE_FAIL="$D/data/validation/v100-sizes-main-sweep.csv" sh "$R" sizes-v100-small 2>"$D/err"; then
    fail "a failed step passed"
fi
grep -q 'v100-sizes-main-sweep.csv,[^,]*,[^,]*,[^,]*,incomplete,' "$D/data/PROVENANCE.csv" \
    || fail "incomplete log not recorded: $(cat "$D/data/PROVENANCE.csv")"
sh "$R" --check | grep -q 'v100-sizes-main-sweep.csv .* INCOMPLETE' || fail "--check: incomplete"
sh "$R" sizes-v100-small 2>"$D/err" || fail "resumed step: $(cat "$D/err")"
[ "$(grep -c run "$D/data/validation/v100-sizes-main-sweep.csv")" -eq 2 ] || fail "interrupted log not resumed"
# its time covers only the last run: recorded as such ("N+")
grep -q 'v100-sizes-main-sweep.csv,[^,]*,[^,]*,[^,]*,[0-9]*+,' "$D/data/PROVENANCE.csv" \
    || fail "resumed time not marked: $(cat "$D/data/PROVENANCE.csv")"
# a simulator change that moves only the V100's runs: its files stale, the GTX 480's current
if FAKE_SIM=1 FAKE_SIM_GPU=v100 sh "$R" --check >"$D/out"; then fail "--check passed a V100 change"; fi
grep -q '^STALE .*v100-sizes-main.csv' "$D/out" || fail "V100 change: $(cat "$D/out")"
grep -q '^current .*gtx480-sizes-main.csv' "$D/out" || fail "GTX 480 staled: $(cat "$D/out")"
# one group of a size sweep alone: one step, its three files, the V100's sizes
V100_SIZES=1,4 sh "$R" sizes-v100-unseen 2>"$D/err" || fail "sizes-v100-unseen: $(cat "$D/err")"
grep -q '^\[1/1\] sizes-v100-unseen (1,4): done' "$D/err" || fail "group step: $(cat "$D/err")"
grep -q 'v100-sizes-unseen-points.csv,.*--sizes 1,4 .* box9 star7 multi1d"$' "$D/data/PROVENANCE.csv" \
    || fail "group step command: $(grep unseen-points "$D/data/PROVENANCE.csv")"
# the sleep and grouping validations: their GPU's fingerprint, their files
sh "$R" sleep-v100 group-gtx480 2>"$D/err" || fail "sleep, group: $(cat "$D/err")"
grep -q '^\[2/2\] group-gtx480: done' "$D/err" || fail "sleep, group progress: $(cat "$D/err")"
v100=$(sh "$R" --fingerprint v100)
grep -q "validation/sleep-v100.csv,$v100,.*validate --model sleep --gpu v100 " "$D/data/PROVENANCE.csv" \
    || fail "sleep-v100 provenance: $(grep sleep "$D/data/PROVENANCE.csv")"
# a sleep validation writes its CSV whole, so a rerun's seconds are its own,
# not added to the last run's (they were: 277 + 154 s recorded as 431)
sed -i 's/^\([^,]*sleep-v100\.csv,[^,]*,[^,]*,\)[^,]*,[^,]*,/\10000000,777,/' "$D/data/PROVENANCE.csv"
sh "$R" sleep-v100 2>"$D/err" || fail "sleep-v100 again: $(cat "$D/err")"
awk -F, '$1 ~ /sleep-v100.csv$/ && $5 ~ /^[0-9]+$/ && $5 < 777 { ok = 1 } END { exit !ok }' "$D/data/PROVENANCE.csv" \
    || fail "sleep seconds added to the last run's: $(grep sleep-v100 "$D/data/PROVENANCE.csv")"
for f in group-gtx480-samples.csv group-gtx480.csv; do
    grep -q "validation/$f,$sim," "$D/data/PROVENANCE.csv" || fail "PROVENANCE lacks $f on $sim"
done
sh "$R" --check | grep -q '^MISSING .*validation/sleep-gtx480-spread.csv' || fail "--check: spread csv"
# a job with spaces is recorded as a shell would take it back (quoted), and
# the step is then current
sh "$R" sleep-usersize-gtx480 2>"$D/err" || fail "sleep-usersize-gtx480: $(cat "$D/err")"
grep -q "sleep-gtx480-usersize.csv,.* --threads 2 'poisson size=1024x1024 iters=16 sync=relaunch h=2' 'pathfinder" \
    "$D/data/PROVENANCE.csv" || fail "spaced words not quoted: $(grep usersize "$D/data/PROVENANCE.csv")"
sh "$R" sleep-usersize-gtx480 2>"$D/err" || fail "second run: $(cat "$D/err")"
grep -q "already done" "$D/err" || fail "spaced command not recognised as done: $(cat "$D/err")"
# a change to a counter the ghost-zone files never read: they stay current,
# the grouping validation (which reads every counter) is stale
sh "$R" group-cal-gtx480 2>"$D/err" || fail "group-cal-gtx480: $(cat "$D/err")"
FAKE_L1=5 sh "$R" --check >"$D/out"
grep -q '^current .*gtx480-sizes-main.csv' "$D/out" || fail "L1 change staled a ghost-zone file: $(cat "$D/out")"
grep -q '^STALE .*group-gtx480.csv' "$D/out" || fail "L1 change left the grouping current: $(cat "$D/out")"
grep -q '^STALE .*calibrations/gtx480-group.ini' "$D/out" || fail "L1 change left the grouping calibration current: $(cat "$D/out")"
MAX_ERR_LINES=1 expect_failure "unknown step" "no step 'nonsense'" "$D/none" sh "$R" nonsense
finish cli_regenerate
