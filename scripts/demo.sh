#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# demo.sh [build dir] [extra example args...]
# The main job: gpunetio_verbs_put_bw as server and client processes on this machine's software
# NIC, with CUDA kernels when a GPU is usable and host threads otherwise. Prints the client's
# table and both validation lines; exits 0 only when both sides validated every byte.
set -u
build=${1:-build}
shift || true
bin="$build/bin/gpunetio_verbs_put_bw"
[ -x "$bin" ] || { echo "demo: $bin is missing: run 'make build' first" >&2; exit 1; }
args=(--max-size 65536 -i 512 "$@")
tmp=$(mktemp -d)
spid=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "demo: gpunetio_verbs_put_bw server and client on the software NIC (${args[*]})"
# The server only receives and checks. It keeps its buffer in host memory: with both processes on
# one GPU, the GPU would time-slice between them and every write into the server's GPU memory
# would wait for the client's kernel's time slice (milliseconds; docs/examples.md).
"$bin" -d swnic0 --port 0 --host-threads >"$tmp/server.out" 2>"$tmp/server.err" &
spid=$!
port=""
for _ in $(seq 300); do
	port=$(sed -n 's/.* listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/server.out")
	[ -n "$port" ] && break
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$port" ]; then
	echo "demo: the server did not start:" >&2
	cat "$tmp/server.out" "$tmp/server.err" >&2
	exit 1
fi
"$bin" -d swnic0 -c 127.0.0.1 --port "$port" "${args[@]}"
crc=$?
wait "$spid"
src=$?
spid=""
echo "demo: server: $(tail -n 1 "$tmp/server.out")"
cat "$tmp/server.err" >&2
if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
	echo "demo: FAILED (client exit $crc, server exit $src)" >&2
	exit 1
fi
echo "demo: OK"
