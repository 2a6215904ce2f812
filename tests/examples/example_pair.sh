#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# example_pair.sh <example> <args for both ends...>
# Runs a GPUNetIO Verbs example as server and client processes on host threads; both must exit
# 0, print "Validation successful" and write nothing to stderr.
# OGDA_EXAMPLES_SERVER_ARGS: extra arguments for the server only.
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
shift
# shellcheck disable=SC2086
start_server "$bin" --host-threads ${OGDA_EXAMPLES_SERVER_ARGS:-} "$@"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" --host-threads "$@" \
	>"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
for side in client server; do
	grep -q '^Validation successful' "$tmp/$side.out" || fail "the $side did not print Validation successful"
	grep -qE '^ *([a-z]+ +)?#bytes .*Kernel\[ms\]$' "$tmp/$side.out" || fail "the $side printed no table header"
	[ -s "$tmp/$side.err" ] && fail "the $side wrote to stderr"
done
# Every row of the table has five numbers (six with a leading mode column).
rows=$(grep -cE '^ +([a-z-]+ +)?[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/client.out")
[ "$rows" -ge 1 ] || fail "the client printed no result rows"
if [ -n "${OGDA_EXAMPLES_EXPECT_ROWS:-}" ] && [ "$rows" -ne "$OGDA_EXAMPLES_EXPECT_ROWS" ]; then
	fail "the client printed $rows rows, expected $OGDA_EXAMPLES_EXPECT_ROWS"
fi
echo "PASS: $(basename "$bin") $* ($rows rows, both sides validated)"
