#!/bin/sh
# Installs the Debian packages Trapeze needs, only those missing.
# Usage: scripts/install-deps.sh [build|notebooks|python|mpi|fuzz|all]...   (default: build)
# Several groups are installed together, with one apt-get update (CI asks
# for all and fuzz at once). Called by the Makefile before the first build;
# safe to run again.
set -eu

build_pkgs="build-essential pkg-config libgsl-dev libnlopt-dev libcsv-dev libinih-dev libmetis-dev liblzma-dev xz-utils"
# python: building, installing and testing the Python package offline (pip
# with Debian's setuptools and wheel, a venv; make python-wheel)
python_pkgs="python3-pandas python3-numpy python3-pip python3-setuptools python3-wheel python3-venv"
notebook_pkgs="jupyter-nbconvert python3-nbconvert python3-ipykernel python3-matplotlib python3-pytest $python_pkgs"
mpi_pkgs="libopenmpi-dev openmpi-bin"
fuzz_pkgs="clang libclang-rt-14-dev"   # libFuzzer and the sanitizers' runtimes (make fuzz)

want=""
for group in "${@:-build}"; do
    case $group in
    build) want="$want $build_pkgs" ;;
    notebooks) want="$want $notebook_pkgs" ;;
    python) want="$want $python_pkgs" ;;
    mpi) want="$want $mpi_pkgs" ;;
    fuzz) want="$want $fuzz_pkgs" ;;
    all) want="$want $build_pkgs $notebook_pkgs $mpi_pkgs" ;;
    *) echo "usage: $0 [build|notebooks|python|mpi|fuzz|all]..." >&2; exit 2 ;;
    esac
done

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: need root to install:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null || true
$SUDO apt-get install -y -q --no-install-recommends $missing >/dev/null
