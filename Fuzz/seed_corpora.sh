#!/usr/bin/env bash
# Seeds Fuzz/Corpus/<target>/ from the repository's own test fixtures (small files only) and
# from the generated seeds (Fuzz/Seeds/Generated: small .bkm graphs and .npy arrays, committed;
# Fuzz/Seeds/generate.sh rewrites them). Run from anywhere; rerunning gives the same files.
# libFuzzer adds what it finds to these folders while it runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/Fuzz/Corpus"
mkdir -p "$corpus"/{fuzz-bkm,fuzz-tflite,fuzz-zip,fuzz-image,fuzz-y4m,fuzz-npy,fuzz-video}

# Images: the decoder fixtures (every JPEG/PNG/PNM variant), at most 64 KB each.
find "$root/Tests/BlazeImageIOTests/Fixtures"/{jpeg,png,pnm} -type f -size -64k -exec cp {} "$corpus/fuzz-image/" \;
# Zips: the archive fixtures, at most 64 KB each.
find "$root/Tests/BlazeConvertTests/Fixtures/zip" -name '*.zip' -size -64k -exec cp {} "$corpus/fuzz-zip/" \;
# ... and a bundle inside a bundle (the gesture bundle's shape).
cp "$root/Tests/BlazeConvertTests/Fixtures/gestures/nested_classifiers.task" "$corpus/fuzz-zip/"
# Y4M: two tiny streams (4:2:0 and mono), written here.
printf 'YUV4MPEG2 W4 H2 F30:1 C420jpeg\nFRAME\n' > "$corpus/fuzz-y4m/c420.y4m"
head -c 12 /dev/zero | tr '\0' '\200' >> "$corpus/fuzz-y4m/c420.y4m"
printf 'YUV4MPEG2 W2 H2 F25:1 Cmono XCOLORRANGE=FULL\nFRAME\n\001\002\003\004FRAME\n\005\006\007\010' > "$corpus/fuzz-y4m/mono.y4m"
# Video: the small committed clips (H.264/MP4, VP9/WebM, MPEG-4/Matroska, a rotated MP4, damaged files).
find "$root/Tests/BlazeVideoTests/Fixtures" -type f \( -name '*.mp4' -o -name '*.webm' -o -name '*.mkv' \) -size -64k -exec cp {} "$corpus/fuzz-video/" \;
# TFLite: the smallest bundled source model and the one-op fixtures (custom ops with their options among them).
cp "$root/Models/sources/face_detection_short_range.tflite" "$root"/Tests/BlazeConvertTests/Fixtures/ops/*.tflite "$corpus/fuzz-tflite/"
# .bkm and .npy: the committed generated seeds (no build here: CI would pay a whole library build).
for seeds in "$root"/Fuzz/Seeds/Generated/*/; do cp "$seeds"* "$corpus/$(basename "$seeds")/"; done
