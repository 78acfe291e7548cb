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
  same rotation step and object normalisation (the embedder does not read it). Inputs are stored as ``.npy``.
* ``embedding_<i>``: each classifier fed the embedder's XNNPACK output of ``hand_<i>`` (stored).

Outputs go to ``<stem>/<case>/<name>.npy`` with ``manifest.json`` beside the models.

``nested_classifiers.task`` is a bundle of the bundle's shape holding the two classifiers only
(an outer zip with ``hand_gesture_recognizer.task``, itself a zip), for the converter's nested
bundle test; ``manifest.json`` also records each classifier's labels and score threshold as
Python's zipfile and a plain flatbuffer walk read them from the model's metadata.
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


def unrotated(a):
    """The rotation step with rotation 0: (p - 0.5)·cos - (q - 0.5)·sin + 0.5, products in float32, + 0.5 in double."""
    a = a.copy()
    x = (a[:, 0] - np.float32(0.5)).astype(np.float32)
    y = (a[:, 1] - np.float32(0.5)).astype(np.float32)
    a[:, 0] = ((x * np.float32(1) - y * np.float32(-0.0)).astype(np.float64) + 0.5).astype(np.float32)
    a[:, 1] = ((y * np.float32(1) + x * np.float32(-0.0)).astype(np.float64) + 0.5).astype(np.float32)
    return a


def hand_inputs(width, height, hand):
    xyz = np.array([[l["x"], l["y"], l["z"]] for l in hand["landmarks"]], dtype=np.float32)
    m = float(max(width, height))
    sx, sy = np.float32(width / m), np.float32(height / m)
    # Aspect: (x - 0.5) in double, times the float scale, + 0.5, rounded to float once.
    a = xyz.copy()
    a[:, 0] = ((xyz[:, 0].astype(np.float64) - 0.5) * float(sx) + 0.5).astype(np.float32)
    a[:, 1] = ((xyz[:, 1].astype(np.float64) - 0.5) * float(sy) + 0.5).astype(np.float32)
    a = unrotated(a)
    h = hand["handedness"]
    right = h["score"] if h["label"] == "Right" else 1 - h["score"]
    world = np.array([[l["x"], l["y"], l["z"]] for l in hand["world_landmarks_m"]], dtype=np.float32)
    return [object_normalized(a).reshape(1, 21, 3), np.array([[right]], dtype=np.float32),
            object_normalized(unrotated(world)).reshape(1, 21, 3)]


def classifier_metadata(model_bytes):
    """Labels (the appended zip's TENSOR_AXIS_LABELS file) and score threshold of output 0, read
    with a minimal flatbuffer walk of the TFLITE_METADATA buffer (metadata_schema.fbs field ids)."""
    import struct

    def u32(b, o):
        return struct.unpack_from("<I", b, o)[0]

    def table(b, pos):
        vt = pos - struct.unpack_from("<i", b, pos)[0]
        vsize = struct.unpack_from("<H", b, vt)[0]
        def field(i):
            if 4 + 2 * i >= vsize:
                return None
            off = struct.unpack_from("<H", b, vt + 4 + 2 * i)[0]
            return pos + off if off else None
        return field

    def deref(b, p):
        return p + u32(b, p)

    def vector(b, p):
        start = deref(b, p)
        return [start + 4 + 4 * k for k in range(u32(b, start))]

    def string(b, p):
        s = deref(b, p)
        return b[s + 4:s + 4 + u32(b, s)].decode()

    it = Interpreter(model_content=model_bytes)
    meta = None
    # The model's metadata entries: find the TFLITE_METADATA buffer through the model flatbuffer.
    m = table(model_bytes, u32(model_bytes, 0))
    buffers = vector(model_bytes, m(4))
    if m(6) is not None:
        for e in vector(model_bytes, m(6)):
            t = table(model_bytes, deref(model_bytes, e))
            if string(model_bytes, t(0)) == "TFLITE_METADATA":
                bt = table(model_bytes, deref(model_bytes, buffers[u32(model_bytes, t(1))]))
                data = deref(model_bytes, bt(0))
                meta = model_bytes[data + 4:data + 4 + u32(model_bytes, data)]
    del it
    if meta is None:
        return {"labels": None, "score_threshold": None}
    root = table(meta, u32(meta, 0))
    sub = table(meta, deref(meta, vector(meta, root(3))[0]))
    out = table(meta, deref(meta, vector(meta, sub(3))[0]))
    labels, threshold = None, None
    if out(4) is not None:
        for pu in vector(meta, out(4)):
            u = table(meta, deref(meta, pu))
            if meta[u(0)] == 3:
                opts = table(meta, deref(meta, u(1)))
                threshold = struct.unpack_from("<f", meta, opts(0))[0] if opts(0) is not None else 0.0
    if out(6) is not None:
        for af in vector(meta, out(6)):
            a = table(meta, deref(meta, af))
            if a(2) is not None and meta[a(2)] == 2:
                with zipfile.ZipFile(io.BytesIO(model_bytes)) as z:
                    labels = z.read(string(meta, a(0))).decode().splitlines()
    return {"labels": labels, "score_threshold": threshold}


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
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        for stem in ("canned_gesture_classifier", "custom_gesture_classifier"):
            z.writestr(stem + ".tflite", models[stem])
    with zipfile.ZipFile(os.path.join(OUT, "nested_classifiers.task"), "w", zipfile.ZIP_STORED) as z:
        z.writestr("hand_gesture_recognizer.task", inner.getvalue())
    manifest["classifier_metadata"] = {stem: classifier_metadata(models[stem]) for stem in MODELS[1:]}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({s: [(c["name"], [(o["name"], o["max_abs"], o["spread"]) for o in c["outputs"]]) for c in m["cases"]]
                      for s, m in manifest["models"].items()}, indent=1))


if __name__ == "__main__":
    main()
