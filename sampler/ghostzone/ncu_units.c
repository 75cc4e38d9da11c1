/*
 * ncu_units.c - Nsight Compute's numbers and units (see ncu_units.h): the
 * thousands separators and the prefixed units of its CSV exports. Owns
 * their syntax only; which unit a metric must have is the importer's.
 */
#include <stdio.h>
#include <string.h>

#include "sampler/ghostzone/ncu_units.h"

static int digit(char c) { return c >= '0' && c <= '9'; }

int ncu_strip_separators(const char *text, char *out, size_t room)
{
    const char *p = text;
    size_t n = 0;
    if (!strchr(text, ',')) {
        if (strlen(text) >= room)
            return 0;
        memcpy(out, text, strlen(text) + 1);
        return 1;
    }
    /* with separators: an optional sign, 1 to 3 digits, then ",ddd" groups,
     * then an optional fraction; nothing else may hold a comma */
    if (*p == '-' || *p == '+')
        out[n++] = *p++;
    int lead = 0;
    while (digit(*p) && lead < 4 && n + 1 < room) {
        out[n++] = *p++;
        lead++;
    }
    if (lead < 1 || lead > 3)
        return 0;
    while (*p == ',') {
        if (!digit(p[1]) || !digit(p[2]) || !digit(p[3]) || digit(p[4]) || n + 4 >= room)
            return 0;
        memcpy(out + n, p + 1, 3);
        n += 3;
        p += 4;
    }
    if (strchr(p, ',') || strlen(p) + n >= room)
        return 0;
    memcpy(out + n, p, strlen(p) + 1); /* the fraction; the number parser checks it */
    return 1;
}

/* Units Nsight Compute prints, without their prefix. */
static const char *const base_units[] = {"byte", "cycle", "inst", "second", "sector", "request",
                                         "warp", "thread", "block", "register", "%", NULL};

static int is_base(const char *text, size_t len)
{
    for (int i = 0; base_units[i]; i++)
        if (len == strlen(base_units[i]) && memcmp(text, base_units[i], len) == 0)
            return i;
    return -1;
}

/* One unit without '/': "", a base unit, or a prefix and a base unit. */
static int simple_unit(const char *text, size_t len, char *base, size_t room, int *exp10)
{
    static const char letters[] = "numKMGT";
    static const int exps[] = {-9, -6, -3, 3, 6, 9, 12};
    int b = is_base(text, len);
    int f = 0;
    if (b < 0 && len > 0 && strchr(letters, text[0])) {
        f = exps[strchr(letters, text[0]) - letters];
        b = is_base(text + 1, len - 1);
        if (b >= 0 && strcmp(base_units[b], "%") == 0)
            return 0;
        if (b < 0 && len == 1 && f > 0 && room > 0) { /* a bare "K": a scaled count */
            base[0] = '\0';
            *exp10 = f;
            return 1;
        }
    }
    if (len == 0 && room > 0) {
        base[0] = '\0';
        *exp10 = 0;
        return 1;
    }
    if (b < 0 || strlen(base_units[b]) >= room)
        return 0;
    strcpy(base, base_units[b]);
    *exp10 = f;
    return 1;
}

int ncu_unit(const char *text, char *base, size_t room, int *exp10)
{
    const char *slash = strchr(text, '/');
    if (!slash)
        return simple_unit(text, strlen(text), base, room, exp10);
    char num[32], den[32];
    int fn, fd;
    if (strchr(slash + 1, '/') ||
        !simple_unit(text, (size_t)(slash - text), num, sizeof num, &fn) ||
        !simple_unit(slash + 1, strlen(slash + 1), den, sizeof den, &fd) || !num[0] || !den[0])
        return 0;
    if ((size_t)snprintf(base, room, "%s/%s", num, den) >= room)
        return 0;
    *exp10 = fn - fd;
    return 1;
}
