/*
 * Tests of the idle-period histogram: the contract's CSV written and read
 * back (every group, every count), the bad rows it must refuse with file,
 * line and field; kernel names kept whole (300 names sharing 70 bytes stay
 * 300 kernels, a quoted name with a comma and a newline reads back, 1023
 * bytes accepted and 1024 refused); the GPU a file must be of; the longest
 * period a histogram implies; and the fitted distribution: it recovers a known
 * log-normal mixture from its expected counts, and from 20000 seeded draws
 * it predicts the sleep model's saving within half a point.
 */
#define _DEFAULT_SOURCE   /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "trapeze.h"

static char dir[64];

static void path_of(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* Writes the n histograms of hs to idle.csv (its path in path) and loads
 * them back into *h, *n. */
static void write_and_load(const trapeze_idle_hist *const *hs, int count, char *path,
                           size_t room, trapeze_idle_hist **h, int *n)
{
    path_of(path, room, "idle.csv");
    trapeze_csv_out *csv;
    trapeze_error err;
    CHECK_OK(trapeze_csv_create(path, trapeze_idle_csv_columns, trapeze_idle_csv_ncolumns, &csv,
                                &err));
    for (int i = 0; i < count; i++)
        CHECK_OK(trapeze_idle_hist_write_rows(hs[i], csv, &err));
    CHECK_OK(trapeze_csv_commit(csv, &err));
    CHECK_OK(trapeze_idle_csv_load(path, h, n, &err));
}

static void test_roundtrip(void)
{
    trapeze_idle_hist a, b;
    trapeze_idle_hist_init(&a, "gtx480", "hotspot", "l1d", "line");
    trapeze_idle_hist_init(&b, "gtx480", "hotspot", "rf", "warp_reg");
    a.count[TRAPEZE_NEXT_READ][0] = 12;
    a.count[TRAPEZE_NEXT_WRITE][1023] = 3;
    a.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(3000)] = 7;
    b.count[TRAPEZE_NEXT_READ][16] = 5;
    char path[512];
    const trapeze_idle_hist *both[] = {&a, &b};
    trapeze_idle_hist *h = NULL;
    int n = 0;
    write_and_load(both, 2, path, sizeof path, &h, &n);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(memcmp(h[0].count, a.count, sizeof a.count) == 0);
        CHECK(memcmp(h[1].count, b.count, sizeof b.count) == 0);
        CHECK(!strcmp(h[1].structure, "rf") && !strcmp(h[1].kernel, "hotspot"));
        CHECK(trapeze_idle_hist_periods(&h[0], -1) == 22);
        CHECK(trapeze_idle_hist_idle_cycles(&h[0], TRAPEZE_NEXT_DEAD) == 7 * 3072.5);
    }
    free(h);
}

/* Each bad file must fail with its line and field in the message. */
static void expect_bad(const char *body, const char *needle)
{
    char path[512];
    path_of(path, sizeof path, "bad.csv");
    char text[4096];
    snprintf(text, sizeof text,
             "gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles,"
             "next_access,count\n%s",
             body);
    write_text(path, text);
    trapeze_idle_hist *h = NULL;
    int n;
    trapeze_error err = {0};
    CHECK(trapeze_idle_csv_load(path, &h, &n, &err) == TRAPEZE_EPARSE);
    CHECK(h == NULL);
    if (!strstr(err.message, needle))
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
    CHECK(strstr(err.message, needle) != NULL);
}

static void test_bad_rows(void)
{
    expect_bad("g,k,l1d,line,1025,4096,read,1\n", ":2: field length_max_cycles");
    expect_bad("g,k,l1d,line,3,3,read,1\ng,k,l1d,line,1026,2048,read,1\n",
               ":3: field length_min_cycles");
    expect_bad("g,k,l1d,line,3,3,fetch,1\n", ":2: field next_access");
    expect_bad("g,k,l1d,line,3,3,read,-1\n", ":2: field count");
    expect_bad("g,k,dram,line,3,3,read,1\n", ":2: field structure");
    expect_bad("g,k,rf,line,3,3,read,1\n", ":2: field granularity");
    expect_bad("g,k,rf,bank,3,3,read\n", ":2: 7 fields");
    expect_bad("", "no idle-period rows");
    expect_bad("g,k,l1d,line,3,3,read,inf\n", ":2: field count");
    expect_bad("g,k,l1d,line,3,3,read,nan\n", ":2: field count");
    expect_bad("g,k,l1d,line,0,0,read,1\n", ":2: field length_min_cycles");
    expect_bad("g,k,l1d,line,1e3,1e3,read,1\n", ":2: field length_min_cycles");
    expect_bad("g,k,l1d,line,3,3,read,1e308\ng,k,l1d,line,3,3,read,1e308\n", ":3: field count");
    expect_bad(",k,l1d,line,3,3,read,1\n", ":2: field gpu");
    char path[512];
    path_of(path, sizeof path, "bad.csv");
    write_text(path, "gpu,kernel,structure,granularity,min,max,next_access,count\n");
    trapeze_idle_hist *h;
    int n;
    trapeze_error err;
    CHECK(trapeze_idle_csv_load(path, &h, &n, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":1: header column 5") != NULL);
}

#define HEADER "gpu,kernel,structure,granularity,length_min_cycles,length_max_cycles," \
               "next_access,count\n"

/* 300 kernels whose names share their first 70 bytes, two rows each, the
 * second rows after all the first ones: 600 histograms, names whole. */
static void test_long_names(void)
{
    enum { K = 300 };
    size_t cap = 100 + (size_t)K * 2 * 220;
    char *text = malloc(cap), name[160];
    size_t len = (size_t)snprintf(text, cap, HEADER);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < K; k++) {
            snprintf(name, sizeof name, "void stencil<float, 3>(float const*, float*, int, "
                     "int, int, int) variant_%04d_with_a_long_tail", k);
            len += (size_t)snprintf(text + len, cap - len, "gtx480,\"%s\",%s,%d,%d,%s,%d\n",
                                    name, pass ? "rf,warp_reg" : "l1d,line", k + 1, k + 1,
                                    pass ? "write" : "read", pass + 1);
        }
    char path[512];
    path_of(path, sizeof path, "idle.csv");
    write_text(path, text);
    free(text);
    trapeze_idle_hist *h = NULL;
    int n = 0;
    trapeze_error err;
    CHECK_OK(trapeze_idle_csv_load(path, &h, &n, &err));
    CHECK(n == 2 * K);
    for (int i = 0; i < n && n == 2 * K; i++) {
        int k = i % K;
        snprintf(name, sizeof name, "void stencil<float, 3>(float const*, float*, int, int, "
                 "int, int) variant_%04d_with_a_long_tail", k);
        CHECK(strlen(h[i].kernel) == strlen(name) && !strcmp(h[i].kernel, name));
        CHECK(trapeze_idle_hist_periods(&h[i], -1) == (i < K ? 1 : 2));
        CHECK(trapeze_idle_hist_longest(&h[i]) == k + 1);
    }
    free(h);
}

/* A name with a comma, a quote and a newline, written and read back. */
static void test_quoted_name(void)
{
    static const char name[] = "k\"1,2,3,,4\"\nline two";
    trapeze_idle_hist a;
    trapeze_idle_hist_init(&a, "gtx480", name, "l2", "slice");
    a.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(5000)] = 1e-300;
    char path[512];
    const trapeze_idle_hist *one[] = {&a};
    trapeze_idle_hist *h = NULL;
    int n = 0;
    write_and_load(one, 1, path, sizeof path, &h, &n);
    CHECK(n == 1 && !strcmp(h[0].kernel, name));
    CHECK(n == 1 && !memcmp(h[0].count, a.count, sizeof a.count));
    /* 5000 is in [4097, 8192] */
    CHECK(n == 1 && trapeze_idle_hist_longest(&h[0]) == 4097);
    free(h);
}

static void test_name_bounds(void)
{
    char name[1100], row[2400];
    memset(name, 'k', sizeof name);
    name[TRAPEZE_IDLE_NAME_MAX - 1] = '\0';   /* 1023 bytes: kept */
    char path[512];
    path_of(path, sizeof path, "idle.csv");
    snprintf(row, sizeof row, HEADER "g,%s,l1d,line,3,3,read,1\n", name);
    write_text(path, row);
    trapeze_idle_hist *h = NULL;
    int n = 0;
    trapeze_error err;
    CHECK_OK(trapeze_idle_csv_load(path, &h, &n, &err));
    CHECK(n == 1 && strlen(h[0].kernel) == TRAPEZE_IDLE_NAME_MAX - 1);
    free(h);
    name[TRAPEZE_IDLE_NAME_MAX - 1] = 'k';
    name[TRAPEZE_IDLE_NAME_MAX] = '\0';
    snprintf(row, sizeof row, "g,%s,l1d,line,3,3,read,1\n", name);
    expect_bad(row, ":2: field kernel: a kernel name longer than 1023 bytes");
}

/* Rows of another GPU than the one asked for: TRAPEZE_EINVAL, by line. */
static void test_gpu(void)
{
    char path[512];
    path_of(path, sizeof path, "idle.csv");
    write_text(path, HEADER "gtx480,k,l1d,line,3,3,read,1\nv100,k,l1d,line,3,3,read,1\n");
    trapeze_idle_hist *h = NULL;
    int n = 0;
    trapeze_error err;
    CHECK(trapeze_idle_csv_load_gpu(path, "gtx480", &h, &n, &err) == TRAPEZE_EINVAL);
    CHECK(h == NULL && strstr(err.message, "idle.csv:3: field gpu: histograms of 'v100'"));
    CHECK_OK(trapeze_idle_csv_load_gpu(path, NULL, &h, &n, &err));
    CHECK(n == 2);
    free(h);
}

/* Short periods 1..4 as point masses, then 30% lognormal(ln 20, 0.5) and
 * 70% lognormal(ln 300, 1.0), truncated to > 4. */
static const double W = 0.3, MU0 = 2.995732, S0 = 0.5, MU1 = 5.703782, S1 = 1.0;

static double cdf(double x)
{
    double a = 0.5 * erfc(-(log(x) - MU0) / (S0 * M_SQRT2));
    double b = 0.5 * erfc(-(log(x) - MU1) / (S1 * M_SQRT2));
    return W * a + (1 - W) * b;
}

static void expected(trapeze_idle_hist *h, double total)
{
    trapeze_idle_hist_init(h, "g", "k", "l2", "line");
    double short_mass[4] = {0.2, 0.1, 0.05, 0.05};   /* of all periods */
    double tail = 1 - 0.4, rest = 1 - cdf(4.5);
    for (int b = 0; b < TRAPEZE_IDLE_NBUCKETS; b++) {
        double lo, hi;
        trapeze_idle_bucket_range(b, &lo, &hi);
        h->count[TRAPEZE_NEXT_READ][b] =
            b < 4 ? total * short_mass[b] : total * tail * (cdf(hi + 0.5) - cdf(lo - 0.5)) / rest;
    }
}

/* A deterministic draw from `expected`'s distribution (inverse CDF by
 * bisection, a fixed LCG), so the test is the same on every machine. */
static double draw(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = (double)(*state >> 11) / 9007199254740992.0;
    if (u < 0.4)
        return u < 0.2 ? 1 : u < 0.3 ? 2 : u < 0.35 ? 3 : 4;
    double target = cdf(4.5) + (u - 0.4) / 0.6 * (1 - cdf(4.5)), lo = 4.5, hi = 1e9;
    for (int i = 0; i < 100; i++) {
        double mid = sqrt(lo * hi);
        if (cdf(mid) < target)
            lo = mid;
        else
            hi = mid;
    }
    return floor(lo + 0.5);
}

static void test_fit(void)
{
    static trapeze_idle_hist truth, smooth, sample;
    trapeze_idle_fit fit;
    trapeze_error err;
    expected(&truth, 1e6);
    CHECK_OK(trapeze_idle_hist_fit(&truth, 4, 50, &fit, &smooth, &err));
    CHECK(fit.fitted[TRAPEZE_NEXT_READ] && !fit.fitted[TRAPEZE_NEXT_WRITE]);
    CHECK_NEAR(fit.weight[TRAPEZE_NEXT_READ], W, 2e-3);
    CHECK_NEAR(fit.mu[TRAPEZE_NEXT_READ][0], MU0, 5e-3);
    CHECK_NEAR(fit.sigma[TRAPEZE_NEXT_READ][0], S0, 5e-3);
    CHECK_NEAR(fit.mu[TRAPEZE_NEXT_READ][1], MU1, 5e-3);
    CHECK_NEAR(fit.sigma[TRAPEZE_NEXT_READ][1], S1, 5e-3);
    CHECK(fit.ks_all < 1e-3);
    CHECK_NEAR(trapeze_idle_hist_periods(&smooth, -1), 1e6, 1e-3);
    for (int b = 0; b < 4; b++)   /* short periods are kept as observed */
        CHECK(smooth.count[TRAPEZE_NEXT_READ][b] == truth.count[TRAPEZE_NEXT_READ][b]);

    trapeze_idle_hist_init(&sample, "g", "k", "l2", "line");
    unsigned long long state = 42;
    for (int i = 0; i < 20000; i++)
        sample.count[TRAPEZE_NEXT_READ][trapeze_idle_bucket(draw(&state))] += 1;
    CHECK_OK(trapeze_idle_hist_fit(&sample, 4, 50, &fit, &smooth, &err));
    CHECK(fit.ks_all < 0.02);
    /* The deep sleep of the caches at a 40-cycle threshold: the fitted
     * sample's saving is the true distribution's within half a point. */
    trapeze_sleep_structure l2;
    CHECK_OK(trapeze_sleep_structure_default("l2", &l2, &err));
    trapeze_sleep_options o;
    trapeze_sleep_options_init(&o);
    double theta[2] = {40, 1e9};
    trapeze_sleep_eval et, ef;
    trapeze_sleep_model *mt, *mf;
    CHECK_OK(trapeze_sleep_create(&l2, &truth, &o, &mt, &err));
    CHECK_OK(trapeze_sleep_create(&l2, &smooth, &o, &mf, &err));
    CHECK_OK(trapeze_sleep_evaluate(mt, theta, 0, &et, &err));
    CHECK_OK(trapeze_sleep_evaluate(mf, theta, 0, &ef, &err));
    CHECK(et.saving_fraction > 0.3);
    CHECK_NEAR(ef.saving_fraction, et.saving_fraction, 0.005);
    trapeze_sleep_destroy(mt);
    trapeze_sleep_destroy(mf);
    CHECK(trapeze_idle_hist_fit(&sample, 1024, 50, &fit, NULL, &err) == TRAPEZE_ERANGE);
}

/* A cut's open periods, hand-spread: completed reads of 10 cycles (2), a
 * write of 5 (1) and a dead period of 100 (1). Three open for 8 cycles go
 * where the periods longer than 8 went: 2 to the reads, 1 to the dead; one
 * open for 3: a quarter each to the write and the dead, half to the reads;
 * one open for 200, longer than any completed: dead at 200. */
static void test_censored(void)
{
    trapeze_idle_hist h;
    trapeze_idle_hist_init(&h, "g", "k", "l2", "line");
    int b5 = trapeze_idle_bucket(5), b10 = trapeze_idle_bucket(10), b100 = trapeze_idle_bucket(100);
    h.count[TRAPEZE_NEXT_READ][b10] = 2;
    h.count[TRAPEZE_NEXT_WRITE][b5] = 1;
    h.count[TRAPEZE_NEXT_DEAD][b100] = 1;
    double ages[TRAPEZE_IDLE_NBUCKETS] = {0};
    ages[trapeze_idle_bucket(8)] = 3;
    ages[trapeze_idle_bucket(3)] = 1;
    ages[trapeze_idle_bucket(200)] = 1;
    trapeze_idle_hist_add_censored(&h, ages, 0);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_READ][b10], 2 + 2 + 0.5, 1e-12);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_WRITE][b5], 1 + 0.25, 1e-12);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_DEAD][b100], 1 + 1 + 0.25, 1e-12);
    CHECK_NEAR(h.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(200)], 1, 1e-12);
    /* every open period counted once, and nowhere at or below its age */
    CHECK_NEAR(trapeze_idle_hist_periods(&h, -1), 4 + 5, 1e-12);
    CHECK(h.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(8)] == 0);
    /* With a filled share of 0.25, the 4 periods open for 300 (older than
     * every completed one): 1 ends in a write at 300, 3 dead; the one open
     * for 8 is spread as before (filled does not touch it). */
    trapeze_idle_hist g;
    trapeze_idle_hist_init(&g, "g", "k", "l2", "line");
    g.count[TRAPEZE_NEXT_READ][b10] = 2;
    double ages2[TRAPEZE_IDLE_NBUCKETS] = {0};
    ages2[trapeze_idle_bucket(300)] = 4;
    ages2[trapeze_idle_bucket(8)] = 1;
    trapeze_idle_hist_add_censored(&g, ages2, 0.25);
    CHECK_NEAR(g.count[TRAPEZE_NEXT_WRITE][trapeze_idle_bucket(300)], 1, 1e-12);
    CHECK_NEAR(g.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(300)], 3, 1e-12);
    CHECK_NEAR(g.count[TRAPEZE_NEXT_READ][b10], 3, 1e-12);
    CHECK(g.count[TRAPEZE_NEXT_WRITE][b10] == 0);
    /* a share outside [0, 1] is clamped: 2 counts as 1 */
    trapeze_idle_hist_init(&g, "g", "k", "l2", "line");
    trapeze_idle_hist_add_censored(&g, ages2, 2);
    CHECK_NEAR(g.count[TRAPEZE_NEXT_WRITE][trapeze_idle_bucket(300)], 4, 1e-12);
    CHECK(g.count[TRAPEZE_NEXT_DEAD][trapeze_idle_bucket(300)] == 0);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/trapeze-idle-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    test_roundtrip();
    test_bad_rows();
    test_long_names();
    test_quoted_name();
    test_name_bounds();
    test_gpu();
    test_fit();
    test_censored();
    char path[512];
    path_of(path, sizeof path, "idle.csv");
    remove(path);
    path_of(path, sizeof path, "bad.csv");
    remove(path);
    remove(dir);
    return check_report("test_idle_hist");
}
