#!/bin/sh
# `trapeze sleep`: thresholds from an idle-period CSV, checked by hand on
# histograms small enough to work out: 100 L1D read periods of 10 cycles
# under Snooze (time-out, woken 3 cycles ahead) and 100 register write
# periods of 30 cycles under Slumber; bad input gets one message naming
# the file, line or option, and leaves no CSV behind.
# Usage: sh tests/cli_sleep.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"
# model_saving CSV GRANULARITY: the model's saving in a trapeze sleep CSV
model_saving() { awk -F, -v g="$2" '$4 == g && $6 == "model" { print $11; exit }' "$1"; }
# near WHAT A B TOL [MIN]: |A - B| < TOL and B > MIN (default 0), else fail
near() {
    awk -v a="$2" -v b="$3" -v t="$4" -v m="${5:-0}" 'BEGIN { d = a - b; exit !(b > m && d < t && d > -t) }' \
        || fail "$1: $2 against $3"
}

H=gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles,next_access,count
cat >"$D/idle.csv" <<CSV
$H
gtx480,k1,l1d,line,10,10,read,100
gtx480,k1,rf,warp_reg,30,30,write,100
gtx480,k2,l2,slice,1025,2048,dead,3
CSV

# the seed profile (no transition energies): the figures below by hand
"$T" sleep --gpu gtx480 --power gtx480-seed --idle-csv "$D/idle.csv" k1 --csv "$D/out.csv" >"$D/stdout" 2>"$D/err" \
    || fail "sleep exit status: $(cat "$D/err")"
grep -q "gtx480 k1 l1d/line: snooze" "$D/stdout" || fail "l1d summary: $(cat "$D/stdout")"
grep -q "gtx480 k1 rf/warp_reg: slumber" "$D/stdout" || fail "rf summary: $(cat "$D/stdout")"
grep -q "k2" "$D/stdout" && fail "kernel filter: k2 printed"
# 2 cache modes + 3 RF modes, x (model, seed, oracle), + header
[ "$(wc -l <"$D/out.csv")" -eq 16 ] || fail "CSV rows: $(wc -l <"$D/out.csv")"

# value CHOICE STRUCTURE MODE COLUMN: one cell of the CSV
value() {
    awk -F, -v c="$1" -v s="$2" -v m="$3" -v col="$4" \
        'NR == 1 { for (i = 1; i <= NF; i++) ix[$i] = i; next }
         $6 == c && $3 == s && $7 == m { print $(ix[col]) }' "$D/out.csv"
}
# same A B: |A - B| < 1e-9
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-9 && d > -1e-9) }'; }

# L1D: sleeping at once (theta 0) sleeps 10 - 3 cycles of each period at
# 22.8%: 100 x 0.772 x 7 / (1000 idle + 100 access cycles); the seed's
# theta 2 sleeps 5 cycles; the oracle wakes in time (2 lost): 8 cycles.
same "$(value model l1d sleep saving_fraction)" 0.4912727272727 || fail "l1d model saving $(value model l1d sleep saving_fraction)"
[ "$(value model l1d sleep threshold_cycles)" = 0 ] || fail "l1d model threshold"
same "$(value seed l1d sleep saving_fraction)" 0.3509090909091 || fail "l1d seed saving"
same "$(value oracle l1d sleep saving_fraction)" 0.5614545454545 || fail "l1d oracle saving"
[ "$(value seed l1d off threshold_cycles)" = 2 ] || fail "l1d seed threshold"
same "$(value model l1d sleep penalty_fraction)" 0 || fail "l1d penalty (lead 3 > wake 2)"
# RF: a write period of 30 >= 20.14 gates, the countdown wakes it in time:
# 100 x (30 - 16) / (3000 + 100); the seed (16) and the oracle agree.
same "$(value model rf gated saving_fraction)" 0.4516129032258 || fail "rf model saving"
same "$(value seed rf gated saving_fraction)" 0.4516129032258 || fail "rf seed saving"
[ "$(value seed rf deep threshold_cycles)" = 13 ] || fail "rf seed deep threshold"
same "$(value model rf gated mode_cycles_fraction)" 0.4666666666667 || fail "rf gated share 14/30"
# Thresholds the histogram cannot tell apart settle at the algebra's
# whole-cycle choice: shallow at its break-even 4, deep above 14.04, gated
# above 20.14 (any gated threshold up to 30 predicts the same here).
[ "$(value model rf shallow threshold_cycles),$(value model rf deep threshold_cycles),$(value model rf gated threshold_cycles)" = 4,15,21 ] \
    || fail "rf settled thresholds: $(value model rf deep threshold_cycles)"

# --structures and --fit (too few periods to fit: kept as observed)
"$T" sleep --gpu gtx480 --idle-csv "$D/idle.csv" --structures l2 --fit >"$D/stdout" 2>"$D/err" \
    || fail "l2 only: $(cat "$D/err")"
grep -q "k2 l2/slice" "$D/stdout" || fail "l2 only output: $(cat "$D/stdout")"
grep -q "l1d" "$D/stdout" && fail "--structures l2 printed l1d"
grep -q "dead as observed (3 periods)" "$D/stdout" || fail "fit line: $(cat "$D/stdout")"

"$T" sleep --help | grep -q "max-penalty" || fail "--help"

# A kernel simulated by trapeze sleep itself gives the same choices, to the
# bit, as its idle CSV from trapeze sim with the run's cycles; its sample
# written out (--sample-csv) is that idle CSV, to the bit.
"$T" sleep --gpu gtx480 vecadd n=65536 --whole --csv "$D/direct.csv" --sample-csv "$D/ws.csv" \
    >/dev/null 2>"$D/err" \
    || fail "simulated kernel: $(cat "$D/err")"
cyc=$("$T" sim --gpu data/gpus/gtx480.config vecadd n=65536 --power gtx480 --idle-csv "$D/vi.csv" 2>/dev/null |
      sed -n 's/^vecadd: \([0-9]*\) cycles.*/\1/p')
"$T" sleep --gpu gtx480 --idle-csv "$D/vi.csv" --cycles "$cyc" --csv "$D/via.csv" >/dev/null \
    || fail "via the idle CSV"
cut -d, -f3- "$D/direct.csv" >"$D/d2"
cut -d, -f3- "$D/via.csv" >"$D/v2"
[ "$(wc -l <"$D/d2")" -eq 43 ] || fail "rows of a simulated kernel: $(wc -l <"$D/d2")"
cmp -s "$D/d2" "$D/v2" || fail "simulated here and via trapeze sim differ"
cmp -s "$D/ws.csv" "$D/vi.csv" || fail "--sample-csv of the whole run differs from trapeze sim's idle CSV"
# scripts/idle-classes.sh: the hand-made file's 100 register writes of 30
# cycles are all of its RF idle cycles, none of the whole run's (whose
# write-ended periods of 17-128 cycles are some share of its own)
sh scripts/idle-classes.sh rf warp_reg "$D/idle.csv" "$D/vi.csv" >"$D/cls" 2>"$D/err" \
    || fail "idle-classes.sh: $(cat "$D/err")"
grep -q '^write  17-128 *100 *[0-9]* *100.00% ' "$D/cls" || fail "idle-classes.sh: $(cat "$D/cls")"
grep -q '^idle cycles: A 3000, B ' "$D/cls" || fail "idle-classes.sh total: $(cat "$D/cls")"

# A window (default 20000 cycles) longer than the run is the whole run: the
# same rows to the bit (the spread sample's later windows never start); with
# --spread 0 a shorter one is cut where the simulator's next visited cycle
# passes it (a few cycles at most past the window), says so, reports its
# fit, and gives other rows.
"$T" sleep --gpu gtx480 vecadd n=65536 --window 1000000 --csv "$D/win.csv" >"$D/wout" 2>"$D/err" \
    || fail "long window: $(cat "$D/err")"
cmp -s "$D/win.csv" "$D/direct.csv" || fail "a window longer than the run differs from --whole"
grep -q "^vecadd n=65536: the whole run, [0-9]* cycles" "$D/wout" || fail "whole-run line: $(head -1 "$D/wout")"
"$T" sleep --gpu gtx480 vecadd n=65536 --window 3000 --spread 0 --csv "$D/cut.csv" \
    --sample-csv "$D/cs.csv" >"$D/cout" 2>"$D/err" \
    || fail "short window: $(cat "$D/err")"
cyc=$(sed -n 's/^vecadd n=65536: window of the first \([0-9]*\) cycles.*/\1/p' "$D/cout")
[ -n "$cyc" ] && [ "$cyc" -ge 3000 ] && [ "$cyc" -lt 3100 ] || fail "cut line: $(head -1 "$D/cout")"
grep -q "KS over all" "$D/cout" || fail "a window reports its fit: $(cat "$D/cout")"
cmp -s "$D/cut.csv" "$D/direct.csv" && fail "a 3000-cycle window gave the whole run's rows"
# the cut window's histograms (its open periods spread as censored) read
# back with its cycles: the same choices to the bit
"$T" sleep --gpu gtx480 --idle-csv "$D/cs.csv" --cycles "$cyc" --csv "$D/cs2.csv" >"$D/stdout" \
    2>"$D/err" || fail "--sample-csv read back: $(cat "$D/err")"
cut -d, -f3- "$D/cut.csv" >"$D/d2"
cut -d, -f3- "$D/cs2.csv" >"$D/v2"
cmp -s "$D/d2" "$D/v2" || fail "a cut window's --sample-csv read back gives other rows"
# The spread sample (default): the first 3000 cycles, then 500 in every 2500
# to the run's end: the cycles recorded are 3000 plus a fifth of the rest,
# give or take a part of the last stretch's window (500 cycles); the rows
# are not the whole run's (the later periods are sampled and weighted).
"$T" sleep --gpu gtx480 vecadd n=65536 --window 3000 --csv "$D/spr.csv" >"$D/sout" 2>"$D/err" \
    || fail "spread sample: $(cat "$D/err")"
line=$(sed -n 's/^vecadd n=65536: spread sample, the first 3000 cycles and 500 in every 2500 after them to the run.s end (\([0-9]*\) of \([0-9]*\) cycles recorded.*/\1 \2/p' "$D/sout")
[ -n "$line" ] || fail "spread line: $(head -1 "$D/sout")"
awk -v r="${line% *}" -v c="${line#* }" -v w="$(head -1 "$D/wout" | sed 's/.*whole run, \([0-9]*\) cycles.*/\1/')" \
    'BEGIN { e = 3000 + (c - 3000) / 5; exit !(c == w && r >= e - 500 && r <= e + 500) }' \
    || fail "spread sample recorded $line (whole run: $(head -1 "$D/wout"))"
cmp -s "$D/spr.csv" "$D/direct.csv" && fail "a spread sample gave the whole run's rows to the bit"
# --jump where a jump sample would cost more than half the run (a short
# one): the spread sample, to the bit.
"$T" sleep --gpu gtx480 vecadd n=65536 --window 3000 --jump --csv "$D/jspr.csv" >"$D/jout" \
    2>"$D/err" || fail "jump on a short run: $(cat "$D/err")"
cmp -s "$D/spr.csv" "$D/jspr.csv" || fail "--jump on a short run is not the spread sample"
# GESUMMV 512 streams 2 MB: through the GTX 480's 768 KB L2 (2.7 turnovers),
# the frames its first 20000 cycles have not reached are filled later in the
# run (a write), and only the last turnover's tails die; through the V100's
# 6 MB (a third of a turnover) most frames stay dead. The window's L2 line
# saving is within 2 points of the whole run's on both (GTX 480 81.4%, V100
# 95.6%); counted dead, the GTX 480's window said 97.3%, and with every
# untouched frame the footprint could fill counted as filled, the V100's
# said 91.4%.
# The V100's whole run and jump sample also give the RF rows checked below
# (the same simulations: a structure's rows do not depend on the others
# asked for), its jump sample the default's (checked below).
for g in gtx480 v100; do
    st=l2 jump=--jump
    [ $g = v100 ] && st=l2,rf jump=
    "$T" sleep --gpu $g gesummv n=512 --structures l2 --spread 0 --csv "$D/gw.csv" >/dev/null 2>"$D/err" \
        || fail "gesummv window: $(cat "$D/err")"
    "$T" sleep --gpu $g gesummv n=512 --structures $st --whole --csv "$D/gwh.csv" >/dev/null \
        2>"$D/err" || fail "gesummv whole: $(cat "$D/err")"
    sh_=$(model_saving "$D/gwh.csv" line)
    near "$g gesummv L2 saving, window against whole run" "$(model_saving "$D/gw.csv" line)" \
        "$sh_" 0.02 0.7
    # The jump sample (--jump): windows started at later trips of the loop
    # over j, simulated far less than the run it stands for (under half),
    # recording no more than it simulates; its L2 line saving within 3
    # points of the whole run's.
    "$T" sleep --gpu $g gesummv n=512 --structures $st $jump --csv "$D/gj.csv" >"$D/gjout" \
        2>"$D/err" || fail "gesummv jump: $(cat "$D/err")"
    line=$(sed -n 's/.*jump sample.*: \([0-9]*\) cycles recorded, \([0-9]*\) simulated .*standing for \([0-9]*\) cycles$/\1 \2 \3/p' "$D/gjout")
    [ -n "$line" ] || fail "$g gesummv jump line: $(head -1 "$D/gjout")"
    echo "$line" | awk '{ exit !($1 <= $2 && $2 < 0.5 * $3) }' || fail "$g gesummv jump cycles: $line"
    near "$g gesummv L2 saving, jump against whole run" "$(model_saving "$D/gj.csv" line)" \
        "$sh_" 0.03
done
# The V100's GESUMMV 512: 2 blocks of 8 warps, whose registers (7 a warp)
# wait dead from each warp's end to its block's, the warps ending in pairs
# at 51%, 64%, 87% and 100% of the run under GTO. The jump sample (the
# default) stretches the tails of its launch end to whole blocks: its RF
# saving is within 4 points of the whole run's (77.8%; the simulation with
# its thresholds 75.5%); without the tails it was 68.4%, 9.4 points off.
# (The V100's default sample and whole run: the loop's last.)
grep -q "jump sample" "$D/gjout" || fail "v100 gesummv: not a jump sample: $(head -1 "$D/gjout")"
near "v100 gesummv RF saving, jump against whole run" "$(model_saving "$D/gj.csv" warp_reg)" \
    "$(model_saving "$D/gwh.csv" warp_reg)" 0.04 0.7
# matmul_tiled 256 on the GTX 480 (106105 cycles): the whole jump plan
# (20000 cycles, 8 windows of 6000, the launch's end) costs more than half
# the run, so the default simulates it through. --cap 0.25: the first
# window cut at a tenth of the run's warp instructions, then the windows
# that fit a fifth of it: at most a quarter of the warp instructions of the
# whole run (counted here from the whole run, by trapeze sim: the count
# sleep --whole prints, at half its cost), and the share printed is the one
# computed here, to the tenth.
"$T" sleep --gpu gtx480 matmul_tiled n=256 --structures l1d,rf --cap 0.25 --csv "$D/mtc.csv" \
    >"$D/mtc" 2>"$D/err" || fail "matmul_tiled --cap: $(cat "$D/err")"
"$T" sim --gpu gtx480 matmul_tiled n=256 >"$D/mtw" 2>"$D/err" \
    || fail "matmul_tiled whole run: $(cat "$D/err")"
mc=$(sed -n 's/.*jump sample.* simulated (\([0-9]*\) warp instructions, \([0-9.]*\)% of the run.s \([0-9]*\)).*/\1 \2 \3/p' "$D/mtc")
mw=$(sed -n 's/^matmul_tiled: [0-9]* cycles, \([0-9]*\) warp instructions,.*/\1/p' "$D/mtw")
echo "$mc $mw" | awk '{ exit !(NF == 4 && $1 > 0 && $1 <= 0.25 * $4 && $3 == $4 &&
                              sprintf("%.1f", 100 * $1 / $4) == $2) }' \
    || fail "matmul_tiled --cap 0.25: sample '$mc', whole run $mw warp instructions"
# Its three waves (90, 90 and 76 blocks) run at 15.0 (the second) and 19.8
# (the last, partial) warp instructions a cycle: the two windows that fit
# the cap, placed over the whole run, both fell in the second wave (the
# run taken 16% long, the L1D's saving 82.60% and the RF's 79.06%); one in
# the partial wave, weighted by its share of the work, and one in the rest:
# within a point of the whole run's 78.35% and 81.24% (sleep --whole).
near "matmul_tiled --cap 0.25 L1D saving against the whole run's" \
    "$(model_saving "$D/mtc.csv" line)" 0.7835 0.01
near "matmul_tiled --cap 0.25 RF saving against the whole run's" \
    "$(model_saving "$D/mtc.csv" warp_reg)" 0.8124 0.01
# kmeans on the V100 (11287 cycles): --cap 0.25 halves the windows twice
# (1000 + 500 cycles) after a first window of 1154, so no period open in
# any of them reaches SIM_JUMP_LONG (2048): unscaled, none was taken for
# dead and the L2's idle cycles were 0% dead (the whole run: 97.4%), its
# saving 74.75% and the L1D's 81.75% against the whole run's 97.31% and
# 95.21% (build/trapeze sleep --gpu v100 kmeans --whole). Scaled with the
# windows: the dead share found, the L1D within 3 points. The L2 was 5.4
# points low: every later window restarts on an empty L2 and refills it,
# where the run fetched its footprint (8440 lines, in 49152 frames) once, in
# its first 1654 cycles. Its later windows' fill-ended periods held to the
# footprint's lines the first window left (none: keep 0), the L2 is within
# 3 (94.58%).
"$T" sleep --gpu v100 kmeans --structures l1d,l2 --cap 0.25 --csv "$D/kc.csv" >"$D/kcout" 2>"$D/err" \
    || fail "v100 kmeans --cap: $(cat "$D/err")"
near "v100 kmeans --cap 0.25 L1D saving against the whole run's" "$(model_saving "$D/kc.csv" line)" \
    0.9521 0.03
off=$(awk -F, '$3 == "l2" && $4 == "line" && $6 == "model" && $7 == "off" { print $10 }' "$D/kc.csv")
near "v100 kmeans --cap 0.25 L2 dead (off) share" "$off" 0.974 0.25
near "v100 kmeans --cap 0.25 L2 saving against the whole run's" \
    "$(awk -F, '$3 == "l2" && $4 == "line" && $6 == "model" { print $11; exit }' "$D/kc.csv")" 0.9731 0.03
# matmul_tiled 256 on the V100 (one wave of 256 blocks, 16 trips, 27498
# cycles): --cap 0.25 plans one later window, and the L1 frames it and the
# first window left idle past 1024 cycles unused by any later window were
# taken for dead but for the share the job's footprint fills (6144 lines
# through 81920 frames: 0.037), where the L1s fill their frames trip by
# trip: 93% of the L1D's idle cycles dead against the whole run's 68%, the
# saving 96.62% against 91.32%. The frames filled from the lines through
# the L1s (the first window's touched frames grown with the run's work at
# its L1 read misses: 65024 lines over the frames the launch fills), within 3.
"$T" sleep --gpu v100 matmul_tiled n=256 --structures l1d --cap 0.25 --csv "$D/vm.csv" \
    >"$D/vmout" 2>"$D/err" || fail "v100 matmul_tiled --cap: $(cat "$D/err")"
"$T" sleep --gpu v100 matmul_tiled n=256 --structures l1d --whole --csv "$D/vmw.csv" \
    >"$D/vmwout" 2>"$D/err" || fail "v100 matmul_tiled --whole: $(cat "$D/err")"
near "v100 matmul_tiled --cap 0.25 L1D saving against the whole run's" \
    "$(model_saving "$D/vm.csv" line)" "$(model_saving "$D/vmw.csv" line)" 0.03 0.5
# copy of 2097152 floats, 2 a thread, on the GTX 480 (100203 cycles):
# --cap 0.25 plans no launch end, so no window sees which L2 frames the
# run leaves dead; the frames the later windows left idle past 2048 cycles
# and no later window used were all taken for dead (off 39.6% of the idle
# cycles, the saving 85.28%), where the footprint (131072 lines through
# 6144 frames) refills them throughout: the whole run's off share is 2.1%
# and its saving 77.35% (sleep --whole). Held live in the footprint's
# turnover share (0.977), within half a point.
"$T" sleep --gpu gtx480 copy n=2097152 per_thread=2 --structures l2 --cap 0.25 --csv "$D/cc.csv" \
    >"$D/ccout" 2>"$D/err" || fail "copy --cap: $(cat "$D/err")"
near "copy --cap 0.25 L2 saving against the whole run's" "$(model_saving "$D/cc.csv" line)" \
    0.7735 0.005
off=$(awk -F, '$3 == "l2" && $4 == "line" && $6 == "model" && $7 == "off" { print $10 }' "$D/cc.csv")
near "copy --cap 0.25 L2 dead (off) share" "$off" 0.021 0.02
# filter 512² on the V100 (3911 cycles): no jump sample fits a quarter of
# it, not even with the windows halved three times (a first window and one
# of 500 + 250 cycles cost more than the 20% a cap of 0.25 plans), so the
# run is simulated whole and its periods are the sample: the --whole CSV to
# the bit, and the output says so with what the least plan would cost.
# Under the sanitizers both runs are of filter 128² (1219 cycles, the least
# plan 785% of it: shorter still, the same path; the pair was a fifth of the
# group's CPU there), the plain build's the 512² described here.
fil="filter" fcyc=3911
case "$T" in *build-san*) fil="filter w=128 h=128" fcyc=1219 ;; esac
"$T" sleep --gpu v100 $fil --cap 0.25 --csv "$D/fc.csv" >"$D/fcout" 2>"$D/err" \
    || fail "v100 filter --cap: $(cat "$D/err")"
"$T" sleep --gpu v100 $fil --whole --csv "$D/fw.csv" >/dev/null 2>"$D/err" \
    || fail "v100 filter --whole: $(cat "$D/err")"
cmp -s "$D/fc.csv" "$D/fw.csv" || fail "v100 filter --cap 0.25: not the whole run's CSV"
sed -n "s/^filter[ wh=0-9]*: the whole run is the sample, $fcyc cycles .* would cost \\([0-9.]*\\)% of the run.* over the \\([0-9.]*\\)% --cap 0.25 plans.*/\\1 \\2/p" \
    "$D/fcout" | awk '{ ok = NF == 2 && $1 > $2 && $2 == 20 } END { exit !ok }' \
    || fail "v100 filter --cap 0.25: $(head -1 "$D/fcout")"
expect_failure "cap" "--cap: expected a fraction in (0, 1], got '0'" "$D/none.csv" \
    "$T" sleep --gpu gtx480 vecadd --cap 0 --csv "$D/none.csv"
expect_failure "cap and no-jump" "--cap is for a jump sample" "$D/none.csv" \
    "$T" sleep --gpu gtx480 vecadd --cap 0.25 --no-jump --csv "$D/none.csv"
expect_failure "both" "--jump and --no-jump" "$D/none.csv" \
    "$T" sleep --gpu v100 gesummv n=512 --jump --no-jump --csv "$D/none.csv"
expect_failure "warm without cap" "--warm is for the capped sample's later windows: with --cap" \
    "$D/none.csv" "$T" sleep --gpu gtx480 vecadd --warm --csv "$D/none.csv"
# --warm on vecadd 2^20 (45.5 waves): the capped sample's later windows
# warm, a block's life each, the run's length within 2% (83,907 cycles)
"$T" sleep --gpu gtx480 vecadd n=1048576 --structures rf --cap 0.25 --warm >"$D/vw" 2>"$D/err" \
    || fail "vecadd --warm: $(cat "$D/err")"
sed -n 's/^vecadd n=1048576: jump sample, .* then \([0-9]*\) warm windows .* of a block.s life, \([0-9]*\) cycles, .*standing for \([0-9]*\) cycles$/\1 \2 \3/p' \
    "$D/vw" | awk '{ ok = NF == 3 && $1 >= 1 && $2 > 1000 && $3 > 0.98 * 83907 && $3 < 1.02 * 83907 } END { exit !ok }' \
    || fail "vecadd --warm: $(head -1 "$D/vw")"
# SYRK 128 on the GTX 480: 64 blocks on 15 SMs, 4 or 5 each, so the SMs a
# block short idle dead for 1 - (64/15)/5 = 14.7% of the run after the
# window; with that tail its window's L1 line saving is within 2 points of
# the whole run's (80.3%); without it, 75.4%.
# (Its window and whole run give the RF rows below too: one simulation each.)
# Under the sanitizers the SYRK checks here and below run on SYRK 96 (79,800
# cycles against 397,849: its whole run and spread sample were half the
# group's CPU there), which passes the same bounds (L1 81.1% window, 80.6%
# whole; RF 87.3% spread and whole, 91.6% first window) through the same
# paths; the reasons given at 128 are the plain build's check.
syrk=128
case "$T" in *build-san*) syrk=96 ;; esac
"$T" sleep --gpu gtx480 syrk n=$syrk --structures l1d,rf --spread 0 --csv "$D/sw.csv" >/dev/null 2>"$D/err" \
    || fail "syrk window: $(cat "$D/err")"
"$T" sleep --gpu gtx480 syrk n=$syrk --structures l1d,rf --whole --csv "$D/swh.csv" >/dev/null \
    2>"$D/err" || fail "syrk whole: $(cat "$D/err")"
near "syrk L1 saving, window against whole run" "$(model_saving "$D/sw.csv" line)" \
    "$(model_saving "$D/swh.csv" line)" 0.02 0.7
# SYRK 128's registers on the GTX 480: each warp's column-strided loads take
# new lines every 32 iterations of k (about 100000 cycles), so the first
# 20000 cycles see the missing iterations five times too often and predict
# 93.2% saved where the whole run's periods give 88.4%. The spread sample
# (--no-jump: later windows over the whole run) is within 1 point of the
# whole run's; the first window alone (--spread 0) is more than 3 points off.
# (The whole run and the first window: the L1D check's runs above.)
"$T" sleep --gpu gtx480 syrk n=$syrk --structures rf --no-jump --csv "$D/r--no-jump.csv" >/dev/null \
    2>"$D/err" || fail "syrk rf --no-jump: $(cat "$D/err")"
rs=$(awk -F, '$4 == "warp_reg" && $6 == "model" { print $11; exit }' "$D/r--no-jump.csv")
rw=$(awk -F, '$4 == "warp_reg" && $6 == "model" { print $11; exit }' "$D/swh.csv")
r0=$(awk -F, '$4 == "warp_reg" && $6 == "model" { print $11; exit }' "$D/sw.csv")
awk -v s="$rs" -v w="$rw" -v f="$r0" 'BEGIN { exit !(w > 0.8 && s - w < 0.01 && w - s < 0.01 &&
                                               f - w > 0.03) }' \
    || fail "syrk rf saving: spread $rs, whole $rw, first window only $r0"
# Cell 32^3's L1D line frames on the V100: few long periods ending in a
# read, which a window catches the end of one time in five. Counted where
# they overlap a window (each long one once), the spread sample's saving is
# within 0.5 points of the whole run's (93.35%); counted only where they
# end in a window, five times over, it said 91.01%. It needs its size (two
# runs of 151,000 cycles, half the group's CPU time): a shorter run is
# mostly its first window. Under the sanitizers (CI's second pass, where
# they cost 8 times as much) the same two paths and bounds run on Cell
# 16^3 (56,000 cycles, a fifteenth of the CPU); the 0.5 points at 32^3 are
# the plain build's check.
cell=32x32x32
case "$T" in *build-san*) cell=16x16x16 ;; esac
for o in "" "--whole"; do
    "$T" sleep --gpu v100 cell size=$cell iters=4 --structures l1d $o --csv "$D/c$o.csv" \
        >/dev/null 2>"$D/err" || fail "cell l1d $o: $(cat "$D/err")"
done
cs=$(awk -F, '$4 == "line" && $6 == "model" { print $11; exit }' "$D/c.csv")
cw=$(awk -F, '$4 == "line" && $6 == "model" { print $11; exit }' "$D/c--whole.csv")
awk -v s="$cs" -v w="$cw" 'BEGIN { exit !(w > 0.9 && s - w < 0.005 && w - s < 0.005) }' \
    || fail "cell l1d saving: spread $cs, whole $cw"
# a stencil workload is a job too
"$T" sleep --gpu gtx480 hotspot size=64x64 iters=2 --structures rf >"$D/hout" 2>"$D/err" \
    || fail "stencil: $(cat "$D/err")"
grep -q "gtx480 hotspot rf/warp_reg: slumber" "$D/hout" || fail "stencil output: $(head -3 "$D/hout")"

# --- bad input: one message, no CSV
expect_failure "window and whole" "--window or --spread and --whole: one or the other" "$D/x.csv" "$T" sleep \
    --gpu gtx480 vecadd --window 10 --whole --csv "$D/x.csv"
expect_failure "bad stencil setting" "'depth=3' is not size=AxB" "$D/x.csv" "$T" sleep \
    --gpu gtx480 hotspot depth=3 --csv "$D/x.csv"
O="$D/bad.csv"
expect_failure "no gpu" "--gpu is required" "$O" "$T" sleep --idle-csv "$D/idle.csv" --csv "$O"
expect_failure "no input" "a built-in KERNEL to simulate, or --idle-csv FILE" "$O" "$T" sleep \
    --gpu gtx480 --csv "$O"
expect_failure "no kernel" "not a built-in kernel (trapeze sim --list); workload nosuch: no such preset" "$O" "$T" sleep --gpu gtx480 nosuch \
    --csv "$O"
expect_failure "settings with csv" "settings only for a KERNEL simulated here" "$O" "$T" sleep \
    --gpu gtx480 --idle-csv "$D/idle.csv" k1 n=5 --csv "$O"
expect_failure "structure" "'l3' is not l1d, l2 or rf" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/idle.csv" --structures l1d,l3 --csv "$O"
expect_failure "budget" "--max-penalty: expected a fraction" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/idle.csv" --max-penalty 2 --csv "$O"
printf '%s\ngtx480,k1,l1d,line,10,10,read,1\ngtx480,k1,l1d,line,11,11,fetch,1\n' "$H" >"$D/badrow.csv"
expect_failure "bad row" "$D/badrow.csv:3: field next_access" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/badrow.csv" --csv "$O"
expect_failure "kernel" "no histogram of kernel nope" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/idle.csv" nope --csv "$O"
expect_failure "gpu preset" "no such preset" "$O" "$T" sleep --gpu gtx48 \
    --idle-csv "$D/idle.csv" --csv "$O"
expect_failure "missing file" "$D/none.csv" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/none.csv" --csv "$O"
expect_failure "misspelt" "did you mean '--max-penalty'?" "$O" "$T" sleep --gpu gtx480 \
    --idle-csv "$D/idle.csv" --max-penality 0.1 --csv "$O"
expect_failure "repeated" "--gpu given twice" "$O" "$T" sleep --gpu gtx480 --gpu v100 \
    --idle-csv "$D/idle.csv" --csv "$O"
# The default V100 profile's circuit-model transitions (E_tr 35.44 cycles of
# the L1D's saved leakage, printed as E/dP) make 5-cycle periods cost more
# asleep than awake: 1000 of them and 100 of 1000 cycles; the time-out goes
# to 2 (5 > 2 + 3 fails), 100 x 0.772 x (995 - 35.44) / 106100 = 69.82%. With
# the seed profile (no transition energy) it sleeps at once: 74.00%.
cat >"$D/v.csv" <<CSV
$H
v100,k,l1d,line,5,5,read,1000
v100,k,l1d,line,1000,1000,read,100
CSV
"$T" sleep --gpu v100 --idle-csv "$D/v.csv" --csv "$D/vo.csv" >"$D/vout" 2>"$D/err" || fail "v100: $(cat "$D/err")"
grep -q '^  mode *E/dP *T_be' "$D/vout" || fail "no E/dP column: $(cat "$D/vout")"
grep -q '^  sleep *35\.44 *37\.44 *2 *2 ' "$D/vout" || fail "v100 l1d sleep row: $(grep '^  sleep' "$D/vout")"
grep -q 'leakage saved: model 69\.82%' "$D/vout" || fail "v100 saving: $(grep saved "$D/vout")"
"$T" sleep --gpu v100 --power v100-seed --idle-csv "$D/v.csv" >"$D/vout" 2>"$D/err" || fail "v100 seed: $(cat "$D/err")"
grep -q '^  sleep *0\.00 *2\.00 *2 *0 ' "$D/vout" || fail "v100 seed l1d sleep row: $(grep '^  sleep' "$D/vout")"
grep -q 'leakage saved: model 74\.00%' "$D/vout" || fail "v100 seed saving: $(grep saved "$D/vout")"

# the help names the search the code runs (the NLopt algorithm model/sleep_opt.c
# asks of the generic optimizer)
SRC="$(dirname "$0")/.."
alg=$(sed -n 's/.*\.algorithm = TRAPEZE_MINIMIZE_\([A-Z]*\);.*/\1/p' "$SRC/model/sleep_opt.c")
[ -n "$alg" ] || fail "no NLopt algorithm found in model/sleep_opt.c"
"$T" sleep --help | grep -q "NLopt $alg" || fail "sleep --help does not name NLopt $alg"
for c in calibrate validate; do
    "$T" $c --help | grep -q -- "--model sleep" || fail "$c --help does not list --model sleep"
done
# histograms of another GPU: refused by line unless --any-gpu; --cycles
# below the longest period (k2's l2 bucket starts at 1025) refused
expect_failure "other gpu" "$D/idle.csv:2: field gpu: histograms of 'gtx480', not of the GPU asked for ('v100'); --any-gpu uses them anyway" \
    "$O" "$T" sleep --gpu v100 --idle-csv "$D/idle.csv" --csv "$O"
"$T" sleep --gpu v100 --idle-csv "$D/idle.csv" --any-gpu k1 --csv "$O" >/dev/null 2>"$D/err" \
    || fail "--any-gpu: $(cat "$D/err")"
[ "$(grep -c '^gtx480,k1,' "$O")" -gt 0 ] || fail "--any-gpu: no gtx480 rows"
expect_failure "sample-csv of a CSV" "--sample-csv writes a KERNEL's sample" "$O" "$T" sleep \
    --gpu gtx480 --idle-csv "$D/idle.csv" --sample-csv "$O"
expect_failure "any-gpu alone" "--any-gpu is for an --idle-csv" "$O" "$T" sleep --gpu gtx480 \
    vecadd --any-gpu --csv "$O"
expect_failure "cycles 1" "--cycles 1: fewer than the longest idle period of gtx480 k1 l1d/line (at least 10 cycles)" \
    "$O" "$T" sleep --gpu gtx480 --idle-csv "$D/idle.csv" --cycles 1 --csv "$O"
expect_failure "cycles 1024" "--cycles 1024: fewer than the longest idle period of gtx480 k2 l2/slice (at least 1025 cycles)" \
    "$O" "$T" sleep --gpu gtx480 --idle-csv "$D/idle.csv" --cycles 1024 --csv "$O"
"$T" sleep --gpu gtx480 --idle-csv "$D/idle.csv" --cycles 1025 --csv "$O" >/dev/null 2>"$D/err" \
    || fail "--cycles 1025: $(cat "$D/err")"
# the power description a GPU gets without --power: an Accel-Sim folder
# (SM86_RTX3070) reads its preset's, data/power/rtx3070.ini (scaled from the
# V100's: every break-even in seconds the V100's, so at the same 1132 MHz the
# RF deep T_be is 13 + 2.519e-10 J x 1.132e9 / (0.03171 W x 0.58) = 28.50)
A3070=tests/configs/accelsim/SM86_RTX3070
"$T" sleep --gpu $A3070 vecadd n=4096 --structures rf --spread 0 --csv "$D/r1.csv" >/dev/null \
    2>"$D/err" || fail "rtx3070 default power: $(cat "$D/err")"
"$T" sleep --gpu $A3070 --power rtx3070 vecadd n=4096 --structures rf --spread 0 \
    --csv "$D/r2.csv" >/dev/null 2>"$D/err" || fail "--power rtx3070: $(cat "$D/err")"
cmp -s "$D/r1.csv" "$D/r2.csv" || fail "SM86_RTX3070 without --power is not --power rtx3070"
awk -F, '$6 == "model" && $7 == "deep" { be = $9 } END { exit !(be > 28.49 && be < 28.51) }' \
    "$D/r1.csv" || fail "rtx3070 RF deep break-even: $(grep ',model,deep,' "$D/r1.csv")"
for p in a100 h100 rtx3070; do
    "$T" sim --gpu v100 --power $p vecadd n=4096 >"$D/out" 2>"$D/err" || fail "--power $p: $(cat "$D/err")"
done
finish cli_sleep.sh
