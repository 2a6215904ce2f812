#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# detect.sh <opengda-swnic-run> <front_detect>: through the front end the library's ConnectX path
# opens mlx5_0 and recognises the front end (queues then stay in host memory for a GPU); without
# it, it does not claim one.
set -u
run=$1
prog=$2
. "$(dirname "$0")/front_test_lib.sh"

"${run[@]}" "$prog" >"$tmp/front.out" 2>&1 || { cat "$tmp/front.out"; fail "through the front end"; }
cat "$tmp/front.out"
"$prog" none >"$tmp/plain.out" 2>&1
rc=$?
cat "$tmp/plain.out"
[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "without the front end"
echo "PASS: the front end is recognised, and only when it is there"
