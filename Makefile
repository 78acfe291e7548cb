# BlazeKit — the two commands of the README (`make demo`, `make test`) plus `make bench`.
# Each target installs missing Debian packages first; installer and build output go to stderr.
SHELL := /bin/bash
DEBS := libopenblas-dev libturbojpeg0-dev libpng-dev pkg-config
TUNED := -c release --scratch-path .build/tuned -Xswiftc -target-cpu -Xswiftc native -Xswiftc -DBLAZE_TUNED
DEMO_INPUT := Tests/BlazeEngineTests/Fixtures/parity/palm_detection_full/photo_hand_victory_white_bg/input.npy

.PHONY: deps demo test bench models

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing" >&2; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y $$missing >&2; \
	fi

demo: deps
	@swift build -c release --product blaze-model 1>&2
	@bin=$$(swift build -c release --show-bin-path); out=$$(mktemp -d); \
	  $$bin/blaze-model inspect Models/bkm/palm_detection_full.bkm && \
	  $$bin/blaze-model run Models/bkm/palm_detection_full.bkm --input $(DEMO_INPUT) --output-dir $$out && \
	  for f in $$out/*.npy; do python3 -c 'import sys' 2>/dev/null; echo "wrote $$(basename $$f): $$(head -c 128 $$f | tr -d '\000' | grep -o "'shape': ([^)]*)")"; done; \
	  rm -rf $$out

test: deps
	@swift test -c release

bench: deps
	@swift build $(TUNED) --product bench 1>&2
	@$$(swift build $(TUNED) --show-bin-path)/bench $(ARGS)

# Re-create Models/bkm from Models/sources (see Models/README.md).
models:
	@Tools/models/convert_models.sh
