/*
 * idle_csv.h - writing idle-period histograms in the contract's CSV format.
 */
#ifndef TRAPEZE_SIM_POWER_IDLE_CSV_H
#define TRAPEZE_SIM_POWER_IDLE_CSV_H

#include "sim/events.h"
#include "trapeze.h"

extern const char *const sim_idle_csv_columns[];

/* hists[i]: SIM_UNIT_KIND_COUNT histograms of kernels[i]. */
trapeze_status sim_idle_write_csv(const char *path, const char *gpu, const char *const *kernels,
                                  const sim_idle_hist *const *hists, int n, trapeze_error *err);

#endif
