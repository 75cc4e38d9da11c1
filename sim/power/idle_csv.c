/*
 * idle_csv.c - idle-period histograms as the long table of the contract
 * (docs/energy.md, issues/CONTRACTS.md):
 *   gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles,
 *   next_access,count
 * one row per non-empty bin. Owns the format only.
 */
#include "sim/power/idle_csv.h"

static const struct {
    const char *structure, *granularity;
} unit_names[SIM_UNIT_KIND_COUNT] = {
    [SIM_UNIT_REG_BANK] = {"rf", "bank"},     [SIM_UNIT_L1_BANK] = {"l1d", "bank"},
    [SIM_UNIT_L2_BANK] = {"l2", "slice"},     [SIM_UNIT_REG] = {"rf", "warp_reg"},
    [SIM_UNIT_L1_LINE] = {"l1d", "line"},     [SIM_UNIT_L2_LINE] = {"l2", "line"}};

/* Structure order of the table: l1d line, bank; l2 line, slice; rf warp_reg, bank. */
static const sim_unit_kind order[SIM_UNIT_KIND_COUNT] = {
    SIM_UNIT_L1_LINE, SIM_UNIT_L1_BANK, SIM_UNIT_L2_LINE,
    SIM_UNIT_L2_BANK, SIM_UNIT_REG,     SIM_UNIT_REG_BANK};

const char *const sim_idle_csv_columns[] = {"gpu", "kernel", "structure", "granularity",
                                            "length_min_cycles", "length_max_cycles",
                                            "next_access", "count"};

trapeze_status sim_idle_write_csv(const char *path, const char *gpu, const char *const *kernels,
                                  const sim_idle_hist *const *hists, int n, trapeze_error *err)
{
    trapeze_csv_out *csv;
    trapeze_status s = trapeze_csv_create(path, sim_idle_csv_columns, 8, &csv, err);
    if (s)
        return s;
    for (int i = 0; i < n; i++)
        for (int o = 0; o < SIM_UNIT_KIND_COUNT; o++) {
            sim_unit_kind k = order[o];
            const sim_idle_hist *h = &hists[i][k];
            for (int b = 0; b < SIM_IDLE_BINS; b++)
                for (int x = 0; x < SIM_NEXT_COUNT; x++) {
                    if (!h->bin[x][b].count)
                        continue;
                    uint64_t lo, hi;
                    sim_idle_bin_range(b, &lo, &hi);
                    trapeze_csv_text(csv, gpu);
                    trapeze_csv_text(csv, kernels[i]);
                    trapeze_csv_text(csv, unit_names[k].structure);
                    trapeze_csv_text(csv, unit_names[k].granularity);
                    trapeze_csv_number(csv, (double)lo);
                    trapeze_csv_number(csv, (double)hi);
                    trapeze_csv_text(csv, sim_next_access_name((sim_next_access)x));
                    trapeze_csv_number(csv, (double)h->bin[x][b].count);
                    if ((s = trapeze_csv_end_row(csv, err))) {
                        trapeze_csv_abort(csv);
                        return s;
                    }
                }
        }
    return trapeze_csv_commit(csv, err);
}
