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
#include "common/internal.h"

TRAPEZE_INTERNAL
char *trapeze_strdup(const char *s);
/* 1 when all of s (after optional spaces) is one finite number. */
TRAPEZE_INTERNAL
int trapeze_parse_double(const char *s, double *out);
TRAPEZE_INTERNAL
int trapeze_parse_long(const char *s, long *out);
/* The most bytes a file read whole may hold (256 MiB): the largest input
 * read so (a samples log, a grouping CSV, a GPU config) is a few MB; a
 * larger one, or an endless one (/dev/zero), is refused as it is read, by
 * name, before it can take the memory. Traces are streamed, not read whole. */
#define TRAPEZE_READ_MAX ((size_t)256 << 20)
/* Reads the whole file into a malloc'd buffer of *len bytes (plus a NUL
 * after them, which is not part of the data: NUL bytes inside are kept).
 * Pipes work (/dev/stdin): what is read once is read as a stream. A folder
 * is TRAPEZE_EINVAL "PATH: is a folder, not a file". */
TRAPEZE_INTERNAL
trapeze_status trapeze_read_file_len(const char *path, char **out, size_t *len,
                                     trapeze_error *err);
/* The same from an open descriptor (from offset 0 and the offset unchanged
 * where it can seek; from where it is for a pipe). */
TRAPEZE_INTERNAL
trapeze_status trapeze_read_fd(int fd, const char *path, char **out, size_t *len,
                               trapeze_error *err);
/* The same for text: a NUL byte is TRAPEZE_EPARSE "PATH:LINE: a NUL byte:
 * not a text file", found as it is read. */
TRAPEZE_INTERNAL
trapeze_status trapeze_read_fd_text(int fd, const char *path, char **out, size_t *len,
                                    trapeze_error *err);
/* Reads a text file into a NUL-terminated malloc'd buffer (as
 * trapeze_read_fd_text). */
TRAPEZE_INTERNAL
trapeze_status trapeze_read_file(const char *path, char **out, trapeze_error *err);
/* value in the shortest of %.15g and %.17g that reads back to the same
 * double (CSV and JSON numbers); room: 32 bytes are enough. Returns out. */
TRAPEZE_INTERNAL
const char *trapeze_format_double(double value, char *out, size_t room);
/* The 1-based line of byte `offset` of text. */
TRAPEZE_INTERNAL
int trapeze_line_of(const char *text, size_t offset);
/* s[0..len) for an error message: printable ASCII as is, '\\' doubled, any
 * other byte as \xHH, cut with "..." to fit room. Returns out. */
TRAPEZE_INTERNAL
const char *trapeze_escape(const char *s, size_t len, char *out, size_t room);

#endif
