#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run_twosided_gpu.sh <dir>: the two-sided GPU checks on a machine with a GPU, from binaries in <dir>
# (gpu_dev_twosided and the gpunetio_verbs_{twosided_bw,send_lat,put_counter_bw} examples, with the
# shared libraries they need beside them). Runs the gpu-label test, then each example as two processes
# on the software NIC with one side in CUDA kernels and the other on host threads (both sides on one
# GPU share it by time slices: docs/examples.md), printing each result line; exit 1 on any failure.
set -u
dir=$(cd "${1:-.}" && pwd)
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OPENGDA_SWNIC_ADDR= DOCA_GPUNETIO_LOG=
fail=0

"$dir/gpu_dev_twosided" || fail=1

# pair <name> <server flags> <client flags> <common args...>
pair() {
	local name=$1 sflags=$2 cflags=$3 out port
	shift 3
	out=$(mktemp -d)
	# shellcheck disable=SC2086
	timeout 300 "$dir/gpunetio_verbs_$name" -d swnic0 --port 0 $sflags "$@" >"$out/server" 2>&1 &
	local spid=$!
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$out/server" | head -1)
		[ -n "$port" ] && break
		sleep 0.1
	done
	# shellcheck disable=SC2086
	timeout 300 "$dir/gpunetio_verbs_$name" -d swnic0 -c 127.0.0.1 --port "$port" $cflags "$@" >"$out/client" 2>&1
	local crc=$?
	wait "$spid"
	local src=$?
	echo "== $name server[$sflags] client[$cflags] $*: client $crc, server $src"
	grep -E 'executor|Validation|^ +[0-9]' "$out/client" | sed 's/^/  client: /'
	grep -E 'executor|Validation' "$out/server" | sed 's/^/  server: /'
	[ "$crc" -eq 0 ] && [ "$src" -eq 0 ] || fail=1
	rm -rf "$out"
}

pair twosided_bw "--host-threads" "" --min-size 8 --max-size 4096 -i 2048
pair twosided_bw "" "--host-threads" --min-size 64 --max-size 1024 -i 512
pair twosided_bw "--host-threads" "" -e warp -s 1024 -i 2048
pair twosided_bw "--host-threads" "" -e block -s 1024 -i 2048
pair send_lat "--host-threads" "" --min-size 8 --max-size 1024 -i 200
pair send_lat "" "--host-threads" -s 64 -i 200
pair put_counter_bw "--host-threads" "" --min-size 8 --max-size 65536 -i 2048
exit $fail
