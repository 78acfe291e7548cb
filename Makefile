# BlazeKit — the two commands of the README (`make demo`, `make test`) plus `make bench`.
# Each target installs missing Debian packages first; installer and build output go to stderr.
SHELL := /bin/bash
DEBS := libopenblas-dev libturbojpeg0-dev libpng-dev zlib1g-dev pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavdevice-dev

.PHONY: deps demo test bench models sanitize sanitize-threads fuzz fuzz-list example-spark docs format format-check aarch64 test-aarch64 test-aarch64-ci

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing" >&2; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y $$missing >&2; \
	fi

# Faces (all ML Kit features), hands and face landmarks on bundled test photos; annotated PNGs go to demo-output/.
demo: deps
	@swift build -c release --product blaze 1>&2
	@bin=$$(swift build -c release --show-bin-path); mkdir -p demo-output; \
	  $$bin/blaze faces --all --annotate demo-output/faces_three_people.png Tests/Fixtures/testdata/images/three_people.jpg && \
	  $$bin/blaze faces --all --json Tests/Fixtures/testdata/images/sergey_portrait.png | cut -c1-300 && \
	  $$bin/blaze hands --num-hands 2 --annotate demo-output/hands_two_open_palms.png Tests/Fixtures/testdata/images/two_hands_open_palms.jpg && \
	  $$bin/blaze face-landmarks --num-faces 3 --blendshapes --annotate demo-output/face_landmarks_three_people.png Tests/Fixtures/testdata/images/three_people.jpg && \
	  echo "annotated pictures: demo-output/faces_three_people.png demo-output/hands_two_open_palms.png demo-output/face_landmarks_three_people.png"

test: deps
	@swift test -c release

# The whole suite under ThreadSanitizer, then AddressSanitizer (+ LeakSanitizer), each in its
# own build folder; the tools the tests start are built with the same sanitizer. Any report fails.
# BLAZE_SANITIZER tells the short soak test that resident memory is the sanitizer's, not ours.
# Tools/sanitizers/lsan.supp lists the toolchain-internal leaks LeakSanitizer must ignore (why: there).
# TSAN_FLAGS: ThreadSanitizer's pass turns calls that may unwind into invokes, and an invoke of
# LLVM's prefetch intrinsic (Prefetch.swift) is invalid IR; Swift code throws no C++ exceptions.
TSAN_FLAGS := --sanitize=thread -Xswiftc -Xllvm -Xswiftc -tsan-handle-cxx-exceptions=false
sanitize: deps
	@BLAZE_SANITIZER=thread TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  swift test -c release $(TSAN_FLAGS) --scratch-path .build/tsan
	@BLAZE_SANITIZER=address ASAN_OPTIONS="detect_leaks=1" LSAN_OPTIONS="suppressions=$(CURDIR)/Tools/sanitizers/lsan.supp" \
	  swift test -c release --sanitize=address --scratch-path .build/asan

# ThreadSanitizer on the tests that share threads (worker pool, sessions at several thread counts,
# detectors shared across threads, live stream, batches, prefetcher, a 12-frame soak): what
# .ci/run runs; `make sanitize` above runs the whole suite (by hand, see docs/testing.md).
TSAN_TESTS := WorkerPoolTests|ReferencePoolTests|ThreadDeterminismTests|SharedDetectorsConcurrencyTests|HandConcurrencyTests|LiveStreamRunnerTests|HandLiveStreamTests|FaceLandmarkerLiveStreamTests|ParallelBatchTests|DetectorBatchTests|FramePrefetcherTests|ShortSoakTests
sanitize-threads: deps
	@BLAZE_SANITIZER=thread TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  swift test -c release $(TSAN_FLAGS) --scratch-path .build/tsan --filter '$(TSAN_TESTS)'

# libFuzzer harnesses (Fuzz/): `make fuzz-list`; `make fuzz TARGET=fuzz-zip SECONDS=60 [CONFIG=debug]`.
# CONFIG=release (the default) runs more inputs a second; CONFIG=debug builds many times faster and
# keeps `assert`s, so .ci/run's short smoke uses it (docs/testing.md, "What CI's time goes to").
FUZZ_CONFIG := $(or $(CONFIG),release)
FUZZ_TARGETS := fuzz-bkm fuzz-tflite fuzz-zip fuzz-image fuzz-y4m fuzz-npy fuzz-video
fuzz-list:
	@for t in $(FUZZ_TARGETS); do echo $$t; done

fuzz: deps
	@case " $(FUZZ_TARGETS) " in *" $(TARGET) "*) ;; *) echo "make fuzz TARGET=<one of: $(FUZZ_TARGETS)> [SECONDS=60] [CONFIG=release|debug]" >&2; exit 1;; esac
	@case "$(FUZZ_CONFIG)" in release|debug) ;; *) echo "make fuzz: CONFIG is release or debug, not $(FUZZ_CONFIG)" >&2; exit 1;; esac
	@cd Fuzz && swift build -c $(FUZZ_CONFIG) -Xswiftc -sanitize=fuzzer,address --scratch-path ../.build/fuzz --product $(TARGET) 1>&2
	@[ -e Fuzz/Corpus/fuzz-tflite/face_detection_short_range.tflite ] || Fuzz/seed_corpora.sh
	@mkdir -p .build/fuzz-artifacts
	@.build/fuzz/$(FUZZ_CONFIG)/$(TARGET) -max_total_time=$(or $(SECONDS),60) -rss_limit_mb=4096 -timeout=20 \
	  -artifact_prefix=.build/fuzz-artifacts/$(TARGET)- Fuzz/Corpus/$(TARGET)

# Layout of every Swift file by the toolchain's swift-format and .swift-format (4 spaces, lines up
# to 180 columns, existing line breaks kept; the configuration enforces layout only, no lint rules).
# Examples/Tours is left as written: its programs are the README's blocks verbatim (ReadmeToursTests).
FORMAT_PATHS := Package.swift Sources Tools Tests Benchmarks Fuzz
SWIFT_FORMAT := $(shell command -v swift-format 2>/dev/null || echo "swift format")
format:
	@$(SWIFT_FORMAT) format --in-place --recursive --configuration .swift-format $(FORMAT_PATHS)

format-check:
	@$(SWIFT_FORMAT) lint --strict --recursive --configuration .swift-format $(FORMAT_PATHS) || \
	  { echo "format-check: run \`make format\` (swift-format with .swift-format) and commit the result" >&2; exit 1; }

# The same release build an app gets; the kernel level is chosen at run time (BLAZE_ISA forces one).
bench: deps
	@swift build -c release --product bench 1>&2
	@$$(swift build -c release --show-bin-path)/bench $(ARGS)

# blaze over many images with Spark (Examples/Spark/), in local mode here: installs PySpark into
# .build/spark-venv (network, Java 17), checks one output line per input. Not part of `make test`.
example-spark: deps
	@Examples/Spark/run_local.sh

# Re-create Models/bkm from Models/sources (see Models/README.md).
models:
	@Tools/models/convert_models.sh

# The DocC site of BlazeKit (Sources/BlazeKit/BlazeKit.docc + the module's symbol graphs) in
# docs-site/, static, for any web server. Tools/docs/check_docs_site.sh opens it in headless
# Chromium and saves a screenshot.
docs: deps
	@rm -rf .build/docs/blazekit-graphs && mkdir -p .build/docs/symbol-graphs .build/docs/blazekit-graphs
	@swift build -c release --scratch-path .build/docs --target BlazeKit -Xswiftc -emit-symbol-graph \
	  -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/docs/symbol-graphs 1>&2
	@cp .build/docs/symbol-graphs/BlazeKit.symbols.json .build/docs/symbol-graphs/BlazeKit@*.symbols.json .build/docs/blazekit-graphs/ 2>/dev/null || \
	  cp .build/docs/symbol-graphs/BlazeKit.symbols.json .build/docs/blazekit-graphs/
	@docc convert Sources/BlazeKit/BlazeKit.docc --fallback-display-name BlazeKit --fallback-bundle-identifier org.blazekit.BlazeKit \
	  --additional-symbol-graph-dir .build/docs/blazekit-graphs --output-path docs-site --transform-for-static-hosting 1>&2
	@echo "docs: docs-site/ (serve it, e.g. python3 -m http.server -d docs-site, and open /documentation/blazekit)"

# Linux arm64 from x86-64 (CONTRACTS §8): Tools/aarch64/setup caches sid's Swift 6.2.3 and an arm64
# sysroot outside the work tree (first run: Debian packages, about 8 GB); the products land in
# .build/aarch64-unknown-linux-gnu/release/. Tools/aarch64/run BINARY runs one under qemu-user.
aarch64:
	@Tools/aarch64/setup
	@for p in blaze bench blaze-model; do Tools/aarch64/build -c release --product $$p 1>&2 || exit 1; done

# The whole suite built for aarch64 and run under qemu-user (slow); level neon.
test-aarch64:
	@Tools/aarch64/setup
	@Tools/aarch64/build --tests -c release 1>&2
	@Tools/aarch64/test

# The SIMD kernel suites, one per op, against the reference kernels (Tests/BlazeEngineTests/SIMD).
SIMD_KERNEL_TESTS := DepthwiseKernelTests|PointwiseConvKernelTests|DirectConvKernelTests|FullyConnectedKernelTests|PoolKernelTests|ResizeBilinearKernelTests|ElementwiseKernelTests|FoldedPaddingKernelTests|ConvKernelLaneWidthTests|KernelWorkPartitionTests

# The part of it .ci/run runs (a few minutes of emulation): every kernel against the reference
# kernels, bitwise equality across thread counts, the bundled and unbundled MediaPipe nets' LiteRT
# parity, the FFmpeg reader, and the end-to-end faces, hands and face-landmarker photo tests.
AARCH64_CI_TESTS := $(SIMD_KERNEL_TESTS)|ChannelMajorConvTests|PartialVectorTests|ISACoverageTests|GemmKernelTests|SIMDIntegrationTests|ThreadDeterminismTests|BundledModelParityTests|UnbundledModelParityTests|VideoReaderTests|VideoConversionTests|FaceDetectionReferenceTests|HandReferenceTests|FaceLandmarkerImageTests
test-aarch64-ci:
	@Tools/aarch64/setup
	@Tools/aarch64/build --tests -c release 1>&2
	@Tools/aarch64/test --filter '$(AARCH64_CI_TESTS)'
