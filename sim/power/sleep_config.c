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
#include "sim/power/sleep.h"

static const char *const structure_key[TRAPEZE_PS_SLEEPABLE] = {"l1d", "l2", "rf"};

/* Integer options: option, structure (-1: every one), field, default, range. */
typedef struct {
    const char *option;
    int structure;
    size_t offset;
    int fallback, lo, hi;
} int_option;

#define P(field) offsetof(sim_sleep_params, field)
static const int_option int_options[] = {
    {"trapeze_sleep_threshold_l1d", TRAPEZE_PS_L1D, P(threshold), 0, 0, 1024},
    {"trapeze_sleep_threshold_l2", TRAPEZE_PS_L2, P(threshold), 0, 0, 1024},
    {"trapeze_sleep_threshold_rf", TRAPEZE_PS_RF, P(threshold), 0, 0, 1024},
    {"trapeze_sleep_lookahead_l1d", TRAPEZE_PS_L1D, P(lookahead), 3, 0, 1024},  /* Snooze: 3-5 */
    {"trapeze_sleep_lookahead_l2", TRAPEZE_PS_L2, P(lookahead), 3, 0, 1024},
    {"trapeze_sleep_lookahead_rf", TRAPEZE_PS_RF, P(lookahead), 3, 0, 1024},    /* 3 future warps */
    {"trapeze_slumber_shallow", TRAPEZE_PS_RF, P(slumber[0]), 4, 1, 1024},      /* Table 6.1 */
    {"trapeze_slumber_deep", TRAPEZE_PS_RF, P(slumber[1]), 13, 1, 1024},
    {"trapeze_slumber_gated", TRAPEZE_PS_RF, P(slumber[2]), 16, 1, 1024},
    {"trapeze_drowsy_wake", TRAPEZE_PS_RF, P(drowsy_wake), 1, 0, 1024},         /* Warped RF */
};
#undef P

/* Policy options: option, structure. */
static const char *const policy_option[TRAPEZE_PS_SLEEPABLE] = {
    "trapeze_sleep_l1d", "trapeze_sleep_l2", "trapeze_sleep_rf"};

trapeze_status sim_sleep_config_set(sim_sleep_config *sc, trapeze_power_structure s,
                                    const char *value, trapeze_error *err)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", value);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon++ = '\0';
    int k = sim_sleep_find(buf);
    if (k < 0 || !(sim_sleep_policy((sim_sleep_kind)k)->structures >> s & 1))
        return trapeze_fail(err, TRAPEZE_EPARSE,
                            "sleep policy for %s: '%s' is not one of %s", structure_key[s], buf,
                            s == TRAPEZE_PS_RF ? "always_on, drowsy, slumber, oracle"
                                               : "always_on, snooze, oracle");
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
        trapeze_config_get_string(cfg, policy_option[s], NULL, &v);
        if (v && sim_sleep_config_set(sc, (trapeze_power_structure)s, v, &why))
            return trapeze_config_fail(cfg, policy_option[s], err, "%s", why.message);
    }
    for (size_t i = 0; i < sizeof int_options / sizeof *int_options; i++) {
        const int_option *o = &int_options[i];
        long v;
        if ((st = trapeze_config_get_int(cfg, o->option, o->fallback, &v, err)))
            return st;
        if (v < o->lo || v > o->hi)
            return trapeze_config_fail(cfg, o->option, err, "must lie between %d and %d",
                                       o->lo, o->hi);
        *(int *)((char *)&sc->s[o->structure].p + o->offset) = (int)v;
    }
    const int *th = sc->s[TRAPEZE_PS_RF].p.slumber;
    if (th[0] > th[1] || th[1] > th[2])
        return trapeze_config_fail(cfg, "trapeze_slumber_deep", err,
                                   "Slumber thresholds must grow: shallow %d <= deep %d <= "
                                   "gated %d", th[0], th[1], th[2]);
    return TRAPEZE_OK;
}
