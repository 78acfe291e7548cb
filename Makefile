# BlazeKit — the two commands of the README (`make demo`, `make test`) plus `make bench`.
# Each target installs missing Debian packages first; installer and build output go to stderr.
SHELL := /bin/bash
DEBS := libopenblas-dev libturbojpeg0-dev libpng-dev pkg-config

.PHONY: deps demo test bench models

deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:$$missing" >&2; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y $$missing >&2; \
	fi

# Faces (all ML Kit features) and hands on bundled test photos; annotated PNGs go to demo-output/.
demo: deps
	@swift build -c release --product blaze 1>&2
	@bin=$$(swift build -c release --show-bin-path); mkdir -p demo-output; \
	  $$bin/blaze faces --all --annotate demo-output/faces_three_people.png Tests/Fixtures/testdata/images/three_people.jpg && \
	  $$bin/blaze faces --all --json Tests/Fixtures/testdata/images/sergey_portrait.png | cut -c1-300 && \
	  $$bin/blaze hands --num-hands 2 --annotate demo-output/hands_two_open_palms.png Tests/Fixtures/testdata/images/two_hands_open_palms.jpg && \
	  echo "annotated pictures: demo-output/faces_three_people.png demo-output/hands_two_open_palms.png"

test: deps
	@swift test -c release

# The same release build an app gets; the kernel level is chosen at run time (BLAZE_ISA forces one).
bench: deps
	@swift build -c release --product bench 1>&2
	@$$(swift build -c release --show-bin-path)/bench $(ARGS)

# Re-create Models/bkm from Models/sources (see Models/README.md).
models:
	@Tools/models/convert_models.sh
