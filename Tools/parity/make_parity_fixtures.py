#!/usr/bin/env python3
"""Generate LiteRT parity fixtures (.npy) for the BlazeKit Swift engine tests.

What it does
------------
For every MediaPipe net listed in ``MODELS`` below it builds a few input tensors,
runs the *original* .tflite model with the LiteRT Python interpreter
(``ai_edge_litert.interpreter.Interpreter(model_path=..., num_threads=1)``, i.e.
the default XNNPACK CPU delegate, FP32) and stores the input and every output as
.npy files.  The Swift tests load the same inputs into the BlazeKit engine and
compare against these outputs.

Cases per net:

* ``random``            seeded uniform noise in the net's input range
                        (``numpy.random.default_rng(SEED)``, one fixed seed per net).
* ``photo_<imagestem>`` real photos of Tests/Fixtures/testdata/images:
    - detectors (face short range 128², face full range 192², palm full/lite 192²):
      the whole RGB photo letterboxed (aspect kept, Pillow BILINEAR resize,
      centred, black = pixel value 0 in the padding) to the input size;
    - hand landmark full/lite (224²): hand 0 of ``<stem>.hands_model_complexity_1.json``:
      the photo is rotated (Pillow ``rotate``, BILINEAR, about the centre of the
      landmarks' bbox, angle rounded to 0.1°) so that wrist → middle-finger MCP
      points up (as MediaPipe's hand ROI does), then a square crop centred on the
      rotated landmarks' bbox, side = 2 × its longer side, resized with Pillow
      BILINEAR;
    - face mesh v1 (192²) and v2 (256², from face_landmarker.task): square crop
      centred on the box of detection 0 in ``<stem>.face_detection_short_range.json``,
      side = 1.5 × the longer box side (pixels), resized with Pillow BILINEAR;
      crop areas outside the photo are black (pixel value 0);
    - face_blendshapes (1×146×2): built exactly as docs/pipelines.md §5.5 from the 478
      ``landmarks_xyz`` of face 0 in ``<stem>.face_landmarker.json``: the 146 listed
      indices, row = (float32(x)·W, float32(y)·H) in float32 pixels, z unused.
      Its ``random`` case is points uniform in [0, 500].
  Pixel → tensor value: face detectors x/127.5 − 1 ([−1, 1]); everything else
  x/255 ([0, 1]); computed in float32 from the uint8 RGB (alpha dropped) image.

Layout written under ``--out``::

    <out>/manifest.json
    <out>/<stem>/<case>/input.npy              float32, exact input shape
    <out>/<stem>/<case>/<sanitized>.npy        one per output, float32, exact shape

``<sanitized>`` is the original output tensor name with every character outside
``[A-Za-z0-9_.-]`` replaced by ``_`` (e.g. ``StatefulPartitionedCall:0`` →
``StatefulPartitionedCall_0``).  Files are written with ``np.save`` (format 1.0,
``<f4``, C order).  ``manifest.json`` lists per net the source model (+ sha256),
the input name/shape/range, outputs in the interpreter's output order (name,
file, shape, max |value| over all cases) and the cases.  It is written with
sorted keys and fixed formatting, so a re-run on the same machine (same LiteRT,
numpy and Pillow versions) gives byte-identical files.  The script deletes and
rewrites only ``<out>/<stem>/`` for the stems it generates and ``manifest.json``.

Models from face_landmarker.task (face_landmarks_detector, face_blendshapes) are
extracted into a temporary directory first (the .task is a zip with 2 bytes of
junk before the first local header; ``zipfile`` copes with that).

How to run (from the repository root)
-------------------------------------
    pip install ai-edge-litert numpy pillow
    python3 Tools/parity/make_parity_fixtures.py [--models-dir Models/sources] \\
        [--images-dir Tests/Fixtures/testdata/images] \\
        [--reference-dir Tests/Fixtures/testdata/reference] \\
        [--out Tests/BlazeEngineTests/Fixtures/parity]

The defaults (shown) are the repository's own copies; the reference JSONs are made by
``Tools/fixtures/testdata/make_mediapipe_references.py``.

Check a built converter/engine against the fixtures with
``Tools/parity/check_against_blaze.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import sys
import tempfile
import zipfile

import numpy as np
from PIL import Image

import ai_edge_litert
from ai_edge_litert.interpreter import Interpreter

GENERATOR = "Tools/parity/make_parity_fixtures.py"
TASK_FILE = "face_landmarker.task"

# Value range for pixel-based nets: "m11" = x/127.5 - 1, "01" = x/255.
RANGE_M11 = (-1.0, 1.0)
RANGE_01 = (0.0, 1.0)

# stem -> spec.  "file": file in --models-dir; "task_entry": entry inside TASK_FILE.
# kind: "detector" (letterbox whole photo), "hand" (hand crop), "face" (face crop),
# "blendshapes".  "photos": image stems used for the photo cases.
MODELS = {
    "face_detection_short_range": dict(
        file="face_detection_short_range.tflite", kind="detector", range=RANGE_M11,
        seed=1001, photos=["sergey_portrait", "three_people"]),
    "face_detection_full_range_sparse": dict(
        file="face_detection_full_range_sparse.tflite", kind="detector", range=RANGE_M11,
        seed=1002, photos=["sergey_portrait", "three_people"]),
    "palm_detection_full": dict(
        file="palm_detection_full.tflite", kind="detector", range=RANGE_01,
        seed=1003, photos=["hand_victory_white_bg", "two_hands_open_palms"]),
    "palm_detection_lite": dict(
        file="palm_detection_lite.tflite", kind="detector", range=RANGE_01,
        seed=1004, photos=["hand_victory_white_bg", "two_hands_open_palms"]),
    "hand_landmark_full": dict(
        file="hand_landmark_full.tflite", kind="hand", range=RANGE_01,
        seed=1005, photos=["hand_victory_white_bg", "two_hands_open_palms"]),
    "hand_landmark_lite": dict(
        file="hand_landmark_lite.tflite", kind="hand", range=RANGE_01,
        seed=1006, photos=["hand_victory_white_bg", "two_hands_open_palms"]),
    "face_landmark": dict(
        file="face_landmark.tflite", kind="face", range=RANGE_01,
        seed=1007, photos=["sergey_portrait", "grace_hopper"]),
    "face_landmarks_detector": dict(
        file=TASK_FILE, task_entry="face_landmarks_detector.tflite", kind="face",
        range=RANGE_01, seed=1008, photos=["sergey_portrait", "grace_hopper"]),
    "face_blendshapes": dict(
        file=TASK_FILE, task_entry="face_blendshapes.tflite", kind="blendshapes",
        range=(0.0, 500.0), seed=1009,
        photos=["grace_hopper", "sergey_portrait", "astronaut_eileen_collins"]),
}

HAND_CROP_SCALE = 2.0
FACE_CROP_SCALE = 1.5

# docs/pipelines.md §5.5: the 146 mesh indices fed to the blendshape net, in this order.
BLENDSHAPE_INDICES = [
    0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54,
    55, 58, 61, 63, 65, 66, 67, 70, 78, 80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105,
    107, 109, 127, 132, 133, 136, 144, 145, 146, 148, 149, 150, 152, 153, 154, 155, 157, 158, 159, 160,
    161, 162, 163, 168, 172, 173, 176, 178, 181, 185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269,
    270, 276, 282, 283, 284, 285, 288, 291, 293, 295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318,
    321, 323, 324, 332, 334, 336, 338, 356, 361, 362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382,
    384, 385, 386, 387, 388, 389, 390, 397, 398, 400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471,
    472, 473, 474, 475, 476, 477,
]
assert len(BLENDSHAPE_INDICES) == 146 and BLENDSHAPE_INDICES == sorted(set(BLENDSHAPE_INDICES))

_SANITIZE_RE = re.compile(r"[^A-Za-z0-9_.-]")


def sanitize(name: str) -> str:
    return _SANITIZE_RE.sub("_", name)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def save_npy(path: str, array: np.ndarray) -> None:
    arr = np.ascontiguousarray(array, dtype="<f4")
    with open(path, "wb") as f:
        np.lib.format.write_array(f, arr, version=(1, 0), allow_pickle=False)


def load_json(path: str):
    with open(path, "r", encoding="utf-8") as f:
        return json.load(f)


# --------------------------------------------------------------------------- images

def find_image(images_dir: str, stem: str) -> str:
    matches = sorted(n for n in os.listdir(images_dir) if os.path.splitext(n)[0] == stem)
    if len(matches) != 1:
        raise SystemExit(f"expected exactly one image named {stem}.* in {images_dir}, found {matches}")
    return matches[0]


def load_rgb(images_dir: str, file_name: str):
    with Image.open(os.path.join(images_dir, file_name)) as im:
        im.load()
        mode = im.mode
        rgb = im.convert("RGB")  # RGBA: alpha is dropped (not composited)
    return rgb, mode


def to_tensor(img: Image.Image, value_range) -> np.ndarray:
    px = np.asarray(img, dtype=np.uint8).astype(np.float32)
    if value_range == RANGE_M11:
        t = px / np.float32(127.5) - np.float32(1.0)
    elif value_range == RANGE_01:
        t = px / np.float32(255.0)
    else:
        raise ValueError(value_range)
    return t.astype(np.float32)[None, ...]


def letterbox(img: Image.Image, size_w: int, size_h: int):
    w, h = img.size
    scale = min(size_w / w, size_h / h)
    nw = max(1, int(round(w * scale)))
    nh = max(1, int(round(h * scale)))
    resized = img.resize((nw, nh), Image.BILINEAR)
    canvas = Image.new("RGB", (size_w, size_h), (0, 0, 0))
    ox, oy = (size_w - nw) // 2, (size_h - nh) // 2
    canvas.paste(resized, (ox, oy))
    return canvas, f"resized to {nw}x{nh} at offset ({ox},{oy}), black padding"


def square_crop(img: Image.Image, cx: float, cy: float, side: float, out_w: int, out_h: int):
    side_i = int(round(side))
    x0 = int(round(cx - side / 2.0))
    y0 = int(round(cy - side / 2.0))
    box = (x0, y0, x0 + side_i, y0 + side_i)
    # Image.crop fills the area outside the image with 0 (black).
    crop = img.crop(box).resize((out_w, out_h), Image.BILINEAR)
    return crop, f"crop box (x0,y0,x1,y1)=({box[0]},{box[1]},{box[2]},{box[3]}) px"


# --------------------------------------------------------------------------- cases

def range_text(value_range) -> str:
    if value_range == RANGE_M11:
        return "[-1,1] (x/127.5-1)"
    return "[0,1] (x/255)"


def random_case(spec, shape):
    lo, hi = spec["range"]
    rng = np.random.default_rng(spec["seed"])
    x = rng.uniform(lo, hi, size=tuple(shape)).astype(np.float32)
    if spec["kind"] == "blendshapes":
        desc = (f"random points: numpy default_rng({spec['seed']}).uniform({lo:g}, {hi:g}) "
                f"(pixel coordinates), cast to float32")
    else:
        desc = (f"random input: numpy default_rng({spec['seed']}).uniform({lo:g}, {hi:g}), "
                f"cast to float32")
    return dict(name="random", description=desc, source_image=None, input=x)


def photo_case(spec, stem, shape, images_dir, reference_dir):
    image_file = find_image(images_dir, stem)
    kind = spec["kind"]
    if kind == "blendshapes":
        ref_name = f"{stem}.face_landmarker.json"
        ref = load_json(os.path.join(reference_dir, ref_name))
        if not ref["faces"]:
            raise SystemExit(f"{ref_name}: no faces")
        W, H = int(ref["width"]), int(ref["height"])
        lm = np.asarray(ref["faces"][0]["landmarks_xyz"], dtype=np.float64)
        if lm.shape != (478, 3):
            raise SystemExit(f"{ref_name}: expected 478x3 landmarks, got {lm.shape}")
        sel = lm[BLENDSHAPE_INDICES, :2].astype(np.float32)
        pts = np.empty((146, 2), dtype=np.float32)
        pts[:, 0] = sel[:, 0] * np.float32(W)
        pts[:, 1] = sel[:, 1] * np.float32(H)
        x = pts.reshape(tuple(shape)).astype(np.float32)
        desc = (f"docs/pipelines.md 5.5 input from face 0 landmarks_xyz of {ref_name} "
                f"(image {W}x{H}): 146 indices, (float32(x)*W, float32(y)*H) pixels")
        return dict(name=f"photo_{stem}", description=desc, source_image=image_file, input=x)

    _, th, tw, _ = shape
    img, mode = load_rgb(images_dir, image_file)
    W, H = img.size
    mode_text = f"{W}x{H} {mode}" + ("->RGB" if mode != "RGB" else "")
    if kind == "detector":
        out, how = letterbox(img, tw, th)
        desc = (f"whole photo {image_file} ({mode_text}) letterboxed to {tw}x{th}, Pillow BILINEAR, "
                f"{how}; {range_text(spec['range'])}")
    elif kind == "hand":
        ref_name = f"{stem}.hands_model_complexity_1.json"
        ref = load_json(os.path.join(reference_dir, ref_name))
        if not ref["hands"]:
            raise SystemExit(f"{ref_name}: no hands")
        lms = np.array([[p["x"] * W, p["y"] * H] for p in ref["hands"][0]["landmarks"]],
                       dtype=np.float64)
        if lms.shape != (21, 2):
            raise SystemExit(f"{ref_name}: expected 21 landmarks, got {lms.shape}")
        # Like MediaPipe's hand ROI: rotate so that wrist (0) -> middle-finger MCP (9) points up.
        # theta > 0 = ROI rotated clockwise on screen; Pillow's rotate(deg) turns the image
        # counter-clockwise by deg, which makes the ROI upright.
        dx, dy = lms[9] - lms[0]
        theta = math.pi / 2.0 - math.atan2(-dy, dx)
        theta = theta - 2.0 * math.pi * math.floor((theta + math.pi) / (2.0 * math.pi))
        deg = round(math.degrees(theta), 1)
        c = (lms.min(axis=0) + lms.max(axis=0)) / 2.0
        a = math.radians(deg)
        rel = lms - c
        rot = np.stack([rel[:, 0] * math.cos(a) + rel[:, 1] * math.sin(a),
                        -rel[:, 0] * math.sin(a) + rel[:, 1] * math.cos(a)], axis=1) + c
        x0, y0 = rot.min(axis=0)
        x1, y1 = rot.max(axis=0)
        side = HAND_CROP_SCALE * max(x1 - x0, y1 - y0)
        rotated = img.rotate(deg, resample=Image.BILINEAR, center=(float(c[0]), float(c[1])))
        out, how = square_crop(rotated, (x0 + x1) / 2.0, (y0 + y1) / 2.0, side, tw, th)
        desc = (f"{image_file} ({mode_text}): hand 0 of {ref_name}; photo rotated {deg:g} deg "
                f"counter-clockwise (Pillow rotate, BILINEAR, about the landmark bbox centre "
                f"({c[0]:.1f},{c[1]:.1f}) px) so that wrist->middle MCP points up, then a square "
                f"crop around the rotated landmarks' bbox, side {HAND_CROP_SCALE:g}x its longer "
                f"side, {how}, Pillow BILINEAR to {tw}x{th}; {range_text(spec['range'])}")
    elif kind == "face":
        ref_name = f"{stem}.face_detection_short_range.json"
        ref = load_json(os.path.join(reference_dir, ref_name))
        if not ref["detections"]:
            raise SystemExit(f"{ref_name}: no detections")
        bb = ref["detections"][0]["bbox"]
        bx, by, bw, bh = bb["xmin"] * W, bb["ymin"] * H, bb["width"] * W, bb["height"] * H
        side = FACE_CROP_SCALE * max(bw, bh)
        out, how = square_crop(img, bx + bw / 2.0, by + bh / 2.0, side, tw, th)
        desc = (f"{image_file} ({mode_text}): square crop around detection 0 bbox of {ref_name}, "
                f"side {FACE_CROP_SCALE:g}x longer box side, {how}, Pillow BILINEAR to {tw}x{th}; "
                f"{range_text(spec['range'])}")
    else:
        raise ValueError(kind)
    x = to_tensor(out, spec["range"])
    if list(x.shape) != list(shape):
        raise SystemExit(f"internal error: tensor shape {x.shape} != {shape}")
    return dict(name=f"photo_{stem}", description=desc, source_image=image_file, input=x)


# --------------------------------------------------------------------------- main

def resolve_models(models_dir: str, tmp_dir: str):
    """Return {stem: (model_path, source_text)}."""
    resolved = {}
    task_path = os.path.join(models_dir, TASK_FILE)
    task_zip = None
    for stem, spec in MODELS.items():
        if "task_entry" in spec:
            if task_zip is None:
                task_zip = zipfile.ZipFile(task_path)
            data = task_zip.read(spec["task_entry"])
            path = os.path.join(tmp_dir, spec["task_entry"])
            with open(path, "wb") as f:
                f.write(data)
            source = f"{TASK_FILE}:{spec['task_entry']} (sha256 {sha256_bytes(data)})"
        else:
            path = os.path.join(models_dir, spec["file"])
            with open(path, "rb") as f:
                data = f.read()
            source = f"{spec['file']} (sha256 {sha256_bytes(data)})"
        resolved[stem] = (path, source)
    if task_zip is not None:
        task_zip.close()
    return resolved


def run_model(interp: Interpreter, x: np.ndarray):
    inp = interp.get_input_details()[0]
    interp.set_tensor(inp["index"], x)
    interp.invoke()
    outs = []
    for d in interp.get_output_details():
        outs.append(np.array(interp.get_tensor(d["index"]), copy=True))
    return outs


REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models-dir", default=os.path.join(REPO, "Models", "sources"),
                    help="folder of the original .tflite files and face_landmarker.task (default: Models/sources)")
    ap.add_argument("--images-dir", default=os.path.join(REPO, "Tests", "Fixtures", "testdata", "images"),
                    help="folder of the test photos (default: Tests/Fixtures/testdata/images)")
    ap.add_argument("--reference-dir", default=os.path.join(REPO, "Tests", "Fixtures", "testdata", "reference"),
                    help="folder of the MediaPipe reference JSONs (default: Tests/Fixtures/testdata/reference)")
    ap.add_argument("--out", default=os.path.join(REPO, "Tests", "BlazeEngineTests", "Fixtures", "parity"),
                    help="output folder (default: Tests/BlazeEngineTests/Fixtures/parity)")
    ap.add_argument("--only", action="append", default=None,
                    help="generate only this stem (repeatable); manifest then lists only these")
    args = ap.parse_args(argv)

    stems = list(MODELS)
    if args.only:
        unknown = sorted(set(args.only) - set(MODELS))
        if unknown:
            raise SystemExit(f"unknown stems: {unknown}")
        stems = [s for s in stems if s in args.only]

    os.makedirs(args.out, exist_ok=True)
    manifest = {
        "generator": GENERATOR,
        "litert_version": str(getattr(ai_edge_litert, "__version__", "unknown")),
        "numpy_version": np.__version__,
        "pillow_version": Image.__version__,
        "models": {},
    }

    with tempfile.TemporaryDirectory(prefix="parity_models_") as tmp_dir:
        resolved = resolve_models(args.models_dir, tmp_dir)
        for stem in stems:
            spec = MODELS[stem]
            model_path, source = resolved[stem]
            interp = Interpreter(model_path=model_path, num_threads=1)
            interp.allocate_tensors()
            in_details = interp.get_input_details()
            if len(in_details) != 1:
                raise SystemExit(f"{stem}: expected 1 input, got {len(in_details)}")
            in_d = in_details[0]
            if in_d["dtype"] != np.float32:
                raise SystemExit(f"{stem}: input dtype {in_d['dtype']} is not float32")
            in_shape = [int(v) for v in in_d["shape"]]
            out_details = interp.get_output_details()
            for d in out_details:
                if d["dtype"] != np.float32:
                    raise SystemExit(f"{stem}: output {d['name']} has dtype {d['dtype']}, not float32")
            out_names = [d["name"] for d in out_details]
            out_files = [sanitize(n) + ".npy" for n in out_names]
            if len(set(out_files)) != len(out_files) or "input.npy" in out_files:
                raise SystemExit(f"{stem}: sanitized output names collide: {out_files}")

            cases = [random_case(spec, in_shape)]
            for photo in spec["photos"]:
                cases.append(photo_case(spec, photo, in_shape, args.images_dir, args.reference_dir))

            stem_dir = os.path.join(args.out, stem)
            if os.path.isdir(stem_dir):
                shutil.rmtree(stem_dir)
            max_abs = [0.0] * len(out_details)
            out_shapes = [None] * len(out_details)
            for case in cases:
                case_dir = os.path.join(stem_dir, case["name"])
                os.makedirs(case_dir)
                x = case["input"]
                assert x.dtype == np.float32 and list(x.shape) == in_shape
                save_npy(os.path.join(case_dir, "input.npy"), x)
                outs = run_model(interp, x)
                summary = []
                for i, (o, fname) in enumerate(zip(outs, out_files)):
                    if not np.all(np.isfinite(o)):
                        raise SystemExit(f"{stem}/{case['name']}: non-finite values in {out_names[i]}")
                    shape = [int(v) for v in o.shape]
                    if out_shapes[i] is None:
                        out_shapes[i] = shape
                    elif out_shapes[i] != shape:
                        raise SystemExit(f"{stem}: output {out_names[i]} shape changed between cases")
                    save_npy(os.path.join(case_dir, fname), o)
                    m = float(np.max(np.abs(o))) if o.size else 0.0
                    max_abs[i] = max(max_abs[i], m)
                    summary.append(f"{out_names[i]}{tuple(shape)} max|v|={m:.6g}")
                print(f"{stem}/{case['name']}: " + "; ".join(summary))

            manifest["models"][stem] = {
                "source": source,
                "input": {
                    "name": in_d["name"],
                    "shape": in_shape,
                    "range": [float(spec["range"][0]), float(spec["range"][1])],
                },
                "outputs": [
                    {"name": n, "file": f, "shape": s, "max_abs": m}
                    for n, f, s, m in zip(out_names, out_files, out_shapes, max_abs)
                ],
                "cases": [
                    {"name": c["name"], "description": c["description"],
                     "source_image": c["source_image"]}
                    for c in cases
                ],
            }
            del interp

    text = json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=True) + "\n"
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {os.path.join(args.out, 'manifest.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
