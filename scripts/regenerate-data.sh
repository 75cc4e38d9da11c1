#!/bin/sh
# Regenerates every shipped calibration and validation file in data/ (the
# ghost-zone model's, and the sleep-threshold and grouping validations) on the
# current simulator, one step at a time, with a progress
# line per step and its wall time, and records in data/PROVENANCE.csv (and in
# each calibration's [meta]) the simulator each file was made on, so that a
# stale file shows (--check). The simulator is identified by what it computes,
# not by its commit: a fingerprint per GPU hashes every counter of short runs of
# the four benchmark workloads (both sync modes) and three built-in kernels on
# that GPU (a few seconds) and its config's text, so a commit that leaves a
# GPU's results alone (a faster hot path, an option its config does not set, a
# change to another GPU) keeps that GPU's data current.
#
# Usage: scripts/regenerate-data.sh [--list | --check | STEP...]
#   no STEP: every step, in the order below (cheap and important first)
#   --list:  the steps, what each runs and its measured cost
#   --fingerprint GPU: print the current simulator's fingerprint for GPU
#   --check: each file's recorded simulator against the current one
#            (seconds "incomplete": the step was interrupted; run it again;
#            "N+": it was resumed after an interruption, N seconds being the
#            last run's alone; a log resumed after a finished run adds its time), and
#            every file a step writes that is missing or has no provenance row
# Environment: TRAPEZE (build/trapeze), THREADS (2), SIZES (1,16,100: the area
# factors of the size sweeps; V100_SIZES, A100_SIZES, H100_SIZES for those GPUs,
# same default), DATA
# (data: where the files are).
#
# Resumable: a samples or sweep log made on the current simulator (the same
# fingerprint) is kept and resumed (the runs already in it are not simulated again); one made
# on another commit, or of unknown provenance, is removed first. So an
# interrupted regeneration is finished by running the same command again.
set -eu
cd "$(dirname "$0")/.."
T=${TRAPEZE:-build/trapeze}
THREADS=${THREADS:-2}
SIZES=${SIZES:-1,16,100}
V100_SIZES=${V100_SIZES:-$SIZES}
A100_SIZES=${A100_SIZES:-$SIZES}
H100_SIZES=${H100_SIZES:-$SIZES}
DATA=${DATA:-data}   # tests point it elsewhere
PROV=$DATA/PROVENANCE.csv
CAL=$DATA/calibrations
VAL=$DATA/validation
# the size sweeps in three groups, cheapest and most read first: the 2-D
# benchmarks (the README's figures), the stencils no calibration sees, and
# PathFinder and Cell (many heights; 3-D at 100x)
MAIN="hotspot poisson"
UNSEEN="box9 star7 multi1d"
OTHERS="pathfinder cell"

# The commit of the simulator (sim/, the GPU configs and what places and
# times the runs), kept beside the fingerprint for people reading the file.
SIM_PATHS="sim data/gpus sampler/ghostzone/plan.c sampler/run.c sampler/ghostzone/sample_run.c"
sim_commit() {
    c=$(git log -1 --format=%h -- $SIM_PATHS 2>/dev/null || echo unknown)
    [ -z "$(git status --porcelain -- $SIM_PATHS 2>/dev/null)" ] || c="$c+dirty"
    echo "$c"
}
# What the simulator computes for one GPU: every column but the wall time (the
# last) of short runs on it, and its config's text. The sampling
# plan is not hashed: a resumed log whose rows the plan no longer makes is
# refused by calibrate and validate themselves (a row that does not match
# the planned sample of its id), and hashing its source staled the data on
# an error message's wording.
# Two fingerprints per GPU, by what the files read. The ghost-zone files
# (calibration samples, sweeps: "gz-") record per run only its cycles, warp
# instructions and shared-memory bank conflicts, so theirs hashes those
# columns of the four benchmark workloads (both sync modes) and the
# calibration's micro-benchmarks (fencebar, copy, chase, fma, empty); a
# change to counters they never read (an L1 access count, an energy event)
# leaves them current. The sleep and grouping files read every counter:
# theirs ("fp-") hashes every column (but the wall time, the last) of the
# workloads and three built-in kernels.
GZ_COLUMNS="kernel cycles warp_instructions launch launch_cycles blocks thread_instructions shared_loads shared_stores shmem_passes"
fingerprint() { # GPU [gz]: its short runs and its config
    [ -x "$T" ] || { echo "regenerate-data.sh: $T not built (make)" >&2; exit 1; }
    fp_dir=$(mktemp -d)
    g=$1 kind=${2:-fp}
    {
        for w in "hotspot --size 256x256" "poisson --size 256x256" "pathfinder --size 20000" \
                 "cell --size 16x16x16"; do
            for s in relaunch fence; do
                # shellcheck disable=SC2086 # $w is a workload and its size
                "$T" sim --gpu $g --workload $w --h 2 --sync $s --iterations 4 \
                    --csv "$fp_dir/o.csv" --quiet || { rm -rf "$fp_dir"; exit 1; }
                fp_columns "$kind" "$fp_dir/o.csv"
            done
        done
        if [ "$kind" = gz ]; then set -- fencebar copy chase fma empty
        else set -- "jacobi nx=256 ny=256" "strided stride=8 n=65536" "matmul n=64"; fi
        for k in "$@"; do
            # shellcheck disable=SC2086 # $k is a kernel and its parameters
            "$T" sim --gpu $g $k --csv "$fp_dir/o.csv" --quiet || { rm -rf "$fp_dir"; exit 1; }
            fp_columns "$kind" "$fp_dir/o.csv"
        done
    } >"$fp_dir/all"
    gpu_text "$g" >>"$fp_dir/all"
    echo "$kind-$(sha256sum "$fp_dir/all" | cut -c1-12)"
    rm -rf "$fp_dir"
}
# A preset's text: its .config file, or a folder's config files (Accel-Sim's,
# Trapeze's own, the interconnect's) by name; the PROVENANCE note says only
# where they came from, and is left out
gpu_text() {
    if [ -d "data/gpus/$1" ]; then
        for f in "data/gpus/$1"/*; do
            [ "$(basename "$f")" = PROVENANCE ] && continue
            echo "== $(basename "$f")"
            cat "$f"
        done
    else
        cat "data/gpus/$1.config"
    fi
}
fp_columns() { # kind csv: the columns that kind hashes
    if [ "$1" = gz ]; then
        awk -F, -v want="$GZ_COLUMNS" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++)
                 for (j = 1; j <= n; j++) if ($i == w[j]) keep[i] = 1 }
             { line = ""; for (i = 1; i <= NF; i++) if (i in keep) line = line "," $i; print line }' "$2"
    else
        sed 's/,[^,]*$//' "$2"
    fi
}
# which fingerprint a data file is judged by: the sleep and grouping files
# every counter's, the ghost-zone files theirs
kind_of() { case $(basename "$1") in sleep-* | group-* | *-group.ini) echo fp ;; *) echo gz ;; esac; }

# The GPU a data file belongs to: its name's first word (gtx480-sizes-main.csv,
# v100.ini), after the model's (sleep-v100.csv, group-gtx480-samples.csv).
gpu_of() { basename "$1" | sed 's/^sleep-//; s/^group-//; s/^heldout-//; s/[-.].*//'; }

recorded() { # recorded simulator fingerprint of file $1 ("" when none)
    [ -f "$PROV" ] && awk -F, -v f="$1" '$1 == f { c = $2 } END { print c }' "$PROV" || echo ""
}

record() { # file command seconds: one row per file, sorted by file
    row=$(printf '%s,%s,%s,%s,%s,%s,"%s"' "$1" "$SIM" "$SIM_COMMIT" "$(git rev-parse --short HEAD)" \
        "$3" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$2")
    { echo "file,simulator,simulator_commit,head_commit,seconds,finished_utc,command"
      { [ -f "$PROV" ] && awk -F, -v f="$1" 'NR > 1 && $1 != f' "$PROV"; echo "$row"; } | sort -t, -k1,1
    } >"$PROV.tmp"
    mv "$PROV.tmp" "$PROV"
}

# Why the checkout too: a model change refits from the same simulations, and
# must not be skipped; a second run on the same checkout has nothing to redo.
step_done() { # command, files: every file there, made complete by this simulator, checkout and command
    cmd=$1
    head=$(git rev-parse --short HEAD)
    shift
    for f in "$@"; do
        [ -f "$f" ] && [ -f "$PROV" ] || return 1
        awk -F, -v f="$f" -v s="$SIM" -v h="$head" -v c="\"$cmd\"" \
            '$1 == f && $2 == s && $4 == h && $5 != "incomplete" && substr($0, index($0, ",\"")+1) == c { ok = 1 }
             END { exit !ok }' "$PROV" || return 1
    done
}

fresh_log() { # keep a log made on this simulator (resume), else start it anew
    if [ -f "$1" ] && [ "$(recorded "$1")" != "$SIM" ]; then
        echo "  $1: made on simulator $(recorded "$1" | sed 's/^$/(unknown)/'), now $SIM: removed" >&2
        rm -f "$1"
    fi
}

stamp_calibration() { # the simulator in the calibration's [meta]
    sed -i "/^simulator_commit = /d; /^simulator = /d; /^\[meta\]/a simulator = $SIM" "$1"
}

STEP_N=0
STEP_TOTAL=0
# the command as a shell would take it back: words with a space in single
# quotes (not double: the provenance CSV quotes the command with those)
shell_words() {
    out=
    for w in "$@"; do
        case $w in *' '*) out="$out '$w'" ;; *) out="$out $w" ;; esac
    done
    echo "${out# }"
}
run_step() { # name, then the files it writes (first: the log it resumes), then -- command
    name=$1
    shift
    files=""
    while [ "$1" != "--" ]; do files="$files $1"; shift; done
    shift
    STEP_N=$((STEP_N + 1))
    log=$(echo "$files" | awk '{ print $1 }')
    SIM=$(fingerprint "$(gpu_of "$log")" "$(kind_of "$log")")
    cmd=$(shell_words "$@")
    if step_done "$cmd" $files; then
        echo "[$STEP_N/$STEP_TOTAL] $name: already done on simulator $SIM (see $PROV)" >&2
        return 0
    fi
    fresh_log "$log"
    # A resumed log keeps its runs, so its cost is theirs plus this run's: a
    # finished earlier run's seconds are added; an interrupted one's are unknown,
    # and the seconds then say they are a lower bound ("N+"); a lower bound
    # recorded before is added and stays one (a rerun from a finished log
    # costs seconds: "2572+" must not become "0+").
    earlier=$(awk -F, -v f="$log" -v s="$SIM" '$1 == f && $2 == s { print $5 }' "$PROV" 2>/dev/null || true)
    # a step without a log (NO_LOG: the sleep validations, which write their
    # CSV whole) starts from nothing: its seconds are this run's alone
    [ -z "${NO_LOG:-}" ] || earlier=
    case $earlier in
        incomplete) resumed=+ earlier=0 ;;
        *+) resumed=+ earlier=${earlier%+}
            case $earlier in '' | *[!0-9]*) earlier=0 ;; esac ;;
        '' | *[!0-9]*) resumed= earlier=0 ;;
        *) resumed= ;;
    esac
    record "$log" "$cmd" incomplete
    start=$(date +%s)
    echo "[$STEP_N/$STEP_TOTAL] $name: started $(date -u +%H:%M:%S) UTC, simulator $SIM: $*" >&2
    "$@"
    secs=$(($(date +%s) - start + earlier))
    for f in $files; do
        case $f in *.ini) stamp_calibration "$f" ;; esac
        record "$f" "$cmd" "$secs$resumed"
    done
    echo "[$STEP_N/$STEP_TOTAL] $name: done in ${secs} s" >&2
}

# One function per step: name, files, command.
# the ghost-zone calibration of one GPU (its samples log and the .ini), then
# any options: --tall-rows adds PathFinder's tall rows, which the validated
# GPUs' fits rely on (docs/calibration.md, "PathFinder's tall rows")
cal_step() {
    g=$1
    shift
    run_step "cal-$g" $CAL/$g-samples.csv $CAL/$g.ini -- \
        "$T" calibrate --gpu "$g" --threads "$THREADS" --samples $CAL/$g-samples.csv \
        --out $CAL/$g.ini "$@"
}
step_cal_gtx480() { cal_step gtx480 --tall-rows; }
step_cal_v100() { cal_step v100 --tall-rows; }
step_cal_a100() { cal_step a100 --tall-rows; }
step_cal_h100() { cal_step h100 --tall-rows; }
step_cal_gtx280() { cal_step gtx280; }
# size sweeps: GPU, group name, sizes, workloads
sizes() {
    g=$1 grp=$2 sz=$3
    shift 3
    run_step "sizes-$g-$grp ($sz)" $VAL/$g-sizes-$grp-sweep.csv $VAL/$g-sizes-$grp.csv \
        $VAL/$g-sizes-$grp-points.csv -- \
        "$T" validate --gpu "$g" --threads "$THREADS" --calibration $CAL/$g.ini \
        --sweep-stages 1 --sizes "$sz" --sweep-log $VAL/$g-sizes-$grp-sweep.csv \
        --csv $VAL/$g-sizes-$grp.csv --curve $VAL/$g-sizes-$grp-points.csv "$@"
}
# the reference sweep of the four benchmarks (every h, both modes, 2 stages)
reference() {
    g=$1
    run_step "reference-$g" $VAL/$g-sweep.csv $VAL/$g.csv $VAL/$g-curve.csv -- \
        "$T" validate --gpu "$g" --threads "$THREADS" --calibration $CAL/$g.ini \
        --samples $CAL/$g-samples.csv --sweep-log $VAL/$g-sweep.csv \
        --csv $VAL/$g.csv --curve $VAL/$g-curve.csv
}
# one group of a size sweep: GPU, group, sizes (default the GPU's SIZES, or
# V100_SIZES, A100_SIZES, H100_SIZES)
sizes_group() {
    case $2 in main) w=$MAIN ;; unseen) w=$UNSEEN ;; *) w=$OTHERS ;; esac
    z=${3:-$SIZES}
    case $1 in v100) z=${3:-$V100_SIZES} ;; a100) z=${3:-$A100_SIZES} ;; h100) z=${3:-$H100_SIZES} ;; esac
    # shellcheck disable=SC2086 # $w is the group's workloads
    sizes "$1" "$2" "$z" $w
}
all_groups() { for grp_ in main unseen others; do sizes_group "$1" "$grp_" ${2:-}; done; }
step_sizes_gtx480_small() { all_groups gtx480 1,16; }
step_sizes_gtx480() { all_groups gtx480; }
step_sizes_v100_small() { all_groups v100 1,16; }
step_sizes_v100() { all_groups v100; }
# one group alone (sizes-v100-unseen: the V100's unseen stencils at 1x, 16x, 100x)
step_sizes_gtx480_main() { sizes_group gtx480 main; }
step_sizes_gtx480_unseen() { sizes_group gtx480 unseen; }
step_sizes_gtx480_others() { sizes_group gtx480 others; }
step_sizes_v100_main() { sizes_group v100 main; }
step_sizes_v100_unseen() { sizes_group v100 unseen; }
step_sizes_v100_others() { sizes_group v100 others; }
step_sizes_a100_small() { all_groups a100 1,16; }
step_sizes_a100() { all_groups a100; }
step_sizes_a100_main() { sizes_group a100 main; }
step_sizes_a100_unseen() { sizes_group a100 unseen; }
step_sizes_a100_others() { sizes_group a100 others; }
step_sizes_h100_small() { all_groups h100 1,16; }
step_sizes_h100() { all_groups h100; }
step_sizes_h100_main() { sizes_group h100 main; }
step_sizes_h100_unseen() { sizes_group h100 unseen; }
step_sizes_h100_others() { sizes_group h100 others; }
# the sleep-threshold and grouping validations (docs/sleep.md, docs/grouping.md);
# the sleep ones read the seed power profile, data/power/GPU-seed.ini (zero
# transition energies, as the seeds' tables), which the fingerprint does not hash
sleep_val() { # GPU, then "spread" for the spread sample (--no-jump)
    g=$1 j=${2:+-spread}
    NO_LOG=1
    run_step "sleep-$g$j" $VAL/sleep-$g$j.csv -- \
        "$T" validate --model sleep --gpu "$g" --power "$g-seed" --threads "$THREADS" \
        ${2:+--no-jump} --csv $VAL/sleep-$g$j.csv
    NO_LOG=
}
# the circuit-model profile (data/power/GPU.ini, the default) on the same jobs
sleep_circuit() { # GPU
    NO_LOG=1
    run_step "sleep-$1-circuit" $VAL/sleep-$1-circuit.csv -- \
        "$T" validate --model sleep --gpu "$1" --threads "$THREADS" \
        --csv $VAL/sleep-$1-circuit.csv
    NO_LOG=
}
# held-out jobs, never used to choose a constant: GPU, profile (circuit or
# seed), then the jobs
sleep_heldout() {
    g=$1 p=$2
    shift 2
    pw=$g
    [ "$p" = seed ] && pw=$g-seed
    NO_LOG=1
    run_step "sleep-$g-heldout-$p" $VAL/sleep-$g-heldout-$p.csv -- \
        "$T" validate --model sleep --gpu "$g" --power "$pw" --threads "$THREADS" "$@" \
        --csv $VAL/sleep-$g-heldout-$p.csv
    NO_LOG=
}
# (the environment may name fewer: the command recorded says which)
HELDOUT_GTX480=${HELDOUT_GTX480:-"copy|strided stride=32|bicg n=1024|mvt n=1024|matmul_tiled n=256|jacobi nx=2048 ny=2048|kmeans|syr2k n=64|bicg n=512|mvt n=512"}
HELDOUT_V100=${HELDOUT_V100:-"matmul_tiled n=256|jacobi nx=2048 ny=2048|kmeans|syr2k n=64|bicg n=512|mvt n=512"}
heldout() { # GPU, profile: the GPU's held-out list split on '|'
    eval "list=\$HELDOUT_$(echo "$1" | tr a-z A-Z)"
    old_ifs=$IFS
    IFS='|'
    # shellcheck disable=SC2086 # split on '|' into one argument per job
    set -- "$1" "$2" $list
    IFS=$old_ifs
    sleep_heldout "$@"
}
group_val() { # GPU
    run_step "group-$1" $VAL/group-$1-samples.csv $VAL/group-$1.csv -- \
        "$T" validate --model group --gpu "$1" --threads "$THREADS" \
        --samples $VAL/group-$1-samples.csv --csv $VAL/group-$1.csv
}
step_sleep_gtx480() { sleep_val gtx480; }
step_sleep_v100() { sleep_val v100; }
step_sleep_spread_gtx480() { sleep_val gtx480 spread; }
step_sleep_spread_v100() { sleep_val v100 spread; }
step_sleep_circuit_gtx480() { sleep_circuit gtx480; }
step_sleep_circuit_v100() { sleep_circuit v100; }
step_sleep_heldout_gtx480() { heldout gtx480 circuit; }
step_sleep_heldout_v100() { heldout v100 circuit; }
step_sleep_heldout_seed_gtx480() { heldout gtx480 seed; }
step_sleep_heldout_seed_v100() { heldout v100 seed; }
# the default sample at sizes users run (the stencils jump there)
step_sleep_usersize_gtx480() {
    NO_LOG=1
    run_step "sleep-usersize-gtx480" $VAL/sleep-gtx480-usersize.csv -- \
        "$T" validate --model sleep --gpu gtx480 --power gtx480-seed --threads "$THREADS" \
        "poisson size=1024x1024 iters=16 sync=relaunch h=2" \
        "pathfinder size=1000000 iters=16 sync=relaunch h=2" \
        --csv $VAL/sleep-gtx480-usersize.csv
    NO_LOG=
}
# the GPU's grouping calibration (trapeze group --no-sim, traces): fitted to
# the sub-grids of the grouping validation's log, which holds every sample
group_cal() { # GPU
    run_step "group-cal-$1" $CAL/$1-group.ini -- \
        "$T" calibrate --model group --gpu "$1" --threads "$THREADS" \
        --samples $VAL/group-$1-samples.csv --out $CAL/$1-group.ini
}
# the held-out launches (data/validation/group-heldout-launches.txt): built-in
# kernels at other sizes and generated traces, beside the 12 (their rows from
# the validation's log, copied into the held-out log when it is first made)
group_heldout() { # GPU
    run_step "group-heldout-$1" $VAL/group-heldout-$1-samples.csv $VAL/group-heldout-$1.csv -- \
        sh scripts/group-heldout.sh "$1" "$THREADS"
}
step_group_gtx480() { group_val gtx480; }
step_group_v100() { group_val v100; }
step_group_cal_gtx480() { group_cal gtx480; }
step_group_cal_v100() { group_cal v100; }
step_group_heldout_gtx480() { group_heldout gtx480; }
step_group_heldout_v100() { group_heldout v100; }
step_reference_gtx480() { reference gtx480; }
step_reference_v100() { reference v100; }
step_reference_gtx280() { reference gtx280; }
step_reference_a100() { reference a100; }
step_reference_h100() { reference h100; }

# cheap and important first: the GTX 480 calibration and its 1x/16x sweeps,
# the V100's, then 100x (the costliest), the GTX 280, the reference sweeps;
# the A100's and H100's (108 and 132 SMs: the costliest per step) after them
ALL="cal_gtx480 sizes_gtx480_small cal_v100 sizes_v100_small sizes_gtx480 sizes_v100 \
cal_gtx280 reference_gtx480 reference_v100 reference_gtx280 \
cal_a100 reference_a100 cal_h100 reference_h100 sizes_a100_small sizes_h100_small \
sizes_a100 sizes_h100 group_gtx480 group_v100 \
group_cal_gtx480 group_cal_v100 group_heldout_gtx480 group_heldout_v100 \
sleep_gtx480 sleep_v100 sleep_spread_gtx480 sleep_spread_v100 sleep_usersize_gtx480 \
sleep_circuit_gtx480 sleep_circuit_v100 sleep_heldout_gtx480 sleep_heldout_v100 \
sleep_heldout_seed_gtx480 sleep_heldout_seed_v100"

all_outputs() {
    for g in gtx480 v100 gtx280 a100 h100; do
        echo "$CAL/$g.ini $CAL/$g-samples.csv $VAL/$g.csv $VAL/$g-curve.csv $VAL/$g-sweep.csv"
    done
    for g in gtx480 v100 a100 h100; do for grp in main unseen others; do
        echo "$VAL/$g-sizes-$grp.csv $VAL/$g-sizes-$grp-points.csv $VAL/$g-sizes-$grp-sweep.csv"
    done; done
    for g in gtx480 v100; do
        echo "$VAL/group-$g-samples.csv $VAL/group-$g.csv $VAL/sleep-$g.csv $VAL/sleep-$g-spread.csv"
        echo "$VAL/sleep-$g-circuit.csv $VAL/sleep-$g-heldout-circuit.csv $VAL/sleep-$g-heldout-seed.csv"
        echo "$VAL/group-heldout-$g-samples.csv $VAL/group-heldout-$g.csv"
    done
    echo "$VAL/sleep-gtx480-usersize.csv"
}

case ${1:-} in
--fingerprint)
    [ -n "${2:-}" ] || { echo "regenerate-data.sh: --fingerprint GPU [gz] (gtx480, v100, gtx280, a100, h100)" >&2; exit 2; }
    fingerprint "$2" "${3:-}"
    exit 0 ;;
--list)
    for s in $ALL; do echo "$s"; done
    echo "measured wall times: data/PROVENANCE.csv (seconds column)"
    exit 0 ;;
--check)
    for g in gtx480 v100 gtx280 a100 h100; do
        eval "FP_$g=\$(fingerprint $g)"
        eval "GZ_$g=\$(fingerprint $g gz)"
    done
    stale=0
    # every file a step writes: without a PROVENANCE row it predates this script
    for f in $(all_outputs); do
        if [ ! -f "$f" ]; then echo "MISSING  $f"; stale=1
        elif [ -z "$(recorded "$f")" ]; then echo "UNKNOWN  $f (no provenance: made before this script)"; stale=1; fi
    done
    [ -f "$PROV" ] || exit 1
    for f in $(awk -F, 'NR > 1 { print $1 }' "$PROV"); do
        c=$(recorded "$f")
        case $(kind_of "$f") in gz) k=GZ ;; *) k=FP ;; esac
        eval "SIM=\${${k}_$(gpu_of "$f"):-}"
        inc=$(awk -F, -v f="$f" '$1 == f && $5 == "incomplete" { print " INCOMPLETE" }' "$PROV")
        if [ "$c" = "$SIM" ]; then echo "current  $f ($c)$inc"; else echo "STALE    $f (made on $c, simulator now $SIM)$inc"; stale=1; fi
    done
    exit $stale ;;
-h|--help)
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
esac

STEPS=${*:-$ALL}
[ -x "$T" ] || { echo "regenerate-data.sh: $T not built (make)" >&2; exit 1; }
SIM_COMMIT=$(sim_commit)
for s in $STEPS; do
    s=$(echo "$s" | tr - _)
    command -v "step_$s" >/dev/null 2>&1 || { echo "regenerate-data.sh: no step '$s' (--list)" >&2; exit 2; }
    case $s in sizes_*_main | sizes_*_unseen | sizes_*_others) STEP_TOTAL=$((STEP_TOTAL + 1)) ;;
        sizes_*) STEP_TOTAL=$((STEP_TOTAL + 3)) ;; *) STEP_TOTAL=$((STEP_TOTAL + 1)) ;; esac
done
for s in $STEPS; do "step_$(echo "$s" | tr - _)"; done
echo "regenerate-data.sh: finished" >&2
