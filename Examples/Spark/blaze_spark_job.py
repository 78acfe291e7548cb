#!/usr/bin/env python3
"""Runs `blaze faces` or `blaze hands` over many images on a Spark cluster (or Spark local mode).

Two kinds of input:

- `--list URI`: a text file of image paths, one per line, that every executor can open as local
  files (a shared file system, NFS, a volume mounted on every node). Spark reads the list itself
  from any Hadoop-readable store (`file://`, `hdfs://`, `s3a://`…). Each partition of the list is
  piped through one `blaze … --files-from - --json` process with `RDD.pipe()`.
- `--images URI`: a folder of images in any Hadoop-readable store. Spark reads the bytes
  (`binaryFiles`); each partition writes its images to a local temporary folder on the executor,
  runs blaze on them, and puts the store's URI back into each line's "image" field.

Output: the JSON Lines of docs/cli.md, one line per readable image, written with
`saveAsTextFile(OUTPUT)` (one part file per partition, in partition order). Unreadable images
give no line (blaze reports them on the executor's stderr).

`blaze` must be installed at the same path on every executor (`--blaze PATH`, default: `blaze` on
PATH). Give each blaze `--jobs` = the cores of one Spark task (1 by default: Spark already runs one
task per core).

    spark-submit blaze_spark_job.py --list paths.txt --output out/ faces --all
    spark-submit blaze_spark_job.py --images s3a://bucket/photos/ --output s3a://bucket/faces/ hands --num-hands 2
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import tempfile

from pyspark.sql import SparkSession


def blaze_command(args):
    return [args.blaze] + args.command + ["--json", "--jobs", str(args.jobs_per_task), "--no-progress", "--files-from", "-"]


def run_on_bytes(command):
    """A mapPartitions function: (uri, bytes) pairs → JSON lines with the URIs restored."""
    def run(pairs):
        workdir = tempfile.mkdtemp(prefix="blaze-spark-")
        try:
            local_to_uri = {}
            paths = []
            for i, (uri, data) in enumerate(pairs):
                # Keep the extension: blaze sniffs content, but folders and messages read better.
                local = os.path.join(workdir, f"{i:08d}{os.path.splitext(uri)[1]}")
                with open(local, "wb") as f:
                    f.write(data)
                local_to_uri[local] = uri
                paths.append(local)
            if not paths:
                return
            done = subprocess.run(command, input="\n".join(paths).encode() + b"\n", stdout=subprocess.PIPE, check=False)
            if done.returncode not in (0, 1):   # 1: some image was unreadable, the others have lines
                raise RuntimeError(f"blaze exited with {done.returncode}")
            for line in done.stdout.decode().splitlines():
                record = json.loads(line)
                record["image"] = local_to_uri.get(record["image"], record["image"])
                yield json.dumps(record)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--list", help="text file of image paths that every executor can read")
    source.add_argument("--images", help="folder of images in any Hadoop-readable store")
    ap.add_argument("--output", required=True, help="where saveAsTextFile writes the JSON Lines")
    ap.add_argument("--blaze", default="blaze", help="the blaze executable on every executor")
    ap.add_argument("--partitions", type=int, default=None)
    ap.add_argument("--jobs-per-task", type=int, default=1, help="blaze --jobs inside one Spark task")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="faces|hands and their options (docs/cli.md)")
    args = ap.parse_args()
    if not args.command or args.command[0] not in ("faces", "hands"):
        ap.error("give the blaze command after the options: faces … or hands …")

    spark = SparkSession.builder.appName("blaze-" + args.command[0]).getOrCreate()
    sc = spark.sparkContext
    if args.list:
        paths = sc.textFile(args.list, minPartitions=args.partitions or sc.defaultParallelism)
        # pipe() takes one command string (split with shlex); checkCode=False: exit status 1 only
        # means some image was unreadable, the others have their lines.
        command = " ".join(shlex.quote(a) for a in blaze_command(args))
        lines = paths.filter(lambda p: p.strip() != "").pipe(command, checkCode=False)
    else:
        images = sc.binaryFiles(args.images, minPartitions=args.partitions or sc.defaultParallelism)
        lines = images.mapPartitions(run_on_bytes(blaze_command(args)))
    lines.saveAsTextFile(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
