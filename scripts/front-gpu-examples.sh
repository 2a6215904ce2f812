#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# front-gpu-examples.sh [build dir [example...]]
# On a machine with an NVIDIA GPU: the GPUNetIO examples with CUDA kernels on the client,
# the device opened as mlx5_0 through rdma-core, i.e. our ConnectX path (src/devx/hw*.c) on the
# rdma-core front end's software NIC (docs/rdma-core-front.md). The server keeps host threads and
# host memory (one GPU time-slices between two processes: docs/examples.md). Prints each client's
# table and both validation lines; exits 0 only when every pair validated.
set -u
build=$(cd "${1:-build}" && pwd)
shift || true
only=("$@")
export OPENGDA_FRONT_DIR=${OPENGDA_FRONT_DIR:-$build/lib/rdmacore-front}
export LD_LIBRARY_PATH="$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
run=$build/bin/opengda-swnic-run
tmp=$(mktemp -d)
spid=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
status=0

# pair_run <example> <args for both ends...>
pair_run() {
	local bin=$build/bin/$1 port="" crc src
	shift
	echo "=== $(basename "$bin") -d mlx5_0 $* (client: CUDA kernels; server: host threads)"
	"$run" "$bin" -d mlx5_0 --port 0 --host-threads "$@" >"$tmp/server.out" 2>"$tmp/server.err" &
	spid=$!
	for _ in $(seq 300); do
		port=$(sed -n 's/.* listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/server.out")
		[ -n "$port" ] && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$port" ]; then
		echo "server did not start:"; cat "$tmp/server.out" "$tmp/server.err"; status=1; return
	fi
	timeout 300 "$run" "$bin" -d mlx5_0 -c 127.0.0.1 --port "$port" "$@" 2>"$tmp/client.err"
	crc=$?
	# A client that failed before connecting leaves the server waiting for it: end it.
	[ "$crc" -ne 0 ] && { sleep 2; kill "$spid" 2>/dev/null; }
	wait "$spid"; src=$?; spid=""
	echo "server: $(tail -n 1 "$tmp/server.out")"
	cat "$tmp/client.err" "$tmp/server.err"
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
		echo "FAILED (client exit $crc, server exit $src)"; status=1
	fi
}

# Only the examples named on the command line after the build dir, when any are.
pair() {
	if [ $# -gt 0 ] && [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $1 "* ]]; then return; fi
	pair_run "$@"
}

pair gpunetio_verbs_put_bw --min-size 8 --max-size 65536 -i 512
pair gpunetio_verbs_write_bw --min-size 8 --max-size 65536 -i 512
pair gpunetio_verbs_get_bw --min-size 8 --max-size 65536 -i 512
pair gpunetio_verbs_write_lat --min-size 8 --max-size 4096 -i 200
pair gpunetio_verbs_atomic_lat -i 512
pair gpunetio_verbs_twosided_bw --min-size 8 --max-size 4096 -i 2048
pair gpunetio_verbs_send_lat --min-size 8 --max-size 1024 -i 200
pair gpunetio_verbs_put_counter_bw --min-size 8 --max-size 65536 -i 2048
exit $status
