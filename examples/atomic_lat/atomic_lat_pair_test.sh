#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# atomic_lat_pair_test.sh <gpunetio_verbs_atomic_lat> -i <N> [args...]
# Server and client on host threads: both must exit 0, print "Validation successful", write
# nothing to stderr, and print the table with its "mode" column and exactly two rows, latency then
# rate, each of N 8-byte fetch-adds with three positive numbers.
set -u
. "$(dirname "$0")/../../tests/samples/sample_test_lib.sh"

bin=$1
shift
[ "$1" = -i ] || fail "usage: $0 <binary> -i N [args...]"
iters=$2
start_server "$bin" --host-threads "$@"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" --host-threads "$@" \
	>"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
for side in client server; do
	out=$tmp/$side.out
	grep -q '^Validation successful' "$out" || fail "the $side did not print Validation successful"
	grep -qE '^ mode +#bytes +#iterations +Avg latency\[usec\] +MsgRate\[Mpps\] +Kernel\[ms\]$' "$out" ||
		fail "the $side printed no table header with the mode column"
	[ -s "$tmp/$side.err" ] && fail "the $side wrote to stderr"
	rows=$(sed -nE 's/^ ([a-z]+) +8 +'"$iters"' +[0-9.]*[1-9][0-9.]* +[0-9.]+ +[0-9.]*[1-9][0-9.]*$/\1/p' "$out" |
		tr '\n' ' ')
	[ "$rows" = "latency rate " ] || fail "the $side's rows are '$rows', expected 'latency rate ' with $iters 8-byte fetch-adds"
done
echo "PASS: $(basename "$bin") $* (latency and rate rows, both sides validated)"
