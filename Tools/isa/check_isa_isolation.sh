#!/usr/bin/env bash
# Checks that no code of one ISA kernel level can be reached from code of another level.
#
#  1. No function symbol is defined both by an AVX kernel module (BlazeKernelsAVX2 / AVX512) and by
#     any other module of the build. The linker keeps one copy of a weak (linkonce) symbol, so a
#     shared specialisation or helper would make baseline code run the AVX copy: SIGILL on a CPU
#     without AVX. (Compiler-emitted `__swift_*` runtime helpers are checked by 2 instead.)
#  2. In each linked binary, no function outside the AVX modules contains an instruction a
#     baseline x86-64 CPU lacks: VEX/EVEX encodings (v*, ymm/zmm/k registers) or BMI/LZCNT/MOVBE.
#
# Usage: Tools/isa/check_isa_isolation.sh [BUILD_DIR] [BINARY…]   (default: swift's release bin path
# and its blaze, bench, blaze-model and BlazeKitPackageTests.xctest if present). Exit 1 on a finding.
# Read a plain build (no testability): .ci/run gives it the consumer app's (consumer_app_check.sh).
# A test build (`swift test`, -enable-testing) exports the stdlib specialisations each module makes
# (max/min of Int, InlineArray inits), so check 1 fails there by construction; ISA_CHECK=instructions
# runs check 2 alone, which .ci/run does on the test build's blaze, bench and blaze-model.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-$(swift build -c release --show-bin-path)}
shift || true
binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
  for b in blaze bench blaze-model BlazeKitPackageTests.xctest; do [ -f "$bin/$b" ] && binaries+=("$bin/$b"); done
fi
isa_modules=(BlazeKernelsAVX2 BlazeKernelsAVX512)
status=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

defined_functions() {  # global or weak text symbols defined by the objects of module $1 (none: not built)
  compgen -G "$bin/$1.build/*.o" >/dev/null || return 0
  nm --defined-only "$bin/$1.build/"*.o 2>/dev/null | awk '$2 ~ /^[TW]$/ {print $3}' | sort -u
}

modules=""
if [ "${ISA_CHECK:-all}" != instructions ]; then
  modules=$(cd "$bin" && ls -d *.build 2>/dev/null | sed 's/\.build$//' | grep -v -E 'Tests$|PackageTests|^blaze|^bench')
fi
if [ ${#binaries[@]} -eq 0 ]; then echo "check_isa_isolation: no binary to read in $bin" >&2; exit 1; fi
if [ "${ISA_CHECK:-all}" != instructions ]; then
  # Check 1 must read the AVX modules' objects; without them it would compare nothing and pass.
  for isa in "${isa_modules[@]}"; do
    compgen -G "$bin/$isa.build/*.o" >/dev/null || { echo "check_isa_isolation: no objects of $isa in $bin" >&2; exit 1; }
  done
fi
for m in $modules; do defined_functions "$m" > "$tmp/$m"; done
for isa in "${isa_modules[@]}"; do
  [ -f "$tmp/$isa" ] || continue
  for other in $modules; do
    [ "$other" = "$isa" ] && continue
    shared=$(comm -12 "$tmp/$isa" "$tmp/$other" | grep -v '^__swift_' || true)
    if [ -n "$shared" ]; then
      echo "check_isa_isolation: $isa and $other both define:" >&2
      echo "$shared" | sed 's/^/  /' >&2
      status=1
    fi
  done
done

# Instructions a baseline (SSE2) x86-64 lacks. Mnemonic starting with v (VEX/EVEX; not verr/verw/
# vm* virtualisation), any ymm/zmm/mask register, or a BMI1/BMI2/LZCNT/MOVBE/ADX instruction.
# (`tzcnt` is not flagged: LLVM emits `rep bsf` for baseline CPUs, which objdump shows as tzcnt.)
for b in "${binaries[@]}"; do
  objdump -d --no-show-raw-insn "$b" | awk -v bin="$(basename "$b")" '
    /^[0-9a-f]+ <.*>:$/ { fn = $2; isa = (fn ~ /BlazeKernelsAVX(2|512)/); functions++; isaFunctions += isa; next }
    isa { next }
    {
      split($0, parts, "\t"); ins = parts[2]; if (ins == "") next
      split(ins, w, " "); op = w[1]
      bad = 0
      if (op ~ /^v/ && op !~ /^(verr|verw|vm)/) bad = 1
      if (ins ~ /%[yz]mm[0-9]|%k[0-7]/) bad = 1
      if (op ~ /^(andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx|lzcnt|movbe|adcx|adox)[lqw]?$/) bad = 1
      if (bad && !(fn in seen)) { seen[fn] = 1; printf "check_isa_isolation: %s: %s uses %s\n", bin, fn, op > "/dev/stderr"; found = 1 }
    }
    END {
      # A binary with no functions, or none of the AVX modules, means this read checked nothing.
      if (functions == 0 || isaFunctions == 0) { printf "check_isa_isolation: %s: %d functions, %d in AVX modules\n", bin, functions, isaFunctions > "/dev/stderr"; exit 1 }
      exit found ? 1 : 0
    }' || status=1
done
[ $status -eq 0 ] && echo "check_isa_isolation: ok (${#binaries[@]} binaries; modules: $(echo $modules | wc -w))" >&2
exit $status
