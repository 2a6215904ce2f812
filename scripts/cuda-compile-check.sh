#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compiles (compile-only; no GPU needed) every CUDA source and header in the tree with nvcc
# for each architecture given (default: sm_80 and sm_90). A .cuh, and a public .h that is
# meant for device code, is compiled through a one-line .cu that includes it, so each
# header must stand on its own. Up to CUDA_CHECK_JOBS (default: nproc) compilations at once.
#   scripts/cuda-compile-check.sh [--headers-only] [ARCH...]
# --headers-only: skip the .cu sources (the CMake build compiles each of them for
# OGDA_CUDA_ARCHITECTURES with the same warnings as errors).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
headers_only=0
if [[ ${1:-} == --headers-only ]]; then
  # The CMake build compiles every .cu with these same warnings; CI then checks the headers only.
  headers_only=1
  shift
fi
archs=("$@")
[[ ${#archs[@]} -gt 0 ]] || archs=(80 90)

nvcc=${NVCC:-$(command -v nvcc || true)}
[[ -n "$nvcc" ]] || { [[ -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc; }
if [[ -z "$nvcc" ]]; then
  echo "cuda-compile-check: nvcc not found; skipping device-code compile checks"
  exit 0
fi

cd "$top"
sources=()
[[ $headers_only -eq 1 ]] || mapfile -t sources < <(git ls-files --cached --others --exclude-standard '*.cu' | sort)
mapfile -t headers < <(git ls-files --cached --others --exclude-standard '*.cuh' | sort)
# Public headers that carry device code (marked by a "device-code: yes" comment).
mapfile -t dev_headers < <(git grep -l --untracked 'device-code: yes' -- 'include/*.h' 2>/dev/null | sort || true)

if [[ ${#sources[@]} -eq 0 && ${#headers[@]} -eq 0 && ${#dev_headers[@]} -eq 0 ]]; then
  echo "cuda-compile-check: no CUDA sources or headers in the tree"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I"$top/include" -I"$top/src"
       -I"$top/examples/common" -I"$top/samples/common")
jobs=${CUDA_CHECK_JOBS:-$(nproc)}

# One compilation: $1 architecture, $2 the file (a .cu as is; a header through a one-line .cu).
compile_one() {
  local arch=$1 f=$2 dir
  dir=$(mktemp -d -p "$work")
  if [[ $f == *.cu ]]; then
    "$nvcc" "${flags[@]}" -I"$(dirname "$f")" -arch=sm_"$arch" -c "$f" -o "$dir/out.o"
  else
    printf '#include "%s"\n' "$top/$f" > "$dir/inc.cu"
    "$nvcc" "${flags[@]}" -arch=sm_"$arch" -c "$dir/inc.cu" -o "$dir/out.o"
  fi || { echo "cuda-compile-check: FAILED: $f for sm_$arch" >&2; return 1; }
  rm -rf "$dir"
}

# Up to $jobs compilations at once (nvcc is single-threaded); any failure fails the check.
failed=0
count=0
running=0
for arch in "${archs[@]}"; do
  for f in "${sources[@]}" "${headers[@]}" "${dev_headers[@]}"; do
    compile_one "$arch" "$f" &
    count=$((count + 1))
    running=$((running + 1))
    if (( running >= jobs )); then
      wait -n || failed=$((failed + 1))
      running=$((running - 1))
    fi
  done
done
while (( running > 0 )); do
  wait -n || failed=$((failed + 1))
  running=$((running - 1))
done
if (( failed > 0 )); then
  echo "cuda-compile-check: $failed of $count compilations failed" >&2
  exit 1
fi
echo "cuda-compile-check: sm_${archs[*]}: ${#sources[@]} sources, $(( ${#headers[@]} + ${#dev_headers[@]} )) headers; $count compilations passed"
