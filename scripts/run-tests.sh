#!/bin/sh
# Runs every test group: unit test binaries in BUILD/tests, the command-line
# tests in tests/*.sh (given the program's path), the Python package's tests
# and the notebooks when their tools are installed (a sanitizer build
# leaves out the groups that run none of its code: text_only below). The groups are
# independent (each command-line test works in its own mktemp folder, each
# unit test writes only files named after itself), so they run in parallel,
# TEST_JOBS at a time (default: the machine's cores), the costliest
# first (tests/group-costs.txt) so that none of them starts last. Each
# group's output is kept apart; at the
# end one line per group, in a fixed order, with its wall seconds and its
# CPU seconds (user + system of everything it ran: what other jobs on the
# machine do not inflate much), a failure with its last 30 lines, the five
# groups that took the most CPU, the suite's wall time, and "N passed, N
# failed".
# Exits non-zero if any group fails.
# Usage: scripts/run-tests.sh [BUILD_DIR]
set -u

# --one BUILD WORK GROUP: runs one group (for xargs), recording its output,
# exit status and seconds under WORK.
if [ "${1:-}" = --one ]; then
    B=$2 W=$3 g=$4
    f="$W/$(echo "$g" | tr '/' '_')"
    start=$(date +%s.%N)
    case $g in
    python)
        PYTHONPATH=python TRAPEZE_LIB="$B/libtrapeze.so" TRAPEZE_PROGRAM="$B/trapeze" \
            /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests >"$f.out" 2>&1 ;;
    notebooks) scripts/run-notebooks.sh "$B" >"$f.out" 2>&1 ;;
    *.sh) sh "$g" "$B/trapeze" >"$f.out" 2>&1 ;;
    *) "$g" >"$f.out" 2>&1 ;;
    esac
    echo $? >"$f.rc"
    echo "$start $(date +%s.%N)" | awk '{printf "%.1f\n", $2 - $1}' >"$f.time"
    # the shell's `times` (into a file: in a pipe it would run in a subshell of its
    # own): its children's user and system time on line 2 (0m1.50s 0m0.20s)
    times >"$f.times"
    awk 'NR == 2 {split($1 $2, t, /[ms]/); printf "%.1f\n", 60 * t[1] + t[2] + 60 * t[3] + t[4]}' \
        "$f.times" >"$f.cpu"
    exit 0
fi

B=${1:-build}
# One job a core: a job more fills the waits of the few groups that wait on
# their own threads, but three processes on two cores share their caches and
# the suites took longer (docs/performance.md, "The test suite").
JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
start=$(date +%s.%N)
# each group's CPU seconds in this run, GROUP SECONDS a line, for
# tests/group-costs.txt (how to regenerate it: its first lines)
rm -f "$B/test-costs"

# every group, in the order the results are printed; SKIP lines say why a
# group does not run here
groups=""
for t in "$B"/tests/test_*; do
    [ -x "$t" ] && groups="$groups $t"
done
san=0
ldd "$B/libtrapeze.so" 2>/dev/null | grep -q libasan && san=1
# Groups that check text and scripts, never running this build's code (the
# docs and help against the tree, the layers' includes, the public headers
# compiled alone, regenerate-data.sh with a stand-in for the program): the
# sanitizers have nothing to look at there, so a sanitizer build leaves them
# to the plain build.
text_only="tests/cli_docs.sh tests/cli_layers.sh tests/cli_headers.sh tests/cli_regenerate.sh"
skips=""
for t in tests/cli_*.sh; do
    [ -f "$t" ] || continue
    case " $text_only " in
    *" $t "*) [ "$san" -eq 1 ] && { skips="${skips}SKIP $t (sanitizer build: it runs none of the build's code)
"; continue; } ;;
    esac
    groups="$groups $t"
done
# The Python package (python/trapeze) over this build's library and program.
# A sanitizer build's library cannot be loaded into Python (ASan must come
# first in the process), so it is tested with the plain build only.
if [ "$san" -eq 1 ]; then
    skips="${skips}SKIP python (sanitizer build: the package is tested with the plain build)
"
elif /usr/bin/python3 -c 'import pytest, pandas' 2>/dev/null; then
    groups="$groups python"
else
    skips="${skips}SKIP python (pytest or pandas missing: scripts/install-deps.sh notebooks)
"
fi
if command -v jupyter-nbconvert >/dev/null 2>&1 || [ -x /usr/bin/jupyter-nbconvert ]; then
    groups="$groups notebooks"
else
    skips="${skips}SKIP notebooks (jupyter-nbconvert not installed: scripts/install-deps.sh notebooks)
"
fi

# Started first: the groups that cost the most (longest processing time
# first), by the CPU seconds tests/group-costs.txt gives each in this kind of
# build (the plain column, or the sanitizer column); groups it does not list
# follow in the order above. A long group left to the end runs alone there.
order=$(printf '%s\n' $groups | awk -v col=$((san + 2)) -v costs=tests/group-costs.txt '
    BEGIN { while ((getline l < costs) > 0) if (l !~ /^#/ && split(l, f, " ") >= 3) c[f[1]] = f[col] + 0 }
    { k = $0; if (k ~ /\/tests\/test_/) sub(/.*\//, "", k); printf "%012.1f %06d %s\n", c[k], NR, $0 }' |
    sort -k1,1r -k2,2n | cut -d' ' -f3)
printf '%s\n' $order | xargs -P "$JOBS" -I{} sh "$0" --one "$B" "$W" {}

pass=0 fail=0 busy=0 cpu=0
for g in $groups; do
    f="$W/$(echo "$g" | tr '/' '_')"
    rc=$(cat "$f.rc" 2>/dev/null || echo 1)
    s=$(cat "$f.time" 2>/dev/null || echo 0)
    c=$(cat "$f.cpu" 2>/dev/null || echo 0)
    busy=$(echo "$busy $s" | awk '{print $1 + $2}')
    cpu=$(echo "$cpu $c" | awk '{print $1 + $2}')
    echo "$c ${g##*/}" >>"$W/cpu-by-group"
    case $g in */tests/test_*) k=${g##*/} ;; *) k=$g ;; esac
    echo "$k $c" >>"$B/test-costs"
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        case $g in
        python) printf 'PASS %7ss %7ss cpu  %s (%s)\n' "$s" "$c" "$g" "$(tail -n 1 "$f.out")" ;;
        *) printf 'PASS %7ss %7ss cpu  %s\n' "$s" "$c" "$g" ;;
        esac
    else
        fail=$((fail + 1))
        printf 'FAIL %7ss %7ss cpu  %s\n' "$s" "$c" "$g"
        tail -n 30 "$f.out"
    fi
done
printf '%s' "$skips"
# the groups to shrink first (CI's log keeps only its last lines)
sort -rn "$W/cpu-by-group" | head -n 5 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : "most CPU: "), $2, $1 }
    END { print "" }'
echo "$start $(date +%s.%N) $busy $cpu $JOBS" |
    awk '{printf "total: %.0f s wall for %.0f s of groups (%.0f s of CPU), %d at a time\n", $2 - $1, $3, $4, $5}'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
