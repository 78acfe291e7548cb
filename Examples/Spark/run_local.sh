#!/usr/bin/env bash
# Runs Examples/Spark/blaze_spark_job.py in Spark local mode on this machine, on the committed
# test photos, both input kinds, and checks one output line per readable input. Installs PySpark
# into a virtual environment (needs the network once, and Java 17); not part of `make test`.
#
#   make example-spark        (or Examples/Spark/run_local.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${BLAZE_SPARK_VENV:-.build/spark-venv}
if [ ! -x "$venv/bin/spark-submit" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet pyspark
fi
venv=$(cd "$venv" && pwd)
swift build -c release --product blaze 1>&2
blaze="$(swift build -c release --show-bin-path)/blaze"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 3 copies of the 20 photos (60 inputs), listed by absolute path, plus one missing file.
mkdir -p "$work/photos"
for i in 1 2 3; do
  for f in Tests/Fixtures/testdata/images/*; do cp "$f" "$work/photos/${i}_$(basename "$f")"; done
done
ls "$work"/photos/* > "$work/paths.txt"
echo "$work/photos/missing.jpg" >> "$work/paths.txt"
inputs=$(ls "$work/photos" | wc -l)

check() {  # check OUTPUT_DIR EXPECTED_LINES KEY
  local lines distinct
  lines=$(cat "$1"/part-* | wc -l)
  distinct=$(cat "$1"/part-* | python3 -c 'import json,sys; print(len({json.loads(l)["image"] for l in sys.stdin}))')
  if [ "$lines" -ne "$2" ] || [ "$distinct" -ne "$2" ]; then
    echo "example-spark: $1: $lines lines for $distinct distinct images, expected $2" >&2; exit 1
  fi
  cat "$1"/part-* | python3 -c "import json,sys; assert all('$3' in json.loads(l) for l in sys.stdin)"
  echo "example-spark: $1: $lines lines, one per readable input" >&2
}

export PYSPARK_PYTHON="$venv/bin/python"
submit() { "$venv/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false Examples/Spark/blaze_spark_job.py "$@" 2> "$work/spark.log" \
  || { tail -40 "$work/spark.log" >&2; exit 1; }; }
submit --list "file://$work/paths.txt" --output "file://$work/faces" --blaze "$blaze" --partitions 4 faces --all
check "$work/faces" "$inputs" faces
submit --images "file://$work/photos" --output "file://$work/hands" --blaze "$blaze" --partitions 3 hands --num-hands 2
check "$work/hands" "$inputs" hands
echo "example-spark: passed (Spark local[2], $inputs photos)" >&2
