/*
 * icnt_file.h - GPGPU-Sim's booksim interconnect file (-inter_config_file,
 * read with -network_mode 1) as the parameters of xbar.c's flit-level
 * crossbar.
 */
#ifndef TRAPEZE_SIM_MEM_ICNT_FILE_H
#define TRAPEZE_SIM_MEM_ICNT_FILE_H

#include "trapeze.h"

typedef struct sim_icnt_file {
    int latency;    /* head pipeline, icnt cycles: channel in + routing + VC
                       and switch allocation + switch traversal + channel out */
    int in_buffer;  /* flits: GPGPU-Sim's injection queue + the router's VC buffer */
    int out_buffer; /* flits: the ejection buffer */
    int flit_size;  /* bytes; 0 when the file does not set it */
    int subnets;
    int islip;      /* 1: iSLIP switch allocation */
} sim_icnt_file;

/* Reads `path`, a network of n_nodes nodes (SMs + L2 sub-partitions).
 * Refused, naming file, line and key: any topology but a one-router fly
 * (topology = fly, n = 1) with k >= n_nodes ports, more than one VC, an
 * allocator other than islip or round_robin, speedups other than 1 at the
 * inputs and outputs. */
trapeze_status sim_icnt_file_read(const char *path, int n_nodes, sim_icnt_file *out,
                                  trapeze_error *err);
/* The same from text, as if it were the file `name`. */
trapeze_status sim_icnt_file_parse(const char *text, const char *name, int n_nodes,
                                   sim_icnt_file *out, trapeze_error *err);

#endif
