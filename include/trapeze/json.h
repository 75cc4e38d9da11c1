/*
 * trapeze/json.h - part of the public C API: include <trapeze.h> for all
 * of it; its conventions hold here. Compiles alone; declares nothing of
 * another module (it includes their headers instead).
 *
 * JSON summary documents (--json FILE), written all or nothing as the CSVs.
 */
#ifndef TRAPEZE_JSON_H
#define TRAPEZE_JSON_H

#include "trapeze/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One JSON document (RFC 8259), built in memory and written whole by
 * trapeze_json_commit through the same path as the CSVs (a temporary file
 * renamed over PATH, or a device written in place), so a failed run leaves
 * no part of it. Members appear in the order they are written; numbers in
 * the shortest form that reads back to the same double (NaN and infinities
 * as null); text escaped (", \, control characters; a byte that is not part
 * of valid UTF-8 as \u00HH, its Latin-1 reading). Indented by two spaces.
 * Every call on a NULL writer does nothing, so a command writes its summary
 * with the same calls whether a document was asked for or not. A misuse (a
 * member without a name in an object, a name in an array, an unbalanced
 * end) is reported by the commit, which then writes nothing. */
typedef struct trapeze_json_out trapeze_json_out;

/* PATH is checked as trapeze_output_check checks it; nothing is created yet. */
trapeze_status trapeze_json_create(const char *path, trapeze_json_out **out,
                                   trapeze_error *err);
/* key: the member's name in an object; NULL in an array and for the
 * document itself. An object or array stays open until trapeze_json_end. */
void trapeze_json_object(trapeze_json_out *j, const char *key);
void trapeze_json_array(trapeze_json_out *j, const char *key);
void trapeze_json_end(trapeze_json_out *j);
void trapeze_json_text(trapeze_json_out *j, const char *key, const char *value); /* NULL: null */
void trapeze_json_number(trapeze_json_out *j, const char *key, double value);
void trapeze_json_integer(trapeze_json_out *j, const char *key, long long value);
void trapeze_json_bool(trapeze_json_out *j, const char *key, int value);
/* Writes the document (it must be complete) to PATH, all or nothing; frees j. */
trapeze_status trapeze_json_commit(trapeze_json_out *j, trapeze_error *err);
/* Drops the document; frees j (safe on NULL). */
void trapeze_json_abort(trapeze_json_out *j);

#ifdef __cplusplus
}
#endif

#endif
