/*
 * test_simd_model.c - the width-and-depth model (model/simd.c): its fit
 * and predictions on two samples worked out by hand, the pick, and bad
 * samples refused.
 */
#include <string.h>

#include "check.h"
#include "model/simd.h"

/* Sample a: 256 threads (8 warps), 1000 cycles, 3200 thread instructions
 * in 200 warp instructions (u32 = 0.5), 200 line accesses (one per warp
 * instruction: coalesced, c = 1; a32 = 1/16), 64 misses (m = 0.02), 80% of
 * the scheduler cycles on memory: cpt = 0.3125, memory 0.25 of it, so
 * L = 0.25 x 8 / 0.02 = 100. Sample b: 64 threads, 32 misses (m = 0.01):
 * slope 0.01 / 192. At (32 x 8): issue 1 / (32 x 0.5 x 2) = 0.03125, LDST
 * 0.0625, memory 0.25; v = (0.3125 - 0.25) / 0.09375 = 2/3. */
static void test_hand_worked(void)
{
    trapeze_simd_sample a = {256, 8, 1000, 3200, 200, 200, 64, 0.8};
    trapeze_simd_sample b = {64, 2, 900, 3200, 200, 200, 32, 0.9};
    trapeze_simd_model m;
    trapeze_error err;
    CHECK_OK(trapeze_simd_fit(&a, &b, 2, &m, &err));
    CHECK_NEAR(m.u32, 0.5, 1e-12);
    CHECK_NEAR(m.c, 1.0, 1e-12);
    CHECK_NEAR(m.lat, 100.0, 1e-9);
    CHECK_NEAR(m.v, 2.0 / 3.0, 1e-12);
    /* the first sample is reproduced */
    CHECK_NEAR(trapeze_simd_predict(&m, 32, 8), 0.3125, 1e-12);
    /* (32 x 4): m = 0.02 - 128 x 0.01 / 192 = 0.013333, memory 0.333333 + 2/3 x 0.09375 */
    CHECK_NEAR(trapeze_simd_predict(&m, 32, 4), 0.395833333, 1e-8);
    /* (32 x 2): memory 0.01 x 100 / 2 = 0.5, + 0.0625 */
    CHECK_NEAR(trapeze_simd_predict(&m, 32, 2), 0.5625, 1e-12);
    /* (16 x 16): u = 0.5^0.8, issue 1 / (16 u 2) = 0.054409; LDST 0.125 (a line per 16
     * lanes now); coalesced, so 256 threads are 8 streams as before: memory 0.25,
     * 0.25 + 2/3 x 0.179409 */
    CHECK_NEAR(trapeze_simd_predict(&m, 16, 16), 0.369606, 1e-6);
    const int w[] = {32, 16, 32}, d[] = {8, 16, 2};
    CHECK(trapeze_simd_pick(&m, w, d, 3) == 0);
}

/* Sample a with two lines per warp instruction (400 accesses): c = 1 -
 * log2(2) / 5 = 0.8, a32 = 0.125; v = (0.3125 - 0.25) / 0.15625 = 0.4. At
 * (16 x 16) the lanes' own lines make 8 x 2^0.2 = 9.1896 streams: memory
 * 2 / 9.1896 = 0.217638, LDST 0.125 x 2^0.8 = 0.217638, issue 0.054409:
 * 0.217638 + 0.4 x 0.272047 = 0.326457: (32 x 8) stays faster, by 4%. */
static void test_scattered_lanes(void)
{
    trapeze_simd_sample a = {256, 8, 1000, 3200, 200, 400, 64, 0.8};
    trapeze_simd_sample b = {64, 2, 900, 3200, 200, 400, 32, 0.9};
    trapeze_simd_model m;
    trapeze_error err;
    CHECK_OK(trapeze_simd_fit(&a, &b, 2, &m, &err));
    CHECK_NEAR(m.c, 0.8, 1e-12);
    CHECK_NEAR(m.v, 0.4, 1e-12);
    CHECK_NEAR(trapeze_simd_predict(&m, 32, 8), 0.3125, 1e-12);
    CHECK_NEAR(trapeze_simd_predict(&m, 16, 16), 0.326457, 1e-6);
}

/* No instructions, or both samples at one thread count: refused. */
static void test_bad_samples(void)
{
    trapeze_simd_sample a = {256, 8, 1000, 3200, 200, 200, 64, 0.8}, b = a;
    trapeze_simd_model m;
    trapeze_error err;
    CHECK(trapeze_simd_fit(&a, &b, 2, &m, &err) == TRAPEZE_EINVAL);
    b.threads = 64;
    a.thread_insts = 0;
    CHECK(trapeze_simd_fit(&a, &b, 2, &m, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "simd model") != NULL);
}

int main(void)
{
    test_hand_worked();
    test_scattered_lanes();
    test_bad_samples();
    return check_report("test_simd_model");
}
