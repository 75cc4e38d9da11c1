/* Tests of the gpgpusim.config reader and the GPU summary derived from it. */
#include <string.h>

#include "check.h"
#include "trapeze.h"

static void test_gtx280_matches_table_5_1(void)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx280.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    CHECK(gpu.n_sm == 30);
    CHECK_NEAR(gpu.core_clock_hz, 1.3e9, 1);
    /* eight 64-bit GDDR3 channels: 141.7 GB/s (Table 5.1) */
    CHECK_NEAR(gpu.dram_bandwidth_bps / 1e9, 141.7, 0.05);
    CHECK(gpu.max_threads_per_block == 512);
    CHECK(gpu.shmem_per_block == 16384);
    CHECK(gpu.max_blocks_per_sm == 8);
    CHECK(gpu.warp_size == 32);
    CHECK(gpu.coalesce_degree == 16);
    trapeze_config_destroy(cfg);
}

static void test_gtx480_and_v100(void)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_error err;
    CHECK_OK(trapeze_config_load("data/gpus/gtx480.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    CHECK(gpu.n_sm == 15);
    /* 384-bit GDDR5 at 924 MHz quad data rate: 177.4 GB/s */
    CHECK_NEAR(gpu.dram_bandwidth_bps / 1e9, 177.4, 0.05);
    CHECK(gpu.max_threads_per_block == 1024);
    CHECK(gpu.max_threads_per_sm == 1536);
    /* the two-line quoted DRAM timing string is one value */
    const char *timing;
    trapeze_config_get_string(cfg, "gpgpu_dram_timing_opt", NULL, &timing);
    CHECK(timing && strstr(timing, "RC=40:CL=12") != NULL);
    trapeze_config_destroy(cfg);

    CHECK_OK(trapeze_config_load("data/gpus/v100.config", &cfg, &err));
    CHECK_OK(trapeze_gpu_from_config(cfg, &gpu, &err));
    CHECK(gpu.n_sm == 80);
    CHECK_NEAR(gpu.dram_bandwidth_bps / 1e9, 870.4, 0.05);
    trapeze_config_destroy(cfg);
}

static void test_errors_name_file_line_option(void)
{
    trapeze_config *cfg;
    trapeze_gpu gpu;
    trapeze_error err;
    const char *text = "# comment\n-gpgpu_n_clusters 15\n-gpgpu_clock_domains 700.0:abc:700:924\n";
    CHECK_OK(trapeze_config_parse(text, "x.config", &cfg, &err));
    CHECK(trapeze_gpu_from_config(cfg, &gpu, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "x.config:3: option -gpgpu_clock_domains") != NULL);
    trapeze_config_destroy(cfg);

    CHECK(trapeze_config_parse("-gpgpu_n_clusters\n", "y.config", &cfg, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "y.config:1: option -gpgpu_n_clusters: missing value") != NULL);
    CHECK(trapeze_config_parse("gpgpu_n_clusters 3\n", "z.config", &cfg, &err) == TRAPEZE_EPARSE);
    CHECK(strstr(err.message, "z.config:1:") != NULL);
    CHECK(trapeze_config_parse("-a \"open\n", "q.config", &cfg, &err) == TRAPEZE_EPARSE);
    CHECK(trapeze_config_load("no/such/file.config", &cfg, &err) == TRAPEZE_EIO);
    CHECK(strstr(err.message, "no/such/file.config") != NULL);
}

static void test_last_definition_wins_and_listing(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    long v;
    CHECK_OK(trapeze_config_parse("-a 1 -b -2\n-a 3 # trailing\n-c x\n", "t", &cfg, &err));
    CHECK_OK(trapeze_config_get_int(cfg, "a", 0, &v, &err));
    CHECK(v == 3);
    CHECK_OK(trapeze_config_get_int(cfg, "-b", 0, &v, &err));
    CHECK(v == -2);
    /* each option once, in file order, the last definition's line */
    CHECK(trapeze_config_count(cfg) == 3);
    CHECK(strcmp(trapeze_config_option(cfg, 0), "a") == 0 &&
          strcmp(trapeze_config_option(cfg, 2), "c") == 0 && !trapeze_config_option(cfg, 3));
    trapeze_config_destroy(cfg);
}

/* A folder loads its gpgpusim.config then its trace.config (Accel-Sim's
 * -config order: trace.config's value wins); a comma list loads in order;
 * an error names the file of the option's own line. */
static void test_folder_and_list(void)
{
    trapeze_config *cfg;
    trapeze_error err;
    long v;
    const char *dir = "tests/configs/accelsim/SM7_QV100";
    CHECK_OK(trapeze_config_load(dir, &cfg, &err));
    /* gpgpusim.config: "-gpgpu_n_clusters 80"; trace.config sets the
     * trace-mode latencies ("2,2" for int) the gpgpusim.config lacks */
    CHECK_OK(trapeze_config_get_int(cfg, "gpgpu_n_clusters", 0, &v, &err));
    CHECK(v == 80);
    CHECK(trapeze_config_has(cfg, "trace_opcode_latency_initiation_int"));
    const char *f = trapeze_config_file(cfg, "trace_opcode_latency_initiation_int");
    CHECK(f && strcmp(f, "tests/configs/accelsim/SM7_QV100/trace.config") == 0);
    f = trapeze_config_file(cfg, "gpgpu_n_clusters");
    CHECK(f && strcmp(f, "tests/configs/accelsim/SM7_QV100/gpgpusim.config") == 0);
    CHECK(trapeze_config_file(cfg, "no_such_option") == NULL);
    trapeze_config_destroy(cfg);

    /* a preset folder: its trapeze.config is read last, so its launch
     * latency (0) overrides the 5000 of Accel-Sim's gpgpusim.config */
    CHECK_OK(trapeze_config_load("data/gpus/a100", &cfg, &err));
    CHECK_OK(trapeze_config_get_int(cfg, "gpgpu_kernel_launch_latency", 9, &v, &err));
    CHECK(v == 0);
    f = trapeze_config_file(cfg, "gpgpu_kernel_launch_latency");
    CHECK(f && strcmp(f, "data/gpus/a100/trapeze.config") == 0);
    /* and GPGPU-Sim's DRAM latency queue, which Accel-Sim's A100 counters
     * need (docs/fidelity.md): off in the bare folder, on in the preset */
    CHECK_OK(trapeze_config_get_int(cfg, "trapeze_dram_latency_queue", 0, &v, &err));
    CHECK(v == 1);
    trapeze_config_destroy(cfg);
    CHECK_OK(trapeze_config_load("tests/configs/accelsim/SM80_A100", &cfg, &err));
    v = 9;
    CHECK(trapeze_config_get_int(cfg, "trapeze_dram_latency_queue", 0, &v, &err) == TRAPEZE_OK && v == 0);
    trapeze_config_destroy(cfg);

    /* a list: the later file's -gpgpu_n_clusters (15) overrides v100's (80),
     * and a bad value is located in the file that set it */
    CHECK_OK(trapeze_config_load("data/gpus/v100.config,data/gpus/gtx480.config", &cfg, &err));
    CHECK_OK(trapeze_config_get_int(cfg, "gpgpu_n_clusters", 0, &v, &err));
    CHECK(v == 15);
    CHECK(strcmp(trapeze_config_name(cfg), "data/gpus/v100.config") == 0);
    CHECK(trapeze_config_fail(cfg, "gpgpu_n_clusters", &err, "x") == TRAPEZE_EPARSE);
    CHECK(strncmp(err.message, "data/gpus/gtx480.config:", 24) == 0);
    trapeze_config_destroy(cfg);

    CHECK(trapeze_config_load("data/gpus/gtx480.config,", &cfg, &err) == TRAPEZE_EINVAL);
    CHECK(trapeze_config_load("data/gpus/gtx480.config,no/such.config", &cfg, &err) ==
          TRAPEZE_EIO);
    CHECK(strstr(err.message, "no/such.config") != NULL);
    CHECK(trapeze_config_load("tests/configs", &cfg, &err) == TRAPEZE_EIO);
    CHECK(strstr(err.message, "tests/configs: a folder without gpgpusim.config") != NULL);
}

int main(void)
{
    test_gtx280_matches_table_5_1();
    test_gtx480_and_v100();
    test_errors_name_file_line_option();
    test_last_definition_wins_and_listing();
    test_folder_and_list();
    return check_report("test_config");
}
