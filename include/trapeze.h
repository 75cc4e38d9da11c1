/*
 * trapeze.h - the public C API of libtrapeze.
 *
 * Conventions (after NLopt and GSL): every function is trapeze_<module>_<verb>;
 * objects are opaque handles with create/destroy; every fallible call returns a
 * trapeze_status and, when given a non-NULL trapeze_error, fills it with one
 * human-readable line naming file, line and field where those exist. The
 * library keeps no global state.
 */
#ifndef TRAPEZE_H
#define TRAPEZE_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAPEZE_VERSION "0.1.0"

/* ---------------------------------------------------------------- errors */

typedef enum {
    TRAPEZE_OK = 0,
    TRAPEZE_EIO = 1,      /* a file could not be opened, read or written */
    TRAPEZE_EPARSE = 2,   /* malformed input: config, workload, CSV, trace */
    TRAPEZE_ERANGE = 3,   /* a value outside its valid range */
    TRAPEZE_EINVAL = 4,   /* an invalid argument to an API call */
    TRAPEZE_ENOMEM = 5,   /* allocation failed */
    TRAPEZE_EFAIL = 6     /* a numerical method failed */
} trapeze_status;

typedef struct trapeze_error {
    trapeze_status code;
    char message[768];
} trapeze_error;

const char *trapeze_status_name(trapeze_status status);
/* sizeof the named public struct ("trapeze_ghostzone_eval", ...), 0 if unknown:
 * for bindings that allocate or mirror the library's structs. */
size_t trapeze_struct_size(const char *name);

/* ----------------------------------------- GPU config (gpgpusim.config) */

/* A parsed gpgpusim.config: "-option value..." lines, '#' comments. Values
 * stay strings until a consumer asks for a type, so that an error can name
 * the file, line and option of the value that is wrong. */
typedef struct trapeze_config trapeze_config;

/* path: a config file; a folder as GPGPU-Sim's and Accel-Sim's tested-cfgs
 * (its gpgpusim.config, then its trace.config when present, as Accel-Sim's
 * -config files); or a comma-separated list of files and folders, loaded in
 * order: a later definition of an option wins. */
trapeze_status trapeze_config_load(const char *path, trapeze_config **out,
                                   trapeze_error *err);
/* The files paths[0..n) in order into one config (named after paths[0]). */
trapeze_status trapeze_config_load_files(const char *const *paths, int n,
                                         trapeze_config **out, trapeze_error *err);
/* Parse text as if it were the file `name` (for tests and embedding). */
trapeze_status trapeze_config_parse(const char *text, const char *name,
                                    trapeze_config **out, trapeze_error *err);
void trapeze_config_destroy(trapeze_config *cfg);

const char *trapeze_config_name(const trapeze_config *cfg);
/* The path of the file whose line defines `option` (a file that option names
 * is read relative to it, -inter_config_file); NULL when absent. */
const char *trapeze_config_file(const trapeze_config *cfg, const char *option);
int trapeze_config_has(const trapeze_config *cfg, const char *option);
/* Typed getters: `fallback` when the option is absent; a malformed value is
 * TRAPEZE_EPARSE with "file:line: option -x: ..." in err. Getters only read. */
trapeze_status trapeze_config_get_int(const trapeze_config *cfg, const char *option,
                                      long fallback, long *out, trapeze_error *err);
trapeze_status trapeze_config_get_double(const trapeze_config *cfg, const char *option,
                                         double fallback, double *out,
                                         trapeze_error *err);
trapeze_status trapeze_config_get_string(const trapeze_config *cfg, const char *option,
                                         const char *fallback, const char **out);
/* A list of numbers separated by any of `seps` ("1300.0:650.0:650.0:1107.0"). */
trapeze_status trapeze_config_get_doubles(const trapeze_config *cfg, const char *option,
                                          const char *seps, double *values,
                                          int max_values, int *count,
                                          trapeze_error *err);
/* Range-checked getters, the ones to use (common/number.h's rule: checked in
 * the wide type before any conversion). The value, `fallback` when absent,
 * must lie in [lo, hi]; else "file:line: option -x: V is outside [lo, hi]". */
trapeze_status trapeze_config_get_int_in(const trapeze_config *cfg, const char *option,
                                         long fallback, long lo, long hi, long *out,
                                         trapeze_error *err);
trapeze_status trapeze_config_get_double_in(const trapeze_config *cfg, const char *option,
                                            double fallback, double lo, double hi, double *out,
                                            trapeze_error *err);
/* A list of whole numbers ("1024:32") in [lo, hi], read as integers (no
 * "1e10"): *count = 0 when the option is absent. */
trapeze_status trapeze_config_get_ints(const trapeze_config *cfg, const char *option,
                                       const char *seps, long lo, long hi, long *values,
                                       int max_values, int *count, trapeze_error *err);
/* Report a semantic error about an option's value, located at its line. */
trapeze_status trapeze_config_fail(const trapeze_config *cfg, const char *option,
                                   trapeze_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The options the file defines (each once: the last definition), in file
 * order; trapeze_config_option is NULL past the end. A config never changes
 * when read, so one parsed config may be shared by threads. */
size_t trapeze_config_count(const trapeze_config *cfg);
const char *trapeze_config_option(const trapeze_config *cfg, size_t i);

/* The hardware facts every model needs, read from a config. */
typedef struct trapeze_gpu {
    char name[64];
    int n_sm;                     /* clusters x cores per cluster */
    double core_clock_hz;
    double dram_bandwidth_bps;    /* peak bytes per second */
    int warp_size;
    int max_threads_per_block;    /* from the compute capability */
    int shmem_per_block;          /* bytes, from the compute capability */
    int shmem_per_sm;             /* bytes */
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int coalesce_degree;          /* words per coalesced request */
    int compute_capability;       /* e.g. 13, 20, 70 */
} trapeze_gpu;

/* name: -trapeze_gpu_name when set, else the config file's name without
 * extension, or its folder's name for GPGPU-Sim's gpgpusim.config. */
trapeze_status trapeze_gpu_from_config(const trapeze_config *cfg, trapeze_gpu *gpu,
                                       trapeze_error *err);
/* 16 hex digits identifying what the models read of a GPU (every field but
 * the name): a calibration records it, and is refused for another GPU. */
void trapeze_gpu_fingerprint(const trapeze_gpu *gpu, char out[17]);


/* ------------------------------------------------------ CSV output files */

/* Rows go to a temporary file of the run's own beside PATH
 * (PATH.XXXXXX.tmp, created exclusively, removed on an error, SIGINT or
 * SIGTERM), which replaces PATH only on trapeze_csv_commit(), so a failed or
 * interrupted run never leaves a half-written file. A PATH that is a
 * character device or FIFO (/dev/null, /dev/stdout on a pipe) is written in
 * place; a folder, a symbolic link to a file, a block device or a socket is
 * refused. Numbers are written in the shortest form that reads back to the
 * same double. */
typedef struct trapeze_csv_out trapeze_csv_out;

trapeze_status trapeze_csv_create(const char *path, const char *const *columns, int ncolumns,
                                  trapeze_csv_out **out, trapeze_error *err);
trapeze_status trapeze_csv_text(trapeze_csv_out *csv, const char *value);
trapeze_status trapeze_csv_number(trapeze_csv_out *csv, double value);
/* Ends the current row; checks it had exactly ncolumns fields. */
trapeze_status trapeze_csv_end_row(trapeze_csv_out *csv, trapeze_error *err);
/* Flushes, fsyncs and closes the temporary file without renaming it yet:
 * the first phase of a command's all-or-nothing outputs (finish every file,
 * then commit each, or abort each). On failure, removes it and frees csv;
 * the message carries the system's reason (e.g. "No space left on device"). */
trapeze_status trapeze_csv_finish(trapeze_csv_out *csv, trapeze_error *err);
/* Finishes (if not yet), renames the temporary file to PATH, frees csv. */
trapeze_status trapeze_csv_commit(trapeze_csv_out *csv, trapeze_error *err);
/* Removes the temporary file and frees csv (safe on NULL). */
void trapeze_csv_abort(trapeze_csv_out *csv);
/* Whether PATH can be written the way trapeze_csv_create and commit write
 * it (any output file of the library goes the same way), checked before a
 * long run: PATH is none of the refused kinds, and a temporary file can be
 * created beside it (created and removed again); a device or FIFO is
 * checked for write permission, not opened. Creates nothing that stays. */
trapeze_status trapeze_output_check(const char *path, trapeze_error *err);

/* ------------------------------------------ power description (data/power/) */

/* What a GPU's hardware costs in energy: joules per event, constant and
 * idle-SM power, leakage per structure and the sleep modes of the structures
 * that can sleep. Loaded from an INI file (data/power/NAME.ini); neutral, so
 * that model/ can read the mode tables without sim/. */
typedef enum {
    TRAPEZE_PE_INST_ISSUE,      /* per warp instruction (fetch, buffer, scheduler) */
    TRAPEZE_PE_REG_READ,        /* per active thread and operand */
    TRAPEZE_PE_REG_WRITE,       /* per active thread */
    TRAPEZE_PE_INT_OP,          /* per active thread */
    TRAPEZE_PE_FP_OP,
    TRAPEZE_PE_SFU_OP,
    TRAPEZE_PE_SHMEM_ACCESS,    /* per shared-memory pass (conflict replays included) */
    TRAPEZE_PE_L1_READ_HIT, TRAPEZE_PE_L1_READ_MISS,
    TRAPEZE_PE_L1_WRITE_HIT, TRAPEZE_PE_L1_WRITE_MISS,
    TRAPEZE_PE_L2_READ_HIT, TRAPEZE_PE_L2_READ_MISS,
    TRAPEZE_PE_L2_WRITE_HIT, TRAPEZE_PE_L2_WRITE_MISS,
    TRAPEZE_PE_ICNT_FLIT,
    TRAPEZE_PE_DRAM_ACTIVATE, TRAPEZE_PE_DRAM_READ, TRAPEZE_PE_DRAM_WRITE,
    TRAPEZE_PE_DRAM_PRECHARGE,  /* DRAM: per command (read/write: per burst) */
    TRAPEZE_PE_COUNT
} trapeze_power_event;

/* Structures with leakage; the first three can sleep. Instances: rf, shmem,
 * l1d, sm_other per SM; l2 per L2 slice. */
typedef enum {
    TRAPEZE_PS_L1D, TRAPEZE_PS_L2, TRAPEZE_PS_RF,
    TRAPEZE_PS_SHMEM, TRAPEZE_PS_SM_OTHER,
    TRAPEZE_PS_COUNT
} trapeze_power_structure;
#define TRAPEZE_PS_SLEEPABLE 3      /* l1d, l2, rf */
#define TRAPEZE_POWER_MAX_MODES 4   /* "on" and up to three sleep modes */

typedef struct trapeze_power_mode {
    char name[16];           /* "on", "sleep", "off", "shallow", "deep", "gated" */
    double leak_fraction;    /* leakage in this mode / leakage when ON */
    int wake_cycles;         /* core cycles from the wake signal to ON */
    double transition_j;     /* energy of one ON -> mode -> ON round trip of the whole
                                structure ([leakage_w]'s instance); a unit (line, warp
                                register) pays its share, as of the leakage */
    int retains_state;       /* 0: contents lost (only for dead or about-to-be-written data) */
} trapeze_power_mode;

typedef struct trapeze_power {
    char name[64];
    char path[256];
    double event_j[TRAPEZE_PE_COUNT];
    double constant_w;                      /* whole chip, always */
    double idle_sm_w;                       /* per SM with no resident block */
    double leak_w[TRAPEZE_PS_COUNT];        /* per instance, when ON */
    int n_modes[TRAPEZE_PS_SLEEPABLE];      /* mode[s][0] is always "on" (1.0, 0 cycles) */
    trapeze_power_mode mode[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES];
} trapeze_power;

/* Every [event_j] key, [power_w] constant and idle_sm and [leakage_w] key is
 * required; [mode.STRUCT.NAME] sections add sleep modes in file order. An
 * error names file, line and field. */
trapeze_status trapeze_power_load(const char *path, trapeze_power *p, trapeze_error *err);
const char *trapeze_power_event_name(trapeze_power_event e);
const char *trapeze_power_structure_name(trapeze_power_structure s);
/* Index of mode `name` of sleepable structure s, or -1. */
int trapeze_power_mode_find(const trapeze_power *p, trapeze_power_structure s, const char *name);

/* ------------------------------------------------- ghost-zone model (Meng ch.5) */

/* An iterative stencil loop (workload spec, INI). Inputs of the model. */
#define TRAPEZE_MAX_DIMS 3
typedef struct trapeze_workload {
    char name[64];
    char path[256];
    int dims;                           /* D: 1, 2 or 3 */
    double data_len[TRAPEZE_MAX_DIMS];  /* DataLength_i */
    int halo[TRAPEZE_MAX_DIMS];         /* HaloWidth_i (both sides together) */
    int blk_len;                        /* thread-block edge, the same in every dimension */
    int regs_per_thread;                /* registers per thread (16, the generated kernels') */
    int star;                           /* "shape = star": neighbours along the axes only (a 3-D
                                           7-point star); 0: the whole (halo+1)^D box */
#define TRAPEZE_MAX_AUX_ARRAYS 8
    int aux_halo[TRAPEZE_MAX_AUX_ARRAYS]; /* per extra array (stencil_arrays - 1, in order): the
                                           neighbourhood it is read with, both sides together,
                                           in the stencil's shape (0: its own element), <= halo */
    int stencil_arrays;                 /* NumStencilArrays */
    double elem_per_op;                 /* NumElemPerOp */
    int element_bytes;                  /* x */
    int iterations;                     /* stencil loops to run (simulation) */
    int height;                         /* trapezoid height to run; 0 = unset */
    double profile_elements;            /* N of the profiling run */
    double insts_per_sm_mc;             /* InstsPerSM_MC */
    double insts_per_sm_ic;             /* InstsPerSM_IC */
    double bank_conflict_rate;
    double setup_insts;                 /* per-thread setup instructions of the generated kernel,
                                           from the spec's own [profile] (a calibration's profile
                                           does not change it); 0: derive from the counts */
    /* The stencil in its author's terms (docs/formats.md). */
    int shape_given;                    /* 0: "shape" unset, the (halo+1)^D box assumed */
#define TRAPEZE_MAX_OFFSETS 343         /* a radius-3 box in 3-D */
    int n_offsets;                      /* "shape = -1,0 1,0 ...": the points read; 0: box/star */
    short offsets[TRAPEZE_MAX_OFFSETS][TRAPEZE_MAX_DIMS];
    int element_type;                   /* trapeze_element_type: the arithmetic's unit */
    int flops_per_point;                /* arithmetic instructions per point and loop */
    int sfu_per_point;                  /* special-function instructions per point and loop */
    int counts_source;                  /* trapeze_counts_source of the instruction counts */
} trapeze_workload;

typedef enum { TRAPEZE_ELEM_FLOAT, TRAPEZE_ELEM_DOUBLE, TRAPEZE_ELEM_INT } trapeze_element_type;
/* Where a workload's instruction counts (profile_elements, insts_per_sm_*)
 * come from: derived from its spec (no [profile]), or the spec's [profile]. */
typedef enum { TRAPEZE_COUNTS_SPEC, TRAPEZE_COUNTS_PROFILE } trapeze_counts_source;

trapeze_status trapeze_workload_load(const char *path, trapeze_workload *w,
                                     trapeze_error *err);
/* The keys a workload spec may hold, in the parser's own table: the i-th
 * key's name and its section in *section; NULL past the last. */
const char *trapeze_workload_key(int i, const char **section);
/* Instruction counts of one stencil op (one point, one loop, per warp) as
 * the generated kernel runs them, from the spec alone, and its setup. */
typedef struct trapeze_workload_counts {
    int points;          /* neighbours read from the iterated array */
    int shared_loads;    /* those plus each extra array's neighbourhood */
    int global_loads;    /* NumElemPerOp */
    int arith, sfu;      /* flops_per_point, sfu_per_point */
    int per_point;       /* loads + arith + sfu + the store */
    int setup;           /* per thread, once per launch: index arithmetic */
    int outside_loop;    /* setup + staging (a load and a store per array) + the commit */
} trapeze_workload_counts;
void trapeze_workload_derive_counts(const trapeze_workload *w, trapeze_workload_counts *c);
/* Calls fn(ctx, offset) for each point of w's shape within the box
 * [-left_d, right_d] (all of it for a box, the axes for a star, the listed
 * points inside it for a list), dimension 0 fastest; returns their number.
 * fn may be NULL (count only). */
int trapeze_workload_points(const trapeze_workload *w, const int *left, const int *right,
                            void (*fn)(void *ctx, const int *offset), void *ctx);
/* The neighbourhood of w's iterated array along dimension d: left[d]
 * elements before the point, right[d] after (halo/2 and the rest for a box
 * or a star; from the listed offsets for a list). */
void trapeze_workload_reach(const trapeze_workload *w, int *left, int *right);

/* The parameter vector: every constant Meng measured, assumed or fitted.
 * Calibration fits these; the default is the dissertation's GTX 280 set. */
typedef enum {
    TRAPEZE_GHOSTZONE_UNCONTENDED_LAT,   /* UncontendedLat, cycles (assumed 300) */
    TRAPEZE_GHOSTZONE_SIGMA,             /* sigma: alpha = sigma^(D-1) (fitted 5.0) */
    TRAPEZE_GHOSTZONE_BETA,              /* beta: latency hiding (assumed 0.5; used only with tau) */
    TRAPEZE_GHOSTZONE_MU,                /* mu: exposed fraction of fence sync (assumed 0.5) */
    TRAPEZE_GHOSTZONE_FENCE_PER_BLOCK,   /* fence-barrier cycles per block (measured 210.3) */
    TRAPEZE_GHOSTZONE_RELAUNCH,          /* kernel relaunch cycles (measured 3350) */
    TRAPEZE_GHOSTZONE_CPI,               /* cycles per warp instruction (4) */
    TRAPEZE_GHOSTZONE_BLOCKS_PER_SM,     /* BlksPerSM (8) */
    TRAPEZE_GHOSTZONE_BW_FRACTION,       /* achieved / peak DRAM bandwidth (extension; 1 = Meng) */
    TRAPEZE_GHOSTZONE_FENCE_BARRIER,     /* fence-barrier cycles per stage, the intercept of Meng's
                                     fit (his "negligible" delta; 0 = Meng) */
    TRAPEZE_GHOSTZONE_OVERLAP,           /* omega: memory/compute overlap, CPS = GlbSync +
                                     (MemAcc^p + Comp^p)^(1/p), p = 1/(1-omega): 0 is
                                     Meng's sum, toward 1 the larger of the two (extension) */
    TRAPEZE_GHOSTZONE_TILE_CYCLES,       /* relaunch: cycles per tile on the busiest SM beyond its
                                     instructions (block dispatch and retire; 0 = Meng) */
    TRAPEZE_GHOSTZONE_FENCE_MISC,        /* fence: fraction of MiscComp the persistent kernel still
                                     runs per tile (staging, commit; 0 = Meng, who drops it) */
    TRAPEZE_GHOSTZONE_FENCE_POLL,        /* fence: cycles per stage per participating block and per
                                     wave of tiles it waits through (polling contention at
                                     the L2; 0 = Meng) */
    TRAPEZE_GHOSTZONE_OVERLAP_FENCE,     /* omega of fence mode when fence_overlap = 1 */
    TRAPEZE_GHOSTZONE_HALO_REREAD,       /* rho: DRAM cost of the staged elements a neighbouring tile
                                     also loads (ghost zones re-read from L2), relative to a
                                     first read: LoadSten moves V + rho (T blk^D - V) elements
                                     (1 = Meng: every staged element from DRAM) */
    TRAPEZE_GHOSTZONE_FENCE_ITER,        /* psi: fence: the persistent kernel's loop iterations after
                                     a tile's first run psi more instructions than the relaunch
                                     profile's (tile coordinates recomputed per iteration):
                                     IterComp + psi (h - 1) IterComp/h (0 = Meng) */
    TRAPEZE_GHOSTZONE_NPARAMS
} trapeze_ghostzone_param;

/* A workload's [profile] counts as measured on the calibrated GPU (the
 * profiling run of a calibration). They replace the workload spec's counts
 * in trapeze_ghostzone_create when the names match (case-insensitive). */
#define TRAPEZE_GHOSTZONE_MAX_PROFILES 16
typedef struct trapeze_ghostzone_profile {
    char workload[64];
    double input_elements, insts_per_sm_mc, insts_per_sm_ic, bank_conflict_rate;
    double issue_cycles;   /* SM-cycles per warp instruction of the issue probe (a tall h
                              less half of it, on four waves of tiles); 0 when not measured */
} trapeze_ghostzone_profile;

typedef struct trapeze_ghostzone_params {
    double value[TRAPEZE_GHOSTZONE_NPARAMS];
    double stderr_[TRAPEZE_GHOSTZONE_NPARAMS];  /* standard errors from a fit; 0 when unknown */
    char source[128];                    /* where the values came from */
    int whole_tiles;                     /* extension, "whole_tiles = 1" in [ghostzone]: at a
                                            whole h, T = prod ceil(DataLength_i / edge_i) and
                                            the busiest SM runs ceil(T / M) trapezoids, as a
                                            launch does (else 5.3's real-valued T) */
    int occupancy;                       /* "occupancy = 1": resident blocks per SM from the GPU
                                            and the workload's block, registers and shared
                                            memory (trapeze_ghostzone_occupancy), not blocks_per_sm */
    int waves;                           /* "waves = 1": at a whole h, passes (5.6) are whole
                                            waves, ceil(T / (BlksPerSM M)): the partial last
                                            wave costs a whole latency */
    int persistent_fence;                /* "persistent_fence = 1": the fence barrier's blocks
                                            are the persistent kernel's, min(T, BlksPerSM M),
                                            not T (5.18) */
    int fence_overlap;                   /* "fence_overlap = 1": fence mode has its own omega */
    int fence_staging;                   /* "fence_staging = 1": fence MiscComp is the profiled
                                            MiscComp less the kernel's setup (run once), plus
                                            fence_misc_fraction of the setup */
    int fence_iter;                      /* "fence_iter = 1": fence IterComp adds
                                            fence_iter_fraction (h - 1) iterations */
    int row_penalty;                     /* "row_penalty = 1": Meng's dimension penalty is paid
                                            once by any tile whose rows are not contiguous,
                                            alpha = sigma for D >= 2 (not sigma^(D-1)) */
    int row_lines;                       /* "row_lines = 1": in 2-D and 3-D, every memory term
                                            pays for the coalesced segments its tile rows
                                            touch (gz_row_lines), times alpha */
    int barrier_max;                     /* "barrier_max = 1": the fence barrier (5.18) is the
                                            larger of its latency and its P blocks' arrivals,
                                            serialized at one counter, smoothly:
                                            mu sqrt(B^2 + (P (F + poll P))^2), not their sum */
    int mem_latency;                     /* "mem_latency = 1": a memory term (5.7) is the larger of
                                            its latency, passes x UncontendedLat (a round of
                                            resident blocks waits on its loads), and its
                                            bandwidth time, not their sum */
    double corr[TRAPEZE_GHOSTZONE_NPARAMS][TRAPEZE_GHOSTZONE_NPARAMS]; /* fitted parameters' correlations
                                            ([correlation] "a,b = r"; 0 when unknown); with
                                            stderr_ they give the fit's covariance */
    double issue_cycles_ref;             /* [ghostzone] issue_cycles_ref: the geometric mean of
                                            the calibrated workloads' issue_cycles. A workload's
                                            CPI is scaled by its issue_cycles over this (1 when
                                            either is 0): its instruction mix's issue rate
                                            against the calibration's */
    int n_profiles;                      /* [profile.NAME] sections of a calibration file */
    trapeze_ghostzone_profile profile[TRAPEZE_GHOSTZONE_MAX_PROFILES];
    char gpu[64];                        /* [meta] gpu: the GPU it was made for ("" unknown) */
    char gpu_fingerprint[17];            /* [meta] gpu_fingerprint (trapeze_gpu_fingerprint) */
} trapeze_ghostzone_params;

/* TRAPEZE_EINVAL when p records a GPU whose fingerprint differs from gpu's
 * (a calibration used with another GPU), naming both; OK when they match or
 * p records none (a hand-written file). */
trapeze_status trapeze_ghostzone_params_check_gpu(const trapeze_ghostzone_params *p, const trapeze_gpu *gpu,
                                                  trapeze_error *err);
const char *trapeze_ghostzone_param_name(trapeze_ghostzone_param p);
/* The physically meaningful range of a parameter (fits stay inside it). */
void trapeze_ghostzone_param_range(trapeze_ghostzone_param p, double *lo, double *hi);
/* Meng's GTX 280 values (Table 5.1, sections 5.4.2-5.4.5). */
void trapeze_ghostzone_params_default(trapeze_ghostzone_params *p);
/* A calibration file: [ghostzone] name = value for each parameter; absent
 * names keep their default; unknown names are errors. [profile.NAME]
 * sections (input_elements, insts_per_sm_mc, insts_per_sm_ic,
 * bank_conflict_rate) carry the measured counts of workload NAME. */
trapeze_status trapeze_ghostzone_params_load(const char *path, trapeze_ghostzone_params *p,
                                             trapeze_error *err);
trapeze_status trapeze_ghostzone_params_save(const char *path, const trapeze_ghostzone_params *p,
                                             trapeze_error *err);

typedef enum { TRAPEZE_SYNC_RELAUNCH, TRAPEZE_SYNC_FENCE } trapeze_sync;
const char *trapeze_sync_name(trapeze_sync s);

/* The six per-loop components of Eq. 5.24 (5.25-5.30), in CSV order. */
typedef enum {
    TRAPEZE_GHOSTZONE_GLBSYNC, TRAPEZE_GHOSTZONE_LOADSTEN, TRAPEZE_GHOSTZONE_COMMIT,
    TRAPEZE_GHOSTZONE_ITERMEM, TRAPEZE_GHOSTZONE_MISCCOMP, TRAPEZE_GHOSTZONE_ITERCOMP,
    TRAPEZE_GHOSTZONE_NCOMPONENTS
} trapeze_ghostzone_component;
const char *trapeze_ghostzone_component_name(trapeze_ghostzone_component c);

typedef struct trapeze_ghostzone_eval {
    double trapezoids;                         /* T (5.3), real-valued */
    double passes;                             /* 5.6 */
    double stage[TRAPEZE_GHOSTZONE_NCOMPONENTS];      /* per stage: GlbSync, LoadSten, Commit,
                                                  IterMem, MiscComp, IterComp (per trapezoid
                                                  for the last two, as in 5.15/5.16) */
    double per_loop[TRAPEZE_GHOSTZONE_NCOMPONENTS];   /* 5.25-5.30 */
    double cps;                                /* 5.2 */
    double cpl;                                /* 5.1 = sum of per_loop */
    double dcpl_dh;                            /* analytic gradient */
    double dcpl_dblk;
    double dcpl_dparam[TRAPEZE_GHOSTZONE_NPARAMS];
} trapeze_ghostzone_eval;

typedef struct trapeze_ghostzone_model trapeze_ghostzone_model;

trapeze_status trapeze_ghostzone_create(const trapeze_gpu *gpu, const trapeze_workload *w,
                                        const trapeze_ghostzone_params *p, trapeze_ghostzone_model **out,
                                        trapeze_error *err);
void trapeze_ghostzone_destroy(trapeze_ghostzone_model *m);
/* A [profile.NAME] of p matching the workload's name replaces its counts
 * once, at create; trapeze_ghostzone_set_params changes the parameter values (and
 * whole_tiles) only, never the workload. The generic model interface
 * (model/model.h) passes parameters to each evaluation instead. */
/* tau = (1 - beta)(1 + BankConflictRate) in 5.11; off ("paper mode") by default. */
void trapeze_ghostzone_set_tau(trapeze_ghostzone_model *m, int enabled);
void trapeze_ghostzone_set_params(trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p);
const trapeze_workload *trapeze_ghostzone_workload(const trapeze_ghostzone_model *m);
/* The SM count the workload's per-SM instruction counts were measured on: the
 * model's GPU's when a calibration's [profile.NAME] supplied them, 30 (Meng's
 * GTX 280) when they are the spec's own [profile]; 5.14 uses it, not the GPU's
 * M, so a spec's counts mean the same instructions per element on any GPU. */
double trapeze_ghostzone_profile_sms(const trapeze_ghostzone_model *m);
const trapeze_gpu *trapeze_ghostzone_gpu(const trapeze_ghostzone_model *m);

/* CPL and its parts at (h, blk_len); both may be real-valued. TRAPEZE_ERANGE
 * if (h, blk_len) violates 5.20 or h < 1.
 *
 * The gradient at a whole height. With whole_tiles off (Meng's paper mode)
 * CPL is one smooth function of h and blk_len, and dcpl_dh / dcpl_dblk are
 * its exact derivatives everywhere, whole heights included: they agree with
 * central finite differences taken across the whole height. With whole_tiles
 * on, the value at a whole (h, blk_len) is the step model's (tiles counted
 * with ceilings, as a launch has them) and between whole values the smooth
 * model's; the gradient at a whole height is then the step model's slope
 * within its step (the tile count held at its launched value), not the
 * slope of the smooth model between heights. dcpl_dparam is exact in both
 * cases. */
trapeze_status trapeze_ghostzone_evaluate(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                          double blk_len, trapeze_ghostzone_eval *out, trapeze_error *err);
/* Largest integer h with blk_len - HaloWidth_i * h > 0 for every i (5.20). */
int trapeze_ghostzone_max_height(const trapeze_ghostzone_model *m, int blk_len);
/* Resident blocks per SM of the workload's block (blk_len^D threads, its
 * registers, stencil_arrays tiles of shared memory), by the same rule as the
 * simulator's occupancy: CTA slots, threads, warps, registers, shared memory. */
int trapeze_ghostzone_occupancy(const trapeze_gpu *gpu, const trapeze_workload *w, int blk_len);
/* delta of Eq. 5.23: per-block net cost of fences over relaunch. */
double trapeze_ghostzone_delta(const trapeze_ghostzone_model *m, double blk_len);

typedef struct trapeze_ghostzone_optimum {
    trapeze_sync sync;
    double h_continuous;   /* h* from NLopt under 5.20 */
    int h_floor;           /* floor(h*): what the dissertation reports */
    int h_argmin;          /* integer argmin of CPL over every valid h */
    int blk_len;           /* block edge used (optimized when asked) */
    double blk_continuous; /* continuous optimum of the block edge, when optimized */
    double cpl_floor;      /* CPL(h_floor) */
    double cpl_argmin;     /* CPL(h_argmin) */
    double cpl_h1;         /* CPL(1): no ghost zone */
    int evaluations;       /* model evaluations by the optimizer */
} trapeze_ghostzone_optimum;

/* Minimizes CPL over h with NLopt (gradient-based, constraint 5.20). With
 * optimize_block, blk_len is a second decision variable bounded by the GPU's
 * threads per block and shared memory per block. */
trapeze_status trapeze_ghostzone_optimize(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                          int optimize_block, trapeze_ghostzone_optimum *out,
                                          trapeze_error *err);

/* The optimum's fields at a given height h (every height field is h,
 * cpl_floor = cpl_argmin = CPL(h), cpl_h1 = CPL(1)) at the workload's
 * block edge: what `trapeze ghostzone --height` reports. */
trapeze_status trapeze_ghostzone_at_height(const trapeze_ghostzone_model *m, trapeze_sync sync, int h,
                                           trapeze_ghostzone_optimum *out, trapeze_error *err);

/* The decision: each sync mode of modes optimized (trapeze_ghostzone_optimize),
 * or, with height > 0, taken at that height (trapeze_ghostzone_at_height), and
 * the faster: the lower CPL at its best integer height (cpl_argmin), the
 * first of modes on a tie. */
typedef struct trapeze_ghostzone_decision {
    int n_modes;
    trapeze_ghostzone_optimum mode[2];
    int chosen;                /* index into mode */
} trapeze_ghostzone_decision;

trapeze_status trapeze_ghostzone_decide(const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                        int n_modes, int optimize_block, int height,
                                        trapeze_ghostzone_decision *out, trapeze_error *err);

/* One integer decision (sync mode, h) and what is known of it. */
typedef struct trapeze_ghostzone_choice {
    trapeze_sync sync;
    int h;
    double cpl_model;
    double diff_sd;            /* standard deviation of cpl_model - the best's cpl_model,
                                  from the fit's covariance (0 for the best, and when the
                                  calibration has no standard errors) */
    int index;                 /* position before ranking (internal) */
    double cpl_sim;            /* trapeze_ghostzone_verify: simulated CPL (0: not simulated) */
    double warp_instructions;  /* trapeze_ghostzone_verify: what simulating it cost */
} trapeze_ghostzone_choice;

/* Every valid (mode, h) at block edge blk_len, best first by the model's CPL
 * (*out is malloc'ed: free() it). p: the model's parameters, whose stderr_
 * and corr give each candidate's uncertainty relative to the best. */
trapeze_status trapeze_ghostzone_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p, int blk_len,
                                      trapeze_ghostzone_choice **out, int *n, trapeze_error *err);

/* The candidates `--verify k` simulates: the model's k best of a ranking c[0..n-1]
 * and, when those are all one mode (k >= 2), the other mode's best as well (the
 * sync mode is the decision the model misses most often). Moves that one to c[k],
 * keeping the rest in order, and returns how many to simulate: k or k + 1. */
int trapeze_ghostzone_verify_order(trapeze_ghostzone_choice *c, int n, int k);

/* After those are simulated (cpl_sim > 0), the next candidate of c[0..n-1] to
 * simulate, or -1 when done: a search along h in each sync mode, from that
 * mode's fastest simulated run (the overall fastest's mode first), that reaches
 * an optimum the model placed far off (PathFinder: the model's three best are
 * neighbours of its h = 19, the simulator's best is 44) or a mode whose best
 * height the model missed (the V100's Multi1D at 100x: fence 7 run, fence 5
 * best). Per direction from the mode's fastest: with nothing simulated that
 * way, a step in h of half its h while the simulation agrees with the model's
 * ranking in that mode (its fastest is the one the model ranks first), else twice the distance
 * back to the nearest simulated one (far optima in a few runs); with
 * one simulated that way, the midpoint, unless it is the neighbour or within
 * TRAPEZE_GHOSTZONE_VERIFY_FLAT of the best (the gain between is smaller than that). */
#define TRAPEZE_GHOSTZONE_VERIFY_FLAT 0.01
/* The other mode is searched (after the fastest run's) when its fastest run is
 * within this of the best: on the shipped size sweeps, 0.10 costs 0.354 of the
 * sweeps' work where searching only the best mode cost 0.301 and searching
 * both always 0.418; every pick ratio is 1.000 from a margin of 0.03 up. */
#define TRAPEZE_GHOSTZONE_VERIFY_OTHER 0.10
#define TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH 16 /* the search's runs, at most, beyond the k: 8 a mode */
int trapeze_ghostzone_verify_next(const trapeze_ghostzone_choice *c, int n);

/* Writes one row per valid h (1..max height) of this model and sync mode:
 * workload,gpu,sync,h,trapezoids,cpl_cycles,glbsync_cycles,loadsten_cycles,
 * commit_cycles,itermem_cycles,misccomp_cycles,itercomp_cycles,speedup_vs_h1 */
extern const char *const trapeze_ghostzone_csv_columns[];
extern const int trapeze_ghostzone_csv_ncolumns;
trapeze_status trapeze_ghostzone_write_rows(const trapeze_ghostzone_model *m, trapeze_sync sync,
                                            int blk_len, trapeze_csv_out *csv, trapeze_error *err);

/* ------------------------------------------------- the simulator (sim/) */

/* A cycle-level GPU simulator built from a config. Every run (a built-in
 * kernel sequence, an Accel-Sim trace, a ghost-zone stencil workload)
 * continues on the same GPU: the first launch starts at cycle 0, each later
 * one after the config's kernel launch latency. Statistics of every launch
 * are kept until the simulator is destroyed. One simulator per thread;
 * separate simulators share nothing. */
typedef struct trapeze_sim trapeze_sim;

/* Where a run stands, for a progress display: the launch running, its
 * number in this run (from 1) of how many the run has, cycles into the
 * launch and its blocks done. Reported when a launch begins and now and then
 * during it. */
typedef struct trapeze_sim_progress_info {
    const char *kernel;
    int launch, launches;
    unsigned long long cycle, blocks_done, blocks;
} trapeze_sim_progress_info;

typedef void (*trapeze_sim_progress)(void *ctx, const trapeze_sim_progress_info *p);

typedef struct trapeze_sim_options {
    int ideal_memory_cycles;       /* > 0: every memory request answered after this many
                                      core cycles, nothing refused (isolates the SMs) */
    const char *tb_grouping;       /* not NULL: the explicit TB dispatch policy with this
                                      grouping file (tb,group,order), whatever the config says */
    trapeze_sim_progress progress; /* now and then during a launch; may be NULL */
    void *progress_ctx;
    /* energy: a power description (NULL: no energy accounting; copied),
     * sleep policies by structure (NULL entries: the config's
     * -trapeze_sleep_* options; the text of --sleep-l1d etc.), and whether
     * to keep idle-period histograms for trapeze_sim_write_idle_csv */
    const trapeze_power *power;
    const char *sleep[TRAPEZE_PS_SLEEPABLE];
    int keep_idle;
} trapeze_sim_options;

/* o may be NULL. The config must outlive the simulator. */
trapeze_status trapeze_sim_create(const trapeze_config *cfg, const trapeze_sim_options *o,
                                  trapeze_sim **out, trapeze_error *err);
void trapeze_sim_destroy(trapeze_sim *sim);

/* Built-in kernels (trapeze sim --list): i from 0 while the name is not
 * NULL; parameter j of kernel i likewise, with its default. */
const char *trapeze_sim_builtin(int i, const char **help);
const char *trapeze_sim_builtin_param(int i, int j, long *default_value, const char **help);
/* Checks a built-in's name and "name=value" settings without running. */
trapeze_status trapeze_sim_builtin_check(const char *name, int n, char *const *settings,
                                         trapeze_error *err);
/* Builds the built-in's kernel sequence for this GPU and runs it. */
trapeze_status trapeze_sim_run_builtin(trapeze_sim *sim, const char *name, int n,
                                       char *const *settings, trapeze_error *err);
/* Runs the kernels of an Accel-Sim kernelslist.g in order, one trace open
 * at a time. */
trapeze_status trapeze_sim_run_trace(trapeze_sim *sim, const char *kernelslist,
                                     trapeze_error *err);

/* A ghost-zone stencil workload at height h: relaunch runs one kernel per
 * stage; fence one persistent kernel sized to what the GPU holds at once.
 * cycles_per_loop = cycles / iterations with every launch and the launch
 * latency before each (warm-up included), unlike the samples log's
 * cpl_cycles, which times only the stages after a warm-up one. */
typedef struct trapeze_sim_stencil_result {
    int iterations, stages;
    long tiles;                    /* trapezoids per stage */
    long resident_blocks;          /* fence: blocks of the persistent kernel */
    int out_edge;                  /* output tile edge: blk_len - HaloWidth h */
    int blocks_per_sm;
    char occupancy_limit[32];      /* the resource that caps blocks_per_sm */
    int insts_per_op, setup_insts;
    unsigned long long cycles, warp_instructions;
    double cycles_per_loop;
} trapeze_sim_stencil_result;

/* iterations 0: the workload's. */
trapeze_status trapeze_sim_run_stencil(trapeze_sim *sim, const trapeze_workload *w,
                                       trapeze_sync sync, int h, int iterations,
                                       trapeze_sim_stencil_result *out, trapeze_error *err);

/* Statistics of the launches run so far, in order. */
typedef struct trapeze_sim_launch {
    char name[64];
    unsigned long long launch;          /* index in the simulator's sequence */
    unsigned long long start_cycle, cycles, launch_cycles, blocks;
    unsigned long long warp_instructions, thread_instructions;
    double ipc;                         /* warp instructions per cycle, whole GPU */
} trapeze_sim_launch;

int trapeze_sim_launches(const trapeze_sim *sim);
trapeze_status trapeze_sim_launch_stats(const trapeze_sim *sim, int i, trapeze_sim_launch *out,
                                        trapeze_error *err);
unsigned long long trapeze_sim_cycle(const trapeze_sim *sim);
/* The per-launch CSV (and, when per_sm_csv is not NULL, the per-SM one);
 * all or nothing: both are complete before either replaces its file. */
trapeze_status trapeze_sim_write_csv(const trapeze_sim *sim, const char *csv,
                                     const char *per_sm_csv, trapeze_error *err);
/* The text summary of every launch (trapeze sim's output). */
void trapeze_sim_print(const trapeze_sim *sim, FILE *f);
/* With a power description: the energy breakdown summed over every launch. */
void trapeze_sim_print_energy(const trapeze_sim *sim, FILE *f);
/* With keep_idle: the idle-period CSV (CONTRACTS.md format) of every kernel. */
trapeze_status trapeze_sim_write_idle_csv(const trapeze_sim *sim, const char *path,
                                          trapeze_error *err);
/* Every config option the model and the simulator read, with its type,
 * default, range and help, by component (trapeze sim --options). */
void trapeze_sim_print_options(FILE *f);
/* Options of cfg the simulator does not model (reported as ignored). */
size_t trapeze_sim_unmodelled_options(const trapeze_config *cfg, const char **names, size_t max);

/* For a progress display of an export: called after each kernel's trace
 * file is written, with the kernels written of all (may be NULL). */
typedef void (*trapeze_trace_written)(void *ctx, int done, int total);

/* Writes a workload's ghost-zone stencil at height h, relaunch mode (one
 * kernel per stage; the fence mode's barrier spins on loaded values and has
 * no fixed trace), as an Accel-Sim trace in dir; out gets its shape
 * (stages = kernels written, tiles, out_edge; nothing is simulated, so no
 * cycles). iterations 0: the workload's. */
trapeze_status trapeze_trace_export_stencil(const trapeze_config *cfg, const trapeze_workload *w,
                                            int h, int iterations, const char *dir,
                                            trapeze_sim_stencil_result *out,
                                            trapeze_trace_written written, void *ctx,
                                            trapeze_error *err);

/* What trapeze trace check reports of each kernel of a kernelslist.g. */
typedef struct trapeze_trace_kernel_info {
    const char *path;                   /* the kernel's trace file */
    char name[64];
    int grid[3], block[3];
    unsigned long long warp_instructions;
    unsigned long long unknown_opcodes; /* run as integer ops */
    /* for progress displays: the bytes of the list's trace files (as stored:
     * a .xz counts compressed) read so far, this kernel's included, of all */
    unsigned long long bytes_done, bytes_total;
} trapeze_trace_kernel_info;

/* Opens every kernel trace a kernelslist.g names (one at a time) and calls
 * each with what it holds; stops at the first unreadable one. */
trapeze_status trapeze_trace_check(const char *kernelslist,
                                   void (*each)(void *ctx, const trapeze_trace_kernel_info *k),
                                   void *ctx, trapeze_error *err);

/* The SASS opcode table: i from 0 while it returns 1. */
typedef struct trapeze_trace_opcode_info {
    const char *mnemonic, *modifier;    /* modifier NULL: any */
    const char *op_class;               /* what the simulator runs it as */
    const char *alu;                    /* ADD, MAX, MUL, MAD, DIV */
    int exported;                       /* the name the exporter writes */
    const char *note;
    int unit;                           /* Accel-Sim's specialized unit (2: texture, 3: tensor,
                                         * 4: uniform) it runs on when the config enables it
                                         * (-specialized_unit_N); 0: none (branches: unit 1) */
} trapeze_trace_opcode_info;
int trapeze_trace_opcode(int i, trapeze_trace_opcode_info *out);

/* Writes a built-in's kernels as an Accel-Sim trace: DIR/kernelslist.g and
 * DIR/kernel-N.traceg; *kernels gets how many. */
trapeze_status trapeze_trace_export_builtin(const trapeze_config *cfg, const char *name, int n,
                                            char *const *settings, const char *dir,
                                            int *kernels, trapeze_trace_written written,
                                            void *ctx, trapeze_error *err);

/* ------------------------------------------------ calibration (sampler/) */

/* One observation: a workload on a GPU (the model), a sync mode and height,
 * and the cycles per loop measured by simulation or on hardware. */
typedef struct trapeze_ghostzone_fit_point {
    trapeze_ghostzone_model *model;   /* left holding the fitted parameters (never read while fitting) */
    trapeze_sync sync;
    double h, blk_len;
    double cpl_measured;
} trapeze_ghostzone_fit_point;

typedef struct trapeze_fit_report {
    /* identifiability, per parameter (fitted ones only): at a range limit,
     * and its largest |correlation| with another fitted parameter */
#define TRAPEZE_FIT_MAX_PARAMS 32
    int at_bound[TRAPEZE_FIT_MAX_PARAMS];
    double max_corr[TRAPEZE_FIT_MAX_PARAMS];
    int corr_with[TRAPEZE_FIT_MAX_PARAMS];
    double corr[TRAPEZE_FIT_MAX_PARAMS][TRAPEZE_FIT_MAX_PARAMS]; /* fitted pairs, else 0 */
    /* extrapolation: a fit without the largest samples, judged on them */
    int n_holdout;
    double holdout_mape_pct, holdout_max_ape_pct, holdout_bias_pct;
    int n_points, n_fitted, iterations;
    double rms_rel_error;     /* in-sample root mean square of relative residuals */
    double cv_mape_pct;       /* k-fold cross-validated mean absolute % error */
    double cv_max_ape_pct;
} trapeze_fit_report;

#define TRAPEZE_GHOSTZONE_MASK(p) (1u << (p))

/* Fits the parameters selected by `mask` (TRAPEZE_GHOSTZONE_MASK bits) by nonlinear
 * least squares on relative residuals (GSL trust region, the model's analytic
 * Jacobian), each kept inside its physical range by a change of variable.
 * p: starting values in; fitted values and standard errors out. Every
 * point's model is left holding the fitted parameters. */
trapeze_status trapeze_ghostzone_fit(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                     trapeze_ghostzone_params *p, trapeze_fit_report *rep,
                                     trapeze_error *err);
/* k-fold cross-validation of that fit (folds by a seeded shuffle): fills
 * rep->cv_mape_pct and rep->cv_max_ape_pct. Models end with `start`. */
trapeze_status trapeze_ghostzone_cross_validate(trapeze_ghostzone_fit_point *pts, int n, unsigned mask,
                                                const trapeze_ghostzone_params *start, int k,
                                                unsigned long seed, trapeze_fit_report *rep,
                                                trapeze_error *err);

/* samples.csv: the calibration's observations, one row per finished
 * sample, appended whole (one write, then fsync) the moment a sample ends,
 * so an interrupted run loses nothing and a restarted one skips what is
 * done. A torn last line (a crash mid-write) is cut off on open. Measured
 * rows from real hardware use the same columns. */
typedef struct trapeze_sample {
    char id[96];            /* unique key of the planned sample */
    char kind[16];          /* "sim" or "measured" */
    char workload[64], gpu[64];
    trapeze_sync sync;
    int h, blk_len;
    double data_len[TRAPEZE_MAX_DIMS];
    int stages;             /* stages timed (warm-up excluded) */
    double cycles;          /* over the timed stages */
    double cpl_cycles;      /* cycles / (stages x h) */
    double warp_instructions;
    double bank_conflicts;  /* shared-memory passes beyond one per access (profiling) */
} trapeze_sample;

typedef struct trapeze_sample_log trapeze_sample_log;

extern const char *const trapeze_sample_columns[];
extern const int trapeze_sample_ncolumns;

/* Opens (creating if absent), locks and reads every row. The open log holds
 * an exclusive lock: a second open of the same file, by this process or
 * another, fails (TRAPEZE_EIO, "in use by another run"). A file that is not a
 * samples log, a NUL byte, a malformed row or a repeated id is an error
 * naming file and line, and the file is left unchanged. A torn last row
 * written by this program is cut off (see trapeze_sample_log_note). */
trapeze_status trapeze_sample_log_open(const char *path, trapeze_sample_log **out,
                                       trapeze_error *err);
/* What opening repaired (a torn last row cut, a missing final newline
 * added), as one line for the user, or NULL when it changed nothing. */
const char *trapeze_sample_log_note(const trapeze_sample_log *log);
/* The file the log was opened from (what error messages name). */
const char *trapeze_sample_log_path(const trapeze_sample_log *log);
void trapeze_sample_log_close(trapeze_sample_log *log);
int trapeze_sample_log_count(const trapeze_sample_log *log);
const trapeze_sample *trapeze_sample_log_get(const trapeze_sample_log *log, int i);
/* The row with this id, or NULL when the sample is still to run. */
const trapeze_sample *trapeze_sample_log_find(const trapeze_sample_log *log, const char *id);
/* Appends one row (one write, then fsync). An id already in the log is
 * TRAPEZE_EINVAL: no id is ever appended twice. */
trapeze_status trapeze_sample_log_append(trapeze_sample_log *log, const trapeze_sample *s,
                                         trapeze_error *err);
/* Rewrites the file (a temporary file, renamed) with the rows in the order of ids;
 * rows whose id is not listed follow in their order. No write when the rows
 * are already in that order. */
trapeze_status trapeze_sample_log_sort(trapeze_sample_log *log, const char *const *ids, int n,
                                       trapeze_error *err);

/* ---- samples of any model: rows (id, kind, model, inputs, outputs) ---- */

/* A model's row layout: its columns after sample_id and kind, inputs (what
 * a sample runs) then outputs (what it measured). A log file holds rows of
 * one model: header `sample_id,kind,model,<columns>`, each row naming the
 * model. The ghost-zone logs keep the columns they always had (no model
 * column: trapeze_ghostzone_sample_schema.implicit_model), so every log written
 * before still reads and appends unchanged. */
typedef enum { TRAPEZE_FIELD_TEXT, TRAPEZE_FIELD_INT, TRAPEZE_FIELD_REAL } trapeze_field_type;

typedef struct trapeze_field {
    const char *name;                 /* CSV column (units in the name) */
    trapeze_field_type type;
    int output;                       /* 0: input, 1: measured output */
    double min, max;                  /* a number's range, checked on read */
    const char *const *choices;       /* TEXT: allowed values (NULL-terminated), or NULL */
} trapeze_field;

#define TRAPEZE_ROW_MAX_FIELDS 24
#define TRAPEZE_ROW_TEXT 64

typedef struct trapeze_sample_row trapeze_sample_row;

typedef struct trapeze_row_schema {
    const char *model;                /* "ghostzone", "sleep", "group", ... */
    int nfields;                      /* <= TRAPEZE_ROW_MAX_FIELDS */
    const trapeze_field *fields;
    /* kinds this program writes: a torn last row of one of them is cut and
     * re-run; a torn row of another kind (typed by hand) is kept */
    const char *const *program_kinds; /* NULL-terminated */
    int implicit_model;               /* 1: no model column (ghost-zone logs) */
    /* model-specific check of a row just read (NULL: none); line for messages */
    trapeze_status (*check)(const trapeze_sample_row *row, const char *path, int line,
                            trapeze_error *err);
} trapeze_row_schema;

struct trapeze_sample_row {
    char id[96];
    char kind[16];
    const trapeze_row_schema *schema; /* its model: schema->model */
    char text[TRAPEZE_ROW_MAX_FIELDS][TRAPEZE_ROW_TEXT]; /* TEXT fields, by field index */
    double value[TRAPEZE_ROW_MAX_FIELDS];                /* INT and REAL fields */
};

/* The ghost-zone model's rows: the columns of trapeze_sample_columns. */
extern const trapeze_row_schema trapeze_ghostzone_sample_schema;

/* Index of the field called name, or -1. */
int trapeze_row_field(const trapeze_row_schema *schema, const char *name);
/* An empty row of schema with id and kind. */
void trapeze_row_init(trapeze_sample_row *row, const trapeze_row_schema *schema, const char *id,
                      const char *kind);
/* Set and read a field by name (TRAPEZE_EINVAL for an unknown name, the
 * wrong type or a text that does not fit). */
trapeze_status trapeze_row_set_text(trapeze_sample_row *row, const char *name, const char *text);
trapeze_status trapeze_row_set_number(trapeze_sample_row *row, const char *name, double v);
const char *trapeze_row_text(const trapeze_sample_row *row, const char *name);   /* NULL: none */
double trapeze_row_number(const trapeze_sample_row *row, const char *name);      /* NAN: none */
/* 1 when the two rows ran the same sample: same kind and equal inputs. */
int trapeze_row_same_inputs(const trapeze_sample_row *a, const trapeze_sample_row *b);
/* The ghost-zone row as a generic row, and back (the schema must be the
 * ghost-zone one). */
void trapeze_ghostzone_sample_to_row(const trapeze_sample *s, trapeze_sample_row *row);
trapeze_status trapeze_ghostzone_sample_from_row(const trapeze_sample_row *row, trapeze_sample *s,
                                                 trapeze_error *err);

/* A samples log of any model, with every guarantee of the ghost-zone one
 * above (lock, whole rows, torn row cut, ids unique). */
trapeze_status trapeze_sample_log_open_schema(const char *path, const trapeze_row_schema *schema,
                                              trapeze_sample_log **out, trapeze_error *err);
const trapeze_row_schema *trapeze_sample_log_schema(const trapeze_sample_log *log);
const trapeze_sample_row *trapeze_sample_log_row(const trapeze_sample_log *log, int i);
const trapeze_sample_row *trapeze_sample_log_find_row(const trapeze_sample_log *log,
                                                      const char *id);
trapeze_status trapeze_sample_log_append_row(trapeze_sample_log *log, const trapeze_sample_row *row,
                                             trapeze_error *err);

/* A plan of samples of one model: the planned rows (inputs set, outputs
 * empty) and how to run row i (on a fresh simulator, so rows are
 * independent and may run in any thread). */
typedef struct trapeze_sample_set {
    const trapeze_row_schema *schema;
    int count;
    const trapeze_sample_row *rows;
    trapeze_status (*run)(const void *ctx, int i, trapeze_sample_row *out, trapeze_error *err);
    const void *ctx;
    /* the planned work of row i (warp instructions estimated from its inputs),
     * for progress displays; NULL: every row weighs 1 */
    double (*cost)(const void *ctx, int i);
} trapeze_sample_set;

/* Where a run of samples stands, for a progress display: rows done of the
 * plan's total (rows already logged count as done), and the planned work
 * done of the work this run has to do (each row's weight: its set's cost,
 * else 1). Rows grow with h and grid size, so a time left is work left over
 * the observed rate of work, never rows left over rows per second. */
typedef struct trapeze_run_progress {
    int done, total;
    double work_done, work_total;
} trapeze_run_progress;

typedef void (*trapeze_sample_progress)(void *ctx, const trapeze_run_progress *p,
                                        const trapeze_sample_row *row);

/* The indices of the set's rows missing from log, in plan order (todo has
 * room for set->count). A logged row under a planned id that ran another
 * sample (other kind or inputs) is an error. For drivers that spread
 * samples over processes (MPI): each runs set->run on its share. */
trapeze_status trapeze_samples_pending(const trapeze_sample_set *set,
                                       const trapeze_sample_log *log, int *todo, int *n,
                                       trapeze_error *err);
/* Runs every pending row in `threads` workers, appending each to log the
 * moment it ends; then rewrites the log in plan order (rows not in the plan
 * kept after), so its bytes do not depend on the thread count. */
trapeze_status trapeze_samples_run(const trapeze_sample_set *set, trapeze_sample_log *log,
                                   int threads, trapeze_sample_progress progress, void *ctx,
                                   trapeze_error *err);

/* Hardware measurements in: an Nsight Compute CSV export of a ghost-zone run
 * (`ncu --csv --page raw`, or the default details page; lines of program
 * output and ==PROF== notes around the table are skipped; each value scaled
 * by its unit, 18.02 Mbyte = 18,020,000 bytes) becomes one kind = "measured"
 * sample, which a calibration fits like a simulated one. Cycles come from
 * gpc__cycles_elapsed.max (else sm__cycles_elapsed.max or .avg, or the
 * details page's "Elapsed Cycles"), warp instructions from
 * smsp__inst_executed.sum, bank conflicts from
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum, DRAM bytes from
 * dram__bytes_read.sum / dram__bytes_write.sum (the last three optional).
 * The sample passes the samples log reader's own checks, so it reads back. */
typedef struct trapeze_ncu_options {
    const char *workload, *gpu;        /* the names the calibration plans with */
    trapeze_sync sync;
    int h, blk_len;
    double data_len[TRAPEZE_MAX_DIMS]; /* grid of the run; 0 = 1 */
    int stages;                        /* fence: stages in the one launch (required) */
    const char *kernel;                /* keep launches whose name contains this; NULL: all */
    int skip;                          /* kept launches to drop first (warm-up) */
    double relaunch_gap_cycles;        /* added per launch in relaunch mode (ncu times
                                          launches alone, without the gaps between them) */
} trapeze_ncu_options;

typedef struct trapeze_ncu_summary {
    int launches;                      /* launches imported */
    double dram_read_bytes, dram_write_bytes;
    int has_instructions, has_dram;    /* whether the export had those metrics */
    int skipped_output_lines;          /* lines of the program's own output skipped */
    int skipped_notes;                 /* "==PROF==" (and other "==") lines skipped */
} trapeze_ncu_summary;

trapeze_status trapeze_ncu_import(const char *path, const trapeze_ncu_options *o,
                                  trapeze_sample *out, trapeze_ncu_summary *summary,
                                  trapeze_error *err);

/* ------------------------------------- sampled calibration (sampler/) */

/* What a calibration samples and how. Defaults: trapeze_ghostzone_calib_options_init. */
typedef struct trapeze_ghostzone_calib_options {
    int budget;              /* stencil samples per workload (12) */
    int stages;              /* timed stages per sample, after one warm-up stage (2) */
    int max_h;               /* largest h sampled and validated; 0: every valid h */
    double sweep_budget;     /* warp instructions of one workload's validation sweep,
                                which sets the reference grid (5e8) */
    double min_fraction, max_fraction; /* sample volume / reference volume (1/4 .. 4) */
    int folds;               /* k of cross-validation (5) */
    unsigned long seed;      /* cross-validation folds */
    unsigned fit_mask;       /* TRAPEZE_GHOSTZONE_MASK bits fitted; 0: the default set */
    int real_tiles;          /* 1: calibrate Meng's real-valued T, not whole tiles */
    unsigned structure;      /* TRAPEZE_GHOSTZONE_STRUCT_* bits: the model extensions switched on
                                (TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE) */
    double holdout;          /* fraction of each workload's samples, the largest, held out
                                to measure extrapolation (0.25; 0: none) */
    int logged_only;         /* trapeze_ghostzone_validate_sizes: compare with the runs its sweep
                                log holds and simulate none (0) */
} trapeze_ghostzone_calib_options;

/* Model structure switches a calibration turns on (trapeze_ghostzone_params flags). */
#define TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY 1u
#define TRAPEZE_GHOSTZONE_STRUCT_WAVES 2u
#define TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE 4u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP 8u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING 16u
#define TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY 32u
#define TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER 64u
#define TRAPEZE_GHOSTZONE_STRUCT_MEM_LATENCY 128u
#define TRAPEZE_GHOSTZONE_STRUCT_ROW_LINES 256u
#define TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX 512u
/* The default: the switches that lowered the error outside the calibration's
 * range (docs/calibration.md, "What each change removed"; persistent_fence
 * with barrier_max, "The fence barrier measured where the persistent kernel
 * meets"); waves did not and stays off. */
#define TRAPEZE_GHOSTZONE_STRUCT_AT_SIZE                                                          \
    (TRAPEZE_GHOSTZONE_STRUCT_OCCUPANCY | TRAPEZE_GHOSTZONE_STRUCT_FENCE_OVERLAP |                       \
     TRAPEZE_GHOSTZONE_STRUCT_FENCE_STAGING | TRAPEZE_GHOSTZONE_STRUCT_ROW_PENALTY |                     \
     TRAPEZE_GHOSTZONE_STRUCT_FENCE_ITER | TRAPEZE_GHOSTZONE_STRUCT_PERSISTENT_FENCE |                   \
     TRAPEZE_GHOSTZONE_STRUCT_BARRIER_MAX)

void trapeze_ghostzone_calib_options_init(trapeze_ghostzone_calib_options *o);

/* The samples of one calibration, in a fixed order: micro-benchmarks for the
 * GPU, one profiling pair per workload (h = 1 and h = 2, one stage), then
 * `budget` stencil samples per workload over (h, grid size, sync mode) placed
 * by a Sobol sequence. Each is a trapeze_sample row without results. */
typedef struct trapeze_ghostzone_plan trapeze_ghostzone_plan;

trapeze_status trapeze_ghostzone_plan_create(const char *gpu_config_path,
                                             const trapeze_workload *workloads, int n,
                                             const trapeze_ghostzone_calib_options *o,
                                             trapeze_ghostzone_plan **out, trapeze_error *err);
void trapeze_ghostzone_plan_destroy(trapeze_ghostzone_plan *plan);
int trapeze_ghostzone_plan_count(const trapeze_ghostzone_plan *plan);
const trapeze_sample *trapeze_ghostzone_plan_sample(const trapeze_ghostzone_plan *plan, int i);
const trapeze_gpu *trapeze_ghostzone_plan_gpu(const trapeze_ghostzone_plan *plan);

/* The workload at the grid a validation sweep uses (scaled so that the sweep
 * over every h up to max_h in both modes costs about sweep_budget warp
 * instructions), and the largest h sampled and validated for it. */
trapeze_status trapeze_ghostzone_reference(const trapeze_ghostzone_plan *plan, int workload,
                                           trapeze_workload *out, int *max_h, trapeze_error *err);

/* Runs planned sample i on a fresh simulator and fills out with its results
 * (cycles of the timed stages, cpl_cycles, warp instructions spent). */
trapeze_status trapeze_ghostzone_run_sample(const trapeze_ghostzone_plan *plan, int i,
                                            trapeze_sample *out, trapeze_error *err);

/* The plan indices of the samples missing from log, in plan order (todo
 * holds room for the plan's count). A logged row under a planned id that is
 * not that sample is an error. For drivers that spread samples over
 * processes (MPI): each runs trapeze_ghostzone_run_sample on its share. */
trapeze_status trapeze_ghostzone_pending(const trapeze_ghostzone_plan *plan,
                                         const trapeze_sample_log *log, int *todo, int *n,
                                         trapeze_error *err);

/* The plan as a generic sample set (ghost-zone rows), for drivers such as
 * MPI that run trapeze_samples_pending and set->run themselves. Valid as
 * long as the plan. */
const trapeze_sample_set *trapeze_ghostzone_plan_set(const trapeze_ghostzone_plan *plan);

/* Progress: called from the caller's thread or a worker, under a lock, as
 * each sample ends (work: estimated warp instructions). */
typedef void (*trapeze_ghostzone_progress)(void *ctx, const trapeze_run_progress *p,
                                           const trapeze_sample *s);

/* The warp instructions a ghost-zone sample (a planned calibration sample or
 * a validation run: its workload, grid, h, sync and stages) will simulate,
 * estimated from the kernel's shape before it runs; micro-benchmarks from
 * their block count. A planning figure for progress displays. */
double trapeze_ghostzone_sample_cost(const trapeze_ghostzone_plan *plan, const trapeze_sample *s);

/* Runs, in `threads` workers, every planned sample missing from log, appending
 * each to log the moment it ends. At the end the log is rewritten in plan
 * order (rows not in the plan, e.g. measured ones, kept after), so its bytes
 * do not depend on the thread count. Samples are run independently, each on
 * its own simulator: the results are those of a serial run. */
trapeze_status trapeze_ghostzone_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log,
                                     int threads, trapeze_ghostzone_progress progress, void *ctx,
                                     trapeze_error *err);

/* The calibration from a log holding the plan's samples: profiled counts per
 * workload, micro-benchmark values as starting points (and as the values of
 * parameters not fitted), then the least-squares fit over every stencil row
 * of the plan's workloads and GPU (simulated or measured) and its k-fold
 * cross-validation. */
trapeze_status trapeze_ghostzone_from_log(const trapeze_ghostzone_plan *plan,
                                          const trapeze_sample_log *log, trapeze_ghostzone_params *p,
                                          trapeze_fit_report *rep, trapeze_error *err);

/* Validation of a calibration against full simulations of every h up to the
 * plan's max_h, both modes, on the reference grid. One row per workload and
 * sync mode; curve rows per h. */
typedef struct trapeze_ghostzone_validation_row {
    char workload[64];
    trapeze_sync sync;
    double mape_pct, max_ape_pct;
    int h_model, h_sim_best;
    double pick_ratio;        /* CPL_sim(h_sim_best) / CPL_sim(h_model), <= 1 */
    double sample_warp_instructions, sweep_warp_instructions;
} trapeze_ghostzone_validation_row;

typedef struct trapeze_ghostzone_validation_point {
    char workload[64];
    trapeze_sync sync;
    int h;
    double cpl_sim, cpl_model, warp_instructions;
    double area_factor;       /* grid area / reference area (validate --sizes; 1 otherwise) */
} trapeze_ghostzone_validation_point;

typedef struct trapeze_ghostzone_validation {
    int n_rows, n_points;
    trapeze_ghostzone_validation_row *rows;
    trapeze_ghostzone_validation_point *points;
} trapeze_ghostzone_validation;

/* log: the calibration's samples, for their cost (NULL: 0). sweep_log, when
 * not NULL, keeps the sweep's runs like samples.csv: rows already there are
 * reused, new ones appended as they end (a rerun, e.g. after a model change,
 * simulates nothing again). The runs go to `threads` workers. */
trapeze_status trapeze_ghostzone_validate(const trapeze_ghostzone_plan *plan, const trapeze_ghostzone_params *p,
                                          const trapeze_sample_log *log,
                                          trapeze_sample_log *sweep_log, int threads,
                                          trapeze_ghostzone_progress progress, void *ctx,
                                          trapeze_ghostzone_validation *out, trapeze_error *err);
void trapeze_ghostzone_validation_free(trapeze_ghostzone_validation *v);

/* Validation at the sizes users run: each workload's reference grid scaled
 * to each area factor, the plausible heights of both modes (those whose
 * output tile keeps a quarter of the block, at most 10, plus the model's
 * pick), a few stages each. One row per (workload, size). */
typedef struct trapeze_ghostzone_size_validation_row {
    char workload[64];
    double area_factor;                 /* grid area / reference area */
    double data_len[TRAPEZE_MAX_DIMS];
    int n_points;
    double mape_pct;                    /* both modes */
    double bias_pct[2];                 /* mean signed % error: relaunch, fence */
    trapeze_sync sync_model, sync_sim_best;
    int h_model, h_sim_best;            /* the model's best integer (mode, h); the simulator's */
    int sync_right;                     /* 1 when the two modes agree */
    double pick_ratio;                  /* CPL_sim(best) / CPL_sim(model's pick), <= 1 */
    double sweep_warp_instructions;
    /* `ghostzone --verify 3` on the same runs: the fastest simulated of the model's three
     * best (mode, h), and the warp instructions those three cost */
    double verify_pick_ratio;
    int verify_sync_right;
    double verify_warp_instructions;
} trapeze_ghostzone_size_validation_row;

typedef struct trapeze_ghostzone_size_validation {
    int n_rows, n_points;
    trapeze_ghostzone_size_validation_row *rows;
    trapeze_ghostzone_validation_point *points;   /* per (workload, size, mode, h) */
} trapeze_ghostzone_size_validation;

trapeze_status trapeze_ghostzone_validate_sizes(const trapeze_ghostzone_plan *plan,
                                                const trapeze_ghostzone_params *p, const double *factors,
                                                int n_factors, int stages, trapeze_sample_log *sweep_log,
                                                int threads, trapeze_ghostzone_progress progress,
                                                void *ctx, trapeze_ghostzone_size_validation *out,
                                                trapeze_error *err);
void trapeze_ghostzone_size_validation_free(trapeze_ghostzone_size_validation *v);

/* A validation as the CSV files `trapeze validate` writes: rows_csv one row
 * per workload and mode (--csv), curve_csv one per point (--curve); with
 * --sizes, one row per workload and size, and one per (size, mode, h).
 * Either path may be NULL; both files appear, or neither. */
trapeze_status trapeze_ghostzone_validation_write_csv(const trapeze_ghostzone_validation *v, const char *rows_csv,
                                                      const char *curve_csv, trapeze_error *err);
trapeze_status trapeze_ghostzone_size_validation_write_csv(const trapeze_ghostzone_size_validation *v,
                                                           const char *rows_csv, const char *curve_csv,
                                                           trapeze_error *err);

/* Meng's profiling (5.14) of a workload the calibration never saw: when p
 * has no [profile.NAME] for w, runs w's profiling rows (one stage at h = 1
 * and at h = 2 on a grid of a few tiles per SM, and the issue probe: a tall
 * h and half of it on four waves of tiles; as `calibrate` plans them) on the
 * GPU of gpu_config_path and adds its counts and issue rate to p, as
 * `validate` does; *warp_instructions is what the runs cost (0: p had the
 * profile). */
trapeze_status trapeze_ghostzone_profile_run(const char *gpu_config_path, const trapeze_workload *w,
                                             int threads, trapeze_ghostzone_params *p,
                                             double *warp_instructions, trapeze_error *err);

/* Decides by simulation among the model's best candidates: runs each of
 * c[0..n) on workload w (its own size) on the GPU of gpu_config_path for
 * `stages` timed stages after a warm-up (the samples' timing), in `threads`
 * workers, and fills cpl_sim and warp_instructions. */
trapeze_status trapeze_ghostzone_verify(const char *gpu_config_path, const trapeze_workload *w,
                                        trapeze_ghostzone_choice *c, int n, int stages, int threads,
                                        trapeze_error *err);

/* The warp instructions trapeze_ghostzone_verify will simulate for one
 * candidate (sync, h) of w, estimated from the kernel's shape: a warm-up and
 * `stages` stages (fence: the warm-up twice). For progress displays. */
double trapeze_ghostzone_verify_cost(const trapeze_workload *w, trapeze_sync sync, int h,
                                     int stages);

/* `--verify k`: simulates c[0..k) of the ranking c[0..n) (trapeze_ghostzone_verify_order),
 * then the search along h (trapeze_ghostzone_verify_next), at most
 * TRAPEZE_GHOSTZONE_VERIFY_MAX_SEARCH runs more; *searched says how many. The
 * simulated candidates are those with cpl_sim > 0. */
trapeze_status trapeze_ghostzone_verify_search(const char *gpu_config_path, const trapeze_workload *w,
                                               trapeze_ghostzone_choice *c, int n, int k, int stages,
                                               int threads, int *searched, trapeze_error *err);

/* ------------------------------------- idle periods (neutral type, common/) */

/* One structure and granularity's idle-period histogram, split by what ends
 * each period. Bucketing of the idle-period CSV (`trapeze sim --idle-csv`):
 * lengths 1..1024 cycles exactly, then log2 buckets [2^k+1, 2^(k+1)],
 * k = 10..31. sampler/ fills it from a simulation, model/ reads it. */
#define TRAPEZE_IDLE_EXACT 1024
#define TRAPEZE_IDLE_NBUCKETS (TRAPEZE_IDLE_EXACT + 22)

typedef enum {
    TRAPEZE_NEXT_READ,    /* the period ends with a read: state must be kept */
    TRAPEZE_NEXT_WRITE,   /* ends with a write that overwrites the contents */
    TRAPEZE_NEXT_DEAD,    /* never accessed again (evicted, warp exited, kernel ended) */
    TRAPEZE_NEXT_N
} trapeze_next_access;
const char *trapeze_next_access_name(trapeze_next_access a);

/* Bytes of a kernel name in an idle-period histogram, with its NUL: the CSV
 * reader refuses a longer name rather than cut it. */
#define TRAPEZE_IDLE_NAME_MAX 1024

typedef struct trapeze_idle_hist {
    char gpu[64], kernel[TRAPEZE_IDLE_NAME_MAX];
    char structure[16];     /* l1d, l2, rf */
    char granularity[16];   /* line, bank (l1d); line, slice (l2); warp_reg, bank (rf) */
    double cycles;          /* cycles observed (the simulated window); 0 when unknown */
    double requesters;      /* SMs whose accesses wait on the structure; 0 when unknown */
    double count[TRAPEZE_NEXT_N][TRAPEZE_IDLE_NBUCKETS];  /* idle periods per bucket */
} trapeze_idle_hist;

/* The bucket of a length in cycles (>= 1), or -1 when out of range. */
int trapeze_idle_bucket(double length);
/* A bucket's inclusive length range, and the length the models give its
 * periods (the exact length, or the middle of a log2 bucket). */
void trapeze_idle_bucket_range(int bucket, double *lo, double *hi);
double trapeze_idle_bucket_length(int bucket);
void trapeze_idle_hist_init(trapeze_idle_hist *h, const char *gpu, const char *kernel,
                            const char *structure, const char *granularity);
/* Number of periods (next: one kind, or -1 for all) and their idle cycles. */
double trapeze_idle_hist_periods(const trapeze_idle_hist *h, int next);
double trapeze_idle_hist_idle_cycles(const trapeze_idle_hist *h, int next);
/* Periods a window's cut left open: ages[b] of them had lasted bucket b's
 * length. Each is spread over the completed periods of h in buckets above its
 * age, in their proportions (next access and length: how a period that has
 * lasted that long ends, by the run so far; the Kaplan-Meier idea); of those with
 * no completed period longer, the share `filled` (clamped to [0, 1]) ends in a
 * write at its age (a cache frame that a line not yet fetched will take) and
 * the rest dead at its age, as if the run ended there. */
void trapeze_idle_hist_add_censored(trapeze_idle_hist *h,
                                    const double ages[TRAPEZE_IDLE_NBUCKETS], double filled);

/* The idle-period CSV, columns exactly trapeze_idle_csv_columns. Loads every
 * (gpu, kernel, structure, granularity) group as one histogram, in order of
 * first appearance, names compared whole (time linear in the file's size);
 * *out is malloc'd (free()). A bucket whose bounds are not the contract's,
 * an unknown structure or next_access, a count not finite and >= 0, a GPU
 * name over 63 bytes or a kernel name over TRAPEZE_IDLE_NAME_MAX - 1:
 * TRAPEZE_EPARSE naming file, line and field. */
extern const char *const trapeze_idle_csv_columns[];
extern const int trapeze_idle_csv_ncolumns;
trapeze_status trapeze_idle_csv_load(const char *path, trapeze_idle_hist **out, int *n,
                                     trapeze_error *err);
/* The same, and with gpu non-NULL every row's gpu field must be gpu (the
 * name of the GPU config the histograms were simulated on, as `trapeze sim
 * --idle-csv` writes it): TRAPEZE_EINVAL naming file and line if not. */
trapeze_status trapeze_idle_csv_load_gpu(const char *path, const char *gpu,
                                         trapeze_idle_hist **out, int *n, trapeze_error *err);
/* The shortest a run can be that holds h's periods: the lower bound of its
 * longest non-empty bucket, in cycles (0: empty). */
double trapeze_idle_hist_longest(const trapeze_idle_hist *h);
/* Appends the non-empty buckets of h as rows of that CSV. */
trapeze_status trapeze_idle_hist_write_rows(const trapeze_idle_hist *h, trapeze_csv_out *csv,
                                            trapeze_error *err);

/* A fitted idle-period distribution (model/idle_fit.c), for short samples
 * whose tails are sparse: per next_access kind, lengths 1..short_max keep
 * their observed counts (point masses), longer periods follow a mixture of
 * two log-normals truncated to > short_max, fitted by binned maximum
 * likelihood (GSL Nelder-Mead). A kind with fewer than min_tail periods
 * beyond short_max keeps its observed counts (fitted = 0). */
typedef struct trapeze_idle_fit {
    int short_max;
    int fitted[TRAPEZE_NEXT_N];
    double tail_periods[TRAPEZE_NEXT_N];      /* observed periods > short_max */
    double weight[TRAPEZE_NEXT_N];            /* of the first log-normal */
    double mu[TRAPEZE_NEXT_N][2], sigma[TRAPEZE_NEXT_N][2];  /* of ln(cycles) */
    double ks[TRAPEZE_NEXT_N];                /* Kolmogorov-Smirnov distance, observed vs fit */
    double ks_all;                            /* the same over all kinds together */
    int iterations;                           /* Nelder-Mead steps, all kinds */
} trapeze_idle_fit;

/* Fits h; smoothed (may be NULL) receives the fitted expected counts on the
 * same buckets, the same total per kind, ready for trapeze_sleep_create. */
trapeze_status trapeze_idle_hist_fit(const trapeze_idle_hist *h, int short_max, double min_tail,
                                     trapeze_idle_fit *fit, trapeze_idle_hist *smoothed,
                                     trapeze_error *err);

/* ---------------------------------- sleep thresholds (model/sleep.c) */

/* Low-leakage modes of a structure, shallowest first. Energies are in
 * "ON-cycles": one unit is the leakage of the structure ON for one cycle
 * (E_tr [J] x clock [Hz] / P_on [W]), so the model needs no watts. */
#define TRAPEZE_SLEEP_MAX_MODES 4
typedef struct trapeze_sleep_mode {
    char name[16];
    double leak_fraction;      /* p_m: leakage in the mode / leakage ON */
    double wake_cycles;        /* t_wake,m: cycles to come back ON */
    double lost_cycles;        /* tau_m: entry + exit cycles that save nothing */
    double transition_cycles;  /* E_tr,m in ON-cycles */
    int retains_state;         /* 0: allowed only for periods ending in a write or dead */
} trapeze_sleep_mode;

typedef struct trapeze_sleep_structure {
    char name[16];             /* l1d, l2, rf */
    int n_modes;
    trapeze_sleep_mode mode[TRAPEZE_SLEEP_MAX_MODES];
} trapeze_sleep_structure;

/* A structure's modes from a power description (its "on" mode skipped):
 * tau_m = wake_cycles (the linear model: the wake-up is time that saves
 * nothing), E_tr in ON-cycles = transition_j x clock_hz / leak_w. */
trapeze_status trapeze_sleep_structure_from_power(const trapeze_power *p,
                                                  trapeze_power_structure s, double clock_hz,
                                                  trapeze_sleep_structure *out,
                                                  trapeze_error *err);

/* The seeds' tables under the linear model (tau_m = wake_m, E_tr = 0):
 * caches (l1d, l2) Snooze's sleep 0.228 / off 0.015, 2-cycle wake;
 * rf Slumber's shallow 0.94 in 4 / deep 0.42 in 13 / gated 0 in 16. */
trapeze_status trapeze_sleep_structure_default(const char *name, trapeze_sleep_structure *s,
                                               trapeze_error *err);
/* T_be,m = tau_m + E_tr,m / (1 - p_m) (cycles). */
double trapeze_sleep_break_even(const trapeze_sleep_mode *m);
/* The energy break-even alone, E_tr / (P_on - P_off) in cycles
 * (= E_tr,m / (1 - p_m) in ON-cycles): how long a period must sleep to pay
 * for the round trip's energy; INFINITY for a mode that saves nothing. */
double trapeze_sleep_energy_break_even(const trapeze_sleep_mode *m);
/* Saving of one period of length T spent in mode m, in ON-cycles:
 * (1 - p_m)(T - tau_m) - E_tr,m. */
double trapeze_sleep_period_saving(const trapeze_sleep_mode *m, double T);
/* The length at which modes a and b save the same (the crossover). */
double trapeze_sleep_crossover(const trapeze_sleep_mode *a, const trapeze_sleep_mode *b);

/* How the structure learns of an idle period (the simulator's policies,
 * sim/power/, follow the same rules):
 * LOOKAHEAD (Slumber): the length T is predicted; the period goes to the
 *   deepest allowed mode m with T >= theta_m.
 * TIMEOUT (Snooze, drowsy, cache decay): after theta_m idle cycles the
 *   structure enters mode m; it sleeps only if the access is not yet
 *   visible, i.e. T > theta_m + lost.
 * Waking: a mode whose bit is set in exact_wake is woken by a countdown
 *   exactly in time (lost = tau_m cycles of the period, no stall); any other
 *   mode is woken when the access becomes visible, lead_cycles before it
 *   (lost = lead_cycles, stall = max(0, wake_m - lead_cycles)). A period
 *   ending dead needs no wake: lost = 0, no stall. */
typedef enum { TRAPEZE_SLEEP_LOOKAHEAD, TRAPEZE_SLEEP_TIMEOUT } trapeze_sleep_policy;
const char *trapeze_sleep_policy_name(trapeze_sleep_policy p);

typedef struct trapeze_sleep_options {
    trapeze_sleep_policy policy;   /* LOOKAHEAD */
    double lead_cycles;            /* warning before an access (3: Snooze's request queue,
                                      Slumber's 3-warp look-ahead) */
    unsigned exact_wake;           /* bit m: mode m woken exactly in time (0) */
    int gate_writes;               /* 1: state-losing modes also before a write (the RF: the
                                      write overwrites); 0: only dead periods (Snooze) (1) */
    double smoothing;              /* s of the relaxed indicator sigma((T - theta)/s) (1) */
    double penalty_scale;          /* kappa: kernel cycles lost per exposed wake cycle (1) */
    double requester_cycles;       /* cycles x requesters the penalty is a fraction of;
                                      0: from the histogram (see trapeze_sleep_create) */
    double eager_margin;           /* the optimizer's whole-cycle thresholds also meet the
                                      budget with every threshold this many cycles lower
                                      (0; the presets: 2) */
    double penalty_z;              /* ... and with z standard errors of the sample's penalty
                                      (penalty_sigma) added (0; the presets: 2) */
} trapeze_sleep_options;
void trapeze_sleep_options_init(trapeze_sleep_options *o);
/* The defaults with the policy the simulator runs on structure s
 * (sim/power/snooze.c, slumber.c): Slumber's lookahead on the register
 * file (state-losing modes before writes too; deep and gated woken by a
 * countdown), Snooze's time-out on the caches; an eager margin of 2
 * cycles and 2 standard errors of the penalty. Returns the policy's name, "slumber" or "snooze". */
const char *trapeze_sleep_options_preset(trapeze_power_structure s,
                                         const trapeze_sleep_structure *st,
                                         trapeze_sleep_options *o);

typedef struct trapeze_sleep_eval {
    double periods, idle_cycles;
    double leak_on_cycles;       /* leakage of the observed cycles always ON (ON-cycles) */
    double saving_cycles;        /* expected leakage saved (ON-cycles) */
    double saving_fraction;      /* saving / leak_on: 0.3 = 30% of the leakage */
    double penalty_cycles;       /* exposed wake-up cycles, all periods */
    double penalty_fraction;     /* kappa x penalty_cycles / requester cycles */
    double penalty_sigma;        /* its standard error were the histogram's counts Poisson
                                    counts of observed periods: kappa x sqrt(sum of count x
                                    stall^2) / requester cycles */
    double mode_cycles[TRAPEZE_SLEEP_MAX_MODES + 1]; /* idle cycles per mode; [0] is ON */
    double dsaving[TRAPEZE_SLEEP_MAX_MODES];   /* d saving_fraction / d theta_m, exact */
    double dpenalty[TRAPEZE_SLEEP_MAX_MODES];  /* d penalty_fraction / d theta_m, exact */
} trapeze_sleep_eval;

typedef struct trapeze_sleep_model trapeze_sleep_model;

/* The model of one structure over one histogram (copied). The requester
 * cycles are o->requester_cycles, else h->cycles x h->requesters, else
 * estimated: one instance per dead period (each instance's last period is
 * dead), cycles = (idle + access cycles) / instances, one requester. */
trapeze_status trapeze_sleep_create(const trapeze_sleep_structure *s, const trapeze_idle_hist *h,
                                    const trapeze_sleep_options *o, trapeze_sleep_model **out,
                                    trapeze_error *err);
void trapeze_sleep_destroy(trapeze_sleep_model *m);
const trapeze_sleep_structure *trapeze_sleep_structure_of(const trapeze_sleep_model *m);
const trapeze_sleep_options *trapeze_sleep_options_of(const trapeze_sleep_model *m);
/* Expected saving and penalty at thresholds theta[0..n_modes-1], smooth in
 * theta, with exact gradients (dual numbers). smooth = 0 evaluates the hard
 * indicator instead (what a simulator does with integer thresholds). */
trapeze_status trapeze_sleep_evaluate(const trapeze_sleep_model *m, const double *theta,
                                      int smooth, trapeze_sleep_eval *out, trapeze_error *err);
/* The oracle: every period in its best allowed mode (or ON), wakes hidden. */
void trapeze_sleep_oracle(const trapeze_sleep_model *m, trapeze_sleep_eval *out);

/* The idle periods of one simulation (sampler/sleep_sample.c): built-in
 * kernel `kernel` with "name=value" settings, on a fresh simulator of cfg
 * with power description pw, every structure always on; one histogram per
 * structure and granularity (l1d line, bank; l2 line, slice; rf warp_reg,
 * bank), the run's kernels summed, with cycles (the kernels' cycles) and
 * requesters (SMs) set. *out is malloc'd (free()). */
trapeze_status trapeze_sleep_sample_builtin(const trapeze_config *cfg, const trapeze_power *pw,
                                            const char *kernel, int argc, char **argv,
                                            trapeze_idle_hist **out, int *n, double *cycles,
                                            trapeze_error *err);

/* A run the sleep model is calibrated or validated on (sampler/sleep_sample.c):
 * a built-in kernel ("matmul n=128", w NULL) or a ghost-zone stencil of
 * workload w ("hotspot size=256x256 sync=fence h=2 iters=8"; defaults:
 * the spec's size and iterations, fence, h = 1). */
#define TRAPEZE_SLEEP_JOB_ARGS 8
typedef struct trapeze_sleep_job {
    char spec[TRAPEZE_ROW_TEXT];         /* as given */
    char name[32];                       /* kernel or workload */
    int stencil;
    int argc;
    char args[TRAPEZE_SLEEP_JOB_ARGS][32];   /* a built-in's name=value settings */
    trapeze_workload workload;
    trapeze_sync sync;
    int h, iterations;
} trapeze_sleep_job;
int trapeze_sleep_job_is_builtin(const char *name);
trapeze_status trapeze_sleep_job_parse(const char *spec, const trapeze_workload *w,
                                       trapeze_sleep_job *job, trapeze_error *err);

/* Units with histograms: l1d line, bank; l2 line, slice; rf warp_reg, bank. */
#define TRAPEZE_SLEEP_NUNITS 6
typedef struct trapeze_sleep_run {
    double cycles;          /* simulated: to the window's cut or the run's end */
    double warp_insts;      /* simulated work */
    int cut;                /* 1: the window ended before the run */
    int spread;             /* 1: a spread sample (the run simulated to its end) */
    double recorded;        /* cycles whose periods were recorded (a spread or jump sample) */
    int jumped;             /* 1: a jump sample (cycles: the run's, estimated) */
    double simulated;       /* cycles simulated (a jump sample: all its windows) */
    double censored;        /* periods open at the cut (trapeze_idle_hist_add_censored) */
    int n_sm;
    trapeze_idle_hist hist[TRAPEZE_SLEEP_NUNITS];             /* window only */
    double mode_cycles[TRAPEZE_PS_SLEEPABLE][TRAPEZE_POWER_MAX_MODES]; /* simulate only */
    double stall[TRAPEZE_PS_SLEEPABLE];                       /* wake-up cycles exposed */
    double saving[TRAPEZE_PS_SLEEPABLE];  /* 1 - leakage / leakage always ON, tracked units */
    double penalty[TRAPEZE_PS_SLEEPABLE]; /* stall / (cycles x SMs) */
} trapeze_sleep_run;

/* The job's first window_cycles cycles (0: the whole run) always on, with
 * the power description pw: the idle-period histograms (periods still open
 * at the cut spread over the longer completed ones: trapeze_idle_hist_add_censored).
 * spread_cycles > 0 (with window_cycles > 0): a spread sample instead, the
 * run simulated to its end and its periods recorded in the first window and
 * in one window of spread_cycles / 5 cycles in every spread_cycles after it,
 * those weighted to stand for the whole run after the first window; the
 * periods that end dead counted wherever they end (sampler/sleep_sample.c).
 * out is large: heap it. */
#define TRAPEZE_SLEEP_SPREAD_DEFAULT 2500
/* spread_cycles < 0: a jump sample where it costs less than the run (else
 * the spread sample of stride -spread_cycles): the first window, then
 * windows whose simulation starts at a later block, loop trip or launch
 * of the run without simulating up to it, TRAPEZE_SLEEP_JUMP_WARM cycles
 * not recorded and TRAPEZE_SLEEP_JUMP_RECORD recorded, and the ends of up
 * to four launches, weighted by warp instructions to stand for the run
 * (sampler/sleep_sample.c; out->jumped, out->simulated; out->cycles is
 * then the run's, estimated). */
#define TRAPEZE_SLEEP_JUMP_WARM 4000
#define TRAPEZE_SLEEP_JUMP_RECORD 2000
trapeze_status trapeze_sleep_window(const trapeze_config *cfg, const trapeze_power *pw,
                                    const trapeze_sleep_job *job, double window_cycles,
                                    double spread_cycles, trapeze_sleep_run *out,
                                    trapeze_error *err);

/* Which structures sleep in a simulation, at which whole-cycle thresholds:
 * l1d and l2 Snooze (line, time-out theta[x][0]); rf Slumber (warp
 * registers, shallow/deep/gated theta[rf][0..2]). Off: always on. */
typedef struct trapeze_sleep_setting {
    int on[TRAPEZE_PS_SLEEPABLE];
    double theta[TRAPEZE_PS_SLEEPABLE][TRAPEZE_SLEEP_MAX_MODES];
} trapeze_sleep_setting;

/* The whole job simulated with those policies in the timing: mode cycles,
 * stall, saving and penalty per structure (the ground truth). */
trapeze_status trapeze_sleep_simulate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *job,
                                      const trapeze_sleep_setting *set, trapeze_sleep_run *out,
                                      trapeze_error *err);

/* Learning the sleep model (`trapeze calibrate --model sleep`,
 * sampler/sleep_calib.c): one samples-log row (model "sleep", kind
 * "window") per job: its first window_cycles cycles simulated always on
 * (with spread_cycles > 0 the spread sample of trapeze_sleep_window, < 0
 * its jump sample where cheaper: the commands' default),
 * the idle periods fitted (KS distance), and per structure the thresholds
 * that save the most leakage within max_penalty, predicted saving and
 * penalty. Run with trapeze_samples_run (threads, resume, the same bytes
 * whatever the thread count). use_fit: the model reads the fitted
 * distribution instead of the window's counts. */
extern const trapeze_row_schema trapeze_sleep_schema;
typedef struct trapeze_sleep_plan trapeze_sleep_plan;
trapeze_status trapeze_sleep_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                         const trapeze_sleep_job *jobs, int n,
                                         double window_cycles, double spread_cycles,
                                         double max_penalty, int use_fit,
                                         trapeze_sleep_plan **out, trapeze_error *err);
void trapeze_sleep_plan_destroy(trapeze_sleep_plan *p);
const trapeze_sample_set *trapeze_sleep_plan_set(const trapeze_sleep_plan *p);

/* The result: one row per job and structure (gpu, kernel, structure,
 * thresholds, pred_saving, pred_penalty, fit_ks, window_cycles,
 * sampled_cycles, cut) from the plan's logged rows. */
trapeze_status trapeze_sleep_calib_write_csv(const trapeze_sleep_plan *p,
                                             const trapeze_sample_log *log, const char *path,
                                             trapeze_error *err);
/* A logged row, read back. */
typedef struct trapeze_sleep_sampled {
    char job[TRAPEZE_ROW_TEXT], gpu[TRAPEZE_ROW_TEXT];
    double window_cycles, spread_cycles, cycles, warp_insts, censored;
    int cut;
    int n_modes[TRAPEZE_PS_SLEEPABLE];
    double theta[TRAPEZE_PS_SLEEPABLE][TRAPEZE_SLEEP_MAX_MODES];
    double saving[TRAPEZE_PS_SLEEPABLE], penalty[TRAPEZE_PS_SLEEPABLE];
    double ks[TRAPEZE_PS_SLEEPABLE];   /* fit's Kolmogorov-Smirnov distance, all kinds */
} trapeze_sleep_sampled;
trapeze_status trapeze_sleep_from_row(const trapeze_sample_row *row, trapeze_sleep_sampled *out,
                                      trapeze_error *err);

/* The sleep model against full simulation (`trapeze validate --model
 * sleep`, sampler/sleep_validate.c). Per job and structure (l1d, l2 Snooze
 * on lines; rf Slumber on warp registers): the thresholds chosen on the
 * job's window, then whole runs with that structure's policy alone in the
 * timing at the model's thresholds, the seed's and a sweep (Snooze
 * 0..64, 12 settings; Slumber shallow 4/12 x deep 13/14/20 x gated
 * 16/21/32/never in order, 22), each also predicted by the model on the
 * window. */
typedef struct trapeze_sleep_vrow {
    char gpu[64], job[TRAPEZE_ROW_TEXT];
    int structure;                 /* TRAPEZE_PS_* */
    char choice[8];                /* model, seed, sweep */
    int best;                      /* the sweep's best saving within the budget (simulated) */
    int n_modes;
    char mode[TRAPEZE_SLEEP_MAX_MODES][16];
    double theta[TRAPEZE_SLEEP_MAX_MODES];
    double pred_mode[TRAPEZE_SLEEP_MAX_MODES], sim_mode[TRAPEZE_SLEEP_MAX_MODES]; /* share of
                                      the unit-cycles in each mode */
    double pred_saving, sim_saving, pred_penalty, sim_penalty, sim_cycles;
} trapeze_sleep_vrow;

typedef struct trapeze_sleep_vsummary {
    char job[TRAPEZE_ROW_TEXT];
    int structure;
    int model, seed, best;         /* rows; best -1: nothing swept within the budget */
    double ratio;                  /* model's simulated saving / best swept's */
    double ks, window_cycles, run_cycles;
    int cut;
} trapeze_sleep_vsummary;

/* The validation's targets over every (job, structure) of the model's choice. */
typedef struct trapeze_sleep_targets {
    int rows;
    int ratio_met;                 /* within the budget and >= 99% of the best swept saving
                                      within it (a choice over the budget misses) */
    int saving_met;                /* |predicted - simulated saving| <= 3 points */
    int penalty_met;               /* |predicted - simulated penalty| <= 0.5 points */
    int over_budget;               /* simulated penalty above the budget */
    double worst_ratio, worst_saving_error, worst_penalty_error;
    double sample_fraction;        /* windows' warp instructions / the sweep's (<= 5%) */
} trapeze_sleep_targets;

typedef struct trapeze_sleep_validation {
    char gpu[64];
    double max_penalty;
    trapeze_sleep_vrow *rows;
    int n_rows, cap_rows;
    trapeze_sleep_vsummary *summary;
    int n_summary;
    double sample_insts, sample_cycles;   /* the windows */
    int jobs, jumped;                     /* jobs; those sampled by a jump sample */
    double jump_simulated, jump_runs;     /* the jump samples' simulated cycles; their
                                             runs' (the model's whole runs) */
    double sweep_insts;                   /* every whole run simulated */
    int sweep_runs;
    trapeze_sleep_targets targets;
} trapeze_sleep_validation;

/* Per job its window and picks, then every whole run of the model's, the
 * seed's and the swept thresholds, in `threads` threads (the same rows for
 * any count); progress(ctx, done, total) counts windows and runs. */
trapeze_status trapeze_sleep_validate(const trapeze_config *cfg, const trapeze_power *pw,
                                      const trapeze_sleep_job *jobs, int n, double window_cycles,
                                      double spread_cycles, double max_penalty, int use_fit,
                                      int threads,
                                      void (*progress)(void *ctx, int done, int total),
                                      void *ctx, trapeze_sleep_validation *v,
                                      trapeze_error *err);
/* Recomputes v->targets (and each summary's ratio) from the rows. */
void trapeze_sleep_validation_targets(trapeze_sleep_validation *v);
void trapeze_sleep_validation_free(trapeze_sleep_validation *v);
/* One row per (job, structure, setting, mode): gpu, kernel, structure,
 * choice, thresholds, best_swept, mode, threshold_cycles, pred_mode_fraction,
 * sim_mode_fraction, pred_saving, sim_saving, pred_leakage_fraction,
 * sim_leakage_fraction, pred_penalty, sim_penalty, sim_cycles. */
trapeze_status trapeze_sleep_validation_write_csv(const trapeze_sleep_validation *v,
                                                  const char *path, trapeze_error *err);

/* The seed's fixed thresholds: each mode entered at its wake-up delay
 * (Snooze 2 cycles; Slumber 4/13/16). */
void trapeze_sleep_seed_thresholds(const trapeze_sleep_structure *s, double *theta);

/* The thresholds that maximize the leakage saved with the exposed wake-up
 * penalty at most max_penalty (a fraction of the requester cycles, 0.01 =
 * 1%): the generic optimizer (model/model.h, NLopt MMA) on the smooth model from several starts (the seed's
 * thresholds, the break-even times, the crossovers, a ladder of lengths),
 * thresholds kept in mode order; then the whole-cycle thresholds a policy
 * runs, checked against the budget with the hard model. */
typedef struct trapeze_sleep_choice {
    double theta[TRAPEZE_SLEEP_MAX_MODES];       /* continuous optimum */
    double theta_int[TRAPEZE_SLEEP_MAX_MODES];   /* whole cycles: sleep when T >= theta_int */
    double seed_theta[TRAPEZE_SLEEP_MAX_MODES];
    trapeze_sleep_eval smooth;    /* the smooth model at theta */
    trapeze_sleep_eval chosen;    /* the hard model at theta_int */
    trapeze_sleep_eval seed;      /* the hard model at the seed's thresholds */
    trapeze_sleep_eval oracle;
    double held_penalty;          /* what the choice is held to: the larger of its penalty
                                     and the eager one's, + penalty_z x penalty_sigma */
    int feasible;                 /* held_penalty <= max_penalty */
    int starts, evaluations;
} trapeze_sleep_choice;

trapeze_status trapeze_sleep_optimize(const trapeze_sleep_model *m, double max_penalty,
                                      trapeze_sleep_choice *out, trapeze_error *err);

/* ------------------ energy-aware ghost zones (model/gz_energy.c, sampler/gz_energy_sample.c) */

/* Energy per stencil loop at (sync mode, h): dynamic energy from the
 * ghost-zone model's counts (warp instructions and elements moved per loop)
 * times joules per count calibrated on simulated samples, plus the GPU's
 * leakage and constant power over the predicted cycles, less what the sleep
 * model's thresholds save on the L1D, L2 and register file. */
#define TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT 3     /* l1d (line), l2 (line), rf (warp_reg): TRAPEZE_PS_* order */

/* A sample: a short window of the workload (a reduced grid, two stages)
 * simulated with a power description, every structure always on. */
typedef struct trapeze_ghostzone_energy_sample {
    trapeze_sync sync;
    int h;
    double data_len[TRAPEZE_MAX_DIMS];   /* the window's grid */
    int iterations;                      /* loops it ran */
    double cycles, seconds, warp_instructions;
    double dyn_compute_j;                /* core, register file, shared memory, L1D */
    double dyn_memory_j;                 /* L2, interconnect, DRAM */
    double leak_w[TRAPEZE_PS_COUNT];     /* average leakage power by structure, always on */
    double constant_w, idle_sm_w;        /* constant power; idle-SM energy / seconds */
    double unit_cycles[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT]; /* every unit-cycle of the structure (allocated
                                            or not): what its leakage is spread over */
    trapeze_idle_hist hist[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];
} trapeze_ghostzone_energy_sample;

/* Joules per counted event and the GPU's static power, per sync mode. */
typedef struct trapeze_ghostzone_energy_coef {
    double inst_j[2];                    /* per warp instruction the model counts [sync] */
    double element_j[2];                 /* per element the model moves to or from memory */
    double leak_w[TRAPEZE_PS_COUNT];     /* whole GPU, every unit ON */
    double constant_w;
    double idle_sm_w;                    /* every SM idle: paid during a relaunch's GlbSync */
    int n_samples[2];
} trapeze_ghostzone_energy_coef;

/* What the sleep thresholds chosen on one sample's histograms give. */
typedef struct trapeze_ghostzone_sleep {
    int valid;                           /* 0: no sleep (everything ON) */
    double saving[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];  /* leakage saved, fraction of the structure's */
    double penalty[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT]; /* exposed wake-up cycles per SM-cycle */
    double theta[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT][TRAPEZE_SLEEP_MAX_MODES]; /* whole-cycle thresholds */
    int n_modes[TRAPEZE_GHOSTZONE_ENERGY_NSTRUCT];
} trapeze_ghostzone_sleep;

/* Per loop counts of the model: warp instructions (MiscComp and IterComp
 * of every trapezoid, redundant ones included) and elements loaded,
 * committed and read per iteration; with d/dh. */
typedef struct trapeze_ghostzone_counts {
    double insts, elements;
    double dinsts_dh, delements_dh;
} trapeze_ghostzone_counts;
trapeze_status trapeze_ghostzone_energy_counts(const trapeze_ghostzone_model *m, trapeze_sync sync, double h,
                                               trapeze_ghostzone_counts *out, trapeze_error *err);

typedef struct trapeze_ghostzone_energy_eval {
    trapeze_sync sync;
    double h;
    double cpl;                          /* the time model's cycles per loop */
    double cpl_sleep;                    /* cpl x (1 + sum of the sleep penalties) */
    double seconds;                      /* cpl_sleep / clock */
    trapeze_ghostzone_counts counts;
    double dynamic_j, sync_j, leakage_j, saved_j;   /* per loop; leakage after saving */
    double energy_j;                     /* dynamic + sync + leakage */
    double edp;                          /* energy_j x seconds (J s per loop) */
    double denergy_dh, dedp_dh;          /* exact, the sleep choice held */
    trapeze_ghostzone_sleep sleep;
} trapeze_ghostzone_energy_eval;

trapeze_status trapeze_ghostzone_energy_evaluate(const trapeze_ghostzone_model *m,
                                                 const trapeze_ghostzone_energy_coef *c,
                                                 const trapeze_ghostzone_sleep *sl, trapeze_sync sync,
                                                 double h, trapeze_ghostzone_energy_eval *out,
                                                 trapeze_error *err);

/* Joules per count from samples: per sync mode, the samples' dynamic
 * energy over the model's counts of the same windows (model m's workload
 * with each window's grid and iterations, parameters p); static power the
 * samples' average. A sync mode without samples takes the other's. */
trapeze_status trapeze_ghostzone_energy_calibrate(const trapeze_ghostzone_model *m, const trapeze_ghostzone_params *p,
                                                  const trapeze_ghostzone_energy_sample *s, int n,
                                                  trapeze_ghostzone_energy_coef *out, trapeze_error *err);

/* The thresholds of each structure (Snooze's time-out for the caches,
 * Slumber's look-ahead for the register file, as `trapeze sleep`) chosen
 * by trapeze_sleep_optimize on a sample's histograms with max_penalty. */
trapeze_status trapeze_ghostzone_energy_sleep(const trapeze_power *pw, double clock_hz,
                                              const trapeze_ghostzone_energy_sample *s, double max_penalty,
                                              trapeze_ghostzone_sleep *out, trapeze_error *err);

typedef enum { TRAPEZE_GHOSTZONE_OBJ_TIME, TRAPEZE_GHOSTZONE_OBJ_ENERGY, TRAPEZE_GHOSTZONE_OBJ_EDP } trapeze_ghostzone_objective;
const char *trapeze_ghostzone_objective_name(trapeze_ghostzone_objective o);
/* 0 and *o set, or -1 for a name that is not time, energy or edp. */
int trapeze_ghostzone_objective_parse(const char *name, trapeze_ghostzone_objective *o);
double trapeze_ghostzone_energy_objective(const trapeze_ghostzone_energy_eval *e, trapeze_ghostzone_objective o);

/* Every (sync mode of modes, whole h) at the workload's block, each with the
 * sleep choice of the sample of the same mode nearest in h (sleeps[i] of
 * samples[i]; none: no sleep); *out malloc'd (free()). best[o]: the index of
 * the lowest objective o (the first on a tie). */
trapeze_status trapeze_ghostzone_energy_rank(const trapeze_ghostzone_model *m, const trapeze_ghostzone_energy_coef *c,
                                             const trapeze_ghostzone_energy_sample *samples,
                                             const trapeze_ghostzone_sleep *sleeps, int n_samples,
                                             const trapeze_sync *modes, int n_modes,
                                             trapeze_ghostzone_energy_eval **out, int *n, int best[3],
                                             trapeze_error *err);

/* The window of workload w sampled at (sync, h): the grid cut to about four
 * waves of tiles (at most the workload's own), two stages of h loops. */
void trapeze_ghostzone_energy_window(const trapeze_gpu *gpu, const trapeze_workload *w, int h,
                                     trapeze_workload *window);
/* Simulates that window on a fresh simulator of cfg with pw, always on. */
trapeze_status trapeze_ghostzone_energy_sample_run(const trapeze_config *cfg, const trapeze_power *pw,
                                                   const trapeze_workload *w, trapeze_sync sync, int h,
                                                   trapeze_ghostzone_energy_sample *out, trapeze_error *err);
/* The heights sampled per sync mode: 1, the middle and the largest valid h
 * at the workload's block (fewer when they coincide). Returns the count. */
int trapeze_ghostzone_energy_sample_heights(const trapeze_ghostzone_model *m, int heights[3]);

/* The samples as a log (trapeze_sample_log_open_schema with
 * trapeze_ghostzone_energy_schema): planned (each sync mode of modes x
 * trapeze_ghostzone_energy_sample_heights, ids WORKLOAD-SYNC-hH, kind "energy"),
 * run and resumed by trapeze_samples_run in any number of threads; a row
 * holds the window's inputs, its energies and the thresholds chosen on its
 * idle periods with max_penalty, their saving and penalty. cfg must outlive
 * the plan. */
extern const trapeze_row_schema trapeze_ghostzone_energy_schema;
typedef struct trapeze_ghostzone_energy_plan trapeze_ghostzone_energy_plan;
trapeze_status trapeze_ghostzone_energy_plan_create(const trapeze_config *cfg, const trapeze_power *pw,
                                                    const trapeze_workload *spec,
                                                    const trapeze_ghostzone_model *m, const trapeze_sync *modes,
                                                    int n_modes, double max_penalty,
                                                    trapeze_ghostzone_energy_plan **out, trapeze_error *err);
void trapeze_ghostzone_energy_plan_destroy(trapeze_ghostzone_energy_plan *p);
const trapeze_sample_set *trapeze_ghostzone_energy_plan_set(const trapeze_ghostzone_energy_plan *p);
/* A logged row back as a sample (no histograms) and its sleep choice. */
trapeze_status trapeze_ghostzone_energy_from_row(const trapeze_sample_row *row, const trapeze_power *pw,
                                                 int n_sm, trapeze_ghostzone_energy_sample *s,
                                                 trapeze_ghostzone_sleep *sl, trapeze_error *err);

/* CSV of trapeze ghostzone --objective: trapeze_ghostzone_csv_columns, then
 * energy_j_per_loop,dynamic_j,sync_j,leakage_j,saved_j,edp_js,
 * cpl_sleep_cycles,l1d_saving,l2_saving,rf_saving,penalty_fraction,
 * l1d_thresholds,l2_thresholds,rf_thresholds (thresholds: "a/b/c"). */
extern const char *const trapeze_ghostzone_energy_csv_columns[];
extern const int trapeze_ghostzone_energy_csv_ncolumns;
trapeze_status trapeze_ghostzone_energy_write_rows(const trapeze_ghostzone_model *m,
                                                   const trapeze_ghostzone_energy_eval *e, int n,
                                                   trapeze_csv_out *csv, trapeze_error *err);

/* ------------------------------------------ thread-block locality graph */

/* Which thread blocks (TBs) of a kernel read the same data (PAVER's locality
 * graph, Tripathy 2021 ch. 3): per TB its footprint (distinct global
 * elements and cache lines it reads), and an edge for every pair of TBs
 * that read at least one common line. TB ids are linear:
 * tb = bx + by*gx + bz*gx*gy. Built by the simulator's analysis from a
 * kernel (exact for the program kernels: every address of every load is
 * evaluated) or from a trace's addresses; read by the grouping model. */
typedef struct trapeze_locality_edge {
    long tb_i, tb_j;                /* tb_i < tb_j */
    long long shared_elements;      /* distinct elements (addresses) both read */
    long long shared_lines;         /* distinct cache lines both read (>= 1) */
} trapeze_locality_edge;

typedef struct trapeze_locality_graph {
    char kernel[64];
    int grid[3];                    /* gx, gy, gz */
    long n_tbs;
    int line_bytes;                 /* cache line the lines are counted in */
    long long *elements;            /* per TB: distinct elements read */
    long long *lines;               /* per TB: distinct lines read */
    long n_edges;
    trapeze_locality_edge *edges;   /* sorted by (tb_i, tb_j) */
} trapeze_locality_graph;

void trapeze_locality_graph_free(trapeze_locality_graph *g);
/* PAVER's sparsity score: 1 - (ordered pairs i != j sharing an element) /
 * n_tbs^2 (Table 3.2: 0.857 for the 13 x 13 matrix multiply). */
double trapeze_locality_spscore(const trapeze_locality_graph *g);
/* The graph of launch `launch` (0 first) of a built-in kernel of the
 * simulator (`trapeze sim --list`) with "name=value" parameters, for the
 * GPU of cfg (line size 128 B). */
trapeze_status trapeze_locality_builtin(const trapeze_config *cfg, const char *kernel,
                                        char *const *params, int n_params, int launch,
                                        trapeze_locality_graph *out, trapeze_error *err);
/* The graph of launch `launch` of an Accel-Sim trace (kernelslist.g), from
 * the addresses of its global loads. */
trapeze_status trapeze_locality_trace(const char *kernelslist, int launch,
                                      trapeze_locality_graph *out, trapeze_error *err);
/* CSV: edges `tb_i,tb_j,shared_elements,shared_lines`; footprints
 * `tb,bx,by,bz,elements,lines`. Either path may be NULL. */
trapeze_status trapeze_locality_write_csv(const trapeze_locality_graph *g, const char *edges_path,
                                          const char *footprint_path, trapeze_error *err);
/* Reads both files back (the footprint file gives the TBs and the grid). */
trapeze_status trapeze_locality_read_csv(const char *edges_path, const char *footprint_path,
                                         trapeze_locality_graph *out, trapeze_error *err);

/* A TB grouping: which SM group queue each TB is placed in and in what
 * order, run by the simulator's explicit dispatch policy
 * (-trapeze_tb_dispatch explicit -trapeze_tb_grouping FILE). File: CSV
 * `tb,group,order`, every TB exactly once, groups 0..n_groups-1, orders of a
 * group 0..size-1 (any row order). */
typedef struct trapeze_grouping {
    long n_tbs;
    int n_groups;                   /* 1 + the largest group */
    int *group;                     /* per TB */
    long *order;                    /* per TB: position in its group */
} trapeze_grouping;

void trapeze_grouping_free(trapeze_grouping *g);
/* n_tbs > 0: the file must hold exactly those TBs; max_groups > 0: groups
 * must lie below it (the SMs). Errors name file, line and field. */
trapeze_status trapeze_grouping_load(const char *path, long n_tbs, int max_groups,
                                     trapeze_grouping *out, trapeze_error *err);
trapeze_status trapeze_grouping_save(const char *path, const trapeze_grouping *g,
                                     trapeze_error *err);


/* Allocates n_tbs TBs in n_groups groups (all in group 0, order 0). */
trapeze_status trapeze_grouping_alloc(trapeze_grouping *g, long n_tbs, int n_groups,
                                      trapeze_error *err);
/* Every TB once, groups in range, each group's orders exactly 0..size-1. */
trapeze_status trapeze_grouping_check(const trapeze_grouping *g, trapeze_error *err);
/* Chen's locality-aware dispatch decided before launch (chen-static,
 * sim/locality/chen.c): the TB each SM takes if every TB takes the same
 * time (x = tbs_per_sm passes at launch, then TBs ending in placement
 * order, each SM taking the waiting TB sharing most cache lines with its
 * residents), as queues g = SM g in placement order, for the explicit
 * policy. out is allocated (trapeze_grouping_free). */
trapeze_status trapeze_locality_chen_grouping(const trapeze_locality_graph *graph, int n_sm,
                                              int tbs_per_sm, trapeze_grouping *out,
                                              trapeze_error *err);

/* ------------------------------------------ TB grouping model (model/group.c) */

/* The grouping model's constants: what capacity, contention and timing leave
 * unknown, fitted from short samples. */
typedef enum {
    TRAPEZE_GROUP_MU,        /* L2 accesses per footprint line a TB fetches itself */
    TRAPEZE_GROUP_ETA1,      /* fraction of lines shared with a co-resident TB that hit in L1 */
    TRAPEZE_GROUP_ETA2,      /* fraction of lines shared with an earlier TB that hit in L2 */
    TRAPEZE_GROUP_RETAIN2,   /* L2 retention: lines survive about retain2 x L2 capacity of traffic */
    TRAPEZE_GROUP_THETA,     /* union of overlaps: theta x largest + (1-theta) x saturating sum */
    TRAPEZE_GROUP_NU,        /* DRAM reads per line missed in L2 */
    TRAPEZE_GROUP_CWAVE,     /* cycles for one SM to run a wave of its co-resident TBs */
    TRAPEZE_GROUP_TL2,       /* cycles per L2 access (the whole GPU's L2 throughput) */
    TRAPEZE_GROUP_TDRAM,     /* cycles per DRAM read */
    TRAPEZE_GROUP_OVERLAP,   /* omega: cycles = (Tc^p + Ts^p + T2^p + Td^p)^(1/p), p = 1/(1-omega) */
    TRAPEZE_GROUP_TSM,       /* cycles an SM's own pipelines (schedulers, L1, load/store) take per
                              TB of its queue: co-resident TBs share them (throughput, where
                              cwave is latency) */
    TRAPEZE_GROUP_NPARAMS
} trapeze_group_param;

typedef struct trapeze_group_params {
    double value[TRAPEZE_GROUP_NPARAMS];
    double stderr_[TRAPEZE_GROUP_NPARAMS];
    /* the held-out relative error of a predicted gain over round-robin at
     * the whole-launch scale ([group] gain_uncertainty): a grouping replaces
     * round-robin only when predicted faster by more; < 0: not measured */
    double gain_uncertainty;
    char source[128];
} trapeze_group_params;

const char *trapeze_group_param_name(trapeze_group_param p);
void trapeze_group_param_range(trapeze_group_param p, double *lo, double *hi);
void trapeze_group_params_default(trapeze_group_params *p);
/* Calibration file: [group] name = value (name_stderr), [meta] source;
 * absent names keep their defaults. Errors name file, line and key. */
trapeze_status trapeze_group_params_load(const char *path, trapeze_group_params *p,
                                         trapeze_error *err);
trapeze_status trapeze_group_params_save(const char *path, const trapeze_group_params *p,
                                         trapeze_error *err);

/* What the model needs of the GPU and of the kernel's occupancy. */
typedef struct trapeze_group_machine {
    int n_sm;
    int tbs_per_sm;        /* co-resident TBs per SM (occupancy), x */
    double l1_lines;       /* L1D capacity per SM, in lines */
    double l2_lines;       /* L2 capacity, whole GPU, in lines */
    int by_elements;       /* 1: data counted in elements (footprints and shares in
                              elements, capacities converted at the graph's mean
                              elements per line): L2 accesses follow the elements
                              a TB reads more closely than its lines when lines
                              are partly used; 0: in lines */
} trapeze_group_machine;

typedef struct trapeze_group_model trapeze_group_model;

/* Copies what it needs of the graph. */
trapeze_status trapeze_group_create(const trapeze_locality_graph *graph,
                                    const trapeze_group_machine *m, const trapeze_group_params *p,
                                    trapeze_group_model **out, trapeze_error *err);
void trapeze_group_destroy(trapeze_group_model *m);
void trapeze_group_set_params(trapeze_group_model *m, const trapeze_group_params *p);

typedef struct trapeze_group_eval {
    double l1_shared_hits;   /* L1 hits on lines another TB of the same SM brought */
    double l2_accesses;      /* L1 misses sent to L2 (lines) */
    double dram_reads;
    double max_queue;        /* TBs in the longest group queue */
    double t_compute, t_sm, t_l2, t_dram;
    double cycles;
    /* exact gradients in the parameters */
    double dl2_dparam[TRAPEZE_GROUP_NPARAMS];
    double ddram_dparam[TRAPEZE_GROUP_NPARAMS];
    double dcycles_dparam[TRAPEZE_GROUP_NPARAMS];
} trapeze_group_eval;

/* Predicts a grouping (n_groups must be the machine's n_sm). */
trapeze_status trapeze_group_evaluate(const trapeze_group_model *m, const trapeze_grouping *g,
                                      trapeze_group_eval *out, trapeze_error *err);
/* The largest of a prediction's four times, what bounds it: "latency" (Tc),
 * "sm" (Ts), "l2" (T2) or "dram" (Td). */
const char *trapeze_group_eval_bound(const trapeze_group_eval *e);

/* Groupings as the model sees the simulator's baselines and the tiles:
 * round-robin (TB t in queue t mod n_sm at position t / n_sm), BCS (pairs
 * 2p, 2p+1 together, pair p in queue p mod n_sm), and tiles of gx x gy TBs
 * over the grid (y and z folded), taken in row-major (tile_order 0) or
 * column-major (1) tile order, each tile whole to the least-loaded queue
 * (balance), TBs row-major inside. out is allocated (trapeze_grouping_free). */
trapeze_status trapeze_group_rr(const trapeze_group_model *m, trapeze_grouping *out,
                                trapeze_error *err);
trapeze_status trapeze_group_bcs(const trapeze_group_model *m, trapeze_grouping *out,
                                 trapeze_error *err);
trapeze_status trapeze_group_tiles(const trapeze_group_model *m, int gx, int gy,
                                   int tile_order, trapeze_grouping *out,
                                   trapeze_error *err);

/* A soft assignment of the TBs to the SM queues, for graphs without grid
 * structure (model/group_soft.c): shares X[p][g] = softmax(theta[p]) that
 * minimize the shared data kept apart plus a balance penalty (L-BFGS),
 * rounded under ceil(n / n_sm) TBs per queue, refined by moves that keep
 * more shared data, ordered greedily within a queue. */
typedef struct trapeze_group_soft_info {
    double relaxed_start, relaxed;   /* the relaxation's objective: start, optimum */
    double rounded_kept, kept;       /* shared data within queues: rounded, refined */
    double total_shared;             /* all shared data (each edge once) */
    int moves, nlopt_evaluations;
} trapeze_group_soft_info;
trapeze_status trapeze_group_soft(const trapeze_group_model *m, trapeze_grouping *out,
                                  trapeze_group_soft_info *info, trapeze_error *err);
/* The relaxation's objective at theta (n x G) for G queues, its gradient
 * into grad (may be NULL); X (n x G) and dX (n x G + G) are scratch. */
double trapeze_group_soft_objective(const trapeze_group_model *m, int G, const double *theta,
                                    double *grad, double *X, double *dX);
/* Shared data (the model's units) between TBs of the same queue. */
double trapeze_group_kept_shared(const trapeze_group_model *m, const trapeze_grouping *g);

/* The optimizer's result. */
typedef struct trapeze_group_choice {
    char source[32];          /* "tiles", or the name of the candidate that won */
    int gx, gy, tile_order;   /* the tile chosen (0 when a candidate won) */
    double gx_continuous, gy_continuous;   /* the relaxation's optimum */
    double relaxed_cycles;    /* the relaxation's value there */
    int model_evaluations;    /* discrete groupings the model predicted */
    int nlopt_evaluations;
    trapeze_group_eval eval;    /* the prediction of the chosen grouping */
} trapeze_group_choice;

/* Picks a grouping minimizing predicted cycles. The relaxation: tile width
 * and height (gx, gy) real, the model's cycles between whole shapes
 * interpolated bilinearly (exact gradients of the interpolant), minimized
 * by NLopt SLSQP from several starts under gx * gy <= min(TBs per SM at
 * once, ceil(TBs / SMs)) (resident at once, no SM left idle), for both
 * tile orders; then rounded (the whole shapes around the optimum, grown to
 * fill the SM) and refined (every rounded shape in both orders predicted by
 * the discrete model). Candidates (e.g. the baselines' groupings) compete
 * with the tiles. candidates[0] is the default (the GPU's own policy,
 * round-robin). Among the candidates the fastest wins: by measured_cycles
 * when given (they were simulated; NULL: by the model, and only when
 * predicted faster than the default by more than `margin`). The tiles then
 * replace the winner only when predicted faster than the winner, taken at
 * the lower of its prediction and its measurement, by more than `margin`
 * (relative; e.g. the model's error), so a model that cannot tell them
 * apart keeps the winner. out is allocated. */
trapeze_status trapeze_group_optimize(const trapeze_group_model *m,
                                      const trapeze_grouping *candidates,
                                      const char *const *candidate_names,
                                      const double *measured_cycles, int n_candidates,
                                      double margin, trapeze_grouping *out,
                                      trapeze_group_choice *choice, trapeze_error *err);

/* One observation of a grouping, simulated or measured: the model of the
 * kernel on the GPU, the grouping that ran, and what was measured (a value
 * <= 0 is not used). */
typedef struct trapeze_group_observation {
    const trapeze_group_model *model;
    const trapeze_grouping *grouping;
    double cycles, l2_accesses, dram_reads;
} trapeze_group_observation;

#define TRAPEZE_GROUP_MASK(p) (1ul << (p))
/* Fits the parameters selected by mask (0: all) to every measured value by
 * nonlinear least squares on relative residuals (the generic fit, the
 * model's exact Jacobian), in stages from p: the L1 constants (mu, eta1,
 * theta) on L2 accesses, the L2 constants (nu, eta2, retain2) on DRAM
 * reads, the timing constants on cycles from a linear least-squares start
 * (each constant from its own observable). p: start in, fitted values and
 * standard errors out; rep: the relative error over every value. With folds >= 2, also the k-fold cross-validated error
 * (observation i held out in fold i mod k; rep->cv_mape_pct,
 * rep->cv_max_ape_pct). Models keep their own parameters (set them with
 * trapeze_group_set_params). */
trapeze_status trapeze_group_fit(const trapeze_group_observation *obs, int n, unsigned long mask,
                                 int folds, trapeze_group_params *p, trapeze_fit_report *rep,
                                 trapeze_error *err);

/* A kernel's grouping problem on a GPU (sampler/: the simulator joined to
 * the model): the locality graph and machine of one launch of a built-in
 * kernel ("name=value" parameters), the model's view of the simulator's
 * policies, and simulations of that launch alone (caches cold). */
typedef struct trapeze_group_problem trapeze_group_problem;

trapeze_status trapeze_group_problem_builtin(const char *gpu_config_path, const char *kernel,
                                             char *const *params, int n_params, int launch,
                                             trapeze_group_problem **out, trapeze_error *err);
/* The same for launch `launch` of an Accel-Sim trace (kernelslist.g): the
 * graph from its loads' addresses (trapeze_locality_trace). */
trapeze_status trapeze_group_problem_trace(const char *gpu_config_path, const char *kernelslist,
                                           int launch, trapeze_group_problem **out,
                                           trapeze_error *err);
void trapeze_group_problem_destroy(trapeze_group_problem *pb);
const trapeze_locality_graph *trapeze_group_problem_graph(const trapeze_group_problem *pb);
const trapeze_group_machine *trapeze_group_problem_machine(const trapeze_group_problem *pb);
/* The grouping policy rr, bcs, mst, kway or rbts places (PAVER's group
 * lists: list k to SM k mod n_sm), as the model predicts it; EINVAL for a
 * dynamic policy (chen). */
trapeze_status trapeze_group_problem_policy_grouping(const trapeze_group_problem *pb,
                                                     const trapeze_group_model *m,
                                                     const char *policy, trapeze_grouping *out,
                                                     trapeze_error *err);

typedef struct trapeze_group_measured {
    double cycles;
    double l2_accesses;       /* L2 read accesses (the loads' L1 misses) */
    double dram_reads;
    double l1_hits;
    double warp_instructions; /* the simulated work */
    double stolen_blocks;
} trapeze_group_measured;

/* Simulates the launch under a policy (-trapeze_tb_dispatch NAME) or, when
 * grouping is not NULL, under the explicit policy running it. */
trapeze_status trapeze_group_problem_simulate(const trapeze_group_problem *pb, const char *policy,
                                              const trapeze_grouping *grouping,
                                              trapeze_group_measured *out, trapeze_error *err);

/* A short sample, a sub-grid of the launch: with window_groups > 0 only
 * the grouping's (or the group-list policy's) first window_groups queues
 * run, each on its SM, the other SMs idle (-trapeze_window_groups); 0:
 * the whole launch, as trapeze_group_problem_simulate. */
trapeze_status trapeze_group_problem_simulate_window(const trapeze_group_problem *pb,
                                                     const char *policy,
                                                     const trapeze_grouping *grouping,
                                                     int window_groups, trapeze_group_measured *out,
                                                     trapeze_error *err);

/* ---- short samples (sampler/group_window.c) ----
 * A policy's sample is a sub-grid of the launch: the TBs of the first
 * non-empty queues of its grouping (as the model sees it), at most m of
 * them holding at most the share m / n_sm of the TBs (at least one queue);
 * with share > 0, at most min(m / n_sm, share) of them, a first queue over
 * it alone cut to its first max(1, floor(that x TBs)) TBs in dispatch
 * order (a prefix). The sub-grid runs alone on its
 * SMs and is predicted by the model on the graph its TBs induce, on a
 * machine of that many SMs. The constants fitted to the five policies'
 * sub-grids predict the whole launch. */
typedef struct trapeze_group_window trapeze_group_window;
/* The sub-grid of grouping g of pb's launch: its first non-empty queues
 * (at most m, at most m / n_sm of the TBs, at least one queue; share > 0:
 * at most min(m / n_sm, share), at least a prefix of one queue;
 * renumbered from 0 in queue order), the model of it at p. */
trapeze_status trapeze_group_window_create(const trapeze_group_problem *pb,
                                           const trapeze_grouping *g, int m, double share,
                                           const trapeze_group_params *p, trapeze_group_window **out,
                                           trapeze_error *err);
void trapeze_group_window_destroy(trapeze_group_window *w);
long trapeze_group_window_tbs(const trapeze_group_window *w);
/* 1 when the two sub-grids run the same TBs on the same queues in the same
 * order (one simulation serves both: the plan runs it once). */
int trapeze_group_window_same(const trapeze_group_window *a, const trapeze_group_window *b);
const trapeze_group_model *trapeze_group_window_model(const trapeze_group_window *w);
/* The sub-grid's own grouping (its TBs renumbered 0..n-1, in id order). */
const trapeze_grouping *trapeze_group_window_grouping(const trapeze_group_window *w);
/* Simulates the sub-grid: g with its queues (a cut queue's prefix) first,
 * every other TB after, run with -trapeze_window_groups (its queues). */
trapeze_status trapeze_group_window_simulate(const trapeze_group_problem *pb,
                                             const trapeze_group_window *w,
                                             trapeze_group_measured *out, trapeze_error *err);
/* Fits trapeze_group_fit_mask_default to the five policies' sub-grids (rr,
 * bcs, mst, kway, rbts on m SMs and share as trapeze_group_window_create's,
 * measured in meas[5]) from p. */
trapeze_status trapeze_group_window_fit(const trapeze_group_problem *pb, int m, double share,
                                        const trapeze_group_measured meas[5],
                                        trapeze_group_params *p, trapeze_fit_report *rep,
                                        trapeze_error *err);
/* The same fit to n launches' sub-grids at once (one set of constants for
 * all: a GPU's calibration), launch l's on m[l] SMs and share[l], measured
 * in meas[l]; folds as trapeze_group_fit's (0: no cross-validation). */
trapeze_status trapeze_group_window_fit_many(const trapeze_group_problem *const *pb, int n,
                                             const int *m, const double *share,
                                             const trapeze_group_measured (*meas)[5], int folds,
                                             trapeze_group_params *p, trapeze_fit_report *rep,
                                             trapeze_error *err);

/* The decision of one launch (sampler/group_decide.c), what `trapeze group`
 * and `trapeze validate --model group` run. Policies, in this order: rr,
 * bcs, chen, mst, kway, rbts, optimized. */
#define TRAPEZE_GROUP_NPOLICIES 7
extern const char *const trapeze_group_policy_names[TRAPEZE_GROUP_NPOLICIES];
/* mu, eta1, nu, cwave, tl2, tdram, tsm: what five samples of one launch fit */
extern const unsigned long trapeze_group_fit_mask_default;

typedef struct trapeze_group_outcome {
    int predicted[TRAPEZE_GROUP_NPOLICIES], simulated[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_eval pred[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_measured sim[TRAPEZE_GROUP_NPOLICIES];
    trapeze_group_choice choice;
    trapeze_group_params params;         /* the constants used (fitted when fitted) */
    trapeze_fit_report fit;
    int fitted;
    double margin;                     /* the margin used: the one given, or the fit's rms
                                          relative error when fitted and larger */
    int optimized_simulated;           /* the chosen grouping was simulated here (not a
                                          policy's own run) */
    trapeze_grouping grouping;         /* the chosen grouping */
    int soft_tried;                    /* the soft assignment was computed */
    trapeze_group_soft_info soft;
    double soft_pred_cycles;
    /* Chen's dispatch decided before launch (trapeze_locality_chen_grouping),
     * a candidate beside the five: with sim it is simulated and ranked by its
     * cycles, else it competes by prediction after the tiles */
    trapeze_group_eval chen_static_pred;
    int chen_static_simulated;
    trapeze_group_measured chen_static_sim;
    /* the uncertainty the decision used against round-robin (< 0: not
     * measured; then the margin alone): with sim and fit, the fit's
     * cross-validated error over the five whole runs, else
     * p->gain_uncertainty */
    double uncertainty;
    /* with sim: the model's own pick before any run ranks the candidates
     * (by prediction alone, round-robin left only for a grouping predicted
     * faster by more than the margin and the uncertainty), its run, and
     * whether the simulations changed it (the choice above differs) */
    trapeze_group_choice model_choice;
    trapeze_grouping model_grouping;
    trapeze_group_measured model_sim;
    int model_simulated, model_changed;
} trapeze_group_outcome;

/* sim: the six policies' measurements, rr..rbts in the order above (NULL:
 * predictions only, the model ranks the candidates); fit: fit
 * trapeze_group_fit_mask_default to rr, bcs, mst, kway and rbts from p;
 * margin as trapeze_group_optimize's, raised to the fit's rms relative error
 * when fitted (a model cannot tell apart what its own error covers). With sim, the chosen grouping is
 * simulated unless a policy won (then its run is the optimized row). */
/* chen-static (trapeze_locality_chen_grouping): with sim it is simulated and
 * ranked with the five by its cycles; without, it competes after the tiles
 * by prediction, as the soft assignment does. */
/* soft: the soft assignment (trapeze_group_soft) competes too, as
 * the tiles do: it replaces the choice only when predicted faster than it
 * (taken at the lower of its prediction and its measurement) by margin. */
/* win (used only without sim; NULL: none): the five candidates' sub-grids
 * (rr, bcs, mst, kway, rbts, as trapeze_group_window_fit's meas) and the fit
 * p came from. Then the outcome carries that fit, the margin is raised to
 * its rms error for the model's comparisons, and round-robin is left for
 * the candidate whose sub-grid ran fastest, only when that sub-grid beat
 * round-robin's by the given margin and the model does not predict the
 * candidate slower than round-robin by more than that margin: the
 * sub-grids are measurements, but of one SM's queue alone, so the model
 * (which sees the whole GPU) must not contradict them. */
typedef struct trapeze_group_window_evidence {
    trapeze_group_measured sub[5];
    trapeze_fit_report fit;
} trapeze_group_window_evidence;
trapeze_status trapeze_group_decide(const trapeze_group_problem *pb, const trapeze_group_params *p,
                                    const trapeze_group_measured *sim,
                                    const trapeze_group_window_evidence *win, int fit, double margin,
                                    int soft, trapeze_group_outcome *out, trapeze_error *err);
void trapeze_group_outcome_free(trapeze_group_outcome *o);

/* The grouping model's samples (sampler/group_samples.c): one launch under
 * one policy, whole or its sub-grid, a row of model "group" in a samples
 * log (columns gpu, kernel, params, launch, policy, window_sms (0: the
 * whole launch), then cycles, l2_accesses, dram_reads, l1_hits,
 * warp_instructions, tbs), run by trapeze_samples_run (threads, resumed
 * from the log) or over MPI ranks by the command line. */
extern const trapeze_row_schema trapeze_group_sample_schema;
typedef struct trapeze_group_launch {
    const char *kernel;
    const char *params;        /* "name=value name=value" or NULL */
    int launch;
} trapeze_group_launch;
/* The launch's problem: a built-in kernel with its parameters, or, when
 * kernel names a path (holds a '/'), an Accel-Sim trace (DIR or
 * DIR/kernelslist.g; no parameters) as trapeze_group_problem_trace's. */
trapeze_status trapeze_group_launch_problem(const char *gpu, const trapeze_group_launch *l,
                                            trapeze_group_problem **out, trapeze_error *err);
typedef struct trapeze_group_plan trapeze_group_plan;
/* Rows launch by launch: with whole, the whole launch under rr, bcs,
 * (chen when with_chen), mst, kway, rbts (ids KERNEL[.PARAMS].lLAUNCH.POLICY);
 * with window_share > 0, the sub-grids of rr, bcs, mst, kway, rbts on
 * round(window_share * SMs) SMs, at least 1, holding at most
 * min(their share, window_tbs) of the TBs, a first queue over it cut to
 * its prefix (window_tbs 0: their share, whole queues;
 * trapeze_group_window_create; ids ...POLICY.wM, ...POLICY.wMtPCT with
 * window_tbs, column window_pct = 100 x window_tbs), each
 * distinct one once (a policy whose sub-grid an earlier policy's equals has
 * no row: the 1-D launches of 4 TBs place TB 0 alone under rr, MST-TS,
 * k-way-TS and RB-TS). */
trapeze_status trapeze_group_plan_create(const char *gpu_config_path, const char *gpu_name,
                                         const trapeze_group_launch *l, int n, int with_chen,
                                         int whole, double window_share, double window_tbs,
                                         trapeze_group_plan **out, trapeze_error *err);
void trapeze_group_plan_destroy(trapeze_group_plan *plan);
const trapeze_sample_set *trapeze_group_plan_set(const trapeze_group_plan *plan);
/* Launch i's measurements from the log, in trapeze_group_policy_names order
 * (chen's left zero when not planned); EINVAL when one is not logged. */
trapeze_status trapeze_group_plan_measured(const trapeze_group_plan *plan,
                                           const trapeze_sample_log *log, int launch,
                                           trapeze_group_measured sim[6], trapeze_error *err);
/* Launch `launch`'s five sub-grids (rr bcs mst kway rbts) from the log,
 * their SMs and share of the TBs (window_pct / 100), and the simulated
 * work (warp instructions) of the distinct ones, each run once. */
trapeze_status trapeze_group_plan_windows(const trapeze_group_plan *plan,
                                          const trapeze_sample_log *log, int launch,
                                          trapeze_group_measured meas[5], int *window_sms,
                                          double *window_share, double *work, trapeze_error *err);


/* ---- ghost zones and groupings together (sampler/gz_group.c) ----
 * For each trapezoid height: the relaunched stage's locality graph, the
 * grouping of its TBs the grouping model predicts keeps most halo re-reads
 * in L1, and the ghost-zone model's cycles per loop with the re-reads that
 * grouping leaves to memory: halo_reread rho scaled to
 * trapeze_ghostzone_group_rho(rho, phi(rr), phi(g)), phi = re-reads served by L1 /
 * ghost-zone elements (docs/grouping.md). Fence mode has no TB dispatch to
 * group (persistent blocks loop over the tiles): its rows keep the model's
 * CPL. */
typedef struct trapeze_ghostzone_group_row {
    trapeze_sync sync;
    int h;
    int evaluated;             /* relaunch: 0 when skipped (cpl_bound >= the best found) */
    long tiles;                /* TBs of a stage (evaluated rows) */
    double ghost_elements;     /* stencil_arrays (T blk^D - V): the halo re-reads */
    double l1_reread_rr, l1_reread;  /* of them, served by L1 under rr / the grouping */
    double l2_rr, l2;          /* the grouping model's L2 accesses of one stage */
    double rho;                /* the halo_reread the grouping leaves */
    double cpl_rr;             /* the ghost-zone model as calibrated (default dispatch) */
    double cpl_bound;          /* CPL with free halo re-reads (rho = 0): no grouping beats it */
    double cpl_grouped;        /* with the model's best grouping (evaluated rows) */
    double cpl;                /* the row's CPL: cpl_grouped when lower than cpl_rr by more
                                  than the margin, else cpl_rr (kept_rr) */
    double gain_sd;            /* standard deviation of cpl_rr - cpl_grouped from the
                                  calibration's stderr of halo_reread (the gain is ~ rho) */
    int kept_rr;               /* evaluated, and the grouping's gain was not above
                                  margin x cpl_rr + 2 gain_sd, or the calibration did not
                                  fit halo_reread (its stderr is 0) */
    char source[32];           /* "tiles", "rr", "bcs" (relaunch), "none" (fence) */
    int gx, gy, tile_order;
    int model_evaluations;
} trapeze_ghostzone_group_row;

typedef struct trapeze_ghostzone_group_result {
    int n_rows;                /* relaunch h = 1..hmax, then fence h = 1..hmax */
    trapeze_ghostzone_group_row *rows;
    int best;                  /* row of the lowest CPL */
    int best_relaunch;         /* row of the lowest relaunch CPL: grouping's */
    trapeze_grouping grouping; /* the grouping of best_relaunch (its stage's TBs) */
    int model_evaluations;
} trapeze_ghostzone_group_result;

/* rho (1 - phi_g) / (1 - phi_rr), at least 0; rho when phi_rr >= 1. */
double trapeze_ghostzone_group_rho(double rho, double phi_rr, double phi_g);
/* spec: the workload as its file gives it (p's [profile.NAME] applies as in
 * trapeze_ghostzone_create); gp: the grouping model's constants (its L1 side
 * used); margin: a grouping replaces rr only when predicted to lower the
 * CPL by more than this fraction plus two gain_sd (and, among tiles, the
 * L2 accesses by more than this fraction); exhaustive: visit every relaunch
 * height (else heights whose bound cannot beat the best are skipped). */
trapeze_status trapeze_ghostzone_group_optimize(const char *gpu_config_path,
                                                const trapeze_workload *spec,
                                                const trapeze_ghostzone_params *p, int tau,
                                                const trapeze_group_params *gp, double margin,
                                                int exhaustive, trapeze_ghostzone_group_result *out,
                                                trapeze_error *err);
void trapeze_ghostzone_group_result_free(trapeze_ghostzone_group_result *r);
/* Simulated cycles per loop of the relaunched stencil at h (iterations 0:
 * the workload's), TBs dispatched by grouping (NULL: the GPU's policy). */
trapeze_status trapeze_ghostzone_group_simulate(const char *gpu_config_path,
                                                const trapeze_workload *spec, int h, int iterations,
                                                const trapeze_grouping *grouping, double *cpl,
                                                trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
