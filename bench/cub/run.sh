#!/usr/bin/env bash
# run.sh builds the CUB/Thrust sort baseline into OUTDIR and runs it with the
# remaining arguments (see baseline.cu for its flags: -n, -dist, -method, -runs, -seed).
#
#   bash bench/cub/run.sh OUTDIR [-n N]... [-dist D]... [-method RE] [-runs R] [-seed S]
#
# The CSV goes to stdout and to OUTDIR/cub.csv; progress and the CSV's path go
# to stderr. The exit status is non-zero if the build fails or any result is wrong.
set -euo pipefail

if [ $# -lt 1 ]; then
	echo "usage: $0 OUTDIR [baseline flags...]" >&2
	exit 2
fi
out=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

nvcc=${NVCC:-nvcc}
if ! command -v "$nvcc" >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
	nvcc=/usr/local/cuda/bin/nvcc
fi

mkdir -p "$out"
echo "building $out/baseline" >&2
"$nvcc" -O3 -std=c++17 -arch=sm_90 -lpthread -I"$here" -o "$out/baseline" "$here/baseline.cu"
"$out/baseline" "$@" | tee "$out/cub.csv"
echo "CSV written to $out/cub.csv" >&2
