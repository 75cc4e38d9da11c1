/*
 * fuzz_power.c - the power description INI (data/power/NAME.ini:
 * [event_j], [power_w], [leakage_w], [mode.STRUCT.NAME]). Invariants: an
 * accepted file's energies, powers and fractions are finite and >= 0, each
 * sleepable structure's mode 0 is "on" (1.0, 0 cycles) followed by at most
 * three modes; written back as an INI (%.17g) it loads to the same values.
 */
#include <math.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"data/power/*.ini", "tests/fuzz/power/*", NULL};

/* A name the INI syntax carries unchanged (no comment, section or
 * separator character, no space at either end). */
static int plain_name(const char *s)
{
    size_t n = strlen(s);
    if (!n || s[0] == ' ' || s[n - 1] == ' ')
        return 0;
    for (; *s; s++)
        if (*s < 0x21 || *s > 0x7e || strchr(";#=[]", *s))
            return 0;
    return 1;
}

static void write_back(const char *path, const trapeze_power *p)
{
    FILE *f = fopen(path, "w");
    FUZZ_CHECK(f != NULL);
    if (plain_name(p->name))
        fprintf(f, "[gpu]\nname = %s\n", p->name);
    fprintf(f, "[event_j]\n");
    for (int e = 0; e < TRAPEZE_PE_COUNT; e++)
        fprintf(f, "%s = %.17g\n", trapeze_power_event_name((trapeze_power_event)e),
                p->event_j[e]);
    fprintf(f, "[power_w]\nconstant = %.17g\nidle_sm = %.17g\n[leakage_w]\n", p->constant_w,
            p->idle_sm_w);
    for (int s = 0; s < TRAPEZE_PS_COUNT; s++)
        fprintf(f, "%s = %.17g\n", trapeze_power_structure_name((trapeze_power_structure)s),
                p->leak_w[s]);
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        for (int m = 1; m < p->n_modes[s]; m++) {
            const trapeze_power_mode *o = &p->mode[s][m];
            fprintf(f, "[mode.%s.%s]\nleak_fraction = %.17g\nwake_cycles = %d\n"
                       "transition_j = %.17g\nretains_state = %d\n",
                    trapeze_power_structure_name((trapeze_power_structure)s), o->name,
                    o->leak_fraction, o->wake_cycles, o->transition_j, o->retains_state);
        }
    FUZZ_CHECK(fclose(f) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file("power.ini", data, size);
    trapeze_power p, q;
    trapeze_error err = {0};
    if (trapeze_power_load(path, &p, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    for (int e = 0; e < TRAPEZE_PE_COUNT; e++)
        FUZZ_CHECK(isfinite(p.event_j[e]) && p.event_j[e] >= 0);
    FUZZ_CHECK(isfinite(p.constant_w) && p.constant_w >= 0);
    FUZZ_CHECK(isfinite(p.idle_sm_w) && p.idle_sm_w >= 0);
    for (int s = 0; s < TRAPEZE_PS_COUNT; s++)
        FUZZ_CHECK(isfinite(p.leak_w[s]) && p.leak_w[s] >= 0);
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
        FUZZ_CHECK(p.n_modes[s] >= 1 && p.n_modes[s] <= TRAPEZE_POWER_MAX_MODES);
        FUZZ_CHECK(!strcmp(p.mode[s][0].name, "on") && p.mode[s][0].leak_fraction == 1.0 &&
                   p.mode[s][0].wake_cycles == 0);
        for (int m = 0; m < p.n_modes[s]; m++)
            FUZZ_CHECK(isfinite(p.mode[s][m].leak_fraction) &&
                       p.mode[s][m].leak_fraction >= 0 && p.mode[s][m].wake_cycles >= 0 &&
                       isfinite(p.mode[s][m].transition_j) && p.mode[s][m].transition_j >= 0);
    }
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++)
        for (int m = 1; m < p.n_modes[s]; m++)
            if (!plain_name(p.mode[s][m].name))
                return 0;   /* not carried through an INI section name */
    char again[600];
    snprintf(again, sizeof again, "%s.again.ini", path);
    write_back(again, &p);
    trapeze_status s = trapeze_power_load(again, &q, &err);
    if (s)
        fprintf(stderr, "reload: %s\n", err.message);
    FUZZ_CHECK(s == TRAPEZE_OK);
    FUZZ_CHECK(!memcmp(p.event_j, q.event_j, sizeof p.event_j));
    FUZZ_CHECK(p.constant_w == q.constant_w && p.idle_sm_w == q.idle_sm_w);
    FUZZ_CHECK(!memcmp(p.leak_w, q.leak_w, sizeof p.leak_w));
    FUZZ_CHECK(!memcmp(p.n_modes, q.n_modes, sizeof p.n_modes));
    for (int t = 0; t < TRAPEZE_PS_SLEEPABLE; t++)
        for (int m = 0; m < p.n_modes[t]; m++) {
            const trapeze_power_mode *a = &p.mode[t][m], *b = &q.mode[t][m];
            FUZZ_CHECK(!strcmp(a->name, b->name) && a->leak_fraction == b->leak_fraction &&
                       a->wake_cycles == b->wake_cycles && a->transition_j == b->transition_j &&
                       a->retains_state == b->retains_state);
        }
    if (plain_name(p.name))
        FUZZ_CHECK(!strcmp(p.name, q.name));
    return 0;
}
