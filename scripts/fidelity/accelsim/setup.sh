#!/bin/bash
# setup.sh [DIR]: builds the Accel-Sim that data/fidelity/accelsim-reference.csv and
# docs/fidelity.md's speed figures come from, into DIR (default build/accelsim), and makes
# its run folders. Needs git, network access to GitHub (or local mirrors: ACCELSIM_GIT and
# GPGPUSIM_GIT name the clone sources, e.g. bare git directories), CUDA (CUDA_INSTALL_PATH, default
# /usr/local/cuda; 13.0 used here) and Debian's bison flex xutils-dev zlib1g-dev. About
# 7 minutes with make -j2 on an idle two-core machine (31 on a loaded one).
#   accel-sim-framework 73f9fac (dev, 2024-10-08), gpgpu-sim_distribution 667834cf (dev,
#   2024-10-07, GPGPU-Sim 4.2.0), plus gpgpu-sim-cuda13.patch for CUDA 13 (the version
#   check, a stand-in for the removed struct textureReference, cudaDeviceProp::clockRate).
#   The H100's files come from the h100-test branches, which add only config files to
#   these commits (gpgpu-sim_distribution fa235ebc: SM90_H100's gpgpusim.config and
#   config_hopper_islip.icnt; accel-sim-framework c4d00b5: its trace.config), so the
#   one build runs all four GPUs.
# Run folders: DIR/run/gtx480 (SM2_GTX480's gpgpusim.config without its -gpuwattch_xml_file
# line, which GPGPU-Sim 4.2 refuses as an unknown option, config_fermi_islip.icnt and
# data/fidelity/gtx480.trace.config), DIR/run/qv100 (SM7_QV100's gpgpusim.config,
# config_volta_islip.icnt and trace.config), DIR/run/rtx3070 (SM86_RTX3070's, the same
# three), DIR/run/h100 (SM90_H100's, the same three) and DIR/run/a100 (the project's copies
# of SM80_A100's gpgpusim.config and trace.config; its -network_mode 2 names no .icnt file).
# Then, from the project's root:
#   scripts/compare-accelsim.sh --accelsim "scripts/fidelity/accelsim/speed.sh {gpu} {trace}"
# with ACCELSIM_DIR=DIR when DIR is not the default.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DIR=$(mkdir -p "${1:-$ROOT/build/accelsim}" && cd "${1:-$ROOT/build/accelsim}" && pwd)
A=$DIR/accel-sim-framework
if [ ! -d "$A/.git" ]; then
    git clone -q "${ACCELSIM_GIT:-https://github.com/accel-sim/accel-sim-framework.git}" "$A"
    git -C "$A" checkout -q 73f9fac
fi
G=$A/gpu-simulator/gpgpu-sim
if [ ! -d "$G/.git" ]; then
    git clone -q "${GPGPUSIM_GIT:-https://github.com/accel-sim/gpgpu-sim_distribution.git}" "$G"
    git -C "$G" checkout -q 667834cf
    git -C "$G" apply "$ROOT/scripts/fidelity/accelsim/gpgpu-sim-cuda13.patch"
fi
mkdir -p "$A/gpu-simulator/extern/pybind11"   # setup_environment.sh would clone it; unused
export CUDA_INSTALL_PATH=${CUDA_INSTALL_PATH:-/usr/local/cuda}
export PATH=$CUDA_INSTALL_PATH/bin:$PATH
# "release" given explicitly: a sourced script sees this one's arguments, and
# setup_environment.sh takes its first (DIR here) as the build configuration
(cd "$A" && set +u && source gpu-simulator/setup_environment.sh release && make -j2 -C gpu-simulator)
T=$G/configs/tested-cfgs
mkdir -p "$DIR/run/gtx480" "$DIR/run/qv100" "$DIR/run/rtx3070" "$DIR/run/h100" "$DIR/run/a100"
sed 's/^-gpuwattch_xml_file/# -gpuwattch_xml_file/' "$T/SM2_GTX480/gpgpusim.config" \
    > "$DIR/run/gtx480/gpgpusim.config"
cp "$T/SM2_GTX480/config_fermi_islip.icnt" "$DIR/run/gtx480/"
cp "$ROOT/data/fidelity/gtx480.trace.config" "$DIR/run/gtx480/trace.config"
cp "$T/SM7_QV100/gpgpusim.config" "$T/SM7_QV100/config_volta_islip.icnt" "$DIR/run/qv100/"
cp "$A/gpu-simulator/configs/tested-cfgs/SM7_QV100/trace.config" "$DIR/run/qv100/"
cp "$T/SM86_RTX3070/gpgpusim.config" "$T/SM86_RTX3070/config_ampere_islip.icnt" "$DIR/run/rtx3070/"
cp "$A/gpu-simulator/configs/tested-cfgs/SM86_RTX3070/trace.config" "$DIR/run/rtx3070/"
for f in gpgpusim.config config_hopper_islip.icnt; do
    git -C "$G" show "fa235ebcf932f82391bf8ccc9a0f69295fab6825:configs/tested-cfgs/SM90_H100/$f" \
        > "$DIR/run/h100/$f"
done
git -C "$A" show \
    c4d00b55463350d5e79119c673c4c58f21871d99:gpu-simulator/configs/tested-cfgs/SM90_H100/trace.config \
    > "$DIR/run/h100/trace.config"
# SM80_A100 is in neither pinned commit: the project's byte-for-byte copies
# (tests/configs/accelsim/SM80_A100/PROVENANCE: gpgpu-sim_distribution 9f767fb8, accel-sim-framework
# d907fc84), whose every option the pinned GPGPU-Sim registers
cp "$ROOT/tests/configs/accelsim/SM80_A100/gpgpusim.config" \
    "$ROOT/tests/configs/accelsim/SM80_A100/trace.config" "$DIR/run/a100/"
echo "Accel-Sim built in $DIR; run folders in $DIR/run"
