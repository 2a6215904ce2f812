#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# example_fail.sh <example> <server args> -- <client args> -- <text both print>
# Runs server and client (host threads) in a way that must fail: both must exit 1 (not hang, not
# crash), and both outputs must carry the given text. OGDA_EXAMPLES_CLIENT_ENV: VAR=value words
# for the client only.
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
shift
sargs=()
while [ "$1" != "--" ]; do sargs+=("$1"); shift; done
shift
cargs=()
while [ "$1" != "--" ]; do cargs+=("$1"); shift; done
shift
want=$1
start_server "$bin" --host-threads "${sargs[@]}"
# shellcheck disable=SC2086
env ${OGDA_EXAMPLES_CLIENT_ENV:-} timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" \
	--host-threads "${cargs[@]}" >"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$crc" -eq 1 ] || fail "client exit status $crc, expected 1"
[ "$src" -eq 1 ] || fail "server exit status $src, expected 1"
grep -q 'Validation successful' "$tmp/client.out" "$tmp/server.out" && fail "a side claimed success"
for side in client server; do
	cat "$tmp/$side.out" "$tmp/$side.err" | grep -qF -- "$want" || fail "the $side does not say: $want"
done
echo "PASS: both sides failed and said: $want"
