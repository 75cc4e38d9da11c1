/*
 * test_json.c - the JSON writer (common/json.c): the exact bytes of a
 * nested document, text escaping (quotes, backslashes, control characters,
 * UTF-8 kept, bytes that are not UTF-8 as \u00HH), numbers that read back
 * to the same double (NaN and infinities as null), and a misused writer
 * (an unnamed member, a name in an array, an unfinished document) writing
 * nothing, the file left as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "trapeze.h"

static char dir[] = "/tmp/trapeze-json-XXXXXX";
static char path[256];

static char *slurp(void)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

static void nesting(void)
{
    trapeze_error err = {0};
    trapeze_json_out *j;
    CHECK_OK(trapeze_json_create(path, &j, &err));
    trapeze_json_object(j, NULL);
    trapeze_json_text(j, "command", "ghostzone");
    trapeze_json_array(j, "rows");
    trapeze_json_object(j, NULL);
    trapeze_json_integer(j, "h", 2);
    trapeze_json_bool(j, "chosen", 1);
    trapeze_json_text(j, "note", NULL);
    trapeze_json_end(j);
    trapeze_json_number(j, NULL, 0.5);
    trapeze_json_array(j, NULL);
    trapeze_json_end(j);
    trapeze_json_end(j);
    trapeze_json_object(j, "empty");
    trapeze_json_end(j);
    trapeze_json_end(j);
    CHECK_OK(trapeze_json_commit(j, &err));
    const char *want = "{\n"
                       "  \"command\": \"ghostzone\",\n"
                       "  \"rows\": [\n"
                       "    {\n"
                       "      \"h\": 2,\n"
                       "      \"chosen\": true,\n"
                       "      \"note\": null\n"
                       "    },\n"
                       "    0.5,\n"
                       "    []\n"
                       "  ],\n"
                       "  \"empty\": {}\n"
                       "}\n";
    CHECK(strcmp(slurp(), want) == 0);
}

static void escaping(void)
{
    trapeze_error err = {0};
    trapeze_json_out *j;
    CHECK_OK(trapeze_json_create(path, &j, &err));
    trapeze_json_array(j, NULL);
    trapeze_json_text(j, NULL, "a\"b\\c/d");
    trapeze_json_text(j, NULL, "tab\tnl\ncr\r\x01\x1f\x7f");
    trapeze_json_text(j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"); /* é € U+1F600 */
    /* a lone continuation byte, a Latin-1 é, an overlong '/', a surrogate */
    trapeze_json_text(j, NULL, "\x80|\xe9|\xc0\xaf|\xed\xa0\x80");
    trapeze_json_end(j);
    CHECK_OK(trapeze_json_commit(j, &err));
    const char *want = "[\n"
                       "  \"a\\\"b\\\\c/d\",\n"
                       "  \"tab\\tnl\\ncr\\r\\u0001\\u001f\x7f\",\n"
                       "  \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\",\n"
                       "  \"\\u0080|\\u00e9|\\u00c0\\u00af|\\u00ed\\u00a0\\u0080\"\n"
                       "]\n";
    CHECK(strcmp(slurp(), want) == 0);
    if (strcmp(slurp(), want) != 0)
        fprintf(stderr, "got:\n%s", slurp());
}

static void numbers(void)
{
    static const double values[] = {0.1, 1.0 / 3, 634467.7, 1e300, -2.5e-310, 123456789012345678.0,
                                    0.30000000000000004, -0.0};
    static const char *const text[] = {"0.1", "0.33333333333333331", "634467.7", "1e+300",
                                       "-2.50000000000002e-310", "1.2345678901234568e+17",
                                       "0.30000000000000004", "-0"};
    int n = (int)(sizeof values / sizeof values[0]);
    trapeze_error err = {0};
    trapeze_json_out *j;
    CHECK_OK(trapeze_json_create(path, &j, &err));
    trapeze_json_array(j, NULL);
    for (int i = 0; i < n; i++)
        trapeze_json_number(j, NULL, values[i]);
    trapeze_json_number(j, NULL, NAN);
    trapeze_json_number(j, NULL, -INFINITY);
    trapeze_json_integer(j, NULL, 9007199254740993LL); /* 2^53 + 1: not a double */
    trapeze_json_end(j);
    CHECK_OK(trapeze_json_commit(j, &err));
    char *doc = slurp(), *p = doc + 1;  /* each value on its line: "\n  VALUE," */
    for (int i = 0; i < n; i++) {
        char *end;
        double v = strtod(p, &end);
        CHECK(v == values[i] && (v != 0 || signbit(v) == signbit(values[i])));
        CHECK(strncmp(p + 3, text[i], strlen(text[i])) == 0 && end == p + 3 + strlen(text[i]));
        p = end + 1;
    }
    CHECK(strstr(doc, "  null,\n  null,\n  9007199254740993\n]\n") != NULL);
}

/* Each misuse: the commit fails with a message and PATH keeps its bytes. */
static void misuse(void)
{
    for (int k = 0; k < 5; k++) {
        FILE *f = fopen(path, "w");
        fputs("before\n", f);
        fclose(f);
        trapeze_error err = {0};
        trapeze_json_out *j;
        CHECK_OK(trapeze_json_create(path, &j, &err));
        trapeze_json_object(j, NULL);
        if (k == 0)
            trapeze_json_integer(j, NULL, 1);       /* a member without a name */
        if (k == 1) {
            trapeze_json_array(j, "a");
            trapeze_json_integer(j, "x", 1);        /* a name in an array */
            trapeze_json_end(j);
        }
        if (k == 3) {
            trapeze_json_end(j);
            trapeze_json_end(j);                    /* one end too many */
        }
        if (k == 4) {
            trapeze_json_end(j);
            trapeze_json_integer(j, NULL, 2);       /* a second document */
        }
        /* k == 2: left open */
        CHECK(trapeze_json_commit(j, &err) == TRAPEZE_EINVAL);
        CHECK(strstr(err.message, "JSON document not written") != NULL);
        CHECK(strcmp(slurp(), "before\n") == 0);
    }
    /* a NULL writer takes every call and does nothing */
    trapeze_json_object(NULL, NULL);
    trapeze_json_number(NULL, "x", 1);
    trapeze_json_end(NULL);
    trapeze_json_abort(NULL);
    /* a folder is refused when the writer is created */
    trapeze_error err = {0};
    trapeze_json_out *j = (trapeze_json_out *)1;
    CHECK(trapeze_json_create(dir, &j, &err) != TRAPEZE_OK && j == NULL);
    CHECK(strstr(err.message, "is a folder") != NULL);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/out.json", dir);
    nesting();
    escaping();
    numbers();
    misuse();
    unlink(path);
    rmdir(dir);
    return check_report("test_json");
}
