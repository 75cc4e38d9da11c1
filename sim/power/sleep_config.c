/*
 * sleep_config.c - the -trapeze_sleep_* options of a gpgpusim.config, one
 * registration line each, parsed once into sim_sleep_config; and the
 * "POLICY[:GRANULARITY]" syntax shared with `trapeze sim --sleep-*`.
 * Owns parsing and validation only.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "common/options.h"
#include "sim/power/sleep.h"

static const char *const structure_key[TRAPEZE_PS_SLEEPABLE] = {"l1d", "l2", "rf"};

/* The options, one registration line each (common/options.h). */
const trapeze_opt sim_sleep_options[] = {
    {"trapeze_sleep_l1d", OPT_TEXT, "always_on", 0, 0,
     "L1D sleep policy[:granularity]: always_on, snooze, oracle; line|bank"},
    {"trapeze_sleep_l2", OPT_TEXT, "always_on", 0, 0,
     "L2 sleep policy[:granularity]: always_on, snooze, oracle; line|slice"},
    {"trapeze_sleep_rf", OPT_TEXT, "always_on", 0, 0,
     "RF sleep policy[:granularity]: always_on, drowsy, slumber, oracle; warp_reg|bank"},
    {"trapeze_sleep_threshold_l1d", OPT_INT, "0", 0, 1024, "L1D idle cycles before sleeping"},
    {"trapeze_sleep_threshold_l2", OPT_INT, "0", 0, 1024, "L2 idle cycles before sleeping"},
    {"trapeze_sleep_threshold_rf", OPT_INT, "0", 0, 1024, "RF (drowsy) idle cycles before sleeping"},
    {"trapeze_sleep_lookahead_l1d", OPT_INT, "3", 0, 1024,
     "cycles an L1D learns of an access ahead (Snooze: 3-5)"},
    {"trapeze_sleep_lookahead_l2", OPT_INT, "3", 0, 1024, "cycles an L2 slice learns of an access ahead"},
    {"trapeze_sleep_lookahead_rf", OPT_INT, "3", 0, 1024,
     "warp scheduler look-ahead, cycles (Slumber: 3 future warps)"},
    {"trapeze_slumber_shallow", OPT_INT, "4", 1, 1024, "Slumber: shallow sleep from this idle length"},
    {"trapeze_slumber_deep", OPT_INT, "13", 1, 1024, "Slumber: deep sleep from this idle length"},
    {"trapeze_slumber_gated", OPT_INT, "16", 1, 1024,
     "Slumber: power gating from this idle length (next access a write, or dead)"},
    {"trapeze_drowsy_wake", OPT_INT, "1", 0, 1024, "Warped RF: drowsy wake-up, cycles"},
    {NULL, OPT_INT, NULL, 0, 0, NULL}};

/* Where each integer option goes: structure and field. */
typedef struct {
    const char *option;
    int structure;
    size_t offset;
} int_field;

#define P(field) offsetof(sim_sleep_params, field)
static const int_field int_fields[] = {
    {"trapeze_sleep_threshold_l1d", TRAPEZE_PS_L1D, P(threshold)},
    {"trapeze_sleep_threshold_l2", TRAPEZE_PS_L2, P(threshold)},
    {"trapeze_sleep_threshold_rf", TRAPEZE_PS_RF, P(threshold)},
    {"trapeze_sleep_lookahead_l1d", TRAPEZE_PS_L1D, P(lookahead)},
    {"trapeze_sleep_lookahead_l2", TRAPEZE_PS_L2, P(lookahead)},
    {"trapeze_sleep_lookahead_rf", TRAPEZE_PS_RF, P(lookahead)},
    {"trapeze_slumber_shallow", TRAPEZE_PS_RF, P(slumber[0])},
    {"trapeze_slumber_deep", TRAPEZE_PS_RF, P(slumber[1])},
    {"trapeze_slumber_gated", TRAPEZE_PS_RF, P(slumber[2])},
    {"trapeze_drowsy_wake", TRAPEZE_PS_RF, P(drowsy_wake)},
};
#undef P

trapeze_status sim_sleep_config_set(sim_sleep_config *sc, trapeze_power_structure s,
                                    const char *value, trapeze_error *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", value);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon++ = '\0';
    int k = sim_sleep_find(buf);
    char names[256];
    if (k < 0 || !(sim_sleep_policy((sim_sleep_kind)k)->structures >> s & 1))
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "sleep policy for %s: '%s' is not one of %s", structure_key[s], buf,
                            sim_sleep_names(s, names, sizeof names));
    int line = 1;
    if (colon) {
        if (!strcmp(colon, sim_sleep_granularity_name(s, 1)))
            line = 1;
        else if (!strcmp(colon, sim_sleep_granularity_name(s, 0)))
            line = 0;
        else
            return trapeze_fail(err, TRAPEZE_EPARSE,
                                "sleep policy for %s: granularity '%s' is not %s or %s",
                                structure_key[s], colon, sim_sleep_granularity_name(s, 1),
                                sim_sleep_granularity_name(s, 0));
    }
    sc->s[s].kind = (sim_sleep_kind)k;
    sc->s[s].line = line;
    return TRAPEZE_OK;
}

trapeze_status sim_sleep_config_read(const trapeze_config *cfg, sim_sleep_config *sc,
                                     trapeze_error *err)
{
    memset(sc, 0, sizeof *sc);
    trapeze_status st;
    for (int s = 0; s < TRAPEZE_PS_SLEEPABLE; s++) {
        sc->s[s].kind = SIM_SLEEP_ALWAYS_ON;
        sc->s[s].line = 1;
        const char *v;
        trapeze_error why = {0};
        const char *name = sim_sleep_options[s].name;   /* the first three rows */
        trapeze_config_get_string(cfg, name, NULL, &v);
        if (v && sim_sleep_config_set(sc, (trapeze_power_structure)s, v, &why))
            return trapeze_config_fail(cfg, name, err, "%s", why.message);
    }
    for (size_t i = 0; i < sizeof int_fields / sizeof *int_fields; i++) {
        const int_field *o = &int_fields[i];
        long v;
        if ((st = trapeze_opt_int(cfg, sim_sleep_options, o->option, &v, err)))
            return st;
        *(int *)((char *)&sc->s[o->structure].p + o->offset) = (int)v;
    }
    const int *th = sc->s[TRAPEZE_PS_RF].p.slumber;
    if (th[0] > th[1] || th[1] > th[2])
        return trapeze_config_fail(cfg, "trapeze_slumber_deep", err,
                                   "Slumber thresholds must grow: shallow %d <= deep %d <= "
                                   "gated %d", th[0], th[1], th[2]);
    return TRAPEZE_OK;
}
