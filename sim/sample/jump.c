/*
 * jump.c - where a jump sample's windows start, how many fit a cap and
 * how long, how the long periods they cannot time go back into a histogram
 * and the warp tails a launch end stands for (jump.h).
 */
#include <math.h>
#include <stdlib.h>

#include "common/assert.h"
#include "sim/sample/jump.h"

void sim_jump_start(const sim_jump_launch *l, double g, long *first_block,
                        long *first_trip)
{
    long conc = l->concurrent > 0 ? l->concurrent : 1, trips = l->trips > 1 ? l->trips : 1;
    long waves = l->blocks > 0 ? (l->blocks + conc - 1) / conc : 1;
    g = g < 0 ? 0 : g >= 1 ? nextafter(1.0, 0.0) : g;
    double u = g * (double)waves * (double)trips;
    long wave = (long)floor(u / (double)trips);
    if (wave >= waves)
        wave = waves - 1;
    long trip = (long)floor(u - (double)wave * (double)trips);
    *first_block = wave * conc;
    *first_trip = trip < trips ? trip : trips - 1;
}

double sim_jump_fit(double (*cost)(const void *ctx, int windows, int ends, double scale),
                    const void *ctx, int max_windows, int max_ends, double budget,
                    int *windows, int *ends)
{
    double scale = 1;
    for (int halve = 0; halve <= SIM_JUMP_HALVINGS; halve++, scale /= 2) {
        int best = -1;
        for (int w = max_windows; w >= 1; w--)
            for (int e = max_ends; e >= 0; e--)
                if (w + e > best && cost(ctx, w, e, scale) <= budget) {
                    best = w + e;
                    *windows = w;
                    *ends = e;
                }
        if (best >= 0)
            return scale;
    }
    return 0;
}

double sim_jump_place(double from, int k, int n)
{
    double u = fmod((k + 1) * 0.6180339887498949, 1.0);
    return from + (1 - from) * (k + u) / n;
}

double sim_jump_add_long(trapeze_idle_hist *h, int next, double count, double mass,
                         double long_min)
{
    if (!(count > 0) || !(mass > 0))
        return 0;
    int lo = trapeze_idle_bucket(long_min + 1.0);
    double mean = mass / count;
    if (mean < trapeze_idle_bucket_length(lo))
        mean = trapeze_idle_bucket_length(lo);
    int b = lo;
    while (b + 2 < TRAPEZE_IDLE_NBUCKETS && trapeze_idle_bucket_length(b + 1) <= mean)
        b++;
    double m0 = trapeze_idle_bucket_length(b), m1 = trapeze_idle_bucket_length(b + 1);
    double f = mean >= m1 ? 0 : (m1 - mean) / (m1 - m0);   /* share in bucket b */
    h->count[next][b] += count * f;
    h->count[next][b + 1] += count * (1 - f);
    return count * (f * m0 + (1 - f) * m1);
}

void sim_jump_tail_scale(const sim_jump_launch *l, long first_block, double window_insts,
                             double *blocks, double *stretch)
{
    double here = (double)(l->blocks - first_block);
    *blocks = *stretch = 0;
    if (!(here > 0) || !(window_insts > 0) || !(l->insts > 0) || l->blocks < 1)
        return;
    *blocks = (double)l->blocks / here;
    *stretch = (l->insts / (double)l->blocks) / (window_insts / here);
    if (*stretch < 1)
        *stretch = 1;
}

void sim_jump_tail_cut(sim_idle_hist *now, const sim_idle_hist *before,
                           const sim_idle_hist *marked, const sim_idle_hist *marked_before,
                           double *n, double *cycles)
{
    *n = *cycles = 0;
    for (int b = 0; b < SIM_IDLE_BINS; b++) {
        uint64_t *count = &now->bin[SIM_NEXT_DEAD][b].count, *sum = &now->bin[SIM_NEXT_DEAD][b].sum;
        uint64_t c0 = before->bin[SIM_NEXT_DEAD][b].count, s0 = before->bin[SIM_NEXT_DEAD][b].sum;
        uint64_t keep_n = marked->bin[SIM_NEXT_DEAD][b].count -
                          marked_before->bin[SIM_NEXT_DEAD][b].count;
        uint64_t keep_s = marked->bin[SIM_NEXT_DEAD][b].sum -
                          marked_before->bin[SIM_NEXT_DEAD][b].sum;
        /* the marked periods are a part of all periods */
        TRAPEZE_ASSERT(*count - c0 >= keep_n && *sum - s0 >= keep_s);
        if (*count - c0 < keep_n || *sum - s0 < keep_s)
            continue;
        *n += (double)(*count - c0 - keep_n);
        *cycles += (double)(*sum - s0 - keep_s);
        *count = c0 + keep_n;
        *sum = s0 + keep_s;
    }
}

void sim_jump_add_dead(trapeze_idle_hist *h, double n, double cycles, double long_min)
{
    if (!(n > 0) || !(cycles > 0))
        return;
    if (cycles / n > long_min) {
        sim_jump_add_long(h, TRAPEZE_NEXT_DEAD, n, cycles, long_min);
        return;
    }
    int b = trapeze_idle_bucket(cycles / n);
    if (b >= 0)
        h->count[TRAPEZE_NEXT_DEAD][b] += n;
}

double sim_jump_dead_missing(double n_run, double n_have, double mass_have, double first_n,
                             double first_cycles, double *cycles)
{
    *cycles = 0;
    if (!(n_run > n_have) || !(first_n > 0))
        return 0;
    double want = n_run * first_cycles / first_n;
    if (!(want > mass_have))
        return 0;
    *cycles = want - mass_have;
    return n_run - n_have;
}

double sim_jump_exit_hold(double n_run, double others, double seen)
{
    if (!(seen > 0))
        return 1;
    double keep = (n_run - others) / seen;
    return keep > 0 ? keep : 0;
}

/* the hold, never scaling the count up */
double sim_jump_exit_keep(double n_run, double others, double seen)
{
    return seen > 0 && others + seen <= n_run ? 1 : sim_jump_exit_hold(n_run, others, seen);
}

double sim_jump_refill_keep(double footprint, double frames, double first_fills,
                            double later_fills)
{
    if (!(footprint > 0) || footprint > frames || !(later_fills > 0))
        return 1;
    double rest = footprint - first_fills;
    if (!(rest > 0))
        return 0;
    return rest < later_fills ? rest / later_fills : 1;
}

double sim_jump_refilled(double footprint, double frames)
{
    if (!(footprint > 0) || !(frames > 0))
        return 0;
    double n = footprint / frames;
    return n >= 1 ? 1 - 0.5 / n : 0.5 * n;
}

void sim_jump_weights(double total, double first, int ends, int sampled,
                      const double insts[4], double tail_work, double w[4])
{
    double tail = insts[3] > 0 ? tail_work : 0;
    w[0] = 1;
    w[2] = sampled > 0 ? (double)ends / sampled : 0;
    double mid = total - first - w[2] * insts[2] - tail;
    w[1] = insts[1] > 0 && mid > 0 ? mid / insts[1] : 0;
    w[3] = insts[3] > 0 ? tail / insts[3] : 0;
}

double sim_jump_fill_share(double fills, double writes)
{
    return fills + writes > 0 ? fills / (fills + writes) : 1;
}

double sim_jump_l1_lines(double touched, double work, double reads, double hits)
{
    if (!(touched > 0))
        return 0;
    double miss = reads > 0 ? 1 - hits / reads : 1;
    miss = miss < 0 ? 0 : miss > 1 ? 1 : miss;
    return touched * (1 + (work > 1 ? work - 1 : 0) * miss);
}

double sim_jump_block_life(const int *sm, const uint64_t *placed, long n, int n_sm, int per_sm)
{
    if (n < 1 || n_sm < 1 || per_sm < 1)
        return 0;
    /* each SM's placements in order: idx[off[s] ...] */
    long *off = calloc((size_t)n_sm + 1, sizeof *off), *idx = malloc((size_t)n * sizeof *idx);
    long *fill = calloc((size_t)n_sm, sizeof *fill);
    double life = 0;
    if (off && idx && fill) {
        for (long i = 0; i < n; i++)
            if (sm[i] >= 0 && sm[i] < n_sm)
                off[sm[i] + 1]++;
        for (int s = 0; s < n_sm; s++)
            off[s + 1] += off[s];
        for (long i = 0; i < n; i++)
            if (sm[i] >= 0 && sm[i] < n_sm)
                idx[off[sm[i]] + fill[sm[i]]++] = i;
        uint64_t sum = 0;   /* whole cycles: the same bits in any order */
        long ended = 0;
        for (int s = 0; s < n_sm; s++)
            for (long k = off[s] + per_sm; k < off[s + 1]; k++) {
                sum += placed[idx[k]] - placed[idx[k - per_sm]];
                ended++;
            }
        life = ended > 0 ? (double)sum / (double)ended : 0;
    }
    free(off);
    free(idx);
    free(fill);
    return life;
}

int sim_jump_warm_windows(double budget, double t, double life, int max)
{
    if (!(life > 0) || !(budget > t))
        return 0;
    double n = floor((budget - t) / (2 * life));
    return n < max ? (int)n : max;
}
