#!/usr/bin/env bash
# Runs the default `blaze faces` and `blaze hands` as older CPUs under qemu-user (functional
# emulation, no timing): as Nehalem (SSE4.2, no AVX) they must pick the baseline kernels by
# themselves, as Haswell the avx2 kernels, and give the host's JSON within 1e-4 of the image width
# for every number. Needs Debian's qemu-user. Usage: Tools/isa/qemu_levels.sh [BIN_DIR [AARCH64_BIN_DIR]]
# With AARCH64_BIN_DIR (a `make aarch64` or `Tools/aarch64/build` product folder) the aarch64 blaze
# runs too, through Tools/aarch64/run (Cortex-A76), and must pick neon and match the same way.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-$(swift build -c release --show-bin-path)}
arm_bin=${2:-}
command -v qemu-x86_64 >/dev/null || { echo "qemu_levels: qemu-x86_64 not found (apt-get install qemu-user)" >&2; exit 1; }
faces=Tests/Fixtures/testdata/images/three_people.jpg
hands=Tests/Fixtures/testdata/images/two_hands_open_palms.jpg
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
# An OPENBLAS_CORETYPE from the host's environment (some machines set one, e.g. Haswell) forces
# OpenBLAS kernels the emulated CPU lacks; the emulated runs let OpenBLAS detect the CPU itself.
emulate() { env -u OPENBLAS_CORETYPE qemu-x86_64 "$@"; }

# Same text once numbers are removed, and every number within 1e-4 · width of the host's.
compare() {  # compare HOST_JSON OTHER_JSON WHAT
  awk -v what="$3" '
    function numbers(line, out,   n) {
      n = 0
      while (match(line, /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) { out[++n] = substr(line, RSTART, RLENGTH) + 0; line = substr(line, RSTART + RLENGTH) }
      return n
    }
    NR == FNR { host = $0; hostLines++; next }
    {
      lines++
      a = host; b = $0
      sa = a; sb = b; gsub(/-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/, "#", sa); gsub(/-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/, "#", sb)
      if (sa != sb) { print "qemu_levels: " what ": JSON structure differs from the host run" > "/dev/stderr"; exit 1 }
      match(a, /"width": [0-9]+/); width = substr(a, RSTART + 9, RLENGTH - 9) + 0
      na = numbers(a, x); numbers(b, y); worst = 0
      for (i = 1; i <= na; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > worst) worst = d }
      if (worst > 1e-4 * width) { printf "qemu_levels: %s: max |Δ| %g > 1e-4 · width %d\n", what, worst, width > "/dev/stderr"; exit 1 }
      if (na < 50) { printf "qemu_levels: %s: only %d numbers (no detections?)\n", what, na > "/dev/stderr"; exit 1 }
      printf "qemu_levels: %s: %d numbers, max |Δ| %g (limit %g)\n", what, na, worst, 1e-4 * width > "/dev/stderr"
    }
    # One JSON line per side: an empty or extra line means a run printed nothing (or more).
    END { if (hostLines != 1 || lines != 1) { printf "qemu_levels: %s: %d host and %d emulated lines, expected 1 each\n", what, hostLines, lines > "/dev/stderr"; exit 1 } }' "$1" "$2"
}

"$bin/blaze" faces --all --json "$faces" > "$tmp/faces_host.json"
"$bin/blaze" hands --num-hands 2 --json "$hands" > "$tmp/hands_host.json"
# check LABEL WANT RUNNER… BLAZE: that blaze picks level WANT by itself and prints the host's JSON.
check() {
  local label=$1 want=$2 got; shift 2
  got=$("$@" --version 2>/dev/null | sed -n 's/.*kernel level \([a-z0-9]*\);.*/\1/p')
  if [ "$got" != "$want" ]; then echo "qemu_levels: $label, blaze chose '$got', expected $want" >&2; return 1; fi
  "$@" faces --all --json "$faces" 2>/dev/null > "$tmp/faces.json" || { echo "qemu_levels: blaze faces failed $label" >&2; return 1; }
  "$@" hands --num-hands 2 --json "$hands" 2>/dev/null > "$tmp/hands.json" || { echo "qemu_levels: blaze hands failed $label" >&2; return 1; }
  compare "$tmp/faces_host.json" "$tmp/faces.json" "faces $label ($want)" && compare "$tmp/hands_host.json" "$tmp/hands.json" "hands $label ($want)"
}
for cpu_level in Nehalem:baseline Haswell:avx2; do
  cpu=${cpu_level%%:*}
  check "as $cpu" "${cpu_level##*:}" emulate -cpu "$cpu" "$bin/blaze" || status=1
done
if [ -n "$arm_bin" ]; then check "as aarch64 (Cortex-A76)" neon Tools/aarch64/run "$arm_bin/blaze" || status=1; fi
[ $status -eq 0 ] && echo "qemu_levels: ok (host level $("$bin/blaze" --version | sed -n 's/.*kernel level \([a-z0-9]*\);.*/\1/p'))" >&2
exit $status
