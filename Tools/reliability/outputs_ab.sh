#!/usr/bin/env bash
# Tools/reliability/outputs_ab.sh BIN_DIR OUT_DIR: every output a refactor must keep bit for bit.
# Runs each bundled net (Models/bkm) on fixed random inputs (blaze-model run), and blaze faces
# (fast and accurate, --all), hands (4), gestures (2) on the test photos and faces --tracking /
# hands on the Y4M clip, at BLAZE_ISA avx512, avx2 and baseline (those this CPU has), with the
# binaries in BIN_DIR (e.g. .build/release of a `swift build -c release`); writes OUT_DIR.sha256.
# Compare two builds with `diff A.sha256 B.sha256`. Needs python3 with numpy (the inputs).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BIN_DIR OUT_DIR" >&2; exit 2; }
BIN=$(cd "$1" && pwd); OUT=$2; ROOT=$(cd "$(dirname "$0")/../.." && pwd)
IMGS=$ROOT/Tests/Fixtures/testdata/images
VIDEO=$ROOT/Tests/BlazeKitTests/Fixtures/faces/three_people_video.y4m
INPUTS=$OUT/inputs
mkdir -p "$INPUTS"
for m in "$ROOT"/Models/bkm/*.bkm; do
  n=$(basename "$m" .bkm)
  "$BIN/blaze-model" inspect "$m" --json > "$INPUTS/$n.json"
  python3 - "$INPUTS" "$n" <<'PY'
import json, sys, zlib
import numpy as np
folder, name = sys.argv[1], sys.argv[2]
info = json.load(open(f"{folder}/{name}.json"))
rng = np.random.default_rng(zlib.crc32(name.encode()))
for i, inp in enumerate(info["inputs"]):
    np.save(f"{folder}/{name}.{i}.npy", rng.uniform(-1, 1, size=inp["shape"]).astype(np.float32))
PY
done
supported=$("$BIN/blaze" --version | sed -n 's/.*supports: //p')
for level in avx512 avx2 baseline; do
  [[ ", $supported," == *", $level,"* ]] || continue
  dir=$OUT/$level; mkdir -p "$dir"
  for m in "$ROOT"/Models/bkm/*.bkm; do
    n=$(basename "$m" .bkm); args=()
    for f in "$INPUTS/$n".*.npy; do args+=(--input "$f"); done
    mkdir -p "$dir/$n"
    BLAZE_ISA=$level "$BIN/blaze-model" run "$m" "${args[@]}" --output-dir "$dir/$n" > /dev/null
  done
  BLAZE_ISA=$level "$BIN/blaze" faces --all --json "$IMGS"/* > "$dir/faces.json" 2> /dev/null
  BLAZE_ISA=$level "$BIN/blaze" faces --all --mode accurate --json "$IMGS"/* > "$dir/faces_accurate.json" 2> /dev/null
  BLAZE_ISA=$level "$BIN/blaze" hands --num-hands 4 --json "$IMGS"/* > "$dir/hands.json" 2> /dev/null
  BLAZE_ISA=$level "$BIN/blaze" gestures --num-hands 2 --json "$IMGS"/* > "$dir/gestures.json" 2> /dev/null
  BLAZE_ISA=$level "$BIN/blaze" faces --all --tracking --json --video "$VIDEO" > "$dir/faces_video.json" 2> /dev/null
  BLAZE_ISA=$level "$BIN/blaze" hands --num-hands 2 --json --video "$VIDEO" > "$dir/hands_video.json" 2> /dev/null
done
(cd "$OUT" && find . -path ./inputs -prune -o -type f -print | sort | xargs sha256sum) > "$OUT.sha256"
echo "$(wc -l < "$OUT.sha256") outputs hashed in $OUT.sha256"
