#!/usr/bin/env python3
"""Folder throughput of `blaze faces|hands` side by side with MediaPipe 0.10.21 Python, decode included.

The folder: the 20 photos of Tests/Fixtures/testdata/images copied --copies times (default 12, so
240 files) under distinct names into a temporary folder (or --folder DIR of your own).

- `faces`: `blaze faces --json DIR` (defaults: fast mode, --jobs = every core) against MediaPipe's
  legacy `mp.solutions.face_detection.FaceDetection(model_selection=0)` (the same short-range
  model) over the same files, each read with `cv2.imread` and converted BGR→RGB.
- `hands`: `blaze hands --num-hands 2 --json DIR` (full models) against
  `mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1)`.

Timing: BlazeKit is the whole `blaze` process, wall clock (start-up and model loading included);
MediaPipe is its loop over the files (the solution object made before the clock starts). Rounds
interleave the two sides; each side's figure is its best round. Both sides' face or hand counts are
printed next to the rates, so a speed-up that loses detections shows.

`--rss`: peak RSS of `blaze faces --files-from LIST` with 100 and with 10 000 listed paths (the
folder's files repeated), the memory bound the issue sets (≤ 100-path figure + 20 MB).

Needs `pip install mediapipe==0.10.21` (it brings opencv-contrib-python and numpy) and a release
build of `blaze` (`swift build -c release --product blaze`).

    python3 Benchmarks/folder_throughput.py [--copies 12] [--rounds 3] [--pipeline faces hands] [--rss]
"""
import argparse
import glob
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_common import ROOT, bench_env, cpu_name, log  # noqa: E402

IMAGES = os.path.join(ROOT, "Tests", "Fixtures", "testdata", "images")
BLAZE = os.path.join(ROOT, ".build", "release", "blaze")
BLAZE_ARGS = {"faces": ["faces", "--json"], "hands": ["hands", "--num-hands", "2", "--json"]}


def make_folder(copies):
    folder = tempfile.mkdtemp(prefix="blaze-folder-")
    sources = sorted(glob.glob(os.path.join(IMAGES, "*")))
    for i in range(copies):
        for src in sources:
            shutil.copy(src, os.path.join(folder, f"{i:03d}_{os.path.basename(src)}"))
    return folder


def image_files(folder):
    exts = (".jpg", ".jpeg", ".png", ".ppm", ".pgm", ".pnm")
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.lower().endswith(exts))


def run_blaze(pipeline, extra, stdin=None):
    """(wall seconds, JSON lines) of one blaze process."""
    start = time.perf_counter()
    proc = subprocess.Popen([BLAZE] + BLAZE_ARGS[pipeline] + extra, stdin=subprocess.PIPE if stdin else None,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=bench_env())
    out, err = proc.communicate(stdin)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"blaze failed ({proc.returncode}): {err.decode()[-500:]}")
    return wall, [json.loads(line) for line in out.decode().splitlines()]


def blaze_count(pipeline, lines):
    key = "faces" if pipeline == "faces" else "hands"
    return sum(len(line[key]) for line in lines)


def mediapipe_round(pipeline, files):
    import cv2
    import mediapipe as mp
    if pipeline == "faces":
        solution = mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5)
        count_of = lambda r: len(r.detections or [])  # noqa: E731
    else:
        solution = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=1,
                                            min_detection_confidence=0.5)
        count_of = lambda r: len(r.multi_hand_landmarks or [])  # noqa: E731
    count = 0
    start = time.perf_counter()
    for path in files:
        rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
        count += count_of(solution.process(rgb))
    wall = time.perf_counter() - start
    solution.close()
    return wall, count


def peak_rss_kb(pipeline, list_path):
    """Peak RSS of one blaze process reading its paths from list_path (GNU time's %M)."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", BLAZE] + BLAZE_ARGS[pipeline] + ["--files-from", list_path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=bench_env(), check=True)
    return int(out.stderr.decode().strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--copies", type=int, default=12)
    ap.add_argument("--folder", help="use this folder instead of copies of the test photos")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pipeline", nargs="+", choices=list(BLAZE_ARGS), default=list(BLAZE_ARGS))
    ap.add_argument("--jobs", help="pass --jobs N to blaze (default: blaze's own default, every core)")
    ap.add_argument("--rss", action="store_true", help="also measure peak RSS at 100 and 10 000 listed paths")
    args = ap.parse_args()
    if not os.path.exists(BLAZE):
        subprocess.run(["swift", "build", "-c", "release", "--product", "blaze"], cwd=ROOT, check=True)
    folder = args.folder or make_folder(args.copies)
    files = image_files(folder)
    extra = ["--jobs", args.jobs] if args.jobs else []
    print(f"host: {cpu_name()}, {os.cpu_count()} cores, {platform.machine()}; {len(files)} files in {folder}")
    for pipeline in args.pipeline:
        best_blaze, best_mp = None, None
        for r in range(args.rounds):
            mp_wall, mp_count = mediapipe_round(pipeline, files)
            wall, lines = run_blaze(pipeline, extra + [folder])
            count = blaze_count(pipeline, lines)
            log(f"{pipeline} round {r + 1}: blaze {len(files) / wall:.1f} images/s ({count} found), "
                f"MediaPipe {len(files) / mp_wall:.1f} images/s ({mp_count} found)")
            best_blaze = wall if best_blaze is None else min(best_blaze, wall)
            best_mp = mp_wall if best_mp is None else min(best_mp, mp_wall)
        b, m = len(files) / best_blaze, len(files) / best_mp
        print(f"{pipeline}: blaze {b:.1f} images/s, MediaPipe {m:.1f} images/s, ratio {b / m:.2f}× "
              f"(blaze found {count}, MediaPipe {mp_count})")
    if args.rss:
        with tempfile.TemporaryDirectory() as tmp:
            figures = {}
            for n in (100, 10_000):
                list_path = os.path.join(tmp, f"list{n}.txt")
                with open(list_path, "w") as f:
                    for i in range(n):
                        f.write(files[i % len(files)] + "\n")
                figures[n] = peak_rss_kb("faces", list_path)
            print(f"peak RSS, blaze faces --files-from: 100 paths {figures[100] / 1024:.1f} MB, "
                  f"10 000 paths {figures[10_000] / 1024:.1f} MB (bound: +20 MB)")
    if not args.folder:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
