/*
 * The ghost-zone gradient at whole heights, as include/trapeze.h documents
 * it: in paper mode the analytic dCPL/dh at a whole h is the smooth model's,
 * so its sign and value agree with central finite differences taken across
 * that height, for every valid height of the four benchmarks in both modes.
 * (tests/test_ghostzone.c checks real-valued h; this covers the points the
 * step model and the integer argmin use.)
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "trapeze.h"

static void check_workload(const trapeze_gpu *gpu, const trapeze_ghostzone_params *p, const char *name)
{
    char path[128];
    trapeze_workload w;
    trapeze_ghostzone_model *m;
    trapeze_error err;
    snprintf(path, sizeof path, "data/workloads/%s.ini", name);
    CHECK_OK(trapeze_workload_load(path, &w, &err));
    CHECK_OK(trapeze_ghostzone_create(gpu, &w, p, &m, &err));
    int hmax = trapeze_ghostzone_max_height(m, w.blk_len);
    int sign_agree = 0, total = 0;
    for (int s = 0; s < 2; s++)
        for (int h = 2; h < hmax && h <= 40; h++) {
            trapeze_ghostzone_eval e, lo, hi;
            const double step = 1e-4;
            CHECK_OK(trapeze_ghostzone_evaluate(m, (trapeze_sync)s, h, w.blk_len, &e, &err));
            CHECK_OK(trapeze_ghostzone_evaluate(m, (trapeze_sync)s, h + step, w.blk_len, &hi, &err));
            CHECK_OK(trapeze_ghostzone_evaluate(m, (trapeze_sync)s, h - step, w.blk_len, &lo, &err));
            double fd = (hi.cpl - lo.cpl) / (2 * step);
            total++;
            sign_agree += (e.dcpl_dh > 0) == (fd > 0);
            CHECK(fabs(e.dcpl_dh - fd) <= 1e-4 * fabs(fd) + 1e-7 * e.cpl);
        }
    CHECK(total > 0 && sign_agree == total);
    trapeze_ghostzone_destroy(m);
}

int main(void)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_ghostzone_params p;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx280.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    trapeze_config_destroy(cfg);
    CHECK_OK(trapeze_ghostzone_params_load("data/calibrations/gtx280-meng2010.ini", &p, &err));
    const char *names[] = {"pathfinder", "hotspot", "poisson", "cell"};
    for (int i = 0; i < 4; i++)
        check_workload(&gpu, &p, names[i]);
    return check_report("test_gz_whole_heights");
}
