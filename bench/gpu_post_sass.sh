#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Static SASS of one post per path (the one_* kernels of bench/gpu_post_bench.cu): instructions,
# system-scope memory barriers (MEMBAR.*.SYS), other barriers (MEMBAR at GPU/CTA scope, L1
# invalidations CCTL.IVALL), atomics and doorbell stores. Counts include error and wrap paths that a
# post does not execute; they compare paths, they are not a cycle count.
#
#   bench/gpu_post_sass.sh [binary]    (default: builds bench/gpu_post_bench.cu for sm_90 into a temp dir)
# Needs nvcc (to build) and cuobjdump with nvdisasm on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [[ -z "$bin" ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  bin=$tmp/gpu_post_bench
  nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude bench/gpu_post_bench.cu -o "$bin"
fi
command -v cuobjdump >/dev/null || { echo "gpu_post_sass: cuobjdump not found on PATH" >&2; exit 1; }
printf '%-22s %6s %9s %10s %6s %7s %8s\n' kernel instr MEMBAR.SYS MEMBAR.GPU IVALL atomics doorbell
for k in one_floor one_put_thread_excl one_put_thread_gpu one_put_warp_gpu one_put_block_gpu one_lowlevel_8; do
  sass=$(cuobjdump -sass -fun "_Z${#k}${k}P21doca_gpu_dev_verbs_qp" "$bin" 2>/dev/null | grep -E '^\s+/\*[0-9a-f]{4}\*/' || true)
  [[ -n "$sass" ]] || { echo "gpu_post_sass: no SASS for $k" >&2; exit 1; }
  n=$(grep -cv -E '\s(NOP|BRA `\(\.L_x_[0-9]+\) ;)' <<<"$sass" || true)
  sys=$(grep -c 'MEMBAR\.[A-Z]*\.SYS' <<<"$sass" || true)
  gpu=$(grep -c -E 'MEMBAR\.[A-Z]*\.(GPU|CTA)' <<<"$sass" || true)
  iv=$(grep -c 'CCTL.IVALL' <<<"$sass" || true)
  at=$(grep -c -E '\s(ATOM|ATOMG|RED)[. ]' <<<"$sass" || true)
  db=$(grep -c 'MMIO' <<<"$sass" || true)
  printf '%-22s %6s %9s %10s %6s %7s %8s\n' "$k" "$n" "$sys" "$gpu" "$iv" "$at" "$db"
done
