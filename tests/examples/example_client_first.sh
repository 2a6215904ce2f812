#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# example_client_first.sh <example> <free-port helper> <args...>
# The client starts a second before the server: it keeps retrying, and the run succeeds.
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
peer=$2
shift 2
port=$("$peer" free-port) || fail "no free port"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" --host-threads "$@" \
	>"$tmp/client.out" 2>"$tmp/client.err" &
cpid=$!
sleep 1
kill -0 "$cpid" 2>/dev/null || fail "the client gave up before the server started"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" --port "$port" --host-threads "$@" \
	>"$tmp/server.out" 2>"$tmp/server.err"
src=$?
wait "$cpid"
crc=$?
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
grep -q '^Validation successful' "$tmp/client.out" || fail "the client did not validate"
grep -q '^Validation successful' "$tmp/server.out" || fail "the server did not validate"
echo "PASS: the client waited for the server"
