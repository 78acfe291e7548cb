#!/usr/bin/env bash
# Rewrites the committed generated seeds, Fuzz/Seeds/Generated/<target>/ (small .bkm graphs and
# .npy arrays; see Sources/fuzz-seeds/main.swift), after a change to the graphs or the formats.
# Deterministic: an unchanged library rewrites the same bytes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
swift run -c release --scratch-path "$here/../../.build/fuzz-seeds" fuzz-seeds "$here/Generated" >&2
