#!/usr/bin/env python3
"""MediaPipe's own face_landmark_with_attention output (legacy FaceMesh, refine_landmarks=True) and
the exact 192x192 crop it ran on, for an end-to-end check of our converted model that does not
rest on our NumPy versions of the three custom ops.

Per photo (``PHOTOS``, read from Tests/Fixtures/testdata/images):

* MediaPipe 0.10.21's legacy face mesh graph (``face_landmark_front_cpu.binarypb``, as
  ``mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1,
  refine_landmarks=True)`` builds it) is run through ``SolutionBase`` with two extra output
  streams: ``face_rects_from_detections`` (the ROI the mesh model was run on: short-range
  detection, eye-to-eye rotation, scale 1.5, square_long; docs/pipelines.md 4.1) and the 478
  landmarks ``multi_face_landmarks``. Both go to ``<stem>.json`` unrounded (float32 values).
  The custom ops run in MediaPipe's C++ here, so this reference is independent of ours.
* The crop: ``image_to_tensor`` of Tools/fixtures/pipeline/make_detector_inputs.py (OpenCV 4.x
  warpPerspective exactly as MediaPipe's CPU ImageToTensorCalculator; 192x192, no letterbox,
  BORDER_REPLICATE) on that ROI, stored as the warped uint8 RGB bytes ``<stem>.input.u8``
  (192*192*3, row-major); the tensor is ``float32(v) / 255`` (MediaPipe multiplies by
  ``float32(1/255)``, at most 1 ulp apart).
* Self-checks, printed and stored under ``self_check`` (``% of width``, mean / max over points of
  the Euclidean xy distance in pixels / image width * 100):
  ``v1_litert``: face_landmark.tflite (the wheel's, LiteRT) on this crop, projected with the
  ROI, against MediaPipe's FaceMesh(refine_landmarks=False) 468 points -- shows crop and
  projection are MediaPipe's; ``attention_numpy``: face_landmark_with_attention via
  ``mediapipe_custom_ops.CustomOpRunner`` (LiteRT + our NumPy custom ops) through the same
  refinement and projection, against the 478 points.

Mapping of the model's outputs to 478 points (MediaPipe's
``tensors_to_face_landmarks_with_attention.pbtxt`` and ``face_landmark_cpu.pbtxt``; the tables
below are its ``LandmarksRefinementCalculator`` options, Apache-2.0): each output is in 192-pixel
crop units, divided by 192 (z too); mesh 468 (x, y, z) copied; lips (80), left eye (71), right eye
(71) replace x, y of the listed mesh points, z kept; left / right iris (5 each) become points
468-472 / 473-477 with z the mean z of the 16 listed eye-contour points. Then the legacy rect
projection: ``(x, y) - 0.5`` rotated by the ROI rotation, scaled by its width / height, plus its
centre; ``z * width``. The tables are stored in the JSON so the Swift test needs no copy.

``--sensitivity`` also prints (nothing stored) how far a wrong custom op would move the points:
the unrefined mesh points against MediaPipe's refined ones, and the result with
TransformTensorBilinear's matrix shifted by half a feature-map pixel in x.

Run (from the repository root)::

    pip install mediapipe==0.10.21 ai-edge-litert "opencv-python-headless<5" numpy
    python3 Tools/parity/make_attention_mesh_fixture.py [--sensitivity]
"""
from __future__ import annotations

import json
import os
import argparse
import sys

import cv2
import numpy as np
import mediapipe
from mediapipe.python.solution_base import SolutionBase
from ai_edge_litert.interpreter import Interpreter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Tools", "fixtures", "pipeline"))
import mediapipe_custom_ops  # noqa: E402
from mediapipe_custom_ops import CustomOpRunner  # noqa: E402
from make_detector_inputs import image_to_tensor, load_rgb  # noqa: E402

PHOTOS = ["sergey_portrait.png", "grace_hopper.jpg"]
OUT = os.path.join(ROOT, "Tests", "BlazeConvertTests", "Fixtures", "wheel", "face_mesh_attention")
GRAPH = "mediapipe/modules/face_landmark/face_landmark_front_cpu.binarypb"
SIZE = 192
f32 = np.float32

EYE_L = [33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173]
EYE_R = [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398]
REFINEMENT = {
    "lips": [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40, 39, 37, 0, 267, 269, 270, 409,
             78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 191, 80, 81, 82, 13, 312, 311, 310, 415,
             76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306, 184, 74, 73, 72, 11, 302, 303, 304, 408,
             62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292, 183, 42, 41, 38, 12, 268, 271, 272, 407],
    "left_eye": EYE_L + [130, 25, 110, 24, 23, 22, 26, 112, 243, 247, 30, 29, 27, 28, 56, 190,
                         226, 31, 228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
                         35, 124, 46, 53, 52, 65, 143, 111, 117, 118, 119, 120, 121, 128, 245,
                         156, 70, 63, 105, 66, 107, 55, 193],
    "right_eye": EYE_R + [359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
                          446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
                          265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465,
                          383, 300, 293, 334, 296, 336, 285, 417],
    "left_iris": list(range(468, 473)),
    "right_iris": list(range(473, 478)),
    "left_iris_z_average": EYE_L,
    "right_iris_z_average": EYE_R,
}


def mediapipe_mesh(rgb, attention):
    s = SolutionBase(binary_graph_path=GRAPH,
                     side_inputs={"num_faces": 1, "with_attention": attention, "use_prev_landmarks": False},
                     outputs=["multi_face_landmarks", "face_rects_from_detections"])
    r = s.process(rgb)
    s.close()
    lm = np.array([[p.x, p.y, p.z] for p in r.multi_face_landmarks[0].landmark], dtype=f32)
    q = r.face_rects_from_detections[0]
    return lm, [q.x_center, q.y_center, q.width, q.height, q.rotation]


def project(points, roi):
    """Legacy LandmarkProjectionCalculator (rect path); points normalized to the crop, float32."""
    xc, yc, w, h, rot = (f32(v) for v in roi)
    c, s = f32(np.cos(rot)), f32(np.sin(rot))
    x, y = points[:, 0] - f32(0.5), points[:, 1] - f32(0.5)
    return np.stack([(c * x - s * y) * w + xc, (s * x + c * y) * h + yc, points[:, 2] * w], axis=1).astype(f32)


def refine(outputs):
    """The six landmark outputs (crop pixels) -> 478 normalized points (LandmarksRefinementCalculator)."""
    mesh = outputs[0].reshape(468, 3) / f32(SIZE)
    out = np.zeros((478, 3), dtype=f32)
    out[:468] = mesh
    for k, name in enumerate(["lips", "left_eye", "right_eye", "left_iris", "right_iris"], start=1):
        pts = outputs[k].reshape(-1, 2) / f32(SIZE)
        out[REFINEMENT[name], :2] = pts
    for side in ("left", "right"):
        out[REFINEMENT[f"{side}_iris"], 2] = np.mean(out[REFINEMENT[f"{side}_iris_z_average"], 2], dtype=f32)
    return out


def distance(a, b, width, height):
    d = np.hypot((a[:, 0] - b[:, 0]) * width, (a[:, 1] - b[:, 1]) * height) / width * 100
    return {"mean_percent_width": float(d.mean()), "max_percent_width": float(d.max())}


def sensitivity(model_bytes, x, roi, ref, width, height):
    outs = [v for _, v in CustomOpRunner(model_bytes, num_threads=1).run(x)]
    refined = sorted(set(REFINEMENT["lips"] + REFINEMENT["left_eye"] + REFINEMENT["right_eye"]))
    unrefined = project(np.concatenate([outs[0].reshape(468, 3) / f32(SIZE), np.zeros((10, 3), f32)]), roi)
    print("  unrefined mesh at the refined points:", distance(unrefined[refined], ref[refined], width, height))
    original = mediapipe_custom_ops.transform_tensor_bilinear

    def shifted(t, m, o):
        m = np.array(m, dtype=f32).reshape(-1)
        m[3] += f32(0.5)
        return original(t, m, o)

    mediapipe_custom_ops.transform_tensor_bilinear = shifted
    try:
        outs = [v for _, v in CustomOpRunner(model_bytes, num_threads=1).run(x)]
    finally:
        mediapipe_custom_ops.transform_tensor_bilinear = original
    print("  TransformTensorBilinear shifted 0.5 px:", distance(project(refine(outs), roi), ref, width, height))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sensitivity", action="store_true")
    args = p.parse_args()
    if mediapipe.__version__ != "0.10.21" or cv2.__version__.startswith("5"):
        sys.exit("needs mediapipe 0.10.21 and OpenCV 4.x")
    modules = os.path.join(os.path.dirname(mediapipe.__file__), "modules", "face_landmark")
    os.makedirs(OUT, exist_ok=True)
    model_bytes = open(os.path.join(modules, "face_landmark_with_attention.tflite"), "rb").read()
    attention = CustomOpRunner(model_bytes, num_threads=1)
    v1 = Interpreter(model_path=os.path.join(modules, "face_landmark.tflite"), num_threads=1)
    v1.allocate_tensors()
    for photo in PHOTOS:
        stem = os.path.splitext(photo)[0]
        rgb = load_rgb(os.path.join(ROOT, "Tests", "Fixtures", "testdata", "images", photo))
        height, width = rgb.shape[:2]
        ref478, roi = mediapipe_mesh(rgb, True)
        ref468, roi_v1 = mediapipe_mesh(rgb, False)
        assert roi == roi_v1, (roi, roi_v1)
        tensor, _, _ = image_to_tensor(rgb, roi, SIZE, SIZE, False, "replicate", 0.0, 1.0)
        u8 = np.rint(tensor[0] * 255).astype(np.uint8)
        assert np.array_equal(u8.astype(f32) * f32(1 / 255), tensor[0])
        x = (u8.astype(f32) / f32(255))[None]
        u8.tofile(os.path.join(OUT, f"{stem}.input.u8"))

        v1.set_tensor(v1.get_input_details()[0]["index"], x)
        v1.invoke()
        mesh = v1.get_tensor(v1.get_output_details()[0]["index"]).reshape(468, 3) / f32(SIZE)
        checks = {"v1_litert": distance(project(mesh, roi), ref468, width, height)}
        outs = [v for _, v in attention.run(x)]
        ours = project(refine(outs), roi)
        checks["attention_numpy"] = distance(ours, ref478, width, height)
        checks["attention_numpy"]["max_abs_z"] = float(np.max(np.abs(ours[:, 2] - ref478[:, 2])))
        print(stem, roi, json.dumps(checks))
        if args.sensitivity:
            sensitivity(model_bytes, x, roi, ref478, width, height)
        doc = {
            "generator": "Tools/parity/make_attention_mesh_fixture.py",
            "image": f"Tests/Fixtures/testdata/images/{photo}", "width": width, "height": height,
            "mediapipe": mediapipe.__version__, "opencv": cv2.__version__,
            "graph": f"{GRAPH} (static, num_faces 1, with_attention true)",
            "roi": [float(v) for v in roi],
            "input": f"{stem}.input.u8",
            "landmarks": [[float(v) for v in p] for p in ref478],
            "refinement": REFINEMENT,
            "self_check": checks,
        }
        with open(os.path.join(OUT, f"{stem}.json"), "w") as f:
            json.dump(doc, f, indent=0)
            f.write("\n")


if __name__ == "__main__":
    main()
