#!/bin/bash
# The long soak (issue: reliability): `bench --soak` with 10,000 frames per phase (faces with
# tracking; hands in video mode with tracking and smoothing; hands in live stream with drops), on
# the default release build. Prints the table docs/reliability.md quotes; `--json` for the raw figures.
# Usage: Benchmarks/soak.sh [--frames N] [--threads N] [--json]
set -euo pipefail
cd "$(dirname "$0")/.."
grep -o -m1 -E 'avx512f|avx2' /proc/cpuinfo | sed 's/^/soak: host ISA flag: /' >&2 || echo "soak: host has neither AVX2 nor AVX-512" >&2
swift build -c release --product bench 1>&2
bin=$(swift build -c release --show-bin-path)
frames=10000
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
exec "$bin/bench" --soak --frames "$frames" "${args[@]}"
