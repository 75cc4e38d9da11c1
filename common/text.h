/*
 * text.h - small string and file helpers shared by every layer: strict
 * number parsing (the whole string must be the number), reading a whole
 * file by length, quoting untrusted bytes for messages, duplicating strings.
 * No knowledge of any format. Range-checked reading of numbers with
 * file/line/field messages is in common/number.h.
 */
#ifndef TRAPEZE_COMMON_TEXT_H
#define TRAPEZE_COMMON_TEXT_H

#include <stdio.h>

#include "trapeze.h"

char *trapeze_strdup(const char *s);
/* 1 when all of s (after optional spaces) is one finite number. */
int trapeze_parse_double(const char *s, double *out);
int trapeze_parse_long(const char *s, long *out);
/* Reads the whole file into a malloc'd buffer of *len bytes (plus a NUL
 * after them, which is not part of the data: NUL bytes inside are kept). */
trapeze_status trapeze_read_file_len(const char *path, char **out, size_t *len,
                                     trapeze_error *err);
/* The same from an open descriptor (from offset 0; the offset is unchanged). */
trapeze_status trapeze_read_fd(int fd, const char *path, char **out, size_t *len,
                               trapeze_error *err);
/* Reads a text file into a NUL-terminated malloc'd buffer; a NUL byte inside
 * is TRAPEZE_EPARSE "PATH:LINE: a NUL byte: not a text file". */
trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err);
/* The 1-based line of byte `offset` of text. */
int trapeze_line_of(const char *text, size_t offset);
/* s[0..len) for an error message: printable ASCII as is, '\\' doubled, any
 * other byte as \xHH, cut with "..." to fit room. Returns out. */
const char *trapeze_escape(const char *s, size_t len, char *out, size_t room);

#endif
