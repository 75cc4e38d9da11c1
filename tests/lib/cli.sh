# tests/lib/cli.sh - what the command-line tests (tests/cli_*.sh) share: the
# program under test, a scratch folder removed on exit, failure counting,
# and the check every bad-input case makes. Sourced, never run; it does not
# run trapeze itself.
#
# A bad input must give a non-zero exit, the expected message on at most
# MAX_ERR_LINES lines of stderr (one message; default 1), and leave neither
# the output file nor its temporary behind.
set -u
T=${1:-build/trapeze}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fails=0
MAX_ERR_LINES=${MAX_ERR_LINES:-1}

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_failure NAME TEXT OUTPUT CMD...
expect_failure() {
    name=$1 text=$2 output=$3
    shift 3
    rm -f "$output" "$output.tmp"
    if "$@" >"$D/stdout" 2>"$D/stderr"; then
        fail "$name: exit status 0"
    fi
    grep -qF -- "$text" "$D/stderr" || fail "$name: stderr lacks '$text': $(cat "$D/stderr")"
    [ "$(wc -l <"$D/stderr")" -le "$MAX_ERR_LINES" ] \
        || fail "$name: more than one message: $(cat "$D/stderr")"
    [ ! -e "$output" ] && [ ! -e "$output.tmp" ] || fail "$name: output file left behind"
}

# finish NAME: a summary line; the exit status says whether all passed
finish() {
    [ "$fails" -eq 0 ] && echo "$1: all passed"
    [ "$fails" -eq 0 ]
}
