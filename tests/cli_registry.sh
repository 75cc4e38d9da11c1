#!/bin/sh
# The names the command line derives from the library's tables, checked
# against each other (each table is in the code once: the TB dispatch
# policies in trapeze.h, the models of calibrate/validate --model in
# cli/calib_models.c):
#  - the models the --model error lists are those the --model help line
#    names, each answering `--model NAME --help` for both commands, and
#    the same in calibrate and validate;
#  - the TB dispatch policies trapeze sim --options lists are those an
#    unknown -trapeze_tb_dispatch lists, each one is accepted, and the
#    grouping model's help names those it compares.
# Usage: sh tests/cli_registry.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"

# the models, from the error
"$T" calibrate --model nope >/dev/null 2>"$D/err"
models=$(sed -n "s/.*--model nope: expected //p" "$D/err" | sed 's/,//g; s/ or / /')
[ "$models" = "ghostzone group sleep cache" ] || fail "models in the error: '$models'"
"$T" validate --model nope >/dev/null 2>"$D/verr"
[ "$(sed 's/validate/calibrate/' "$D/verr")" = "$(cat "$D/err")" ] || fail "validate's error differs"
"$T" calibrate --help >"$D/help"
awk '/^  --model MODEL/ { on = 1 } on && /^  --samples/ { exit } on' "$D/help" >"$D/model_help"
for m in $models; do
    grep -q -- "$m" "$D/model_help" || fail "--model help lacks $m: $(cat "$D/model_help")"
    for cmd in calibrate validate; do
        "$T" $cmd --model "$m" --help >"$D/mh" 2>&1 || fail "$cmd --model $m --help: exit status"
        grep -q "^usage: trapeze $cmd" "$D/mh" || fail "$cmd --model $m --help: $(head -1 "$D/mh")"
    done
done
# the first row is the default: --model ghostzone is the command without it
"$T" calibrate --help >"$D/h0"
"$T" calibrate --model ghostzone --help >"$D/h1"
cmp -s "$D/h0" "$D/h1" || fail "--model ghostzone is not the default"

# the TB dispatch policies, from trapeze sim --options
listed=$("$T" sim --options | sed -n 's/.*-trapeze_tb_dispatch .*thread-block dispatch: //p' | sed 's/,//g')
[ "$listed" = "rr bcs chen mst kway rbts explicit" ] || fail "--options lists '$listed'"
printf -- '-trapeze_tb_dispatch lifo\n' >"$D/bad.config"
expect_failure "unknown policy" "'lifo' is not a TB dispatch policy ($(echo "$listed" | sed 's/ /, /g'))" \
    "$D/none.csv" "$T" sim --gpu "data/gpus/gtx480.config,$D/bad.config" vecadd n=64 --csv "$D/none.csv"
# the grouping model's help names each policy it compares: every row but
# the last (a grouping given by file: those rows come last in the table)
"$T" validate --model group --help >"$D/gh"
compared=$(echo "$listed" | awk '{ $NF = ""; print }')
for p in $compared; do
    grep -qw -- "$p" "$D/gh" || fail "validate --model group --help lacks $p"
done
echo "tb,group,order" >"$D/g.csv"
echo "0,0,0" >>"$D/g.csv"
for p in $listed; do
    printf -- '-trapeze_tb_dispatch %s\n-trapeze_tb_grouping %s\n' "$p" "$D/g.csv" >"$D/p.config"
    "$T" sim --gpu "data/gpus/gtx480.config,$D/p.config" vecadd n=32 block=32 --quiet \
        >/dev/null 2>"$D/perr" || fail "policy $p: $(cat "$D/perr")"
done

finish cli_registry
