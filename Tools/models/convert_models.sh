#!/usr/bin/env bash
# Re-converts Models/bkm/*.bkm from Models/sources with blaze-model (deterministic: the bytes
# equal the committed files, which BundledModelFilesTests checks on every `make test`).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product blaze-model 1>&2
bin="$(swift build -c release --show-bin-path)/blaze-model"
for stem in face_detection_short_range face_detection_full_range_sparse palm_detection_full \
            palm_detection_lite hand_landmark_full hand_landmark_lite gesture_embedder canned_gesture_classifier; do
  "$bin" convert "Models/sources/$stem.tflite" -o "Models/bkm/$stem.bkm"
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" convert Models/sources/face_landmarker.task --output-dir "$tmp"
# face_detector.tflite inside the bundle is the short-range net, not shipped twice (Models/README.md).
cp "$tmp/face_landmarks_detector.bkm" "$tmp/face_blendshapes.bkm" Models/bkm/
(cd Models/bkm && sha256sum *.bkm)
