"""What the side-by-side scripts of Benchmarks/ share: the BlazeKit build and its kernel levels, running their
`bench` binaries, retrying measurements that lacked a core, waiting for a quiet machine."""
import os
import platform
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# One build (what an app gets from `swift build -c release`); its kernel level is chosen at run time.
# "default" lets bench pick the CPU's best level; a named level is forced with BLAZE_ISA.
BENCH = os.path.join(ROOT, ".build", "release", "bench")
BUILD_COMMAND = ["swift", "build", "-c", "release", "--product", "bench"]
LEVELS = ["default", "baseline", "avx2", "avx512"]
# level → (bench binary, command that builds it): the same binary for every level.
BUILDS = {level: (BENCH, BUILD_COMMAND) for level in LEVELS}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def bench_env(level="default"):
    """The environment for BlazeKit's binaries: ours without OPENBLAS_CORETYPE (a sandbox may set it
    to a core that keeps OpenBLAS off its AVX-512 kernels; BlazeKit picks them itself when unset),
    and BLAZE_ISA=level unless level is "default"."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("BLAZE_ISA", None)
    if level != "default":
        env["BLAZE_ISA"] = level
    return env


def measured(what, attempt, retries):
    """Runs attempt() → (value, share) until the threads had their cores (share of CPU time over
    threads × wall time ≥ 0.85) or retries run out; returns the last (value, share)."""
    for i in range(retries + 1):
        value, share = attempt()
        if share >= 0.85:
            return value, share
        log(f"  {what}: threads had a core {share:.0%} of the time (machine busy), " +
            ("retrying" if i < retries else "keeping it"))
        time.sleep(3)
    return value, share


def cpu_pressure():
    """avg10 of /proc/pressure/cpu "some" (share of time runnable tasks waited for a CPU), or None."""
    try:
        with open("/proc/pressure/cpu") as f:
            return float(f.readline().split()[1].split("=")[1])
    except (OSError, IndexError, ValueError):
        return None


def wait_for_quiet(threshold, limit_s):
    """On a shared machine, wait until other load has calmed down (best effort, at most limit_s)."""
    start = time.time()
    while time.time() - start < limit_s:
        p = cpu_pressure()
        if p is None or p < threshold:
            return
        time.sleep(2)
    log(f"CPU still busy (pressure {cpu_pressure()}) after {limit_s:.0f} s; measuring anyway")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def add_common_arguments(ap, unit):
    """The options both scripts take: --levels, --rounds, --no-build, --retries, --quiet (checked
    before each `unit`, e.g. "model and thread count")."""
    ap.add_argument("--levels", dest="builds", nargs="+", choices=LEVELS, default=["default"],
                    help="kernel levels to measure (default: the CPU's best; others via BLAZE_ISA)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--retries", type=int, default=10, help="repeats of a measurement whose threads lacked a core")
    ap.add_argument("--quiet", type=float, default=None, metavar="PCT",
                    help=f"before each {unit}, wait (up to 10 min) until /proc/pressure/cpu avg10 < PCT")
