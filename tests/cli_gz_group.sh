#!/bin/sh
# End-to-end tests of `trapeze ghostzone --group` (h and the TB grouping
# chosen together, sampler/group/gz_group.c) on Box9 at 96 x 96 on the GTX 480:
# the best relaunch height is the lowest CPL of the rows printed, the
# grouping file holds that height's tiles (96 / (16 - 2h) per side) and the
# simulator runs it at that height and refuses it at another.
# Usage: sh tests/cli_gz_group.sh build/trapeze
MAX_ERR_LINES=2   # the message and a "(try --help)" hint
. "$(dirname "$0")/lib/cli.sh"

sed 's/^size = 1024x1024/size = 96x96/' data/workloads/box9.ini >"$D/box.ini"
"$T" ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini \
    --group --group-all-heights --group-out "$D/g.csv" "$D/box.ini" >"$D/out" 2>"$D/err" \
    || fail "main job: $(cat "$D/err")"
[ "$(grep -c ' group: relaunch h=' "$D/out")" -eq 7 ] || fail "7 heights: $(cat "$D/out")"
# a row's CPL: rr's when the row says "rr kept", else the grouping's
want=$(awk '/ group: relaunch h=/ { h = $4; sub("h=", "", h); rr = $7; g = "";
        for (i = 8; i < NF; i++) if ($i == "CPL") { g = $(i + 1); break }
        c = ($0 ~ /rr kept/) ? rr : g
        if (b == "" || c + 0 < b + 0) { b = c; bh = h } } END { print bh }' "$D/out")
grep -q "best relaunch h=$want " "$D/out" || grep -q "best with grouping: relaunch h=$want," "$D/out" \
    || fail "best relaunch h=$want: $(cat "$D/out")"
tiles=$(( (96 + 16 - 2 * want - 1) / (16 - 2 * want) ))
[ "$(head -1 "$D/g.csv")" = "tb,group,order" ] || fail "grouping header"
[ "$(wc -l <"$D/g.csv")" -eq $((tiles * tiles + 1)) ] || fail "grouping rows: $(wc -l <"$D/g.csv") for $tiles x $tiles tiles"
grep -q "wrote $D/g.csv ($((tiles * tiles)) TBs: relaunch h=$want)" "$D/err" || fail "wrote: $(cat "$D/err")"
"$T" sim --gpu data/gpus/gtx480.config --workload "$D/box.ini" --h "$want" --iterations "$want" \
    --grouping "$D/g.csv" >"$D/sim" 2>&1 || fail "sim runs the grouping: $(cat "$D/sim")"
other=$((want == 1 ? 2 : want - 1))
"$T" sim --gpu data/gpus/gtx480.config --workload "$D/box.ini" --h "$other" --iterations "$other" \
    --grouping "$D/g.csv" >"$D/sim" 2>&1 && fail "another height's tiles accepted"
grep -q "$D/g.csv" "$D/sim" || fail "names the grouping file: $(cat "$D/sim")"
# skipping heights by the bound does not change the decision
"$T" ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini \
    --group "$D/box.ini" >"$D/pruned" 2>&1 || fail "pruned: $(cat "$D/pruned")"
[ "$(grep 'best with grouping' "$D/pruned")" = "$(grep 'best with grouping' "$D/out")" ] \
    || fail "pruned decision differs: $(cat "$D/pruned")"
"$T" ghostzone --help | grep -q -- "--group-out FILE" || fail "--help"

expect_failure "group with height" "--group chooses h itself" "$D/none" \
    "$T" ghostzone --group --height 2 "$D/box.ini"
expect_failure "bad group calibration" "$D/nope.ini" "$D/g2.csv" \
    "$T" ghostzone --gpu data/gpus/gtx480.config --calibration data/calibrations/gtx480.ini \
    --group-out "$D/g2.csv" --group-calibration "$D/nope.ini" "$D/box.ini"
finish cli_gz_group
