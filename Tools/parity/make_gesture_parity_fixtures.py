#!/usr/bin/env python3
"""LiteRT parity fixtures for the three nets of a MediaPipe gesture-recognizer bundle.

Usage (from the repository root; the bundle path is an argument, nothing outside the repository
is read otherwise):

    pip install ai-edge-litert numpy
    python3 Tools/parity/make_gesture_parity_fixtures.py PATH/TO/operations.task

A gesture bundle (``.task``, a zip) holds ``hand_gesture_recognizer.task``, itself a zip of
``gesture_embedder.tflite``, ``canned_gesture_classifier.tflite`` and (Model Maker bundles)
``custom_gesture_classifier.tflite``. The three files are copied unmodified to
``Tests/BlazeConvertTests/Fixtures/gestures/models/``.

Per model and case LiteRT (``ai_edge_litert``, 1 thread) runs three ways, as in
``make_wheel_parity_fixtures.py``: the default resolver (XNNPACK) gives the reference outputs,
``BUILTIN_WITHOUT_DEFAULT_DELEGATES`` and ``BUILTIN_REF`` give ``spread`` per output, the
largest ``max|xnnpack - other| / max(1, max|xnnpack|)``.

Cases (inputs in model order):

* ``random``: every input from SplitMix64 (Tests/BlazeTestSupport/SeededRandom.swift's generator)
  with its own seed and range, element ``i`` = ``lo + (hi - lo) * ((next() >> 11) / 2**53)`` in
  float64 rounded to float32. The test regenerates them; they are not stored.
* ``hand_<i>``: the embedder fed hand ``i`` of MediaPipe Hands' committed reference for
  two_hands_open_palms (Tests/Fixtures/testdata/reference, complexity 1), prepared as MediaPipe's
  GestureRecognizer prepares it (LandmarksToMatrixCalculator: aspect-ratio scaling by the image
  size, rotation 0 about (0.5, 0.5), then the wrist moved to the origin and x, y, z divided by the
  larger of the x and y extents + 1e-5; handedness as P(right)). The world-landmark input gets the
  same object normalisation. Inputs are stored as ``.npy``.
* ``embedding_<i>``: each classifier fed the embedder's XNNPACK output of ``hand_<i>`` (stored).

Outputs go to ``<stem>/<case>/<name>.npy`` with ``manifest.json`` beside the models.
"""
import io
import json
import os
import sys
import zipfile

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "BlazeConvertTests", "Fixtures", "gestures")
REFERENCE = os.path.join(ROOT, "Tests", "Fixtures", "testdata", "reference", "two_hands_open_palms.hands_model_complexity_1.json")
MODELS = ["gesture_embedder", "canned_gesture_classifier", "custom_gesture_classifier"]
# (seed, lo, hi) per input of the random case.
RANDOM_INPUTS = {
    "gesture_embedder": [(101, -0.6, 0.6), (102, 0.0, 1.0), (103, -0.1, 0.1)],
    "canned_gesture_classifier": [(201, -3.0, 3.0)],
    "custom_gesture_classifier": [(301, -3.0, 3.0)],
}


def splitmix_uniform(seed, count, lo, hi):
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    u = (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return (lo + (hi - lo) * u).astype(np.float32)


def extract_models(bundle_path):
    with zipfile.ZipFile(bundle_path) as outer:
        inner = zipfile.ZipFile(io.BytesIO(outer.read("hand_gesture_recognizer.task")))
        return {m: inner.read(m + ".tflite") for m in MODELS}


def run(model_bytes, inputs, resolver):
    it = Interpreter(model_content=model_bytes, num_threads=1, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    for detail, x in zip(it.get_input_details(), inputs):
        it.set_tensor(detail["index"], x.reshape(detail["shape"]))
    it.invoke()
    return [(d["name"], it.get_tensor(d["index"]).copy()) for d in it.get_output_details()]


def object_normalized(points):
    """LandmarksToMatrixCalculator's object normalisation (origin landmark 0, float32 maths)."""
    p = points.astype(np.float32) - points[0].astype(np.float32)
    scale = np.float32(max(p[:, 0].max() - p[:, 0].min(), p[:, 1].max() - p[:, 1].min())) + np.float32(1e-5)
    return (p / scale).astype(np.float32)


def hand_inputs(width, height, hand):
    xyz = np.array([[l["x"], l["y"], l["z"]] for l in hand["landmarks"]], dtype=np.float32)
    m = float(max(width, height))
    sx, sy = np.float32(width / m), np.float32(height / m)
    # Aspect: (x - 0.5) in double, times the float scale, + 0.5, rounded to float once.
    a = xyz.copy()
    a[:, 0] = ((xyz[:, 0].astype(np.float64) - 0.5) * float(sx) + 0.5).astype(np.float32)
    a[:, 1] = ((xyz[:, 1].astype(np.float64) - 0.5) * float(sy) + 0.5).astype(np.float32)
    # Rotation 0: x·cos − y·sin with cos 1, sin −0 (float), then + 0.5 in double.
    x = (a[:, 0] - np.float32(0.5)).astype(np.float32)
    y = (a[:, 1] - np.float32(0.5)).astype(np.float32)
    a[:, 0] = ((x * np.float32(1) - y * np.float32(-0.0)).astype(np.float64) + 0.5).astype(np.float32)
    a[:, 1] = ((y * np.float32(1) + x * np.float32(-0.0)).astype(np.float64) + 0.5).astype(np.float32)
    h = hand["handedness"]
    right = h["score"] if h["label"] == "Right" else 1 - h["score"]
    world = np.array([[l["x"], l["y"], l["z"]] for l in hand["world_landmarks_m"]], dtype=np.float32)
    return [object_normalized(a).reshape(1, 21, 3), np.array([[right]], dtype=np.float32), object_normalized(world).reshape(1, 21, 3)]


def sanitize(name):
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in name)


def record(stem, case, model_bytes, inputs, stored_inputs):
    ref = run(model_bytes, inputs, OpResolverType.AUTO)
    others = [run(model_bytes, inputs, r) for r in (OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES, OpResolverType.BUILTIN_REF)]
    folder = os.path.join(OUT, stem, case)
    os.makedirs(folder, exist_ok=True)
    entry = {"name": case, "outputs": []}
    if stored_inputs:
        entry["input_files"] = []
        for k, x in enumerate(inputs):
            np.save(os.path.join(folder, f"input_{k}.npy"), x.astype(np.float32))
            entry["input_files"].append(f"{stem}/{case}/input_{k}.npy")
    for k, (name, y) in enumerate(ref):
        scale = max(1.0, float(np.abs(y).max()))
        spread = max(float(np.abs(o[k][1] - y).max()) / scale for o in others)
        np.save(os.path.join(folder, sanitize(name) + ".npy"), y.astype(np.float32))
        entry["outputs"].append({"name": name, "file": f"{stem}/{case}/{sanitize(name)}.npy", "shape": [int(v) for v in y.shape],
                                 "max_abs": float(np.abs(y).max()), "spread": spread})
    return entry, ref


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    models = extract_models(sys.argv[1])
    os.makedirs(os.path.join(OUT, "models"), exist_ok=True)
    for stem, data in models.items():
        with open(os.path.join(OUT, "models", stem + ".tflite"), "wb") as f:
            f.write(data)
    with open(REFERENCE) as f:
        reference = json.load(f)
    manifest = {"bundle_entry": "hand_gesture_recognizer.task", "reference": os.path.relpath(REFERENCE, ROOT), "models": {}}
    embeddings = []
    for stem in MODELS:
        it = Interpreter(model_content=models[stem])
        shapes = [[int(v) for v in d["shape"]] for d in it.get_input_details()]
        cases = []
        randoms = [splitmix_uniform(seed, int(np.prod(s)), lo, hi).reshape(s) for (seed, lo, hi), s in zip(RANDOM_INPUTS[stem], shapes)]
        entry, _ = record(stem, "random", models[stem], randoms, False)
        entry["random_inputs"] = [{"seed": seed, "range": [lo, hi]} for seed, lo, hi in RANDOM_INPUTS[stem]]
        cases.append(entry)
        if stem == "gesture_embedder":
            for i, hand in enumerate(reference["hands"]):
                entry, ref = record(stem, f"hand_{i}", models[stem], hand_inputs(reference["width"], reference["height"], hand), True)
                embeddings.append(ref[0][1])
                cases.append(entry)
        else:
            for i, e in enumerate(embeddings):
                entry, _ = record(stem, f"embedding_{i}", models[stem], [e], True)
                cases.append(entry)
        manifest["models"][stem] = {"input_shapes": shapes, "cases": cases}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({s: [(c["name"], [(o["name"], o["max_abs"], o["spread"]) for o in c["outputs"]]) for c in m["cases"]]
                      for s, m in manifest["models"].items()}, indent=1))


if __name__ == "__main__":
    main()
