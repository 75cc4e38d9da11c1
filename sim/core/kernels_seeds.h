/*
 * kernels_seeds.h - the seeds' kernels as built-ins (kernels_seeds.c): the
 * matrix multiply of Tripathy's locality example (naive, and tiled through
 * shared memory) and the PolyBench/GPU kernels whose column-strided loads
 * Choo's cache-contention study turns on (atax, bicg, gesummv, mvt, syrk,
 * syr2k). SIM_SEED_BUILTINS expands to their entries in the built-in table
 * of kernels.c.
 */
#ifndef TRAPEZE_SIM_CORE_KERNELS_SEEDS_H
#define TRAPEZE_SIM_CORE_KERNELS_SEEDS_H

#include "sim/core/gpu_sim.h"

#define SIM_SEED_BUILD(name)                                                            \
    trapeze_status name(const sim_core_config *c, const long *p, sim_kernel **ks, int max,   \
                        int *count, trapeze_error *err)
SIM_SEED_BUILD(sim_seed_matmul);
SIM_SEED_BUILD(sim_seed_matmul_tiled);
SIM_SEED_BUILD(sim_seed_atax);
SIM_SEED_BUILD(sim_seed_bicg);
SIM_SEED_BUILD(sim_seed_gesummv);
SIM_SEED_BUILD(sim_seed_mvt);
SIM_SEED_BUILD(sim_seed_syrk);
SIM_SEED_BUILD(sim_seed_syr2k);

#define SIM_SEED_VEC_PARAMS                                                             \
    {{"n", 1024, "matrix edge (PolyBench/GPU: 4096)"}, {"block", 256, "threads per block"}}
#define SIM_SEED_SYR_PARAMS                                                             \
    {{"n", 128, "matrix edge, N = M (Tripathy's SYRK: 256)"},                           \
     {"bx", 32, "block columns"}, {"by", 8, "block rows"}}

#define SIM_SEED_BUILTINS                                                               \
    {"matmul", "C = A B, one thread per element of C, A and B from global memory",     \
     {{"n", 200, "matrix edge (Tripathy's example: 200)"},                              \
      {"block", 16, "block edge (block x block threads)"}},                             \
     sim_seed_matmul},                                                                  \
    {"matmul_tiled", "C = A B through shared-memory tiles (barrier per tile)",          \
     {{"n", 256, "matrix edge, a multiple of tile"},                                    \
      {"tile", 16, "tile and block edge"}},                                             \
     sim_seed_matmul_tiled},                                                            \
    {"atax", "PolyBench atax: tmp = A x (thread per row), y = A^T tmp (per column)",    \
     SIM_SEED_VEC_PARAMS, sim_seed_atax},                                               \
    {"bicg", "PolyBench bicg: s = A^T r (thread per column), q = A p (per row)",        \
     SIM_SEED_VEC_PARAMS, sim_seed_bicg},                                               \
    {"gesummv", "PolyBench gesummv: y = alpha A x + beta B x, thread per row",          \
     SIM_SEED_VEC_PARAMS, sim_seed_gesummv},                                            \
    {"mvt", "PolyBench mvt: x1 += A y1 (thread per row), x2 += A^T y2 (per column)",    \
     SIM_SEED_VEC_PARAMS, sim_seed_mvt},                                                \
    {"syrk", "PolyBench syrk: C = alpha A A^T + beta C, thread per element of C",       \
     SIM_SEED_SYR_PARAMS, sim_seed_syrk},                                               \
    {"syr2k", "PolyBench syr2k: C = alpha (A B^T + B A^T) + beta C",                    \
     SIM_SEED_SYR_PARAMS, sim_seed_syr2k}

#endif
