#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages OpenGDA needs to build and test. Idempotent: installs only
# what is missing and says what it installs. Run as root (or via sudo).
#
#   scripts/install-deps.sh          build + CPU tests
#   scripts/install-deps.sh --check  only report what is missing (exit 1 if anything is)
#   scripts/install-deps.sh --fuzz   also clang and libFuzzer (make fuzz, docs/fuzzing.md);
#                                    combines with --check
set -euo pipefail

# build tools, the test framework, and rdma-core headers (the libraries are dlopen'd at run time);
# rdma-core's example programs and perftest, which the rdma-core front end's tests run unmodified
# on the software NIC (tests/rdmacore_front, docs/rdma-core-front.md); iproute2, ping and curl
# for the Ethernet tests against Linux (tests/eth)
packages=(
  build-essential
  cmake
  pkg-config
  libcmocka-dev
  libibverbs-dev
  ibverbs-utils
  perftest
  iproute2
  iputils-ping
  curl
)

# The fuzz build: clang, and libclang_rt.fuzzer*.a (Debian 12: libclang-rt-14-dev).
fuzz_packages=(
  clang
  libclang-rt-14-dev
)

check_only=0
for arg in "$@"; do
  case "$arg" in
    --check) check_only=1 ;;
    --fuzz) packages+=("${fuzz_packages[@]}") ;;
    *) echo "usage: $0 [--check] [--fuzz]" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all build dependencies present (${packages[*]})"
  exit 0
fi

echo "install-deps: missing Debian packages: ${missing[*]}"
if [[ $check_only -eq 1 ]]; then
  exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: apt-get not found; this script supports Debian 12 (and derivatives)." >&2
  echo "install-deps: install the equivalents of: ${missing[*]}" >&2
  exit 1
fi

if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo)
  else
    echo "install-deps: not running as root. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    echo "or re-run this script as root: sudo $0" >&2
    exit 1
  fi
else
  as_root=()
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-deps: installing: ${missing[*]}"
# A fresh image has empty package lists; refresh them only when an install needs it.
if ! "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  echo "install-deps: refreshing package lists and retrying"
  "${as_root[@]}" apt-get update
  "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "install-deps: done"
