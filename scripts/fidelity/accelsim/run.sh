#!/bin/bash
# run.sh GPU KERNELSLIST (GPU: gtx480 or qv100): Accel-Sim on a trace the way
# data/fidelity/README.md says (the GTX 480 on the copy whose header says
# "-binary version = 60", made by speed.sh; its power model off; the V100 without
# launch latency). ACCELSIM_DIR: setup.sh's DIR (default build/accelsim).
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
DIR=${ACCELSIM_DIR:-$ROOT/build/accelsim}
A=$DIR/accel-sim-framework
gpu=$1; tr=$2
export LD_LIBRARY_PATH=$A/gpu-simulator/gpgpu-sim/lib/gcc-$(gcc -dumpfullversion)/cuda-13000/release
if [ "$gpu" = gtx480 ]; then
    tr=$DIR/run/v60/$(basename "$(dirname "$tr")")/kernelslist.g
    extra="-power_simulation_enabled 0"
else
    extra="-gpgpu_kernel_launch_latency 0"
fi
cd "$DIR/run/$gpu" && exec "$A/gpu-simulator/bin/release/accel-sim.out" -trace "$tr" \
    -config gpgpusim.config -config trace.config $extra
