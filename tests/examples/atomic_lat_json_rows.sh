#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# atomic_lat_json_rows.sh <gpunetio_verbs_atomic_lat> -i <N> -b <B> -t <T> [args...]
# Both sides with --json (host threads): each object must say "successful" and carry exactly two
# rows, "mode" latency (1 thread) then rate (B x T threads), each of N 8-byte fetch-adds, and the
# exact byte counts checked: the client's old values (4 passes x N x 8), the server's buffer
# (4 passes x 64 bytes).
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
shift
[ "$1" = -i ] && [ "$3" = -b ] && [ "$5" = -t ] || fail "usage: $0 <binary> -i N -b B -t T [args...]"
iters=$2 blocks=$4 threads=$6
start_server "$bin" --host-threads --json "$@"
timeout "$SAMPLE_WAIT_S" "$bin" -d "$SAMPLE_DEVICE" -c 127.0.0.1 --port "$port" --host-threads --json "$@" \
	>"$tmp/client.out" 2>"$tmp/client.err"
crc=$?
wait_server
[ "$crc" -eq 0 ] || fail "client exit status $crc"
[ "$src" -eq 0 ] || fail "server exit status $src"
# The server's "listening on port" line comes before its JSON object.
sed -i '/ listening on port /d' "$tmp/server.out"
for side in client server; do
	python3 - "$tmp/$side.out" "$side" "$iters" "$blocks" "$threads" <<'PY' || fail "the $side's JSON is not right"
import json, sys
doc = json.load(open(sys.argv[1]))
side, iters, blocks, threads = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
assert doc["example"] == "gpunetio_verbs_atomic_lat", doc["example"]
assert doc["role"] == side, doc["role"]
assert doc["validation"] == "successful" and doc["error"] == "", doc
assert doc["executor"] == "host threads", doc["executor"]
assert (doc["blocks"], doc["threads"]) == (blocks, threads), doc
rows = doc["rows"]
assert [r["mode"] for r in rows] == ["latency", "rate"], rows
assert [r["threads"] for r in rows] == [1, blocks * threads], rows
for r in rows:
    assert r["bytes"] == 8 and r["iterations"] == iters, r
    assert r["avg_latency_usec"] > 0 and r["msg_rate_mpps"] > 0 and r["kernel_ms"] > 0, r
want = 4 * iters * 8 if side == "client" else 4 * 64
assert doc["checked_bytes"] == want, (doc["checked_bytes"], want)
PY
done
echo "PASS: both sides printed valid JSON with the latency and rate rows"
