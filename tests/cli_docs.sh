#!/bin/sh
# The documentation says what is true now and names only what exists: no
# file under docs/, README.md or cli/ (help strings, comments) carries a
# tracker number (the word for a tracker item followed by its number), a
# work-period word (the patterns below) or a dated heading (a heading with a
# day and a month), and every scripts/... path and every `trapeze COMMAND`
# in a docs code block names a file that exists and a command that
# `trapeze --help` lists. History belongs in CHANGES.md and commit messages.
# Usage: sh tests/cli_docs.sh build/trapeze   (run from the repository root)
. "$(dirname "$0")/lib/cli.sh"

# Files exempt from the checks: none. A name added here must say why.
EXCLUDED=""

excluded() { echo "$EXCLUDED" | grep -qxF "$1"; }

# Lines naming a tracker item; a percentage after the word is a simulator's
# issue-stall share in printed output, not a tracker number.
tracker() { grep -nE '[Ii]ssue [0-9]' "$1" | grep -vE '[Ii]ssue [0-9]+(\.[0-9]+)?%'; }

# The commands a code block runs: `trapeze WORD`, WORD not followed by a
# digit (scripts take `build/trapeze gtx480` as an argument list).
shown_commands() {
    grep -oE '(^|[ \t($`"]|build/)trapeze +[a-z][a-z_-]*([^A-Za-z0-9_]|$)' "$1" \
        | sed 's/.*trapeze *//; s/[^a-z_-]*$//'
}

files=$(ls docs/*.md README.md cli/*.c cli/*.h 2>/dev/null)
[ -n "$files" ] || fail "no docs found: run from the repository root"

# The commands `trapeze --help` lists (two-space indented names under "commands:").
commands=$("$T" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "'$T --help' lists no commands"

months='(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)'
for f in $files; do
    if excluded "$f"; then
        echo "SKIP $f (in the exclusion list of tests/cli_docs.sh)"
        continue
    fi
    tracker "$f" | sed "s|^|$f:|" >"$D/hits"
    [ -s "$D/hits" ] && fail "tracker number in $f: $(head -3 "$D/hits")"
    grep -nwE '[Ss]essions?' "$f" | sed "s|^|$f:|" >"$D/hits"
    [ -s "$D/hits" ] && fail "work-period word in $f: $(head -3 "$D/hits")"
    grep -nE "^#+ .*\\b[0-9]{1,2} $months\\b|^#+ .*\\b$months [0-9]{1,2}\\b" "$f" \
        | sed "s|^|$f:|" >"$D/hits"
    [ -s "$D/hits" ] && fail "dated heading in $f: $(head -3 "$D/hits")"
    case $f in *.md) ;; *) continue ;; esac

    # The lines inside ``` code blocks.
    awk '/^[ \t]*```/ { inb = !inb; next } inb' "$f" >"$D/code"
    for s in $(grep -oE 'scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$D/code" | sort -u); do
        [ -e "$s" ] || fail "$f names $s in a code block: no such file"
    done
    for c in $(shown_commands "$D/code" | sort -u); do
        echo "$commands" | grep -qxF "$c" \
            || fail "$f shows 'trapeze $c' in a code block: '$T --help' lists no such command"
    done
done

# The checks can fail: a planted file with each fault is caught.
mkdir -p "$D/plant"
w1=iss; w2=sess   # assembled, so that this file itself holds neither phrase
printf '# T\n\n## 28 Nov: fixed\n\nAs %sue 12 asked, this %sion:\n\n```sh\nscripts/no-such.sh build/trapeze gtx480\nbuild/trapeze frobnicate --x\n```\n' "$w1" "$w2" >"$D/plant/bad.md"
[ -n "$(tracker "$D/plant/bad.md")" ] || fail "the tracker check misses the planted number"
grep -qwE '[Ss]essions?' "$D/plant/bad.md" || fail "the work-period check misses the planted word"
grep -qE "^#+ .*\\b[0-9]{1,2} $months\\b" "$D/plant/bad.md" || fail "the heading check misses the planted date"
awk '/^[ \t]*```/ { inb = !inb; next } inb' "$D/plant/bad.md" >"$D/code"
[ "$(grep -oE 'scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$D/code")" = scripts/no-such.sh ] \
    || fail "the code-block scan misses scripts/no-such.sh"
c=$(shown_commands "$D/code")
[ "$c" = frobnicate ] && ! echo "$commands" | grep -qxF frobnicate \
    || fail "the command scan misses 'trapeze frobnicate'"

finish cli_docs
