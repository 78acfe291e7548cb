#!/usr/bin/env bash
# What an app gets from a tagged version: copies this checkout into a scratch git repository, tags
# it 1.0.0, builds a consumer package that depends on it with `from: "1.0.0"` and no flags
# (`swift build -c release`), and checks that the consumer runs the CPU's best kernel level — not
# baseline on an AVX2 or AVX-512 host. The app links the BlazeKit and BlazeEngine products (every
# library module but the converter), so its build is also what .ci/run's ISA isolation check
# reads: SCRATCH_DIR/ConsumerApp/.build/release. Usage: Tools/isa/consumer_app_check.sh [SCRATCH_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
scratch=${1:-$(mktemp -d)}
mkdir -p "$scratch"
rm -rf "$scratch/BlazeKit" "$scratch/ConsumerApp"

# The dependency: this checkout's committed files, as a tagged repository.
git -C "$root" archive --format=tar HEAD | (mkdir -p "$scratch/BlazeKit" && tar -x -C "$scratch/BlazeKit")
git -C "$scratch/BlazeKit" init -q
git -C "$scratch/BlazeKit" add -A
git -C "$scratch/BlazeKit" -c user.name=ci -c user.email=ci@localhost commit -qm "BlazeKit snapshot"
git -C "$scratch/BlazeKit" tag 1.0.0

# The app: a plain package, no unsafe flags, no -target-cpu.
mkdir -p "$scratch/ConsumerApp/Sources/ConsumerApp"
cat > "$scratch/ConsumerApp/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "ConsumerApp",
    dependencies: [.package(url: "file://$scratch/BlazeKit", from: "1.0.0")],
    targets: [.executableTarget(name: "ConsumerApp", dependencies: [.product(name: "BlazeKit", package: "BlazeKit"), .product(name: "BlazeEngine", package: "BlazeKit")])]
)
MANIFEST
cat > "$scratch/ConsumerApp/Sources/ConsumerApp/main.swift" <<'MAIN'
import BlazeEngine
import BlazeKit
_ = HandLandmarkerOptions()
print("isa \(try KernelLevels.active()) best \(ISALevel.best) supported \(ISALevel.supported.map(\.rawValue).joined(separator: ","))")
MAIN
(cd "$scratch/ConsumerApp" && swift build -c release 1>&2)
line=$("$scratch/ConsumerApp/.build/release/ConsumerApp")
echo "consumer_app_check: $line" >&2
set -- $line
if [ "$2" != "$4" ]; then echo "consumer_app_check: the consumer runs $2, the CPU's best level is $4" >&2; exit 1; fi
if [ "$4" = baseline ]; then echo "consumer_app_check: this CPU has only the baseline level (nothing more to show)" >&2; fi
echo "consumer_app_check: ok — a tagged dependency without flags runs $2" >&2
