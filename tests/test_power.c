/* test_power.c - power descriptions: the shipped files carry the seeds' mode
 * tables and the notes' numbers; malformed files name file, line and field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check.h"
#include "trapeze.h"

static void test_shipped(void)
{
    trapeze_power p;
    trapeze_error err = {0};
    CHECK_OK(trapeze_power_load("data/power/gtx480.ini", &p, &err));
    CHECK(strcmp(p.name, "gtx480") == 0);
    CHECK_NEAR(p.constant_w, 11.0, 0);        /* GPUWattch CONST_DYNAMICN */
    CHECK_NEAR(p.idle_sm_w, 1.59, 0);
    CHECK_NEAR(p.event_j[TRAPEZE_PE_REG_READ], 7.27e-12, 1e-20);
    CHECK_NEAR(p.event_j[TRAPEZE_PE_DRAM_READ], 26.9e-9, 1e-18);
    CHECK_NEAR(p.leak_w[TRAPEZE_PS_RF], 0.61, 0);
    /* Snooze Table 5.2 */
    CHECK(p.n_modes[TRAPEZE_PS_L1D] == 3 && p.n_modes[TRAPEZE_PS_L2] == 3);
    int sl = trapeze_power_mode_find(&p, TRAPEZE_PS_L2, "sleep");
    int off = trapeze_power_mode_find(&p, TRAPEZE_PS_L2, "off");
    CHECK(sl == 1 && off == 2);
    CHECK_NEAR(p.mode[TRAPEZE_PS_L2][sl].leak_fraction, 0.228, 0);
    CHECK_NEAR(p.mode[TRAPEZE_PS_L2][off].leak_fraction, 0.015, 0);
    CHECK(p.mode[TRAPEZE_PS_L2][off].wake_cycles == 2 && !p.mode[TRAPEZE_PS_L2][off].retains_state);
    CHECK(p.mode[TRAPEZE_PS_L1D][0].leak_fraction == 1.0 && p.mode[TRAPEZE_PS_L1D][0].wake_cycles == 0);
    /* Slumber Table 6.1 */
    const trapeze_power_mode *rf = p.mode[TRAPEZE_PS_RF];
    CHECK(p.n_modes[TRAPEZE_PS_RF] == 4);
    CHECK(!strcmp(rf[1].name, "shallow") && rf[1].wake_cycles == 4 && rf[1].leak_fraction == 0.94);
    CHECK(!strcmp(rf[2].name, "deep") && rf[2].wake_cycles == 13 && rf[2].leak_fraction == 0.42);
    CHECK(!strcmp(rf[3].name, "gated") && rf[3].wake_cycles == 16 && rf[3].leak_fraction == 0.0);
    CHECK(rf[2].retains_state && !rf[3].retains_state);
    CHECK(trapeze_power_mode_find(&p, TRAPEZE_PS_SHMEM, "on") == -1);

    CHECK_OK(trapeze_power_load("data/power/v100.ini", &p, &err));
    CHECK(strcmp(p.name, "v100") == 0);
    CHECK_NEAR(p.constant_w, 32.325, 0);      /* AccelWattch constant_power */
    CHECK_NEAR(p.idle_sm_w, 0.2828, 0);
    CHECK_NEAR(p.event_j[TRAPEZE_PE_REG_READ], 2.50e-12, 1e-20);
    /* per-SM leakage scaled to AccelWattch's 0.48 W static per active SM */
    double sm = p.leak_w[TRAPEZE_PS_RF] + p.leak_w[TRAPEZE_PS_SHMEM] + p.leak_w[TRAPEZE_PS_L1D] +
                p.leak_w[TRAPEZE_PS_SM_OTHER];
    CHECK_NEAR(sm, 0.48, 1e-3);
    CHECK(p.n_modes[TRAPEZE_PS_RF] == 4 && p.mode[TRAPEZE_PS_RF][3].wake_cycles == 16);
}

/* A tag-only probe costs the tag array's share of a read hit: CACTI's tag
 * width (42 address + 5 state bits - index - 7 offset) against a 1024-bit
 * line, on each GPU's geometry: the GTX 480's L1D 32 sets (35 bits), L2
 * slice 64 sets (34); the V100's L1D 4 sets (38), L2 slice 32 sets (35);
 * the seed profiles the same; the scaled GPUs the V100's x k, as their
 * other events. Rounded to 4 digits in the files. */
static void test_tag_probe(void)
{
    static const struct {
        const char *file;
        int l1_tag, l2_tag;
        double k;
    } g[] = {{"gtx480", 35, 34, 1}, {"gtx480-seed", 35, 34, 1}, {"v100", 38, 35, 1},
             {"v100-seed", 38, 35, 1}, {"a100", 38, 35, 0.5833}, {"h100", 38, 35, 0.4167},
             {"rtx3070", 38, 35, 0.6667}};
    trapeze_power v100;
    trapeze_error err = {0};
    CHECK_OK(trapeze_power_load("data/power/v100.ini", &v100, &err));
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "data/power/%s.ini", g[i].file);
        trapeze_power p;
        CHECK_OK(trapeze_power_load(path, &p, &err));
        const double *read = g[i].k == 1 ? p.event_j : v100.event_j;
        double l1 = g[i].k * read[TRAPEZE_PE_L1_READ_HIT] * g[i].l1_tag / (g[i].l1_tag + 1024.0);
        double l2 = g[i].k * read[TRAPEZE_PE_L2_READ_HIT] * g[i].l2_tag / (g[i].l2_tag + 1024.0);
        CHECK_NEAR(p.event_j[TRAPEZE_PE_L1_TAG_PROBE], l1, 1e-3 * l1);
        CHECK_NEAR(p.event_j[TRAPEZE_PE_L2_TAG_PROBE], l2, 1e-3 * l2);
    }
}

/* Writes the shipped GTX 480 file with `line` replaced (or appended when
 * `old` is NULL) and returns the error message of loading it. */
static trapeze_status load_edited(const char *old, const char *repl, char *msg, size_t n,
                                  int *line_of_edit)
{
    FILE *in = fopen("data/power/gtx480.ini", "r");
    char path[] = "/tmp/trapeze-power-XXXXXX";
    int fd = mkstemp(path);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    char buf[512];
    int line = 0;
    *line_of_edit = 0;
    while (in && out && fgets(buf, sizeof buf, in)) {
        line++;
        if (old && !strncmp(buf, old, strlen(old))) {
            *line_of_edit = line;
            if (repl)
                fprintf(out, "%s\n", repl);
            else
                fputs("\n", out);  /* keep line numbers */
        } else {
            fputs(buf, out);
        }
    }
    if (!old && out) {
        fprintf(out, "%s\n", repl);
        *line_of_edit = line + 1;
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    trapeze_power p;
    trapeze_error err = {0};
    trapeze_status rc = trapeze_power_load(path, &p, &err);
    /* the message with the temporary path replaced by FILE */
    const char *at = strstr(err.message, path);
    if (at)
        snprintf(msg, n, "FILE%s", at + strlen(path));
    else
        snprintf(msg, n, "%s", err.message);
    unlink(path);
    return rc;
}

static void test_malformed(void)
{
    char msg[768], want[256];
    int line;
    CHECK(load_edited("reg_read =", "reg_read = lots", msg, sizeof msg, &line) == TRAPEZE_EPARSE);
    snprintf(want, sizeof want, "FILE:%d: [event_j] reg_read: expected a number in [0, 1], got 'lots'", line);
    CHECK(line > 0 && strcmp(msg, want) == 0);

    CHECK(load_edited("idle_sm =", NULL, msg, sizeof msg, &line) == TRAPEZE_EPARSE);
    CHECK(strcmp(msg, "FILE: [power_w] idle_sm: missing") == 0);

    CHECK(load_edited("leak_fraction = 0.94", "leak_fraction = 1.5", msg, sizeof msg, &line) ==
          TRAPEZE_ERANGE);
    snprintf(want, sizeof want,
             "FILE:%d: [mode.rf.shallow] leak_fraction: 1.5 is outside [0, 1]", line);
    CHECK(strcmp(msg, want) == 0);

    CHECK(load_edited(NULL, "[mode.l1d.nap]\nleak_fraction = 0.5", msg, sizeof msg, &line) ==
          TRAPEZE_EPARSE);
    CHECK(strcmp(msg, "FILE: [mode.l1d.nap] wake_cycles: missing") == 0);

    /* the RF already has three sleep modes */
    CHECK(load_edited(NULL, "[mode.rf.nap]\nleak_fraction = 0.5", msg, sizeof msg, &line) ==
          TRAPEZE_ERANGE);
    CHECK(strstr(msg, "[mode.rf.nap] leak_fraction: more than 3 sleep modes") != NULL);

    CHECK(load_edited(NULL, "[mode.shmem.nap]\nleak_fraction = 0.5", msg, sizeof msg, &line) ==
          TRAPEZE_EPARSE);
    CHECK(strstr(msg, "[mode.shmem.nap] leak_fraction: section must be") != NULL);

    CHECK(load_edited("l2 = ", "l3 = 0.1", msg, sizeof msg, &line) == TRAPEZE_EPARSE);
    snprintf(want, sizeof want, "FILE:%d: [leakage_w] l3: unknown key", line);
    CHECK(strcmp(msg, want) == 0);
}

/* A key given twice in a section is an error naming both lines, in each
 * section (it was last-wins: the second value silently replaced the first). */
static void test_duplicates(void)
{
    static const char *const cases[][3] = {
        {"reg_read =", "reg_read = 1e-12\nreg_read = 2e-12", "[event_j] reg_read"},
        {"idle_sm =", "idle_sm = 1\nidle_sm = 2", "[power_w] idle_sm"},
        {"l2 = ", "l2 = 0.1\nl2 = 0.2", "[leakage_w] l2"},
    };
    for (int i = 0; i < 3; i++) {
        char msg[768], want[256];
        int line;
        CHECK(load_edited(cases[i][0], cases[i][1], msg, sizeof msg, &line) == TRAPEZE_EPARSE);
        snprintf(want, sizeof want, "FILE:%d: %s: given twice (first on line %d); each key is "
                 "given once", line + 1, cases[i][2], line);
        if (strcmp(msg, want) != 0)
            fprintf(stderr, "got  '%s'\nwant '%s'\n", msg, want);
        CHECK(line > 0 && strcmp(msg, want) == 0);
    }
    /* a section name longer than inih's 49 bytes is reported as written */
    char section[256], msg[768];
    int line;
    memset(section, 0, sizeof section);
    section[0] = '[';
    memset(section + 1, 'w', 210);
    strcat(section, "]\nx = 1");
    CHECK(load_edited(NULL, section, msg, sizeof msg, &line) == TRAPEZE_EPARSE);
    section[211] = '\0';
    CHECK(strstr(msg, section) != NULL);   /* "[www...w" whole, then "]" */
    CHECK(strstr(msg, "w] x:") != NULL);
}

/* The scaled descriptions (a100, h100, rtx3070: the V100's numbers x k, the
 * node over 12 nm, and x size): each parses, and gives the split worked out
 * by hand below. Static: constant + SMs x per-SM leakage + L2 slices x a
 * slice's, all ON. Dynamic reference: every SM issuing one FP32 warp
 * instruction a cycle (issue + 32 x (fp_op + 2 reg_read + reg_write)); the
 * V100's file gives 70.97 W against 65.34 W on it, a static share of 0.52.
 * Plausible: a share within 0.40-0.60, the range of AccelWattch's published
 * leakage-like shares of average power (notes section 3: V100 40%, Turing
 * 45%, Pascal 57%). And the scaling keeps every break-even in seconds: E_tr
 * and the leakage both scale with k x bits (RF deep: 2.777e-11 J /
 * (0.04756 W x 0.58) = 1.007 ns on the V100). */
static void test_scaled(void)
{
    static const struct {
        const char *name;
        int sms, slices;
        double clock_hz, per_sm_w, static_w, dynamic_w;
    } g[] = {
        /* k = 7/12; shmem 164/96 KB: 0.5833 x (0.3538 + 0.04756 + 0.001268 +
         * 0.07736 x 1.7083) = 0.3120 W per SM; 32.325 x 826/815 = 32.76 W +
         * 108 x 0.3120 + 160 x 0.003804 x 0.5833 x 256/96 (0.005917) = 67.40 W;
         * 108 x 1.41e9 x 0.5833 x 721.5 pJ = 64.08 W */
        {"a100", 108, 160, 1410e6, 0.3120, 67.40, 64.08},
        /* k = 5/12: 0.4167 x 0.47999 = 0.2000 W per SM; 32.29 + 132 x 0.2000 +
         * 160 x 0.005283 (320/96 KB slices) = 59.53 W; 132 x 1.132e9 x 300.6 pJ
         * = 44.92 W */
        {"h100", 132, 160, 1132e6, 0.2000, 59.53, 44.92},
        /* k = 8/12; L1D 128/32 KB, shmem 100/96 KB: 0.6667 x (0.3538 + 0.04756 +
         * 4 x 0.001268 + 0.07736 x 1.04167) = 0.3247 W; 15.55 (392/815 mm2) +
         * 46 x 0.3247 + 32 x 0.003381 = 30.60 W; 46 x 1.132e9 x 481.0 pJ =
         * 25.05 W */
        {"rtx3070", 46, 32, 1132e6, 0.3247, 30.60, 25.05},
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "data/power/%s.ini", g[i].name);
        trapeze_power p;
        trapeze_error err = {0};
        CHECK_OK(trapeze_power_load(path, &p, &err));
        CHECK(strcmp(p.name, g[i].name) == 0);
        const double *l = p.leak_w, *e = p.event_j;
        double per_sm = l[TRAPEZE_PS_L1D] + l[TRAPEZE_PS_RF] + l[TRAPEZE_PS_SHMEM] +
                        l[TRAPEZE_PS_SM_OTHER];
        double stat = p.constant_w + g[i].sms * per_sm + g[i].slices * l[TRAPEZE_PS_L2];
        double dyn = g[i].sms * g[i].clock_hz *
                     (e[TRAPEZE_PE_INST_ISSUE] +
                      32 * (e[TRAPEZE_PE_FP_OP] + 2 * e[TRAPEZE_PE_REG_READ] + e[TRAPEZE_PE_REG_WRITE]));
        CHECK_NEAR(per_sm, g[i].per_sm_w, 1e-4);
        CHECK_NEAR(stat, g[i].static_w, 0.01);
        CHECK_NEAR(dyn, g[i].dynamic_w, 0.01);
        CHECK(stat / (stat + dyn) > 0.40 && stat / (stat + dyn) < 0.60);
        /* the same modes as every GPU, with sourced transition energies */
        CHECK(p.n_modes[TRAPEZE_PS_L1D] == 3 && p.n_modes[TRAPEZE_PS_RF] == 4);
        int deep = trapeze_power_mode_find(&p, TRAPEZE_PS_RF, "deep");
        CHECK(deep == 2);
        double be = p.mode[TRAPEZE_PS_RF][deep].transition_j /
                    (l[TRAPEZE_PS_RF] * (1 - p.mode[TRAPEZE_PS_RF][deep].leak_fraction));
        /* the V100's: 3.778e-10 J / (0.04756 W x 0.58) = 13.70 ns */
        CHECK_NEAR(be, 13.70e-9, 0.01e-9);
        int off = trapeze_power_mode_find(&p, TRAPEZE_PS_L2, "off");
        CHECK(off == 2 && p.mode[TRAPEZE_PS_L2][off].transition_j > 0);
    }
}

int main(void)
{
    test_shipped();
    test_tag_probe();
    test_malformed();
    test_duplicates();
    test_scaled();
    return check_report("test_power");
}
