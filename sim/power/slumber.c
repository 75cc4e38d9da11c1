/*
 * slumber.c - Slumber (seed 004 sections 4.3-4.6) for the register file at
 * 128-byte warp-register granularity. The mode of an idle period comes
 * from its predicted length T (Table 6.1 thresholds, settable):
 *   T < shallow: ON;  T < deep: shallow sleep;  T < gated, or the next
 *   access is a read: deep sleep;  else (next access a write, or the value
 *   dead): power-gated.
 * Prediction: the compiler hint gives the next access kind, the op latency
 * (or the MSHR tracker's minimum memory latency) the length; Trapeze takes
 * the period's own length as that prediction. Deep and gated registers are
 * woken by their countdown counter exactly in time (conservative early
 * wake-up, no stall); shallow-sleeping registers are woken by the warp
 * scheduler's look-ahead (3 future warps), so a wake longer than
 * `lookahead` cycles reaches the pipeline: Slumber's performance penalty.
 */
#include "sim/power/sleep.h"

static void gap(const sim_sleep_params *p, uint64_t length, sim_next_access next,
                sim_sleep_gap *out)
{
    *out = (sim_sleep_gap){0, 0, 0};
    int ss = p->mode_ix[0], ds = p->mode_ix[1], pg = p->mode_ix[2];
    if (length < (uint64_t)p->slumber[0])
        return;
    if (length < (uint64_t)p->slumber[1]) {
        if (next == SIM_NEXT_DEAD) {
            *out = (sim_sleep_gap){ss, length, 0};
            return;
        }
        if (length <= (uint64_t)p->lookahead)
            return;   /* the scheduler already wants it: it stays ON */
        int w = p->mode[ss].wake_cycles;
        out->mode = ss;
        out->mode_cycles = length - (uint64_t)p->lookahead;
        out->stall = w > p->lookahead ? (uint32_t)(w - p->lookahead) : 0;
        return;
    }
    int m = length >= (uint64_t)p->slumber[2] && next != SIM_NEXT_READ ? pg : ds;
    uint64_t w = (uint64_t)p->mode[m].wake_cycles;
    out->mode = m;
    out->mode_cycles = next == SIM_NEXT_DEAD ? length : length > w ? length - w : 0;
    if (!out->mode_cycles)
        out->mode = 0;
}

const sim_sleep_ops sim_sleep_slumber = {
    "slumber", 1u << TRAPEZE_PS_RF, {"shallow", "deep", "gated"}, 1, gap};
