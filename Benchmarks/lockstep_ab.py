#!/usr/bin/env python3
"""Lockstep A/B of two builds' nets: runs `bench --json --threads T --no-alloc-count --runs N` of
BEFORE and AFTER alternately (the order flips every round), then prints per net the median of each
build's per-round medians and their ratio. For a refactor that must keep the speed (docs/engine.md);
pause other work on the machine while it runs.

    python3 Benchmarks/lockstep_ab.py BEFORE/bench AFTER/bench [--rounds 4] [--threads 1] [--runs 200] [--model STEM]…
"""
import argparse
import json
import statistics
import subprocess


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=200)
    p.add_argument("--model", action="append", default=[])
    a = p.parse_args()
    extra = [x for m in a.model for x in ("--model", m)]
    medians = {"before": {}, "after": {}}
    for r in range(a.rounds):
        order = [("before", a.before), ("after", a.after)]
        for name, binary in order if r % 2 == 0 else reversed(order):
            out = subprocess.run(
                [binary, "--json", "--threads", str(a.threads), "--no-alloc-count", "--runs", str(a.runs)] + extra,
                capture_output=True, text=True, check=True).stdout
            for stem, m in json.loads(out)["models"].items():
                medians[name].setdefault(stem, []).append(m["median_ms"])
    for stem in sorted(medians["before"]):
        b, f = medians["before"][stem], medians["after"].get(stem, [])
        if not f:
            continue
        mb, mf = statistics.median(b), statistics.median(f)
        print(f"{stem:34s} before {mb:8.3f} ms  after {mf:8.3f} ms  after/before {mf / mb:.3f}"
              f"  (rounds {min(b):.3f}–{max(b):.3f} / {min(f):.3f}–{max(f):.3f})")


if __name__ == "__main__":
    main()
