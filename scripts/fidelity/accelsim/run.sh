#!/bin/bash
# run.sh GPU KERNELSLIST (GPU: gtx480, qv100, rtx3070, h100 or a100): Accel-Sim on a trace the
# way data/fidelity/README.md says: the GPU's run folder (setup.sh), the trace as is for
# the QV100 and otherwise on the copy whose header says the binary version of the opcode
# map the GPU's runs use (made by speed.sh: 60 for the GTX 480, 86 for the RTX 3070, 80
# for the A100 and the H100, whose h100-test Accel-Sim has no Hopper map), the GTX 480's power model
# off, the others without launch latency, the H100 with consecutive memory partition
# indexing (data/fidelity/h100-run.config says why). ACCELSIM_DIR: setup.sh's DIR (default
# build/accelsim).
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DIR=${ACCELSIM_DIR:-$ROOT/build/accelsim}
A=$DIR/accel-sim-framework
gpu=$1; tr=$2
export LD_LIBRARY_PATH=$A/gpu-simulator/gpgpu-sim/lib/gcc-$(gcc -dumpfullversion)/cuda-13000/release
ver=$("$(dirname "$0")/speed.sh" --version "$gpu")
[ -n "$ver" ] && tr=$DIR/run/v$ver/$(basename "$(dirname "$tr")")/kernelslist.g
if [ "$gpu" = gtx480 ]; then
    extra="-power_simulation_enabled 0"
else
    extra="-gpgpu_kernel_launch_latency 0"
fi
[ "$gpu" = h100 ] && extra="$extra -gpgpu_memory_partition_indexing 0"
cd "$DIR/run/$gpu" && exec "$A/gpu-simulator/bin/release/accel-sim.out" -trace "$tr" \
    -config gpgpusim.config -config trace.config $extra
