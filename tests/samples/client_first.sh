#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# client_first.sh <doca_verbs_server_client> <bogus_peer>
# The client starts a second before the server: it keeps retrying its connection, and the
# run succeeds as if they had started the other way round.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
peer=$2
want="doca_verbs_server_client: write x4 of 256 bytes: success"
port=$("$peer" free-port) || fail "no free port"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" -ro write -s 256 -n 4 \
	>"$tmp/client.out" 2>"$tmp/client.err" &
cpid=$!
sleep 1
kill -0 "$cpid" 2>/dev/null || fail "the client gave up before the server started"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" --port "$port" -ro write -s 256 -n 4 \
	>"$tmp/server.out" 2>"$tmp/server.err"
src=$?
wait "$cpid"
crc=$?
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
expect_line "$tmp/client.out" "$want"
expect_line "$tmp/server.out" "$want"
echo "PASS: the client waited for the server"
