#!/bin/sh
# --json FILE on every command (docs/json.md): each document parses, every
# key it holds is documented, and the values agree with the text printed
# beside them (ghostzone's best sync and h, validate's rows, group's
# choice); `--json -` gives the document alone on stdout; a failing run
# writes no document and no table header.
# Usage: sh tests/cli_json.sh build/trapeze
MAX_ERR_LINES=2
. "$(dirname "$0")/lib/cli.sh"

# keys.py FILE...: parses each (fails on bad JSON) and prints every key once
cat >"$D/keys.py" <<'PY'
import json, sys
def keys(v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            keys(x, out)
    elif isinstance(v, list):
        for x in v:
            keys(x, out)
    return out
seen = set()
for f in sys.argv[1:]:
    keys(json.load(open(f)), seen)
print("\n".join(sorted(seen)))
PY
# get.py FILE EXPR: a value of the document, as Python prints it
cat >"$D/get.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"d": d}))
PY
get() { python3 "$D/get.py" "$@"; }

run() { # NAME CMD...: runs CMD with --json $D/NAME.json, text into $D/NAME.txt
    name=$1
    shift
    "$@" --json "$D/$name.json" >"$D/$name.txt" 2>"$D/$name.err" \
        || fail "$name: exit status $?: $(tail -2 "$D/$name.err")"
    python3 -m json.tool "$D/$name.json" >/dev/null 2>&1 || fail "$name: not JSON"
    [ "$(get "$D/$name.json" 'd["command"]')" = "$2" ] || [ "$name" = "cal" ] \
        || fail "$name: command"
}

W=$(pwd)
case $T in /*) ;; *) T="$W/$T" ;; esac
cd "$D" || exit 1
run gz "$T" ghostzone --gpu gtx480 hotspot
run gzh "$T" ghostzone --height 2 poisson
# the shipped Tiny1D with blocks of 32, not 64: the documents are checked
# against the text beside them, which holds at any block, and the simulated
# samples and candidates of heights up to 31 cost 36 CPU s with ASan and UBSan
# (block 32 still verifies a searched candidate beside the model's best)
sed 's/^block = 64$/block = 32/' "$W/data/validation/gz-energy/tiny1d.ini" >"$D/tiny.ini"
run gzv "$T" ghostzone --gpu gtx480 --verify 2 --stages 1 "$D/tiny.ini"
run gzb "$T" ghostzone --gpu gtx480 --optimize-block hotspot
sed 's/^size = 1024x1024/size = 96x96/' "$W/data/workloads/box9.ini" >"$D/box.ini"
run gzg "$T" ghostzone --gpu gtx480 --group "$D/box.ini"
run gze "$T" ghostzone --gpu gtx480 --objective energy "$D/tiny.ini"
run sim "$T" sim --gpu gtx480 vecadd n=4096
run cache "$T" cache --gpu choo-baseline atax n=256 --window 2000
run simw "$T" sim --gpu gtx480 --workload hotspot --size 64x64 --iterations 4
run trx "$T" trace export --gpu gtx480 --workload hotspot --size 64x64 --iterations 2 --out "$D/tr"
run trc "$T" trace check "$D/tr"
run tro "$T" trace opcodes
# every row of the table is in the document, in order, with its class
[ "$(get "$D/tro.json" 'len(d["opcodes"])')" -eq "$(($(wc -l <"$D/tro.txt") - 2))" ] \
    || fail "trace opcodes: rows in the document and the table differ"
[ "$(get "$D/tro.json" 'd["opcodes"][0]["opcode"] + " " + d["opcodes"][0]["class"]')" = \
  "$(sed -n 2p "$D/tro.txt" | awk '{print $1 " " $2}')" ] || fail "trace opcodes: first row"
cp "$W/data/calibrations/gtx480-samples.csv" "$D/cs.csv"
run cal "$T" calibrate --gpu gtx480 --samples "$D/cs.csv" --out "$D/c.ini"
cp "$W/data/validation/gtx480-sizes-main-sweep.csv" "$D/sweep.csv"   # a log is rewritten
run val "$T" validate --gpu gtx480 --calibration "$W/data/calibrations/gtx480.ini" \
    --sweep-stages 1 --sizes 1 --sweep-log "$D/sweep.csv" \
    --logged-only hotspot poisson
run vsl "$T" validate --model sleep --gpu gtx480 --window 3000 "matmul n=32"
run csl "$T" calibrate --model sleep --gpu gtx480 --window 3000 "vecadd n=65536" \
    --samples "$D/sl.csv" --out "$D/slc.csv"
run vgr "$T" validate --model group --gpu gtx480 --samples "$D/gs.csv" matmul,n=96,block=16
run cgr "$T" calibrate --model group --gpu gtx480 --samples "$D/gs.csv" --out "$D/g.ini" \
    matmul,n=96,block=16
run grp "$T" group --gpu gtx480 syrk n=64
run loc "$T" locality --gpu gtx480 matmul --quiet
run slp "$T" sleep --gpu gtx480 vecadd n=4096
run smd "$T" simd --gpu gtx480 --verify filter w=64 h=64
sed -n '/^cat >"$D\/run.csv"/,/^CSV$/p' "$W/tests/cli_import.sh" | sed '1d;$d' >"$D/run.csv"
run imp "$T" import ncu "$D/run.csv" --gpu gtx480 --workload hotspot --sync relaunch --h 2 \
    --kernel calculate_temp --skip 1 --relaunch-gap 3500 --samples "$D/s.csv"

# every key any document holds is in docs/json.md, as `key`
python3 "$D/keys.py" "$D"/*.json >"$D/keys" || fail "a document does not parse"
[ "$(wc -l <"$D/keys")" -gt 150 ] || fail "too few keys seen: $(wc -l <"$D/keys")"
while read -r k; do
    grep -qF "\`$k\`" "$W/docs/json.md" || fail "key '$k' not in docs/json.md"
done <"$D/keys"

# ghostzone: the headline's sync and h are the text's "best:" line; the rows the table's
best=$(sed -n 's/^HotSpot *best: \([a-z]*\) h=\([0-9]*\) .*/\1 \2/p' "$D/gz.txt")
[ "$best" = "fence 2" ] || fail "ghostzone text best: '$best'"
[ "$(get "$D/gz.json" 'd["workloads"][0]["best"]["sync"], d["workloads"][0]["best"]["h"]')" \
    = "('fence', 2)" ] || fail "ghostzone JSON best differs from '$best'"
[ "$(get "$D/gz.json" '[r["h_argmin"] for r in d["workloads"][0]["rows"]]')" = "[2, 2]" ] \
    || fail "ghostzone rows' h_argmin"
[ "$(get "$D/gz.json" 'round(d["workloads"][0]["rows"][1]["cpl_cycles"], 1)')" = 640629.4 ] \
    || fail "fence CPL"
# the margin and its uncertainty as the text rounds them: +7.26% +- 12.14%
[ "$(get "$D/gz.json" '"%+.2f %.2f" % (d["workloads"][0]["runner_up"]["margin_pct"], d["workloads"][0]["runner_up"]["margin_sd_pct"])')" \
    = "+7.26 12.14" ] || fail "runner-up margin"
grep -q 'runner-up fence h=1: +7.26% +- 12.14%' "$D/gz.txt" || fail "text margin"
# paper mode has no standard errors: a null uncertainty, never 0
[ "$(get "$D/gzh.json" 'd["workloads"][0]["rows"][0]["h"], "best" in d["workloads"][0]')" \
    = "(2, False)" ] || fail "--height 2 document"
v='d["workloads"][0]["verify"]'
[ "$(get "$D/gzv.json" "$v[\"simulated\"] == len($v[\"candidates\"])")" = True ] \
    || fail "--verify: simulated is the candidates' count"
grep -q ' verify: .*(searched)$' "$D/gzv.txt" || fail "--verify: no searched candidate at block 32"
n=$(grep -c ' verify: ' "$D/gzv.txt")
[ "$(get "$D/gzv.json" "len($v[\"candidates\"])")" = "$n" ] || fail "--verify: $n printed"
pick=$(sed -n 's/^Tiny1D *verified: \([a-z]*\) h=\([0-9]*\),.*/\1 \2/p' "$D/gzv.txt")
[ "$(get "$D/gzv.json" "'%s %d' % ($v['verified']['sync'], $v['verified']['h'])")" = "$pick" ] \
    || fail "--verify: the verified pick differs from '$pick'"

g='d["workloads"][0]["group"]["best"]'
pick=$(sed -n 's/^Box9 *best with grouping: \([a-z]*\) h=\([0-9]*\)[ ,].*/\1 \2/p' "$D/gzg.txt")
[ "$(get "$D/gzg.json" "'%s %d' % ($g['sync'], $g['h'])")" = "$pick" ] \
    || fail "--group: the best differs from '$pick'"
g='d["workloads"][0]["energy"]["chosen"]'
pick=$(sed -n 's/^Tiny1D *chosen (energy): \([a-z]*\) h=\([0-9]*\)$/\1 \2/p' "$D/gze.txt")
[ "$(get "$D/gze.json" "'%s %d' % ($g['sync'], $g['h'])")" = "$pick" ] \
    || fail "--objective: the pick differs from '$pick'"

# validate: one JSON row per text row, with its h and sync
[ "$(get "$D/val.json" 'len(d["sizes"])')" = 2 ] || fail "validate: two rows"
awk 'NR > 1 { print $1, $7, $8 }' "$D/val.txt" >"$D/val.picks"
get "$D/val.json" '"\n".join("%s %s %d" % (r["workload"], r["sync_model"], r["h_model"]) for r in d["sizes"])' \
    >"$D/val.jpicks"
cmp -s "$D/val.picks" "$D/val.jpicks" || fail "validate picks: $(cat "$D/val.picks") / $(cat "$D/val.jpicks")"
# the sleep targets: the text's MET/MISSED as booleans
grep -o 'MET$\|MISSED$' "$D/vsl.txt" | sed 's/MISSED/False/;s/MET/True/' >"$D/vsl.met"
get "$D/vsl.json" '"\n".join(str(t["met"]) for t in d["targets"])' >"$D/vsl.jmet"
cmp -s "$D/vsl.met" "$D/vsl.jmet" || fail "sleep targets: $(cat "$D/vsl.met") / $(cat "$D/vsl.jmet")"
[ "$(get "$D/vgr.json" 'len(d["targets"]), d["launches"][0]["policies"][2]["pred_cycles"]')" \
    = "(6, None)" ] || fail "group validation: targets, chen not predicted"
# group: the optimized choice and the model's pick as printed
ch=$(get "$D/grp.json" 'd["optimized"]["choice"]')
grep -q "^optimized: .*$ch\|^optimized: tiles" "$D/grp.txt" || fail "group choice $ch"
grep -q "simulation $(get "$D/grp.json" '"changed" if d["simulation_changed"] else "did not change"')" \
    "$D/grp.txt" || fail "group: simulation_changed"
# import: the hand-computed row of tests/cli_import.sh
[ "$(get "$D/imp.json" 'd["cycles"], d["cpl_cycles"], d["rows_written"]')" = "(257500, 64375, 1)" ] \
    || fail "import figures"
# simd: the pick and the verified ratio as printed
grep -q "^pick: $(get "$D/smd.json" '"%dx%d" % (d["pick"]["width"], d["pick"]["depth"])')$" "$D/smd.txt" \
    || fail "simd: the pick differs from the text's"
grep -q "the pick reaches $(get "$D/smd.json" '"%.4f" % d["verify"]["pick_ratio"]') of it" "$D/smd.txt" \
    || fail "simd: the ratio differs from the text's"
# sim: the launches add up to the text's
[ "$(get "$D/sim.json" 'd["launches"][0]["warp_instructions"]')" = 896 ] || fail "vecadd warp instructions"

# --json - (and --json=-): the document alone on stdout, the text on stderr
"$T" ghostzone --gpu gtx480 hotspot --json=- >"$D/std.json" 2>"$D/std.err" || fail "--json -"
cmp -s "$D/std.json" "$D/gz.json" || fail "--json - differs from --json FILE"
grep -q 'HotSpot *best: fence h=2' "$D/std.err" || fail "--json -: the text not on stderr"
"$T" sim --gpu gtx480 vecadd n=4096 --json /dev/stdout 2>/dev/null | python3 -m json.tool \
    >/dev/null || fail "--json /dev/stdout"
# same input, same bytes
"$T" ghostzone --gpu gtx480 hotspot --json "$D/gz2.json" >/dev/null 2>&1
cmp -s "$D/gz.json" "$D/gz2.json" || fail "not deterministic"

# errors: a usage error exits 2, a folder exits 1, a failed run leaves no document
"$T" ghostzone --json >/dev/null 2>&1
[ $? = 2 ] || fail "--json without a value: exit 2"
expect_failure "json folder" "is a folder" "" "$T" ghostzone hotspot --json "$D"
printf '[workload]\ndimensions = 1\nsize = 64\nblock = 8\nheight = 9\n' >"$D/tall.ini"
"$T" ghostzone "$D/tall.ini" --json "$D/bad.json" >"$D/bad.out" 2>/dev/null
[ $? = 1 ] || fail "bad spec: exit 1"
[ ! -e "$D/bad.json" ] || fail "bad spec: a document was written"
[ ! -s "$D/bad.out" ] || fail "bad spec: stdout holds '$(cat "$D/bad.out")'"
# headers only once work has started: group with a bad setting prints nothing on stdout
"$T" group --gpu gtx480 syrk n=7 block=5 >"$D/gbad.out" 2>/dev/null
[ $? = 1 ] || fail "group bad setting: exit 1"
[ ! -s "$D/gbad.out" ] || fail "group: stdout before the error: $(cat "$D/gbad.out")"
# every command's --help names --json
for c in ghostzone sim calibrate validate locality group sleep simd "import ncu" "trace" cache; do
    $T $c --help 2>/dev/null | grep -q -- '--json' || fail "$c --help lacks --json"
done
"$T" validate --model group --help | grep -q -- '--json' || fail "validate --model group --help"
"$T" validate --model sleep --help | grep -q -- '--json' || fail "validate --model sleep --help"
finish cli_json
