#!/usr/bin/env python3
"""BlazeKit `bench` side by side with LiteRT (TFLite + XNNPACK) on the same CPU, interleaved.

For every bundled model, thread count and round, this script times LiteRT's `Interpreter.invoke()`
on the original `.tflite` file (Models/sources; face_landmarks_detector and face_blendshapes are
extracted from face_landmarker.task), then runs `bench --json --model STEM --threads N` of each
BlazeKit build right after it, so both see the same machine load. Each side's figure is the best
per-round median (noise on a shared machine only ever adds time). A measurement during which the
threads did not have their cores (process CPU time < 85 % of threads × wall time: another
process took a core) is repeated, up to --retries times. It prints a markdown table of medians and
BlazeKit/LiteRT ratios (< 1 means BlazeKit is faster).

`bench` runs without OPENBLAS_CORETYPE in its environment (see benchmark_common.bench_env).

--lockstep (the better method on a shared machine) keeps one `bench --serve` process and one LiteRT
interpreter per model and thread count alive and alternates short blocks of runs between them
(--block runs each, --rounds × --runs runs per side in all), every thread count of a model in the
same rotation. Each block pair sees the same machine load, so the ratio reported is the median of
the per-pair ratios of block medians; the times are the medians of all samples. A second table gives
each side's speed-up over the first thread count, the median of the per-round ratios (on a VM whose
speed drifts by 1.5× from minute to minute, speed-ups from separate minutes mean little).

One build, `.build/release/bench` (`swift build -c release`, what an app gets), built first if
missing unless --no-build is given. --levels default (the CPU's best kernel level) and/or named
levels, forced with BLAZE_ISA.

Needs: `pip install ai-edge-litert numpy`.

    python3 Benchmarks/litert_side_by_side.py [--threads 1 2] [--levels default baseline avx2 avx512]
        [--rounds 3] [--runs 60] [--model STEM ...] [--no-build] [--retries 10] [--quiet PCT]
        [--lockstep [--block 5]]
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_common import BUILDS, ROOT, add_common_arguments, bench_env, cpu_name, log, measured, wait_for_quiet  # noqa: E402

SOURCES = os.path.join(ROOT, "Models", "sources")
MODELS = [
    "face_detection_short_range", "face_detection_full_range_sparse", "palm_detection_full",
    "palm_detection_lite", "hand_landmark_full", "hand_landmark_lite", "face_landmarks_detector",
    "face_blendshapes",
]
FROM_TASK = {"face_landmarks_detector", "face_blendshapes"}


def tflite_path(stem, workdir):
    if stem not in FROM_TASK:
        return os.path.join(SOURCES, stem + ".tflite")
    out = os.path.join(workdir, stem + ".tflite")
    if not os.path.exists(out):
        # zipfile finds entries through the end-of-central-directory record, so the 2 bytes before
        # the first local header of the .task bundle do no harm.
        with zipfile.ZipFile(os.path.join(SOURCES, "face_landmarker.task")) as z:
            with open(out, "wb") as f:
                f.write(z.read(stem + ".tflite"))
    return out


class LiteRTModel:
    def __init__(self, path, threads):
        import numpy as np
        from ai_edge_litert.interpreter import Interpreter
        self.interpreter = Interpreter(model_path=path, num_threads=threads)  # XNNPACK by default
        self.interpreter.allocate_tensors()
        rng = np.random.default_rng(0)
        for d in self.interpreter.get_input_details():
            self.interpreter.set_tensor(d["index"], rng.random(d["shape"], dtype=np.float32))
        for _ in range(5):
            self.interpreter.invoke()

    def samples_ms(self, runs):
        out = []
        for _ in range(runs):
            t = time.perf_counter_ns()
            self.interpreter.invoke()
            out.append((time.perf_counter_ns() - t) / 1e6)
        return out

    def median_ms(self, runs, threads):
        """Median latency and the share of time the threads had a core (process CPU / threads·wall)."""
        samples = []
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for _ in range(runs):
            t = time.perf_counter_ns()
            self.interpreter.invoke()
            samples.append((time.perf_counter_ns() - t) / 1e6)
        share = (time.process_time() - cpu0) / (threads * (time.perf_counter() - wall0))
        return statistics.median(samples), share


def bench_json(level, stem, threads, runs):
    """bench's JSON and the share of time its threads had a core (from its progress line on stderr)."""
    r = subprocess.run([BUILDS[level][0], "--json", "--no-alloc-count", "--model", stem, "--threads", str(threads), "--runs", str(runs)],
                       capture_output=True, text=True, check=True, env=bench_env(level))
    m = re.search(r"threads had a core (\d+) %", r.stderr)
    return json.loads(r.stdout), (int(m.group(1)) / 100 if m else 1.0)


class BenchServer:
    """A `bench --serve` process: one model (`model_args`: `--model STEM` or `--model-file PATH`)
    loaded and warmed up, timing blocks of runs on request."""
    def __init__(self, level, model_args, threads):
        self.process = subprocess.Popen([BUILDS[level][0], "--serve", *model_args, "--threads", str(threads)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=bench_env(level))
        ready = self.process.stdout.readline().split()
        if not ready or ready[0] != "ready":
            sys.exit(f"bench --serve did not start with {model_args}: {ready}")
        self.isa = ready[1]

    def samples_ms(self, runs):
        self.process.stdin.write(f"{runs}\n")
        self.process.stdin.flush()
        return [float(x) for x in self.process.stdout.readline().split()]

    def close(self):
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        self.process.wait()


def lockstep(args, workdir):
    """Per model: alternating blocks of LiteRT and BlazeKit runs, every thread count in the same
    rotation (so the speed-ups between thread counts are measured under the same load too)."""
    rows = {}  # (stem, threads) -> (litert ms, {build: (ms, ratio)})
    speedups = {}  # (stem, threads) -> (litert speed-up, {build: speed-up}) over the first thread count
    isa = {}
    blocks = max(1, args.rounds * args.runs // args.block)
    for stem in args.model:
        path = tflite_path(stem, workdir)
        if args.quiet is not None:
            wait_for_quiet(args.quiet, 600)
        log(f"lockstep: {stem} at {' and '.join(map(str, args.threads))} thread(s), {blocks} rounds of one block of {args.block} runs per side and thread count")
        lite = {t: LiteRTModel(path, t) for t in args.threads}
        servers = {t: {b: BenchServer(b, ["--model", stem], t) for b in args.builds} for t in args.threads}
        lite_all = {t: [] for t in args.threads}
        ours_all = {t: {b: [] for b in args.builds} for t in args.threads}
        lite_medians = {t: [] for t in args.threads}
        ours_medians = {t: {b: [] for b in args.builds} for t in args.threads}
        for _ in range(blocks):
            for t in args.threads:
                lite_block = lite[t].samples_ms(args.block)
                lite_all[t] += lite_block
                lite_medians[t].append(statistics.median(lite_block))
                for b, server in servers[t].items():
                    # Let the other side's idle threads stop: a bench worker polls for up to
                    # 2.3 ms after its last task before it parks (WorkerPool).
                    time.sleep(0.003)
                    block = server.samples_ms(args.block)
                    ours_all[t][b] += block
                    ours_medians[t][b].append(statistics.median(block))
                time.sleep(0.003)
        first = args.threads[0]

        def median_ratio(xs, ys):
            return statistics.median([x / y for x, y in zip(xs, ys)])

        for t in args.threads:
            for b, server in servers[t].items():
                isa[b] = server.isa
                server.close()
            rows[(stem, t)] = (statistics.median(lite_all[t]),
                               {b: (statistics.median(ours_all[t][b]), median_ratio(ours_medians[t][b], lite_medians[t]))
                                for b in args.builds})
            speedups[(stem, t)] = (median_ratio(lite_medians[first], lite_medians[t]),
                                   {b: median_ratio(ours_medians[first][b], ours_medians[t][b]) for b in args.builds})
        del lite
    return rows, speedups, isa


def print_speedups(builds, first, speedups):
    """Speed at each thread count over the first, per side: medians of per-round ratios."""
    header, rule = f"| model | threads | LiteRT speed-up over {first} |", "|---|---:|---:|"
    for build in builds:
        header += f" {build} speed-up |"
        rule += "---:|"
    print(header)
    print(rule)
    for (stem, threads), (lite, ours) in speedups.items():
        if threads != first:
            print(f"| {stem} | {threads} | {lite:.2f} |" + "".join(f" {ours[b]:.2f} |" for b in builds))


def print_table(builds, rows):
    """The markdown table: rows of (model, threads, LiteRT ms, [(BlazeKit ms, ratio) per build])."""
    header, rule = "| model | threads | LiteRT ms |", "|---|---:|---:|"
    for build in builds:
        header += f" {build} ms | {build} / LiteRT |"
        rule += "---:|---:|"
    print(header)
    print(rule)
    for stem, threads, ref, ours in rows:
        print(f"| {stem} | {threads} | {ref:.3f} |" + "".join(f" {ms:.3f} | {ratio:.2f} |" for ms, ratio in ours))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--runs", type=int, default=60, help="timed runs per side, model, thread count and round")
    ap.add_argument("--settle", type=float, default=1.0, help="seconds to pause before each bench process")
    ap.add_argument("--model", nargs="+", choices=MODELS, default=MODELS)
    ap.add_argument("--lockstep", action="store_true",
                    help="alternate blocks of runs between one bench --serve process and LiteRT (see above)")
    ap.add_argument("--block", type=int, default=5, help="--lockstep: runs per block")
    add_common_arguments(ap, "model and thread count")
    args = ap.parse_args()

    try:
        import ai_edge_litert
        litert_version = getattr(ai_edge_litert, "__version__", None)
    except ImportError:
        sys.exit("ai_edge_litert is missing: pip install ai-edge-litert numpy")
    if litert_version is None:
        try:
            from importlib.metadata import version
            litert_version = version("ai-edge-litert")
        except Exception:
            litert_version = "?"

    for build in args.builds[:1]:
        binary, command = BUILDS[build]
        if not os.path.exists(binary):
            if args.no_build:
                sys.exit(f"{binary} is missing (build it with: {' '.join(command)})")
            log(f"building {build}: {' '.join(command)}")
            subprocess.run(command, cwd=ROOT, check=True, stdout=sys.stderr)

    if args.lockstep:
        with tempfile.TemporaryDirectory() as workdir:
            rows, speedups, isa = lockstep(args, workdir)
        print(f"Measured {datetime.date.today().isoformat()} on {cpu_name()} ({os.cpu_count()} cores, {platform.system()} "
              f"{platform.machine()}), LiteRT {litert_version} (XNNPACK), "
              + ", ".join(f"{b}: level {isa[b]}" for b in args.builds)
              + f". Lockstep: blocks of {args.block} runs alternating between LiteRT and BlazeKit, "
              f"{args.rounds * args.runs} runs per side; times are medians of all runs, ratio = median of "
              f"the per-block-pair ratios = BlazeKit / LiteRT (< 1: BlazeKit faster).\n")
        print_table(args.builds, [(stem, threads, ref, list(ours.values())) for (stem, threads), (ref, ours) in rows.items()])
        if len(args.threads) > 1:
            print(f"\nSpeed-up over {args.threads[0]} thread(s), the same rounds: median of the per-round ratios of block medians.\n")
            print_speedups(args.builds, args.threads[0], speedups)
        return

    litert = {}   # (stem, threads) -> [round medians]
    ours = {}     # (build, stem, threads) -> [round medians]
    info = {}     # build -> build object of bench --json
    with tempfile.TemporaryDirectory() as workdir:
        for rnd in range(args.rounds):
            for stem in args.model:
                path = tflite_path(stem, workdir)
                for threads in args.threads:
                    if args.quiet is not None:
                        wait_for_quiet(args.quiet, 600)
                    log(f"round {rnd + 1}/{args.rounds}: {stem} at {threads} thread(s)")
                    lite = LiteRTModel(path, threads)
                    litert.setdefault((stem, threads), []).append(
                        measured("LiteRT", lambda: lite.median_ms(args.runs, threads), args.retries)[0])
                    del lite
                    for build in args.builds:
                        # A pause between processes. On the 2-vCPU VM this was written on, 2-thread
                        # runs are bimodal (a whole process runs at about 1-thread speed, or at full
                        # speed), more often slow right after another 2-thread process; best-of-rounds
                        # and the pause keep the slow mode out of the table.
                        time.sleep(args.settle)
                        j, _ = measured(build, lambda: bench_json(build, stem, threads, args.runs), args.retries)
                        info[build] = j["build"]
                        ours.setdefault((build, stem, threads), []).append(j["models"][stem]["median_ms"])

    date = datetime.date.today().isoformat()
    cores = os.cpu_count()
    cores_note = ", ".join(f"{b}: level {info[b]['isa']}, OpenBLAS {info[b]['openblas_core']}" for b in args.builds)
    print(f"Measured {date} on {cpu_name()} ({cores} cores, {platform.system()} {platform.machine()}), "
          f"LiteRT {litert_version} (XNNPACK), {cores_note}. Best of {args.rounds} interleaved rounds of "
          f"{args.runs} runs, median per round, measurements whose threads lacked a core repeated; "
          f"ratio = BlazeKit / LiteRT (< 1: BlazeKit faster).\n")
    table = []
    for stem in args.model:
        for threads in args.threads:
            ref = min(litert[(stem, threads)])
            table.append((stem, threads, ref, [(min(ours[(b, stem, threads)]), min(ours[(b, stem, threads)]) / ref) for b in args.builds]))
    print_table(args.builds, table)

if __name__ == "__main__":
    main()
