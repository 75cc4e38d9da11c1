/*
 * ncu_units.h - how Nsight Compute writes a number and its unit in a CSV
 * export: "1,234,567.5" with thousands separators, and units such as
 * "Mbyte", "Kcycle", "usecond" or "cycle/nsecond" (its default
 * --print-units auto scales each value to a prefixed unit). Used by the
 * importer (ncu_import.c) only; not part of the public API.
 */
#ifndef TRAPEZE_SAMPLER_NCU_UNITS_H
#define TRAPEZE_SAMPLER_NCU_UNITS_H

#include <stddef.h>

/* text as a number: digits with an optional fraction, written plainly
 * ("1234567.5", "2.5e3") or with a comma between every three digits of the
 * whole part ("1,234,567.5"); any other comma ("1,2,3,,4", the decimal
 * comma of "9,00") is refused. Writes the number without commas into out.
 * 1: done; 0: not such a number (out holds nothing useful). */
int ncu_strip_separators(const char *text, char *out, size_t room);

/* A unit as a base unit and the power of ten to it (every prefix is one,
 * so a value can be scaled by its exponent, exactly): "Mbyte" -> "byte", 6;
 * "usecond" -> "second", -6; "cycle/nsecond" -> "cycle/second", 9;
 * "" -> "", 0 (a plain count); "K" -> "", 3. 1: known; 0: not a unit this
 * reader knows (base and exp10 are then unset). */
int ncu_unit(const char *text, char *base, size_t room, int *exp10);

#endif
