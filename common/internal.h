/*
 * internal.h - TRAPEZE_INTERNAL, the mark of a trapeze_* function that other
 * files of the library call but programs linked to libtrapeze.so must not
 * (as Lua's LUAI_FUNC): hidden from the shared library's dynamic symbols.
 * The static library keeps such functions, so the command line and the
 * tests that call internal helpers link libtrapeze.a. The public API is
 * what include/ declares, nothing else (tests/cli_library.sh).
 */
#ifndef TRAPEZE_COMMON_INTERNAL_H
#define TRAPEZE_COMMON_INTERNAL_H

#define TRAPEZE_INTERNAL __attribute__((visibility("hidden")))

#endif
