#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# server_client_pair.sh <doca_verbs_server_client> <expected final line> <args for both ends...>
# Runs a server and a client as two processes; both must exit 0 and print the final line.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
want=$2
shift 2
start_server "$bin" "$@"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" "$@" \
	>"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
expect_line "$tmp/client.out" "$want"
expect_line "$tmp/server.out" "$want"
# OGDA_SAMPLES_EXPECT_TEXT: text both ends must also print.
if [ -n "${OGDA_SAMPLES_EXPECT_TEXT:-}" ]; then
	expect_text "$tmp/client.out" "$OGDA_SAMPLES_EXPECT_TEXT"
	expect_text "$tmp/server.out" "$OGDA_SAMPLES_EXPECT_TEXT"
fi
[ -s "$tmp/client.err" ] && fail "the client wrote to stderr"
[ -s "$tmp/server.err" ] && fail "the server wrote to stderr"
echo "PASS: $want (server and client)"
