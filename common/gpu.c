/*
 * gpu.c - the hardware summary (trapeze_gpu) that closed-form models need,
 * read from the GPGPU-Sim options that carry it. The simulator reads the
 * same config for its own, more detailed purposes; this file must stay a
 * pure reading of options, with no model or simulator policy in it.
 */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "options.h"

/* Per-block limits are not GPGPU-Sim options: CUDA fixes them by compute
 * capability, which GPGPU-Sim configs state as -gpgpu_ptx_force_max_capability. */
static void limits_from_capability(trapeze_gpu *gpu)
{
    int pre_fermi = gpu->compute_capability < 20;
    int block_shmem = pre_fermi ? 16384 : 49152;
    gpu->max_threads_per_block = pre_fermi ? 512 : 1024;
    gpu->shmem_per_block = gpu->shmem_per_sm < block_shmem ? gpu->shmem_per_sm : block_shmem;
    /* Tesla coalesces per half-warp; Fermi and later per warp. */
    gpu->coalesce_degree = pre_fermi ? 16 : 32;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The most SMs a config may declare: the simulator allocates per SM, and the
 * largest GPU made has 144; a typo such as 49152 is refused here, by name,
 * before anything is allocated. */
#define MAX_SM 4096

const trapeze_opt trapeze_gpu_options[] = {
    {"trapeze_gpu_name", OPT_TEXT, "(file name)", 0, 0, "the GPU's name in outputs and samples"},
    {"gpgpu_clock_domains", OPT_LIST, "(required)", 0, 0, "core:icnt:l2:dram clocks in MHz"},
    {"gpgpu_n_clusters", OPT_INT, "10", 1, MAX_SM, "SM clusters"},
    {"gpgpu_n_cores_per_cluster", OPT_INT, "3", 1, MAX_SM, "SMs per cluster (product <= 4096)"},
    {"gpgpu_shader_cta", OPT_INT, "8", 1, 4096, "thread blocks resident per SM at most"},
    {"gpgpu_shader_registers", OPT_INT, "16384", 1, 1L << 24, "registers per SM"},
    {"gpgpu_shmem_size", OPT_INT, "16384", 0, 1L << 30, "shared memory per SM, bytes"},
    {"gpgpu_shmem_per_block", OPT_INT, "", 0, 1L << 30,
     "shared memory per block, bytes (default: by capability, <= -gpgpu_shmem_size)"},
    {"gpgpu_shader_core_pipeline", OPT_LIST, "1024:32", 1, 1L << 16,
     "threads per SM:warp size"},
    {"gpgpu_ptx_force_max_capability", OPT_INT, "20", 10, 1000,
     "compute capability (13, 20, 70, ...)"},
    {"gpgpu_n_mem", OPT_INT, "8", 1, 1024, "memory channels"},
    {"gpgpu_n_mem_per_ctrlr", OPT_INT, "1", 1, 64, "DRAM chips per channel"},
    {"gpgpu_dram_buswidth", OPT_INT, "4", 1, 1024, "bytes per DRAM chip transfer"},
    {"dram_data_command_freq_ratio", OPT_INT, "2", 1, 64, "data transfers per command clock"},
    {NULL, OPT_INT, NULL, 0, 0, NULL}};

#define OPT(name, out) trapeze_opt_int(cfg, trapeze_gpu_options, name, out, err)

static trapeze_status read_sm_limits(const trapeze_config *cfg, trapeze_gpu *gpu,
                                     trapeze_error *err)
{
    long clusters, cores, ctas, regs, shmem, pipeline[2] = {1024, 32};
    int n;
    trapeze_status s;
    if ((s = OPT("gpgpu_n_clusters", &clusters)) || (s = OPT("gpgpu_n_cores_per_cluster", &cores)) ||
        (s = OPT("gpgpu_shader_cta", &ctas)) || (s = OPT("gpgpu_shader_registers", &regs)) ||
        (s = OPT("gpgpu_shmem_size", &shmem)) ||
        (s = trapeze_config_get_ints(cfg, "gpgpu_shader_core_pipeline", ":", 1, 1L << 16,
                                     pipeline, 2, &n, err)))
        return s;
    if (clusters * cores > MAX_SM)
        return trapeze_config_fail(cfg, "gpgpu_n_cores_per_cluster", err,
                                   "%ld clusters x %ld cores is more than %d SMs", clusters,
                                   cores, MAX_SM);
    if (n == 0) {
        pipeline[0] = 1024;
        pipeline[1] = 32;
    } else if (n != 2) {
        return trapeze_config_fail(cfg, "gpgpu_shader_core_pipeline", err,
                                   "expected THREADS_PER_SM:WARP_SIZE");
    }
    /* every value below was range-checked into int's range above */
    gpu->n_sm = (int)(clusters * cores);
    gpu->max_blocks_per_sm = (int)ctas;
    gpu->regs_per_sm = (int)regs;
    gpu->shmem_per_sm = (int)shmem;
    gpu->max_threads_per_sm = (int)pipeline[0];
    gpu->warp_size = (int)pipeline[1];
    return TRAPEZE_OK;
}

/* Peak DRAM bandwidth = channels x chips per channel x bytes per chip x
 * command clock x data transfers per command clock. */
static trapeze_status read_memory(const trapeze_config *cfg, trapeze_gpu *gpu,
                                  const double *clocks_mhz, trapeze_error *err)
{
    long n_mem, per_ctrl, bus_width, ratio;
    trapeze_status s;
    if ((s = OPT("gpgpu_n_mem", &n_mem)) || (s = OPT("gpgpu_n_mem_per_ctrlr", &per_ctrl)) ||
        (s = OPT("gpgpu_dram_buswidth", &bus_width)) ||
        (s = OPT("dram_data_command_freq_ratio", &ratio)))
        return s;
    gpu->dram_bandwidth_bps = (double)n_mem * per_ctrl * bus_width * clocks_mhz[3] * 1e6 * ratio;
    return TRAPEZE_OK;
}

/* The GPU's name: -trapeze_gpu_name when the config sets it; else the file's
 * name without its extension (gtx480.config -> gtx480); but GPGPU-Sim and
 * Accel-Sim name every config gpgpusim.config, in a folder named after the
 * GPU (SM7_QV100/gpgpusim.config -> SM7_QV100). */
static void gpu_name(const trapeze_config *cfg, char *out, size_t size)
{
    const char *set = "";
    if (trapeze_config_get_string(cfg, "trapeze_gpu_name", "", &set) == TRAPEZE_OK && set[0]) {
        snprintf(out, size, "%s", set);
        return;
    }
    const char *path = trapeze_config_name(cfg), *base = base_name(path);
    if (strcmp(base, "gpgpusim.config") == 0 && base != path) {
        size_t dir_len = (size_t)(base - path) - 1; /* without the '/' */
        const char *dir = path;
        for (size_t i = 0; i < dir_len; i++)
            if (path[i] == '/')
                dir = path + i + 1;
        snprintf(out, size, "%.*s", (int)(path + dir_len - dir), dir);
        if (out[0])
            return;
    }
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

/* FNV-1a over the canonical text of every field a model reads: two configs
 * with the same fingerprint give the model the same GPU, whatever their
 * names, comments, or options the models do not read. */
void trapeze_gpu_fingerprint(const trapeze_gpu *g, char out[17])
{
    char text[512];
    int n = snprintf(text, sizeof text, "%d %.17g %.17g %d %d %d %d %d %d %d %d %d", g->n_sm,
                     g->core_clock_hz, g->dram_bandwidth_bps, g->warp_size,
                     g->max_threads_per_block, g->shmem_per_block, g->shmem_per_sm,
                     g->max_threads_per_sm, g->max_blocks_per_sm, g->regs_per_sm,
                     g->coalesce_degree, g->compute_capability);
    unsigned long long h = 14695981039346656037ULL;
    for (int i = 0; i < n && i < (int)sizeof text; i++) {
        h ^= (unsigned char)text[i];
        h *= 1099511628211ULL;
    }
    snprintf(out, 17, "%016llx", h);
}

trapeze_status trapeze_gpu_from_config(const trapeze_config *cfg, trapeze_gpu *gpu,
                                       trapeze_error *err)
{
    memset(gpu, 0, sizeof *gpu);
    gpu_name(cfg, gpu->name, sizeof gpu->name);

    double clocks[4];
    int n;
    long cc;
    trapeze_status s;
    if ((s = trapeze_config_get_doubles(cfg, "gpgpu_clock_domains", ":", clocks, 4, &n, err)))
        return s;
    if (n != 4)
        return trapeze_config_fail(cfg, "gpgpu_clock_domains", err,
                                   n ? "expected CORE:ICNT:L2:DRAM in MHz" : "is required");
    for (int i = 0; i < 4; i++)
        if (!(clocks[i] > 0 && clocks[i] <= 1e6))
            return trapeze_config_fail(cfg, "gpgpu_clock_domains", err,
                                       "clock %d is outside (0, 1e6] MHz", i + 1);
    gpu->core_clock_hz = clocks[0] * 1e6;
    if ((s = read_sm_limits(cfg, gpu, err)) || (s = read_memory(cfg, gpu, clocks, err)))
        return s;
    if ((s = OPT("gpgpu_ptx_force_max_capability", &cc)))
        return s;
    gpu->compute_capability = (int)cc;
    limits_from_capability(gpu);
    long per_block;
    if ((s = trapeze_opt_int_or(cfg, trapeze_gpu_options, "gpgpu_shmem_per_block",
                                gpu->shmem_per_block, &per_block, err)))
        return s;
    if (per_block > gpu->shmem_per_sm)
        return trapeze_config_fail(cfg, "gpgpu_shmem_per_block", err,
                                   "%ld is more than -gpgpu_shmem_size (%d)", per_block,
                                   gpu->shmem_per_sm);
    gpu->shmem_per_block = (int)per_block;
    return TRAPEZE_OK;
}
