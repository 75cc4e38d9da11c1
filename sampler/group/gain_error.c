/*
 * gain_error.c - the error of a predicted gain over round-robin against the
 * runs, one candidate of one launch at a time, and its rms over launches:
 * the uncertainty u a grouping's predicted gain must exceed to replace rr
 * (sampler/group/group_decide.c). Owns the forms of that error only; which
 * predictions and runs it sees (held out over launches) is the caller's
 * (cli/calib_group.c).
 */
#include <math.h>

#include "trapeze.h"

/* Paired forms compare a candidate with rr of the same launch, so an error
 * common to every candidate of a launch (its whole-launch cycles off by the
 * same factor) cancels; the unpaired form keeps it, as a gate on absolute
 * cycles would. */
double trapeze_group_gain_error(trapeze_group_gain_form form, double pred, double pred_rr,
                                double sim, double sim_rr)
{
    switch (form) {
    case TRAPEZE_GROUP_GAIN_DIFFERENCE:   /* (1 - pred/pred_rr) - (1 - sim/sim_rr) */
        return sim / sim_rr - pred / pred_rr;
    case TRAPEZE_GROUP_GAIN_ABSOLUTE:
        return pred / sim - 1;
    case TRAPEZE_GROUP_GAIN_RATIO:
    default:
        return (pred / pred_rr) / (sim / sim_rr) - 1;
    }
}

double trapeze_group_gain_uncertainty(const double *err, int n_launches, int per, int skip)
{
    double sum = 0;
    int count = 0;
    for (int j = 0; j < n_launches; j++)
        for (int c = 0; j != skip && c < per; c++) {
            sum += err[j * per + c] * err[j * per + c];
            count++;
        }
    return count ? sqrt(sum / count) : -1;
}
