#!/bin/sh
# The public headers: include/trapeze.h includes every module header of
# include/trapeze/ and declares nothing itself, and each of them compiles
# alone (a translation unit holding only its #include) as C11 with the
# project's warnings and -pedantic, and as C++ where a C++ compiler is
# installed (the headers' extern "C" blocks).
# Usage: sh tests/cli_headers.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
CC=${CC:-cc}

# compiles_alone HEADER: the header (relative to include/) alone in a unit
compiles_alone() {
    printf '#include "%s"\n' "$1" >"$D/unit.c"
    $CC -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$D/unit.c" \
        2>"$D/cc.err"
}

n=0
for h in include/trapeze/*.h; do
    name=${h#include/}
    compiles_alone "$name" || fail "$name does not compile alone: $(head -3 "$D/cc.err")"
    grep -q "^#include \"$name\"$" include/trapeze.h || fail "include/trapeze.h lacks $name"
    n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n module headers in include/trapeze/"
compiles_alone trapeze.h || fail "trapeze.h does not compile alone: $(head -3 "$D/cc.err")"
# the umbrella declares nothing: only comments, its guard, the version and includes
decl=$(sed -e '/^\/\*/,/\*\//d' include/trapeze.h | grep -v -e '^$' -e '^#' | head -3)
[ -z "$decl" ] || fail "include/trapeze.h declares something itself: $decl"

if command -v c++ >/dev/null 2>&1; then
    printf '#include "trapeze.h"\n' >"$D/unit.cc"
    c++ -std=c++11 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$D/unit.cc" \
        2>"$D/cc.err" || fail "trapeze.h does not compile as C++: $(head -3 "$D/cc.err")"
else
    echo "SKIP C++: no c++ compiler"
fi

# `make install` puts every module header beside trapeze.h, and a program
# compiles against the installed folder alone; `make uninstall` removes them
B=$(dirname "$T")
R="$D/root"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" -o all DESTDIR="$R" \
    PREFIX=/usr install >"$D/make.out" 2>&1 || fail "make install: $(tail -3 "$D/make.out")"
for h in include/trapeze/*.h; do
    cmp -s "$h" "$R/usr/$h" || fail "make install did not install $h"
done
printf '#include <trapeze.h>\nint main(void) { return trapeze_status_name(TRAPEZE_OK) == 0; }\n' >"$D/prog.c"
$CC -std=c11 -Wall -Werror -I"$R/usr/include" -fsyntax-only "$D/prog.c" 2>"$D/cc.err" \
    || fail "a program does not compile against the installed headers: $(head -3 "$D/cc.err")"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s B="$B" DESTDIR="$R" PREFIX=/usr \
    uninstall >/dev/null 2>&1
[ ! -e "$R/usr/include/trapeze" ] || fail "make uninstall left $R/usr/include/trapeze"

# the check sees a header that needs another it does not include
mkdir -p "$D/inc/trapeze"
printf '#ifndef P_H\n#define P_H\ntrapeze_status f(void);\n#endif\n' >"$D/inc/trapeze/probe.h"
printf '#include "trapeze/probe.h"\n' >"$D/unit.c"
if $CC -std=c11 -Wall -Wextra -Werror -pedantic -I"$D/inc" -fsyntax-only "$D/unit.c" 2>/dev/null; then
    fail "a header using an undeclared type compiled alone"
fi
finish cli_headers
