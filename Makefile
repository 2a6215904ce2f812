# SPDX-License-Identifier: BSD-3-Clause
# Entry points. Each target does its own set-up on a fresh Debian 12 machine.
#   make test    install dependencies, configure, build, run the CPU test suite (CTest)
#   make demo    install dependencies, configure, build, run the main job (put_bw on the software NIC)
#   make build   configure and build only
#   make fuzz    install clang + libFuzzer, build the fuzz targets (build-fuzz/) and run each
#                for FUZZ_SECONDS seconds (default 60; docs/fuzzing.md)
#   make clean   remove build/

BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
FUZZ_SECONDS ?= 60
FUZZ_BUILD_DIR ?= build-fuzz

.PHONY: all deps configure build test demo fuzz clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The CPU suite; tests labelled gpu need a GPU and run with: ctest --test-dir build -L gpu
test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS) -LE '^gpu$$'

# The main job: put_bw server + client on the software NIC (kernels with a GPU, else host threads).
demo: build
	scripts/demo.sh $(BUILD_DIR)

# libFuzzer targets, built with clang in their own directory; fails on any crash.
fuzz:
	@scripts/install-deps.sh --fuzz
	scripts/fuzz.sh --seconds $(FUZZ_SECONDS) --build-dir $(FUZZ_BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR)
