#!/bin/sh
# `trapeze calibrate --model sleep` and `trapeze validate --model sleep`:
# the windows go through the samples log (the same bytes whatever the thread
# count; a resumed run runs only what is missing; a logged row is read, not
# re-run), calibrate's thresholds are those `trapeze sleep` picks on the
# same window, and validate's rows are consistent with what it prints: the
# best swept setting is the largest simulated saving within the budget, the
# ratio is the model's simulated saving over it, the targets count the rows
# that meet them, the seed's thresholds are Snooze 2 and Slumber 4/13/16.
# Usage: sh tests/cli_calib_sleep.sh build/trapeze
MAX_ERR_LINES=2
. "$(dirname "$0")/lib/cli.sh"

J1="vecadd n=65536"
J2="matmul n=32"
"$T" calibrate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --samples "$D/l1.csv" \
    --out "$D/c1.csv" >"$D/out1" 2>"$D/err" || fail "calibrate: $(cat "$D/err")"
"$T" calibrate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --samples "$D/l2.csv" \
    --threads 3 --out "$D/c2.csv" >/dev/null 2>"$D/err" || fail "--threads 3: $(cat "$D/err")"
cmp -s "$D/l1.csv" "$D/l2.csv" || fail "samples log depends on the thread count"
cmp -s "$D/c1.csv" "$D/c2.csv" || fail "result depends on the thread count"
[ "$(wc -l <"$D/l1.csv")" -eq 3 ] || fail "log rows: $(wc -l <"$D/l1.csv")"
[ "$(wc -l <"$D/c1.csv")" -eq 7 ] || fail "result rows (2 jobs x 3 structures): $(wc -l <"$D/c1.csv")"
head -1 "$D/l1.csv" | grep -q '^sample_id,kind,model,job,gpu,window_cycles,spread_cycles,max_penalty,fit,cycles,' \
    || fail "log header: $(head -1 "$D/l1.csv")"
grep -q "^$J1,window,sleep," "$D/l1.csv" || fail "log row id: $(sed -n 2p "$D/l1.csv")"
# the sample asked for: by default a jump sample where cheaper (a negative
# stride; on these short runs the spread sample), --no-jump the spread sample
[ "$(awk -F, 'NR == 2 { print $7 }' "$D/l1.csv")" = "-2500" ] || fail "default stride: $(sed -n 2p "$D/l1.csv")"
"$T" calibrate --model sleep --gpu gtx480 --window 3000 "$J1" --no-jump --samples "$D/ln.csv" \
    --out "$D/cn.csv" >/dev/null 2>"$D/err" || fail "--no-jump: $(cat "$D/err")"
[ "$(awk -F, 'NR == 2 { print $7 }' "$D/ln.csv")" = "2500" ] || fail "--no-jump stride: $(sed -n 2p "$D/ln.csv")"
# a short run is not jumped: the same thresholds either way
[ "$(sed -n 2p "$D/cn.csv")" = "$(sed -n 2p "$D/c1.csv")" ] || fail "--no-jump changed a short run's result"
# resumed: the last row dropped is run again, the log comes back byte for byte
head -n 2 "$D/l1.csv" >"$D/l3.csv"
"$T" calibrate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --samples "$D/l3.csv" \
    --out "$D/c3.csv" >/dev/null 2>"$D/err" || fail "resume: $(cat "$D/err")"
cmp -s "$D/l1.csv" "$D/l3.csv" || fail "resumed log differs"
# a logged row is read, not re-run: its l1d saving (column 17) edited by hand
# shows in the result
awk -F, -v OFS=, -v j="$J1" '$1 == j { $17 = 0.125 } { print }' "$D/l1.csv" >"$D/l4.csv"
"$T" calibrate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --samples "$D/l4.csv" \
    --out "$D/c4.csv" >/dev/null 2>"$D/err" || fail "edited log: $(cat "$D/err")"
grep -q "^gtx480,$J1,l1d,[0-9/]*,0.125," "$D/c4.csv" || fail "edited row not read: $(cat "$D/c4.csv")"
# a row planned otherwise (another window) under the same id: named error
expect_failure "other window" "$D/l1.csv: row $J1 does not match the planned sample" "$D/c5.csv" \
    "$T" calibrate --model sleep --gpu gtx480 --window 4000 "$J1" --samples "$D/l1.csv" \
    --out "$D/c5.csv"

# MPI: the windows over 2 ranks on loopback, the same log and result as one
# process (as tests/cli_calibrate.sh for ghost zones); only rank 0 prints
if mpi_usable; then
    mpirun2 calibrate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" \
        --samples "$D/mpi.csv" --out "$D/mpi-c.csv" >"$D/mpi.out" 2>&1 \
        || fail "mpirun -n 2: $(cat "$D/mpi.out")"
    cmp -s "$D/l1.csv" "$D/mpi.csv" && cmp -s "$D/c1.csv" "$D/mpi-c.csv" \
        || fail "MPI changed the output"
    [ "$(grep -c "wrote" "$D/mpi.out")" -eq 1 ] && [ "$(grep -c "^$J2 " "$D/mpi.out")" -eq 1 ] \
        || fail "a rank other than 0 printed: $(cat "$D/mpi.out")"
fi

# the same thresholds as trapeze sleep on the same window
"$T" sleep --gpu gtx480 $J2 --window 3000 --csv "$D/s.csv" >/dev/null 2>"$D/err" \
    || fail "sleep: $(cat "$D/err")"
for st in l1d:line l2:line rf:warp_reg; do
    s=${st%%:*} g=${st#*:}
    want=$(awk -F, -v s="$s" -v g="$g" '$3 == s && $4 == g && $6 == "model" { printf "%s%s", sep, $8; sep = "/" }' "$D/s.csv")
    got=$(awk -F, -v s="$s" -v j="$J2" '$2 == j && $3 == s { print $4 }' "$D/c1.csv")
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "$s: calibrate $got, sleep $want"
done

# --- validate: rows against what is printed
"$T" validate --model sleep --gpu gtx480 --window 3000 "$J2" --csv "$D/v.csv" >"$D/vout" \
    2>"$D/err" || fail "validate: $(cat "$D/err")"
head -1 "$D/v.csv" | grep -q '^gpu,kernel,structure,choice,thresholds,best_swept,mode,threshold_cycles,pred_mode_fraction,sim_mode_fraction,pred_saving,sim_saving,pred_leakage_fraction,sim_leakage_fraction,pred_penalty,sim_penalty' \
    || fail "validate header: $(head -1 "$D/v.csv")"
# seed thresholds; model thresholds = calibrate's
[ "$(awk -F, '$3 == "rf" && $4 == "seed" { print $5; exit }' "$D/v.csv")" = "4/13/16" ] || fail "rf seed"
[ "$(awk -F, '$3 == "l2" && $4 == "seed" { print $5; exit }' "$D/v.csv")" = "2/2" ] || fail "l2 seed"
for s in l1d l2 rf; do
    m=$(awk -F, -v s="$s" '$3 == s && $4 == "model" { print $5; exit }' "$D/v.csv")
    c=$(awk -F, -v s="$s" -v j="$J2" '$2 == j && $3 == s { print $4 }' "$D/c1.csv")
    [ "$m" = "$c" ] || fail "$s: validate's model $m, calibrate's $c"
    # the best swept: within the budget, and no swept setting within it saves more
    bad=$(awk -F, -v s="$s" '$3 == s && $4 == "sweep" && $16 <= 0.01 && $12 > max { max = $12 }
          $3 == s && $6 == 1 { best = $12; pen = $16 }
          END { if (best == "" || pen > 0.01 || best < max) print best, pen, max }' "$D/v.csv")
    [ -z "$bad" ] || fail "$s best swept (saving, penalty, max within budget): $bad"
    ratio=$(awk -v s="$s" '{ for (i = 1; i <= NF; i++) if ($i == s) { print $(NF - 1); exit } }' "$D/vout")
    want=$(awk -F, -v s="$s" '$3 == s && $4 == "model" { m = $12 } $3 == s && $6 == 1 { b = $12 }
           END { printf "%.4f", m / b }' "$D/v.csv")
    [ "$ratio" = "$want" ] || fail "$s ratio printed $ratio, from the CSV $want"
done
# each job's sample as a share of one run: here the spread sample, which
# simulates the whole run (sleep --whole's warp instructions): 100%
whole=$("$T" sleep --gpu gtx480 $J2 --whole --csv "$D/w.csv" 2>/dev/null | head -1 \
        | sed -n 's/.*cycles (\([0-9]*\) warp instructions).*/\1/p')
grep -q "^    $J2: sample 100.0% of one run ($whole of $whole warp instructions)$" "$D/vout" \
    || fail "per-job sample share (run $whole): $(grep "$J2: sample" "$D/vout")"
grep -q "^  samples <= 25% of one run (warp instructions): 0 of 1 jobs (worst 100.0%) MISSED$" \
    "$D/vout" || fail "quarter target: $(grep "of one run (warp" "$D/vout")"
# capped (--cap 0.25): the jump sample of trapeze sleep --cap 0.25, its
# windows shrunk to 500 + 250 cycles on this 9990-cycle run: 1045 of the
# run's 5312 warp instructions, 19.7%, printed as sleep prints it
"$T" validate --model sleep --gpu gtx480 --cap 0.25 "$J2" >"$D/vcap" 2>"$D/err" \
    || fail "validate --cap: $(cat "$D/err")"
"$T" sleep --gpu gtx480 $J2 --cap 0.25 --csv "$D/w.csv" 2>/dev/null | head -1 >"$D/scap"
grep -q "windows of 250 cycles .*(500 warm-up).*(1045 warp instructions, 19.7% of the run's $whole)" \
    "$D/scap" || fail "sleep --cap 0.25: $(cat "$D/scap")"
grep -q "^    $J2: sample 19.7% of one run (1045 of $whole warp instructions)$" "$D/vcap" \
    && grep -q "^  samples <= 25% of one run (warp instructions): 1 of 1 jobs (worst 19.7%) MET$" \
    "$D/vcap" || fail "validate --cap 0.25 share: $(grep "of one run" "$D/vcap")"
# a run no jump sample fits a quarter of (V100 filter 512², 3911 cycles):
# the whole run is the sample, and the job's line says why. Under the
# sanitizers filter 128² (1219 cycles, shorter still: the same path), the
# 512² run being 12 CPU s plain, a third of this group's, and several times
# that there.
fil=filter winst=188416
case "$T" in *build-san*) fil="filter w=128 h=128" winst=11776 ;; esac
"$T" validate --model sleep --gpu v100 --cap 0.25 "$fil" >"$D/vfil" 2>"$D/err" \
    || fail "validate --cap, v100 filter: $(cat "$D/err")"
grep -q "^    $fil: sample 100.0% of one run ($winst of $winst warp instructions): the whole run is the sample, too short for a window within the cap" \
    "$D/vfil" || fail "validate --cap 0.25 whole-run line: $(grep "of one run" "$D/vfil")"
expect_failure "bad cap" "--cap 2: expected a fraction in (0, 1]" "$D/x.csv" "$T" validate \
    --model sleep --gpu gtx480 --cap 2 --csv "$D/x.csv"
expect_failure "warm without cap" "--warm is for the capped sample's later windows: with --cap" \
    "$D/x.csv" "$T" validate --model sleep --gpu gtx480 --warm --csv "$D/x.csv"
# the generic help of both commands names the sleep model and its own help
for c in calibrate validate; do
    h=$("$T" $c --help | tr '\n' ' ' | tr -s ' ')
    case $h in *"sleep (the sleep thresholds)"*"--model sleep --help"*) ;;
        *) fail "$c --help does not list --model sleep" ;; esac
done
# the sweep: as many settings as the help and docs/sleep.md say
for sc in l1d:12 rf:22; do
    s=${sc%%:*} n=${sc#*:}
    got=$(awk -F, -v s="$s" '$3 == s && $4 == "sweep" && !seen[$5]++ { n++ } END { print n + 0 }' "$D/v.csv")
    [ "$got" = "$n" ] || fail "$s sweep: $got settings, $n expected"
    "$T" validate --model sleep --help | tr '\n' ' ' | grep -q "in order: $n settings\|64: $n settings" \
        || fail "validate --help does not say $s's $n settings"
    grep -q "$n settings" "$(dirname "$0")/../docs/sleep.md" || fail "docs/sleep.md lacks '$n settings'"
done
met=$(awk -F, '$4 == "model" && !seen[$3]++ { d = $11 - $12; if (d < 0) d = -d; n += d <= 0.03 } END { print n + 0 }' "$D/v.csv")
grep -q "predicted saving within 3 points of simulated: $met of 3" "$D/vout" \
    || fail "saving target count $met: $(grep 'saving within' "$D/vout")"
grep -q "samples <= 5% of the sweep's simulated work" "$D/vout" || fail "sample cost line"
# the simulated saving charges each sleep period its transition energy, as
# the model does: the V100's circuit profile against its zero-cost seed
# profile, the same simulations (transitions do not move the timing), the
# L1D slept at once (sweep 0/0): the same mode cycles, and the simulated
# saving lower by what the model predicts (0.71 points here; the simulated
# savings were equal before)
for p in v100 v100-seed; do
    "$T" validate --model sleep --gpu v100 --power $p --window 3000 "vecadd n=16384" \
        --csv "$D/tr-$p.csv" >/dev/null 2>"$D/err" || fail "validate --power $p: $(cat "$D/err")"
done
awk -F, '$3 == "l1d" && $4 == "sweep" && $5 == "0/0" && $7 == "off" { f[FILENAME] = $10; p[FILENAME] = $11; s[FILENAME] = $12 }
    END { a = ARGV[1]; b = ARGV[2]; ds = s[b] - s[a]; dp = p[b] - p[a]
          exit !(f[a] == f[b] && ds > 0.005 && ds - dp < 1e-4 && dp - ds < 1e-4) }' \
    "$D/tr-v100.csv" "$D/tr-v100-seed.csv" \
    || fail "transition energy in the simulated saving: $(grep 'l1d,sweep,0/0,1,off' "$D/tr-v100.csv" "$D/tr-v100-seed.csv")"
# each mode's energy break-even, E_tr / (P_on - P_off): the GTX 480 L1D's
# drowsy round trip 75.04 pJ x 700 MHz / (0.027 W x 0.772) = 2.52 cycles
grep -q "^energy break-even E_tr/(P_on - P_off), cycles (gtx480): l1d sleep 2.52 off 2.82; l2 sleep 5.10 off 5.71; rf shallow 1.98 deep 1.44 gated 1.19$" \
    "$D/vout" || fail "break-even line: $(grep break-even "$D/vout")"
# two jobs in three threads: the same rows and report as in one (the rows
# are laid out before the runs, each run fills its own)
"$T" validate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --csv "$D/v1.csv" \
    >"$D/vout1" 2>"$D/err" || fail "validate 2 jobs: $(cat "$D/err")"
"$T" validate --model sleep --gpu gtx480 --window 3000 "$J1" "$J2" --threads 3 \
    --csv "$D/v3.csv" >"$D/vout3" 2>"$D/err" || fail "validate --threads 3: $(cat "$D/err")"
cmp -s "$D/v1.csv" "$D/v3.csv" || fail "validate rows depend on the thread count"
cmp -s "$D/vout1" "$D/vout3" || fail "validate report depends on the thread count"
[ "$(awk -F, '$6 == 1' "$D/v1.csv" | cut -d, -f2,3 | sort -u | wc -l)" -eq 6 ] \
    || fail "one best swept setting per job and structure: $(awk -F, '$6 == 1' "$D/v1.csv" | cut -d, -f2-5)"
grep "^gtx480,$J2," "$D/v1.csv" >"$D/j2a"
grep "^gtx480,$J2," "$D/v.csv" >"$D/j2b"
[ -s "$D/j2a" ] && cmp -s "$D/j2a" "$D/j2b" || fail "the second job's rows differ from its rows alone"
# the runs simulated: per job one always on for the settings that hide
# every wake-up (every cache setting: Snooze's 2-cycle wake within its
# 3-cycle warning; registers with shallow at deep's threshold), and one per
# distinct register setting with shallow below deep (the seed's 4/13/16 is
# also swept): here 47 for 2 x 52 settings (matmul 32's model 13/16/21 is
# not swept, vecadd's 15/15/21 shares the run always on)
sims=$(awk -F, 'NR > 1 && $3 == "rf" { split($5, t, "/"); if (t[1] < t[2]) print $2 "," $5 }' \
    "$D/v1.csv" | sort -u | wc -l)
grep -q "^  whole runs simulated: $((sims + 2)) for the 104 settings " "$D/vout1" \
    || fail "runs simulated, $((sims + 2)) expected: $(grep "runs simulated" "$D/vout1")"

expect_failure "bad model" "--model heat: expected ghostzone, group, sleep or cache" "$D/x.csv" \
    "$T" validate --model heat --gpu gtx480 --csv "$D/x.csv"
expect_failure "bad job" "'q' is not name=value" "$D/x.csv" "$T" calibrate --model sleep --gpu gtx480 \
    "vecadd q" --out "$D/x.csv" --samples "$D/l9.csv"
expect_failure "bad window" "--window -3: expected cycles >= 0" "$D/x.csv" "$T" validate \
    --model sleep --gpu gtx480 --window -3 --csv "$D/x.csv"
finish cli_calib_sleep
