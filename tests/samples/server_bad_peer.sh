#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# server_bad_peer.sh <doca_verbs_server_client> <bogus_peer> <fault> <expected error text>
# A peer that breaks the out-of-band protocol: the server must refuse it with exit status 1
# and an error line saying why, and hang up on it.
set -u
. "$(dirname "$0")/sample_test_lib.sh"

bin=$1
peer=$2
fault=$3
want=$4
start_server "$bin" -t 5
timeout 30 "$peer" 127.0.0.1 "$port" "$fault" >"$tmp/peer.out" 2>"$tmp/peer.err"
prc=$?
wait_server
[ "$src" -eq 1 ] || fail "server exit status $src, 1 expected"
[ "$prc" -eq 0 ] || fail "the bogus peer was not hung up on (status $prc)"
expect_text "$tmp/server.err" "doca_verbs_server_client: error: $want"
expect_text "$tmp/server.out" "doca_verbs_server_client: send x1 of 64 bytes: FAILED: $want"
echo "PASS: the server refused the '$fault' peer: $want"
