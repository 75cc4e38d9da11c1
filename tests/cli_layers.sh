#!/bin/sh
# The library's layers (docs/architecture.md): sim/ knows nothing of model/,
# model/ nothing of sim/ or sampler/, and the command line reaches the
# simulator and the models only through include/trapeze.h (no cli/ file
# includes a private sim/, model/ or sampler/ header).
. tests/lib/cli.sh
bad=$(grep -l '#include "model/\|#include "sampler/' sim/*.c sim/*.h sim/*/*.c sim/*/*.h 2>/dev/null)
[ -z "$bad" ] || fail "sim/ includes model/ or sampler/: $bad"
bad=$(grep -l '#include "sim/\|#include "sampler/' model/*.c model/*.h 2>/dev/null)
[ -z "$bad" ] || fail "model/ includes sim/ or sampler/: $bad"
bad=$(grep -l '#include "sim/\|#include "model/\|#include "sampler/' cli/*.c cli/*.h 2>/dev/null)
[ -z "$bad" ] || fail "cli/ includes a private header: $bad"
# the check itself sees an include when there is one
printf '#include "sim/core/sm.h"\n' >"$D/probe.c"
grep -q '#include "sim/' "$D/probe.c" || fail "the include pattern matches nothing"
finish cli_layers
