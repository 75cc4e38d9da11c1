/*
 * sched.c - the warp schedulers' lists (sm.h): each SM has
 * -gpgpu_num_sched_per_core schedulers; warp slot w belongs to scheduler
 * w % n, which keeps its warps in dispatch order (GTO's "oldest first")
 * with each slot's position and a bit set of its slots, so that a pick can
 * visit only the warps that may be due. The pick loops are inline in sm.h.
 */
#include <string.h>

#include "sim/core/sm.h"

void sim_sched_add(sim_sched *s, int slot)
{
    s->pos[slot] = (uint8_t)s->n;
    s->slot[s->n++] = (uint8_t)slot;
    s->own[slot >> 6] |= 1ull << (slot & 63);
    if (!s->max_active)
        return;
    if (s->n_active < s->max_active) {   /* two-level: active while there is room */
        s->act[slot >> 6] |= 1ull << (slot & 63);
        s->n_active++;
    } else {
        s->pend[s->n_pend++] = (uint8_t)slot;
    }
}

/* Two-level: out of the active set or the pending list. */
static void two_level_remove(sim_sched *s, int slot)
{
    uint64_t bit = 1ull << (slot & 63);
    if (s->act[slot >> 6] & bit) {
        s->act[slot >> 6] &= ~bit;
        s->n_active--;
        return;
    }
    for (int i = 0; i < s->n_pend; i++)
        if (s->pend[i] == slot) {
            memmove(&s->pend[i], &s->pend[i + 1], (size_t)(s->n_pend - i - 1));
            s->n_pend--;
            return;
        }
}

void sim_sched_remove(sim_sched *s, int slot)
{
    for (int i = 0; i < s->n; i++)
        if (s->slot[i] == slot) {
            memmove(&s->slot[i], &s->slot[i + 1], (size_t)(s->n - i - 1));
            s->n--;
            for (int j = i; j < s->n; j++)
                s->pos[s->slot[j]] = (uint8_t)j;
            s->own[slot >> 6] &= ~(1ull << (slot & 63));
            if (s->rr > i)
                s->rr--;
            if (s->rr >= s->n)
                s->rr = 0;
            break;
        }
    if (s->last == slot)
        s->last = -1;
    if (s->max_active)
        two_level_remove(s, slot);
}
