#!/bin/bash
# The whole release test suite N times in a row (default 5) while Debian's `stress --cpu C`
# (default: one worker per core) keeps every core busy: the suite must not depend on how fast the
# machine is. Builds once, then `swift test -c release --skip-build` per run; stops at the first
# failing run. Prints one line per run and a summary; exit status 1 if any run failed.
# Usage: Tools/reliability/stress_suite.sh [RUNS] [CPU_WORKERS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
workers=${2:-$(nproc)}
if ! command -v stress >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y stress >&2
fi
# Build exactly what `swift test -c release` runs (testable release build), running no test.
swift test -c release --filter 'stress_suite_build_only_matches_nothing' 1>&2
stress --cpu "$workers" >/dev/null 2>&1 &
stress_pid=$!
trap 'kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true' EXIT
log=$(mktemp)
passed=0
for i in $(seq "$runs"); do
  start=$(date +%s)
  if swift test -c release --skip-build >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "stress_suite: run $i/$runs passed in $(( $(date +%s) - start )) s under stress --cpu $workers: $(grep -E 'Test run with' "$log" | tail -n 1)"
  else
    echo "stress_suite: run $i/$runs FAILED after $(( $(date +%s) - start )) s under stress --cpu $workers:"
    grep -E '✘|error:' "$log" | head -n 40
    break
  fi
done
echo "stress_suite: $passed of $runs runs passed in a row under stress --cpu $workers ($(nproc) cores)"
[ "$passed" -eq "$runs" ]
