#!/usr/bin/env python3
"""Compare a built ``blaze-model`` binary against the LiteRT parity fixtures.

For every net (stem) in ``<fixtures>/manifest.json`` this script

1. finds the original model named by the manifest's ``source`` field in
   ``--models-dir`` (``face_landmarker.task:<entry>`` sources are extracted from
   the .task zip into a temporary directory first) and checks its sha256 against
   the manifest;
2. converts it:  ``blaze-model convert IN.tflite -o OUT.bkm``;
3. for every case: ``blaze-model run OUT.bkm --input <case>/input.npy --output-dir TMP``
   and loads ``TMP/<sanitized output name>.npy`` for every output in the manifest;
4. computes, per output and case, ``max|out - ref| / max(1, max|ref|)`` and prints
   per net the worst value over outputs and cases with PASS if it is ≤ the
   tolerance (default 1e-4), else FAIL.

A failing conversion / run, a missing output file, a shape mismatch (unless
``--lenient-shapes`` and the element counts agree) or a non-finite value counts
as FAIL for that net.  Exit status: 0 if every net passes, 1 otherwise, 2 on
usage errors.

Usage (from the repository root)::

    swift build -c release --product blaze-model
    python3 Tools/parity/check_against_blaze.py \\
        --blaze-model .build/release/blaze-model \\
        [--models-dir Models/sources] \\
        [--fixtures Tests/BlazeEngineTests/Fixtures/parity]

Needs only python3 + numpy.  The fixtures are made by
``Tools/parity/make_parity_fixtures.py``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_FIXTURES = os.path.join(REPO_ROOT, "Tests", "BlazeEngineTests", "Fixtures", "parity")
DEFAULT_MODELS = os.path.join(REPO_ROOT, "Models", "sources")

_SOURCE_RE = re.compile(r"^(?P<file>[^:()]+?)(?::(?P<entry>[^()]+?))?\s+\(sha256 (?P<sha>[0-9a-f]{64})\)$")


class CheckError(Exception):
    pass


def parse_source(source: str):
    m = _SOURCE_RE.match(source.strip())
    if not m:
        raise CheckError(f"cannot parse manifest source {source!r}")
    return m.group("file"), m.group("entry"), m.group("sha")


def materialize_model(models_dir: str, source: str, work_dir: str, stem: str) -> str:
    """Return a path to the original .tflite for this stem (extracting .task entries)."""
    file_name, entry, sha = parse_source(source)
    path = os.path.join(models_dir, file_name)
    if not os.path.isfile(path):
        raise CheckError(f"model file not found: {path}")
    if entry is None:
        with open(path, "rb") as f:
            data = f.read()
        out_path = path
    else:
        with zipfile.ZipFile(path) as z:
            data = z.read(entry)
        out_path = os.path.join(work_dir, f"{stem}.tflite")
        with open(out_path, "wb") as f:
            f.write(data)
    actual = hashlib.sha256(data).hexdigest()
    if actual != sha:
        print(f"  WARNING {stem}: sha256 of {file_name}{':' + entry if entry else ''} is {actual}, "
              f"manifest says {sha} (fixtures were made from a different model file)")
    return out_path


def run(cmd, timeout):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        raise CheckError(f"timeout after {timeout}s: {' '.join(cmd)}")
    except OSError as e:
        raise CheckError(f"cannot run {cmd[0]}: {e}")
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout or "").strip().splitlines()[-15:]
        raise CheckError(f"exit {proc.returncode}: {' '.join(cmd)}\n      " + "\n      ".join(tail))
    return proc


def load_npy(path: str) -> np.ndarray:
    if not os.path.isfile(path):
        raise CheckError(f"missing output file {path}")
    try:
        return np.load(path, allow_pickle=False)
    except Exception as e:  # noqa: BLE001 - report any malformed file
        raise CheckError(f"cannot read {path}: {e}")


def compare(out: np.ndarray, ref: np.ndarray, lenient_shapes: bool):
    """Return (relative error, max abs diff, max|ref|, note)."""
    note = ""
    if tuple(out.shape) != tuple(ref.shape):
        if lenient_shapes and out.size == ref.size:
            note = f"shape {list(out.shape)} != {list(ref.shape)} (compared flattened)"
        else:
            raise CheckError(f"shape {list(out.shape)} != expected {list(ref.shape)}")
    if out.dtype != np.float32:
        note = (note + "; " if note else "") + f"dtype {out.dtype}"
    o = out.astype(np.float64).reshape(-1)
    r = ref.astype(np.float64).reshape(-1)
    if o.size == 0:
        return 0.0, 0.0, 0.0, note
    if not np.all(np.isfinite(o)):
        return float("inf"), float("inf"), float(np.max(np.abs(r))), (note + "; " if note else "") + "non-finite values"
    diff = float(np.max(np.abs(o - r)))
    ref_max = float(np.max(np.abs(r)))
    return diff / max(1.0, ref_max), diff, ref_max, note


def check_model(stem, info, args, blaze, fixtures, work_root):
    """Return dict with worst result for this net; raises nothing."""
    result = dict(stem=stem, worst=0.0, where="", error=None, notes=[])
    work_dir = os.path.join(work_root, stem)
    os.makedirs(work_dir, exist_ok=True)
    try:
        tflite = materialize_model(args.models_dir, info["source"], work_dir, stem)
        bkm = os.path.join(work_dir, f"{stem}.bkm")
        run([blaze, "convert", tflite, "-o", bkm], args.timeout)
        if not os.path.isfile(bkm):
            raise CheckError(f"convert did not write {bkm}")
        for case in info["cases"]:
            cname = case["name"]
            case_fix = os.path.join(fixtures, stem, cname)
            input_path = os.path.join(case_fix, "input.npy")
            if not os.path.isfile(input_path):
                raise CheckError(f"fixture input missing: {input_path}")
            out_dir = os.path.join(work_dir, "out", cname)
            os.makedirs(out_dir, exist_ok=True)
            run([blaze, "run", bkm, "--input", input_path, "--output-dir", out_dir], args.timeout)
            for o in info["outputs"]:
                ref = load_npy(os.path.join(case_fix, o["file"]))
                out = load_npy(os.path.join(out_dir, o["file"]))
                try:
                    rel, diff, ref_max, note = compare(out, ref, args.lenient_shapes)
                except CheckError as e:
                    raise CheckError(f"{cname}/{o['file']}: {e}")
                if note:
                    result["notes"].append(f"{cname}/{o['file']}: {note}")
                if args.verbose:
                    print(f"    {stem}/{cname}/{o['name']}: max|d|={diff:.3e} max|ref|={ref_max:.4g} "
                          f"rel={rel:.3e}")
                if not (rel <= result["worst"]) or not result["where"]:  # also catches NaN/inf
                    result["worst"] = rel
                    result["where"] = f"{o['name']} @ {cname} (max|d|={diff:.3e}, max|ref|={ref_max:.4g})"
    except CheckError as e:
        result["error"] = str(e)
    return result


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--blaze-model", required=True, help="path to the built blaze-model executable")
    ap.add_argument("--models-dir", default=DEFAULT_MODELS,
                    help="directory with the original .tflite/.task files (default: Models/sources)")
    ap.add_argument("--fixtures", default=DEFAULT_FIXTURES,
                    help="fixture directory with manifest.json (default: Tests/BlazeEngineTests/Fixtures/parity)")
    ap.add_argument("--tolerance", type=float, default=1e-4,
                    help="PASS if worst max|d|/max(1,max|ref|) <= this (default 1e-4)")
    ap.add_argument("--only", action="append", default=None, help="check only this stem (repeatable)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per blaze-model call")
    ap.add_argument("--lenient-shapes", action="store_true",
                    help="accept outputs whose shape differs but whose element count matches")
    ap.add_argument("--keep-temp", action="store_true", help="keep the work directory (.bkm files, outputs)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every output/case comparison")
    args = ap.parse_args(argv)

    blaze = os.path.abspath(args.blaze_model)
    if not (os.path.isfile(blaze) and os.access(blaze, os.X_OK)):
        print(f"error: {args.blaze_model} is not an executable file", file=sys.stderr)
        return 2
    fixtures = os.path.abspath(args.fixtures)
    manifest_path = os.path.join(fixtures, "manifest.json")
    try:
        with open(manifest_path, "r", encoding="utf-8") as f:
            manifest = json.load(f)
    except OSError as e:
        print(f"error: cannot read {manifest_path}: {e}", file=sys.stderr)
        return 2
    models = manifest.get("models", {})
    stems = sorted(models)
    if args.only:
        unknown = sorted(set(args.only) - set(models))
        if unknown:
            print(f"error: stems not in manifest: {unknown}", file=sys.stderr)
            return 2
        stems = [s for s in stems if s in args.only]

    print(f"fixtures: {fixtures} (LiteRT {manifest.get('litert_version', '?')})")
    print(f"blaze-model: {blaze}")
    print(f"tolerance: {args.tolerance:g} on max|d| / max(1, max|ref|)")

    work_root = tempfile.mkdtemp(prefix="blaze_parity_")
    results = []
    try:
        for stem in stems:
            print(f"checking {stem} ({len(models[stem]['cases'])} cases) ...", flush=True)
            results.append(check_model(stem, models[stem], args, blaze, fixtures, work_root))
    finally:
        if args.keep_temp:
            print(f"work directory kept: {work_root}")
        else:
            shutil.rmtree(work_root, ignore_errors=True)

    print()
    width = max([len(s) for s in stems] + [4])
    print(f"{'net':<{width}}  {'worst rel':>10}  result  where")
    n_fail = 0
    for r in results:
        if r["error"] is not None:
            n_fail += 1
            print(f"{r['stem']:<{width}}  {'-':>10}  FAIL    error: {r['error']}")
            continue
        ok = r["worst"] <= args.tolerance
        n_fail += 0 if ok else 1
        print(f"{r['stem']:<{width}}  {r['worst']:>10.3e}  {'PASS' if ok else 'FAIL':<6}  {r['where']}")
        for note in r["notes"]:
            print(f"{'':<{width}}  {'':>10}          note: {note}")
    print()
    print(f"{len(results) - n_fail}/{len(results)} nets pass")
    return 0 if n_fail == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
