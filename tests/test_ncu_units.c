/*
 * Tests of Nsight Compute's numbers and units (sampler/ghostzone/ncu_units.c): the
 * thousands separators are read strictly, and each unit the default
 * --print-units auto writes maps to its base unit and power of ten.
 */
#include <string.h>

#include "check.h"
#include "sampler/ghostzone/ncu_units.h"

static int strip_is(const char *text, const char *want)
{
    char out[64];
    return ncu_strip_separators(text, out, sizeof out) && strcmp(out, want) == 0;
}

static int refused(const char *text)
{
    char out[64];
    return !ncu_strip_separators(text, out, sizeof out);
}

static int unit_is(const char *text, const char *base, int exp10)
{
    char b[32];
    int e = 99;
    return ncu_unit(text, b, sizeof b, &e) && strcmp(b, base) == 0 && e == exp10;
}

static int unknown(const char *text)
{
    char b[32];
    int e;
    return !ncu_unit(text, b, sizeof b, &e);
}

int main(void)
{
    /* separators every three digits of the whole part, and nowhere else */
    CHECK(strip_is("1,234,567", "1234567"));
    CHECK(strip_is("4,194.30", "4194.30"));
    CHECK(strip_is("-1,000", "-1000"));
    CHECK(strip_is("312548", "312548"));
    CHECK(strip_is("1.21", "1.21"));
    CHECK(refused("1,2,3,,4")); /* read as 1234 before */
    CHECK(refused("9,00"));     /* a decimal comma: ambiguous */
    CHECK(refused("1234,567"));
    CHECK(refused(",123"));
    CHECK(refused("1,234,"));
    CHECK(refused("1,2345"));
    CHECK(refused("1,234.5,6"));
    CHECK(refused("1 ,234"));
    CHECK(refused("1,23a"));

    /* units: the prefixes are powers of ten */
    CHECK(unit_is("byte", "byte", 0));
    CHECK(unit_is("Kbyte", "byte", 3));
    CHECK(unit_is("Mbyte", "byte", 6));
    CHECK(unit_is("Gbyte", "byte", 9));
    CHECK(unit_is("Tbyte", "byte", 12));
    CHECK(unit_is("cycle", "cycle", 0));
    CHECK(unit_is("Kcycle", "cycle", 3));
    CHECK(unit_is("Mcycle", "cycle", 6));
    CHECK(unit_is("Kinst", "inst", 3));
    CHECK(unit_is("Minst", "inst", 6));
    CHECK(unit_is("nsecond", "second", -9));
    CHECK(unit_is("usecond", "second", -6));
    CHECK(unit_is("msecond", "second", -3));
    CHECK(unit_is("second", "second", 0));
    CHECK(unit_is("%", "%", 0));
    CHECK(unit_is("cycle/nsecond", "cycle/second", 9));
    CHECK(unit_is("cycle/usecond", "cycle/second", 6));
    CHECK(unit_is("Gbyte/second", "byte/second", 9));
    CHECK(unit_is("register/thread", "register/thread", 0));
    CHECK(unit_is("", "", 0)); /* a plain count */
    CHECK(unit_is("K", "", 3));
    CHECK(unknown("furlong"));
    CHECK(unknown("Mfurlong"));
    CHECK(unknown("K%"));
    CHECK(unknown("m"));
    CHECK(unknown("cycle/"));
    CHECK(unknown("/second"));
    CHECK(unknown("byte/second/second"));
    CHECK(unknown("Mcycles"));
    return check_report("test_ncu_units");
}
