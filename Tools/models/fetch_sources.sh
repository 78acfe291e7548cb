#!/usr/bin/env bash
# Re-creates Models/sources/*.tflite from the MediaPipe 0.10.21 wheel on PyPI and checks them
# against Models/sources/SHA256SUMS. face_landmarker.task is not in the wheel; it is kept in the
# repo as published by MediaPipe (see Models/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pip download --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_28_x86_64 \
  -d "$tmp" mediapipe==0.10.21 >&2
wheel=$(ls "$tmp"/mediapipe-0.10.21-*.whl)
echo "wheel: $(basename "$wheel") sha256 $(sha256sum "$wheel" | cut -d' ' -f1)" >&2
unzip -q -o "$wheel" 'mediapipe/modules/*.tflite' -d "$tmp/x"
for f in face_detection/face_detection_short_range.tflite face_detection/face_detection_full_range_sparse.tflite \
         face_landmark/face_landmark.tflite palm_detection/palm_detection_full.tflite \
         palm_detection/palm_detection_lite.tflite hand_landmark/hand_landmark_full.tflite \
         hand_landmark/hand_landmark_lite.tflite; do
  cp "$tmp/x/mediapipe/modules/$f" Models/sources/
done
(cd Models/sources && sha256sum -c SHA256SUMS)
