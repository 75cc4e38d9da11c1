#!/bin/sh
# The program re-executes itself once with glibc's malloc on huge pages
# (cli/hugepages.c), unless told not to or given the tunable already; the
# results are the same bytes either way.
# Usage: sh tests/cli_hugepages.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
on=" (malloc on huge pages)"
v=$("$T" --version) || fail "--version"
[ "$v" = "trapeze $(echo "$v" | sed 's/^trapeze \([^ ]*\).*/\1/')$on" ] \
    || fail "default: not re-executed with the tunable: '$v'"
v=$(TRAPEZE_HUGEPAGES=0 "$T" --version)
case "$v" in *"$on") fail "TRAPEZE_HUGEPAGES=0: re-executed anyway: '$v'" ;; esac
v=$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$T" --version)
case "$v" in *"$on") fail "the user's own hugetlb=0 overridden: '$v'" ;; esac
v=$(GLIBC_TUNABLES=glibc.malloc.check=0 "$T" --version)
case "$v" in *"$on") ;; *) fail "other tunables: hugetlb not added: '$v'" ;; esac
G=data/gpus/v100.config
TR=data/traces/vecadd/kernelslist.g
"$T" sim --gpu $G --trace $TR --csv "$D/on.csv" --quiet 2>/dev/null || fail "run on huge pages"
TRAPEZE_HUGEPAGES=0 "$T" sim --gpu $G --trace $TR --csv "$D/off.csv" --quiet 2>/dev/null \
    || fail "run on 4 KB pages"
cmp -s "$D/on.csv" "$D/off.csv" || fail "huge pages changed the results"
finish cli_hugepages
