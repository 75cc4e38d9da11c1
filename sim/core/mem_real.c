/*
 * mem_real.c - the adapter from sim_mem_port to the real memory system of
 * sim/mem (sim/memsys.h).
 */
#include "common/error.h"
#include "sim/core/gpu_sim.h"

static sim_mem_outcome r_access(void *m, const sim_mem_request *req, uint64_t cycle,
                                sim_fail_cause *cause)
{
    return sim_memsys_offer(m, req, cycle, cause);
}

static int r_pop_next(void *m, int from, uint64_t cycle, sim_mem_request *done)
{
    return sim_memsys_pop_next(m, from, cycle, done);
}

static void r_cycle(void *m, uint64_t cycle)
{
    sim_memsys_cycle(m, cycle);
}

static uint64_t r_outstanding(const void *m)
{
    return sim_memsys_outstanding(m);
}

static uint64_t r_next(const void *m, uint64_t cycle)
{
    return sim_memsys_next_event(m, cycle);
}

static void r_poke(void *m, uint64_t addr, uint32_t value)
{
    sim_memsys_poke(m, addr, value);
}

static uint32_t r_peek(const void *m, uint64_t addr)
{
    return sim_memsys_peek(m, addr);
}

static void r_flush(void *m)
{
    sim_memsys_flush_l1(m);
}

static void r_reset(void *m)
{
    sim_memsys_reset_stats(m);
}

static const sim_mem_stats *r_stats(void *m)
{
    return sim_memsys_stats(m);
}

static void r_destroy(void *m)
{
    sim_memsys_destroy(m);
}

static void r_carve(void *m, long shmem)
{
    sim_memsys_carve_l1(m, shmem);
}

static void r_select(void *m, sim_mem_request *const *reqs, int n)
{
    sim_memsys_select(m, reqs, n);
}

static sim_mem_outcome r_probe(void *m, const sim_mem_request *req, uint64_t cycle,
                               sim_fail_cause *cause)
{
    return sim_memsys_probe(m, req, cycle, cause);
}

static const sim_mem_port_ops real_ops = {r_access, r_pop_next, r_cycle, r_outstanding, r_next,
                                          r_poke, r_peek, r_flush, r_reset, r_stats,
                                          r_destroy, r_carve, r_select, r_probe};

trapeze_status sim_mem_port_real(const trapeze_config *cfg, int n_sm, sim_events *events,
                                 sim_mem_port *out, trapeze_error *err)
{
    sim_memsys *m = NULL;
    trapeze_status s = sim_memsys_create(cfg, n_sm, events, &m, err);
    if (s)
        return s;
    out->ops = &real_ops;
    out->self = m;
    out->ports = sim_memsys_ports(m);
    return TRAPEZE_OK;
}
