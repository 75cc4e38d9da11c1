#!/bin/sh
# MPI and the build: the Makefile decides -DTRAPEZE_MPI when it reads
# itself, so it records the decision in BUILD/config.stamp, rewritten only
# when it changes, and cli/calib_mpi.o and the program depend on it. In a
# scratch build folder (the program's objects and library copied, so only
# what MPI touches is compiled): built without MPI, then again unchanged
# (nothing rebuilt), then with OpenMPI where it is installed (calib_mpi.o
# and the program rebuilt, linked with libmpi). A program without MPI
# started as one of several ranks refuses with one message and exit 1,
# leaving no log (each rank would otherwise run every sample, racing the
# others for it); as a single rank it runs. Where OpenMPI is installed, the
# MPI tests fail on a program without it instead of skipping.
# Usage: sh tests/cli_mpi_build.sh build/trapeze
. "$(dirname "$0")/lib/cli.sh"
B=$(dirname "$T")
S="$D/b"
mkdir -p "$S/obj/cli"
cp -p "$B"/obj/cli/*.o "$S/obj/cli/"
cp -p "$B/libtrapeze.a" "$S/"
san=0
case "$B" in *build-san*) san=1 ;; esac
# -o: the copied library counts as up to date (its objects are not in $S)
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory B="$S" SAN=$san -o "$S/libtrapeze.a" "$@" "$S/trapeze" 2>&1; }

mk MPI_OK=0 >"$D/make1" || fail "build without MPI: $(tail -3 "$D/make1")"
grep -qx 'mpi=0 cflags= libs=' "$S/config.stamp" || fail "stamp without MPI: $(cat "$S/config.stamp")"
grep -q 'calib_mpi.c' "$D/make1" || fail "calib_mpi.o (built with MPI) not rebuilt without it"
grep -q 'TRAPEZE_MPI' "$D/make1" && fail "-DTRAPEZE_MPI given without MPI"
ldd "$S/trapeze" | grep -q libmpi && fail "program without MPI links libmpi"
mk MPI_OK=0 >"$D/make2" || fail "second build: $(tail -3 "$D/make2")"
grep -q 'calib_mpi\|-o .*/trapeze' "$D/make2" && fail "unchanged configuration rebuilt: $(cat "$D/make2")"

# a program without MPI, started as one of several ranks: one message, exit 1
X="$S/trapeze"
for env in "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0" "PMI_SIZE=4 PMI_RANK=0" "PMIX_RANK=0 PMIX_SIZE=2"; do
    expect_failure "$env" "built without MPI" "$D/r.csv" \
        env $env "$X" calibrate --gpu gtx480 --samples "$D/r.csv" --out "$D/r.ini" hotspot
    [ -s "$D/stdout" ] && fail "$env: printed on stdout"
done
# another rank than the first stops quietly, exit 1 (rank 0 says why)
env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$X" calibrate --gpu gtx480 \
    --samples "$D/r.csv" --out "$D/r.ini" hotspot >"$D/out" 2>&1
[ $? -eq 1 ] || fail "rank 1: exit status not 1"
[ -s "$D/out" ] && fail "rank 1 printed: $(cat "$D/out")"
[ -e "$D/r.csv" ] && fail "rank 1 wrote the log"
# one rank is a plain run (the shipped samples: nothing simulated)
cp data/calibrations/gtx480-samples.csv "$D/one.csv"
OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 "$X" calibrate --gpu gtx480 --samples "$D/one.csv" \
    --out "$D/one.ini" >"$D/out" 2>&1 || fail "one rank refused: $(tail -2 "$D/out")"
grep -q '^gpu = gtx480$' "$D/one.ini" || fail "one rank: no calibration written"

# the real thing: mpirun -n 2 over the program without MPI is refused, no log
if command -v mpirun >/dev/null 2>&1; then
    (T="$X"; mpirun2 calibrate --gpu gtx480 --samples "$D/m.csv" --out "$D/m.ini" hotspot) \
        >"$D/out" 2>&1 && fail "mpirun -n 2 over a program without MPI: exit status 0"
    grep -q "one of 2 MPI ranks, but this program was built without MPI" "$D/out" \
        || fail "mpirun -n 2: $(head -3 "$D/out")"
    [ -e "$D/m.csv" ] || [ -e "$D/m.ini" ] && fail "mpirun -n 2: a log or calibration written"
    # and the MPI tests count that program as a failure, not a skip
    [ "$(T="$X"; fails=0; mpi_usable >/dev/null; echo "$fails")" = 1 ] \
        || fail "mpi_usable skips a program built without MPI where OpenMPI is installed"
fi

if pkg-config --exists ompi-c 2>/dev/null; then
    mk MPI_OK=1 >"$D/make3" || fail "build with MPI: $(tail -3 "$D/make3")"
    grep -q '^mpi=1 ' "$S/config.stamp" || fail "stamp with MPI: $(cat "$S/config.stamp")"
    grep -q 'TRAPEZE_MPI.*calib_mpi.c' "$D/make3" || fail "calib_mpi.o not rebuilt with MPI"
    ldd "$S/trapeze" | grep -q libmpi || fail "program with MPI does not link libmpi"
fi
finish cli_mpi_build
