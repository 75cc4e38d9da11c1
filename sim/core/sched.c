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
}
