#!/bin/sh
# The library's layers (docs/architecture.md): sim/ knows nothing of model/,
# model/ nothing of sim/ or sampler/, and the command line reaches the
# simulator and the models only through include/trapeze.h (no cli/ file
# includes a private sim/, model/ or sampler/ header). sampler/ and bench/
# reach the simulator through its one internal face, sim/sim.h, and no
# other sim/ header, nor the simulator's private layouts; the generic fit
# (sampler/fit.c, fit.h) knows the model interface, model/model.h, and no
# model.
. tests/lib/cli.sh
bad=$(grep -l '#include "model/\|#include "sampler/' sim/*.c sim/*.h sim/*/*.c sim/*/*.h 2>/dev/null)
[ -z "$bad" ] || fail "sim/ includes model/ or sampler/: $bad"
bad=$(grep -l '#include "sim/\|#include "sampler/' model/*.c model/*.h 2>/dev/null)
[ -z "$bad" ] || fail "model/ includes sim/ or sampler/: $bad"
bad=$(grep -l '#include "sim/\|#include "model/\|#include "sampler/' cli/*.c cli/*.h 2>/dev/null)
[ -z "$bad" ] || fail "cli/ includes a private header: $bad"
bad=$(grep '#include "sim/' sampler/*.c sampler/*.h sampler/*/*.c sampler/*/*.h \
    bench/*.c bench/*.h 2>/dev/null | grep -v '#include "sim/sim.h"')
[ -z "$bad" ] || fail "sampler/ or bench/ includes a sim/ header other than sim/sim.h: $bad"
bad=$(grep -l 'struct sim_events_hot' sampler/*.c sampler/*/*.c bench/*.c 2>/dev/null)
[ -z "$bad" ] || fail "sampler/ or bench/ reads the simulator's private event layout: $bad"
bad=$(grep '#include "model/' sampler/fit.c sampler/fit.h | grep -v '"model/model.h"')
[ -z "$bad" ] || fail "the generic fit includes a model: $bad"
# the tree tracks no build output (a build folder, objects, libraries): in a
# git checkout, what git tracks; the pattern checked on a name it must catch
built='^build[^/]*/|\.(o|a|so)$'
echo build-tsan/trapeze | grep -Eq "$built" || fail "the build-output pattern matches nothing"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    bad=$(git ls-files | grep -E "$built" | head -3)
    [ -z "$bad" ] || fail "build output tracked by git: $bad"
fi
# the check itself sees an include when there is one
printf '#include "sim/core/sm.h"\n' >"$D/probe.c"
grep -q '#include "sim/' "$D/probe.c" || fail "the include pattern matches nothing"
finish cli_layers
