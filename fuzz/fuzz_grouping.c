/*
 * fuzz_grouping.c - the TB grouping CSV (`tb,group,order`, the explicit
 * dispatch's -trapeze_tb_grouping FILE), read for as many TBs as the input
 * has rows (at most 4096) on 15 SM groups. Invariants: an accepted
 * grouping passes trapeze_grouping_check; saved and loaded again it gives
 * every TB the same group and order.
 */
#include <string.h>

#include "fuzz/fuzz.h"
#include "trapeze.h"

const char *const fuzz_seeds[] = {"tests/fuzz/grouping/*", NULL};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long rows = 0;
    for (size_t i = 0; i < size; i++)
        rows += data[i] == '\n';
    long n_tbs = rows < 2 ? 1 : rows > 4097 ? 4096 : rows - 1;
    const char *path = fuzz_file("grouping.csv", data, size);
    trapeze_grouping g = {0}, h = {0};
    trapeze_error err = {0};
    if (trapeze_grouping_load(path, n_tbs, 15, &g, &err)) {
        FUZZ_CHECK(fuzz_printable(err.message));
        return 0;
    }
    FUZZ_CHECK(g.n_tbs == n_tbs && g.n_groups >= 1 && g.n_groups <= 15);
    FUZZ_CHECK(trapeze_grouping_check(&g, &err) == TRAPEZE_OK);
    char again[600];
    snprintf(again, sizeof again, "%s.again.csv", path);
    FUZZ_CHECK(trapeze_grouping_save(again, &g, &err) == TRAPEZE_OK);
    trapeze_status s = trapeze_grouping_load(again, n_tbs, 15, &h, &err);
    if (s)
        fprintf(stderr, "reload: %s\n", err.message);
    FUZZ_CHECK(s == TRAPEZE_OK);
    FUZZ_CHECK(!memcmp(g.group, h.group, (size_t)n_tbs * sizeof *g.group));
    FUZZ_CHECK(!memcmp(g.order, h.order, (size_t)n_tbs * sizeof *g.order));
    trapeze_grouping_free(&g);
    trapeze_grouping_free(&h);
    return 0;
}
