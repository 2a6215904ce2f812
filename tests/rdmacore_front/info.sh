#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# info.sh <opengda-swnic-run> <opengda-info>: run through the front end, opengda-info names the
# front end as the rdma-core it loaded and shows its mlx5_0 as a software NIC (text and JSON);
# run without it, neither.
set -u
run=$1
info=$2
. "$(dirname "$0")/front_test_lib.sh"

"${run[@]}" "$info" >"$tmp/front.out" 2>&1 || fail "opengda-info through the front end failed"
expect_re "$tmp/front.out" "^  rdma-core release +libibverbs 1\.14\.44 \(OpenGDA's rdma-core front end"
expect_re "$tmp/front.out" "^  mlx5_0 +software NIC via the rdma-core front end$"
expect_re "$tmp/front.out" "^    GID 0 +fd4f:4744:4101:"
"${run[@]}" "$info" --json >"$tmp/front.json" 2>/dev/null || fail "opengda-info --json through the front end failed"
python3 - "$tmp/front.json" <<'PY' || fail "the JSON report does not show the front end"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["system"]["libibverbs_front_end"] is True
assert any(x["name"] == "mlx5_0" and "front end" in x["kind"] for x in d["devices"]["list"])
PY
"$info" >"$tmp/plain.out" 2>&1
if grep -q "front end" "$tmp/plain.out"; then
	fail "opengda-info without opengda-swnic-run reports the front end"
fi
echo "PASS: opengda-info shows the front end's devices"
