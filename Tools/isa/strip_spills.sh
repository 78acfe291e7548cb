#!/bin/bash
# Lists the conv strip specialisations (`ConvStrip<V, MR, NV, F>.run`) of a built binary with the
# number of vector stores to the stack in each, per ISA module. A strip whose accumulators LLVM
# keeps in memory stores one after every FMA of its K loop (tens to ~100 here); a handful is the
# prologue or the epilogue. Use after changing ConvMicroKernel.swift:
#   swift build -c release --product bench && Tools/isa/strip_spills.sh .build/release/bench [MIN]
# prints the specialisations with at least MIN (default 20) such stores and exits 1, or prints
# "none". `.ci/run` runs it on the test build's bench with MIN 40 (the baseline level's 16 xmm
# registers leave a few 4×2 / 6×2 strips at 20–24; a K-loop spill is 70 or more).
# An aarch64 binary (`make aarch64`) is read with llvm-objdump: q-register stores to sp or x29.
set -euo pipefail
bin=${1:?usage: strip_spills.sh BINARY [MIN]}
min=${2:-20}
# ELF e_machine (2 bytes at offset 18): 0x3e x86-64, 0xb7 aarch64.
case $(od -An -tx2 -j18 -N2 "$bin" | tr -d ' ') in
  003e) dump=(objdump -d --no-show-raw-insn) store="v?mov[au]ps %[xyz]mm[0-9]+,-?0x[0-9a-f]+\(%r[bs]p\)" ;;
  00b7) dump=(llvm-objdump -d --no-show-raw-insn) store="(stp|stur|str)[[:space:]]+q[0-9]+,.*\[(sp|x29)" ;;
  *) echo "strip_spills: $bin is neither an x86-64 nor an aarch64 ELF file" >&2; exit 1 ;;
esac
# One disassembly of the whole binary: for each strip's `run`, the stack stores from its label to
# its first return. The pattern goes through the environment, where awk keeps its backslashes.
counts=$("${dump[@]}" "$bin" | STORE="$store" awk '
  /^[0-9a-f]+ <.*>:$/ { strip = ($2 ~ /ConvStrip/ && $2 ~ /3run/); if (strip) { name = $2; n = 0; strips++ } ; next }
  strip && /\tret/ { print n, substr(name, 2, length(name) - 3); strip = 0; next }
  strip && $0 ~ ENVIRON["STORE"] { n++ }
  END { print "strips", strips + 0 }')
strips=$(echo "$counts" | awk '$1 == "strips" {print $2}')
# No strip at all means the symbols moved or the binary is not the one meant: a check of nothing fails.
if [ "$strips" -eq 0 ]; then echo "strip_spills: no ConvStrip…run symbol in $bin" >&2; exit 1; fi
found=0
while read -r n name; do
  plain=$(echo "$name" | swift demangle --compact)
  module=$(echo "$plain" | grep -oE 'BlazeKernels[A-Za-z0-9]*' | head -1 || true)
  shape=$(echo "$plain" | grep -oE '<Swift\.SIMD[0-9]+<Swift\.Float>, [0-9]+, [0-9]+, [0-9]+>' | head -1 || true)
  echo "$n stack stores: $module ConvStrip$shape"
  found=1
done < <(echo "$counts" | awk -v min="$min" '$1 != "strips" && $1 >= min')
if [ $found -eq 1 ]; then exit 1; fi
echo "none ($strips strip specialisations)"
