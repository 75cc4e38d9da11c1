/*
 * A stencil described in its author's terms (shape, radius, arrays, element
 * type, arithmetic per point) and no [profile]: the instruction counts it
 * implies, against hand counts, and the generated kernel running exactly
 * those instructions (shared and global loads, special-function ops counted
 * by the simulator). The errors a spec can make in these terms name the
 * file, line and key; Meng-style [profile] counts that imply absurd work per
 * point are refused with the figure.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sim/events.h"
#include "sim/stencil/stencil_run.h"

static char dir[] = "/tmp/test_workload_spec.XXXXXX";

/* Writes text to DIR/name.ini and loads it; returns the status. */
static trapeze_status load(const char *name, const char *text, trapeze_workload *w,
                           trapeze_error *err)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.ini", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return TRAPEZE_EIO;
    fputs(text, f);
    fclose(f);
    trapeze_status s = trapeze_workload_load(path, w, err);
    unlink(path);
    return s;
}

static void check_counts(const trapeze_workload *w, int points, int shared, int global, int arith,
                         int sfu, int per_point, int setup, int outside)
{
    trapeze_workload_counts c;
    trapeze_workload_derive_counts(w, &c);
    CHECK(c.points == points);
    CHECK(c.shared_loads == shared);
    CHECK(c.global_loads == global);
    CHECK(c.arith == arith);
    CHECK(c.sfu == sfu);
    CHECK(c.per_point == per_point);
    CHECK(c.setup == setup);
    CHECK(c.outside_loop == outside);
    /* what the model and the generator read: Meng's convention, N = 30 x 32 */
    CHECK(w->counts_source == TRAPEZE_COUNTS_SPEC);
    CHECK(w->profile_elements == 960);
    CHECK(w->insts_per_sm_ic == per_point);
    CHECK(w->insts_per_sm_mc == outside);
    CHECK(sim_stencil_default_insts_per_op(w) == per_point);
    CHECK(sim_stencil_default_setup_insts(w) == setup);
}

/* The generated kernel of w at h = 1, one iteration, on the GTX 480: every
 * warp of every tile has interior threads, so each runs the op once. */
static void check_kernel(const trapeze_config *cfg, const trapeze_workload *w, long tiles,
                         int warps, int shared, int global, int sfu)
{
    sim_gpu *gpu = NULL;
    sim_stencil_result *r = NULL;
    trapeze_error err;
    sim_stencil_spec spec = {.workload = w, .h = 1, .sync = TRAPEZE_SYNC_RELAUNCH,
                             .iterations = 1};
    CHECK_OK(sim_gpu_create(cfg, NULL, &gpu, &err));
    if (!gpu || sim_stencil_run(gpu, &spec, &r, &err)) {
        fprintf(stderr, "%s: %s\n", w->name, err.message);
        CHECK(0);
        sim_gpu_destroy(gpu);
        return;
    }
    CHECK(r->n_stats == 1 && r->stencil->tiles == tiles);
    const sim_kernel_stats *k = &r->stats[0];
    long per_warp = tiles * warps;
    CHECK(k->total.shld_insts == (uint64_t)(per_warp * shared));
    /* staging: one load per array; then the op's NumElemPerOp */
    CHECK(k->total.gld_insts == (uint64_t)(per_warp * (w->stencil_arrays + global)));
    CHECK(k->events[SIM_EV_SFU_OP] == (uint64_t)(per_warp * sfu));
    sim_stencil_result_destroy(r);
    sim_gpu_destroy(gpu);
}

static void check_error(const char *name, const char *text, const char *want)
{
    trapeze_workload w;
    trapeze_error err = {0};
    CHECK(load(name, text, &w, &err) != TRAPEZE_OK);
    if (!strstr(err.message, want)) {
        fprintf(stderr, "%s: got '%s', want '%s'\n", name, err.message, want);
        CHECK(0);
    }
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    trapeze_workload w;
    trapeze_error err;
    trapeze_config *cfg = NULL;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));

    /* a 13-point 2-D star of radius 3: 13 loads, 13 multiply-adds, the store;
     * setup 4 x 2 + 2 = 10; outside the loop 10 + 2 x 1 array + the commit */
    CHECK_OK(load("star13", "[workload]\ndimensions = 2\nsize = 2048x2048\nradius = 3\n"
                  "shape = star\nblock = 32x32\n", &w, &err));
    CHECK(w.halo[0] == 6 && w.halo[1] == 6 && w.shape_given && w.star);
    check_counts(&w, 13, 13, 0, 13, 0, 27, 10, 13);
    /* the same without a shape: the 7 x 7 box, and the spec says it was not given */
    CHECK_OK(load("box49", "[workload]\ndimensions = 2\nsize = 2048x2048\nradius = 3\n"
                  "block = 32x32\n", &w, &err));
    CHECK(!w.shape_given);
    check_counts(&w, 49, 49, 0, 49, 0, 99, 10, 13);
    /* the star as a list of offsets, continued on an indented line */
    CHECK_OK(load("star13list", "[workload]\ndimensions = 2\nsize = 64x64\nblock = 16\n"
                  "shape = -3,0 -2,0 -1,0 0,0 1,0 2,0 3,0\n  0,-3 0,-2 0,-1 0,1 0,2 0,3\n", &w,
                  &err));
    CHECK(w.n_offsets == 13 && w.halo[0] == 6 && w.halo[1] == 6);
    check_counts(&w, 13, 13, 0, 13, 0, 27, 10, 13);
    /* a continuation line is not the key given twice; the key on a line of
     * its own after it is */
    CHECK(load("star13twice", "[workload]\ndimensions = 2\nsize = 64x64\nblock = 16\n"
               "shape = -3,0 -2,0 -1,0 0,0 1,0 2,0 3,0\n  0,-3 0,-2 0,-1 0,1 0,2 0,3\n"
               "shape = star\n", &w, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":7: [workload] shape: given twice (first on line 5)") != NULL);
    /* a 1-D radius-3 stencil: 7 + 7 + 1; setup 6 */
    CHECK_OK(load("r3", "[workload]\ndimensions = 1\nsize = 4194304\nradius = 3\nblock = 256\n",
                  &w, &err));
    check_counts(&w, 7, 7, 0, 7, 0, 15, 6, 9);

    /* listed offsets (6 points, halo 2 in both dimensions), a second array
     * read with aux_halo 2 over the same points, one global load per op,
     * 20 arithmetic and 3 special-function instructions in double:
     * 6 + 6 shared + 1 global + 20 + 3 + 1 = 37; outside 10 + 2 x 2 + 1 */
    const char *listed = "[workload]\nname = Listed\ndimensions = 2\nsize = 12x6\nblock = 8\n"
                         "shape = 0,0 1,0 -1,0 0,1 0,-1 (1,1)\nstencil_arrays = 2\naux_halo = 2\n"
                         "elem_per_op = 1\nflops_per_point = 20\nsfu_per_point = 3\n"
                         "element_type = double\niterations = 1\n";
    CHECK_OK(load("listed", listed, &w, &err));
    CHECK(w.n_offsets == 6 && w.halo[0] == 2 && w.halo[1] == 2 && w.element_bytes == 8);
    check_counts(&w, 6, 12, 1, 20, 3, 37, 10, 15);
    /* block 8 x 8: 2 warps, both with interior threads; out edge 6: 2 x 1 tiles */
    if (cfg)
        check_kernel(cfg, &w, 2, 2, 12, 1, 3);
    /* a one-sided list: reach 0 before, 2 after; halo 2 */
    CHECK_OK(load("upwind", "[workload]\ndimensions = 1\nsize = 1000\nblock = 64\n"
                  "shape = 0 1 2\n", &w, &err));
    int left[3], right[3];
    trapeze_workload_reach(&w, left, right);
    CHECK(w.halo[0] == 2 && left[0] == 0 && right[0] == 2);
    check_counts(&w, 3, 3, 0, 3, 0, 7, 6, 9);
    if (cfg)
        check_kernel(cfg, &w, 17, 2, 3, 0, 0); /* ceil(1000 / 62) tiles */

    /* Meng's [profile] stays an override, read as before */
    CHECK_OK(trapeze_workload_load("data/workloads/hotspot.ini", &w, &err));
    CHECK(w.counts_source == TRAPEZE_COUNTS_PROFILE && w.insts_per_sm_ic == 16645);
    CHECK(sim_stencil_default_insts_per_op(&w) == 64);

    /* every key the parser reads is in its table, and only those */
    const char *section, *key;
    int n = 0, has_shape = 0, has_profile = 0;
    for (; (key = trapeze_workload_key(n, &section)); n++) {
        has_shape += !strcmp(key, "shape") && !strcmp(section, "workload");
        has_profile += !strcmp(section, "profile");
    }
    CHECK(n == 21 && has_shape == 1 && has_profile == 4);

    check_error("both", "[workload]\ndimensions = 1\nsize = 100\nhalo = 2\nradius = 1\nblock = 32\n",
                "both.ini:5: [workload] radius: give halo or radius, not both");
    check_error("dims", "[workload]\ndimensions = 2\nsize = 100x100\nblock = 16\nshape = 0 1 -1\n",
                "dims.ini:5: [workload] shape: offsets of 1 coordinates for 2 dimensions");
    check_error("span", "[workload]\ndimensions = 1\nsize = 100\nradius = 2\nblock = 32\n"
                "shape = -1 0 1\n", "span.ini:4: [workload] radius: 2 in dimension 1, but the "
                "offsets of line 6 span 2");
    check_error("flat", "[workload]\ndimensions = 2\nsize = 100x100\nblock = 16\n"
                "shape = -1,0 0,0 1,0\n", "flat.ini:5: [workload] shape: the offsets span "
                "nothing in dimension 2");
    check_error("type", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\nelement_bytes = 4\n"
                "element_type = double\n", "type.ini:6: [workload] element_type: double is 8 "
                "bytes, but element_bytes = 4");
    check_error("shape", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\nshape = cross\n",
                "shape.ini:5: [workload] shape: expected box, star or a list of offsets");
    check_error("huge", "[workload]\ndimensions = 3\nsize = 100x100x100\nblock = 64\nradius = 11\n",
                "huge.ini:5: [workload] halo: a box of halo 22 reads 12167 points per op, more "
                "than 10000");
    check_error("work", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\n"
                "flops_per_point = 6000\nsfu_per_point = 6000\n", "work.ini:5: [workload] "
                "flops_per_point: 12004 instructions per point (3 loads, 6000 arithmetic, 6000 "
                "special-function, the store), more than 10000");
    check_error("arrays", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\nstencil_arrays = 10\n",
                "arrays.ini:5: [workload] stencil_arrays: 10 is outside [1, 9]");
    /* Meng's counts per SM of 30 for N = 1 element: 16 x 30 / 1 x 32 per point */
    check_error("absurd", "[workload]\ndimensions = 1\nsize = 4194304\nradius = 3\nblock = 256\n"
                "[profile]\ninput_elements = 1\ninsts_per_sm_mc = 16\ninsts_per_sm_ic = 16\n",
                "absurd.ini:7: [profile] input_elements: 1 with insts_per_sm_ic = 16 and "
                "insts_per_sm_mc = 16 (Meng's GTX 280 counts, per SM of 30) implies 15360 warp "
                "instructions per point and loop and 15360 outside it, more than 10000 (the "
                "stencil itself implies 15 and 9");
    check_error("partial", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\n[profile]\n"
                "insts_per_sm_ic = 16\n", "partial.ini: [profile] input_elements is required "
                "with the other [profile] counts");
    check_error("unknown", "[workload]\ndimensions = 1\nsize = 100\nblock = 32\nflops = 3\n",
                "unknown.ini:5: [workload] flops: unknown key");

    trapeze_config_destroy(cfg);
    rmdir(dir);
    return check_report("test_workload_spec");
}
