/*
 * trapeze.h - the public C API of libtrapeze: every module header of
 * include/trapeze/, and the library's version. Declares nothing itself.
 *
 * Conventions (after NLopt and GSL): every function is trapeze_<module>_<verb>;
 * objects are opaque handles with create/destroy; an options struct comes with
 * a function that sets its defaults, called before setting fields (a field
 * added later then keeps its default); every fallible call returns a
 * trapeze_status and, when given a non-NULL trapeze_error, fills it with one
 * human-readable line naming file, line and field where those exist. The
 * library keeps no global state.
 *
 * One header per module, each compiling alone (tests/cli_headers.sh):
 * error, config (GPU configs), csv (output files), json (summary documents), power, workload,
 * ghostzone (the model), sim (the simulator), trace (Accel-Sim traces),
 * samples (samples logs), fit (a fit's report), ghostzone_calib (the
 * ghost-zone calibration), idle (idle-period histograms), sleep,
 * ghostzone_energy, grouping (TB groupings), locality (locality graphs),
 * group (the grouping model), ghostzone_group.
 */
#ifndef TRAPEZE_H
#define TRAPEZE_H

#define TRAPEZE_VERSION "0.1.0"

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/csv.h"
#include "trapeze/json.h"
#include "trapeze/power.h"
#include "trapeze/workload.h"
#include "trapeze/ghostzone.h"
#include "trapeze/sim.h"
#include "trapeze/trace.h"
#include "trapeze/samples.h"
#include "trapeze/fit.h"
#include "trapeze/ghostzone_calib.h"
#include "trapeze/idle.h"
#include "trapeze/sleep.h"
#include "trapeze/ghostzone_energy.h"
#include "trapeze/grouping.h"
#include "trapeze/locality.h"
#include "trapeze/group.h"
#include "trapeze/ghostzone_group.h"
#include "trapeze/cache.h"
#include "trapeze/simd.h"

#endif
