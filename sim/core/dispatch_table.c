/*
 * dispatch_table.c - the TB dispatch policies by name: the rows of
 * TRAPEZE_TB_DISPATCH_TABLE (trapeze.h) as a table, lookups on it, and the
 * simulator's policy (sim_dispatch_ops) of each. Owns no policy: each is
 * its own file (dispatch.c, dispatch_bcs.c, dispatch_chen.c,
 * dispatch_groups.c); no name is written here.
 */
#include <stdio.h>
#include <string.h>

#include "sim/core/sm.h"

#define ROW_(id, name, ops, kind, help) [TRAPEZE_TB_##id] = {name, kind, help},
const trapeze_tb_policy trapeze_tb_policies[TRAPEZE_TB_COUNT] = {
    TRAPEZE_TB_DISPATCH_TABLE(ROW_)};
#undef ROW_

#define OPS_(id, name, ops, kind, help) [SIM_TB_##id] = &sim_dispatch_##ops,
static const sim_dispatch_ops *const ops_of[SIM_TB_COUNT] = {TRAPEZE_TB_DISPATCH_TABLE(OPS_)};
#undef OPS_

const sim_dispatch_ops *sim_dispatch_policy(sim_tb_dispatch kind)
{
    return kind >= 0 && kind < SIM_TB_COUNT ? ops_of[kind] : ops_of[SIM_TB_RR];
}

const char *sim_tb_dispatch_name(sim_tb_dispatch d)
{
    return d >= 0 && d < SIM_TB_COUNT ? trapeze_tb_policies[d].name : "?";
}

int trapeze_tb_policy_find(const char *name)
{
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++)
        if (!strcmp(name, trapeze_tb_policies[i].name))
            return i;
    return -1;
}

int trapeze_tb_policy_nth(trapeze_tb_kind kind, int c)
{
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++)
        if (trapeze_tb_policies[i].kind == kind && c-- == 0)
            return i;
    return -1;
}

void trapeze_tb_policy_list(int kind, const char *sep, const char *last_sep, char *out,
                            size_t size)
{
    int n = 0, total = 0;
    for (int i = 0; i < TRAPEZE_TB_COUNT; i++)
        total += kind < 0 || (int)trapeze_tb_policies[i].kind == kind;
    size_t used = 0;
    if (size)
        out[0] = '\0';
    for (int i = 0; i < TRAPEZE_TB_COUNT && used < size; i++) {
        if (kind >= 0 && (int)trapeze_tb_policies[i].kind != kind)
            continue;
        const char *before = n == 0 ? "" : n == total - 1 ? last_sep : sep;
        int w = snprintf(out + used, size - used, "%s%s", before, trapeze_tb_policies[i].name);
        used += w > 0 ? (size_t)w : 0;
        n++;
    }
}
