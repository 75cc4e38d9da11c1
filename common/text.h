/*
 * text.h - small string and file helpers shared by every layer: strict
 * number parsing (the whole string must be the number), reading a whole
 * file, duplicating strings. No knowledge of any format.
 */
#ifndef TRAPEZE_COMMON_TEXT_H
#define TRAPEZE_COMMON_TEXT_H

#include "trapeze.h"

char *trapeze_strdup(const char *s);
/* 1 when all of s (after optional spaces) is one finite number. */
int trapeze_parse_double(const char *s, double *out);
int trapeze_parse_long(const char *s, long *out);
/* Reads a file into a NUL-terminated malloc'd buffer. */
trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err);

#endif
