#!/bin/sh
# The shared library as an installed program sees it: a SONAME with the major
# version, exactly the symbols include/ declares exported, and a program compiled
# against include/trapeze.h and linked to the .so alone gets the model's
# answer (PathFinder, GTX 280, paper mode: relaunch h* = 12.25, floor 12,
# the dissertation's Table 5.2 result that tests/cli_ghostzone.sh also checks).
# Usage: sh tests/cli_library.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
B=$(dirname "$T")
SO="$B/libtrapeze.so"

[ -e "$SO" ] || fail "no $SO"
soname=$(readelf -d "$SO" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
major=$(sed -n 's/.*TRAPEZE_VERSION "\([0-9]*\)\..*/\1/p' include/trapeze.h)
[ "$soname" = "libtrapeze.so.$major" ] || fail "SONAME '$soname', expected libtrapeze.so.$major"
[ -e "$B/$soname" ] || fail "no $B/$soname link"

# The exported symbols are exactly the declared ones (the version node
# TRAPEZE_0 aside). Declared, found by the compiler rather than by the
# script that writes the version script: the functions gcc's -aux-info lists
# from include/, and the variables include/ declares extern.
printf '#include "trapeze.h"\n' >"$D/decl.c"
gcc -std=c11 -Iinclude -aux-info "$D/aux" -fsyntax-only "$D/decl.c" || fail "gcc -aux-info failed"
{ grep '^/\* include/trapeze' "$D/aux" | sed 's/^[^*]*\*\/ //' |
      sed -n 's/^[^(]*[^a-z0-9_]\(trapeze_[a-z0-9_]*\) (.*/\1/p'
  grep -h '^extern const' include/trapeze/*.h | sed 's/ *\[.*//; s/;$//; s/.* //'; } |
    LC_ALL=C sort -u >"$D/declared"
nm -D --defined-only "$SO" | awk '{sub(/@.*/, "", $3); print $3}' | grep -v '^TRAPEZE_0$' |
    LC_ALL=C sort -u >"$D/exported"
[ "$(wc -l <"$D/declared")" -ge 250 ] || fail "only $(wc -l <"$D/declared") declarations found"
extra=$(comm -13 "$D/declared" "$D/exported" | head -5 | tr '\n' ' ')
[ -z "$extra" ] || fail "exported but not declared in include/: $extra"
missing=$(comm -23 "$D/declared" "$D/exported" | head -5 | tr '\n' ' ')
[ -z "$missing" ] || fail "declared in include/ but not exported: $missing"
nm -D --defined-only "$SO" | grep -q ' trapeze_ghostzone_optimize@@TRAPEZE_0$' || fail "trapeze_ghostzone_optimize not exported"
# Every trapeze_* function or variable the library defines with default
# visibility is declared in include/: an internal helper carries
# TRAPEZE_INTERNAL (common/internal.h), hidden in the objects themselves.
readelf -sW "$B/libtrapeze.a" | awk '$5 == "GLOBAL" && $6 == "DEFAULT" && $7 != "UND" && $8 ~ /^trapeze_/ {print $8}' |
    LC_ALL=C sort -u >"$D/visible"
unmarked=$(comm -13 "$D/declared" "$D/visible" | head -5 | tr '\n' ' ')
[ -z "$unmarked" ] || fail "internal helpers without TRAPEZE_INTERNAL: $unmarked"
grep -qx trapeze_strdup "$D/visible" && fail "trapeze_strdup is visible in libtrapeze.a's objects"
readelf -sW "$B/libtrapeze.a" | grep -q ' HIDDEN .* trapeze_strdup$' || fail "trapeze_strdup not hidden"

cat >"$D/prog.c" <<'C'
#include <stdio.h>
#include <trapeze.h>
int main(int argc, char **argv)
{
    (void)argc;
    trapeze_error err = {0};
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_workload w;
    trapeze_ghostzone_params p;
    trapeze_ghostzone_model *m;
    trapeze_ghostzone_optimum o;
    if (trapeze_config_load(argv[1], &cfg, &err) || trapeze_gpu_from_config(cfg, &gpu, &err) ||
        trapeze_workload_load(argv[2], &w, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    trapeze_ghostzone_params_default(&p);
    if (trapeze_ghostzone_create(&gpu, &w, &p, &m, &err) ||
        trapeze_ghostzone_optimize(m, TRAPEZE_SYNC_RELAUNCH, 0, &o, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    printf("%.2f %d\n", o.h_continuous, o.h_floor);
    trapeze_ghostzone_destroy(m);
    trapeze_config_destroy(cfg);
    return 0;
}
C
# a sanitizer build's library needs its runtime first in the program
san=""
ldd "$SO" | grep -q libasan && san="-fsanitize=address,undefined"
if ${CC:-cc} -std=c11 -Wall -Werror $san -Iinclude -o "$D/prog" "$D/prog.c" -L"$B" -ltrapeze 2>"$D/cc.err"; then
    out=$(LD_LIBRARY_PATH="$B" "$D/prog" data/gpus/gtx280.config data/workloads/pathfinder.ini 2>&1)
    [ "$out" = "12.25 12" ] || fail "program linked to the .so printed '$out', expected '12.25 12'"
    ldd "$D/prog" | grep -q "libtrapeze.so.$major" || fail "program not linked against the SONAME"
else
    fail "cannot build a program against the .so: $(cat "$D/cc.err")"
fi
finish cli_library
