/*
 * calib_mpi.c - `mpirun -n N trapeze calibrate ...`: the pending samples
 * of a sample set (any model's; the calibration plan's here) spread over
 * MPI ranks round-robin; rank 0 receives them in plan
 * order and appends each to samples.csv as it arrives, so the log and the
 * calibration are the bytes of a serial run. The library stays MPI-free:
 * this file is compiled with MPI only when the Makefile finds OpenMPI
 * (pkg-config ompi-c; the decision is recorded in BUILD/config.stamp, so a
 * change rebuilds this file). Not started by mpirun, it is a single process;
 * built without MPI, it refuses to start as one of several ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calib_common.h"
#include "common/text.h"

#ifdef TRAPEZE_MPI
#include <mpi.h>

/* Started by mpirun (OpenMPI or PMIx) rather than by hand. */
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK");
}

int calib_mpi_start(int *argc, char ***argv, int *rank, int *size)
{
    *rank = 0;
    *size = 1;
    if (!under_mpirun())
        return 0;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 1;
}

void calib_mpi_stop(int started)
{
    if (started)
        MPI_Finalize();
}

typedef struct {
    int status;
    trapeze_sample_row row;  /* row.schema is set again on receipt (addresses differ) */
    char message[sizeof ((trapeze_error *)0)->message];
} result_msg;

/* A failure on any rank ends every rank with its message. */
void calib_mpi_abort(const char *message)
{
    fprintf(stderr, "trapeze calibrate: %s\n", message);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void run_one(const trapeze_sample_set *set, int index, result_msg *m)
{
    trapeze_error err = {0};
    memset(m, 0, sizeof *m);
    m->row = set->rows[index];
    m->status = set->run(set->ctx, index, &m->row, &err);
    if (m->status)
        snprintf(m->message, sizeof m->message, "%s", err.message);
}

static void progress(void *ctx, const trapeze_run_progress *at, const trapeze_sample_row *row)
{
    (void)ctx;
    trapeze_sample s;
    if (trapeze_ghostzone_sample_from_row(row, &s, NULL) == TRAPEZE_OK)
        calib_progress(NULL, at, &s);
}

trapeze_status calib_mpi_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log, int rank,
                             int size, trapeze_error *err)
{
    return calib_mpi_run_set(trapeze_ghostzone_plan_set(plan), log, rank, size,
                             progress, NULL, err);
}

trapeze_status calib_mpi_run_set(const trapeze_sample_set *set, trapeze_sample_log *log,
                                 int rank, int size, trapeze_sample_progress on_row, void *ctx,
                                 trapeze_error *err)
{
    int count = set->count, n = 0;
    int *todo = malloc((size_t)(count ? count : 1) * sizeof *todo);
    if (!todo)
        calib_mpi_abort("out of memory");
    trapeze_status s = rank == 0 ? trapeze_samples_pending(set, log, todo, &n, err) : TRAPEZE_OK;
    if (s)
        calib_mpi_abort(err->message);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(todo, n, MPI_INT, 0, MPI_COMM_WORLD);
    trapeze_run_progress at = {.done = count - n, .total = count};
    for (int k = 0; k < n; k++)
        at.work_total += set->cost ? set->cost(set->ctx, todo[k]) : 1;
    result_msg m;
    for (int k = 0; k < n; k++) {
        int owner = k % size;
        if (owner == rank)
            run_one(set, todo[k], &m);
        if (rank == 0 && owner != 0)
            MPI_Recv(&m, sizeof m, MPI_BYTE, owner, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else if (rank != 0 && owner == rank)
            MPI_Send(&m, sizeof m, MPI_BYTE, 0, k, MPI_COMM_WORLD);
        if (rank != 0 && owner == rank && m.status)
            calib_mpi_abort(m.message);
        if (rank == 0 && m.status)
            calib_mpi_abort(m.message);
        m.row.schema = set->schema;
        if (rank == 0 && (s = trapeze_sample_log_append_row(log, &m.row, err)))
            calib_mpi_abort(err->message);
        at.done++;
        at.work_done += set->cost ? set->cost(set->ctx, todo[k]) : 1;
        if (rank == 0 && on_row)
            on_row(ctx, &at, &m.row);
    }
    free(todo);
    return TRAPEZE_OK;
}

#else

/* The value of the first of names that is set, as a number; -1 when none is
 * set or it is not a number. */
static long env_number(const char *const *names)
{
    for (; *names; names++) {
        const char *v = getenv(*names);
        long n;
        if (v)
            return trapeze_parse_long(v, &n) ? n : -1;
    }
    return -1;
}

/* Built without MPI but started as one of several ranks (OpenMPI, MPICH's
 * PMI, PMIx): every rank would run the whole plan and race the others for
 * the log, so none starts. It exits here, before anything is opened or
 * written: every caller starts MPI before its outputs. Rank 0 (or a rank
 * that does not know its number) says why; the others stop quietly. */
int calib_mpi_start(int *argc, char ***argv, int *rank, int *size)
{
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                            NULL};
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                            NULL};
    (void)argc;
    (void)argv;
    long n = env_number(size_vars), r = env_number(rank_vars);
    if (n > 1 || r > 0) {
        char ranks[32] = "several";
        if (n > 1)
            snprintf(ranks, sizeof ranks, "%ld", n);
        if (r <= 0)
            fprintf(stderr, "trapeze calibrate: started as one of %s MPI ranks, but this "
                    "program was built without MPI, so each rank would run every sample and "
                    "race the others for the log; install OpenMPI (scripts/install-deps.sh "
                    "mpi) and run make again (it rebuilds what MPI changes), or run it "
                    "without mpirun (--threads N)\n", ranks);
        exit(1);
    }
    *rank = 0;
    *size = 1;
    return 0;
}

void calib_mpi_stop(int started) { (void)started; }

void calib_mpi_abort(const char *message) { (void)message; }

trapeze_status calib_mpi_run(const trapeze_ghostzone_plan *plan, trapeze_sample_log *log, int rank,
                             int size, trapeze_error *err)
{
    (void)plan, (void)log, (void)rank, (void)size, (void)err;
    return TRAPEZE_EINVAL; /* never called: size is 1 without MPI */
}

trapeze_status calib_mpi_run_set(const trapeze_sample_set *set, trapeze_sample_log *log,
                                 int rank, int size, trapeze_sample_progress on_row, void *ctx,
                                 trapeze_error *err)
{
    (void)set, (void)log, (void)rank, (void)size, (void)on_row, (void)ctx, (void)err;
    return TRAPEZE_EINVAL; /* never called: size is 1 without MPI */
}

#endif

trapeze_status calib_run_set(const trapeze_sample_set *set, trapeze_sample_log *log, int threads,
                             int rank, int size, trapeze_sample_progress on_row, void *ctx,
                             trapeze_error *err)
{
    if (size > 1)
        return calib_mpi_run_set(set, log, rank, size, on_row, ctx, err);
    return trapeze_samples_run(set, log, threads, on_row, ctx, err);
}
