/*
 * trapeze/locality.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * Thread-block locality graphs, a neutral type the simulator fills and the
 * models read, and Chen's dispatch decided from one.
 */
#ifndef TRAPEZE_LOCALITY_H
#define TRAPEZE_LOCALITY_H

#include "trapeze/error.h"
#include "trapeze/config.h"
#include "trapeze/grouping.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which thread blocks (TBs) of a kernel read the same data (PAVER's locality
 * graph, Tripathy 2021 ch. 3): per TB its footprint (distinct global
 * elements and cache lines it reads), and an edge for every pair of TBs
 * that read at least one common line. TB ids are linear:
 * tb = bx + by*gx + bz*gx*gy. Built by the simulator's analysis from a
 * kernel (exact for the program kernels: every address of every load is
 * evaluated) or from a trace's addresses; read by the grouping model.
 * Footprints and shares are counted in elements, 32-byte sectors and
 * lines: the unit a cache misses in is the GPU's (a sectored L1 fetches
 * sectors, another whole lines). */
typedef struct trapeze_locality_edge {
    long tb_i, tb_j;                /* tb_i < tb_j */
    long long shared_elements;      /* distinct elements (addresses) both read */
    long long shared_lines;         /* distinct cache lines both read (>= 1) */
    long long shared_sectors;       /* distinct sectors both read (0 from a CSV) */
} trapeze_locality_edge;

typedef struct trapeze_locality_graph {
    char kernel[64];
    int grid[3];                    /* gx, gy, gz */
    long n_tbs;
    int line_bytes;                 /* cache line the lines are counted in */
    long long *elements;            /* per TB: distinct elements read */
    long long *lines;               /* per TB: distinct lines read */
    int sector_bytes;               /* sector the sectors are counted in (what a sectored
                                       cache moves per miss); 0: none counted (a CSV) */
    long long *sectors;             /* per TB: distinct sectors read; NULL from a CSV */
    long n_edges;
    trapeze_locality_edge *edges;   /* sorted by (tb_i, tb_j) */
    long long store_sectors;        /* the launch's global stores: per warp instruction
                                       the distinct 32-byte sectors its lanes write,
                                       summed (the DRAM write traffic the grouping
                                       model's whole-GPU term adds to the reads); 0
                                       from a CSV */
    long long *warp_insts;          /* per TB: the warp instructions its warps' streams
                                       hold (what a simulation of it issues; the
                                       grouping samples' work); NULL from a CSV */
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

/* Chen's locality-aware dispatch decided before launch (chen-static,
 * sim/locality/chen.c): the TB each SM takes if every TB takes the same
 * time (x = tbs_per_sm passes at launch, then TBs ending in placement
 * order, each SM taking the waiting TB sharing most cache lines with its
 * residents), as queues g = SM g in placement order, for the explicit
 * policy. out is allocated (trapeze_grouping_free). */
trapeze_status trapeze_locality_chen_grouping(const trapeze_locality_graph *graph, int n_sm,
                                              int tbs_per_sm, trapeze_grouping *out,
                                              trapeze_error *err);

#ifdef __cplusplus
}
#endif

#endif
