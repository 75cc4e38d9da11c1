#!/bin/sh
# trapeze simd: the width-and-depth model's table and pick on a seed-like
# WPU (4 SMs x 8 warps: T = 256 threads per SM, so the grid's thread counts
# are 64, 128 and 256), the pick the table's minimum, --verify's ratio the
# printed best over the printed pick's cycles (never above 1), the same
# decision from the kernel's exported trace, the JSON document's figures as
# printed, and bad input one message naming the field.
# Usage: sh tests/cli_simd.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config,data/dws/meng-wpu.config
K="filter w=256 h=256"

# shellcheck disable=SC2086
"$T" simd --gpu $G --verify $K --json "$D/v.json" >"$D/v.txt" 2>"$D/v.err" \
    || fail "simd --verify: $(cat "$D/v.err")"
# the table: 12 organizations, W x D from 32x2 (64 threads) to 4x64 (256)
[ "$(grep -c '^ *[0-9]*x[0-9]* ' "$D/v.txt")" = 12 ] || fail "not 12 rows: $(cat "$D/v.txt")"
[ "$(awk '$1 ~ /x/ { print $1 "=" $2 }' "$D/v.txt" | tr '\n' ' ')" = \
    "32x2=64 32x4=128 32x8=256 16x4=64 16x8=128 16x16=256 8x8=64 8x16=128 8x32=256 4x16=64 4x32=128 4x64=256 " ] \
    || fail "grid: $(awk '$1 ~ /x/ { print $1 }' "$D/v.txt" | tr '\n' ' ')"
# the pick: the row marked, the line printed, the least predicted cycles
min=$(awk '$1 ~ /x/ && (m == "" || $3 < m) { m = $3; o = $1 } END { print o }' "$D/v.txt")
marked=$(awk '/<- pick/ { print $1 }' "$D/v.txt")
picked=$(sed -n 's/^pick: \(.*\)$/\1/p' "$D/v.txt")
[ -n "$min" ] && [ "$min" = "$marked" ] && [ "$min" = "$picked" ] \
    || fail "pick: least predicted $min, marked $marked, printed $picked"
# --verify: best = least simulated; ratio = best / pick's cycles <= 1
awk -v p="$picked" '
    $1 ~ /x/ { if (b == "" || $4 < b) { b = $4; bo = $1 } if ($1 == p) pc = $4 }
    /^verified: best / { vo = $3; sub(",", "", vo); vc = $4
                         for (i = 1; i <= NF; i++) if ($i == "of") r = $(i - 1) }
    END {
        if (vo != bo || vc != b) { print "best " vo " " vc " is not the least " bo " " b; exit 1 }
        want = sprintf("%.4f", b / pc)
        if (r != want) { print "ratio " r ", printed cycles give " want; exit 1 }
        if (r + 0 > 1) { print "ratio " r " above 1"; exit 1 }
    }' "$D/v.txt" >"$D/chk" || fail "verify: $(cat "$D/chk")"
grep -q '^verified: best [0-9]*x[0-9]*, [0-9]* cycles; the pick reaches [01]\.[0-9]* of it' \
    "$D/v.txt" || fail "no verified line: $(cat "$D/v.txt")"
# the samples: 8 and 2 warps per SM, a share of one run's warp instructions
grep -q '^samples: 8 and 2 warps per SM at width 32, 4000 warp instructions each' "$D/v.txt" \
    || fail "samples line: $(grep samples "$D/v.txt")"

# the JSON document: its keys, and its figures as the text prints them
python3 - "$D/v.json" "$picked" "$D/v.txt" >"$D/j" 2>&1 <<'PY' || fail "JSON: $(cat "$D/j")"
import json, sys
d = json.load(open(sys.argv[1]))
keys = ["command", "kernel", "sms", "warps_per_sm", "schedulers", "window_warp_insts",
        "samples_warp_insts", "run_warp_insts", "samples_share_pct", "organizations", "pick",
        "verify"]
assert list(d) == keys, list(d)
assert d["command"] == "simd" and (d["sms"], d["warps_per_sm"]) == (4, 8), d
orgs = d["organizations"]
least = min(range(12), key=lambda i: orgs[i]["pred_cycles"])
assert "%dx%d" % (orgs[least]["width"], orgs[least]["depth"]) == sys.argv[2], least
assert "%dx%d" % (d["pick"]["width"], d["pick"]["depth"]) == sys.argv[2], d["pick"]
v = d["verify"]
best = min(o["sim_cycles"] for o in orgs)
pick = [o for o in orgs if (o["width"], o["depth"]) == (d["pick"]["width"], d["pick"]["depth"])][0]
assert v["best_cycles"] == best and abs(v["pick_ratio"] - best / pick["sim_cycles"]) < 1e-12, v
assert v["pick_ratio"] <= 1
share = 100.0 * d["samples_warp_insts"] / d["run_warp_insts"]
assert abs(d["samples_share_pct"] - share) < 1e-9
text = open(sys.argv[3]).read()
assert "%.2f%% of one run's %d" % (share, d["run_warp_insts"]) in text
PY

# the same launch from its exported trace: the same decision, in the same bytes
"$T" trace export --gpu $G $K --out "$D/tr" >/dev/null 2>"$D/err" || fail "export: $(cat "$D/err")"
# shellcheck disable=SC2086
"$T" simd --gpu $G $K >"$D/p.txt" 2>"$D/p.err" || fail "simd: $(cat "$D/p.err")"
"$T" simd --gpu $G --trace "$D/tr" >"$D/t.txt" 2>"$D/t.err" || fail "simd --trace: $(cat "$D/t.err")"
[ "$(sed 1d "$D/p.txt")" = "$(sed 1d "$D/t.txt")" ] \
    || fail "trace and built-in differ: $(diff "$D/p.txt" "$D/t.txt")"
# without --verify: the same predictions as with it, no simulated column
[ "$(awk '$1 ~ /x/ { print $1, $3 }' "$D/p.txt")" = "$(awk '$1 ~ /x/ { print $1, $3 }' "$D/v.txt")" ] \
    || fail "--verify changed the predictions"
grep -q simulated "$D/p.txt" && fail "simulated column without --verify"

# a list of configs from two folders: -inter_config_file is read beside the
# file that names it (data/fidelity/), not beside the list's first file
"$T" simd --gpu data/gpus/gtx480.config,data/fidelity/SM2_GTX480.gpgpusim.config vecadd n=4096 \
    >"$D/l.txt" 2>"$D/l.err" || fail "config list: $(cat "$D/l.err")"
grep -q '^pick: 32x' "$D/l.txt" || fail "config list: no pick"

# bad input: one message naming the field, exit 2 for the command line
MAX_ERR_LINES=2
expect_failure "window 0" "--window 0: expected a whole number" "" "$T" simd --gpu $G --window 0 filter
"$T" simd --gpu $G --window 0 filter >/dev/null 2>&1
[ $? = 2 ] || fail "--window 0: exit status not 2"
expect_failure "no gpu" "--gpu GPU is required" "" "$T" simd filter
expect_failure "both" "give a KERNEL or --trace, not both" "" "$T" simd --gpu $G --trace "$D/tr" filter
expect_failure "unknown option" "--widht" "" "$T" simd --gpu $G --widht 4 filter
expect_failure "bad kernel" "no built-in kernel 'filtre'" "$D/x.json" \
    "$T" simd --gpu $G filtre --json "$D/x.json"
expect_failure "bad param" "parameter w=banana: expected a whole number" "" "$T" simd --gpu $G filter w=banana
"$T" simd --help | grep -q -- '--verify' || fail "--help lacks --verify"
finish cli_simd
