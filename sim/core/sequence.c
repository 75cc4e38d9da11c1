/*
 * sequence.c - running a kernel sequence: kernels in order on one GPU, the
 * launch latency between them (sim_gpu_run's relaunch), each launch's
 * statistics kept or handed to the caller. The one loop that the command
 * line, the stencil runner, the sampler and trace replay all use; kernels
 * may be given up front or produced one at a time (a trace opened and
 * closed per kernel). Owns the loop only: what a launch does is
 * gpu_sim.c's.
 */
#include "common/error.h"
#include "sim/core/gpu_sim.h"

trapeze_status sim_gpu_run_sequence(sim_gpu *g, const sim_sequence *seq, sim_kernel_stats *keep,
                                    int *ran, trapeze_error *err)
{
    if (ran)
        *ran = 0;
    for (int i = 0; i < seq->n; i++) {
        const sim_kernel *k = seq->kernels ? seq->kernels[i] : NULL;
        trapeze_status s = k ? TRAPEZE_OK : seq->open(seq->ctx, i, &k, err);
        if (s)
            return s;
        sim_kernel_stats st;
        sim_gpu_sequence_at(g, i + 1, seq->n);
        s = sim_gpu_run(g, k, &st, err);
        sim_gpu_sequence_at(g, 0, 0);
        if (seq->close) {
            /* always closed; its check counts only when the launch succeeded */
            trapeze_status c = seq->close(seq->ctx, i, s == TRAPEZE_OK, s ? NULL : err);
            if (!s && c) {
                sim_kernel_stats_free(&st);
                s = c;
            }
        }
        if (s)
            return s;
        if (seq->ran)
            seq->ran(seq->ctx, i, &st);
        if (keep)
            keep[i] = st;
        else
            sim_kernel_stats_free(&st);
        if (ran)
            (*ran)++;
    }
    return TRAPEZE_OK;
}
