#!/usr/bin/env python3
"""BlazeKit's whole-pipeline benchmarks side by side with MediaPipe 0.10.21 (Python), interleaved.

Two pipelines, on the same photos as `bench` (Benchmarks/Resources, decoded once to RGB):

- `faces_fast`: BlazeKit `FaceDetector` in fast mode (BlazeFace short range, 128×128, no
  landmarks/contours/classification) on three_people_640.png, one call per iteration.
  MediaPipe: Tasks `mediapipe.tasks.python.vision.FaceDetector`, IMAGE running mode, model
  Models/sources/face_detection_short_range.tflite (byte-identical to the one in the mediapipe
  wheel; its TFLite metadata is what Tasks needs), `detect(mp.Image)` per iteration on one
  `mp.Image` made once from the decoded pixels. Default options (min confidence 0.5, NMS 0.3).
- `hands_video_tracked`: BlazeKit `HandLandmarker`, numHands 2, full models, video running mode
  on woman_sitting_street_640.png fed repeatedly with timestamps +33 ms, so every frame after
  the first is tracked (palm detection skipped, only the hand landmark net runs per hand).
  MediaPipe: Tasks `HandLandmarker`, VIDEO running mode, num_hands 2, `detect_for_video(image,
  ts)` with ts += 33 ms. MediaPipe publishes no hand_landmarker.task in the wheel and there is
  no network for it here, so the script zips one from Models/sources (byte-identical to the
  wheel's modules/): hand_detector.tflite = palm_detection_full.tflite, hand_landmarks_detector
  .tflite = hand_landmark_full.tflite — the same two models BlazeKit's default uses. In VIDEO
  mode the Tasks graph runs palm detection only while fewer than num_hands hands are tracked;
  the script checks that by timing IMAGE mode (palm detection on every call) next to it.
- `gestures_video_tracked`: BlazeKit `GestureRecognizer` with its bundled canned gestures,
  numHands 2, video mode on woman_sitting_street_640.png with timestamps +33 ms. MediaPipe: Tasks
  `GestureRecognizer`, VIDEO mode, num_hands 2, with a canned gesture bundle the script zips from
  Models/sources (hand_landmarker.task as above, and hand_gesture_recognizer.task holding
  gesture_embedder.tflite and canned_gesture_classifier.tflite: the same four nets).
- `face_landmarker_image` / `face_landmarker_video_tracked`: BlazeKit `FaceLandmarker`, numFaces 3,
  blendshapes and matrices on, on three_people_640.png, in image mode / in video mode with
  timestamps +33 ms (every frame after the first tracked: the face detector is skipped).
  MediaPipe: Tasks `FaceLandmarker` with Models/sources/face_landmarker.task (byte-identical to
  the one MediaPipe publishes), same options, IMAGE / VIDEO running mode.

Per round and pipeline: MediaPipe (fresh detector, 5 warm-up calls, then --runs timed calls,
median), then `bench --json --model PIPELINE --threads N --runs R` of each BlazeKit build right
after, so both see the same machine load. Each side's figure is the best per-round median. A
measurement during which the process did not have a core (CPU time < 85 % of wall time:
another tenant took it) is repeated, up to --retries times. Before timing, both sides' face and
hand counts are printed (BlazeKit's from the `blaze` CLI next to `bench`: faces on the PNG;
hands in image mode on the PNG and in video mode on a .y4m of the same photo repeated at 33 ms
per frame, I420 full range, so that count is of slightly different pixels).

Threads: MediaPipe's Python Tasks API has no thread knob. On desktop Linux its inference
calculator gives TFLite/XNNPACK 1 thread by default (more only on Android/iOS/Emscripten);
the calculator graph runs on its own scheduler thread(s), but a synchronous detect() leaves one
busy at a time. The script prints MediaPipe's measured CPU time / wall time (≈ 1.0 means one
core's worth). So compare against BlazeKit at --threads 1 (the default); with --threads 2 only
the BlazeKit side changes. MediaPipe's figure includes its Python binding (mp.Image packet in,
result protos converted to Python dataclasses out), which BlazeKit's native call does not have.

The bench binaries run with OPENBLAS_CORETYPE removed from their environment (the sandbox sets
it to Haswell, which would keep BlazeKit's OpenBLAS off its AVX-512 kernels).

One build, `.build/release/bench` (as in litert_side_by_side.py), built first if missing unless
--no-build is given; --levels as there (default: the CPU's best kernel level).

Needs: `pip install mediapipe==0.10.21 numpy pillow` (mediapipe pins numpy < 2).

    python3 Benchmarks/mediapipe_pipelines.py [--levels default baseline avx2 avx512] [--rounds 3] [--runs 100]
        [--threads 1] [--pipeline faces_fast hands_video_tracked] [--no-build] [--retries 10]
        [--quiet PCT]
"""
import argparse
import io
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_common import BUILDS, ROOT, add_common_arguments, bench_env, cpu_name, log, measured, wait_for_quiet  # noqa: E402

SOURCES = os.path.join(ROOT, "Models", "sources")
RESOURCES = os.path.join(ROOT, "Benchmarks", "Resources")
FACES_IMAGE = os.path.join(RESOURCES, "three_people_640.png")
HANDS_IMAGE = os.path.join(RESOURCES, "woman_sitting_street_640.png")
PIPELINE_NAMES = ["faces_fast", "hands_video_tracked", "face_landmarker_image", "face_landmarker_video_tracked", "gestures_video_tracked"]
WARMUP = 5
FRAME_MS = 33






def load_rgb(path):
    import numpy as np
    from PIL import Image
    with Image.open(path) as im:
        return np.ascontiguousarray(np.asarray(im.convert("RGB")))


# ---------------------------------------------------------------------------------------------
# MediaPipe side

def hand_landmarker_task(workdir):
    """A hand_landmarker.task bundle (a plain zip) of the two full hand models in Models/sources."""
    path = os.path.join(workdir, "hand_landmarker.task")
    if not os.path.exists(path):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            z.write(os.path.join(SOURCES, "palm_detection_full.tflite"), "hand_detector.tflite")
            z.write(os.path.join(SOURCES, "hand_landmark_full.tflite"), "hand_landmarks_detector.tflite")
    return path


class MediaPipeFacesFast:
    """Tasks FaceDetector (BlazeFace short range), IMAGE mode."""

    def __init__(self, workdir):
        import mediapipe as mp
        from mediapipe.tasks import python as mp_tasks
        from mediapipe.tasks.python import vision
        self.image = mp.Image(image_format=mp.ImageFormat.SRGB, data=load_rgb(FACES_IMAGE))
        options = vision.FaceDetectorOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=os.path.join(SOURCES, "face_detection_short_range.tflite")),
            running_mode=vision.RunningMode.IMAGE)
        self.detector = vision.FaceDetector.create_from_options(options)
        self.last = None

    def step(self):
        self.last = self.detector.detect(self.image)

    def count(self):
        return len(self.last.detections)

    def close(self):
        self.detector.close()


class MediaPipeHandsVideo:
    """Tasks HandLandmarker, num_hands 2, VIDEO mode (IMAGE mode with video=False)."""

    def __init__(self, workdir, video=True):
        import mediapipe as mp
        from mediapipe.tasks import python as mp_tasks
        from mediapipe.tasks.python import vision
        self.image = mp.Image(image_format=mp.ImageFormat.SRGB, data=load_rgb(HANDS_IMAGE))
        self.video = video
        options = vision.HandLandmarkerOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=hand_landmarker_task(workdir)),
            running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
            num_hands=2)
        self.landmarker = vision.HandLandmarker.create_from_options(options)
        self.timestamp = 0
        self.last = None

    def step(self):
        if self.video:
            self.timestamp += FRAME_MS
            self.last = self.landmarker.detect_for_video(self.image, self.timestamp)
        else:
            self.last = self.landmarker.detect(self.image)

    def count(self):
        return len(self.last.hand_landmarks)

    def close(self):
        self.landmarker.close()


def gesture_recognizer_task(workdir):
    """A canned gesture bundle: hand_landmarker.task and hand_gesture_recognizer.task (embedder and
    canned classifier from Models/sources), as MediaPipe's stock gesture_recognizer.task is laid out."""
    path = os.path.join(workdir, "gesture_recognizer.task")
    if not os.path.exists(path):
        inner = io.BytesIO()
        with zipfile.ZipFile(inner, "w") as z:
            for name in ("gesture_embedder.tflite", "canned_gesture_classifier.tflite"):
                z.write(os.path.join(SOURCES, name), name)
        with zipfile.ZipFile(path, "w") as z:
            z.write(hand_landmarker_task(workdir), "hand_landmarker.task")
            z.writestr("hand_gesture_recognizer.task", inner.getvalue())
    return path


class MediaPipeGesturesVideo:
    """Tasks GestureRecognizer, num_hands 2, VIDEO mode, canned bundle."""

    def __init__(self, workdir):
        import mediapipe as mp
        from mediapipe.tasks import python as mp_tasks
        from mediapipe.tasks.python import vision
        self.image = mp.Image(image_format=mp.ImageFormat.SRGB, data=load_rgb(HANDS_IMAGE))
        options = vision.GestureRecognizerOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=gesture_recognizer_task(workdir)),
            running_mode=vision.RunningMode.VIDEO, num_hands=2)
        self.recognizer = vision.GestureRecognizer.create_from_options(options)
        self.timestamp = 0
        self.last = None

    def step(self):
        self.timestamp += FRAME_MS
        self.last = self.recognizer.recognize_for_video(self.image, self.timestamp)

    def count(self):
        return len(self.last.hand_landmarks)

    def close(self):
        self.recognizer.close()


class MediaPipeFaceLandmarker:
    """Tasks FaceLandmarker, num_faces 3, blendshapes and matrices, IMAGE or VIDEO mode."""

    def __init__(self, workdir, video=False):
        import mediapipe as mp
        from mediapipe.tasks import python as mp_tasks
        from mediapipe.tasks.python import vision
        self.image = mp.Image(image_format=mp.ImageFormat.SRGB, data=load_rgb(FACES_IMAGE))
        self.video = video
        options = vision.FaceLandmarkerOptions(
            base_options=mp_tasks.BaseOptions(model_asset_path=os.path.join(SOURCES, "face_landmarker.task")),
            running_mode=vision.RunningMode.VIDEO if video else vision.RunningMode.IMAGE,
            num_faces=3, output_face_blendshapes=True, output_facial_transformation_matrixes=True)
        self.landmarker = vision.FaceLandmarker.create_from_options(options)
        self.timestamp = 0
        self.last = None

    def step(self):
        if self.video:
            self.timestamp += FRAME_MS
            self.last = self.landmarker.detect_for_video(self.image, self.timestamp)
        else:
            self.last = self.landmarker.detect(self.image)

    def count(self):
        return len(self.last.face_landmarks)

    def close(self):
        self.landmarker.close()


MEDIAPIPE = {"faces_fast": MediaPipeFacesFast, "hands_video_tracked": MediaPipeHandsVideo,
             "face_landmarker_image": lambda workdir: MediaPipeFaceLandmarker(workdir, video=False),
             "face_landmarker_video_tracked": lambda workdir: MediaPipeFaceLandmarker(workdir, video=True),
             "gestures_video_tracked": MediaPipeGesturesVideo}


def time_calls(runner, runs, warmup=WARMUP):
    """Median ms of `runs` calls after `warmup` ones, and the process's CPU time / wall time."""
    for _ in range(warmup):
        runner.step()
    samples = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for _ in range(runs):
        t = time.perf_counter_ns()
        runner.step()
        samples.append((time.perf_counter_ns() - t) / 1e6)
    share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    return statistics.median(samples), share


# ---------------------------------------------------------------------------------------------
# BlazeKit side

def bench_json(level, pipeline, threads, runs):
    """bench's median for `pipeline`, and its CPU time / wall time over the whole process (load
    and warm-up included; bench prints no core share for pipelines)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0 = time.perf_counter()
    binary = BUILDS[level][0]
    r = subprocess.run([binary, "--json", "--no-alloc-count", "--model", pipeline, "--threads", str(threads),
                        "--runs", str(runs)], capture_output=True, text=True, env=bench_env(level))
    wall = time.perf_counter() - wall0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"{binary} failed ({r.returncode}):\n{r.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    j = json.loads(r.stdout)
    return (j["pipelines"][pipeline]["median_ms"], j["build"]), cpu / wall


def blaze_json_lines(blaze, args, stdin=None):
    r = subprocess.run([blaze] + args, input=stdin, capture_output=True, env=bench_env())
    if r.returncode != 0:
        raise RuntimeError(r.stderr.decode(errors="replace").strip())
    return [json.loads(line) for line in r.stdout.decode().splitlines() if line.strip()]


def y4m_of(path, frames):
    """`frames` copies of the photo as a YUV4MPEG2 stream, I420 full range (BT.601), 1000/33 fps
    so that frame i has timestamp 33·i ms."""
    import numpy as np
    rgb = load_rgb(path).astype(np.float32)
    h, w, _ = rgb.shape
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    u = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
    v = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
    ph, pw = h + (h & 1), w + (w & 1)

    def sub(c):
        c = np.pad(c, ((0, ph - h), (0, pw - w)), mode="edge")
        return c.reshape(ph // 2, 2, pw // 2, 2).mean(axis=(1, 3))

    planes = b"".join(np.clip(np.rint(p), 0, 255).astype(np.uint8).tobytes() for p in (y, sub(u), sub(v)))
    header = f"YUV4MPEG2 W{w} H{h} F1000:{FRAME_MS} Ip A1:1 C420jpeg XCOLORRANGE=FULL\n".encode()
    return header + b"".join(b"FRAME\n" + planes for _ in range(frames))


def blazekit_counts(build_dir):
    """Faces and hands BlazeKit finds, from the `blaze` CLI of the build (None if it is missing)."""
    blaze = os.path.join(build_dir, "blaze")
    if not os.path.exists(blaze):
        return None
    faces = blaze_json_lines(blaze, ["faces", "--mode", "fast", "--min-face-size", "0", "--json", FACES_IMAGE])
    hands_image = blaze_json_lines(blaze, ["hands", "--num-hands", "2", "--json", HANDS_IMAGE])
    hands_video = blaze_json_lines(blaze, ["hands", "--num-hands", "2", "--json", "--video", "-"], stdin=y4m_of(HANDS_IMAGE, 10))
    landmarks = blaze_json_lines(blaze, ["face-landmarks", "--num-faces", "3", "--json", FACES_IMAGE])
    return {"faces": len(faces[0]["faces"]), "face_landmarks": len(landmarks[0]["faces"]), "hands_image": len(hands_image[0]["hands"]),
            "hands_video": [len(f["hands"]) for f in hands_video]}


# ---------------------------------------------------------------------------------------------









def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1],
                    help="BlazeKit thread counts (MediaPipe has no knob: always its default, see the docstring)")
    ap.add_argument("--runs", type=int, default=100, help="timed calls per side, pipeline, thread count and round")
    ap.add_argument("--pipeline", nargs="+", choices=PIPELINE_NAMES, default=PIPELINE_NAMES)
    add_common_arguments(ap, "pipeline")
    args = ap.parse_args()

    try:
        import mediapipe
        import numpy  # noqa: F401
        import PIL  # noqa: F401
    except ImportError as e:
        sys.exit(f"{e.name} is missing: pip install mediapipe==0.10.21 numpy pillow")
    mp_version = mediapipe.__version__
    if mp_version != "0.10.21":
        log(f"note: mediapipe {mp_version} installed, the figures in the repo were taken with 0.10.21")

    for build in args.builds[:1]:
        binary, command = BUILDS[build]
        if not os.path.exists(binary):
            if args.no_build:
                sys.exit(f"{binary} is missing (build it with: {' '.join(command)})")
            log(f"building {build}: {' '.join(command)}")
            subprocess.run(command, cwd=ROOT, check=True, stdout=sys.stderr)

    notes = []
    mp_ms = {}     # pipeline -> [round medians]
    mp_share = {}  # pipeline -> [CPU / wall]
    ours = {}      # (build, pipeline, threads) -> [round medians]
    info = {}      # build -> build object of bench --json
    with tempfile.TemporaryDirectory() as workdir:
        # What each side finds, and whether MediaPipe's VIDEO mode really tracks.
        log("checking detections…")
        faces = MediaPipeFacesFast(workdir)
        faces.step()
        mp_faces = faces.count()
        faces.close()
        video = MediaPipeHandsVideo(workdir, video=True)
        video_counts, video_times = [], []
        for _ in range(10):
            t = time.perf_counter()
            video.step()
            video_times.append((time.perf_counter() - t) * 1e3)
            video_counts.append(video.count())
        tracked_ms, _ = time_calls(video, 30, warmup=0)
        video.close()
        still = MediaPipeHandsVideo(workdir, video=False)
        image_ms, _ = time_calls(still, 30)
        still.step()
        mp_hands_image = still.count()
        still.close()
        landmarker = MediaPipeFaceLandmarker(workdir)
        landmarker.step()
        mp_face_landmarks = landmarker.count()
        landmarker.close()
        notes.append(f"MediaPipe finds {mp_faces} faces (three_people; FaceLandmarker: {mp_face_landmarks}), {mp_hands_image} hands in IMAGE mode and "
                     f"{video_counts[-1]} in VIDEO mode (per frame: {video_counts}) (woman_sitting_street).")
        notes.append(f"MediaPipe HandLandmarker: first VIDEO frame {video_times[0]:.1f} ms, tracked frames "
                     f"{tracked_ms:.1f} ms (median), IMAGE mode (palm detection every call) {image_ms:.1f} ms.")
        for build in args.builds:
            counts = blazekit_counts(os.path.dirname(BUILDS[build][0]))
            if counts is None:
                notes.append(f"BlazeKit {build}: no `blaze` binary next to bench, detections not checked.")
            else:
                notes.append(f"BlazeKit {build} finds {counts['faces']} faces (FaceLandmarker: {counts['face_landmarks']}), {counts['hands_image']} hands in image "
                             f"mode and {counts['hands_video'][-1]} in video mode (per frame: {counts['hands_video']}).")
        for n in notes:
            log(n)

        for rnd in range(args.rounds):
            for pipeline in args.pipeline:
                if args.quiet is not None:
                    wait_for_quiet(args.quiet, 600)
                log(f"round {rnd + 1}/{args.rounds}: {pipeline}")

                def mediapipe_attempt():
                    runner = MEDIAPIPE[pipeline](workdir)
                    try:
                        return time_calls(runner, args.runs)
                    finally:
                        runner.close()

                ms, share = measured("MediaPipe", mediapipe_attempt, args.retries)
                mp_ms.setdefault(pipeline, []).append(ms)
                mp_share.setdefault(pipeline, []).append(share)
                log(f"  MediaPipe {ms:.3f} ms (CPU/wall {share:.2f})")
                for threads in args.threads:
                    for build in args.builds:
                        (ms, build_info), share = measured(
                            build, lambda: bench_json(build, pipeline, threads, args.runs), args.retries)
                        info[build] = build_info
                        ours.setdefault((build, pipeline, threads), []).append(ms)
                        log(f"  {build} at {threads} thread(s): {ms:.3f} ms (CPU/wall {share:.2f})")

    date = datetime.date.today().isoformat()
    cores_note = ", ".join(f"{b}: level {info[b]['isa']}, OpenBLAS {info[b]['openblas_core']}" for b in args.builds)
    share_note = ", ".join(f"{p} {statistics.median(mp_share[p]):.2f}" for p in args.pipeline)
    print(f"Measured {date} on {cpu_name()} ({os.cpu_count()} cores, {platform.system()} {platform.machine()}), "
          f"MediaPipe {mp_version} Python Tasks API (default threading; CPU time / wall time while timed: {share_note}), "
          f"{cores_note}. Best of {args.rounds} interleaved rounds of {args.runs} calls, median per round, "
          f"measurements that lacked a core repeated; ratio = BlazeKit / MediaPipe (< 1: BlazeKit faster).\n")
    for n in notes:
        print(f"- {n}")
    print()
    header = "| pipeline | BlazeKit threads | MediaPipe ms |"
    rule = "|---|---:|---:|"
    for build in args.builds:
        header += f" {build} ms | {build} / MediaPipe |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for pipeline in args.pipeline:
        ref = min(mp_ms[pipeline])
        for threads in args.threads:
            row = f"| {pipeline} | {threads} | {ref:.3f} |"
            for build in args.builds:
                ms = min(ours[(build, pipeline, threads)])
                row += f" {ms:.3f} | {ms / ref:.2f} |"
            print(row)


if __name__ == "__main__":
    main()
