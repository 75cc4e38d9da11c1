#!/bin/sh
# End-to-end tests of `trapeze sim`: a small run with CSV output, --list,
# --help, and bad input (kernel name, parameter, config), which must give a
# clear message, a non-zero exit and no CSV (nor its temporary) left behind.
# Usage: sh tests/cli_sim.sh build/trapeze
MAX_ERR_LINES=2   # the message and a hint or a note
. "$(dirname "$0")/lib/cli.sh"
G=data/gpus/gtx480.config

expect_error() { n=$1 t=$2; shift 2; expect_failure "$n" "$t" "$D/out.csv" "$T" sim "$@" --csv "$D/out.csv"; }

# --- a small run: summary on stdout, one CSV row per launch
"$T" sim --gpu $G jacobi nx=64 ny=64 iters=2 --csv "$D/j.csv" >"$D/out" 2>"$D/err" \
    || fail "jacobi exit status: $(cat "$D/err")"
grep -q '^jacobi2d: [0-9]* cycles, [0-9]* warp instructions, IPC' "$D/out" || fail "summary line"
[ "$(wc -l <"$D/j.csv")" -eq 3 ] || fail "CSV rows: $(wc -l <"$D/j.csv")"
head -n 1 "$D/j.csv" | grep -q '^kernel,cycles,warp_instructions,ipc,' || fail "CSV header"
sed -n 2p "$D/j.csv" | grep -q '^jacobi2d,[0-9][0-9]*,[0-9][0-9]*,[0-9.]*,' || fail "CSV row"
! ls "$D" | grep -q "^j\.csv\..*\.tmp$" || fail "temporary CSV left behind"
# no progress output when stderr is not a terminal
grep -q 'cycle [0-9]*, ' "$D/err" && fail "progress written to a non-terminal"

# --- per-SM rows: 15 SMs x 2 launches; for each launch, every counter the
# kernel CSV also has sums over the SM rows to the kernel row's value, and on
# each SM issue + stall cycles = cycles x 2 schedulers (GTX 480)
"$T" sim --gpu $G jacobi nx=100 ny=70 iters=2 --quiet --csv "$D/k.csv" --per-sm-csv "$D/s.csv" \
    2>"$D/err" || fail "per-SM run: $(cat "$D/err")"
[ "$(wc -l <"$D/s.csv")" -eq 31 ] || fail "per-SM rows: $(wc -l <"$D/s.csv")"
head -n 1 "$D/s.csv" | grep -q '^kernel,launch,sm,cycles,warp_instructions,ipc,blocks,' \
    || fail "per-SM header"
! ls "$D" | grep -q "^s\.csv\..*\.tmp$" || fail "temporary per-SM CSV left behind"
awk -F, '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; hdr[FILENAME] = $0; next }
    FILENAME ~ /k\.csv$/ { for (i = 1; i <= NF; i++) kval[$(col[FILENAME, "launch"]), i] = $i; next }
    {
        L = $(col[FILENAME, "launch"]); rows[L]++
        slots = $(col[FILENAME, "issue_slots"])
        n = split("memory compute fence barrier idle", r, " ")
        for (j = 1; j <= n; j++) slots += $(col[FILENAME, "stall_" r[j]])
        if (slots != 2 * $(col[FILENAME, "cycles"])) { print "SM " $3 " launch " L ": " slots " slots"; bad++ }
        for (i = 1; i <= NF; i++) sum[L, i] += $i
        sfile = FILENAME
    }
    END {
        nk = split(hdr[ARGV[1]], kn, ","); ns = split(hdr[sfile], sn, ",")
        checked = 0
        for (L in rows)
            for (i = 1; i <= ns; i++) {
                name = sn[i]
                if (name == "kernel" || name == "launch" || name == "sm" || name == "cycles" ||
                    name == "ipc" || name == "max_resident_blocks" || !((ARGV[1], name) in col))
                    continue
                k = kval[L, col[ARGV[1], name]]
                if (sum[L, i] != k) { print "launch " L " " name ": SMs sum to " sum[L, i] ", kernel " k; bad++ }
                checked++
            }
        if (checked < 2 * 20) { print "only " checked " sums checked"; bad++ }
        exit bad > 0
    }' "$D/k.csv" "$D/s.csv" >"$D/sums" || fail "per-SM sums: $(cat "$D/sums")"
expect_error "per-SM CSV in a missing folder" "cannot create" --gpu $G vecadd n=64 \
    --per-sm-csv "$D/nofolder/s.csv"
# an unwritable --csv leaves no --per-sm-csv either (all or nothing)
rm -f "$D/sm_only.csv"
expect_failure "kernel CSV in a missing folder" "cannot create" "$D/nofolder/k.csv" \
    "$T" sim --gpu $G vecadd n=64 --per-sm-csv "$D/sm_only.csv" --csv "$D/nofolder/k.csv"
[ ! -e "$D/sm_only.csv" ] && ! ls "$D" | grep -q "^sm_only.*\.tmp$" || fail "a per-SM CSV was left without its kernel CSV"
# a write that fails (a file-size limit stands in for a full disk): the
# reason is given, and neither the CSV nor a temporary file is left
(trap '' XFSZ; ulimit -f 1; exec "$T" sim --gpu $G vecadd n=64 --csv "$D/full.csv") \
    >/dev/null 2>"$D/full.err" && fail "disk full: exit status 0"
grep -q "full.csv: cannot write: File too large" "$D/full.err" \
    || fail "disk full: no reason given: $(cat "$D/full.err")"
[ ! -e "$D/full.csv" ] || fail "disk full: a CSV was left"
ls "$D" | grep -q '^full\.csv\..*\.tmp$' && fail "disk full: a temporary file was left"

# options each in range whose product is not: the memory the config needs
# is computed before any allocation and refused naming the options that
# drive it (it was a bare "out of memory" after minutes of swapping)
cp data/gpus/gtx480.config "$D/huge.config"
printf -- '-gpgpu_n_mem 1024\n-gpgpu_n_sub_partition_per_mchannel 64\n-gpgpu_cache:dl2 S:65536:128:64,L:B:m:L:L,A:192:4,32:0,32\n' \
    >>"$D/huge.config"
expect_error "L2 past the memory limit" "past the 4 GiB limit: 12290.1 GiB for 65536 L2 slices (-gpgpu_n_mem 1024 x -gpgpu_n_sub_partition_per_mchannel 64) of 65536 sets x 64 ways" \
    --gpu "$D/huge.config" vecadd n=64

# a config value that names a file says which option, and never shows what
# the file holds (a config can name any file; it printed /etc/passwd's first
# line)
cp data/gpus/gtx480.config "$D/named.config"
printf -- '-trapeze_tb_dispatch explicit\n-trapeze_tb_grouping %s\n' "$D/secret" >>"$D/named.config"
printf 'topsecret:x:0:0\n' >"$D/secret"
expect_error "config names a non-grouping file" "option -trapeze_tb_grouping: $D/secret:1: not read as a grouping file" \
    --gpu "$D/named.config" vecadd n=64
grep -q topsecret "$D/stderr" && fail "a config-named file's contents were shown: $(cat "$D/stderr")"

# the same run twice: the same bytes
"$T" sim --gpu $G jacobi nx=64 ny=64 iters=2 --csv "$D/j2.csv" >/dev/null 2>&1
cmp -s "$D/j.csv" "$D/j2.csv" || fail "two runs differ"

# every built-in runs on every shipped GPU (small sizes)
for g in data/gpus/gtx280.config data/gpus/gtx480.config data/gpus/v100.config; do
    "$T" sim --gpu $g vecadd n=5000 >/dev/null 2>"$D/err" || fail "vecadd on $g: $(cat "$D/err")"
    "$T" sim --gpu $g gbarrier tiles=200 stages=2 >/dev/null 2>"$D/err" || fail "gbarrier on $g: $(cat "$D/err")"
done
"$T" sim --gpu $G chase steps=10 --ideal-memory 50 >"$D/out" 2>&1 || fail "ideal memory"

# --list and --help
"$T" sim --list >"$D/list" || fail "--list exit status"
for k in vecadd copy chase jacobi strided gbarrier relaunch; do
    grep -q "^$k " "$D/list" || fail "--list lacks $k"
done
grep -q 'stride=' "$D/list" || fail "--list lacks parameters"
"$T" sim --help | grep -q 'usage: trapeze sim' || fail "--help"

# --- bad input
expect_error "bad kernel" "no built-in kernel 'nosuch'" --gpu $G nosuch
expect_error "bad parameter name" "no parameter 'bogus'" --gpu $G jacobi bogus=3
expect_error "bad parameter value" "parameter nx=abc" --gpu $G jacobi nx=abc
expect_error "zero parameter" "parameter stride=0" --gpu $G strided stride=0
expect_error "not name=value" "expected name=value" --gpu $G jacobi 17
expect_error "missing config" "nope.config" --gpu "$D/nope.config" vecadd
expect_error "no --gpu" "--gpu FILE is required" vecadd
expect_error "unknown option" "unknown option '--frobnicate'" --gpu $G vecadd --frobnicate
printf -- '-gpgpu_n_clusters 15\n-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_num_sp_units two\n' >"$D/bad1.config"
expect_error "malformed option" "bad1.config:3: option -gpgpu_num_sp_units" --gpu "$D/bad1.config" vecadd
printf -- '-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n-gpgpu_scheduler fifo\n' >"$D/bad2.config"
expect_error "unknown scheduler" "bad2.config:2: option -gpgpu_scheduler" --gpu "$D/bad2.config" vecadd
expect_error "block too big" "does not fit on an SM" --gpu $G vecadd block=2048

# out-of-range options are refused by name and range, never cast
sim_cfg() { grep -v -- "^-$1 " $G >"$D/range.config"; echo "-$1 $2" >>"$D/range.config"; }
sim_cfg gpgpu_n_clusters 4294967311
expect_error "SM count past 2^32" "option -gpgpu_n_clusters: 4294967311 is outside [1, 4096]" \
    --gpu "$D/range.config" vecadd
sim_cfg gpgpu_n_clusters 49152
expect_error "49152 SMs" "option -gpgpu_n_clusters: 49152 is outside [1, 4096]" --gpu "$D/range.config" vecadd
sim_cfg gpgpu_shader_registers 4294967296
expect_error "registers past 2^32" "option -gpgpu_shader_registers: 4294967296 is outside" \
    --gpu "$D/range.config" vecadd
sim_cfg gpgpu_shader_core_pipeline 1e10:32
expect_error "pipeline 1e10" "option -gpgpu_shader_core_pipeline: '1e10' is not an integer" \
    --gpu "$D/range.config" vecadd
map=$(grep -- '^-gpgpu_mem_addr_mapping ' $G | sed 's/dramid@[0-9]*;/dramid@4294967304;/; s/^-gpgpu_mem_addr_mapping //')
sim_cfg gpgpu_mem_addr_mapping "$map"
expect_error "dramid past 2^32" "option -gpgpu_mem_addr_mapping: expected dramid@N; with N a bit position below 41" \
    --gpu "$D/range.config" vecadd

# --options: the tables the readers use (name, type, default, range, help)
"$T" sim --options >"$D/options" || fail "--options exit status"
grep -q '^  -gpgpu_n_clusters  *int  *10  *\[1, 4096\]  *SM clusters' "$D/options" \
    || fail "--options lacks -gpgpu_n_clusters: $(head -3 "$D/options")"
grep -q '^  -gpgpu_l1_latency  *int  *1  *\[1, 100000\]' "$D/options" || fail "--options lacks -gpgpu_l1_latency"
[ "$(grep -c '^  -' "$D/options")" -ge 50 ] || fail "--options: fewer than 50 options"
# every option name a reader in sim/ or common/ asks for by name has a row
for name in $(grep -ohE '(trapeze_config_get_[a-z_]+|trapeze_config_has|get_pos|get_int|OPT|trapeze_opt_int(_or)?)\((cfg, )?("|[a-z_]+_options, ")[A-Za-z0-9_:]+"' \
        sim/*/*.c sim/*.c common/*.c | sed 's/.*"\([^"]*\)"$/\1/' | sort -u); do
    grep -q -- "^  -$name " "$D/options" || fail "--options lacks -$name, which a reader asks for"
done

finish cli_sim
