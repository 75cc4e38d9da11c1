#!/bin/sh
# The shared library as an installed program sees it: a SONAME with the major
# version, only the public trapeze_* symbols exported, and a program compiled
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

# every defined dynamic symbol is public (the version node TRAPEZE_0 aside)
leaked=$(nm -D --defined-only "$SO" | awk '{sub(/@.*/, "", $3); print $3}' | grep -v -e '^trapeze_' -e '^TRAPEZE_0$' | head -5)
[ -z "$leaked" ] || fail "internal symbols exported: $leaked"
nm -D --defined-only "$SO" | grep -q ' trapeze_ghostzone_optimize@@TRAPEZE_0$' || fail "trapeze_ghostzone_optimize not exported"

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
