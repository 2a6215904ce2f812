#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) with clang in their own build
# directory, replays each target's committed corpus (seeds and past crashes), then fuzzes
# each target for a bounded time. Exits 1 if any target crashed, leaked, timed out or
# broke a contract; the input that did it is saved under <build dir>/artifacts/.
#
#   scripts/fuzz.sh [--seconds N] [--build-dir DIR] [--seeds] [target ...]
#
#   --seconds N      fuzzing time per target (default 60; 0: replay the corpus only)
#   --build-dir DIR  default build-fuzz
#   --seeds          rewrite fuzz/corpus/*/seed-* with fuzz_seeds and stop
#   target ...       a subset of: fuzz_fabric_frame fuzz_swnic_cmd fuzz_wqe fuzz_oob
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build_dir=build-fuzz
write_seeds=0
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --build-dir) build_dir="$2"; shift 2 ;;
    --seeds) write_seeds=1; shift ;;
    -h|--help) sed -n '3,15p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: --seconds takes a whole number of seconds, not '$seconds'" >&2
  exit 2
fi
all=(fuzz_fabric_frame fuzz_swnic_cmd fuzz_wqe fuzz_oob)
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  if [[ " ${all[*]} " != *" $t "* ]]; then
    echo "fuzz.sh: unknown target $t (known: ${all[*]})" >&2
    exit 2
  fi
done

cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "fuzz.sh: $cc not found: run scripts/install-deps.sh --fuzz" >&2
  exit 1
fi

# Libraries and tools stay out: the targets need the library objects and the OOB sources only.
CC="$cc" cmake -S . -B "$build_dir" -DOGDA_BUILD_FUZZ=ON -DOGDA_BUILD_TESTS=OFF -DOGDA_BUILD_TOOLS=OFF -DOGDA_WITH_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target fuzz_all

if [[ $write_seeds -eq 1 ]]; then
  "$build_dir/bin/fuzz_seeds" fuzz/corpus
  echo "fuzz.sh: seeds written under fuzz/corpus"
  exit 0
fi

# Leaks are failures; a sanitizer report stops the target at once.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

max_len() {
  case "$1" in
    fuzz_swnic_cmd) echo 8192 ;;   # a program of several full command images
    *) echo 4096 ;;
  esac
}

failed=()
for t in "${targets[@]}"; do
  work="$build_dir/corpus/$t"       # what the fuzzer finds; the committed corpus stays read-only
  artifacts="$build_dir/artifacts"
  mkdir -p "$work" "$artifacts"
  opts=(-max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts/$t-"
        -print_final_stats=1)
  # The OOB receivers print one error line per refused message: keep the fuzzer's own output.
  [[ $t == fuzz_oob ]] && opts+=(-close_fd_mask=2)

  echo "=== $t: replaying fuzz/corpus/$t"
  if ! "$build_dir/bin/$t" "${opts[@]}" -runs=0 "fuzz/corpus/$t"; then
    failed+=("$t (committed corpus)")
    continue
  fi
  [[ $seconds -gt 0 ]] || continue
  echo "=== $t: fuzzing for ${seconds}s"
  if ! "$build_dir/bin/$t" "${opts[@]}" -max_total_time="$seconds" "$work" "fuzz/corpus/$t"; then
    failed+=("$t")
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: FAILED: ${failed[*]}; inputs in $build_dir/artifacts/ (docs/fuzzing.md: reproducing)" >&2
  exit 1
fi
echo "fuzz.sh: ${targets[*]}: no crash (${seconds}s each)"
