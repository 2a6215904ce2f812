#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# example_json.sh <example> <args...>
# With --json each side prints one JSON object: it must parse, say "successful", name the
# example and the executor, and carry one row per message size with positive numbers.
set -u
. "$(dirname "$0")/../samples/sample_test_lib.sh"

bin=$1
shift
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
	python3 - "$tmp/$side.out" "$(basename "$bin")" "$side" <<'PY' || fail "the $side's JSON is not right"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["example"] == sys.argv[2], doc["example"]
assert doc["role"] == sys.argv[3], doc["role"]
assert doc["validation"] == "successful", doc
assert doc["executor"] == "host threads", doc["executor"]
assert doc["error"] == "", doc["error"]
assert doc["checked_bytes"] >= 0
rows = doc["rows"]
assert len(rows) >= 1, rows
for r in rows:
    assert r["iterations"] > 0 and r["kernel_ms"] > 0, r
    assert r["bytes"] > 0, r
PY
done
echo "PASS: both sides printed valid JSON"
