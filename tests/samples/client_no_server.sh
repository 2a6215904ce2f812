#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# client_no_server.sh <doca_verbs_server_client> <bogus_peer>
# A client pointed at a port nobody listens on gives up after its --timeout (1 s here) with
# exit status 1 and a message naming the address; it must not hang.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
peer=$2
port=$("$peer" free-port) || fail "no free port"
start=$(date +%s)
timeout 30 "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" -t 1 >"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
elapsed=$(($(date +%s) - start))
[ "$crc" -eq 1 ] || fail "client exit status $crc, 1 expected"
[ "$elapsed" -le 10 ] || fail "the client took $elapsed s to give up with -t 1"
why="out-of-band: cannot connect to 127.0.0.1 port $port within 1000 ms"
expect_text "$tmp/client.err" "doca_verbs_server_client: error: $why"
expect_text "$tmp/client.out" "doca_verbs_server_client: send x1 of 64 bytes: FAILED: $why"
echo "PASS: the client gave up after $elapsed s with exit status 1"
