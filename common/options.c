/*
 * options.c - reading integer options through their table row, and printing
 * a table (options.h). Owns no option: each component keeps its own table.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "options.h"

const trapeze_opt *trapeze_opt_find(const trapeze_opt *table, const char *name)
{
    for (const trapeze_opt *o = table; o->name; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

trapeze_status trapeze_opt_int_or(const trapeze_config *cfg, const trapeze_opt *table,
                                  const char *name, long fallback, long *out,
                                  trapeze_error *err)
{
    const trapeze_opt *o = trapeze_opt_find(table, name);
    if (!o || o->type != OPT_INT)
        return trapeze_fail(err, TRAPEZE_EINVAL, "option -%s is not an integer option of its "
                            "table", name);
    return trapeze_config_get_int_in(cfg, name, fallback, o->lo, o->hi, out, err);
}

trapeze_status trapeze_opt_int(const trapeze_config *cfg, const trapeze_opt *table,
                               const char *name, long *out, trapeze_error *err)
{
    const trapeze_opt *o = trapeze_opt_find(table, name);
    if (!o || o->type != OPT_INT)
        return trapeze_fail(err, TRAPEZE_EINVAL, "option -%s is not an integer option of its "
                            "table", name);
    return trapeze_config_get_int_in(cfg, name, strtol(o->fallback, NULL, 10), o->lo, o->hi,
                                     out, err);
}

size_t trapeze_opt_unknown(const trapeze_config *cfg, const trapeze_opt *const *tables, int n,
                           const char **names, size_t max)
{
    size_t count = 0;
    for (size_t i = 0; i < trapeze_config_count(cfg); i++) {
        const char *name = trapeze_config_option(cfg, i);
        int known = 0;
        for (int t = 0; t < n && !known; t++)
            known = trapeze_opt_find(tables[t], name) != NULL;
        if (known)
            continue;
        if (count < max)
            names[count] = name;
        count++;
    }
    return count;
}

void trapeze_opt_print(FILE *f, const char *component, const trapeze_opt *table)
{
    static const char *const type_name[] = {"int", "number", "list", "text"};
    fprintf(f, "%s:\n", component);
    for (const trapeze_opt *o = table; o->name; o++) {
        char range[64] = "";
        if (o->type == OPT_INT)
            snprintf(range, sizeof range, "[%ld, %ld]", o->lo, o->hi);
        fprintf(f, "  -%-36s %-6s %-12s %-22s %s\n", o->name, type_name[o->type],
                o->fallback[0] ? o->fallback : "(computed)", range, o->help);
    }
}
