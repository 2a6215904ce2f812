#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# open_pair.sh <opengda-swnic-run> <open_put_bw binary>: the open-release style put_bw as server
# and client processes on the software NIC, reached through rdma-core's API (the rdma-core
# front end). Both must exit 0; the server must have checked every byte, the client must have
# heard so.
set -u
run=$1
bin=$2
shift 2
. "$(dirname "$0")/../rdmacore_front/front_test_lib.sh"

port=$(free_port)
start_front_server "$port" "$bin" -s -p "$port"
timeout "$FRONT_WAIT_S" "${run[@]}" "$bin" -c 127.0.0.1 -p "$port" >"$tmp/client.out" 2>&1
crc=$?
wait_server
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
expect_re "$tmp/server.out" "^open_put_bw server: Validation successful: every byte landed$"
expect_re "$tmp/client.out" "^open_put_bw client: [0-9]+ puts of [0-9]+ bytes; server says every byte landed$"
echo "PASS: $(basename "$bin") as two processes through rdma-core on the software NIC"
