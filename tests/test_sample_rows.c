/*
 * Tests of samples-log rows of any model: a toy model's rows (text, integer
 * and real inputs, real outputs) go through the same log as the ghost-zone
 * ones, with a model column; a run of a sample set appends each row, skips
 * those already logged, refuses a logged row that ran other inputs, and
 * writes the same bytes whatever the thread count, each row's simulation
 * given the threads left over by the rows side by side; ghost-zone rows convert
 * to generic rows and back exactly.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static const char *const structures[] = {"l1d", "l2", "rf", NULL};
static const char *const toy_kinds[] = {"sim", NULL};
static const trapeze_field toy_fields[] = {
    {"structure", TRAPEZE_FIELD_TEXT, 0, 0, 0, structures},
    {"threshold_cycles", TRAPEZE_FIELD_INT, 0, 1, 1e6, NULL},
    {"scale", TRAPEZE_FIELD_REAL, 0, 0, 10, NULL},
    {"energy_j", TRAPEZE_FIELD_REAL, 1, 0, 1e30, NULL},
};
static const trapeze_row_schema toy = {"toy", 4, toy_fields, toy_kinds, 0, NULL};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    static char buf[65536];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* energy = threshold * scale (+1 for l2): a "simulation" anyone can check. */
static int runs;
static pthread_mutex_t runs_lock = PTHREAD_MUTEX_INITIALIZER;
static trapeze_status run_toy(const void *ctx, int i, trapeze_sample_row *row, trapeze_error *err)
{
    (void)ctx;
    (void)i;
    (void)err;
    double e = trapeze_row_number(row, "threshold_cycles") * trapeze_row_number(row, "scale");
    if (strcmp(trapeze_row_text(row, "structure"), "l2") == 0)
        e += 1;
    pthread_mutex_lock(&runs_lock);
    runs++;
    pthread_mutex_unlock(&runs_lock);
    return trapeze_row_set_number(row, "energy_j", e);
}

#define NPLAN 9
static trapeze_sample_row plan[NPLAN];
static void make_plan(void)
{
    for (int i = 0; i < NPLAN; i++) {
        char id[32];
        snprintf(id, sizeof id, "toy/%d", i);
        trapeze_row_init(&plan[i], &toy, id, "sim");
        CHECK_OK(trapeze_row_set_text(&plan[i], "structure", structures[i % 3]));
        CHECK_OK(trapeze_row_set_number(&plan[i], "threshold_cycles", 10 * (i + 1)));
        CHECK_OK(trapeze_row_set_number(&plan[i], "scale", 0.1 * (i + 1)));
    }
    CHECK(trapeze_row_set_text(&plan[0], "scale", "x") == TRAPEZE_EINVAL);
    CHECK(trapeze_row_set_number(&plan[0], "nope", 1) == TRAPEZE_EINVAL);
}

static void test_toy_log_and_run(void)
{
    const char *a = "build/test_sample_rows_a.csv", *b = "build/test_sample_rows_b.csv";
    trapeze_sample_set set = {&toy, NPLAN, plan, run_toy, NULL, NULL, NULL};
    trapeze_sample_log *log;
    trapeze_error err;
    remove(a);
    remove(b);
    /* serial run into a */
    CHECK_OK(trapeze_sample_log_open_schema(a, &toy, &log, &err));
    runs = 0;
    CHECK_OK(trapeze_samples_run(&set, log, 1, NULL, NULL, &err));
    CHECK(runs == NPLAN && trapeze_sample_log_count(log) == NPLAN);
    const trapeze_sample_row *r = trapeze_sample_log_find_row(log, "toy/4");
    CHECK(r && trapeze_row_number(r, "energy_j") == 50 * 0.5 + 1); /* l2 */
    CHECK(trapeze_sample_log_get(log, 0) == NULL); /* not a ghost-zone log */
    trapeze_sample_log_close(log);
    const char *text = slurp(a);
    CHECK(strncmp(text, "sample_id,kind,model,structure,threshold_cycles,scale,energy_j\n"
                        "toy/0,sim,toy,l1d,10,0.10000000000000001,1\n", 105) == 0);
    /* b: three rows done, then an interrupted fourth, then a threaded rerun */
    CHECK_OK(trapeze_sample_log_open_schema(b, &toy, &log, &err));
    trapeze_sample_set first = {&toy, 3, plan, run_toy, NULL, NULL, NULL};
    CHECK_OK(trapeze_samples_run(&first, log, 1, NULL, NULL, &err));
    trapeze_sample_log_close(log);
    FILE *f = fopen(b, "a");
    fputs("toy/3,sim,toy,l1", f);
    fclose(f);
    CHECK_OK(trapeze_sample_log_open_schema(b, &toy, &log, &err));
    CHECK(trapeze_sample_log_note(log) != NULL && trapeze_sample_log_count(log) == 3);
    runs = 0;
    CHECK_OK(trapeze_samples_run(&set, log, 3, NULL, NULL, &err));
    CHECK(runs == NPLAN - 3);
    trapeze_sample_log_close(log);
    char *copy = strdup(text);
    CHECK(strcmp(copy, slurp(b)) == 0); /* the same bytes as the serial run */
    free(copy);
    /* a logged row that ran other inputs under a planned id */
    trapeze_sample_row other = plan[2];
    CHECK_OK(trapeze_row_set_number(&other, "scale", 9));
    trapeze_sample_row changed[NPLAN];
    memcpy(changed, plan, sizeof changed);
    changed[2] = other;
    trapeze_sample_set moved = {&toy, NPLAN, changed, run_toy, NULL, NULL, NULL};
    int todo[NPLAN], n;
    CHECK_OK(trapeze_sample_log_open_schema(b, &toy, &log, &err));
    CHECK(trapeze_samples_pending(&moved, log, todo, &n, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "toy/2 does not match") != NULL);
    CHECK_OK(trapeze_samples_pending(&set, log, todo, &n, &err));
    CHECK(n == 0);
    /* a ghost-zone row does not go into a toy log */
    trapeze_sample gz = {.id = "g", .kind = "sim", .h = 1, .blk_len = 1, .stages = 1,
                         .cpl_cycles = 1};
    CHECK(trapeze_sample_log_append(log, &gz, &err) == TRAPEZE_EINVAL);
    trapeze_sample_log_close(log);
    /* rows are checked against the schema on read */
    f = fopen(b, "a");
    fputs("toy/x,sim,toy,l3,10,0.5,1\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open_schema(b, &toy, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":11: field structure: expected l1d, l2 or rf, got 'l3'") != NULL);
    f = fopen(b, "w");
    fputs("sample_id,kind,model,structure,threshold_cycles,scale,energy_j\n"
          "t,sim,sleep,l1d,10,0.5,1\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open_schema(b, &toy, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":2: field model: expected toy, got 'sleep'") != NULL);
    f = fopen(b, "w");
    fputs("sample_id,kind,model,structure,threshold_cycles,scale,energy_j\n"
          "t,sim,toy,l1d,0,0.5,1\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open_schema(b, &toy, &log, &err) == TRAPEZE_ERANGE);
    CHECK(strstr(err.message, ":2: field threshold_cycles: 0 is outside [1, 1000000]") != NULL);
    /* a ghost-zone log is not a toy log */
    CHECK(trapeze_sample_log_open_schema("data/calibrations/gtx480-samples.csv", &toy, &log,
                                         &err) == TRAPEZE_EPARSE);
    remove(a);
    remove(b);
}

static void test_gz_round_trip(void)
{
    trapeze_sample s = {.id = "gtx480/sim/HotSpot/x", .kind = "sim", .workload = "HotSpot",
                        .gpu = "gtx480", .sync = TRAPEZE_SYNC_FENCE, .h = 3, .blk_len = 16,
                        .data_len = {512, 256, 1}, .stages = 2, .cycles = 12345.678,
                        .cpl_cycles = 2057.613, .warp_instructions = 1e7 / 3,
                        .bank_conflicts = 0.25};
    trapeze_sample_row row;
    trapeze_sample back;
    trapeze_ghostzone_sample_to_row(&s, &row);
    CHECK(strcmp(row.schema->model, "ghostzone") == 0);
    CHECK(strcmp(trapeze_row_text(&row, "sync"), "fence") == 0);
    CHECK(trapeze_row_number(&row, "size_1") == 256 && trapeze_row_number(&row, "h") == 3);
    CHECK_OK(trapeze_ghostzone_sample_from_row(&row, &back, NULL));
    CHECK(memcmp(&s, &back, sizeof s) == 0);
    trapeze_sample_row toy_row;
    trapeze_row_init(&toy_row, &toy, "t", "sim");
    CHECK(trapeze_ghostzone_sample_from_row(&toy_row, &back, NULL) == TRAPEZE_EINVAL);
}

/* Each run of run_seen records the simulation threads its set gave it. */
static int budget, seen_threads[NPLAN];
static trapeze_status run_seen(const void *ctx, int i, trapeze_sample_row *row,
                               trapeze_error *err)
{
    (void)ctx;
    seen_threads[i] = budget;
    return run_toy(NULL, i, row, err);
}

/* One --threads budget: with fewer rows pending than threads, each row's
 * simulation gets the threads left over (5 threads, 2 rows: 2 each; 1 row:
 * all 5); with more rows, one each; a set without sim_threads is left
 * alone. */
static void test_budget(void)
{
    static const int cases[][3] = {/* rows pending, threads -> per simulation */
                                   {2, 5, 2}, {1, 5, 5}, {NPLAN, 2, 1}, {1, 1, 1}};
    const char *path = "build/test_sample_rows_budget.csv";
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        trapeze_sample_set set = {&toy, cases[c][0], plan, run_seen, NULL, NULL, &budget};
        trapeze_sample_log *log;
        trapeze_error err;
        remove(path);
        budget = 0;
        memset(seen_threads, 0, sizeof seen_threads);
        CHECK_OK(trapeze_sample_log_open_schema(path, &toy, &log, &err));
        CHECK_OK(trapeze_samples_run(&set, log, cases[c][1], NULL, NULL, &err));
        for (int i = 0; i < cases[c][0]; i++)
            CHECK(seen_threads[i] == cases[c][2]);
        trapeze_sample_log_close(log);
    }
    remove(path);
}

int main(void)
{
    make_plan();
    test_budget();
    test_toy_log_and_run();
    test_gz_round_trip();
    return check_report("test_sample_rows");
}
