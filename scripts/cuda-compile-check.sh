#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compiles (compile-only; no GPU needed) every CUDA source and header in the tree with nvcc
# for each architecture given (default: sm_80 and sm_90). A .cuh, and a public .h that is
# meant for device code, is compiled through a one-line .cu that includes it, so each
# header must stand on its own.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
archs=("$@")
[[ ${#archs[@]} -gt 0 ]] || archs=(80 90)

nvcc=${NVCC:-$(command -v nvcc || true)}
[[ -n "$nvcc" ]] || { [[ -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc; }
if [[ -z "$nvcc" ]]; then
  echo "cuda-compile-check: nvcc not found; skipping device-code compile checks"
  exit 0
fi

cd "$top"
mapfile -t sources < <(git ls-files --cached --others --exclude-standard '*.cu' | sort)
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
count=0
for arch in "${archs[@]}"; do
  for f in "${sources[@]}"; do
    "$nvcc" "${flags[@]}" -I"$(dirname "$f")" -arch=sm_"$arch" -c "$f" -o "$work/out.o"
    count=$((count + 1))
  done
  for h in "${headers[@]}" "${dev_headers[@]}"; do
    printf '#include "%s"\n' "$top/$h" > "$work/inc.cu"
    "$nvcc" "${flags[@]}" -arch=sm_"$arch" -c "$work/inc.cu" -o "$work/out.o"
    count=$((count + 1))
  done
  echo "cuda-compile-check: sm_$arch: ${#sources[@]} sources, $(( ${#headers[@]} + ${#dev_headers[@]} )) headers OK"
done
echo "cuda-compile-check: $count compilations passed"
