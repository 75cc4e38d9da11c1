/*
 * fuzz_calibration.c - the calibration INI ([ghostzone], [profile.NAME],
 * [meta]). Invariants: accepted values lie in each parameter's range, and
 * saving then loading gives the same values back.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"data/calibrations/*.ini", "tests/fuzz/calibration/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("calibration.ini", data, size);
    trapeze_ghostzone_params p, q;
    trapeze_error err = {0};
    if (trapeze_ghostzone_params_load(path, &p, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    for (int k = 0; k < TRAPEZE_GHOSTZONE_NPARAMS; k++) {
        double lo, hi;
        trapeze_ghostzone_param_range((trapeze_ghostzone_param)k, &lo, &hi);
        FUZZ_CHECK(p.value[k] >= lo && p.value[k] <= hi);
    }
    char again[600];
    snprintf(again, sizeof again, "%s.again.ini", path);
    if (trapeze_ghostzone_params_save(again, &p, &err) == TRAPEZE_OK) {
        trapeze_status s = trapeze_ghostzone_params_load(again, &q, &err);
        if (s)
            fprintf(stderr, "reload: %s\n", err.message);
        FUZZ_CHECK(s == TRAPEZE_OK);
        FUZZ_CHECK(memcmp(p.value, q.value, sizeof p.value) == 0);
        FUZZ_CHECK(p.n_profiles == q.n_profiles);
    }
    return 0;
}
