#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# server_client_mismatch.sh <doca_verbs_server_client>
# The client asks for 5 messages, the server for 4: the server refuses the client's
# connection info, tells the client why, and both exit 1 naming the difference.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
why="the client runs send x5 of 64 bytes (RC), this side send x4 of 64 bytes (RC):"
why="$why give both ends the same -ro, -n, -s and -qt"
start_server "$bin" -n 4 -t 5
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" -n 5 -t 5 \
	>"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$src" -eq 1 ] || fail "server exit status $src, 1 expected"
[ "$crc" -eq 1 ] || fail "client exit status $crc, 1 expected"
expect_line "$tmp/server.out" "doca_verbs_server_client: send x4 of 64 bytes: FAILED: $why"
expect_line "$tmp/client.out" "doca_verbs_server_client: send x5 of 64 bytes: FAILED: the server failed: $why"
echo "PASS: both ends refused the mismatch"
