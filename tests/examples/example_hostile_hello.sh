#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# example_hostile_hello.sh <example> <hostile_hello> <example id>
# A client sends the server a hello whose blocks x threads x max size is far over the bound. The
# server must refuse it before allocating (exit 1, saying why) and tell the client in an error
# frame, which the client prints (exit 1).
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
hostile=$2
id=$3
bound="1024 x 1024 threads x 1073741824-byte messages need more than 1073741824 bytes of buffer"
start_server "$bin" --host-threads
timeout "$SAMPLE_WAIT_S" "$hostile" "$port" "$id" >"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$src" -eq 1 ] || fail "server exit status $src, expected 1"
[ "$crc" -eq 1 ] || fail "client exit status $crc, expected 1 (3: the server accepted the hello)"
grep -qF -- "error: $bound" "$tmp/server.err" || fail "the server does not say: $bound"
grep -qF -- "the client's hello asks for more buffer than a run may have: refused" "$tmp/server.err" ||
	fail "the server does not say it refused the hello"
grep -qF -- "hostile_hello: error: the peer stopped: $bound" "$tmp/client.err" ||
	fail "the client did not get the server's reason in an error frame"
grep -q 'Validation successful' "$tmp/server.out" && fail "the server claimed success"
echo "PASS: the server refused the hello and told the client: $bound"
