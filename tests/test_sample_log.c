/*
 * Tests of samples.csv: rows survive a reopen exactly, a torn last row (a
 * crash in mid-write) is cut off and nothing finished is lost, and malformed
 * rows are errors naming file, line and field.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "trapeze.h"

static trapeze_sample make(int i)
{
    trapeze_sample s = {.sync = i % 2 ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH,
                        .h = 1 + i, .blk_len = 16, .data_len = {512, 256, 1}, .stages = 3,
                        .cycles = 1000.25 * (i + 1), .warp_instructions = 4096.0 * i};
    snprintf(s.id, sizeof s.id, "hotspot/h%d,\"odd\" id", i); /* needs CSV quoting */
    snprintf(s.kind, sizeof s.kind, "sim");
    snprintf(s.workload, sizeof s.workload, "HotSpot");
    snprintf(s.gpu, sizeof s.gpu, "gtx480");
    s.cpl_cycles = s.cycles / (s.stages * s.h) + 0.1;
    return s;
}

int main(void)
{
    const char *path = "build/test_sample_log.csv";
    trapeze_sample_log *log;
    trapeze_error err;
    remove(path);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    for (int i = 0; i < 3; i++) {
        trapeze_sample s = make(i);
        CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    }
    trapeze_sample_log_close(log);

    /* a crash in the middle of writing the fourth row */
    FILE *f = fopen(path, "a");
    fputs("hotspot/h3,sim,HotSpot,gtx480,fen", f);
    fclose(f);

    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 3);
    for (int i = 0; i < 3; i++) {
        trapeze_sample want = make(i);
        const trapeze_sample *got = trapeze_sample_log_find(log, want.id);
        CHECK(got != NULL);
        if (!got)
            continue;
        CHECK(strcmp(got->kind, "sim") == 0 && strcmp(got->workload, "HotSpot") == 0 &&
              strcmp(got->gpu, "gtx480") == 0);
        CHECK(got->sync == want.sync && got->h == want.h && got->blk_len == 16 &&
              got->stages == 3);
        CHECK(got->data_len[0] == 512 && got->data_len[1] == 256 && got->data_len[2] == 1);
        /* the same doubles, not approximately */
        CHECK(got->cycles == want.cycles && got->cpl_cycles == want.cpl_cycles &&
              got->warp_instructions == want.warp_instructions);
    }
    CHECK(trapeze_sample_log_find(log, "hotspot/h3") == NULL); /* still to run */
    trapeze_sample s = make(3);
    CHECK_OK(trapeze_sample_log_append(log, &s, &err));
    trapeze_sample_log_close(log);
    CHECK_OK(trapeze_sample_log_open(path, &log, &err));
    CHECK(trapeze_sample_log_count(log) == 4);
    trapeze_sample_log_close(log);

    /* malformed content is an error naming file, line and field */
    f = fopen(path, "a");
    fputs("x,sim,HotSpot,gtx480,relaunch,2,16,512,256,1,3,many,1,1,0\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open(path, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "test_sample_log.csv:6: field cycles: expected a number, got 'many'") != NULL);
    remove(path);
    f = fopen(path, "w");
    fputs("a,b\n", f);
    fclose(f);
    CHECK(trapeze_sample_log_open(path, &log, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, ":1: header") != NULL);
    remove(path);
    return check_report("test_sample_log");
}
