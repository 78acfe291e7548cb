#!/usr/bin/env python3
"""LiteRT parity fixtures for the MediaPipe 0.10.21 wheel models not covered by
``make_parity_fixtures.py``, and a report for the ones too big to commit.

The wheel (``pip install mediapipe==0.10.21``) ships 14 ``.tflite`` files under
``mediapipe/modules/``. Seven are already checked by ``make_parity_fixtures.py``
(``COVERED_ELSEWHERE``); this script handles the other seven (``MODELS``).

Per model it runs LiteRT (``ai_edge_litert``, 1 thread) three ways:

* ``xnnpack``: the default resolver (XNNPACK delegate) -> the reference outputs;
* ``builtin``: ``OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES`` (TFLite's own kernels);
* ``builtin_ref``: ``OpResolverType.BUILTIN_REF`` (TFLite's reference kernels).

``spread`` per output is ``max|xnnpack - other| / max(1, max|xnnpack|)`` over the other two
(null when neither can run the model, e.g. a MediaPipe custom op only XNNPACK knows). The Swift
test accepts ``max|blaze - xnnpack| / max(1, max|xnnpack|) <= max(1e-4, 2 * spread)``.

Cases:

* ``random``: SplitMix64 (the same generator as Tests/BlazeTestSupport/SeededRandom.swift),
  seeded per model; element ``i`` in row-major order is ``lo + (hi - lo) * u`` with
  ``u = (next() >> 11) / 2**53`` in float64, rounded to float32. The test regenerates the input,
  so it is not stored.
* ``photo_<stem>`` (where cheap): a photo of Tests/Fixtures/testdata/images resized with Pillow
  BILINEAR to the input size (``stretch``: aspect not kept, as MediaPipe's selfie graphs do;
  ``letterbox``: aspect kept, centred, black padding, as its pose detector does). The input is
  stored as raw uint8 RGB bytes ``<case>.input.u8`` (H·W·3, row-major); the tensor is
  ``float32(v) / 255`` for [0, 1] models and ``float32(v) / 127.5 - 1`` for [-1, 1] ones,
  computed in float32 exactly so by the Swift test.

Outputs are stored as float32 ``.npy`` (``<stem>/<case>/<sanitized name>.npy``). An output of
more than ``MAX_STORED`` elements is subsampled deterministically: the flat (row-major) array
with stride ``ceil(n / MAX_STORED)`` from element 0; the manifest records ``stride`` and the
full output's ``max_abs`` (the tolerance is relative to the full output).

For ``face_landmark_with_attention`` LiteRT cannot run MediaPipe's three custom ops
(Landmarks2TransformMatrix, TransformTensorBilinear, TransformLandmarks): ``mediapipe_custom_ops.py``
runs every builtin op in LiteRT and those three in NumPy (written after MediaPipe's C++ kernels),
feeding their results back until they settle. Its photo cases reuse the committed face crops of
the v1 mesh fixtures (``Tests/BlazeEngineTests/Fixtures/parity/face_landmark/photo_*/input.npy``,
same 192x192 [0, 1] input), named in the manifest as ``npy_input``.

Models up to 3 MB are copied to ``models/<stem>.tflite`` (unmodified wheel files, Apache-2.0;
provenance in README.md there). Bigger ones (``pose_landmark_full``, 6.4 MB) are not committed:
pass ``--blaze-model .build/release/blaze-model`` to convert and run them (and every other model
here) through our CLI and print the same measure, against XNNPACK and against TFLite's builtin
and reference kernels (which tells our error from XNNPACK's); nothing is written for them.

Run (from the repository root)::

    pip install ai-edge-litert numpy pillow mediapipe==0.10.21
    python3 Tools/parity/make_wheel_parity_fixtures.py [--blaze-model .build/release/blaze-model]
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter, OpResolverType

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mediapipe_custom_ops import CustomOpRunner  # noqa: E402

WHEEL_VERSION = "0.10.21"
MAX_STORED = 4096
COMMIT_LIMIT = 3 * 1024 * 1024
# stem -> wheel path under mediapipe/modules, input range, SplitMix64 seed, photo cases.
MODELS = {
    "selfie_segmentation": dict(path="selfie_segmentation/selfie_segmentation.tflite", range=(0.0, 1.0), seed=1601,
                                photos=[("three_people.jpg", "stretch"), ("business_person.png", "stretch")]),
    "selfie_segmentation_landscape": dict(path="selfie_segmentation/selfie_segmentation_landscape.tflite",
                                          range=(0.0, 1.0), seed=1602, photos=[("couple_with_dog.jpg", "stretch")]),
    "pose_detection": dict(path="pose_detection/pose_detection.tflite", range=(-1.0, 1.0), seed=1603,
                           photos=[("woman_sitting_street.jpg", "letterbox")]),
    "hand_recrop": dict(path="holistic_landmark/hand_recrop.tflite", range=(0.0, 1.0), seed=1604, photos=[]),
    "iris_landmark": dict(path="iris_landmark/iris_landmark.tflite", range=(0.0, 1.0), seed=1605, photos=[]),
    "pose_landmark_full": dict(path="pose_landmark/pose_landmark_full.tflite", range=(0.0, 1.0), seed=1606, photos=[]),
    "face_landmark_with_attention": dict(path="face_landmark/face_landmark_with_attention.tflite", range=(0.0, 1.0),
                                         seed=1607, photos=[], custom_ops=True,
                                         npy_inputs=["face_landmark/photo_grace_hopper", "face_landmark/photo_sergey_portrait"]),
}
COVERED_ELSEWHERE = ["face_detection_short_range", "face_detection_full_range_sparse", "face_landmark",
                     "hand_landmark_full", "hand_landmark_lite", "palm_detection_full", "palm_detection_lite"]

MASK64 = (1 << 64) - 1


def splitmix_uniform(seed: int, count: int, lo: float, hi: float) -> np.ndarray:
    with np.errstate(over="ignore"):
        state = (np.uint64(seed) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15))
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    u = (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return (lo + (hi - lo) * u).astype(np.float32)


def sanitize(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def photo_bytes(path: str, height: int, width: int, mode: str) -> np.ndarray:
    img = Image.open(path).convert("RGB")
    if mode == "stretch":
        out = img.resize((width, height), Image.BILINEAR)
    else:
        scale = min(width / img.width, height / img.height)
        w, h = max(1, round(img.width * scale)), max(1, round(img.height * scale))
        out = Image.new("RGB", (width, height))
        out.paste(img.resize((w, h), Image.BILINEAR), ((width - w) // 2, (height - h) // 2))
    return np.asarray(out, dtype=np.uint8)


def to_tensor(u8: np.ndarray, lo: float) -> np.ndarray:
    x = u8.astype(np.float32)
    return (x / np.float32(255)) if lo == 0.0 else (x / np.float32(127.5) - np.float32(1))


def run(path: str, x: np.ndarray, resolver, custom_ops=False):
    try:
        if custom_ops:
            kw = {"num_threads": 1} if resolver is None else {"num_threads": 1, "experimental_op_resolver_type": resolver}
            return CustomOpRunner(open(path, "rb").read(), **kw).run(x)
        if resolver is None:
            it = Interpreter(model_path=path, num_threads=1)
        else:
            it = Interpreter(model_path=path, num_threads=1, experimental_op_resolver_type=resolver)
        it.allocate_tensors()
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        return [(d["name"], it.get_tensor(d["index"]).copy()) for d in it.get_output_details()]
    except RuntimeError as e:
        return str(e).splitlines()[0]


def relative(a: np.ndarray, ref: np.ndarray) -> float:
    return float(np.max(np.abs(a.astype(np.float64) - ref)) / max(1.0, float(np.max(np.abs(ref)))))


def blaze_outputs(blaze: str, model: str, x: np.ndarray, tmp: str, names):
    bkm = os.path.join(tmp, "m.bkm")
    subprocess.run([blaze, "convert", model, "-o", bkm], check=True, capture_output=True)
    np.save(os.path.join(tmp, "in.npy"), x)
    subprocess.run([blaze, "run", bkm, "--input", os.path.join(tmp, "in.npy"), "--output-dir", tmp],
                   check=True, capture_output=True)
    return [np.load(os.path.join(tmp, sanitize(n) + ".npy")) for n in names]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    import mediapipe
    wheel = os.path.join(os.path.dirname(mediapipe.__file__), "modules")
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--wheel-modules", default=wheel)
    p.add_argument("--images-dir", default=os.path.join(root, "Tests", "Fixtures", "testdata", "images"))
    p.add_argument("--out", default=os.path.join(root, "Tests", "BlazeConvertTests", "Fixtures", "wheel"))
    p.add_argument("--blaze-model", help="also convert and run every model with this blaze-model binary")
    p.add_argument("--only", nargs="*", help="stems to process (default: all)")
    args = p.parse_args()
    if mediapipe.__version__ != WHEEL_VERSION:
        sys.exit(f"expected mediapipe {WHEEL_VERSION}, found {mediapipe.__version__}")

    manifest_path = os.path.join(args.out, "manifest.json")
    manifest = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {"models": {}}
    manifest.update({"generator": "Tools/parity/make_wheel_parity_fixtures.py", "mediapipe_wheel": WHEEL_VERSION,
                     "litert_version": importlib.metadata.version("ai-edge-litert"),
                     "covered_elsewhere": COVERED_ELSEWHERE, "max_stored": MAX_STORED})
    os.makedirs(os.path.join(args.out, "models"), exist_ok=True)
    for stem, spec in MODELS.items():
        if args.only and stem not in args.only:
            continue
        src = os.path.join(args.wheel_modules, spec["path"])
        data = open(src, "rb").read()
        commit = len(data) <= COMMIT_LIMIT
        it = Interpreter(model_path=src, num_threads=1)
        detail = it.get_input_details()[0]
        shape = [int(v) for v in detail["shape"]]
        lo, hi = spec["range"]
        cases = [("random", splitmix_uniform(spec["seed"], int(np.prod(shape)), lo, hi).reshape(shape), None,
                  f"SplitMix64 seed {spec['seed']}, uniform [{lo}, {hi}]")]
        for rel in spec.get("npy_inputs", []):
            x = np.load(os.path.join(root, "Tests", "BlazeEngineTests", "Fixtures", "parity", rel, "input.npy"))
            cases.append((f"photo_{rel.split('photo_')[1]}", x, None,
                          f"the input of Tests/BlazeEngineTests/Fixtures/parity/{rel}/input.npy (a face crop, see make_parity_fixtures.py)"))
        for image, mode in spec["photos"]:
            u8 = photo_bytes(os.path.join(args.images_dir, image), shape[1], shape[2], mode)
            cases.append((f"photo_{os.path.splitext(image)[0]}", to_tensor(u8, lo)[None], u8,
                          f"{image} resized ({mode}, Pillow BILINEAR) to {shape[2]}x{shape[1]}, "
                          + ("v/255" if lo == 0.0 else "v/127.5-1")))
        entry = {"source": f"mediapipe=={WHEEL_VERSION} wheel: mediapipe/modules/{spec['path']}",
                 "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "committed": commit,
                 "input": {"name": detail["name"], "shape": shape, "range": [lo, hi], "seed": spec["seed"]},
                 "cases": [], "outputs": None}
        stem_dir = os.path.join(args.out, stem)
        if commit:
            shutil.rmtree(stem_dir, ignore_errors=True)
            os.makedirs(stem_dir)
        for name, x, u8, description in cases:
            custom = spec.get("custom_ops", False)
            ref = run(src, x, None, custom)
            if isinstance(ref, str):
                print(f"{stem}/{name}: LiteRT cannot run it: {ref}")
                entry["litert_error"] = ref
                entry["committed"] = commit = False
                shutil.rmtree(stem_dir, ignore_errors=True)
                break
            others = [(label, o) for label, o in
                      (("builtin", run(src, x, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES, custom)),
                       ("builtin_ref", run(src, x, OpResolverType.BUILTIN_REF, custom))) if not isinstance(o, str)]
            outputs = []
            for k, (oname, y) in enumerate(ref):
                spread = max((relative(o[k][1], y) for _, o in others), default=None)
                n = y.size
                stride = max(1, math.ceil(n / MAX_STORED))
                outputs.append({"name": oname, "file": sanitize(oname) + ".npy", "shape": list(y.shape),
                                "stride": stride, "max_abs": float(np.max(np.abs(y))), "spread": spread})
                if commit:
                    os.makedirs(os.path.join(stem_dir, name), exist_ok=True)
                    np.save(os.path.join(stem_dir, name, sanitize(oname) + ".npy"),
                            np.ascontiguousarray(y.reshape(-1)[::stride]).astype("<f4"))
            if commit and u8 is not None:
                open(os.path.join(stem_dir, name + ".input.u8"), "wb").write(u8.tobytes())
            case_entry = {"name": name, "description": description, "photo": u8 is not None, "outputs": outputs,
                          "npy_input": next((f"{r}/input.npy" for r in spec.get("npy_inputs", []) if name.endswith(r.split("photo_")[1])), None)}
            entry["cases"].append(case_entry)
            line = ", ".join(f"{o['name']} max|ref| {o['max_abs']:.4g} spread {o['spread'] if o['spread'] is None else format(o['spread'], '.3g')}"
                             for o in outputs)
            print(f"{stem}/{name}: {line}")
            if args.blaze_model:
                with tempfile.TemporaryDirectory() as tmp:
                    try:
                        ours = blaze_outputs(args.blaze_model, src, x, tmp, [o for o, _ in ref])
                        errs = [relative(a.reshape(y.shape), y) for a, (_, y) in zip(ours, ref)]
                        print(f"    blaze vs xnnpack: " + ", ".join(f"{o}: {e:.3g}" for (o, _), e in zip(ref, errs)))
                        # Against TFLite's own kernels too: tells our error from XNNPACK's.
                        for label, other in others:
                            e2 = [relative(a.reshape(y.shape), y) for a, (_, y) in zip(ours, other)]
                            print(f"    blaze vs {label}: " + ", ".join(f"{o}: {e:.3g}" for (o, _), e in zip(ref, e2)))
                    except subprocess.CalledProcessError as e:
                        print(f"    blaze failed: {e.stderr.decode(errors='replace').strip()[:400]}")
        if commit:
            shutil.copyfile(src, os.path.join(args.out, "models", stem + ".tflite"))
        manifest["models"][stem] = entry
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
