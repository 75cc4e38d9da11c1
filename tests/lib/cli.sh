# tests/lib/cli.sh - what the command-line tests (tests/cli_*.sh) share: the
# program under test, a scratch folder removed on exit, failure counting,
# and the check every bad-input case makes. Sourced, never run; it does not
# run trapeze itself.
#
# A bad input must give a non-zero exit, the expected message on at most
# MAX_ERR_LINES lines of stderr (one message; default 1), and leave neither
# the output file nor a temporary file of it (OUTPUT.XXXXXX.tmp) behind.
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
    rm -f "$output"
    if "$@" >"$D/stdout" 2>"$D/stderr"; then
        fail "$name: exit status 0"
    fi
    grep -qF -- "$text" "$D/stderr" || fail "$name: stderr lacks '$text': $(cat "$D/stderr")"
    [ "$(wc -l <"$D/stderr")" -le "$MAX_ERR_LINES" ] \
        || fail "$name: more than one message: $(cat "$D/stderr")"
    [ ! -e "$output" ] || fail "$name: output file left behind"
    for tmp in "$output".*.tmp; do
        [ -e "$tmp" ] && fail "$name: temporary file $tmp left behind"
    done
}

# mpi_usable: whether $T can run under mpirun here; says why not (SKIP line).
# Where OpenMPI is installed a program built without it is a failure, not a
# skip: make rebuilds what MPI changes (BUILD/config.stamp), so it means a
# stale or broken build.
mpi_usable() {
    if echo "$T" | grep -q build-san; then
        echo "SKIP MPI under the sanitizers: OpenMPI's own allocations are reported by LeakSanitizer"
        return 1
    fi
    if ! command -v mpirun >/dev/null 2>&1; then
        echo "SKIP MPI: OpenMPI is not installed (scripts/install-deps.sh mpi, then make)"
        return 1
    fi
    if ! ldd "$T" 2>/dev/null | grep -q libmpi; then
        fail "MPI: OpenMPI is installed but $T is built without it (make should have rebuilt it)"
        return 1
    fi
}

# mpirun2 ARGS...: $T ARGS over 2 ranks on loopback (root allowed, as in CI)
mpirun2() {
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp \
        OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo \
        mpirun --oversubscribe -n 2 "$T" "$@"
}

# finish NAME: a summary line; the exit status says whether all passed
finish() {
    [ "$fails" -eq 0 ] && echo "$1: all passed"
    [ "$fails" -eq 0 ]
}
