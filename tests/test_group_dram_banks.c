/*
 * The DRAM rows a grouping opens, from the address map (sampler/group/
 * dram_banks.c's count, model/group_dram_banks.c's time), by hand:
 *   - 4 TBs on 2 queues of 1 TB in flight (x = 1). Channel 0 has 2 banks:
 *     TB0 reads bank 0 row 0 and bank 1 row 0, TB1 the same rows (other
 *     units), TB2 and TB3 bank 0 row 1 and bank 1 row 1; TB0 also reads a
 *     unit of channel 1 (bank 0 row 5), TB3 TB0's first unit again.
 *   - rr's queues {0, 2} and {1, 3} run {0, 1}, then {2, 3}: each wave
 *     opens one row of each bank, 4 activations in channel 0; its 8 units
 *     read once each (TB3's repeat is in L2 by then); channel 1: 1 read, 1
 *     activation.
 *   - queues {0, 1} and {2, 3} run {0, 2}, then {1, 3}: wave 0 opens both
 *     rows of both banks (4); wave 1 reads rows 0 and 1 of each bank again,
 *     row 1 still open: 1 more each, 6 in all.
 *   - one queue of all four in id order at x = 2: rr's waves, 4.
 *   - a channel that serves 1 request at a time (window 1), the TBs of a
 *     wave issuing their units in turn: rr's rows follow each other (TB0
 *     and TB1 read the same row in turn), 4; the other's wave 0 alternates
 *     rows 0 and 1 of each bank (TB0, TB2), 4, and wave 1 again, 4: 8,
 *     (16 + 8 x 12) x 0.5 = 56; a window of 2 holds both rows, 6 (44).
 *   - the time at 2 DRAM cycles a read, tRP + tRCD = 24, 2 banks, 0.5 core
 *     cycles a DRAM cycle: rr (8 x 2 + 4 x 24 / 2) x 0.5 = 32, the other
 *     (16 + 6 x 12) x 0.5 = 44; channel 1's (2 + 12) x 0.5 = 7 never the
 *     busiest; with 1 bank rr's (16 + 96) x 0.5 = 56.
 *   - a unit id out of range: EINVAL; a grouping of other TBs: EINVAL.
 *   - on by default; a calibration saved with it off reads back off, one
 *     saved with it on reads back on.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "grouping_fixture.h"
#include "trapeze.h"

/* units 0-7 in channel 0 (bank, row): (0,0) (1,0) (0,0) (1,0) (0,1) (1,1)
 * (0,1) (1,1); unit 8 in channel 1, bank 0, row 5 */
static const long tb_start[5] = {0, 3, 5, 7, 10};
static const long unit[10] = {0, 1, 8, 2, 3, 4, 5, 6, 7, 0};
static const int channel[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
static const int bank[9] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
static const unsigned long long row[9] = {0, 0, 0, 0, 1, 1, 1, 1, 5};

static double count(const trapeze_group_dram_units *u, const int *q, const long *o, int x,
                    double reads[2], double acts[2])
{
    trapeze_grouping g = test_grouping(4, q, o);
    trapeze_error err;
    CHECK_OK(trapeze_group_dram_count(u, &g, x, reads, acts, &err));
    trapeze_grouping_free(&g);
    const trapeze_group_dram_timing t = {2, 24, 0.5, 2};
    return trapeze_group_dram_busiest_time(&t, reads, acts, 2);
}

int main(void)
{
    const trapeze_group_dram_units u = {4, 9, tb_start, unit, channel, bank, row, 2, 2, 0};
    double reads[2], acts[2];
    const int rr_q[4] = {0, 1, 0, 1};
    const long rr_o[4] = {0, 0, 1, 1};
    CHECK_NEAR(count(&u, rr_q, rr_o, 1, reads, acts), 32, 1e-12);
    CHECK_NEAR(reads[0], 8, 0);
    CHECK_NEAR(acts[0], 4, 0);
    CHECK_NEAR(reads[1], 1, 0);
    CHECK_NEAR(acts[1], 1, 0);
    const int sc_q[4] = {0, 0, 1, 1};
    const long sc_o[4] = {0, 1, 0, 1};
    CHECK_NEAR(count(&u, sc_q, sc_o, 1, reads, acts), 44, 1e-12);
    CHECK_NEAR(reads[0], 8, 0);
    CHECK_NEAR(acts[0], 6, 0);
    const int one_q[4] = {0, 0, 0, 0};
    const long one_o[4] = {0, 1, 2, 3};
    CHECK_NEAR(count(&u, one_q, one_o, 2, reads, acts), 32, 1e-12);
    CHECK_NEAR(acts[0], 4, 0);
    trapeze_group_dram_units one = u;   /* a scheduler that holds one request */
    one.window = 1;
    CHECK_NEAR(count(&one, rr_q, rr_o, 1, reads, acts), 32, 1e-12);
    CHECK_NEAR(acts[0], 4, 0);
    CHECK_NEAR(count(&one, sc_q, sc_o, 1, reads, acts), 56, 1e-12);
    CHECK_NEAR(acts[0], 8, 0);
    one.window = 2;
    CHECK_NEAR(count(&one, sc_q, sc_o, 1, reads, acts), 44, 1e-12);
    const trapeze_group_dram_timing serial = {2, 24, 0.5, 1};
    const double rr_reads[2] = {8, 1}, rr_acts[2] = {4, 1};
    CHECK_NEAR(trapeze_group_dram_busiest_time(&serial, rr_reads, rr_acts, 2), 56, 1e-12);

    trapeze_error err;
    const long bad_unit[10] = {0, 1, 8, 2, 3, 4, 5, 6, 7, 9};
    trapeze_group_dram_units bad = u;
    bad.unit = bad_unit;
    trapeze_grouping g = test_grouping(4, rr_q, rr_o);
    CHECK(trapeze_group_dram_count(&bad, &g, 1, reads, acts, &err) == TRAPEZE_EINVAL);
    CHECK(strstr(err.message, "TB 3") != NULL);
    trapeze_grouping_free(&g);
    g = test_grouping(3, rr_q, rr_o);
    CHECK(trapeze_group_dram_count(&u, &g, 1, reads, acts, &err) == TRAPEZE_EINVAL);
    trapeze_grouping_free(&g);
    /* on by default; a calibration that turns it off says so and reads back */
    trapeze_group_params p, q;
    trapeze_group_params_default(&p);
    CHECK(p.dram_banks == 1);
    p.dram_banks = 0;
    const char *path = "build/test_group_dram_banks.ini";
    CHECK_OK(trapeze_group_params_save(path, &p, &err));
    CHECK_OK(trapeze_group_params_load(path, &q, &err));
    CHECK(q.dram_banks == 0);
    trapeze_group_params_default(&p);
    CHECK_OK(trapeze_group_params_save(path, &p, &err));
    CHECK_OK(trapeze_group_params_load(path, &q, &err));
    CHECK(q.dram_banks == 1);
    remove(path);
    return check_report("test_group_dram_banks");
}
