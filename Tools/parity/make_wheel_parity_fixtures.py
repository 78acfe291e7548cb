#!/usr/bin/env python3
"""LiteRT parity fixtures for the MediaPipe 0.10.21 wheel models not covered by
``make_parity_fixtures.py``.

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
* ``photo_<stem>``: a photo of Tests/Fixtures/testdata/images, either resized with Pillow
  BILINEAR to the input size (``stretch``: aspect not kept, as MediaPipe's selfie graphs do;
  ``letterbox``: aspect kept, centred, black padding, as its pose detector does), or cut from a
  rotated ROI the way MediaPipe's graph for that model would cut it (``roi``, below). The input
  is stored as raw uint8 RGB bytes ``<case>.input.u8`` (H·W·3, row-major); the tensor is
  ``float32(v) / 255`` for [0, 1] models and ``float32(v) / 127.5 - 1`` for [-1, 1] ones,
  computed in float32 exactly so by the Swift test.

ROI crops (``ROI_BUILDERS``) are cut by ``image_to_tensor`` of
Tools/fixtures/pipeline/make_detector_inputs.py (OpenCV 4.x ``warpPerspective``, INTER_LINEAR,
as MediaPipe's CPU ImageToTensorCalculator), with MediaPipe's rect maths from the same file
(``detection_to_rect``: DetectionsToRects rotation; ``transform_rect``: RectTransformation):

* ``iris_landmark`` / ``photo_sergey_portrait``: the left-eye ROI of MediaPipe's iris graph
  (``iris_landmark_landmarks_to_roi``): the tight box of eye corners 33 and 133, rotated so that
  33 -> 133 is horizontal, scaled 2.3, square_long; corners from MediaPipe's own 478 face
  landmarks of that photo (committed: ``face_mesh_attention/sergey_portrait.json``); 64x64, no
  letterbox, BORDER_REPLICATE (the eye is well inside the photo).
* ``hand_recrop`` / ``photo_two_hands_open_palms``: holistic's re-crop ROI
  (``hand_landmarks_from_pose_to_recrop_roi``: HandDetectionsFromPoseToRectsCalculator with the
  0.10.21 rule -- centre = "middle finger" (2·index + pinky) / 3, side = 2·|middle - wrist|,
  rotated so wrist -> middle points up -- then scale 2.7, shift_y -0.1, square_long) and
  ``hand_recrop_by_roi`` (256x256, keep aspect, [0, 1], default BORDER_REPLICATE). Holistic
  takes wrist / pinky / index from the pose landmarks; that photo shows no body for the pose
  model, so hand 0 of MediaPipe Hands' reference landmarks stands in for them (committed:
  Tests/Fixtures/testdata/reference/two_hands_open_palms.hands_model_complexity_1.json; WRIST,
  PINKY_MCP, INDEX_FINGER_MCP). So it is the crop holistic would make from a pose whose hand
  points sat on those knuckles, not one MediaPipe itself produced.
* ``pose_landmark_full`` / ``photo_woman_sitting_street``: the pose graph's tracking ROI
  (``pose_landmarks_to_roi``: alignment landmarks 33 -> 34, centre 33, side 2·|34 - 33|, rotated
  so 33 -> 34 points up, scale 1.25, square_long; 256x256, keep aspect, [0, 1], BORDER_REPLICATE),
  with landmarks 33 and 34 from LiteRT's pose_landmark_full (XNNPACK) on the whole photo
  letterboxed to 256x256 (zero border), letterbox removed: one tracking step, as MediaPipe
  does from frame to frame.

Outputs are stored as float32 ``.npy`` (``<stem>/<case>/<sanitized name>.npy``). An output of
more than ``MAX_STORED`` elements is subsampled deterministically: the flat (row-major) array
with stride ``ceil(n / MAX_STORED)`` from element 0, raised to the next value coprime with the
last dimension (so every channel is sampled: pose_landmark_full's 64x64x39 heatmap would
otherwise give channel 0 only); the manifest records ``stride`` and the full output's
``max_abs`` (the tolerance is relative to the full output).

For ``face_landmark_with_attention`` LiteRT cannot run MediaPipe's three custom ops
(Landmarks2TransformMatrix, TransformTensorBilinear, TransformLandmarks): ``mediapipe_custom_ops.py``
runs every builtin op in LiteRT and those three in NumPy (written after MediaPipe's C++ kernels),
feeding their results back until they settle. Its photo cases reuse the committed face crops of
the v1 mesh fixtures (``Tests/BlazeEngineTests/Fixtures/parity/face_landmark/photo_*/input.npy``,
same 192x192 [0, 1] input), named in the manifest as ``npy_input``.

Every model is copied to ``models/<stem>.tflite`` (unmodified wheel files, Apache-2.0;
provenance in README.md there; ``pose_landmark_full`` is the big one, 6.4 MB). Pass
``--blaze-model .build/release/blaze-model`` to also convert and run each model through our CLI
and print the same measure, against XNNPACK and against TFLite's builtin and reference kernels
(which tells our error from XNNPACK's); that report writes nothing.

Run (from the repository root)::

    pip install ai-edge-litert numpy pillow mediapipe==0.10.21 "opencv-python-headless<5"
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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "pipeline"))
from mediapipe_custom_ops import CustomOpRunner  # noqa: E402
from make_detector_inputs import detection_to_rect, image_to_tensor, load_rgb, transform_rect  # noqa: E402

WHEEL_VERSION = "0.10.21"
MAX_STORED = 4096
# stem -> wheel path under mediapipe/modules, input range, SplitMix64 seed, photo cases.
MODELS = {
    "selfie_segmentation": dict(path="selfie_segmentation/selfie_segmentation.tflite", range=(0.0, 1.0), seed=1601,
                                photos=[("three_people.jpg", "stretch"), ("business_person.png", "stretch")]),
    "selfie_segmentation_landscape": dict(path="selfie_segmentation/selfie_segmentation_landscape.tflite",
                                          range=(0.0, 1.0), seed=1602, photos=[("couple_with_dog.jpg", "stretch")]),
    "pose_detection": dict(path="pose_detection/pose_detection.tflite", range=(-1.0, 1.0), seed=1603,
                           photos=[("woman_sitting_street.jpg", "letterbox")]),
    "hand_recrop": dict(path="holistic_landmark/hand_recrop.tflite", range=(0.0, 1.0), seed=1604,
                        photos=[("two_hands_open_palms.jpg", "roi")]),
    "iris_landmark": dict(path="iris_landmark/iris_landmark.tflite", range=(0.0, 1.0), seed=1605,
                          photos=[("sergey_portrait.png", "roi")]),
    "pose_landmark_full": dict(path="pose_landmark/pose_landmark_full.tflite", range=(0.0, 1.0), seed=1606,
                               photos=[("woman_sitting_street.jpg", "roi")]),
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


f32 = np.float32


def iris_roi(root, rgb, wheel):
    """Left-eye ROI (corners 33, 133) from MediaPipe's committed 478 landmarks of the photo."""
    lm = json.load(open(os.path.join(root, "Tests", "BlazeConvertTests", "Fixtures", "wheel",
                                     "face_mesh_attention", "sergey_portrait.json")))["landmarks"]
    H, W = rgb.shape[:2]
    kps = [[f32(lm[i][0]), f32(lm[i][1])] for i in (33, 133)]
    x0, y0 = min(k[0] for k in kps), min(k[1] for k in kps)
    det = {"box": [x0, y0, max(k[0] for k in kps) - x0, max(k[1] for k in kps) - y0], "kps": kps}
    rect = detection_to_rect(det, W, H, 0, 1, 0.0)
    return transform_rect(rect, W, H, 2.3, 2.3, 0.0, 0.0, True), False, "replicate"


def hand_recrop_roi(root, rgb, wheel):
    """Holistic's re-crop ROI, hand 0's wrist / pinky MCP / index MCP in place of the pose's points."""
    hand = json.load(open(os.path.join(root, "Tests", "Fixtures", "testdata", "reference",
                                       "two_hands_open_palms.hands_model_complexity_1.json")))["hands"][0]
    H, W = rgb.shape[:2]
    pts = {p["name"]: (f32(p["x"]) * f32(W), f32(p["y"]) * f32(H)) for p in hand["landmarks"]}
    (xw, yw), (xp, yp), (xi, yi) = pts["WRIST"], pts["PINKY_MCP"], pts["INDEX_FINGER_MCP"]
    xm, ym = (f32(2) * xi + xp) / f32(3), (f32(2) * yi + yp) / f32(3)
    size = f32(math.hypot(float(xm - xw), float(ym - yw))) * f32(2)
    rot = f32(float(f32(math.pi / 2) - np.arctan2(-(ym - yw), xm - xw)))
    rot = f32(float(rot) - 2 * math.pi * math.floor((float(rot) + math.pi) / (2 * math.pi)))
    rect = [xm / f32(W), ym / f32(H), size / f32(W), size / f32(H), rot]
    return transform_rect(rect, W, H, 2.7, 2.7, 0.0, -0.1, True), True, "replicate"


def pose_roi(root, rgb, wheel):
    """One tracking step: LiteRT pose_landmark_full on the letterboxed photo, ROI from landmarks 33, 34."""
    H, W = rgb.shape[:2]
    x, pad, _ = image_to_tensor(rgb, None, 256, 256, True, "zero", 0.0, 1.0)
    it = Interpreter(model_path=os.path.join(wheel, "pose_landmark/pose_landmark_full.tflite"), num_threads=1)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    lm = it.get_tensor(it.get_output_details()[0]["index"]).reshape(39, 5)
    l, t, r, b = (f32(v) for v in pad)
    pts = [((lm[i, 0] / f32(256) - l) / (f32(1) - l - r) * f32(W), (lm[i, 1] / f32(256) - t) / (f32(1) - t - b) * f32(H))
           for i in (33, 34)]
    (xs, ys), (xe, ye) = pts
    size = f32(math.hypot(float(xe - xs), float(ye - ys))) * f32(2)
    rot = f32(float(f32(math.pi / 2) - np.arctan2(-(ye - ys), xe - xs)))
    rot = f32(float(rot) - 2 * math.pi * math.floor((float(rot) + math.pi) / (2 * math.pi)))
    rect = [xs / f32(W), ys / f32(H), size / f32(W), size / f32(H), rot]
    return transform_rect(rect, W, H, 1.25, 1.25, 0.0, 0.0, True), True, "replicate"


ROI_BUILDERS = {"iris_landmark": iris_roi, "hand_recrop": hand_recrop_roi, "pose_landmark_full": pose_roi}


def roi_photo_bytes(stem, root, wheel, path, height, width):
    rgb = load_rgb(path)
    rect, keep_aspect, border = ROI_BUILDERS[stem](root, rgb, wheel)
    # lo 0, hi 255: the warped uint8 values themselves, as float32.
    t, _, _ = image_to_tensor(rgb, rect, width, height, keep_aspect, border, 0.0, 255.0)
    u8 = t[0].astype(np.uint8)
    assert np.array_equal(u8.astype(f32), t[0])
    desc = (f"ROI (xc, yc, w, h, rot) = ({', '.join(format(float(v), '.6g') for v in rect)}) of the "
            f"{rgb.shape[1]}x{rgb.shape[0]} photo, OpenCV warpPerspective to {width}x{height}, "
            f"{'letterbox' if keep_aspect else 'no letterbox'}, {border} border (see the docstring)")
    return u8, desc


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
        commit = True
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
            if mode == "roi":
                u8, how = roi_photo_bytes(stem, root, args.wheel_modules, os.path.join(args.images_dir, image),
                                          shape[1], shape[2])
                how = f"{image}: {how}, "
            else:
                u8 = photo_bytes(os.path.join(args.images_dir, image), shape[1], shape[2], mode)
                how = f"{image} resized ({mode}, Pillow BILINEAR) to {shape[2]}x{shape[1]}, "
            cases.append((f"photo_{os.path.splitext(image)[0]}", to_tensor(u8, lo)[None], u8,
                          how + ("v/255" if lo == 0.0 else "v/127.5-1")))
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
                while stride > 1 and math.gcd(stride, y.shape[-1]) != 1:
                    stride += 1
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
