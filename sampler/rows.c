/*
 * rows.c - samples-log rows of any model: a schema (the model's columns,
 * inputs then outputs) and a row (id, kind, model, values) with access by
 * column name; the ghost-zone model's schema and its conversion to and from
 * trapeze_sample. Owns the row layout only: the file is samples.c's,
 * running rows run.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "sampler/sampler.h"

static const char *const sync_names[] = {"relaunch", "fence", NULL};
static const char *const gz_program_kinds[] = {SAMPLER_KIND_MICRO, SAMPLER_KIND_PROFILE,
                                               SAMPLER_KIND_SIM, NULL};
#define BIG 1.7976931348623157e308
/* A run takes at least one cycle, and 1e15 cycles are 11 days at 1 GHz: a
 * value outside is a misread unit or a damaged file, and one such row would
 * stop every later fit (a CV error of inf or NaN). Counts likewise. */
#define MAX_CYCLES 1e15
#define MAX_COUNT 1e18

/* In trapeze_sample_columns order after sample_id and kind. */
static const trapeze_field gz_fields[] = {
    {"workload", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"gpu", TRAPEZE_FIELD_TEXT, 0, 0, 0, NULL},
    {"sync", TRAPEZE_FIELD_TEXT, 0, 0, 0, sync_names},
    {"h", TRAPEZE_FIELD_INT, 0, 1, 2147483647.0, NULL},
    {"blk_len", TRAPEZE_FIELD_INT, 0, 1, 2147483647.0, NULL},
    {"size_0", TRAPEZE_FIELD_REAL, 0, 0, BIG, NULL},
    {"size_1", TRAPEZE_FIELD_REAL, 0, 0, BIG, NULL},
    {"size_2", TRAPEZE_FIELD_REAL, 0, 0, BIG, NULL},
    {"stages", TRAPEZE_FIELD_INT, 0, 1, 2147483647.0, NULL},
    {"cycles", TRAPEZE_FIELD_REAL, 1, 1, MAX_CYCLES, NULL},
    {"cpl_cycles", TRAPEZE_FIELD_REAL, 1, 0, MAX_CYCLES, NULL},
    {"warp_instructions", TRAPEZE_FIELD_REAL, 1, 0, MAX_COUNT, NULL},
    {"bank_conflicts", TRAPEZE_FIELD_REAL, 1, 0, MAX_COUNT, NULL},
};
enum { GZ_WORKLOAD, GZ_GPU, GZ_SYNC, GZ_H, GZ_BLK, GZ_SIZE0, GZ_STAGES = GZ_SIZE0 + 3, GZ_CYCLES,
       GZ_CPL, GZ_WARP_INSTS, GZ_BANK_CONFLICTS, GZ_NFIELDS };
_Static_assert(GZ_NFIELDS == sizeof gz_fields / sizeof gz_fields[0], "gz fields");

static trapeze_status gz_check(const trapeze_sample_row *row, const char *path, int line,
                               trapeze_error *err)
{
    if (!(row->value[GZ_CPL] > 0))
        return trapeze_fail(err, TRAPEZE_ERANGE, "%s:%d: field cpl_cycles: must be positive",
                            path, line);
    return TRAPEZE_OK;
}

const trapeze_row_schema trapeze_ghostzone_sample_schema = {
    .model = "ghostzone",
    .nfields = GZ_NFIELDS,
    .fields = gz_fields,
    .program_kinds = gz_program_kinds,
    .implicit_model = 1,
    .check = gz_check,
};

int trapeze_row_field(const trapeze_row_schema *schema, const char *name)
{
    for (int i = 0; i < schema->nfields; i++)
        if (strcmp(schema->fields[i].name, name) == 0)
            return i;
    return -1;
}

void trapeze_row_init(trapeze_sample_row *row, const trapeze_row_schema *schema, const char *id,
                      const char *kind)
{
    memset(row, 0, sizeof *row);
    row->schema = schema;
    snprintf(row->id, sizeof row->id, "%s", id);
    snprintf(row->kind, sizeof row->kind, "%s", kind);
}

trapeze_status trapeze_row_set_text(trapeze_sample_row *row, const char *name, const char *text)
{
    int i = trapeze_row_field(row->schema, name);
    if (i < 0 || row->schema->fields[i].type != TRAPEZE_FIELD_TEXT ||
        strlen(text) >= TRAPEZE_ROW_TEXT)
        return TRAPEZE_EINVAL;
    memcpy(row->text[i], text, strlen(text) + 1);
    return TRAPEZE_OK;
}

trapeze_status trapeze_row_set_number(trapeze_sample_row *row, const char *name, double v)
{
    int i = trapeze_row_field(row->schema, name);
    if (i < 0 || row->schema->fields[i].type == TRAPEZE_FIELD_TEXT)
        return TRAPEZE_EINVAL;
    row->value[i] = v;
    return TRAPEZE_OK;
}

const char *trapeze_row_text(const trapeze_sample_row *row, const char *name)
{
    int i = trapeze_row_field(row->schema, name);
    return i >= 0 && row->schema->fields[i].type == TRAPEZE_FIELD_TEXT ? row->text[i] : NULL;
}

double trapeze_row_number(const trapeze_sample_row *row, const char *name)
{
    int i = trapeze_row_field(row->schema, name);
    return i >= 0 && row->schema->fields[i].type != TRAPEZE_FIELD_TEXT ? row->value[i] : NAN;
}

int trapeze_row_same_inputs(const trapeze_sample_row *a, const trapeze_sample_row *b)
{
    if (a->schema != b->schema || strcmp(a->kind, b->kind) != 0)
        return 0;
    for (int i = 0; i < a->schema->nfields; i++) {
        const trapeze_field *f = &a->schema->fields[i];
        if (f->output)
            continue;
        if (f->type == TRAPEZE_FIELD_TEXT ? strcmp(a->text[i], b->text[i]) != 0
                                          : a->value[i] != b->value[i])
            return 0;
    }
    return 1;
}

void trapeze_ghostzone_sample_to_row(const trapeze_sample *s, trapeze_sample_row *row)
{
    trapeze_row_init(row, &trapeze_ghostzone_sample_schema, s->id, s->kind);
    snprintf(row->text[GZ_WORKLOAD], TRAPEZE_ROW_TEXT, "%s", s->workload);
    snprintf(row->text[GZ_GPU], TRAPEZE_ROW_TEXT, "%s", s->gpu);
    snprintf(row->text[GZ_SYNC], TRAPEZE_ROW_TEXT, "%s", trapeze_sync_name(s->sync));
    row->value[GZ_H] = s->h;
    row->value[GZ_BLK] = s->blk_len;
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        row->value[GZ_SIZE0 + d] = s->data_len[d];
    row->value[GZ_STAGES] = s->stages;
    row->value[GZ_CYCLES] = s->cycles;
    row->value[GZ_CPL] = s->cpl_cycles;
    row->value[GZ_WARP_INSTS] = s->warp_instructions;
    row->value[GZ_BANK_CONFLICTS] = s->bank_conflicts;
}

trapeze_status trapeze_ghostzone_sample_from_row(const trapeze_sample_row *row, trapeze_sample *s,
                                                 trapeze_error *err)
{
    if (row->schema != &trapeze_ghostzone_sample_schema)
        return trapeze_fail(err, TRAPEZE_EINVAL, "sample %s: a %s row, not a ghost-zone one",
                            row->id, row->schema ? row->schema->model : "?");
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", row->id);
    snprintf(s->kind, sizeof s->kind, "%s", row->kind);
    snprintf(s->workload, sizeof s->workload, "%s", row->text[GZ_WORKLOAD]);
    snprintf(s->gpu, sizeof s->gpu, "%s", row->text[GZ_GPU]);
    s->sync = strcmp(row->text[GZ_SYNC], "fence") == 0 ? TRAPEZE_SYNC_FENCE : TRAPEZE_SYNC_RELAUNCH;
    s->h = (int)row->value[GZ_H];
    s->blk_len = (int)row->value[GZ_BLK];
    for (int d = 0; d < TRAPEZE_MAX_DIMS; d++)
        s->data_len[d] = row->value[GZ_SIZE0 + d];
    s->stages = (int)row->value[GZ_STAGES];
    s->cycles = row->value[GZ_CYCLES];
    s->cpl_cycles = row->value[GZ_CPL];
    s->warp_instructions = row->value[GZ_WARP_INSTS];
    s->bank_conflicts = row->value[GZ_BANK_CONFLICTS];
    return TRAPEZE_OK;
}
