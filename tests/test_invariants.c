/*
 * Tests of the invariant checks (common/assert.h): the SM's warp-slot
 * checker accepts the state of a real run after every cycle (a whole kernel
 * runs with it on in the sanitizer build) and aborts on each kind of broken
 * bookkeeping. In a build without TRAPEZE_CHECKS the checks are compiled
 * out, which is tested too (a broken state passes unnoticed there).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/assert.h"
#include "sim/core/gpu_sim.h"
#include "sim/core/warp_slots.h"

static sim_core_config cfg;
static sim_sm sm;
static sim_mem_port port;

/* Runs fn in a child; 1 when it ended by SIGABRT. */
static int aborts(void (*fn)(void))
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        fclose(stderr); /* the expected message is noise here */
        fn();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void consistent(void) { sim_sm_check_slots(&sm, 0); }
static void waiters_off(void)
{
    sm.ldst_waiters++;
    sim_sm_check_slots(&sm, 0);
}
static void finite_off(void)
{
    sm.wretry[3] = 17; /* without its wfinite bit */
    sim_sm_check_slots(&sm, 0);
}
static void reason_off(void)
{
    sm.why[0][SIM_STALL_MEMORY] |= 1ull << 5; /* a second reason for slot 5 */
    sim_sm_check_slots(&sm, 0);
}
static void beyond_why(void)
{
    /* a reason for slot max_warps (48 on the GTX 480), which no warp has */
    sm.why[cfg.max_warps >> 6][SIM_STALL_COMPUTE] |= 1ull << (cfg.max_warps & 63);
    sim_sm_check_slots(&sm, 0);
}
static void beyond_idle(void)
{
    sm.why[SM_MASK_WORDS - 1][SIM_STALL_IDLE] |= 1ull << 63; /* slot 255 */
    sim_sm_check_slots(&sm, 0);
}
static void beyond_parked(void)
{
    sm.wldst[SM_MASK_WORDS - 1] |= 1ull << 63;
    sm.ldst_waiters++; /* the count agrees: only the slot is out of range */
    sim_sm_check_slots(&sm, 0);
}
static void idle_either_way(void)
{
    /* an idle slot's bit in why[idle] may be set or not (a slot never used
     * has none): both pass, where the same bit beyond max_warps aborts */
    sm.why[0][SIM_STALL_IDLE] |= 1ull << 7;
    sim_sm_check_slots(&sm, 0);
    sm.why[0][SIM_STALL_IDLE] &= ~(1ull << 7);
    sim_sm_check_slots(&sm, 0);
}
/* Slot 5 runs, waiting on memory; owned: its scheduler has it. A reason
 * other than idle from a slot its scheduler lacks would be missed by
 * sched_reason, which tests the slots' bit pattern, not own. */
static void waiting(int owned)
{
    set_state(&sm, 5, W_RUN);
    set_wait(&sm, 5, SIM_STALL_MEMORY);
    if (owned)
        sim_sched_add(&sm.sched[5 % cfg.n_sched], 5);
    sim_sm_check_slots(&sm, 0);
}
static void owned_waiting(void) { waiting(1); }
static void unowned_waiting(void) { waiting(0); }
static void bound_off(void)
{
    set_retry(&sm, 2, 40);
    sm.sched_next[2 % cfg.n_sched] = 50; /* would skip the warp past cycle 40 */
    sim_sm_check_slots(&sm, 0);
}

int main(void)
{
    trapeze_config *c;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &c, &err));
    CHECK_OK(sim_core_config_read(c, &cfg, &err));
    CHECK_OK(sim_mem_port_ideal(cfg.gpu.n_sm, 100, &port, &err));
    CHECK_OK(sim_sm_init(&sm, 0, &cfg, NULL, &port, &err));
    CHECK(!aborts(consistent));
    int on = TRAPEZE_CHECKS_ON;
    CHECK(aborts(waiters_off) == on);
    CHECK(aborts(finite_off) == on);
    CHECK(aborts(reason_off) == on);
    CHECK(!aborts(owned_waiting));
    CHECK(aborts(unowned_waiting) == on);
    CHECK(aborts(bound_off) == on);
    CHECK(aborts(beyond_why) == on);
    CHECK(aborts(beyond_idle) == on);
    CHECK(aborts(beyond_parked) == on);
    CHECK(!aborts(idle_either_way));
    sim_sm_free(&sm);
    port.ops->destroy(port.self);

    /* a whole kernel with the checker after every SM cycle (when on) */
    sim_gpu *g;
    CHECK_OK(sim_gpu_create(c, NULL, &g, &err));
    const sim_builtin *b = sim_builtin_find("jacobi");
    long p[SIM_BUILTIN_MAX_PARAMS];
    char *set[] = {"nx=96", "ny=64", "iters=2"};
    CHECK_OK(sim_builtin_params(b, 3, set, p, &err));
    sim_kernel *ks[4];
    int nk = 0;
    CHECK_OK(b->build(sim_gpu_config(g), p, ks, 4, &nk, &err));
    sim_sequence seq = {.n = nk, .kernels = ks};
    int ran;
    CHECK_OK(sim_gpu_run_sequence(g, &seq, NULL, &ran, &err));
    CHECK(ran == nk && nk == 2);
    for (int i = 0; i < nk; i++)
        sim_kernel_destroy(ks[i]);
    sim_gpu_destroy(g);
    trapeze_config_destroy(c);
    printf("invariant checks %s\n", on ? "on" : "compiled out");
    return check_report("test_invariants");
}
